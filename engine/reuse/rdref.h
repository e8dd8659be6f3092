/*
 * rdref.h: the reuse-distance model with the semantics of the reference
 * implementation (tue-es/gpu-cache-model, `--semantics reference`),
 * next to gpustep's own (rdmodel.h). Same configuration (struct rdm_cfg),
 * same result layout (struct rdm_result); what differs (docs/REUSE.md):
 *
 *  1. warps: a warp stays in the pool after its last load until it is
 *     taken again with every thread done (it waits for its data, then
 *     spends one queue slot); threads keep their own program counters.
 *  2. MSHRs: the count of distinct lines with a miss pending is taken at
 *     the start of the step; only lane 0 of a warp is checked against it,
 *     with no exemption for lines already in flight; a refused lane 0 ends
 *     its group (the other groups of an 8/16-byte load still issue); an
 *     entry is freed when any miss request for its line arrives.
 *  3. effects due in a step apply after each lane group: per set, hits
 *     before misses, each in issue order.
 *  4. 8-byte and 16-byte loads issue as 2 or 4 groups of 16 or 8 lanes
 *     (lane 0's size decides), the cache changing between groups;
 *     coalescing merges a lane into an earlier lane of its group (its own
 *     size decides the group) that has the same line.
 *  5. a miss to a line in flight keeps its distance (infinite when the line
 *     never arrived) and counts as a miss: there is no in-flight bin.
 *
 * A distance equal to the ways is a miss in the run (as in the reference's
 * run); the reference's printout counts it as a hit: rdr_report gives that
 * printout, rdm_result and rdm_ablation the run's reading.
 */
#ifndef GPUSTEP_RDREF_H
#define GPUSTEP_RDREF_H

#include "rdmodel.h"

struct trc;

/* Per-thread loads (only the order within a thread matters), then
 * rdr_input_finish for one line size / warp size / thread cap. */
struct rdr_input;
/* Keeps the first c->thread_cap threads (whole blocks), numbers the
 * lines, marks the lanes coalesced away. Call once. */
void rdr_input_free(struct rdr_input *in);
/* Threads modelled (max thread id with a load + 1, within the cap). */
uint32_t rdr_input_threads(const struct rdr_input *in);
/* Built and finished from a kernel (each lane's loads, in order) or a
 * .trc trace (its loads). */
struct rdr_input *rdr_input_from_kernel(const struct kernel *k, const struct rdm_cfg *c);
struct rdr_input *rdr_input_from_trc(const struct trc *t, const struct rdm_cfg *c);

/* One run. c->clip, c->rule_b, c->policy and c->mshr_per_warp have no
 * meaning here and are ignored. cls: hit (d < ways), latency (a miss
 * request for the line is pending), compulsory (d = inf otherwise),
 * capacity (every other miss: no associativity split per access). The
 * trace record (d, class, issue and effect times) as in rdm_run. */
void rdr_run(const struct rdm_cfg *c, const struct rdr_input *in, struct rdm_result *out);

/* The reference's own printout (its reading of the same runs). */
struct rdr_report {
	uint64_t accesses, hits, misses;
	int64_t compulsory, capacity, associativity, latency, mshr;
	double miss_rate;
};
/* The four runs (rdablate.c); *rep (if not NULL) gets the printout. */
void rdr_ablation(const struct rdm_cfg *c, const struct rdr_input *in, struct rdm_ablation *o,
		  struct rdr_report *rep);
/* The printout from per-run totals: gt[k] = misses with d = inf or
 * d > ways, inf[k] = d = inf, hits of run 0. */
void rdr_ref_report(const uint64_t gt[4], const uint64_t inf[4], uint64_t hits, struct rdr_report *p);

#endif
