/*
 * par.h: what an SM changes outside itself while the per-SM phases of a
 * cycle run on several threads (machine/threads.c, sim_par.c "Threads").
 *
 * While a worker ticks SM i, par_cur points at its thread's context and
 * par_cur->sm at SM i's. The shared structures the SM would write are
 * written there instead, and sim.c merges them after the phase:
 *
 *   stat_inc / stat_add / stat_hist_add / stat_max  ─▶ per-thread deltas
 *        (sums and maxima: merged in any order, the same result; kept
 *        in the thread's cache until something reads a stat, stats_sync)
 *   ev_emit                                          ─▶ per-SM event buffer
 *        (replayed through ev_emit in SM order: the order one thread emits)
 *   sim_progress / sim_wake_at                       ─▶ per-thread OR / min
 *   req_alloc / req_free                             ─▶ the SM's own free
 *        list of request slots (req.c "Stashes"), topped up and trimmed
 *        from the pool's free list in SM order after the phase
 *   stat_occ_set / stat_occ_add                      ─▶ per-SM list, replayed
 *        in SM order (an occupancy's max depends on the order)
 *   st->ctas_done                                    ─▶ per-SM count
 *
 * The same path runs whatever the number of threads (one thread with a
 * breakpoint set runs every SM with par_cur set), so results are identical
 * for every N: threads only decide who runs which SM. One thread without
 * breakpoints takes sim_par.c's direct path instead: par_cur stays NULL
 * (everything above is written at once, which one thread's SM order makes
 * the same) but par_sm_cur is set, so request slots still come from the
 * SMs' stashes. par_cur and par_sm_cur are NULL outside the phases.
 */
#ifndef GPUSTEP_PAR_H
#define GPUSTEP_PAR_H

#include <stdbool.h>
#include <stdint.h>

struct event;
struct stats;

/* An occupancy change (stat_occ_set / stat_occ_add), replayed in order. */
struct par_occ {
	uint32_t id;
	bool add;
	uint64_t v; /* the value, or the delta as two's complement */
};

/* One SM's part (heap, indexed by SM id; reused every cycle). */
struct par_sm {
	uint32_t id;       /* the SM */
	bool dirty;        /* anything below changed since its tick began (else the merge skips it);
			    * emptied when its next tick begins (sim_par.c par_sm_clear) */
	int32_t used;      /* request slots taken minus freed this phase */
	uint32_t ctas_done; /* CTAs finished this phase */
	uint32_t nev, evcap;
	struct event *ev; /* events in emission order */
	uint32_t nocc, occcap;
	struct par_occ *occ; /* occupancy changes in order (the max depends on it) */
};

/* One worker's part (an array of them, one per thread: sim_par.c keeps
 * each on cache lines of its own, PAR_THR_ALIGN). The stat deltas
 * accumulate over phases until stats_sync adds them to the registry, so a
 * worker's stat updates stay in its core's cache (merging them every cycle
 * moved each touched line between the cores twice a cycle). */
#define PAR_THR_ALIGN 128
struct par_thr {
	/* Written by its thread only (one cache line): */
	uint64_t *dval;   /* counter deltas by value slot */
	uint64_t *dhist;  /* histogram cell deltas */
	uint64_t *dmax;   /* stat_max: the largest sample by value slot (0: none) */
	uint32_t *dlist;  /* slots with a nonzero delta */
	uint32_t *hlist;
	uint32_t *mlist;  /* slots with a sample */
	uint32_t nd, nh, nmx;
	/* Reset by the calling thread after every phase (a line of its own): */
	_Alignas(64) bool progress;
	uint64_t next_event; /* earliest sim_wake_at time reported (> now) */
	struct par_sm *sm;   /* the SM being ticked */
} __attribute__((aligned(PAR_THR_ALIGN)));

extern _Thread_local struct par_thr *par_cur;
/* The SM being ticked in an SM phase, buffered (par_cur->sm) or direct
 * (sim_par.c's one-thread path, par_cur NULL): its request-slot stash
 * (req.c) and slot count are used either way, so that its slots are those
 * of every thread count. NULL outside the phases. */
extern _Thread_local struct par_sm *par_sm_cur;

/* Deferred updates (par_cur != NULL). */
void par_stat_add(uint32_t slot, uint64_t v);
void par_hist_add(uint32_t cell);
void par_stat_max(uint32_t slot, uint64_t v);
void par_ev_push(const struct event *e);
void par_occ_push(uint32_t id, bool add, uint64_t v);

void par_thr_init(struct par_thr *t, const struct stats *st);
void par_thr_free(struct par_thr *t);
/* Add a thread's stat deltas to st and clear them (stats_sync). */
void par_thr_merge_stats(struct par_thr *t, struct stats *st);

#endif
