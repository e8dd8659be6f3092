/*
 * l2_wait.c: a request the L2 bank cannot take now waits at the head of
 * the bank's input queue instead of being refused (NACK).
 *
 * GPGPU-Sim's L2 (memory_sub_partition::cache_cycle) never refuses: when
 * the cache answers RESERVATION_FAIL (no MSHR entry, no merge slot, miss
 * queue full, no line to allocate), the request stays at the head of the
 * icnt->L2 queue and is tried again next cycle; the requests behind it
 * wait too, and back-pressure reaches the SMs through the full queue and
 * the crossbar's credits. Multi2Sim and the FRC thesis refuse instead, and
 * the L1 re-sends after l1.retry_delay. l2.when_busy chooses for ordinary
 * requests (L1 fetches, stores, atomics, write-backs), l1.bypass_at_l2 for
 * loads the L1 bypassed (l1.bypass): both use the one test below.
 *
 * The test mirrors the refusals of l2.c's lookup and l2_repl.c's miss path
 * without their side effects, so a request popped after waiting is taken.
 * One refusal is not always foreseeable: a lazily allocated write miss
 * (l2.write_fetch = lazy_fetch) under random replacement, whose victim the
 * lookup draws; it waits if any candidate victim could refuse it. Machines
 * with an FRC or a coherence protocol always refuse (their miss paths have
 * more refusals, and the thesis's and the protocols' semantics are NACKs).
 */
#include "coh_eng.h" /* l2_bank_set */
#include "l2_int.h"
#include "l2_sharers.h"
#include "sim_int.h"

/* The conventional miss path's refusals for a line with no pending entry
 * (l2_repl.c l2_miss_path/miss_room): MSHR file full, memory queue without
 * room for a write-back and a fetch, request pool without room for them and
 * an invalidation round, and for an absent line a set whose every way is
 * in transition (cache_victim's test, without its side effects). */
static bool new_miss_refused(const struct sim *s, struct l2bank *b, int set, bool present)
{
	if (l2_mshr_in_use(s, b) >= b->m.n || !l2_memq_room(s, b, 2) || !l2_pool_room(s, 2 + l2sh_room_needed(s)))
		return true;
	if (present)
		return false;
	for (int w = 0; w < b->c.ways; w++) {
		const struct cline *v = cache_line(&b->c, set, w);
		if (!(v->reserved || v->transient || v->swap_pending || v->pinned || v->fetching))
			return false;
	}
	return true;
}

static bool miss_refused(const struct sim *s, struct l2bank *b, uint64_t addr, int set, bool present)
{
	uint32_t e = mshr_find(&b->m, addr, 0);
	return e != REQ_NIL ? !mshr_can_merge(&b->m, e) : new_miss_refused(s, b, set, present);
}

/* Would victim way v of a lazily allocated write miss refuse it? Its L1
 * copies send the write down the miss path; a dirty victim needs room for
 * its write-back (l2.c write_lazy_allocate). */
static bool lazy_victim_refused(const struct sim *s, struct l2bank *b, int set, int v)
{
	const struct cline *vl = cache_line(&b->c, set, v);
	if (vl->valid && l2sh_has(s, b, set, v))
		return new_miss_refused(s, b, set, false);
	return vl->valid && vl->sd && (!l2_memq_room(s, b, 1) || !l2_pool_room(s, 1));
}

/* The victims cache_victim may pick: the first free way, else the oldest
 * candidate, or under random replacement any candidate. */
static bool lazy_refused(const struct sim *s, struct l2bank *b, int set)
{
	int best = -1;
	bool any = false;
	for (int w = 0; w < b->c.ways; w++) {
		const struct cline *l = cache_line(&b->c, set, w);
		if (l->reserved || l->transient || l->swap_pending || l->pinned || l->fetching)
			continue;
		if (!l->valid)
			return lazy_victim_refused(s, b, set, w);
		if (best < 0 || l->stamp < cache_line(&b->c, set, best)->stamp)
			best = w;
		any = any || lazy_victim_refused(s, b, set, w);
	}
	if (best < 0)
		return true; /* every way in transition */
	return b->c.repl == REPL_RANDOM ? any : lazy_victim_refused(s, b, set, best);
}

static bool write_refused(const struct sim *s, struct l2bank *b, const struct req *r, int set, bool present)
{
	if (present)
		return false;
	uint32_t e = mshr_find(&b->m, r->addr, 0);
	if (e == REQ_NIL && (r->flags & REQF_NOALLOC_L2)) /* st.slc: written around */
		return !l2_memq_room(s, b, 1) || !l2_pool_room(s, 1);
	if (e != REQ_NIL || s->cfg.l2.write_fetch == L2W_FETCH_ON_WRITE)
		return miss_refused(s, b, r->addr, set, false);
	return lazy_refused(s, b, set);
}

/* Would l2_access refuse request r now? */
static bool refused(const struct sim *s, struct l2bank *b, const struct req *r)
{
	int set = l2_bank_set(s, b, r->addr);
	int way = cache_find(&b->c, set, r->addr);
	const struct cline *cl = way >= 0 ? cache_line(&b->c, set, way) : NULL;
	if (cl && cl->valid && cl->transient)
		return true; /* the old block of a line being replaced */
	bool present = cl && cl->valid;
	if (r->type == RQ_ST || r->type == RQ_WB)
		return write_refused(s, b, r, set, present);
	if (present && (cl->sv & r->mask) == r->mask)
		return false; /* read or atomic hit */
	if (r->type != RQ_ATOM && (r->flags & REQF_NOALLOC_L2) && !present && mshr_find(&b->m, r->addr, 0) == REQ_NIL)
		return l2_mshr_in_use(s, b) >= b->m.n || !l2_memq_room(s, b, 1) ||
		       !l2_pool_room(s, 1 + l2sh_room_needed(s)); /* ld.slc streamed (l2_slc_stream) */
	return miss_refused(s, b, r->addr, set, present);
}

/* A load the L1 bypassed (l1.bypass): it travels as itself (RQ_LD) with no
 * L1 MSHR entry behind it. */
static bool bypassed_load(const struct sim *s, const struct req *r)
{
	const struct l1_cfg *c = &s->cfg.l1;
	return r->type == RQ_LD && c->enabled && c->bypass != L1B_NONE && !(r->flags & REQF_BYP_L1);
}

bool l2_head_waits(struct sim *s, struct l2bank *b, uint32_t ri)
{
	const struct req *r = &s->pool.r[ri];
	if (s->coh || s->cfg.l2.frc.entries || r->type == RQ_COH || (r->flags & REQF_COH))
		return false;
	bool byp = bypassed_load(s, r);
	bool queue = byp ? s->cfg.l1.bypass_at_l2 == BYPL2_QUEUE : s->cfg.l2.when_busy == L2WB_QUEUE;
	if (!queue || !refused(s, b, r))
		return false;
	if (!(r->flags & REQF_L2_WAITED)) {
		s->pool.r[ri].flags |= REQF_L2_WAITED;
		stat_inc(&s->stats, byp ? s->id.l2_byp_waits : s->id.l2_head_waits);
	}
	return true;
}

bool l2_when_busy_queues(const struct sim_cfg *c)
{
	if (c->l2.coh.protocol != COH_NONE || c->l2.frc.entries)
		return false;
	return c->l2.when_busy == L2WB_QUEUE ||
	       (c->l1.enabled && c->l1.bypass != L1B_NONE && c->l1.bypass_at_l2 == BYPL2_QUEUE);
}
