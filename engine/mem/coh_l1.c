/*
 * coh_l1.c: the L1 side of a coherence protocol in the timing engine
 * (coh_eng.h). Every access looks up (line state, Load/Store) in the
 * protocol's L1 table (coh.h); every message (Data*, Inv, Recall) looks up
 * (state, message). The state of a copy is kept in its tag (cline.coh);
 * transient states (IS_D, IM_D, SM_D, OM_D, IN_D, SN_D) always have an MSHR
 * entry, and later accesses to the line merge into it and are looked up
 * again when the grant arrives (a store that merged into a shared grant then
 * sends its upgrade). NACKed requests go through the L1's retry queue and
 * are re-derived from the line's state when re-sent (SM_D that lost its copy
 * becomes IM_D: Upg -> GetX).
 */
#include "coh_eng.h"
#include "mem_probe.h"

#define L1C(s, l, field, agg)                                                                              \
	do {                                                                                               \
		stat_inc(&(s)->stats, (l)->st.field);                                                     \
		stat_inc(&(s)->stats, (s)->id.agg);                                                       \
	} while (0)

/* ev: the L1 event of the row taken (logged so the protocol panel can mark the exact row). */
static void trans(struct sim *s, struct sm *sm, uint64_t addr, unsigned from, unsigned to, unsigned ev)
{
	if (from == to)
		return;
	stat_inc(&s->stats, s->coh_trans_id);
	EV_EMIT(&s->ev, EV_COH_TRANSITION, .cycle = s->st->now, .sm = (int16_t)sm->id, .addr = addr, .a = from,
		.b = to);
	coh_note(s, TX_L1, sm->id, -1, addr, from, to, ev);
}

/* A message leaving this L1 (the request index becomes the packet). */
/* SI same-address order: an L1 sends no access for a line while one of its
 * write-throughs of that line is unacknowledged, so a NACKed WT retried
 * later is never overtaken by a younger WT or a GetS of the same line (the
 * L2 would keep the older value, and the core could read its own
 * overwritten one). The tester does the same (coh_ctl.c, wt_pending). */
static uint32_t wt_slot(const struct l1 *l, uint64_t key)
{
	uint32_t m = l->wt_cap - 1, i = (uint32_t)(mix64(key) & m);
	while (l->wt_key[i] && l->wt_key[i] != key)
		i = (i + 1) & m;
	return i;
}

static uint64_t wt_key(const struct l1 *l, uint64_t addr) { return (addr & ~(uint64_t)(l->c.line - 1)) | 1; }

static bool wt_pending(const struct l1 *l, uint64_t addr)
{
	return l->wt_cap && l->wt_key[wt_slot(l, wt_key(l, addr))] != 0;
}

static void wt_sent(struct l1 *l, uint64_t addr)
{
	if (!l->wt_cap)
		return;
	uint64_t key = wt_key(l, addr);
	uint32_t i = wt_slot(l, key);
	l->wt_key[i] = key;
	l->wt_n[i]++;
}

void coh_l1_wt_acked(struct sim *s, struct sm *sm, uint64_t addr)
{
	struct l1 *l = &sm->l1;
	(void)s;
	if (!l->wt_cap)
		return;
	uint32_t m = l->wt_cap - 1, i = wt_slot(l, wt_key(l, addr));
	if (!l->wt_key[i] || --l->wt_n[i])
		return;
	/* Last one: delete by shifting the rest of the probe run back. */
	for (uint32_t j = i;;) {
		j = (j + 1) & m;
		if (!l->wt_key[j])
			break;
		uint32_t k = (uint32_t)(mix64(l->wt_key[j]) & m);
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		l->wt_key[i] = l->wt_key[j];
		l->wt_n[i] = l->wt_n[j];
		i = j;
	}
	l->wt_key[i] = 0;
	l->wt_n[i] = 0;
	sm_wake(sm);
}

static void up(struct sim *s, struct sm *sm, uint32_t ri, unsigned type, uint64_t addr)
{
	if (type == CM_WT)
		wt_sent(&sm->l1, addr);
	struct req *r = &s->pool.r[ri];
	r->flags |= REQF_COH;
	r->coh_msg = (uint8_t)type;
	r->addr = addr;
	r->sm = (uint16_t)sm->id;
	coh_count(s, type, sm->id, (int)icnt_bank_of(s, addr), addr);
	l1_send_down(s, &sm->l1, ri);
}

static unsigned kept_of(unsigned next)
{
	return next == CS_O || next == CS_OM_D ? KEPT_O
	       : next == CS_S || next == CS_E || next == CS_SM_D || next == CS_V ? KEPT_S
										: KEPT_GONE;
}

static bool line_hit(const struct cline *cl) { return cl && cl->valid && !cl->reserved; }

/* Replacing the copy sends a Put (it needs a request slot). */
bool coh_l1_put_needed(const struct sim *s, const struct cline *cl)
{
	int row = cl->valid ? coh_l1_lookup(s->coh, cl->coh, CE_REPLACE) : -1;
	return row >= 0 && (s->coh->l1[row].act & (A_PUTE | A_PUTM | A_PUTN));
}

/* The copy leaves the L1 (replacement): silent, or PutE/PutM/PutN. Callers
 * that may send a Put made room for it (l1_pool_wait, the kernel flush). */
void coh_l1_evict(struct sim *s, struct sm *sm, int set, int way)
{
	struct l1 *l = &sm->l1;
	struct cline *cl = cache_line(&l->c, set, way);
	if (!cl->valid)
		return;
	unsigned st = cl->coh;
	int row = coh_l1_lookup(s->coh, st, CE_REPLACE);
	uint32_t a = row >= 0 ? s->coh->l1[row].act : 0;
	if (row < 0)
		stat_inc(&s->stats, s->coh_err_id);
	L1C(s, l, evictions, l1_evictions);
	EV_EMIT(&s->ev, EV_L1_EVICT, .cycle = s->st->now, .sm = (int16_t)sm->id, .addr = cl->tag, .set = set);
	if (a & (A_PUTE | A_PUTM | A_PUTN)) {
		uint32_t wi = req_alloc(&s->pool);
		if (wi == REQ_NIL)
			l2_pool_exhausted(s, "an L1 Put");
		struct req *w = &s->pool.r[wi];
		unsigned m = a & A_PUTE ? CM_PUTE : a & A_PUTM ? CM_PUTM : CM_PUTN;
		w->type = RQ_WB;
		w->mask = m == CM_PUTE ? 0 : cl->sd ? cl->sd : l->c.all_sectors;
		if (s->cv)
			coh_values_l1_payload(s, sm, wi, set, way); /* the dirty words go with the Put */
		up(s, sm, wi, m, cl->tag);
		if (m != CM_PUTE)
			L1C(s, l, writebacks, l1_writebacks);
	}
	trans(s, sm, cl->tag, st, CS_I, CE_REPLACE);
	if (s->cv)
		coh_values_l1_clean(s, sm, set, way);
	cl->valid = 0;
	cl->sv = cl->sd = 0;
	cl->coh = CS_I;
	cl->pinned = 0;
}

/* An atomic: counted as a miss and sent to the L2 as itself; a stable copy
 * leaves first (its Put travels ahead of the atomic). */
static int access_atomic(struct sim *s, struct sm *sm, uint32_t ri, int set, int way, uint32_t pend)
{
	struct l1 *l = &sm->l1;
	struct req *r = &s->pool.r[ri];
	struct cline *cl = way >= 0 ? cache_line(&l->c, set, way) : NULL;
	if (!l1_missq_room(s, l))
		return 1;
	bool evict = line_hit(cl) && coh_state_stable(cl->coh) && !cl->pinned;
	if (evict && coh_l1_put_needed(s, cl) && l1_pool_wait(s, 1))
		return 1;
	L1C(s, l, accesses, l1_accesses);
	L1C(s, l, atomics, l1_atomics);
	L1C(s, l, misses, l1_misses);
	EV_EMIT(&s->ev, EV_L1_ACCESS, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp,
		.addr = r->addr, .set = set, .a = EVA_ATOMIC);
	l1_probe_access(s, sm, r, set, false, pend != REQ_NIL, false);
	if (evict)
		coh_l1_evict(s, sm, set, way);
	l1_send_down(s, l, ri);
	return 0;
}

/* A hit: the row's transition (st -> nx), dirty and value bookkeeping; an SI
 * store then writes through. */
static int access_hit(struct sim *s, struct sm *sm, uint32_t ri, int set, int way, uint32_t act, unsigned nx,
		      unsigned ev)
{
	struct l1 *l = &sm->l1;
	struct req *r = &s->pool.r[ri];
	struct cline *cl = cache_line(&l->c, set, way);
	uint64_t now = s->st->now;
	EV_EMIT(&s->ev, EV_L1_HIT, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp, .addr = r->addr,
		.set = set);
	cache_touch(&l->c, set, way);
	cl->touch = TOUCH_HIT;
	cl->touch_cycle = now;
	if (act & A_DIRTY)
		cl->sd |= r->mask ? r->mask : l->c.all_sectors;
	if (s->cv && r->type == RQ_ST)
		coh_values_l1_store(s, sm, ri, set, way, act & A_DIRTY, act & A_WT);
	else if (s->cv)
		coh_values_l1_load(s, sm, ri, set, way);
	trans(s, sm, r->addr, cl->coh, nx, ev);
	cl->coh = (uint8_t)nx;
	if (act & A_WT) { /* SI: update, then the store itself goes down as WT */
		up(s, sm, ri, CM_WT, r->addr);
		return 0;
	}
	l1_complete_after(s, l, ri, (uint64_t)s->cfg.l1.hit_latency);
	return 0;
}

/* A miss that found no MSHR entry or merge slot (enum ev_mshr_full): it waits
 * in the wait queue (counted once), or stalls when that is full. */
static int access_full(struct sim *s, struct sm *sm, uint32_t ri, int full_reason, bool from_wait)
{
	struct l1 *l = &sm->l1;
	struct req *r = &s->pool.r[ri];
	if (from_wait)
		return 1;
	if (l->waitq.n >= (uint32_t)s->cfg.l1.wait_queue) {
		if (!(r->flags & REQF_FULL_SEEN)) {
			r->flags |= REQF_FULL_SEEN;
			stat_inc(&s->stats, l->st.wait_full);
		}
		return 1;
	}
	L1C(s, l, mshr_full, l1_mshr_full);
	l->full_events++;
	EV_EMIT(&s->ev, EV_L1_MSHR_FULL, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp,
		.addr = r->addr, .a = full_reason);
	reqq_push(&l->waitq, s->pool.r, ri);
	sim_act_l1(s, l);
	return 0;
}

/* A miss with an MSHR entry free: a victim way (or the present copy, for an
 * upgrade) is reserved, the victim leaves, and the request (GetS, GetX, ...)
 * goes to the directory. */
static int access_miss(struct sim *s, struct sm *sm, uint32_t ri, int set, int way, unsigned nx, unsigned ev)
{
	struct l1 *l = &sm->l1;
	struct req *r = &s->pool.r[ri];
	struct cline *cl = way >= 0 ? cache_line(&l->c, set, way) : NULL;
	unsigned st = cl ? cl->coh : CS_I;
	uint64_t now = s->st->now;
	if (!l1_missq_room(s, l))
		return 1;
	int lway = way;
	if (!line_hit(cl)) {
		lway = cache_victim(&l->c, set, &s->st->rng);
		if (lway < 0) {
			if (!(r->flags & REQF_FULL_SEEN)) {
				r->flags |= REQF_FULL_SEEN;
				L1C(s, l, resv_fail, l1_resv_fail);
			}
			return 1;
		}
	}
	struct cline *v = cache_line(&l->c, set, lway);
	if (l1_pool_wait(s, 1 + (!line_hit(cl) && coh_l1_put_needed(s, v)))) /* the fetch and the victim's Put */
		return 1;
	uint32_t fi = req_alloc(&s->pool);
	if (!line_hit(cl)) {
		coh_l1_evict(s, sm, set, lway);
		v->tag = r->addr;
		v->valid = 0;
		v->reserved = 1;
		v->sv = v->sd = 0;
		v->touch = TOUCH_MISS;
		v->touch_cycle = now;
		st = CS_I;
	} else {
		v->pinned = 1; /* upgrade: the copy stays readable and must not be replaced */
	}
	cache_touch(&l->c, set, lway);
	trans(s, sm, r->addr, st, nx, ev);
	v->coh = (uint8_t)nx;
	uint32_t e = mshr_alloc(&l->m, r->addr, l->c.all_sectors, now);
	struct mshr_ent *me = &l->m.e[e];
	me->way = (int16_t)lway;
	me->set = (int16_t)set;
	me->warp = r->warp;
	me->merged = 1;
	me->sent = 1;
	reqq_push(&me->wait, s->pool.r, ri);
	struct req *f = &s->pool.r[fi];
	r = &s->pool.r[ri];
	f->type = RQ_FETCH;
	f->mask = l->c.all_sectors;
	f->warp = r->warp;
	f->mshr = e;
	f->t_issue = now;
	up(s, sm, fi, coh_request_of(nx), r->addr);
	EV_EMIT(&s->ev, EV_L1_MISS, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp, .addr = r->addr,
		.set = set);
	l1_mshr_changed(s, sm);
	return 0;
}

/* 0 = accepted (hit, merged, waiting, sent), 1 = stall (retry next cycle).
 * The protocol's L1 row for (state, load/store) decides: hit, write-through,
 * or a miss that merges, waits for an MSHR entry, or is sent. */
int coh_l1_access(struct sim *s, struct sm *sm, uint32_t ri, bool from_wait)
{
	struct l1 *l = &sm->l1;
	const struct l1_cfg *c = &s->cfg.l1;
	const struct coh_proto *p = s->coh;
	struct req *r = &s->pool.r[ri];
	uint64_t now = s->st->now;
	int set = cache_set(&l->c, r->addr);
	int way = cache_find(&l->c, set, r->addr);
	struct cline *cl = way >= 0 ? cache_line(&l->c, set, way) : NULL;
	unsigned st = cl ? cl->coh : CS_I;
	bool first = !(r->flags & REQF_COUNTED);
	if (wt_pending(l, r->addr))
		return 1; /* SI: wait for this line's write-throughs (nothing counted yet) */
	uint32_t pend = mshr_find(&l->m, r->addr, 0);
	if (r->type == RQ_ATOM)
		return access_atomic(s, sm, ri, set, way, pend);
	unsigned ev = r->type == RQ_ST ? CE_STORE : CE_LOAD;
	int row = coh_l1_lookup(p, st, ev);
	uint32_t act = row >= 0 ? p->l1[row].act : 0;
	unsigned nx = row >= 0 ? p->l1[row].next : st;
	bool hit = (act & A_HIT) && line_hit(cl);
	if ((act & A_WT) && !l1_missq_room(s, l))
		return 1; /* checked before counting: a refusal changes nothing */
	if (first) {
		r->flags |= REQF_COUNTED;
		L1C(s, l, accesses, l1_accesses);
		if (r->type == RQ_ST)
			L1C(s, l, writes, l1_writes);
		EV_EMIT(&s->ev, EV_L1_ACCESS, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp,
			.addr = r->addr, .set = set, .a = r->type == RQ_ST ? EVA_WRITE : EVA_READ);
		l1_probe_access(s, sm, r, set, hit, pend != REQ_NIL, false);
		if (hit)
			L1C(s, l, hits, l1_hits);
		else
			L1C(s, l, misses, l1_misses);
	}
	if (hit)
		return access_hit(s, sm, ri, set, way, act, nx, ev);
	if (act & A_WT) { /* SI store miss: no write-allocate, write through */
		if (s->cv)
			coh_values_l1_store(s, sm, ri, set, -1, false, true);
		up(s, sm, ri, CM_WT, r->addr);
		return 0;
	}
	if (first && cl) {
		cl->touch = TOUCH_MISS;
		cl->touch_cycle = now;
	}
	if (pend != REQ_NIL) {
		if (!mshr_can_merge(&l->m, pend, (uint32_t)s->cfg.l1.mshr_merges))
			return access_full(s, sm, ri, EVM_MERGES, from_wait);
		struct mshr_ent *me = &l->m.e[pend];
		reqq_push(&me->wait, s->pool.r, ri);
		me->merged++;
		L1C(s, l, merges, l1_merges);
		EV_EMIT(&s->ev, EV_L1_MSHR_MERGE, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp,
			.addr = r->addr, .a = me->merged);
		return 0;
	}
	if (row < 0) {
		stat_inc(&s->stats, s->coh_err_id); /* a stable state without a row for a core access */
		return 1;
	}
	if (mshr_full(&l->m, (uint32_t)s->cfg.l1.mshr_entries))
		return access_full(s, sm, ri, EVM_ENTRIES, from_wait);
	if (c->mshr_per_warp && mshr_count_warp(&l->m, r->warp) >= (uint32_t)c->mshr_per_warp)
		return access_full(s, sm, ri, EVM_PER_WARP, from_wait);
	return access_miss(s, sm, ri, set, way, nx, ev);
}

/* The grant (DataS/E/X/N) for an MSHR entry arrived. */
void coh_l1_fill(struct sim *s, struct sm *sm, uint32_t fi)
{
	struct l1 *l = &sm->l1;
	const struct coh_proto *p = s->coh;
	struct req *R = s->pool.r;
	uint64_t now = s->st->now;
	uint32_t e = R[fi].mshr;
	struct mshr_ent *me = &l->m.e[e];
	int set = me->set, way = me->way;
	struct cline *cl = cache_line(&l->c, set, way);
	unsigned st = cl->coh, m = R[fi].coh_msg;
	unsigned ev = m >= CM_DATA_S && m <= CM_DATA_N ? CE_DATA_S + (m - CM_DATA_S) : CE_DATA_S;
	int row = coh_l1_lookup(p, st, ev);
	uint32_t act = row >= 0 ? p->l1[row].act : A_FILL;
	unsigned nx = row >= 0 ? p->l1[row].next : (ev == CE_DATA_S ? (p->write_alloc ? CS_S : CS_V) : ev == CE_DATA_E ? CS_E : ev == CE_DATA_X ? CS_M : CS_N);
	if (row < 0)
		stat_inc(&s->stats, s->coh_err_id);
	bool upgrade = st == CS_SM_D || st == CS_OM_D || st == CS_SN_D;
	cl->tag = me->addr;
	cl->valid = 1;
	cl->reserved = 0;
	cl->pinned = 0;
	cl->sv = l->c.all_sectors;
	if (!upgrade)
		cl->sd = 0;
	if (s->cv) /* coh_aux: the grant carries the line */
		coh_values_l1_fill(s, sm, fi, set, way, R[fi].coh_aux, upgrade);
	cl->touch = TOUCH_FILL;
	cl->touch_cycle = now;
	cache_touch(&l->c, set, way);
	trans(s, sm, me->addr, st, nx, ev);
	cl->coh = (uint8_t)nx;
	EV_EMIT(&s->ev, EV_L1_FILL, .cycle = now, .sm = (int16_t)sm->id, .addr = me->addr, .set = set, .a = me->merged);
	bool reused = false;
	if (act & A_UNBLOCK) { /* the grant's packet goes back as the Unblock */
		R[fi].type = RQ_COH;
		R[fi].reply = RP_NONE;
		R[fi].mshr = REQ_NIL;
		up(s, sm, fi, CM_UNBLOCK, me->addr);
		reused = true;
	}
	uint32_t wi;
	while ((wi = reqq_pop(&me->wait, R)) != REQ_NIL) {
		unsigned wst = cl->coh, wev = R[wi].type == RQ_ST ? CE_STORE : CE_LOAD;
		int wr = coh_l1_lookup(p, wst, wev);
		uint32_t wa = wr >= 0 ? p->l1[wr].act : 0;
		if ((wa & A_HIT) && !(wa & A_WT)) {
			if (wa & A_DIRTY)
				cl->sd |= R[wi].mask ? R[wi].mask : l->c.all_sectors;
			if (s->cv && R[wi].type == RQ_ST)
				coh_values_l1_store(s, sm, wi, set, way, wa & A_DIRTY, false);
			else if (s->cv)
				coh_values_l1_load(s, sm, wi, set, way);
			trans(s, sm, me->addr, wst, p->l1[wr].next, wev);
			cl->coh = p->l1[wr].next;
			core_req_done(s, wi);
		} else { /* e.g. a store after a shared grant: look it up again (upgrade) */
			R[wi].t_ready = now;
			reqq_push(&l->waitq, R, wi);
			sim_act_l1(s, l);
		}
	}
	mshr_release(&l->m, e);
	if (!reused)
		req_free(&s->pool, fi);
	l1_mshr_changed(s, sm);
}

/* Inv or Recall from the directory. */
void coh_l1_msg(struct sim *s, struct sm *sm, uint32_t ri)
{
	struct l1 *l = &sm->l1;
	const struct coh_proto *p = s->coh;
	struct req *r = &s->pool.r[ri];
	uint64_t addr = r->addr;
	int set = cache_set(&l->c, addr);
	int way = cache_find(&l->c, set, addr);
	struct cline *cl = way >= 0 ? cache_line(&l->c, set, way) : NULL;
	unsigned st = cl ? cl->coh : CS_I;
	unsigned ev = r->coh_msg == CM_RECALL ? CE_RECALL : CE_INV;
	int row = coh_l1_lookup(p, st, ev);
	uint32_t act = row >= 0 ? p->l1[row].act : A_ACK;
	unsigned nx = row >= 0 ? p->l1[row].next : st;
	/* A Recall that finds no copy (I, or a new miss IS_D/IM_D/IN_D) overtook
	 * nothing: the copy's Put reached the directory first and carried the
	 * data (the tester's MI_A/II_A wait is not needed here). Ack, no data. */
	if (row < 0 && !(ev == CE_RECALL && (st == CS_I || st == CS_IS_D || st == CS_IM_D || st == CS_IN_D)))
		stat_inc(&s->stats, s->coh_err_id);
	bool reused = false;
	if ((act & A_ACK) && (p->inv_acks || ev == CE_RECALL)) {
		unsigned kept = kept_of(nx);
		bool data = line_hit(cl) && (cl->sd || kept == KEPT_O);
		r->type = RQ_COH;
		r->reply = RP_NONE;
		r->coh_aux = (uint8_t)kept;
		r->mask = l->c.all_sectors;
		if (s->cv) /* AckD: the copy's dirty words go with it */
			coh_values_l1_payload(s, sm, ri, set, data ? way : -1);
		up(s, sm, ri, data ? CM_ACKD : CM_ACK, addr);
		reused = true;
		if (cl && kept != KEPT_O) {
			cl->sd = 0; /* the data went with the ack */
			if (s->cv)
				coh_values_l1_clean(s, sm, set, way);
		}
	}
	if (cl) {
		if (act & A_FREE) {
			if (cl->valid) {
				L1C(s, l, evictions, l1_evictions);
				EV_EMIT(&s->ev, EV_L1_EVICT, .cycle = s->st->now, .sm = (int16_t)sm->id, .addr = addr,
					.set = set);
			}
			cl->valid = 0;
			cl->sv = cl->sd = 0;
			cl->pinned = 0;
			nx = CS_I;
			if (s->cv)
				coh_values_l1_clean(s, sm, set, way);
		} else if (cl->valid && (nx == CS_IM_D || nx == CS_IN_D)) {
			/* lost the copy while upgrading: wait for the data like a miss */
			cl->valid = 0;
			cl->reserved = 1;
			cl->sv = cl->sd = 0;
			if (s->cv)
				coh_values_l1_clean(s, sm, set, way);
		}
		trans(s, sm, addr, st, nx, ev);
		cl->coh = (uint8_t)nx;
	}
	if (!reused)
		req_free(&s->pool, ri);
}

/* A NACKed request leaves the retry queue: re-derive it from the line. */
void coh_l1_retry(struct sim *s, struct sm *sm, uint32_t ri)
{
	struct req *r = &s->pool.r[ri];
	if (r->type == RQ_FETCH && r->mshr != REQ_NIL) {
		const struct mshr_ent *me = &sm->l1.m.e[r->mshr];
		unsigned m = coh_request_of(cache_line(&sm->l1.c, me->set, me->way)->coh);
		if (m < CM__COUNT)
			r->coh_msg = (uint8_t)m;
	}
	coh_count(s, r->coh_msg, sm->id, (int)icnt_bank_of(s, r->addr), r->addr);
}
