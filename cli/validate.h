/*
 * validate.h: `gpustep validate`, the NVIDIA presets measured with the
 * built-in microbenchmarks (pointer_chase, stream, smem_conflict) and set
 * beside published real-hardware numbers (configs/validation/published.json,
 * docs/VALIDATION.md).
 *
 * Each metric is measured by two runs that differ only in the amount of
 * measured work (iterations, words, repetitions), so fixed costs (kernel
 * launch, warm-up, the pipeline's fill and drain) cancel:
 *
 *   latency   = (cycles(2A) - cycles(A)) / A           core cycles per load
 *   bandwidth = (bytes(2N) - bytes(N)) / time          GB/s at core.clock_mhz
 */
#ifndef GPUSTEP_VALIDATE_H
#define GPUSTEP_VALIDATE_H

#include <stdbool.h>

#include "sim/config.h"

enum vmetric {
	VM_L1_HIT_LATENCY,
	VM_L2_HIT_LATENCY,
	VM_DRAM_LATENCY,
	VM_SMEM_LATENCY,
	VM_SMEM_CONFLICT_32WAY,
	VM_DRAM_BANDWIDTH,
	VM_L2_BANDWIDTH,
	VM__COUNT
};

struct vrow {
	const char *metric;  /* "l1_hit_latency", ... (names scripts rely on) */
	const char *unit;    /* "cycles" or "GB/s" */
	bool is_bw;          /* tolerance class: bandwidth (else latency) */
	bool measured;       /* false: skipped (--quick, or the machine lacks what it needs) */
	double gpustep;
	bool has_published;
	double published;
	char source[256];    /* citation of the published value */
	char unmet[256];     /* why the row cannot be met, from the data file ("" = none) */
	char how[160];       /* the runs behind the number */
};

struct vtable {
	char machine[64];
	struct vrow rows[VM__COUNT];
};

/* Measure every metric of one machine (a validated config; name = preset or
 * file stem, used to find the published values). quick: the latency rows
 * only, with fewer iterations. -1 with *err on a run that fails. */
int validate_machine(const struct sim_cfg *cfg, const char *name, bool quick, struct vtable *t, char **err);

/* |gpustep / published - 1| in percent (row must have both). */
double validate_error_pct(const struct vrow *r);

/* `gpustep validate ...` (argv[0] = "validate"); exit status. */
int validate_main(int argc, char **argv);

#endif
