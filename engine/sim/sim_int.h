/*
 * sim_int.h: the inside of struct sim, shared by the engine's model files
 * (core.c, l1.c, icnt.c, l2.c, sim.c, inspect.c). Nothing outside engine/
 * includes it; views read through inspect.h.
 *
 *   SM 0 ... SM n-1                 crossbar                L2 bank 0 .. b-1
 *   +-------------------------+                             +-----------------+
 *   | warps -> sched -> issue |                             | inq (timed)     |
 *   |   coalescer -> lsu q    |  missq --req packets-->     |  tags + MSHR    |
 *   |                         |  ackq  --Acks (own VC)-->   | ackinq (timed)  |
 *   |   L1 tags + MSHR        |                             |  outq (timed)   |
 *   |   waitq / retryq        |  <--reply packets--  outq   |  memq -> DRAM / |
 *   |   fillq (timed), hitq   |                             |   fixed latency |
 *   |                         |                             | (dlatq: l2.dram_|
 *   |                         |                             |  latency stage) |
 *   +-------------------------+                             +-----------------+
 *
 * Every queue is an intrusive FIFO of request indices (req.h); timed queues
 * hold entries in t_ready order. Capacities are enforced where the hardware
 * has them: L1 wait/miss queues, L2 input queues (as crossbar credits, counted
 * from injection), L1 fill queues (credits), the memory queues. The Acks'
 * queues (icnt.ack_channel = separate, icnt.c): ackinq has l2.queue credits;
 * ackq needs no limit (one Ack per Inv received).
 */
#ifndef GPUSTEP_SIM_INT_H
#define GPUSTEP_SIM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "debug/bp.h"
#include "policy/bypass.h"
#include "policy/vws.h"
#include "mem/cache.h"
#include "policy/ccws.h"
#include "config.h"
#include "dram/addrmap.h"
#include "dram/dram.h"
#include "dram/dram_trace.h"
#include "event.h"
#include "mem/frc.h"
#include "mem/hostcopy.h"
#include "debug/inspect.h"
#include "kernel/kernel.h"
#include "mem/mshr.h"
#include "rf/regfile.h"
#include "req.h"
#include "policy/rmws.h"
#include "probe.h"
#include "sim.h"
#include "stats.h"

#define MSHR_HIST 256 /* occupancy samples kept per MSHR file for sparklines */

struct occ_hist {
	uint16_t v[MSHR_HIST];
	uint64_t last_cycle; /* cycle of v[last_cycle % MSHR_HIST] */
	uint16_t cur;
};

/* Per-unit stat ids, registered once per L1 and per L2 bank. */
struct l1_stats {
	uint32_t accesses, hits, misses, merges, mshr_full, resv_fail, wait_full, writes, atomics, retries,
		nacks, evictions, writebacks, mshr_occ, bypasses;
	uint32_t bypasses_cop; /* loads that skipped the L1 for their glc/slc operator */
};

struct l1 {
	struct cache c;
	struct mshr m;
	struct reqq lsu;    /* warp requests from the coalescer (timed) */
	struct reqq hitq;   /* hits waiting out the hit latency (timed) */
	struct reqq waitq;  /* misses waiting for an MSHR entry */
	struct reqq missq;  /* to the crossbar */
	struct reqq fillq;  /* replies from the crossbar (timed arrival) */
	struct reqq retryq; /* NACKed, waiting to be re-sent (timed) */
	uint32_t fill_credits_used;
	uint64_t req_link_free; /* crossbar link SM -> xbar */
	uint64_t rep_link_free; /* crossbar link xbar -> SM */
	struct occ_hist hist;
	struct l1_stats st;
	uint64_t full_events;
	struct byp_tags bt; /* locality bypassing (bypass.h) */
	/* SI: this L1's write-throughs not yet acknowledged, per line (open
	 * addressing, key line | 1, 0 = empty; coh_l1.c). NULL without SI. */
	uint64_t *wt_key;
	uint32_t *wt_n;
	uint32_t wt_cap; /* power of two */
	uint32_t wt_spare; /* keeps the struct free of padding (sim_state_hash) */
	/* Lookups refused for want of an MSHR entry or merge slot (or, from the
	 * coalescer queue, a full wait queue), and nothing since that could let
	 * them through: the request at the wait queue's / coalescer queue's
	 * head is not looked up again (l1.c "Refused lookups"); REQ_NIL = none. */
	uint32_t wait_refused, lsu_refused;
	/* Refused for a full miss queue alone: not looked up again while it
	 * stays full (l1.c refused_now); REQ_NIL = none. */
	uint32_t wait_mq_refused, lsu_mq_refused;
	/* icnt.ack_channel = separate: invalidation Acks to the crossbar on
	 * their own virtual channel (icnt.c); the miss queue holds the rest. */
	struct reqq ackq;
	uint32_t ack_spare; /* keeps the struct free of padding (sim_state_hash) */
};

enum warp_slot_state { WSL_EMPTY, WSL_ACTIVE, WSL_DONE };
/* struct warp fst: no fetch in flight, an L1I hit arriving at f_ready, a
 * miss waiting for its line's fill. */
enum fetch_state { FS_IDLE, FS_HIT, FS_MISS };

/* The L1 instruction cache of one SM and its fetch unit's round-robin
 * pointer (l1i.enabled; mem/l1i.c, core/fetch.c). Lines are l1.line bytes,
 * allocated on fill; an MSHR entry's waiters are warps (their f_line). */
struct l1i {
	struct cache c;
	struct mshr m;
	int32_t last_fetched; /* warp slot the fetch unit served last, -1 */
	uint32_t spare;       /* keeps the struct free of padding (sim_state_hash) */
};

struct warp {
	/* Hot part: one cache line with everything warp_blocker() reads, since
	 * the scheduler looks at every warp of an SM on the cycles it evaluates. */
	uint8_t state;      /* enum warp_slot_state */
	uint8_t at_barrier;
	uint8_t ib_valid;
	uint8_t in_pool;    /* two-level / TBAS: in the active pool */
	uint8_t rf_collect;  /* issued; operands being read until busy_until, then it executes */
	uint8_t rf_wr_pend;  /* ALU/ldsh result for rf_wr_reg arrives at busy_until */
	uint8_t rf_wr_reg;
	uint8_t stall;      /* enum stall_reason, last evaluation */
	struct {
		uint8_t op, nsrc, ndst, dst;
		uint8_t src[3];
	} ibh;               /* copy of ib's opcode and registers */
	uint8_t shmem_passes; /* bank-conflict passes of the last ldsh/stsh issued (`why`; fills ibh's padding byte) */
	uint64_t busy_until; /* ALU / issue occupancy */
	uint64_t pend[4];    /* scoreboard: registers awaiting a load */
	uint64_t stall_start; /* cycle the current stall began, UINT64_MAX if issuing */
	/* Cold part. */
	int16_t cta_slot;
	int16_t vmb_slot;    /* vector memory buffer entry of the issued global memory instruction */
	uint32_t outstanding; /* requests in flight */
	uint64_t age;        /* launch order (GTO: oldest first) */
	uint64_t insts;
	uint64_t issue_cycle; /* last issue */
	uint64_t launch_cycle;
	uint64_t mem_stall_cycles, other_stall_cycles;
	uint16_t vws_acc, vws_miss; /* VWS IWL counters (10-bit, saturating) */
	/* Instruction fetch (l1i.enabled; core/fetch.c, mem/l1i.c): the buffer
	 * holds ibn instructions from code address ibpc on, one every
	 * core.inst_size bytes; a fetch in flight (fst, enum fetch_state) brings
	 * fn of them from ibpc at f_ready (an L1I hit) or with the fill of
	 * line f_line (a miss). */
	uint64_t ibpc, f_ready, f_line;
	uint8_t ibn, fst, fn;
	uint8_t busy_op;     /* enum kop of the instruction executed last: what keeps the warp busy until busy_until
	                      * (ibh may already hold the next one, fetched ahead) */
	uint8_t f_pad[4];    /* keeps the struct free of padding (sim_state_hash) */
	struct winst ib;     /* the next instruction */
	struct kwarp kw;
};

struct vmb_ent {
	uint8_t valid;
	uint8_t done;
	uint8_t op;
	uint8_t dst;
	uint8_t has_dst; /* the register file receives dst when it completes */
	uint16_t warp;
	uint32_t pending;    /* requests not yet completed */
	uint32_t unaccepted; /* requests not yet accepted by the L1 (non-blocking stores) */
	uint64_t t_issue;
	uint64_t t_done;     /* the cycle it completed (in_order: it frees once the older ones have) */
};

struct cta_slot {
	int32_t cta; /* -1 = free */
	uint16_t nwarps, ndone, nbar;
	uint32_t threads, shmem;
};

struct sm {
	int id;
	struct warp *w;
	struct cta_slot *cta;
	struct vmb_ent *vmb;
	int vmb_head, vmb_count;
	int nwarps_active; /* slots not EMPTY */
	int ctas_active;
	int threads_used, shmem_used;
	int last_issued;   /* warp slot, -1 */
	int16_t sched_last[4]; /* per scheduler (core.schedulers): its last issued warp slot, -1 */
	uint64_t last_issue_cycle;
	uint64_t next_busy; /* min busy_until > now among warps, from the last scan */
	/* Per warp slot, so core_tick walks only the warps that matter (see
	 * core.c "Warp masks"): wact = state ACTIVE; sb_wait = its last
	 * evaluation said scoreboard and no register of it has been written
	 * since, so it still says so; rdy = its last evaluation said ready and
	 * it has not issued since (the last two only with masks_ok()); fwant
	 * (l1i.enabled, fetch.c) = the fetch unit must look at it: clear only
	 * while its buffer holds its next instruction and it has not issued. */
	uint64_t wact, sb_wait, rdy, fwant;
	uint8_t last_stall; /* dominant reason of the last cycle without an issue */
	uint8_t dirty;      /* something this SM's warps wait for changed: re-evaluate */
	uint32_t serial_next, serial_end; /* serial CTA dispatch range */
	uint64_t insts;
	struct l1 l1;
	struct vws_sm *vws; /* vws.h, arena; NULL unless core.scheduler = vws */
	uint64_t vws_mask;  /* active window at the last evaluation */
	struct ccws_sm *ccws; /* ccws.h, arena; NULL unless core.scheduler = ccws */
	struct rf_sm *rf;   /* regfile.h, arena; NULL unless the register file is timed */
	struct opu_sm *opu; /* core/opunit.h, arena; NULL unless core.op_model = units */
	uint32_t st_insts, st_issue_cycles;
	/* The last memory instruction coalesced (`info coalesce`, coalesce.h). */
	struct winst coal_in;
	uint64_t coal_cycle;
	int16_t coal_slot;
	uint8_t coal_valid;
	uint64_t stall_cyc[STALL__COUNT]; /* this SM's share of core.stall.* (inspect_sm_stalls) */
	struct l1i l1i;     /* instruction cache (l1i.enabled) */
};

struct l2_stats {
	uint32_t accesses, hits, misses, merges, nacks, transient_blocks, set_all_transient, writebacks, fills,
		mshr_occ, frc_occ;
	/* l2.bankN.frc.*: this bank's share of the machine-wide frc.* counters
	 * (registered only with an FRC; frc.c counts both via F_INC). */
	uint32_t frc_lookups, frc_allocs, frc_fallbacks, frc_hits_fetching, frc_evicting_hits, frc_fills, frc_swaps,
		frc_evictions;
};

struct l2bank {
	int id;
	struct cache c;
	struct mshr m;
	struct reqq inq;   /* from the crossbar (timed arrival) */
	struct reqq outq;  /* lookup replies toward the crossbar (t_ready = lookup + hit latency) */
	struct reqq outq_now; /* fill replies and NACKs (ready at once) */
	struct reqq memq;  /* waiting for the memory to accept */
	struct reqq fixedq; /* fixed-latency memory: in flight (timed) */
	struct reqq dlatq; /* l2.dram_latency stage: left memq, waiting to enter the DRAM's queue (timed) */
	struct frc frc;    /* Fetch and Replacement Cache (frc.c); n = 0 when off */
	uint32_t in_credits_used;
	uint64_t req_link_free; /* xbar -> bank */
	uint64_t rep_link_free; /* bank -> xbar */
	struct occ_hist hist;
	struct l2_stats st;
	uint32_t nacks_since; /* for panels */
	struct coh_dent *dir; /* coherence: directory entry per line (set * ways + way), NULL = none */
	uint64_t *mlat; /* per L2 MSHR entry: cycles invalidation done, eviction done, fetch handed (l2.miss_lat.*) */
	uint32_t *mres; /* per L2 MSHR entry: its memory request slot, reserved at the miss (REQ_NIL = none) */
	uint16_t *inv_acks; /* per L2 MSHR entry: L1 invalidation acks still due (l2.sharers) */
	uint64_t *shr;     /* l2.sharers = record: SM bit set per line (l2_sharers.c), NULL = off */
	uint64_t *frc_shr; /* the same per FRC entry: [2i] copies of the incoming block, [2i+1] the victim's */
	uint64_t port_debt; /* L2 port cycles owed by fills and FRC swaps, not yet taken from lookups */
	uint64_t port_t;    /* cycle from which port_debt is owed */
	/* icnt.ack_channel = separate: the Acks' own input queue (timed
	 * arrival) and its crossbar credits (l2.queue of them); icnt.c. */
	struct reqq ackinq;
	uint32_t ack_credits_used;
};

struct sim_stat_ids {
	uint32_t cycles, warp_insts, thread_insts, ipc, mem_insts, ld_insts, st_insts, atom_insts, shmem_insts,
		alu_insts, bar_insts, mem_lat, mem_lat_max, mem_lat_total, mem_done, mem_release_wait, shmem_conflicts;
	uint32_t stall[STALL__COUNT];
	uint32_t l1_accesses, l1_hits, l1_misses, l1_merges, l1_mshr_full, l1_resv_fail, l1_retries, l1_hit_rate;
	uint32_t l1_writes, l1_atomics, l1_nacks, l1_evictions, l1_writebacks;
	uint32_t l1_bypasses, l1_tag_hits, l1_tag_allocs, l1_tag_promotes, l1_tag_evicts, l1_duel_switches,
		l1_rc_hist;
	uint32_t icnt_req_flits, icnt_rep_flits, icnt_stalls, icnt_req_pkts, icnt_rep_pkts;
	uint32_t l2_accesses, l2_hits, l2_misses, l2_merges, l2_nacks, l2_transient_blocks, l2_set_all_transient,
		l2_writebacks, l2_fills, l2_hit_rate;
	uint32_t mem_reads, mem_writes;
	uint32_t frc_lookups, frc_allocs, frc_fallbacks, frc_hits_fetching, frc_evicting_hits, frc_fills, frc_swaps,
		frc_evictions;
	uint32_t frc_inv_victims, frc_ev_inval, frc_ev_wb, mem_bytes, ml[2][6]; /* l2_register_stats (l2.c) */
	uint32_t l2sh_invs, l2sh_l1_dropped, l2sh_stray_acks, l2_pool_nacks, l2_port_fill, l2_port_frc,
		l2_sector_widen; /* l2.c */
	uint32_t req_pool_occ;
	uint32_t l1_bypasses_cop, l2_slc_streamed; /* cache operators */
	uint32_t l2_store_installs;                /* lazy store misses installed without a fetch after an eviction */
	uint32_t l1_mrpb_mshr, l1_mrpb_resv;      /* l1.bypass = mrpb, by resource */
	uint32_t sched_insts[4]; /* core.sched<k>.insts (core.schedulers > 1) */
	uint32_t warp_mem_stall, warp_other_stall, warp_compute; /* core_init: per-warp cycles summed at exit */
	uint32_t icnt_req_occ, icnt_rep_occ; /* icnt_init: crossbar credits in use per direction */
	uint32_t cta_serial, l2_byp_waits, l2_head_waits; /* core_init: dispatch used; bypass.c: bypassed loads that waited at an L2 */
	uint32_t icnt_ack_occ, icnt_ack_pkts, icnt_ack_flits; /* icnt_init: Acks (icnt.c); an even count keeps the size a multiple of 8 */
	uint32_t l1_pool_waits; /* l1.c l1_pool_wait */
	uint32_t dstage_reqs, dstage_cycles, dstage_blocked, dstage_occ; /* l2.dram_stage.* (l2.c; l2.dram_latency > 0) */
	uint32_t l1i_accesses, l1i_hits, l1i_misses, l1i_merges, l1i_resv_fails, l1i_fills; /* l1i.* (mem/l1i.c; l1i.enabled) */
};

struct sim {
	struct arena arena; /* every mutable byte below lives here */
	struct state {
		uint64_t now;       /* cycles completed = the cycle being simulated */
		bool progress;      /* something changed in the current cycle */
		bool done;
		bool deadlock;      /* done because nothing could ever move again (a model bug) */
		uint32_t ctas_dispatched, ctas_done;
		uint32_t rr_sm;     /* round-robin CTA dispatch pointer */
		struct rng rng;
		uint64_t age_counter;
		uint64_t next_event; /* min future time reported by the ticks */
		uint32_t kernel;        /* kernel whose CTAs are being dispatched (wl_ops.nkernels) */
		uint32_t kernels_begun; /* kernels whose kernel.start has been handled */
		uint64_t kernel_start;  /* cycle the current kernel began */
		uint32_t copies_done;   /* host-to-device copies (workload.copies) applied (hostcopy.c) */
	} *st;
	struct req_pool pool;
	struct sm *sms;
	struct l2bank *banks;
	struct dram *dram;
	struct addrmap part; /* l2.banks_per_channel: address -> L2 sub-partition (part.nsub 0: l2.interleave) */
	struct stats stats;
	struct events ev;
	struct sim_stat_ids id;
	/* Immutable after sim_new. */
	struct probes probes; /* probe.h: observers' listeners, registered by sim_new (not in the arena) */
	struct sim_cfg cfg;
	struct workload wl;
	const struct wl_ops *wops; /* the workload's instruction source */
	const void *wimpl;
	uint32_t nctas;                   /* all kernels */
	uint32_t threads_per_cta, warps_per_cta; /* the largest CTA of any kernel */
	/* Kernels run back to back (wl_ops.nkernels; 1 for other workloads):
	 * kernel k owns global CTAs [kfirst[k], kfirst[k+1]). Heap, immutable. */
	uint32_t nk;
	uint32_t *kfirst, *ktpc, *kwpc, *kshmem;
	uint32_t kernels_id, *kcycles_id; /* sim.kernels, kernelK.cycles (nk > 1 only) */
	unsigned issue_cycles; /* warp_size / simd_width */
	/* Per L2 bank, its set index function's last answer ([2b] the address,
	 * [2b + 1] its set; l2.c bank_set): a queue head waiting at a bank is
	 * tested every cycle. A function of the address and the config alone
	 * (heap, not state: a restored or forked machine may keep or drop it). */
	uint64_t *l2_set_memo;
	unsigned nregs;
	volatile int interrupt;
	struct bp_set *bps;
	struct snapshots *snaps; /* snapshot.c; NULL = rewinding off */
	struct reuse *reuse;     /* reuse.h profiler (arena); NULL = off */
	struct byp_duel *duel;   /* bypass.h SM dueling (arena) */
	struct rf_model *rfm;    /* regfile.h: register map and constants (heap, immutable) */
	const struct coh_proto *coh; /* coherence protocol (coh.h); NULL = none */
	struct coh_log *clog;    /* coh_eng.h: recent transactions (arena) */
	uint32_t coh_msg_id[32], coh_trans_id, coh_nack_id, coh_err_id, coh_inv_id; /* coh.* stats */
	uint32_t coh_put_id; /* l2.coh_puts: eviction notices, counted apart from the L2's lookups */
	uint32_t hc_id[HC__STATS]; /* trace.memcpy.* (hostcopy.c); registered only with copies */
	struct coh_kb *kb;       /* coh_kflush.c: kernel-boundary release/acquire (arena); NULL = none */
	uint32_t kb_id[4];       /* coh.kernel_flush.* stats */
	struct coh_vals *cv;     /* coh_values.c: shadow data values (arena); NULL unless coherence.check_values */
	struct cv_host *cvh;     /* coh_values.c: its stop request and first violation (heap) */
	uint32_t cv_id[3];       /* coh.value_checks, coh.value_violations, coh.value_words */
	uint32_t cv_spare;
	/* DRAM-trace mode (workload.dram_reqs): the requests (heap, immutable)
	 * and the feeding cursor (arena); NULL otherwise. */
	const struct dram_reqs *dreqs;
	struct dram_trace_cursor *dcur;
	uint32_t dt_id[2];       /* dram_trace.issued, dram_trace.completed */
	/* Units with work (arena, one bit per SM / per L2 bank): sim_tick ticks
	 * only these. A bit is set wherever work reaches the unit (sim_act_*),
	 * so a clear bit means the unit's tick would do nothing; sim_tick clears
	 * the bits of idle units at the end of each cycle, so the bits are a
	 * function of the rest of the state (equal after stepping, running or
	 * rewinding) and check_invariants compares them with it. */
	uint64_t *act_sm, *act_l2;
	/* Threads (machine/sim_par.c "Threads"; heap, not state): par_ok says the
	 * machine runs its SM phases through par.h's buffers (fixed when it is
	 * built, the same for every thread count); tp the workers (NULL: one
	 * thread), pthr one context per thread, psm one per SM, par_ids the
	 * SMs of the current phase. */
	bool par_ok;
	bool par_one; /* par_ok, but on one thread (a streamed trace) */
	int threads;
	struct tpool *tp;
	struct par_thr *pthr;
	struct par_sm *psm;
	uint32_t *par_ids, par_n;
	uint32_t stash_lo, stash_hi;
	int par_min; /* fewer SMs in a phase than this run on the calling thread alone */
	int par_kind; /* the phase being run: 0 L1s, 1 cores */
	struct par_ctl *pctl; /* the parts' ranges, lists and balance (sim_par.c) */
};

/* Wake an SM's scheduler: one of its warps may be able to issue. */
static inline void sm_wake(struct sm *sm) { sm->dirty = 1; }

/* Work reached an SM (warps, register-file operations, L1 queues, its
 * crossbar request queue) or an L2 bank (its queues, FRC swaps): it is
 * ticked from now on until it is idle again (sim.c). */
static inline void sim_act_sm(struct sim *s, const struct sm *sm)
{
	/* Tested first: in a threaded SM phase the SM's bit is already set
	 * and neighbours' ticks share the word (read, not written). */
	uint64_t *w = &s->act_sm[(unsigned)sm->id >> 6], b = 1ull << ((unsigned)sm->id & 63);
	if (!(*w & b))
		*w |= b;
}
static inline void sim_act_l1(struct sim *s, const struct l1 *l)
{
	sim_act_sm(s, (const struct sm *)(const void *)((const char *)l - offsetof(struct sm, l1)));
}
static inline void sim_act_l2(struct sim *s, const struct l2bank *b)
{
	s->act_l2[(unsigned)b->id >> 6] |= 1ull << ((unsigned)b->id & 63);
}
static inline void sim_act_clear(uint64_t *bm, int i) { bm[(unsigned)i >> 6] &= ~(1ull << ((unsigned)i & 63)); }
/* An L2 bank whose l2_tick, crossbar reply port and fixed-latency memory
 * would do nothing (they also report the wake-up times of these queues). */
static inline bool sim_bank_busy(const struct l2bank *b)
{
	return b->inq.n || b->ackinq.n || b->outq.n || b->outq_now.n || b->memq.n || b->fixedq.n || b->dlatq.n ||
	       b->frc.swapping;
}
static inline bool sim_act_has(const uint64_t *bm, int i) { return bm[(unsigned)i >> 6] >> ((unsigned)i & 63) & 1; }
/* The first unit at or after i whose bit is set in bm; n or more if none
 * below n. */
static inline int sim_act_next(const uint64_t *bm, int n, int i)
{
	while (i < n) {
		uint64_t w = bm[(unsigned)i >> 6] >> ((unsigned)i & 63);
		if (w)
			return i + __builtin_ctzll(w);
		i = (i | 63) + 1;
	}
	return n;
}

/* Note a state change: the cycle after this one must be simulated. */
static inline void sim_progress(struct sim *s)
{
	if (par_cur) /* a threaded SM phase (par.h) */
		par_cur->progress = true;
	else
		s->st->progress = true;
}
/* Report a future time at which a unit will have work (skip-ahead bound). */
static inline void sim_wake_at(struct sim *s, uint64_t t)
{
	uint64_t *ne = par_cur ? &par_cur->next_event : &s->st->next_event;
	if (t > s->st->now && t < *ne)
		*ne = t;
}
static inline void sim_wake_q(struct sim *s, const struct reqq *q)
{
	if (q->head != REQ_NIL)
		sim_wake_at(s, s->pool.r[q->head].t_ready);
}

/* core.c */
void core_init(struct sim *s);
void core_tick(struct sim *s, struct sm *sm);
void core_dispatch(struct sim *s);
void core_req_done(struct sim *s, uint32_t ri);
void core_req_accepted(struct sim *s, uint32_t ri);
void core_account_idle(struct sim *s, uint64_t cycles);
int core_check_invariants(const struct sim *s, char **err);
/* core_masks.c: whether sb_wait and rdy may be used under this SM's scheduler. */
bool core_masks_ok(const struct sim *s, const struct sm *sm);
bool core_all_done(const struct sim *s);
/* sim.c: no request in flight, DRAM idle, every FRC entry free (mem.kernel_end = drained). */
bool sim_mem_idle(const struct sim *s);
/* sched.c: order in which the scheduler looks at warp slots; returns count. */
int sched_order(const struct sim *s, const struct sm *sm, int *order);
/* The scheduler owning a warp slot, and the slots it owns (core.schedulers). */
static inline int sched_of(const struct sim *s, int slot) { return slot % s->cfg.core.schedulers; }
uint64_t sched_mask(const struct sim *s, int k);
/* Scheduler k's pick among `ready` (already restricted to its warps); -1 if none. */
int sched_pick(const struct sim *s, const struct sm *sm, uint64_t ready, int k);
void sched_on_issue(struct sim *s, struct sm *sm, int slot);
void sched_on_stall(struct sim *s, struct sm *sm, int slot, unsigned reason);
/* coalesce.c: split a warp memory instruction into line requests. Returns the
 * number of requests pushed into the SM's L1 queue. */
int coalesce_issue(struct sim *s, struct sm *sm, int slot, const struct winst *in, int vmb); /* coalesce.h: the plan */
/* l1.c */
void l1_init(struct sim *s, struct sm *sm);
void l1_tick(struct sim *s, struct sm *sm);
/* A warp's global access is held at issue by the full MSHR file: counted and
 * logged as `l1.mshr_full reason=issue` (l1.c). */
void l1_mshr_full_at_issue(struct sim *s, struct sm *sm, int warp, uint64_t addr);
/* l1i.c (l1i.enabled): the L1I's lookup for a warp's fetch of the line of
 * code address addr: L1I_HIT, L1I_MISS (an MSHR entry allocated or merged
 * into, the warp waits for the fill: f_line), L1I_REFUSED (no entry, merge
 * slot, miss-queue room or request slot: try again later). */
enum l1i_result { L1I_HIT, L1I_MISS, L1I_REFUSED };
void l1i_init(struct sim *s, struct sm *sm);
void l1i_register_stats(struct sim *s);
int l1i_access(struct sim *s, struct sm *sm, int slot, uint64_t addr);
/* A reply to an L1I miss arrived (l1.c step 2): install the line, hand the
 * instructions to every warp waiting for it. */
void l1i_fill(struct sim *s, struct sm *sm, uint32_t ri);
/* Where code lives: built-in kernels and traces alike place code address
 * pc at L1I_CODE_BASE + pc, above any data address a workload can name
 * (kernel arrays and trace addresses are below 2^49), so instruction lines
 * never share an L2 line with data. */
#define L1I_CODE_BASE 0x00F0000000000000ull
/* core.c: the warp's next instruction from its workload into w->ib. */
void core_load_ib(struct sim *s, struct warp *w);
/* fetch.c (l1i.enabled) */
void fetch_tick(struct sim *s, struct sm *sm);
/* Does w's buffer hold its next instruction (w->ib, valid)? A buffer
 * holding other code (a branch left it) is flushed. */
bool fetch_ready(struct sim *s, struct sm *sm, struct warp *w);
void fetch_on_issue(const struct sim *s, struct warp *w);
/* The code address of instruction in (WINST_PC_NONE: nothing to fetch). */
uint64_t fetch_pc(const struct sim *s, const struct winst *in);
/* icnt.c */
void icnt_tick(struct sim *s);
unsigned icnt_bank_of(const struct sim *s, uint64_t addr);
void icnt_init(struct sim *s);
/* Take (+1) or return (-1) a credit of bank b's input queue / of l's reply
 * queue; keeps icnt.req.occupancy / icnt.reply.occupancy. */
void icnt_req_credit(struct sim *s, struct l2bank *b, int d);
void icnt_rep_credit(struct sim *s, struct l1 *l, int d);
/* icnt.ack_channel = separate and no coherence protocol: r, going L1 -> L2,
 * is an invalidation Ack and travels on the Acks' own channel. */
bool icnt_on_ack_channel(const struct sim *s, const struct req *r);
void icnt_ack_credit(struct sim *s, struct l2bank *b, int d);
/* l2.c */
void l2_init(struct sim *s, struct l2bank *b);
void l2_register_stats(struct sim *s);
void l2_tick(struct sim *s, struct l2bank *b);
/* l2_wait.c: the request at the head of b's input queue waits there instead
 * of being refused (l2.when_busy / l1.bypass_at_l2 = queue); counts it once. */
bool l2_head_waits(struct sim *s, struct l2bank *b, uint32_t ri);
/* Why request ri would wait at b's head (enum nack_reason), -1: it would not. */
int l2_head_wait_reason(const struct sim *s, const struct l2bank *b, uint32_t ri);
/* Some request can wait at an L2's head under c (l2_wait.c). */
bool l2_when_busy_queues(const struct sim_cfg *c);
void mem_tick(struct sim *s);
void l2_reply(struct sim *s, struct l2bank *b, uint32_t ri, uint8_t kind, uint64_t delay);
/* Install the line of addr in its L2 bank as if written by a host copy
 * (hostcopy.c): enum l2_install result. */
int l2_install_line(struct sim *s, uint64_t addr);
uint32_t l2_mem_req(struct sim *s, struct l2bank *b, uint8_t type, uint64_t addr, uint32_t mask, uint32_t mshr);
/* Hand the already-reserved request slot mi to memory as (type, addr, mask, mshr). */
void l2_mem_send(struct sim *s, struct l2bank *b, uint32_t mi, uint8_t type, uint64_t addr, uint32_t mask, uint32_t mshr);
/* Free request slots: at least n (admission checks, so later steps never find the pool empty). */
bool l2_pool_room(const struct sim *s, uint32_t n);
/* A request the admission checks guaranteed found no slot: abort with a message (a bug). */
_Noreturn void l2_pool_exhausted(struct sim *s, const char *what);
/* Conventional miss entry e after its victim's L1 copies are gone: write the
 * victim back if dirty (the fetch follows per l2.evict_order), else fetch. */
void l2_evict_step(struct sim *s, struct l2bank *b, uint32_t e);
/* Take c L2 port cycles (a fill or an FRC swap uses the data array). */
void l2_port_take(struct sim *s, struct l2bank *b, uint64_t c, uint32_t stat);
/* Delay of the replies a fill from memory answers (l2.fill_reply, l2.c). */
uint64_t l2_fill_delay(const struct sim *s);
bool l2_memq_room(const struct sim *s, const struct l2bank *b, uint32_t n);
/* coh_kflush.c: the release/acquire between kernels; true = the next may start */
bool coh_kernel_boundary(struct sim *s);
/* snapshot.c */
void snapshot_tick(struct sim *s);
uint64_t snapshot_next_at(const struct sim *s);
void snapshot_free_all(struct sim *s);
/* Around each sim_step: the time simulated, for the automatic replay bound. */
void snapshot_step_begin(struct sim *s);
void snapshot_step_end(struct sim *s);
/* The base snapshot's whole state when it is cycle 0's, else NULL (snapstate.c). */
const void *snapshot_base(const struct sim *s, size_t *len);
/* After sim_state_import: snapshots go on from the imported cycle. */
void snapshot_resume(struct sim *s);
/* occupancy history for sparklines */
void occ_hist_set(struct occ_hist *h, uint64_t now, uint16_t v);

#endif
