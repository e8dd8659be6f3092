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
#include "sim/sim_int.h"

enum { TAKEN = -1 }; /* else the refusal, enum nack_reason (evcode.h) */

static const struct cline *line_at(const struct l2bank *b, int set, int way)
{
	return cache_line((struct cache *)&b->c, set, way); /* cache_line() is not const; only read here */
}

static bool in_transition(const struct cline *v)
{
	return v->reserved || v->transient || v->swap_pending || v->pinned || v->fetching; /* cache_victim's test */
}

/* Memory queue and request pool room for n memory requests plus `extra`. */
static int room(const struct sim *s, const struct l2bank *b, uint32_t n, uint32_t extra)
{
	if (!l2_memq_room(s, b, n))
		return NACK_QUEUE_FULL;
	return l2_pool_room(s, n + extra) ? TAKEN : NACK_POOL_FULL;
}

/* The conventional miss path's refusals for a line with no pending entry
 * (l2_repl.c l2_miss_path/miss_room): MSHR file full, memory queue without
 * room for a write-back and a fetch, request pool without room for them and
 * an invalidation round, and for an absent line a set whose every way is
 * in transition (cache_victim's test, without its side effects). */
static int new_miss_refused(const struct sim *s, const struct l2bank *b, int set, bool present)
{
	if (l2_mshr_in_use(s, b) >= (uint32_t)s->cfg.l2.mshr_entries)
		return NACK_MSHR_FULL;
	int why = room(s, b, 2, l2sh_room_needed(s));
	if (why != TAKEN || present)
		return why;
	for (int w = 0; w < b->c.ways; w++)
		if (!in_transition(line_at(b, set, w)))
			return TAKEN;
	return NACK_SET_ALL_TRANSIENT;
}

static int miss_refused(const struct sim *s, const struct l2bank *b, uint64_t addr, int set, bool present)
{
	uint32_t e = mshr_find(&b->m, addr, 0);
	if (e != REQ_NIL)
		return mshr_can_merge(&b->m, e, (uint32_t)s->cfg.l2.mshr_merges) ? TAKEN : NACK_MERGE_FULL;
	return new_miss_refused(s, b, set, present);
}

/* Would victim way v of a lazily allocated write miss refuse it? Its L1
 * copies send the write down the miss path; a dirty victim needs room for
 * its write-back (l2.c write_lazy_allocate). */
static int lazy_victim_refused(const struct sim *s, const struct l2bank *b, int set, int v)
{
	const struct cline *vl = line_at(b, set, v);
	if (vl->valid && l2sh_has(s, b, set, v))
		return new_miss_refused(s, b, set, false);
	return vl->valid && vl->sd ? room(s, b, 1, 0) : TAKEN;
}

/* The victims cache_victim may pick: the first free way, else the oldest
 * candidate, or under random replacement any candidate. */
static int lazy_refused(const struct sim *s, const struct l2bank *b, int set)
{
	int best = -1, any = TAKEN;
	for (int w = 0; w < b->c.ways; w++) {
		const struct cline *l = line_at(b, set, w);
		if (in_transition(l))
			continue;
		if (!l->valid)
			return lazy_victim_refused(s, b, set, w);
		if (best < 0 || l->stamp < line_at(b, set, best)->stamp)
			best = w;
		if (any == TAKEN && b->c.repl == REPL_RANDOM) /* only random replacement may pick any */
			any = lazy_victim_refused(s, b, set, w);
	}
	if (best < 0)
		return NACK_SET_ALL_TRANSIENT;
	return b->c.repl == REPL_RANDOM ? any : lazy_victim_refused(s, b, set, best);
}

static int write_refused(const struct sim *s, const struct l2bank *b, const struct req *r, int set, bool present)
{
	if (present)
		return TAKEN;
	uint32_t e = mshr_find(&b->m, r->addr, 0);
	if (e == REQ_NIL && (r->flags & REQF_NOALLOC_L2)) /* st.slc: written around */
		return room(s, b, 1, 0);
	if (e != REQ_NIL || s->cfg.l2.write_fetch == L2W_FETCH_ON_WRITE)
		return miss_refused(s, b, r->addr, set, false);
	return lazy_refused(s, b, set);
}

/* Would l2_access refuse request r now, and why? */
static int refused(const struct sim *s, const struct l2bank *b, const struct req *r)
{
	int set = l2_bank_set(s, b, r->addr);
	int way = cache_find(&b->c, set, r->addr);
	const struct cline *cl = way >= 0 ? line_at(b, set, way) : NULL;
	if (cl && cl->valid && cl->transient)
		return NACK_TRANSIENT; /* the old block of a line being replaced */
	bool present = cl && cl->valid;
	if (r->type == RQ_ST || r->type == RQ_WB)
		return write_refused(s, b, r, set, present);
	if (present && (cl->sv & r->mask) == r->mask)
		return TAKEN; /* read or atomic hit */
	if (r->type != RQ_ATOM && (r->flags & REQF_NOALLOC_L2) && !present && mshr_find(&b->m, r->addr, 0) == REQ_NIL)
		return l2_mshr_in_use(s, b) >= (uint32_t)s->cfg.l2.mshr_entries ? NACK_MSHR_FULL
						      : room(s, b, 1, l2sh_room_needed(s)); /* ld.slc (l2_slc_stream) */
	return miss_refused(s, b, r->addr, set, present);
}

/* A load the L1 bypassed (l1.bypass): it travels as itself (RQ_LD) with no
 * L1 MSHR entry behind it. */
static bool bypassed_load(const struct sim *s, const struct req *r)
{
	const struct l1_cfg *c = &s->cfg.l1;
	return r->type == RQ_LD && c->enabled && c->bypass != L1B_NONE && !(r->flags & REQF_BYP_L1);
}

int l2_head_wait_reason(const struct sim *s, const struct l2bank *b, uint32_t ri)
{
	if (ri == REQ_NIL)
		return TAKEN;
	const struct req *r = &s->pool.r[ri];
	if (s->coh || s->cfg.l2.frc.entries || r->type == RQ_COH || (r->flags & REQF_COH))
		return TAKEN;
	bool queue = bypassed_load(s, r) ? s->cfg.l1.bypass_at_l2 == BYPL2_QUEUE : s->cfg.l2.when_busy == L2WB_QUEUE;
	return queue ? refused(s, b, r) : TAKEN;
}

bool l2_head_waits(struct sim *s, struct l2bank *b, uint32_t ri)
{
	if (l2_head_wait_reason(s, b, ri) == TAKEN)
		return false;
	struct req *r = &s->pool.r[ri];
	if (!(r->flags & REQF_L2_WAITED)) {
		r->flags |= REQF_L2_WAITED;
		stat_inc(&s->stats, bypassed_load(s, r) ? s->id.l2_byp_waits : s->id.l2_head_waits);
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
