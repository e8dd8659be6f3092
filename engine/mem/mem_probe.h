/*
 * mem_probe.h: how the caches fire their probe points (sim/probe.h). The
 * caches build the record and fire; what listens (reuse profiler, CCWS, VWS)
 * is decided when the machine is built.
 */
#ifndef GPUSTEP_MEM_PROBE_H
#define GPUSTEP_MEM_PROBE_H

#include "sim/sim_int.h"

static inline uint8_t probe_op_of(uint8_t type)
{
	return type == RQ_ST ? PRB_STORE : type == RQ_ATOM ? PRB_ATOMIC : PRB_LOAD;
}

/* PP_L1_ACCESS: request r's first lookup at sm's L1 (bypassed: a load that
 * skips the L1, counted only). */
static inline void l1_probe_access(struct sim *s, struct sm *sm, const struct req *r, int set, bool hit, bool inflight,
				   bool bypassed)
{
	if (!probe_heard(&s->probes, PP_L1_ACCESS))
		return;
	struct probe_access a = {.sm = sm, .unit = sm->id, .from_sm = sm->id, .warp = r->warp, .addr = r->addr,
				 .set = set, .op = probe_op_of(r->type), .hit = hit, .inflight = inflight,
				 .bypassed = bypassed};
	probe_fire(&s->probes, s, PP_L1_ACCESS, &a);
}

/* PP_L1_FILL / PP_L1_EVICT: line (set, way) of sm's L1. */
static inline void l1_probe_line(struct sim *s, enum probe_point p, struct sm *sm, int set, int way, int warp)
{
	if (!probe_heard(&s->probes, p))
		return;
	struct probe_line ln = {.sm = sm, .set = set, .way = way, .warp = warp};
	probe_fire(&s->probes, s, p, &ln);
}

/* PP_L2_ACCESS: request r's first lookup at L2 bank `bank`. */
static inline void l2_probe_access(struct sim *s, int bank, const struct req *r, int set, bool hit, bool inflight)
{
	if (!probe_heard(&s->probes, PP_L2_ACCESS))
		return;
	struct probe_access a = {.sm = NULL, .unit = bank, .from_sm = r->sm, .warp = -1, .addr = r->addr,
				 .set = set, .op = probe_op_of(r->type), .hit = hit, .inflight = inflight};
	probe_fire(&s->probes, s, PP_L2_ACCESS, &a);
}

#endif
