/*
 * rf_cfg.h: configuration of the register file on the operand path (notes
 * 002 §2, Mao 2016 ch. 3): SRAM or racetrack banks, tracks, ports, the
 * register remapping policy, the write buffer, RMWS tie-break and the energy
 * table. Parameter table and validator in rf_cfg.c; the model in regfile.c.
 */
#ifndef GPUSTEP_RF_CFG_H
#define GPUSTEP_RF_CFG_H

#include <stdbool.h>

enum rf_kind { RF_SRAM, RF_RACETRACK };
enum rf_remap { RF_REMAP_CONTIGUOUS, RF_REMAP_EQ3_3, RF_REMAP_BALANCED };
enum rf_tiebreak { RF_TIE_GTO, RF_TIE_OLDEST, RF_TIE_LRR };
enum rf_shift_scope { RF_SHIFT_PER_BANK, RF_SHIFT_PER_TRACK };
enum rf_wb_claim { RF_WB_AT_WRITEBACK, RF_WB_AT_ISSUE };
enum rf_wb_void { RF_VOID_AT_ISSUE, RF_VOID_AT_ARRIVAL };
enum rf_wr_spread { RF_WR_INTERLEAVE, RF_WR_ONE_BANK };
enum rf_rmws_score { RF_SCORE_READS, RF_SCORE_ACCESSES };
enum rf_rmws_no_reads { RF_NOREAD_ZERO, RF_NOREAD_LAST };

struct rf_cfg {
	int kind;            /* enum rf_kind */
	int banks;           /* per SM */
	int entries;         /* warp registers per bank = domains per track */
	int entry_bytes;     /* one warp register; tracks per bank = entry_bytes * 8 */
	int ports;           /* racetrack: access ports per track */
	int clock_mhz;       /* RF clock; 0 = twice core.clock_mhz (the thesis's 1400 vs 700) */
	int read_cycles;     /* racetrack read, RF cycles */
	int write_cycles;    /* racetrack write, RF cycles */
	int shift_cycles;    /* RF cycles per 1-bit shift */
	int sram_cycles;     /* SRAM read/write, RF cycles; 0 = free operand path (no bank model) */
	int remap;           /* enum rf_remap */
	bool warp_shift;     /* bank = (reg + warp) mod banks */
	bool warp_reg_remap; /* Fig. 11: scheduler k's warps use only banks [k*B/S, (k+1)*B/S) */
	int warp_reg_spread; /* enum rf_wr_spread: a warp's registers over its scheduler's banks */
	int wb_entries;      /* racetrack write buffer, total per SM (0 = off) */
	int wb_claim;        /* enum rf_wb_claim: when a destination takes its entry */
	int wb_void;         /* enum rf_wb_void: when a newer write of the same register voids a buffered one */
	int tiebreak;        /* enum rf_tiebreak (RMWS) */
	int queue_limit;     /* arbitrator queue depth that blocks issue (back-pressure) */
	int rmws_score;      /* enum rf_rmws_score: the register accesses RMWS's score counts */
	int rmws_no_reads;   /* enum rf_rmws_no_reads: where RMWS ranks an instruction with nothing to score */
	/* energy (Table 3 of the thesis) */
	double rm_read_pj, rm_write_pj, shift_pj, rm_leak_mw;
	double sram_read_pj, sram_write_pj, sram_leak_mw;
	double wb_read_pj, wb_write_pj, wb_leak_mw;
	int shift_scope;     /* enum rf_shift_scope */
};

#endif
