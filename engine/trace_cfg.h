/*
 * trace_cfg.h: configuration of recorded-trace replay (Accel-Sim .traceg,
 * engine/trace.c): how many cycles each class of non-memory SASS instruction
 * keeps its warp busy. Memory instructions take their timing from the memory
 * model; these keys only shape the compute part of a trace. Table in
 * trace_cfg.c.
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
};

#endif
