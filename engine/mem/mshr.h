/*
 * mshr.h: a file of Miss Status Holding Registers (FRC thesis §1.5; the
 * reuse-distance paper §1.7). One entry per outstanding line (or sector group);
 * secondary misses to the same line merge into it up to `merges` requests.
 * Used by the L1s (waiters are warp requests) and the L2 banks (waiters are
 * requests from the L1s).
 *
 * Lookup is by line address through a small chained hash, so large streaming
 * MSHR files (thousands of entries) cost the same per access as small ones.
 *
 * The file is allocated once at its capacity (l1.mshr.capacity,
 * l2.mshr.capacity; by default the entry count). How many entries may be in
 * use and how many requests an entry takes are limits the caller passes from
 * the configuration on every check, never state: a machine forked with a
 * lower limit (sim_fork, `whatif l1.mshr.entries=2`) keeps the entries it
 * holds and allocates again once fewer than the limit are in use.
 */
#ifndef GPUSTEP_MSHR_H
#define GPUSTEP_MSHR_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/req.h"

enum mshr_state { ME_FREE, ME_EVICTING, ME_FETCHING };

struct mshr_ent {
	uint64_t addr;     /* line address */
	uint64_t t_alloc;
	uint64_t victim;   /* L2: line address being evicted (ME_EVICTING) */
	struct reqq wait;  /* merged requests, arrival order */
	uint32_t mask;     /* sectors fetched */
	uint32_t hnext;    /* hash chain */
	uint16_t merged;   /* requests attached, the first included */
	union {            /* who allocated the entry */
		uint16_t warp; /* L1: the warp slot (per-warp limit, CCWS) */
		uint16_t sm;   /* L2: the requesting SM (TEMP page colouring) */
	};
	int16_t way;       /* line reserved for the fill, -1 = choose on fill */
	int16_t set;
	uint8_t state;     /* enum mshr_state */
	uint8_t sent;      /* request has left toward the next level */
};

struct mshr {
	struct mshr_ent *e;
	uint32_t *bucket;   /* hash heads, REQ_NIL terminated chains */
	uint32_t nbuckets;  /* power of two */
	uint32_t n;         /* entries allocated (the capacity, not the limit) */
	uint32_t used;
	uint32_t free_head; /* free entries chained through hnext */
};

void mshr_init(struct mshr *m, struct arena *a, uint32_t capacity);
/* Entry for line with all of `mask` covered, or REQ_NIL. */
uint32_t mshr_find(const struct mshr *m, uint64_t line, uint32_t mask);
/* REQ_NIL when all `capacity` entries are taken: callers check the limit
 * first (mshr_full). */
uint32_t mshr_alloc(struct mshr *m, uint64_t line, uint32_t mask, uint64_t now);
void mshr_release(struct mshr *m, uint32_t i);
/* limit: the configured entry count (l1.mshr.entries, ...), at most m->n. */
static inline bool mshr_full(const struct mshr *m, uint32_t limit) { return m->used >= limit; }
/* merges: requests an entry takes, the first included (l1.mshr.merges, ...). */
static inline bool mshr_can_merge(const struct mshr *m, uint32_t i, uint32_t merges) { return m->e[i].merged < merges; }
/* Entries held by one warp (linear scan: only used when a per-warp limit is set). */
uint32_t mshr_count_warp(const struct mshr *m, uint16_t warp);

#endif
