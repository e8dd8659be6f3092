/*
 * coh_kflush.c: the kernel boundary as a release and an acquire for the
 * relaxed protocols (FRC thesis §1.7: SI and NMOESI give release consistency
 * at kernel boundaries; coherence.kernel_boundary = flush). core_dispatch
 * calls coh_kernel_boundary once every CTA of kernel k has finished (and,
 * with mem.kernel_end = drained, the memory system is idle) and
 * starts kernel k+1 only when it returns true:
 *
 *   release  each L1 writes back its N lines, one PutN per L1 per cycle
 *            (through the miss queue, like an eviction); then the machine
 *            drains (no request in flight: every write-through acked, every
 *            Put merged into the L2)
 *   acquire  each L1 walks its tags one set per cycle and invalidates the
 *            copies that may be stale: S (NMOESI) and V (SI); E/M copies
 *            stay (the directory keeps them coherent)
 *   done     stats coh.kernel_flush.*, event coh.kernel_flush a = 2
 *
 * MOESI needs neither and protocol none has no copies to keep: for them, and
 * with coherence.kernel_boundary = none, s->kb is NULL and this returns true
 * at once. The state lives in the arena (struct coh_kb), so rewinding works.
 */
#include <string.h>

#include "coh_eng.h"

enum { KB_IDLE, KB_RELEASE, KB_ACQUIRE };

struct coh_kb {
	uint8_t phase;
	uint32_t set;    /* acquire: next set of the tag walk */
	uint64_t start;  /* cycle the boundary's release began */
	uint64_t wb, inv; /* this boundary's N lines written back, copies invalidated */
};

void coh_kflush_init(struct sim *s)
{
	if (!s->coh || s->nk < 2 || s->cfg.l2.coh.kernel_boundary != COH_KB_FLUSH || s->coh == &coh_moesi_proto)
		return;
	ARENA_SET(&s->arena, s->kb, struct coh_kb, 1);
	memset(s->kb, 0, sizeof *s->kb);
	struct stats *st = &s->stats;
	s->kb_id[0] = stats_counter(st, "coh.kernel_flush.boundaries", "kernel boundaries with a release and an acquire");
	s->kb_id[1] = stats_counter(st, "coh.kernel_flush.cycles",
				    "cycles from the end of a kernel (its last CTA; with mem.kernel_end=drained, the memory system idle too) to the start of the next kernel");
	s->kb_id[2] = stats_counter(st, "coh.kernel_flush.writebacks", "N lines written back (PutN) at releases");
	s->kb_id[3] = stats_counter(st, "coh.kernel_flush.invalidations", "S/V L1 copies invalidated at acquires");
}

static bool stable_copy(const struct cline *cl) { return cl->valid && !cl->reserved && coh_state_stable(cl->coh); }

/* One PutN per L1 this cycle; true if some N line is still to go. */
static bool release_step(struct sim *s)
{
	bool left = false;
	for (int i = 0; i < s->cfg.core.sms; i++) {
		struct sm *sm = &s->sms[i];
		struct cache *c = &sm->l1.c;
		bool sent = false;
		for (int set = 0; set < c->sets; set++)
			for (int way = 0; way < c->ways; way++) {
				struct cline *cl = cache_line(c, set, way);
				if (!stable_copy(cl) || cl->coh != CS_N)
					continue;
				/* room for the Put: a miss-queue slot and a request slot */
				if (sent || !l1_missq_room(s, &sm->l1) || s->pool.used + 1 >= s->pool.cap) {
					left = true;
					continue;
				}
				coh_l1_evict(s, sm, set, way);
				s->kb->wb++;
				stat_inc(&s->stats, s->kb_id[2]);
				sent = true;
				sim_progress(s);
			}
	}
	return left;
}

/* Invalidate the S/V copies of one set in every L1. */
static void acquire_set(struct sim *s, int set)
{
	for (int i = 0; i < s->cfg.core.sms; i++) {
		struct sm *sm = &s->sms[i];
		struct cache *c = &sm->l1.c;
		if (set >= c->sets)
			continue;
		for (int way = 0; way < c->ways; way++) {
			struct cline *cl = cache_line(c, set, way);
			if (stable_copy(cl) && (cl->coh == CS_S || cl->coh == CS_V)) {
				coh_l1_evict(s, sm, set, way); /* the REPLACE row: silent */
				s->kb->inv++;
				stat_inc(&s->stats, s->kb_id[3]);
			}
		}
	}
}

bool coh_kernel_boundary(struct sim *s)
{
	struct coh_kb *k = s->kb;
	if (!k)
		return true;
	uint64_t now = s->st->now;
	switch (k->phase) {
	case KB_IDLE:
		k->phase = KB_RELEASE;
		k->start = now;
		k->wb = k->inv = 0;
		stat_inc(&s->stats, s->kb_id[0]);
		EV_EMIT(&s->ev, EV_COH_KFLUSH, .cycle = now, .a = EVK_RELEASE);
		sim_progress(s);
		/* fall through */
	case KB_RELEASE:
		if (release_step(s) || s->pool.used)
			return false; /* Puts to send, or traffic still in flight: other units move */
		k->phase = KB_ACQUIRE;
		k->set = 0;
		EV_EMIT(&s->ev, EV_COH_KFLUSH, .cycle = now, .a = EVK_ACQUIRE, .b = (int64_t)k->wb);
		/* fall through */
	default:
		if (k->set < (uint32_t)s->cfg.l1.sets) { /* the tag walk: one set per cycle */
			acquire_set(s, (int)k->set++);
			sim_progress(s);
			return false;
		}
		stat_add(&s->stats, s->kb_id[1], now - k->start);
		EV_EMIT(&s->ev, EV_COH_KFLUSH, .cycle = now, .a = EVK_DONE, .b = (int64_t)k->inv);
		k->phase = KB_IDLE;
		return true;
	}
}
