/*
 * trace_cfg.h: configuration of recorded-trace replay (Accel-Sim .traceg,
 * engine/trace/trace.c): how many cycles each class of non-memory SASS instruction
 * keeps its warp busy (memory instructions take their timing from the memory
 * model), and what host-to-device copies (MemcpyHtoD lines of a kernel list)
 * do to the L2. Table in trace_cfg.c.
 */
#ifndef GPUSTEP_TRACE_CFG_H
#define GPUSTEP_TRACE_CFG_H

struct trace_cfg {
	int alu_cycles;    /* integer / fp32 / logic / move / conversion */
	int sfu_cycles;    /* MUFU (special function unit) */
	int dp_cycles;     /* fp64: DADD DMUL DFMA ... */
	int tensor_cycles; /* HMMA IMMA BMMA DMMA HGMMA */
	int branch_cycles; /* BRA, EXIT mid-trace, convergence barriers, NOP */
	int misc_cycles;   /* MEMBAR, DEPBAR, ERRBAR, CCTL, LDC, S2R ... */
	int memcpy_mode;   /* enum trace_memcpy: what a list's MemcpyHtoD lines do */
	int xz_window_mb;  /* decompressed .traceg.xz text held at once (front end, load/trace_io.c) */
};

/* trace.memcpy (engine/mem/hostcopy.h, docs/TRACES.md). */
enum trace_memcpy {
	TRACE_MEMCPY_IGNORE,  /* counted; the caches do not see the copy */
	TRACE_MEMCPY_L2_FILL, /* the copied lines are installed in the L2 before the next kernel */
	TRACE_MEMCPY_L2_FILL_ADDR32, /* the same at each 32-byte step's address kept in 32 bits (Accel-Sim) */
};

#endif
