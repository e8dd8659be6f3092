/*
 * opunit.h: execution units with a latency and an initiation interval
 * (core.op_model = units), as GPGPU-Sim's pipelined SIMD units time them:
 * a unit takes a new instruction every `initiation` cycles, its result is
 * written `latency` cycles after it entered, and the scoreboard holds any
 * later instruction of the warp that reads or rewrites that register until
 * then. Units per SM per class (core.op_<unit>_units), shared by the SM's
 * schedulers or split among them (core.op_sub_core). Model and sources:
 * docs/MODEL.md "Execution units".
 */
#ifndef GPUSTEP_OPUNIT_H
#define GPUSTEP_OPUNIT_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/kernel.h"

#define OPU_MAX_UNITS 8 /* core.op_<unit>_units */
#define OPU_RES 16      /* ALU results in flight per warp (a full table holds the warp: `alu`) */

struct opu_warp {
	uint64_t ready[OPU_RES]; /* in flight while > now */
	uint8_t reg[OPU_RES];
};

struct opu_sm {
	uint64_t free_at[KU__COUNT][OPU_MAX_UNITS]; /* unit k of a class takes its next instruction then */
	uint32_t st_insts[KU__COUNT];               /* core.op.<unit>.insts */
	struct opu_warp *w;                         /* per warp slot */
};

/* What an instruction waits for before the units let it issue. */
enum opu_wait_kind { OPU_OK, OPU_DEP, OPU_UNIT, OPU_FULL };
struct opu_wait {
	unsigned kind;  /* enum opu_wait_kind */
	unsigned unit;  /* enum kunit: the class the instruction runs on (OPU_UNIT) */
	int reg;        /* OPU_DEP: the register */
	uint64_t until; /* the cycle it can go */
};

struct sim;
struct sm;

/* Allocate each SM's units (core.op_model = units) and register the stats. */
void opu_init(struct sim *s);
/* The class that executes instructions of class u (a class with no units
 * runs on another: int and sfu on sp, dp on sfu, tensor on sp, branch on int). */
unsigned opu_class(const struct sim *s, unsigned u);
/* Why instruction `in` of warp `slot` cannot issue now, if so. */
void opu_wait(const struct sim *s, const struct sm *sm, int slot, const struct winst *in, struct opu_wait *out);
/* In warp_blocker: STALL_NONE or STALL_ALU, with the wake-up time noted. */
unsigned opu_blocker(struct sim *s, struct sm *sm, int slot, const struct winst *in);
/* An ALU instruction executes: takes its unit, records its result; returns
 * the cycles its warp's issue slot stays busy. */
uint64_t opu_issue(struct sim *s, struct sm *sm, int slot, const struct winst *in);

#endif
