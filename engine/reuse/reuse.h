/*
 * reuse.h: the reuse-distance profiler. It observes the access stream of every
 * L1 and every L2 bank (one tap per lookup, after the hit/miss decision) and
 * never changes timing. RD paper §3.3, §4.6-D (Almasi et al.), note §2.
 *
 * Per profiled cache (S sets x W ways, N = S*W lines), per access to line x:
 *
 *   set view   distance of x in the LRU stack of its own set (what decides a
 *              hit in an LRU cache of this geometry: hit iff d < W). Exact for
 *              d < D = 4W; the stack is kept D deep, deeper lines are ">= D".
 *   FA view    distance of x in one fully associative LRU stack of all lines
 *              (the shadow FA cache of the same capacity: hit iff d < N).
 *              Bennett-Kruskal with a Fenwick tree over last-access times,
 *              O(log K) per access; exact for d < K = 4N, beyond it ">= K".
 *
 *     time slots 1 .. T (T = pow2 >= 2K)     owner[t] -> tracked line entry
 *     fen[]: 1 at each tracked line's last access time
 *     d_fa(x) = live - prefix(t_last(x))      (distinct lines touched since)
 *     more than K lines tracked -> the oldest is dropped (its d is >= K anyway)
 *     slots used up -> the live ones are renumbered 1..live (amortised O(1))
 *
 *   seen       one bit per line of the workload's footprint: a kernel's
 *              arrays, or the lines a .trc trace touches (a range of at most
 *              REUSE_SEEN_MAX_BITS lines: bits over the range; wider: one bit
 *              per distinct line, found in their sorted list); never-seen
 *              lines have d = inf. Lines outside it (Accel-Sim traces: no
 *              footprint known, 2^20 bits) share hashed bits (`approx`).
 *
 * Histogram bins (both views): 0 .. D-1 exact (FA view: 4W bins of S
 * distances each, so the FA cut-off N = S*W falls between bins W-1 and W),
 * then ">= D", "inf compulsory" (never seen) and "inf latency" (a miss whose
 * line is in flight: from the cache's side the line has not arrived, as in
 * the paper's model where the stack changes only when the data arrives).
 *
 * Miss classes, on the same access order, first match wins:
 *   latency        the line is in flight (an MSHR entry exists for it)
 *   compulsory     never seen by this cache
 *   capacity       the shadow FA LRU of N lines would miss too (d_fa >= N)
 *   associativity  the FA LRU would hit, an LRU cache of this geometry
 *                  would not (d_set >= W)
 *   other          an LRU cache of this geometry would hit (d_set < W):
 *                  sector misses, lines invalidated by stores/atomics,
 *                  non-LRU replacement, allocate-on-fill timing, L2 NACKs
 *
 * The set stacks are rings with a membership table, so a line that is not in
 * its set's stack (every miss to a new line) costs O(1), not O(D).
 *
 * Memory, per cache, fixed at creation (all in the simulator arena, so
 * snapshots restore it): about 8*S*D (set stacks) + 16*S*D (membership) + 4*S*(D+3) (per-set
 * histograms) + 8*T + 24*K (FA window) + seen bits/8 bytes.
 */
#ifndef GPUSTEP_REUSE_H
#define GPUSTEP_REUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/util.h"

#define REUSE_INF (-1)                  /* never seen */
#define REUSE_SEEN_MAX_BITS (1u << 20)  /* per cache: exact for footprints up to 2^20 lines */
#define REUSE_DCAP_FACTOR 4             /* D = 4 W, K = 4 N */

enum reuse_class { RC_HIT, RC_COMPULSORY, RC_CAPACITY, RC_ASSOC, RC_LATENCY, RC_OTHER, RC__COUNT };
const char *reuse_class_name(unsigned c); /* "hit", "compulsory", ... */

/* Extra bins after the D finite ones. */
enum { RB_OVER, RB_INF_COMP, RB_INF_LAT, RB__EXTRA };

struct rd_ent {
	uint64_t line;
	uint32_t t;    /* last-access slot in the FA window */
	uint32_t next; /* hash chain / free list, UINT32_MAX terminated */
};

/* One profiled cache. */
struct rd_cache {
	uint32_t sets, ways, lines; /* S, W, N */
	uint32_t dcap;              /* D: set-view bins */
	uint32_t fa_bins, fa_width; /* FA view: fa_bins bins of fa_width distances */
	uint32_t kcap;              /* K: FA distances tracked exactly */
	/* set view */
	uint64_t *stk;   /* [sets * dcap], a ring per set: the most recent at head */
	uint16_t *depth; /* [sets] */
	uint16_t *head;  /* [sets] */
	uint64_t *memb;  /* open-addressed set of the lines in any set's stack (line + 1; 0 = empty) */
	uint32_t nmemb;  /* power of two >= 2 * sets * dcap */
	/* FA window */
	uint32_t T, now, live;
	uint32_t *fen;   /* [T + 1], 1-based */
	uint32_t *owner; /* [T + 1], entry index + 1, 0 = free slot */
	struct rd_ent *ent;
	uint32_t *bucket, nbuckets, free_head;
	/* seen lines */
	uint64_t *seen;
	uint64_t seen_base, seen_bits; /* line numbers [base, base + bits) map 1:1 */
	const uint64_t *seen_list;     /* or: sorted distinct lines, bit i = seen_list[i] (shared) */
	uint32_t seen_nlist;
	/* counts */
	uint64_t *hist;     /* [dcap + RB__EXTRA] */
	uint64_t *fa_hist;  /* [fa_bins + RB__EXTRA] */
	uint32_t *set_hist; /* [sets * (dcap + RB__EXTRA)] */
	uint64_t cls[RC__COUNT];
	uint64_t accesses;
	uint64_t hits_far; /* hits with d_set >= W: the cache is not LRU here */
	uint64_t approx;   /* accesses whose seen bit was folded (may call a new line seen) */
	/* last access, for panels */
	uint64_t last_line, last_cycle;
	int64_t last_d, last_dfa;
	int32_t last_set;
	uint8_t last_cls, has_last;
};

/* One access, as the profiler saw it. d: REUSE_INF or a distance; a value
 * >= the view's cap (dcap / kcap) means "at least that". */
struct rd_result {
	int64_t d_set, d_fa;
	unsigned cls;   /* enum reuse_class */
	unsigned bin;   /* set-view bin (0 .. dcap-1, dcap + RB_*) */
};

/* seen_base/seen_lines: the line numbers expected (the footprint); lines
 * outside, or beyond REUSE_SEEN_MAX_BITS, share folded bits. */
void rd_cache_init(struct rd_cache *c, struct arena *a, uint32_t sets, uint32_t ways, uint64_t seen_base,
		   uint64_t seen_lines);
/* Bytes rd_cache_init takes from the arena. */
size_t rd_cache_bytes(const struct rd_cache *c);
/* line = line number (address / line bytes); set < sets. */
void rd_cache_access(struct rd_cache *c, uint64_t line, uint32_t set, bool hit, bool inflight,
		     struct rd_result *out);

/* ---- the simulator's profiler: one rd_cache per L1 and per L2 bank ---- */
struct sim;
struct reuse;

/* Called by sim_new after the caches exist and before stats_freeze:
 * allocates from the arena and registers the stats. */
struct reuse *reuse_new(struct sim *s);
/* Taps (l1.c / l2.c). addr is the line address; set as the cache indexed it. */
/* The profiler listens to the caches' PP_L1_ACCESS / PP_L2_ACCESS probes
 * (reuse_attach, called by sim_new); the taps are what the listeners call. */
void reuse_attach(struct sim *s);
void reuse_tap_l1(struct sim *s, int sm, int warp, uint64_t addr, int set, bool hit, bool inflight);
void reuse_tap_l2(struct sim *s, int bank, int sm, uint64_t addr, int set, bool hit, bool inflight);
/* NULL for an out-of-range unit. kind: 0 = L1 (unit = SM), 1 = L2 (unit = bank). */
const struct rd_cache *reuse_cache(const struct sim *s, int kind, int unit);

#endif
