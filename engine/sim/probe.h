/*
 * probe.h: probe points. A hardware unit publishes what happens to it (an L1
 * or L2 access with its outcome, an L1 line filled or replaced) by firing a
 * probe point; observers (the reuse-distance profiler, CCWS's victim tag
 * arrays, VWS's working-set estimator) register listeners on the points they
 * need while the machine is built (machine/sim.c). The unit never names its
 * observers, so a cache file reads as the cache alone and a new observer
 * needs no edit of the cache (gem5's ProbePoint idea; docs/ARCHITECTURE.md).
 *
 *   l1.c ──probe_fire(PP_L1_ACCESS, &a)──▶ [reuse tap] [ccws] [vws]
 *                                           listeners, in registration order
 *
 * Rules:
 *  - Listeners live in struct sim beside the config, outside the arena:
 *    they are rebuilt by every sim_new, never saved in snapshots or state
 *    blobs, so rewinding and restoring keep them.
 *  - Listeners run in registration order, at the point the unit fires, so a
 *    run is as deterministic as before; a listener may change its own
 *    structure's state and emit events, never the firing unit's.
 *  - A point nobody listens to costs one load and a compare.
 *  - The L1 points fire in the SM's own thread when the SM phases run on
 *    several threads (machine/sim_par.c "Threads"): a listener on them may
 *    change only per-SM state of its own, stats and events (which par.h
 *    buffers); one that needs more makes sim.c's par_eligible say no.
 */
#ifndef GPUSTEP_PROBE_H
#define GPUSTEP_PROBE_H

#include <stdbool.h>
#include <stdint.h>

struct sim;
struct sm;

enum probe_point {
	PP_L1_ACCESS, /* struct probe_access: the first lookup of a request at an L1 */
	PP_L1_FILL,   /* struct probe_line: a line filled for a miss (warp = the MSHR entry's) */
	PP_L1_EVICT,  /* struct probe_line: a valid line about to be replaced by a fill or allocation */
	PP_L2_ACCESS, /* struct probe_access: the first lookup of a request at an L2 bank */
	PP__COUNT,
};

enum probe_op { PRB_LOAD, PRB_STORE, PRB_ATOMIC };

struct probe_access {
	struct sm *sm;  /* PP_L1_ACCESS: the SM; NULL at the L2 */
	int unit;       /* SM id (L1) or bank id (L2) */
	int from_sm;    /* the requesting SM */
	int warp;       /* the requesting warp slot, -1 unknown (L2) */
	uint64_t addr;  /* line address */
	int set;
	uint8_t op;     /* enum probe_op */
	bool hit;       /* the hit test of the lookup */
	bool inflight;  /* an MSHR entry already fetches the line */
	bool bypassed;  /* a load that skips the L1 (the lookup only counts it) */
};

struct probe_line {
	struct sm *sm;
	int set, way;
	int warp; /* PP_L1_FILL: the warp the line was fetched for */
};

typedef void (*probe_fn)(struct sim *s, const void *arg);

#define PROBE_MAX 4 /* listeners per point */

struct probes {
	uint8_t n[PP__COUNT];
	probe_fn fn[PP__COUNT][PROBE_MAX];
};

/* Register fn on point p; returns -1 when the point already has PROBE_MAX. */
int probe_listen(struct probes *pr, enum probe_point p, probe_fn fn);

static inline void probe_fire(const struct probes *pr, struct sim *s, enum probe_point p, const void *arg)
{
	for (unsigned i = 0; i < pr->n[p]; i++)
		pr->fn[p][i](s, arg);
}

static inline bool probe_heard(const struct probes *pr, enum probe_point p) { return pr->n[p] != 0; }

#endif
