/*
 * stats.h: the one statistics registry. Every counter, occupancy and histogram
 * is registered once (during sim_new) with a dotted name and a description;
 * panels, `print`, the JSON dump and the tests all read it.
 *
 * Kinds:
 *   counter    uint64 incremented by the model
 *   occupancy  a level over time (queue depth, MSHR entries): current value,
 *              max, time integral (for the mean) and cycles at capacity; the
 *              integral is updated lazily on each change, so skipped idle
 *              stretches cost nothing
 *   histogram  counts per bucket, buckets given by their lower edges
 *   ratio      derived: value(num) / value(den) * scale (ipc, hit rates)
 *
 * Storage of values lives in the simulator arena (stats_freeze), so snapshots
 * carry them; names and descriptions are immutable after registration.
 */
#ifndef GPUSTEP_STATS_H
#define GPUSTEP_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "par.h"
#include "util.h"

enum stat_kind { STAT_COUNTER, STAT_OCC, STAT_HIST, STAT_RATIO };

struct stat_occ {
	uint64_t cur, max, capacity;
	uint64_t last;     /* cycle of the last change */
	uint64_t integral; /* sum of cur over cycles before `last` */
	uint64_t full;     /* cycles spent at capacity before `last` */
};

struct stat_def {
	char *name; /* heap, owned by the registry */
	const char *desc;  /* heap copy, owned by the registry */
	enum stat_kind kind;
	uint32_t slot;     /* index into vals / occ / hist storage */
	uint32_t num, den; /* ratio: stat ids */
	double scale;
	uint32_t nbuckets;
	uint64_t *edges; /* histogram lower edges, heap */
	uint64_t step;   /* edges are 0, step, 2*step, ...: bucket = sample / step (0 = search) */
};

struct stats {
	struct stat_def *defs;
	uint32_t n, cap;
	uint32_t ncounters, nocc, nhist_cells;
	/* Value storage (arena, after stats_freeze). */
	uint64_t *vals;      /* counters, by slot */
	struct stat_occ *occ; /* by slot */
	uint64_t *hist;      /* cells; a histogram's slot is its first cell */
	const uint64_t *now; /* the simulator's cycle counter */
	bool frozen;
	/* Heap scratch for stats_occ(): copies brought up to `now` without
	 * touching the arena (reading a stat must not change the state hash). */
	struct stat_occ *occ_view;
	/* Heap: name -> id, open addressing (UINT32_MAX = empty), hcap a power
	 * of two at least twice n. A big machine registers thousands of stats. */
	uint32_t *hidx;
	uint32_t hcap;
	/* The threaded SM phases' counter deltas not yet in vals/hist (par.h):
	 * npend per-thread contexts, pending once a phase may have left some.
	 * Every read below adds them first (stats_sync). */
	struct par_thr *pend;
	uint32_t npend;
	bool pending;
};

void stats_init(struct stats *s, const uint64_t *now);
void stats_fini(struct stats *s);

/* Registration (before stats_freeze). Return the stat id. Names and
 * descriptions are copied (the caller keeps ownership of its strings).
 * Duplicate names are a programmer error (assert). */
uint32_t stats_counter(struct stats *s, const char *name, const char *desc);
uint32_t stats_occupancy(struct stats *s, const char *name, const char *desc, uint64_t capacity);
uint32_t stats_hist(struct stats *s, const char *name, const char *desc, const uint64_t *edges,
		    uint32_t nbuckets);
/* num/den are stat names already registered. */
uint32_t stats_ratio(struct stats *s, const char *name, const char *desc, const char *num,
		     const char *den, double scale);
/* Allocate value storage from the arena; registration ends. */
void stats_freeze(struct stats *s, struct arena *a);

/* Updates, cheap enough for the per-cycle path. */
/* Inside a threaded SM phase (par.h) counters collect in the thread's deltas. */
static inline void stat_inc(struct stats *s, uint32_t id)
{
	if (__builtin_expect(par_cur != NULL, 0))
		par_stat_add(s->defs[id].slot, 1);
	else
		s->vals[s->defs[id].slot]++;
}
static inline void stat_add(struct stats *s, uint32_t id, uint64_t v)
{
	if (__builtin_expect(par_cur != NULL, 0))
		par_stat_add(s->defs[id].slot, v);
	else
		s->vals[s->defs[id].slot] += v;
}
/* A counter that keeps the largest sample. */
static inline void stat_max(struct stats *s, uint32_t id, uint64_t v)
{
	if (__builtin_expect(par_cur != NULL, 0))
		par_stat_max(s->defs[id].slot, v);
	else if (v > s->vals[s->defs[id].slot])
		s->vals[s->defs[id].slot] = v;
}
void stat_occ_set(struct stats *s, uint32_t id, uint64_t value);
static inline void stat_occ_add(struct stats *s, uint32_t id, int64_t delta)
{
	if (__builtin_expect(par_cur != NULL && par_cur->sm != NULL, 0)) {
		par_occ_push(id, true, (uint64_t)delta);
		return;
	}
	stat_occ_set(s, id, (uint64_t)((int64_t)s->occ[s->defs[id].slot].cur + delta));
}
void stat_hist_add(struct stats *s, uint32_t id, uint64_t sample);

/* Add the threads' pending deltas (par.h) to the values. Every read
 * function below does it first; call it before reading the values' storage
 * any other way (the arena's bytes: snapshots, the state hash, forks).
 * Logically const: the pending deltas are part of the values. Only the
 * simulating thread, outside an SM phase. */
void stats_sync_pending(const struct stats *s);
static inline void stats_sync(const struct stats *s)
{
	if (__builtin_expect(s->pending, 0))
		stats_sync_pending(s);
}

/* Reading. */
int stats_find(const struct stats *s, const char *name); /* id or -1 */
/* Scalar: counter value, occupancy mean, histogram sample count, ratio. */
double stats_value(const struct stats *s, uint32_t id);
uint64_t stats_counter_value(const struct stats *s, uint32_t id);
const struct stat_occ *stats_occ(const struct stats *s, uint32_t id); /* integral brought up to now */
/* Occupancy mean over [0, now]. */
double stats_occ_mean(const struct stats *s, uint32_t id);
const uint64_t *stats_hist_counts(const struct stats *s, uint32_t id);
/* One line "name = value" with the kind's natural format. */
void stats_format(const struct stats *s, uint32_t id, struct strbuf *out);
/* Just the value part of stats_format ("42", "0.8123", "3 (max 8/32, mean 2.41)"). */
static inline uint32_t stats_count(const struct stats *s) { return s->n; }
static inline const struct stat_def *stats_def(const struct stats *s, uint32_t id) { return &s->defs[id]; }
const char *stat_kind_name(enum stat_kind k);

#endif
