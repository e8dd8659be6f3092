/*
 * l2_repl.c: the L2's conventional replacement path and its fills (FRC
 * thesis §2.1, notes 000 "Replacement is serialized", fig. 6.2). A miss that
 * takes an MSHR entry on an absent line picks a victim way, which turns
 * transient and goes through, in order:
 *
 *   1. invalidate: Inv to every L1 copy of the victim (the coherence
 *      directory, coh_dir.c, or without a protocol the sharer record,
 *      l2_sharers.c) and wait for every ack              -> l2.miss_lat.conv.inval
 *   2. evict: a dirty victim is written back; with l2.evict_order = serial
 *      (default) the step ends when memory has completed the write, with
 *      accepted when memory has taken it; with overlap likewise, but the
 *      fetch was queued right behind the write-back      -> .evict
 *   3. fetch: the line is re-tagged for the new block and the fetch waits for
 *      memory to take it                                 -> .contention
 *      and for the data                                  -> .dram
 *   4. fill: the line is stable again, the waiters are served (the fill takes
 *      l2.fill_port_cycles of the bank's lookup ports).
 *
 * While the victim keeps its old tag, requests for it are refused (NACK
 * `transient`); requests for the new block merge into the MSHR entry. On a
 * sectored L2 a request that merges needing sectors the entry is not fetching
 * sends a fetch for them at once (or widens the fetch not yet sent), so a
 * line is never fetched in serial rounds; the fill waits for every fetch of
 * the entry (mshr_ent.sent counts them).
 *
 * Request slots: every memory request a miss will need is reserved when the
 * miss is admitted (b->mres: [2e] the write-back, [2e+1] the fetch), and the
 * invalidations' room is checked then, so no later step can find the pool
 * empty; a miss that finds too little room is refused (NACK `pool_full`).
 */
#include "coh_eng.h"
#include "frc.h"
#include "l2_int.h"
#include "l2_sharers.h"

static uint32_t take_slot(uint32_t *slot)
{
	uint32_t mi = *slot;
	*slot = REQ_NIL;
	return mi;
}

static void free_slot(struct sim *s, uint32_t *slot)
{
	if (*slot != REQ_NIL)
		req_free(&s->pool, take_slot(slot));
}

void l2_writeback_slot(struct sim *s, struct l2bank *b, struct cline *cl, int set, uint32_t mshr, uint32_t wi)
{
	B_INC(s, b, writebacks, l2_writebacks);
	if (s->cv)
		coh_values_l2_writeback(s, b, cl); /* the dirty words reach memory */
	EV_EMIT(&s->ev, EV_L2_WRITEBACK, .cycle = s->st->now, .unit = (int16_t)b->id, .addr = cl->tag,
	        .set = set);
	uint32_t mask = cl->sd ? cl->sd : b->c.all_sectors;
	if (wi == REQ_NIL)
		l2_mem_req(s, b, RQ_WB, cl->tag, mask, mshr);
	else
		l2_mem_send(s, b, wi, RQ_WB, cl->tag, mask, mshr);
}

/* Entry e waits for stores only, which lazy allocation (l2.write_fetch)
 * installs without the block's data. */
static bool stores_only(const struct sim *s, const struct l2bank *b, uint32_t e)
{
	if (s->coh || s->cv || s->cfg.l2.write_fetch == L2W_FETCH_ON_WRITE)
		return false;
	const struct mshr_ent *me = &b->m.e[e];
	for (uint32_t wi = me->wait.head; wi != REQ_NIL; wi = s->pool.r[wi].next)
		if (s->pool.r[wi].type != RQ_ST && s->pool.r[wi].type != RQ_WB)
			return false;
	return true;
}

/* The victim is gone and only stores wait: install the line with their
 * sectors, as a lazy store miss with a free victim does (l2.c), instead of
 * fetching a block nobody reads. */
static void install_for_stores(struct sim *s, struct l2bank *b, uint32_t e)
{
	struct mshr_ent *me = &b->m.e[e];
	struct cline *cl = cache_line(&b->c, me->set, me->way);
	uint64_t now = s->st->now;
	cache_install(&b->c, me->set, me->way, me->addr);
	cl->fetching = 0;
	cl->touch = TOUCH_MISS;
	cl->touch_cycle = now;
	b->mlat[3 * e + 1] = now;
	free_slot(s, &b->mres[2 * e]);
	free_slot(s, &b->mres[2 * e + 1]);
	stat_inc(&s->stats, s->id.l2_store_installs);
	uint32_t wi;
	while ((wi = reqq_pop(&me->wait, s->pool.r)) != REQ_NIL) {
		l2_apply_write(cl, s->pool.r[wi].mask);
		l2_reply(s, b, wi, RP_ACK, (uint64_t)s->cfg.l2.hit_latency);
	}
	mshr_release(&b->m, e);
	l2_mshr_changed(s, b);
	sim_progress(s);
}

/* The victim is gone: re-tag the line for the block and send the fetch. */
static void fetch(struct sim *s, struct l2bank *b, uint32_t e)
{
	if (stores_only(s, b, e)) {
		install_for_stores(s, b, e);
		return;
	}
	struct mshr_ent *me = &b->m.e[e];
	struct cline *cl = cache_line(&b->c, me->set, me->way);
	cl->tag = me->addr;
	cl->valid = 0;
	cl->reserved = 1;
	cl->sv = cl->sd = 0;
	me->state = ME_FETCHING;
	b->mlat[3 * e + 1] = s->st->now; /* the eviction is over */
	free_slot(s, &b->mres[2 * e]);
	l2_mem_send(s, b, take_slot(&b->mres[2 * e + 1]), RQ_FETCH, me->addr, me->mask, e);
}

void l2_evict_step(struct sim *s, struct l2bank *b, uint32_t e)
{
	struct mshr_ent *me = &b->m.e[e];
	struct cline *cl = cache_line(&b->c, me->set, me->way);
	if (!(cl->valid && cl->sd)) {
		fetch(s, b, e);
		return;
	}
	/* Evict first: the line keeps the old tag until the write-back is done. */
	me->state = ME_EVICTING;
	me->victim = cl->tag;
	l2_writeback_slot(s, b, cl, me->set, e, take_slot(&b->mres[2 * e]));
	if (s->cfg.l2.evict_order == L2EV_OVERLAP) /* the fetch queues right behind it */
		l2_mem_send(s, b, take_slot(&b->mres[2 * e + 1]), RQ_FETCH, me->addr, me->mask, e);
}

void l2_wb_handed(struct sim *s, struct l2bank *b, uint32_t mi)
{
	if (s->cfg.l2.evict_order == L2EV_ACCEPTED) {
		fetch(s, b, s->pool.r[mi].mshr);
		return;
	}
	if (s->cfg.l2.evict_order != L2EV_OVERLAP)
		return; /* serial: the eviction ends when the write completes */
	struct mshr_ent *me = &b->m.e[s->pool.r[mi].mshr];
	struct cline *cl = cache_line(&b->c, me->set, me->way);
	cl->tag = me->addr;
	cl->valid = 0;
	cl->reserved = 1;
	cl->sv = cl->sd = 0;
	me->state = ME_FETCHING;
	b->mlat[3 * s->pool.r[mi].mshr + 1] = s->st->now;
}

void l2_wb_done(struct sim *s, struct l2bank *b, uint32_t mi)
{
	uint32_t e = s->pool.r[mi].mshr;
	req_free(&s->pool, mi);
	if (s->cfg.l2.evict_order == L2EV_SERIAL)
		fetch(s, b, e);
}

/* Room in the request pool for a miss: n memory requests plus one
 * invalidation round. */
static bool miss_room(struct sim *s, struct l2bank *b, uint32_t ri, uint32_t n)
{
	uint32_t inv = s->coh ? (uint32_t)s->cfg.core.sms : l2sh_room_needed(s);
	if (l2_pool_room(s, n + inv))
		return true;
	stat_inc(&s->stats, s->id.l2_pool_nacks);
	l2_nack(s, b, ri, NACK_POOL_FULL);
	return false;
}

/* A request merges into pending entry e: on a sectored line, fetch the
 * sectors it needs that the entry is not fetching (no serial rounds). */
static void widen(struct sim *s, struct l2bank *b, uint32_t e, uint32_t mask)
{
	struct mshr_ent *me = &b->m.e[e];
	uint32_t extra = mask & ~me->mask;
	if (!extra || me->way < 0)
		return;
	struct cline *cl = cache_line(&b->c, me->set, me->way);
	if (cl->valid && cl->tag == me->addr)
		extra &= ~cl->sv; /* a present line's valid sectors need no fetch */
	if (me->state == ME_EVICTING && b->mres[2 * e + 1] != REQ_NIL) {
		me->mask |= extra; /* the fetch has not left: it takes them too */
		return;
	}
	if (!extra || me->sent >= 32 || !l2_pool_room(s, 1) || !l2_memq_room(s, b, 1))
		return; /* looked up again after the fill (fill()) */
	me->mask |= extra;
	me->sent++;
	stat_inc(&s->stats, s->id.l2_sector_widen);
	l2_mem_req(s, b, RQ_FETCH, me->addr, extra, e);
}

void l2_miss_path(struct sim *s, struct l2bank *b, uint32_t ri, int set, int way)
{
	struct req *r = &s->pool.r[ri];
	uint64_t now = s->st->now;
	/* Any pending entry for the line takes the request. */
	uint32_t e = mshr_find(&b->m, r->addr, 0);
	if (e != REQ_NIL) {
		if (!mshr_can_merge(&b->m, e, (uint32_t)s->cfg.l2.mshr_merges)) {
			l2_nack(s, b, ri, NACK_MERGE_FULL);
			return;
		}
		struct mshr_ent *me = &b->m.e[e];
		reqq_push(&me->wait, s->pool.r, ri);
		me->merged++;
		B_INC(s, b, merges, l2_merges);
		widen(s, b, e, r->mask);
		return;
	}
	bool present =
	    way >= 0 && cache_line(&b->c, set, way)->valid && !cache_line(&b->c, set, way)->transient;
	/* The FRC (when configured) takes misses on absent lines first. */
	if (!present && frc_access(s, b, ri, set))
		return;
	if (l2_mshr_in_use(s, b) >= (uint32_t)s->cfg.l2.mshr_entries) {
		l2_nack(s, b, ri, NACK_MSHR_FULL);
		return;
	}
	if (b->memq.n + 2 > l2_memq_cap(s)) {
		l2_nack(s, b, ri, NACK_QUEUE_FULL);
		return;
	}
	if (!miss_room(s, b, ri, 2))
		return;
	struct cline *cl = NULL;
	uint32_t fetch_mask = r->mask;
	if (present) {
		/* Sector miss on a present line: fetch the missing sectors only. The
		 * line must not be chosen as a victim meanwhile: the fill would
		 * re-tag it under whatever replaced it. */
		cl = cache_line(&b->c, set, way);
		cl->fetching = 1;
		fetch_mask = r->mask & ~cl->sv;
		if (!fetch_mask)
			fetch_mask = r->mask;
	} else {
		way = cache_victim(&b->c, set, &s->st->rng);
		if (way < 0) {
			B_INC(s, b, set_all_transient, l2_set_all_transient);
			EV_EMIT(&s->ev, EV_L2_SET_ALL_TRANSIENT, .cycle = now, .unit = (int16_t)b->id,
			        .addr = r->addr, .set = set);
			l2_nack(s, b, ri, NACK_SET_ALL_TRANSIENT);
			return;
		}
		cl = cache_line(&b->c, set, way);
	}
	e = mshr_alloc(&b->m, r->addr, r->mask, now);
	struct mshr_ent *me = &b->m.e[e];
	b->mlat[3 * e] = b->mlat[3 * e + 1] = b->mlat[3 * e + 2] = now;
	b->inv_acks[e] = 0;
	me->set = (int16_t)set;
	me->way = (int16_t)way;
	me->merged = 1;
	me->sent = 1;
	me->sm = r->sm;
	me->mask = fetch_mask | r->mask;
	reqq_push(&me->wait, s->pool.r, ri);
	b->mres[2 * e] = req_alloc(&s->pool);
	b->mres[2 * e + 1] = req_alloc(&s->pool); /* miss_room() made room for both */
	if (!(cl->valid && cl->tag == r->addr)) {
		cl->transient = 1;
		EV_EMIT(&s->ev, EV_L2_TRANSIENT, .cycle = now, .unit = (int16_t)b->id,
		        .addr = cl->valid ? cl->tag : r->addr, .set = set, .a = way);
		cache_touch(&b->c, set, way);
		me->state = ME_EVICTING;
		me->victim = cl->tag;
		if (s->coh && cl->valid && coh_l2_start_evict(s, b, set, way, e)) {
			/* Invalidate the L1 copies first; the eviction and the fetch
			 * follow the last ack (coh_dir.c). */
			l2_mshr_changed(s, b);
			return;
		}
		if (s->coh)
			coh_l2_reset(b, set, way);
		/* The same without a protocol (l2_sharers.c: l2sh_ack). */
		b->inv_acks[e] = cl->valid ? (uint16_t)l2sh_inval_line(s, b, set, way) : 0;
		if (b->inv_acks[e]) {
			l2_mshr_changed(s, b);
			return;
		}
		l2sh_clear(s, b, set, way);
		l2_evict_step(s, b, e);
	} else {
		me->state = ME_FETCHING;
		free_slot(s, &b->mres[2 * e]);
		l2_mem_send(s, b, take_slot(&b->mres[2 * e + 1]), RQ_FETCH, r->addr, fetch_mask, e);
	}
	l2_mshr_changed(s, b);
}

/* slc read miss on an absent line (no FRC): fetch the requested sectors into
 * an MSHR entry with no line (way -1). No victim, nothing turns transient;
 * the fill answers the waiters and the line stays unallocated. */
void l2_slc_stream(struct sim *s, struct l2bank *b, uint32_t ri, int set)
{
	struct req *r = &s->pool.r[ri];
	uint64_t now = s->st->now;
	if (l2_mshr_in_use(s, b) >= (uint32_t)s->cfg.l2.mshr_entries) {
		l2_nack(s, b, ri, NACK_MSHR_FULL);
		return;
	}
	if (b->memq.n + 1 > l2_memq_cap(s)) {
		l2_nack(s, b, ri, NACK_QUEUE_FULL);
		return;
	}
	if (!miss_room(s, b, ri, 1))
		return;
	uint32_t e = mshr_alloc(&b->m, r->addr, r->mask, now);
	struct mshr_ent *me = &b->m.e[e];
	b->mlat[3 * e] = b->mlat[3 * e + 1] = b->mlat[3 * e + 2] = now;
	b->inv_acks[e] = 0;
	me->set = (int16_t)set;
	me->way = -1;
	me->merged = 1;
	me->sent = 1;
	me->sm = r->sm;
	me->mask = r->mask;
	me->state = ME_FETCHING;
	reqq_push(&me->wait, s->pool.r, ri);
	stat_inc(&s->stats, s->id.l2_slc_streamed);
	l2_mem_req(s, b, RQ_FETCH, r->addr, r->mask, e);
	l2_mshr_changed(s, b);
}

/* The fill of a streamed (slc) fetch: plain reads covered by the fetched
 * sectors get the data; anything else that merged (stores, atomics,
 * coherence requests, other sectors) is looked up again and takes the
 * ordinary path. */
static void slc_fill(struct sim *s, struct l2bank *b, uint32_t mi)
{
	struct req *m = &s->pool.r[mi];
	struct mshr_ent *me = &b->m.e[m->mshr];
	uint64_t now = s->st->now;
	const uint64_t *ml = &b->mlat[3 * m->mshr];
	l2_miss_lat(s, 0, me->t_alloc, ml[0], ml[1], ml[2]);
	uint32_t wi;
	while ((wi = reqq_pop(&me->wait, s->pool.r)) != REQ_NIL) {
		struct req *w = &s->pool.r[wi];
		if ((w->type == RQ_LD || w->type == RQ_FETCH) && !(w->flags & REQF_COH) &&
		    !(w->mask & ~me->mask)) {
			l2_reply(s, b, wi, RP_DATA, l2_fill_delay(s));
		} else {
			w->t_ready = now;
			reqq_push_front(&b->inq, s->pool.r, wi);
			sim_act_l2(s, b);
			icnt_req_credit(s, b, 1);
		}
	}
	mshr_release(&b->m, m->mshr);
	req_free(&s->pool, mi);
	l2_mshr_changed(s, b);
	sim_progress(s);
}

void l2_fill(struct sim *s, struct l2bank *b, uint32_t mi)
{
	struct req *m = &s->pool.r[mi];
	struct mshr_ent *me = &b->m.e[m->mshr];
	uint64_t now = s->st->now;
	if (me->sent > 1) { /* more sectors of the line are still on their way */
		me->sent--;
		req_free(&s->pool, mi);
		sim_progress(s);
		return;
	}
	if (me->way < 0) {
		slc_fill(s, b, mi);
		return;
	}
	struct cline *cl = cache_line(&b->c, me->set, me->way);
	cl->tag = me->addr;
	cl->valid = 1;
	cl->reserved = 0;
	cl->transient = 0;
	cl->fetching = 0;
	cl->sv |= me->mask;
	cl->touch = TOUCH_FILL;
	cl->touch_cycle = now;
	B_INC(s, b, fills, l2_fills);
	l2_port_take(s, b, (uint64_t)s->cfg.l2.fill_port_cycles, s->id.l2_port_fill);
	if (s->cv)
		coh_values_l2_fill(s, b, me->set, me->way); /* words not written here come from memory */
	const uint64_t *ml = &b->mlat[3 * m->mshr];
	l2_miss_lat(s, 0, me->t_alloc, ml[0], ml[1], ml[2]);
	EV_EMIT(&s->ev, EV_L2_FILL, .cycle = now, .unit = (int16_t)b->id, .addr = me->addr, .set = me->set);
	uint32_t wi;
	while ((wi = reqq_pop(&me->wait, s->pool.r)) != REQ_NIL) {
		struct req *w = &s->pool.r[wi];
		if (s->coh && (w->type == RQ_FETCH || w->type == RQ_ATOM) &&
		    ((w->flags & REQF_COH) || w->type == RQ_ATOM) && !(w->mask & ~cl->sv)) {
			coh_l2_request(s, b, wi, me->set, me->way); /* the directory answers */
		} else if (w->type == RQ_ST || w->type == RQ_WB) {
			l2_apply_write(cl, w->mask);
			if (s->cv)
				coh_values_l2_merge(s, b, wi, me->set, me->way, true);
			l2_reply(s, b, wi, RP_ACK, l2_fill_delay(s));
		} else if (w->mask & ~cl->sv) {
			/* Merged while the fetch for other sectors was out and no
			 * widening fetch could be sent (widen()): look up again. */
			w->t_ready = now;
			reqq_push_front(&b->inq, s->pool.r, wi);
			sim_act_l2(s, b);
			icnt_req_credit(s, b, 1);
		} else {
			if (w->type == RQ_ATOM)
				l2_apply_write(cl, w->mask);
			l2_reply(s, b, wi, RP_DATA, l2_fill_delay(s));
		}
	}
	mshr_release(&b->m, m->mshr);
	req_free(&s->pool, mi);
	l2_mshr_changed(s, b);
	sim_progress(s);
}
