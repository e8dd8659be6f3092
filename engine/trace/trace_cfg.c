/*
 * trace_cfg.c: the `trace.*` config section (see trace_cfg.h). The defaults
 * are issue-to-issue intervals of a warp that runs dependent instructions of
 * each class, rounded from the Volta paper's measured latencies (int/fp32 ~4,
 * MUFU ~8+, fp64 ~8 on TITAN V); the model has no per-register ALU
 * scoreboard, so the interval is also the dependency delay.
 *
 * trace.memcpy defaults to ignore (the teaching machine starts cold, which is
 * easier to reason about); the NVIDIA presets set l2_fill because copy-engine
 * writes reach device memory through the L2 there (docs/TRACES.md).
 */
#include <stdio.h>

#include "sim/config.h"

#define P_INT(path, field, def, lo, hi, desc) {path, CFG_INT, CFG_OFF(field), def, lo, hi, 0, NULL, desc}
#define P_ENUM(path, field, def, names, desc) {path, CFG_ENUM, CFG_OFF(field), def, 0, 0, 0, names, desc}

static const char *const memcpy_names[] = {"ignore", "l2_fill", "l2_fill_addr32", NULL};

static const struct cfg_param trace_params[] = {
	P_INT("trace.alu_cycles", trace.alu_cycles, "4", 1, 1000,
	      "trace replay: cycles an integer/fp32/logic/move SASS instruction keeps its warp busy"),
	P_INT("trace.sfu_cycles", trace.sfu_cycles, "8", 1, 1000, "trace replay: cycles for MUFU (special functions)"),
	P_INT("trace.dp_cycles", trace.dp_cycles, "8", 1, 1000, "trace replay: cycles for fp64 instructions (D*)"),
	P_INT("trace.tensor_cycles", trace.tensor_cycles, "16", 1, 1000,
	      "trace replay: cycles for tensor-core instructions (HMMA, IMMA, ...)"),
	P_INT("trace.branch_cycles", trace.branch_cycles, "2", 1, 1000,
	      "trace replay: cycles for branches, convergence barriers (BSSY/BSYNC), NOP"),
	P_INT("trace.misc_cycles", trace.misc_cycles, "4", 1, 1000,
	      "trace replay: cycles for MEMBAR, DEPBAR, LDC, S2R and other non-memory instructions"),
	P_ENUM("trace.memcpy", trace.memcpy_mode, "ignore", memcpy_names,
	       "MemcpyHtoD lines of a kernel list: ignore (caches stay as they are), l2_fill (the copied lines are "
	       "installed in the L2, clean, just before the next kernel starts; NVIDIA presets) or l2_fill_addr32 "
	       "(as Accel-Sim: each 32-byte step's address kept in 32 bits, so copies above 4 GB land on tags "
	       "no kernel uses)"),
	P_INT("trace.xz_window_mb", trace.xz_window_mb, "256", 1, 1048576,
	      "trace replay: megabytes of decompressed .traceg.xz text held at once (thread blocks are decoded as "
	      "they launch; a single thread block must fit)"),
};

const struct cfg_section trace_cfg_section = {
	.name = "trace",
	.params = trace_params,
	.nparams = ARRAY_LEN(trace_params),
};
