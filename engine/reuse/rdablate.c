/*
 * rdablate.c: the paper's four-run ablation of the reuse-distance model
 * (rdmodel.h struct rdm_ablation) for both semantics, and the breakdown of
 * its totals into miss classes.
 *
 *   run 0  the model as configured          miss_0, inf_0
 *   run 1  one set of S*W ways (fully assoc.) miss_1
 *   run 2  every latency 0                   inf_2
 *   run 3  unlimited MSHRs                   miss_3
 *
 *   compulsory = inf_2             latency = inf_0 - inf_2
 *   associativity = miss_0 - miss_1   mshr = miss_0 - miss_3
 *   capacity = miss_0 - the others
 *
 * Differences of totals are not classes of single accesses: a run with
 * unlimited MSHRs or a fully associative cache reorders the accesses and
 * can miss more than the full model. Such a difference is negative; it is
 * clamped at 0 and the sum of the clamped terms is brought back to miss_0
 * by reducing the terms in the order mshr, latency, associativity,
 * compulsory. `adjusted` records every term changed so the front end can
 * say so (docs/REUSE.md). The reference code means to do the same for a
 * negative rest but moves the term the wrong way (rdref.h, rdr_ref_report).
 */
#include "rdref.h"

#include <stdlib.h>

#include "sim/util.h"

/* The run variant k (0-3) of the ablation. */
static void rdm_ablation_cfg(const struct rdm_cfg *c, int k, struct rdm_cfg *v)
{
	*v = *c;
	v->hist_cap = 0; /* only totals are read: the default depth is exact enough */
	if (k == 1) {    /* fully associative */
		v->ways = c->sets * c->ways;
		v->sets = 1;
	} else if (k == 2) {
		v->lat_hit = v->lat_min = v->lat_sigma = 0;
	} else if (k == 3) {
		v->mshr = 0;
		v->mshr_per_warp = 0;
	}
}

/* Take up to *need from term *t (>= 0); mark it when it changed. */
static void reduce(int64_t *t, int64_t *need, unsigned bit, unsigned *adj)
{
	int64_t x = MIN(*t, *need);
	if (x > 0) {
		*t -= x;
		*need -= x;
		*adj |= bit;
	}
}

void rdm_breakdown(struct rdm_ablation *o)
{
	int64_t m0 = (int64_t)o->miss[0];
	o->adjusted = 0;
	o->compulsory = (int64_t)o->inf[2];
	o->raw_latency = (int64_t)o->inf[0] - (int64_t)o->inf[2];
	o->raw_associativity = m0 - (int64_t)o->miss[1];
	o->raw_mshr = m0 - (int64_t)o->miss[3];
	o->latency = MAX(0, o->raw_latency);
	o->associativity = MAX(0, o->raw_associativity);
	o->mshr = MAX(0, o->raw_mshr);
	o->adjusted |= (o->raw_latency < 0 ? RDM_T_LATENCY : 0u) | (o->raw_associativity < 0 ? RDM_T_ASSOC : 0u) |
		       (o->raw_mshr < 0 ? RDM_T_MSHR : 0u);
	o->raw_capacity = m0 - (o->compulsory + o->latency + o->associativity + o->mshr);
	o->capacity = MAX(0, o->raw_capacity);
	if (o->raw_capacity < 0) {
		int64_t need = -o->raw_capacity;
		reduce(&o->mshr, &need, RDM_T_MSHR, &o->adjusted);
		reduce(&o->latency, &need, RDM_T_LATENCY, &o->adjusted);
		reduce(&o->associativity, &need, RDM_T_ASSOC, &o->adjusted);
		reduce(&o->compulsory, &need, RDM_T_COMPULSORY, &o->adjusted);
		o->adjusted |= RDM_T_CAPACITY;
	}
}

void rdm_ablation(const struct rdm_cfg *c, const struct rdm_trace *t, struct rdm_ablation *o)
{
	struct rdm_result *r = xmalloc(sizeof(*r));
	*o = (struct rdm_ablation){0};
	for (int k = 0; k < 4; k++) {
		struct rdm_cfg v;
		rdm_ablation_cfg(c, k, &v);
		rdm_run(&v, t, r);
		o->inf[k] = r->cls[RDM_COMPULSORY] + r->cls[RDM_LATENCY];
		o->miss[k] = r->accesses - r->cls[RDM_HIT];
		o->accesses = r->accesses;
	}
	free(r);
	rdm_breakdown(o);
	o->miss_rate = o->accesses ? (double)((int64_t)o->miss[0] - o->latency) / (double)o->accesses : 0.0;
}

void rdr_ablation(const struct rdm_cfg *c, const struct rdr_input *in, struct rdm_ablation *o,
		  struct rdr_report *rep)
{
	struct rdm_result *r = xmalloc(sizeof(*r));
	*o = (struct rdm_ablation){0};
	uint64_t gt[4] = {0}; /* the reference's own misses: d = inf or d > ways */
	uint64_t hits = 0;
	for (int k = 0; k < 4; k++) {
		struct rdm_cfg v;
		rdm_ablation_cfg(c, k, &v);
		rdr_run(&v, in, r);
		o->inf[k] = r->hist[r->nbins + RDM_BIN_NEVER];
		o->miss[k] = r->accesses - r->cls[RDM_HIT];
		gt[k] = o->inf[k] + r->over_ways;
		if (k == 0) {
			o->accesses = r->accesses;
			hits = r->accesses - gt[0];
		}
	}
	free(r);
	rdm_breakdown(o);
	o->miss_rate = o->accesses ? (double)o->miss[0] / (double)o->accesses : 0.0;
	if (rep)
		rdr_ref_report(gt, o->inf, hits, rep);
}

/* As the reference code prints it (src/model/io.cpp's arithmetic, our words):
 * misses are d = inf or d > ways, hits the rest (d == ways counts as a hit
 * here though its run missed on it); the terms as in rdm_breakdown but with
 * a negative rest added to (not taken from) the first term that is larger
 * than it, so the printed terms then sum to more than the misses. */
void rdr_ref_report(const uint64_t gt[4], const uint64_t inf[4], uint64_t hits, struct rdr_report *p)
{
	int64_t m0 = (int64_t)gt[0];
	int64_t assoc = m0 - (int64_t)gt[1], lat = (int64_t)inf[0] - (int64_t)inf[2], mshr = m0 - (int64_t)gt[3];
	int64_t comp = (int64_t)inf[2];
	int64_t rest = m0 - (comp + MAX(0, lat) + MAX(0, assoc) + MAX(0, mshr));
	int64_t cap = MAX(0, rest);
	if (rest < 0) {
		if (mshr > -rest)
			mshr -= rest;
		else if (lat > -rest)
			lat -= rest;
		else
			assoc -= rest;
	}
	*p = (struct rdr_report){.accesses = (uint64_t)m0 + hits, .hits = hits, .misses = (uint64_t)m0,
				 .compulsory = comp, .capacity = cap, .associativity = MAX(0, assoc),
				 .latency = MAX(0, lat), .mshr = MAX(0, mshr)};
	p->miss_rate = p->accesses ? (double)p->misses / (double)p->accesses : 0.0;
}
