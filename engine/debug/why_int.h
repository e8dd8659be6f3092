/*
 * why_int.h: what the two halves of `why` share (inspect_why.c: the warp's
 * side, from its stall to the instruction and its request at the L1;
 * inspect_why_mem.c: the memory side, from the L1's queues and MSHRs
 * through the L2 bank to the DRAM bank). Internal to engine/debug.
 */
#ifndef GPUSTEP_WHY_INT_H
#define GPUSTEP_WHY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "inspect.h"
#include "sim/sim_int.h"

struct chain {
	struct why_link *v;
	int n, max;
	struct why_link def; /* the target links get until another is set (deft) */
};

/* "s" unless n is 1: "1 request", "2 requests". */
#define WHY_S(n) ((n) == 1 ? "" : "s")

/* Append a link (dropped when the chain is full). */
void why_add(struct chain *c, uint64_t since, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* What the links added from now on name ... */
void why_deft(struct chain *c, enum why_target t, int sm, int unit, int entry, uint64_t addr);
/* ... and what the link just added names, when more precise. */
void why_tgt(struct chain *c, enum why_target t, int sm, int unit, int entry, uint64_t addr);

/* The memory side (inspect_why_mem.c). */
void why_row_words(int64_t open, uint32_t want, char *buf, size_t len);
const char *why_head_wait_words(const struct sim *s, const struct l2bank *b, char *buf, size_t len);
uint32_t why_queue_find_line(const struct sim *s, const struct reqq *q, uint64_t line, int *pos);
void why_nack_link(const struct sim *s, const struct l1 *l, uint32_t ri, int pos, struct chain *c);
void why_chain_l2(const struct sim *s, uint64_t line, int smi, bool expect, struct chain *c);
void why_chain_vmb(const struct sim *s, const struct sm *sm, int v, const char *pre, struct chain *c);

#endif
