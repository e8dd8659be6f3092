/*
 * regfile.h: the register file on the operand path (Mao 2016 ch. 3, notes 002
 * §2): SRAM or racetrack banks, per-bank FCFS arbitrators, the racetrack
 * location register (bank BML) and shifts, register remapping (Eqs. 3.1-3.3)
 * and the write buffer (WBIT/WBDA with RAW hits, WAW voiding, direct,
 * piggyback and forced overflow drains).
 *
 * One racetrack bank (entries = 16 here, ports = 2, segment S = 8):
 *
 *     row  0 ........ 7 | 8 ....... 15      a row = one warp register, the
 *          [ segment 0 ]|[ segment 1 ]      same domain of all entry_bytes*8
 *             ^port 0   |   ^port 1         tracks (they shift in lockstep)
 *          loc = 3: both ports sit over offset 3 of their segment
 *
 * A register lives at row = segment * S + BML; reaching it moves every port
 * to offset BML: |BML - loc| shifts of rf.shift_cycles RF cycles each, then
 * the access (read rf.read_cycles, write rf.write_cycles). Indices: bank
 * 0..banks-1 (reg mod banks, + warp slot with rf.warp_shift), row
 * 0..entries-1, BML 0..S-1.
 *
 * Timing: each bank's queue is append-only FCFS, so a request's service
 * times are fixed when it is queued (start = max(arrival, end of the
 * previous request)); operands are ready at the latest end of an
 * instruction's reads, converted exactly from the RF clock to core cycles.
 * The queue entries are retired (and shift events emitted) in the core cycle
 * in which they happen, for the panel and breakpoints.
 *
 * rf.kind = sram with rf.sram_cycles = 0 (the default) has no banks at all:
 * accesses and energy are counted, timing is untouched.
 */
#ifndef GPUSTEP_REGFILE_H
#define GPUSTEP_REGFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/kernel.h"

#define RF_MAX_BANKS 64
#define RF_WB_MAX_WAYS 64

enum rf_op_kind { RFO_READ, RFO_WRITE };
/* Why a write reached the bank. */
enum rf_op_src { RFS_PLAIN, RFS_DIRECT, RFS_PIGGY, RFS_OVERFLOW };
enum { RFF_STARTED = 1, RFF_SHIFTED = 2 };

struct rf_op {
	uint64_t t_arr, t_start, t_sh_end, t_end; /* RF cycles; the access is [t_sh_end, t_end) */
	uint16_t warp;
	uint8_t reg, kind, src, from, to, flags;
};

struct rf_bank {
	uint64_t free_at; /* RF cycle at which the newest queued request ends */
	uint16_t head, n; /* queue ring */
	uint8_t loc;      /* location register: the live bank BML */
	uint8_t tail;     /* BML once the queue drains (RMWS's projected bank BML) */
};

struct rf_wbe {
	uint64_t seq; /* allocation order (overflow victim: oldest with data) */
	uint16_t warp;
	uint8_t v, r, reg, bml;
};

/* Schedule hazard detection (core.schedulers > 1, racetrack): per bank, the
 * projected BML the schedulers scored against in this issue stage and which
 * schedulers queued reads moving the bank up / down from it. */
struct rf_hz {
	uint64_t at;                /* core cycle of that issue stage */
	uint8_t ref, up, down, hit; /* up/down: scheduler bit masks; hit: counted this stage */
	uint8_t spare[4];           /* named padding: the arena is hashed */
};

struct rf_sm {
	struct rf_hz *hz;     /* banks, NULL with one scheduler */
	struct rf_bank *bank; /* banks */
	struct rf_op *ops;    /* banks x qcap */
	struct rf_wbe *wb;    /* banks x ways */
	uint64_t wb_seq;
};


/* One SM's smN.rf.* counter ids (timed register file only); each is bumped
 * with its machine-wide rf.* twin, rf_check_stat_sums checks the sums. */
struct rf_sm_ids {
	uint32_t reads, writes, shifts, shift_cycles, conflicts, wb_reads, wb_voided, wb_direct, wb_piggy, wb_overflow,
		wb_allocs;
};

/* Immutable after rf_init (heap, owned by struct sim): constants, the
 * register map and stat ids. */
struct rf_model {
	bool timed, wb_on, racetrack;
	int banks, entries, ports, seg, ways, qcap, qlimit;
	int nregs, slots, map_warps; /* map_warps: warps the RF holds (residency limit when timed) */
	int remap_used;              /* enum rf_remap actually applied */
	int groups, gbanks;          /* rf.warp_reg_remap: bank classes and banks per class (1 and banks without) */
	int bank_warps;              /* warps sharing one bank's rows (the w of Eqs. 3.1-3.3) */
	int nrb, nrps, offset;       /* Eq. 3.1, 3.2 and the centring offset */
	uint64_t rf_mhz, core_mhz;
	unsigned rd_cyc, wr_cyc, sh_cyc;
	uint64_t e_read, e_write, e_shift, e_wbr, e_wbw; /* fJ */
	uint64_t leak_nw;                                /* per SM */
	char warning[200];
	uint8_t *bank, *row; /* [slot * nregs + reg] */
	int32_t *owner;      /* [bank * entries + row] = slot * 256 + reg, -1 unused */
	struct {
		uint32_t reads, writes, requests, shifts, shift_cycles, shift_dist, wait_cycles, wait, conflicts,
			score, wb_reads, wb_voided, wb_direct, wb_piggy, wb_overflow, wb_allocs, e_read, e_write,
			e_shift, e_wb, e_leak, e_total, fallback, hazards, read_wait_cycles;
	} id;
	struct rf_sm_ids *sm_id; /* [sm], NULL unless timed */
};

struct sim;
struct sm;

/* Build the register map and per-SM state, register stats (sim_new, before
 * stats_freeze). -1 with *err on a configuration that cannot hold the kernel. */
int rf_init(struct sim *s, char **err);
void rf_free(struct sim *s);
/* Banks, arbitration and timing are modelled (racetrack, or sram_cycles > 0). */
bool rf_timed(const struct sim *s);
/* Can this instruction not issue for the register file (write buffer full,
 * arbitrator queue at its limit)? Emits rf.wb_full. */
bool rf_blocked(struct sim *s, struct sm *sm, int slot, const struct winst *in);
/* Which condition of rf_blocked() holds, read-only (`why`): the bank (and
 * register) whose queue is at rf.queue_limit for a read or the destination,
 * or whose write buffer has no way for the destination (every way claimed,
 * none holding a result that could be evicted). */
enum rf_block { RFB_NONE, RFB_READ_QUEUE, RFB_DST_QUEUE, RFB_WB_FULL };
int rf_block_reason(const struct sim *s, const struct sm *sm, int slot, const struct winst *in, unsigned *bank,
		    unsigned *reg);
/* Start of an issue stage with several schedulers: note the projected BML
 * of every bank, the reference for rf.schedule_hazard. */
void rf_issue_stage(struct sim *s, struct sm *sm);
/* Issue: queue the reads, claim the destination's write-buffer entry. Returns
 * the core cycle at which every operand has been read (>= now). */
uint64_t rf_issue(struct sim *s, struct sm *sm, int slot, const struct winst *in);
/* An instruction's result for `reg` of warp slot arrives (ALU end, load data). */
void rf_write(struct sim *s, struct sm *sm, int slot, unsigned reg);
/* Retire finished requests, emit shift events, report the next boundary. */
void rf_tick(struct sim *s, struct sm *sm);
/* Operations queued at a bank of the SM's register file (rf_tick has work). */
bool rf_busy(const struct sim *s, const struct sm *sm);
/* Bring the leakage and total energy counters up to the current cycle. */
void rf_account(struct sim *s);
/* The smN.rf.* counters sum to the machine-wide rf.* ones (timed RF only);
 * -1 with *err naming the first that does not (sim_check_invariants). */
int rf_check_stat_sums(const struct sim *s, char **err);

/* Placement (immutable after rf_init). */
unsigned rf_bank_of(const struct sim *s, int warp, unsigned reg);
unsigned rf_row_of(const struct sim *s, int warp, unsigned reg);
unsigned rf_bml_of(const struct sim *s, int warp, unsigned reg);
unsigned rf_segment(const struct sim *s);
/* Source registers of `in` the bank must serve (duplicates and write-buffer
 * hits removed): fills regs[] (<= 3), returns the count. */
int rf_bank_reads(const struct sim *s, const struct sm *sm, int slot, const struct winst *in, uint8_t *regs);
/* RMWS score: max over bank reads of |BML - projected bank BML|. */
unsigned rf_score(const struct sim *s, const struct sm *sm, int slot, const struct winst *in);
/* The same, and *nscored = the registers it covers (0: nothing to score,
 * e.g. bar, exit, or every source in the write buffer; see rf.rmws_no_reads). */
unsigned rf_score_n(const struct sim *s, const struct sm *sm, int slot, const struct winst *in, int *nscored);

/* Clock conversion, exact (RF cycles <-> core cycles). */
uint64_t rf_time_of_core(const struct sim *s, uint64_t core_cycle); /* first RF cycle of a core cycle */
uint64_t rf_core_containing(const struct sim *s, uint64_t rf_time);
uint64_t rf_core_ready(const struct sim *s, uint64_t rf_time);     /* first core cycle starting at or after */

#endif
