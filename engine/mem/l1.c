/*
 * l1.c: the L1 data cache of one SM, with its MSHR file, wait queue, miss
 * queue and retry queue (FRC thesis §1.5; Volta memory paper §3.2-3.3).
 *
 * Per cycle (numbered in l1_tick):
 *   1. hits whose latency elapsed complete at the warp
 *   2. replies that arrived through the crossbar: fills release their MSHR
 *      entry and complete every merged request; NACKs go to the retry queue
 *   3. NACKed requests whose retry delay elapsed are re-sent (miss queue)
 *   4. up to l1.ports lookups: first the MSHR wait queue (FIFO), then new
 *      requests from the coalescer
 *
 * Loads: hit -> reply after hit_latency. Miss -> merge into the MSHR entry
 * for the line (secondary miss, nothing sent) or allocate one and send a
 * fetch. No entry, no merge slot, or the per-warp limit -> the request waits
 * in the wait queue; wait queue full -> the coalescer queue stalls.
 * Allocate-on-miss (default) reserves the victim line at miss time; when every
 * way of the set is reserved the access fails (reservation fail) and retries.
 * The streaming L1 allocates on fill instead.
 *
 * Stores: write_evict invalidates a hit line, write_through updates it; both
 * forward the store to the L2 and complete on its acknowledgement. write_back
 * writes hits locally and fetches the line on a miss (write-allocate);
 * evicted dirty lines are written back. Atomics always go to the L2.
 *
 * Bypassing (l1.bypass): `all` sends every load to the L2 as itself (no
 * line, no MSHR; the reply completes the warp request directly); `locality`
 * asks the decoupled tag store (bypass.c) whether a load bypasses, takes the
 * plain path or allocates a data line, and applies its side effects only
 * when the lookup is accepted; `mrpb` sends a load down the same way only
 * when it would otherwise wait for an MSHR or a reservable line.
 */
#include <stdio.h>

#include "coh_eng.h"
#include "l2_sharers.h"
#include "mem_probe.h"
#include "sim/sim_int.h"

void occ_hist_set(struct occ_hist *h, uint64_t now, uint16_t v)
{
	if (now > h->last_cycle) {
		uint64_t gap = now - h->last_cycle;
		if (gap > MSHR_HIST)
			gap = MSHR_HIST;
		for (uint64_t k = 1; k < gap; k++)
			h->v[(h->last_cycle + k) % MSHR_HIST] = h->cur;
		h->last_cycle = now;
	}
	h->v[now % MSHR_HIST] = v;
	h->cur = v;
}

static uint32_t l1_stat(struct sim *s, int sm, const char *what, const char *desc)
{
	char name[64];
	snprintf(name, sizeof name, "sm%d.l1.%s", sm, what);
	return stats_counter(&s->stats, name, desc);
}

void l1_init(struct sim *s, struct sm *sm)
{
	const struct l1_cfg *c = &s->cfg.l1;
	struct l1 *l = &sm->l1;
	cache_init(&l->c, &s->arena, c->sets, c->ways, c->line, c->sector, c->repl, c->index);
	mshr_init(&l->m, &s->arena, l1_mshr_cap(&s->cfg));
	reqq_init(&l->lsu);
	reqq_init(&l->hitq);
	reqq_init(&l->waitq);
	reqq_init(&l->missq);
	reqq_init(&l->fillq);
	reqq_init(&l->retryq);
	reqq_init(&l->ackq);
	l->wait_refused = l->lsu_refused = l->wait_mq_refused = l->lsu_mq_refused = REQ_NIL;
	int i = sm->id;
	l->st.accesses = l1_stat(s, i, "accesses", "L1 lookups (each coalesced request counts once)");
	l->st.hits = l1_stat(s, i, "hits", "L1 lookups that hit");
	l->st.misses = l1_stat(s, i, "misses", "L1 lookups that missed (merged secondary misses included)");
	l->st.merges = l1_stat(s, i, "mshr_merges", "misses merged into a pending MSHR entry");
	l->st.mshr_full = l1_stat(s, i, "mshr_full", "misses that found no MSHR entry or merge slot, and warps held at issue by a full MSHR file (once per stall)");
	l->st.resv_fail = l1_stat(s, i, "reservation_fails", "misses that found every way of the set reserved");
	l->st.wait_full = l1_stat(s, i, "wait_queue_full", "cycles the coalescer queue stalled on a full wait queue");
	l->st.writes = l1_stat(s, i, "writes", "store requests");
	l->st.atomics = l1_stat(s, i, "atomics", "atomic requests (always sent to the L2)");
	l->st.retries = l1_stat(s, i, "retries", "requests re-sent after an L2 NACK");
	l->st.nacks = l1_stat(s, i, "nacks", "NACKs received from the L2");
	l->st.evictions = l1_stat(s, i, "evictions", "valid lines evicted or invalidated");
	l->st.writebacks = l1_stat(s, i, "writebacks", "dirty lines written back (write_back policy)");
	l->st.bypasses_cop = l1_stat(s, i, "bypasses_cop", "loads that skipped the L1 for their cache operator (glc/slc)");
	char name[64];
	snprintf(name, sizeof name, "sm%d.l1.mshr.occupancy", i);
	l->st.mshr_occ = stats_occupancy(&s->stats, name, "L1 MSHR entries in use", l1_mshr_cap(&s->cfg));
	byp_init(s, sm);
}

/* Count in the per-SM and the aggregate counter. */
#define L1_INC(s, l, field, agg)                                                                           \
	do {                                                                                               \
		stat_inc(&(s)->stats, (l)->st.field);                                                     \
		stat_inc(&(s)->stats, (s)->id.agg);                                                       \
	} while (0)

/* Refused lookups: a request refused for want of an MSHR entry or merge
 * slot (a wait-queue request), or for a full wait queue (a coalescer-queue
 * request, already counted), would be refused again, with no side effect,
 * until an MSHR entry is allocated or released (a fill included) or the L1
 * accepts some lookup (which may fill a sector by writing through, merge, or
 * take a wait-queue slot). So l1_tick does not retry it until one of these
 * happens. Only on the plain path (no coherence protocol, no locality
 * bypass), whose other refusals (victim, request pool) are retried as
 * before; a refusal for a full miss queue is not retried while it stays
 * full (refused_now, by l1_tick). Not with locality bypassing, whose dueling may
 * switch a set to probing the decoupled tags meanwhile. */
static void refused_clear(struct l1 *l)
{
	l->wait_refused = l->lsu_refused = REQ_NIL;
	l->wait_mq_refused = l->lsu_mq_refused = REQ_NIL;
}

static void mshr_changed(struct sim *s, struct sm *sm)
{
	struct l1 *l = &sm->l1;
	refused_clear(l);
	sm_wake(sm); /* a stall reason may change between mem and mshr_full */
	stat_occ_set(&s->stats, l->st.mshr_occ, l->m.used);
	occ_hist_set(&l->hist, s->st->now, (uint16_t)l->m.used);
}

static bool missq_room(const struct sim *s, const struct l1 *l)
{
	return l->missq.n < (uint32_t)s->cfg.l1.miss_queue;
}

/* To the crossbar: an invalidation Ack on its own channel (icnt.c), the
 * rest through the miss queue; every request enters them here. */
static void send_down(struct sim *s, struct l1 *l, uint32_t ri)
{
	s->pool.r[ri].t_ready = s->st->now;
	/* Its L2 bank, once: the crossbar reads it at every cycle the head
	 * waits for that bank's credit (icnt.c head_has_credit). */
	s->pool.r[ri].bank = (uint16_t)icnt_bank_of(s, s->pool.r[ri].addr);
	reqq_push(icnt_on_ack_channel(s, &s->pool.r[ri]) ? &l->ackq : &l->missq, s->pool.r, ri);
	sim_act_l1(s, l);
}

/* For the coherence controller (coh_l1.c). */
bool l1_missq_room(const struct sim *s, const struct l1 *l) { return missq_room(s, l); }
void l1_send_down(struct sim *s, struct l1 *l, uint32_t ri) { send_down(s, l, ri); }
void l1_mshr_changed(struct sim *s, struct sm *sm) { mshr_changed(s, sm); }

/* tags_done: the caller already updated the bypass tag store. */
static void evict_line(struct sim *s, struct sm *sm, int set, int way, bool tags_done)
{
	struct l1 *l = &sm->l1;
	struct cline *cl = cache_line(&l->c, set, way);
	if (!cl->valid)
		return;
	if (!tags_done && byp_set_decoupled(s, sm, set))
		byp_line_gone(s, sm, set, cl->tag);
	L1_INC(s, l, evictions, l1_evictions);
	EV_EMIT(&s->ev, EV_L1_EVICT, .cycle = s->st->now, .sm = (int16_t)sm->id, .addr = cl->tag, .set = set);
	if (cl->sd) {
		/* Every caller made room: an access waits (l1_pool_wait), a fill
		 * returned its own slot first. */
		uint32_t wi = req_alloc(&s->pool);
		if (wi == REQ_NIL)
			l2_pool_exhausted(s, "an L1 write-back");
		struct req *w = &s->pool.r[wi];
		w->type = RQ_WB;
		w->addr = cl->tag;
		w->mask = cl->sd;
		w->sm = (uint16_t)sm->id;
		send_down(s, l, wi);
		L1_INC(s, l, writebacks, l1_writebacks);
	}
	cl->valid = 0;
	cl->sv = cl->sd = 0;
}

static void complete_after(struct sim *s, struct l1 *l, uint32_t ri, uint64_t lat)
{
	s->pool.r[ri].t_ready = s->st->now + lat;
	reqq_insert_timed(&l->hitq, s->pool.r, ri);
	sim_act_l1(s, l);
}

void l1_complete_after(struct sim *s, struct l1 *l, uint32_t ri, uint64_t lat) { complete_after(s, l, ri, lat); }

/* An access that needs `need` request slots (its fetch, its victim's
 * write-back or Put) and finds fewer free waits and retries (stat
 * l1.pool_waits): a write-back is never dropped. */
bool l1_pool_wait(struct sim *s, uint32_t need)
{
	if (l2_pool_room(s, need))
		return false;
	stat_inc(&s->stats, s->id.l1_pool_waits);
	return true;
}

/* ACC_STALL_MQ: refused for a full miss queue alone, before any side
 * effect (l1_tick "Refused lookups"). */
enum { ACC_DONE, ACC_STALL, ACC_STALL_MQ };

/* l1.bypass = mrpb (notes 004, the MRPB comparison mode): a load that would
 * wait for an MSHR entry, a merge slot or a reservable line goes to the L2 as
 * itself instead, like a bypass-all load (no MSHR, no line; its reply
 * completes the warp request). The request was already counted as an access
 * and a miss. With the miss queue full it stalls like any other miss. */
static int mrpb_bypass(struct sim *s, struct sm *sm, uint32_t ri, int set, int reason)
{
	struct l1 *l = &sm->l1;
	struct req *r = &s->pool.r[ri];
	if (!missq_room(s, l))
		return ACC_STALL_MQ;
	byp_count_resfail(s, sm, set, r->addr, r->warp, reason);
	send_down(s, l, ri);
	return ACC_DONE;
}

/* The accounting of a request's first lookup (a request that waited is
 * looked up again but counted once): counters, the access event and the
 * observers, which see the same hit test as the lookup (hit) and whether
 * an MSHR entry already fetches the sectors (inflight). */
static void first_lookup(struct sim *s, struct sm *sm, struct req *r, int set, bool hit, bool inflight)
{
	struct l1 *l = &sm->l1;
	r->flags |= REQF_COUNTED;
	L1_INC(s, l, accesses, l1_accesses);
	if (r->type == RQ_ST)
		L1_INC(s, l, writes, l1_writes);
	EV_EMIT(&s->ev, EV_L1_ACCESS, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp,
		.addr = r->addr, .set = set, .a = r->type == RQ_ST ? EVA_WRITE : EVA_READ);
	l1_probe_access(s, sm, r, set, hit, inflight, false);
	if (r->type == RQ_LD) /* dueling: bypasses and MSHR-allocating misses count as misses */
		byp_duel_count(s, sm, set, !hit && !inflight);
}

/* The line holds every sector asked for: reply after the hit latency. */
static int read_hit(struct sim *s, struct sm *sm, uint32_t ri, int set, int way, bool first, bool dec)
{
	struct l1 *l = &sm->l1;
	struct req *r = &s->pool.r[ri];
	struct cline *cl = cache_line(&l->c, set, way);
	uint64_t now = s->st->now;
	if (first)
		L1_INC(s, l, hits, l1_hits);
	EV_EMIT(&s->ev, EV_L1_HIT, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp, .addr = r->addr,
		.set = set);
	cache_touch(&l->c, set, way);
	cl->touch = TOUCH_HIT;
	cl->touch_cycle = now;
	if (r->type == RQ_ST)
		cl->sd |= r->mask;
	uint64_t lat = (uint64_t)s->cfg.l1.hit_latency;
	if (dec) {
		byp_apply_committed(s, sm, set, r->addr, first);
		lat += (uint64_t)s->cfg.l1.bypass_tag_cycles;
	}
	complete_after(s, l, ri, lat);
	return ACC_DONE;
}

/* A miss that found no MSHR entry, no merge slot, or the warp at its
 * per-warp limit (full_reason 0, 1, 2 as in the l1.mshr_full event): a new
 * request waits in the wait queue, one already from it stays at its head. */
static int read_mshr_full(struct sim *s, struct sm *sm, uint32_t ri, bool from_wait, int full_reason)
{
	struct l1 *l = &sm->l1;
	struct req *r = &s->pool.r[ri];
	/* Locality bypassing may turn the set to probing (dueling) meanwhile. */
	bool remember = s->cfg.l1.bypass != L1B_LOCALITY;
	if (from_wait) {
		if (remember)
			l->wait_refused = ri;
		return ACC_STALL;
	}
	if (l->waitq.n >= (uint32_t)s->cfg.l1.wait_queue) {
		if (!(r->flags & REQF_FULL_SEEN)) {
			r->flags |= REQF_FULL_SEEN;
			stat_inc(&s->stats, l->st.wait_full);
		}
		if (remember)
			l->lsu_refused = ri;
		return ACC_STALL;
	}
	L1_INC(s, l, mshr_full, l1_mshr_full);
	l->full_events++;
	EV_EMIT(&s->ev, EV_L1_MSHR_FULL, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp,
		.addr = r->addr, .a = full_reason);
	reqq_push(&l->waitq, s->pool.r, ri);
	sim_act_l1(s, l);
	return ACC_DONE;
}

/* A primary miss with an MSHR entry free: reserve the line (allocate on
 * miss; a sector miss keeps its present line), allocate the entry and send
 * the fetch. lway = -1 with a streaming L1 (allocate on fill). */
static int read_allocate(struct sim *s, struct sm *sm, uint32_t ri, int set, int way, bool mrpb,
			 const struct byp_probe *bp)
{
	struct l1 *l = &sm->l1;
	struct req *r = &s->pool.r[ri];
	uint64_t now = s->st->now;
	int lway = -1;
	if (!s->cfg.l1.streaming) {
		if (way >= 0) {
			lway = way; /* sector miss on a present line: not a victim until the fill */
			cache_line(&l->c, set, way)->fetching = 1;
		} else {
			lway = cache_victim(&l->c, set, &s->st->rng);
			if (lway < 0 && mrpb)
				return mrpb_bypass(s, sm, ri, set, BYPR_RESERVED);
			if (lway < 0) {
				if (!(r->flags & REQF_FULL_SEEN)) {
					r->flags |= REQF_FULL_SEEN;
					L1_INC(s, l, resv_fail, l1_resv_fail);
				}
				return ACC_STALL;
			}
			if (bp->kind == BYPK_ALLOC)
				byp_apply_alloc(s, sm, set, r->addr, bp, lway);
			l1_probe_line(s, PP_L1_EVICT, sm, set, lway, -1);
			evict_line(s, sm, set, lway, bp->kind == BYPK_ALLOC);
			struct cline *v = cache_line(&l->c, set, lway);
			v->tag = r->addr;
			v->valid = 0;
			v->reserved = 1;
			v->sv = v->sd = 0;
			v->touch = TOUCH_MISS;
			v->touch_cycle = now;
			cache_touch(&l->c, set, lway);
		}
	}
	uint32_t fi = req_alloc(&s->pool);
	if (fi == REQ_NIL)
		return ACC_STALL;
	uint32_t e = mshr_alloc(&l->m, r->addr, r->mask, now);
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
	f->addr = r->addr;
	f->mask = r->mask;
	f->sm = (uint16_t)sm->id;
	f->warp = r->warp;
	f->mshr = e;
	f->t_issue = now;
	send_down(s, l, fi);
	EV_EMIT(&s->ev, EV_L1_MISS, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp, .addr = r->addr,
		.set = set);
	mshr_changed(s, sm);
	return ACC_DONE;
}

/* Read (or write-allocate store) lookup: hit, bypass (locality), merge into
 * an MSHR entry, wait for one, or allocate one. */
static int access_read(struct sim *s, struct sm *sm, uint32_t ri, bool from_wait)
{
	struct l1 *l = &sm->l1;
	struct req *r = &s->pool.r[ri];
	const struct l1_cfg *c = &s->cfg.l1;
	uint64_t now = s->st->now;
	int set = cache_set(&l->c, r->addr);
	int way = cache_find(&l->c, set, r->addr);
	struct cline *cl = way >= 0 ? cache_line(&l->c, set, way) : NULL;
	bool hit = cl && cl->valid && !cl->reserved && (cl->sv & r->mask) == r->mask;
	bool first = !(r->flags & REQF_COUNTED);
	bool dec = r->type == RQ_LD && byp_set_decoupled(s, sm, set);
	/* The MSHR entry already fetching these sectors (nothing below changes
	 * the MSHR file before it is used). */
	uint32_t e = first || !hit ? mshr_find(&l->m, r->addr, r->mask) : REQ_NIL;
	if (first)
		first_lookup(s, sm, r, set, hit, e != REQ_NIL);
	if (hit) /* a request that waited for an MSHR may find its line filled meanwhile */
		return read_hit(s, sm, ri, set, way, first, dec);
	if (first) {
		L1_INC(s, l, misses, l1_misses);
		if (cl) {
			cl->touch = TOUCH_MISS;
			cl->touch_cycle = now;
		}
	}
	struct byp_probe bp = {.kind = BYPK_PLAIN, .way = -1};
	if (dec) {
		byp_probe(s, sm, set, r->addr, &bp);
		if (bp.kind == BYPK_BYPASS) {
			if (!missq_room(s, l))
				return ACC_STALL;
			byp_apply_bypass(s, sm, set, r->addr, r->warp, &bp);
			send_down(s, l, ri);
			return ACC_DONE;
		}
	}
	if (e != REQ_NIL && mshr_can_merge(&l->m, e, (uint32_t)c->mshr_merges)) {
		if (dec)
			byp_apply_committed(s, sm, set, r->addr, false);
		struct mshr_ent *me = &l->m.e[e];
		reqq_push(&me->wait, s->pool.r, ri);
		me->merged++;
		L1_INC(s, l, merges, l1_merges);
		EV_EMIT(&s->ev, EV_L1_MSHR_MERGE, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp,
			.addr = r->addr, .a = me->merged);
		return ACC_DONE;
	}
	int full_reason = -1; /* enum ev_mshr_full */
	if (e != REQ_NIL)
		full_reason = EVM_MERGES;
	else if (mshr_full(&l->m, (uint32_t)c->mshr_entries))
		full_reason = EVM_ENTRIES;
	else if (c->mshr_per_warp && mshr_count_warp(&l->m, r->warp) >= (uint32_t)c->mshr_per_warp)
		full_reason = EVM_PER_WARP;
	bool mrpb = c->bypass == L1B_MRPB && r->type == RQ_LD;
	if (full_reason >= 0 && mrpb && !from_wait)
		return mrpb_bypass(s, sm, ri, set, full_reason);
	if (full_reason >= 0)
		return read_mshr_full(s, sm, ri, from_wait, full_reason);
	if (!missq_room(s, l))
		return ACC_STALL_MQ;
	/* the fetch, and a write-back L1's victim may be dirty */
	if (l1_pool_wait(s, 1 + (c->write_policy == L1W_WRITE_BACK && !c->streaming && !cl)))
		return ACC_STALL;
	return read_allocate(s, sm, ri, set, way, mrpb, &bp);
}

/* Stores without write-allocate, atomics, and everything when the L1 is off. */
static int access_forward(struct sim *s, struct sm *sm, uint32_t ri)
{
	struct l1 *l = &sm->l1;
	struct req *r = &s->pool.r[ri];
	uint64_t now = s->st->now;
	if (!missq_room(s, l))
		return ACC_STALL_MQ;
	if (s->cfg.l1.enabled) {
		int set = cache_set(&l->c, r->addr);
		int way = cache_find(&l->c, set, r->addr);
		struct cline *cl = way >= 0 ? cache_line(&l->c, set, way) : NULL;
		if (cl && cl->valid && cl->sd && l1_pool_wait(s, 1)) /* a dirty copy may be evicted below */
			return ACC_STALL;
		L1_INC(s, l, accesses, l1_accesses);
		EV_EMIT(&s->ev, EV_L1_ACCESS, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp,
			.addr = r->addr, .set = set, .a = r->type == RQ_ST ? EVA_WRITE : EVA_ATOMIC);
		if (r->type == RQ_ST)
			L1_INC(s, l, writes, l1_writes);
		else
			L1_INC(s, l, atomics, l1_atomics);
		bool hit = cl && cl->valid && !cl->reserved && r->type == RQ_ST;
		if (hit)
			L1_INC(s, l, hits, l1_hits);
		else
			L1_INC(s, l, misses, l1_misses);
		l1_probe_access(s, sm, r, set, hit, mshr_find(&l->m, r->addr, 0) != REQ_NIL, false);
		if (cl && cl->valid && !cl->reserved) {
			cl->touch = hit ? TOUCH_HIT : TOUCH_MISS;
			cl->touch_cycle = now;
			if (r->type == RQ_ST && s->cfg.l1.write_policy == L1W_WRITE_THROUGH && !(r->flags & REQF_BYP_L1)) {
				cl->sv |= r->mask;
				cache_touch(&l->c, set, way);
			} else {
				evict_line(s, sm, set, way, false); /* write-evict, and atomics */
			}
		}
	}
	send_down(s, l, ri);
	core_req_accepted(s, ri);
	return ACC_DONE;
}

/* l1.bypass = all: every load is a miss that goes to the L2 as itself. */
static int access_bypass_all(struct sim *s, struct sm *sm, uint32_t ri)
{
	struct l1 *l = &sm->l1;
	struct req *r = &s->pool.r[ri];
	if (!missq_room(s, l))
		return ACC_STALL_MQ;
	int set = cache_set(&l->c, r->addr);
	L1_INC(s, l, accesses, l1_accesses);
	L1_INC(s, l, misses, l1_misses);
	EV_EMIT(&s->ev, EV_L1_ACCESS, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)r->warp,
		.addr = r->addr, .set = set, .a = EVA_READ);
	l1_probe_access(s, sm, r, set, false, false, true);
	byp_count_all(s, sm, set, r->addr, r->warp);
	send_down(s, l, ri);
	core_req_accepted(s, ri);
	return ACC_DONE;
}

/* A load with a cache operator (glc / slc): no lookup, no allocation, no
 * MSHR; it travels to the L2 as itself, as with the L1 disabled, and its
 * reply completes the warp request. Not an L1 access (l1.accesses unchanged). */
static int access_cop_bypass(struct sim *s, struct sm *sm, uint32_t ri)
{
	struct l1 *l = &sm->l1;
	if (!missq_room(s, l))
		return ACC_STALL_MQ;
	L1_INC(s, l, bypasses_cop, l1_bypasses_cop);
	send_down(s, l, ri);
	core_req_accepted(s, ri);
	return ACC_DONE;
}

static int l1_access(struct sim *s, struct sm *sm, uint32_t ri, bool from_wait)
{
	struct req *r = &s->pool.r[ri];
	if ((r->flags & REQF_BYP_L1) && s->cfg.l1.enabled) {
		if (r->type == RQ_LD) /* SI: the thesis's GLC load; MOESI/NMOESI refuse operators at load */
			return access_cop_bypass(s, sm, ri);
		if (r->type == RQ_ST && s->coh) {
			/* SI st.glc / st.slc: the L1 copy goes (silently, V -> I); the store then
			 * writes through as an SI store miss (no write-allocate). */
			int set = cache_set(&sm->l1.c, r->addr), way = cache_find(&sm->l1.c, set, r->addr);
			struct cline *cl = way >= 0 ? cache_line(&sm->l1.c, set, way) : NULL;
			if (cl && cl->valid && !cl->reserved && coh_state_stable(cl->coh) && !cl->pinned) {
				if (coh_l1_put_needed(s, cl) && l1_pool_wait(s, 1))
					return ACC_STALL;
				coh_l1_evict(s, sm, set, way);
			}
		} else if (r->type == RQ_ST) {
			return access_forward(s, sm, ri); /* no write-allocate; a present copy is invalidated */
		}
	}
	if (s->coh) { /* a coherence protocol decides (coh_l1.c); validation ensures the L1 is on */
		int rc = coh_l1_access(s, sm, ri, from_wait) ? ACC_STALL : ACC_DONE;
		if (rc == ACC_DONE && !from_wait)
			core_req_accepted(s, ri);
		return rc;
	}
	if (!s->cfg.l1.enabled || r->type == RQ_ATOM ||
	    (r->type == RQ_ST && s->cfg.l1.write_policy != L1W_WRITE_BACK)) {
		/* L1 disabled: loads travel to the L2 as themselves. */
		if (!s->cfg.l1.enabled && r->type == RQ_LD) {
			if (!missq_room(s, &sm->l1))
				return ACC_STALL_MQ;
			send_down(s, &sm->l1, ri);
			return ACC_DONE;
		}
		return access_forward(s, sm, ri);
	}
	if (s->cfg.l1.bypass == L1B_ALL && r->type == RQ_LD)
		return access_bypass_all(s, sm, ri);
	if (!(r->flags & REQF_COUNTED))
		byp_duel_update(s); /* at first lookups only: their cycles do not depend on skipping */
	int rc = access_read(s, sm, ri, from_wait);
	if (rc == ACC_DONE)
		core_req_accepted(s, ri);
	return rc;
}

static void fill(struct sim *s, struct sm *sm, uint32_t fi)
{
	struct l1 *l = &sm->l1;
	uint32_t mi = s->pool.r[fi].mshr;
	uint64_t now = s->st->now;
	struct mshr_ent *me = &l->m.e[mi];
	req_free(&s->pool, fi); /* first: the victim's write-back below takes a slot */
	int set = me->set;
	int way = me->way;
	if (way < 0) { /* allocate on fill */
		way = cache_find(&l->c, set, me->addr);
		if (way < 0) {
			way = cache_victim(&l->c, set, &s->st->rng);
			if (way >= 0) {
				l1_probe_line(s, PP_L1_EVICT, sm, set, way, -1);
				evict_line(s, sm, set, way, false);
				cache_install(&l->c, set, way, me->addr);
			}
		}
	}
	if (way >= 0) {
		struct cline *cl = cache_line(&l->c, set, way);
		if (cl->reserved || cl->tag != me->addr) {
			cache_install(&l->c, set, way, me->addr);
			cl = cache_line(&l->c, set, way);
		}
		cl->valid = 1;
		cl->reserved = 0;
		cl->fetching = 0;
		cl->sv |= me->mask;
		l1_probe_line(s, PP_L1_FILL, sm, set, way, me->warp);
		cl->touch = TOUCH_FILL;
		cl->touch_cycle = now;
		cache_touch(&l->c, set, way);
	}
	EV_EMIT(&s->ev, EV_L1_FILL, .cycle = now, .sm = (int16_t)sm->id, .addr = me->addr, .set = set, .a = me->merged);
	uint32_t wi;
	while ((wi = reqq_pop(&me->wait, s->pool.r)) != REQ_NIL) {
		if (s->pool.r[wi].type == RQ_ST && way >= 0)
			cache_line(&l->c, set, way)->sd |= s->pool.r[wi].mask;
		core_req_done(s, wi);
	}
	mshr_release(&l->m, mi);
	mshr_changed(s, sm);
}

/* A lookup refused for a full miss queue (ACC_STALL_MQ) did nothing before
 * that test, and every test before it (hit, MSHR entry and merge slot, wait
 * queue room) has the same answer until refused_clear: the request is not
 * looked up again while the miss queue stays full. Under a memory-divergent
 * load most SMs spend most cycles so, their miss-queue heads waiting for
 * L2 input-queue credits. */
static bool refused_now(const struct sim *s, const struct l1 *l, uint32_t head, uint32_t refused,
			uint32_t mq_refused)
{
	return head == refused || (head == mq_refused && !missq_room(s, l));
}

/* Remember a refusal (no coherence protocol, no locality bypassing). */
static void refused_note(const struct sim *s, uint32_t *mq_refused, uint32_t ri, int rc)
{
	if (rc == ACC_STALL_MQ && !s->coh && s->cfg.l1.bypass != L1B_LOCALITY)
		*mq_refused = ri;
}

void l1_tick(struct sim *s, struct sm *sm)
{
	struct l1 *l = &sm->l1;
	struct req *R = s->pool.r;
	uint64_t now = s->st->now;
	if (!(l->hitq.n | l->fillq.n | l->retryq.n | l->waitq.n | l->lsu.n))
		return; /* nothing below would act or report a wake-up time (the miss queue is the crossbar's) */
	/* 1. hits */
	while (reqq_ready(&l->hitq, R, now))
		core_req_done(s, reqq_pop(&l->hitq, R));
	/* 2. replies */
	while (reqq_ready(&l->fillq, R, now)) {
		uint32_t ri = reqq_pop(&l->fillq, R);
		icnt_rep_credit(s, l, -1);
		sim_progress(s);
		struct req *r = &R[ri];
		if (r->reply == RP_NACK) {
			L1_INC(s, l, nacks, l1_nacks);
			r->reply = RP_NONE;
			r->t_ready = now + (uint64_t)s->cfg.l1.retry_delay;
			reqq_insert_timed(&l->retryq, R, ri);
		} else if (r->reply == RP_COH) {
			if (s->coh)
				coh_l1_msg(s, sm, ri); /* Inv / Recall */
			else
				l2sh_l1_inv(s, sm, ri); /* l2.sharers: the L2 replaces the line */
		} else if (r->type == RQ_FETCH) {
			if (r->flags & REQF_IFETCH)
				l1i_fill(s, sm, ri); /* the instruction cache's (l1i.c) */
			else if (s->coh)
				coh_l1_fill(s, sm, ri);
			else
				fill(s, sm, ri);
		} else {
			if ((r->flags & REQF_COH) && r->coh_msg == CM_WT)
				coh_l1_wt_acked(s, sm, r->addr);
			core_req_done(s, ri);
		}
	}
	/* 3. retries */
	while (reqq_ready(&l->retryq, R, now) && missq_room(s, l)) {
		uint32_t ri = reqq_pop(&l->retryq, R);
		L1_INC(s, l, retries, l1_retries);
		EV_EMIT(&s->ev, EV_L1_RETRY, .cycle = now, .sm = (int16_t)sm->id, .addr = R[ri].addr);
		if (R[ri].flags & REQF_COH)
			coh_l1_retry(s, sm, ri); /* re-derive the request from the line's state */
		send_down(s, l, ri);
		sim_progress(s);
	}
	/* 4. lookups: the wait queue first (FIFO), then new requests */
	int ports = s->cfg.l1.ports;
	while (ports > 0 && l->waitq.head != REQ_NIL &&
	       !refused_now(s, l, l->waitq.head, l->wait_refused, l->wait_mq_refused)) {
		uint32_t ri = reqq_pop(&l->waitq, R);
		int rc = l1_access(s, sm, ri, true);
		if (rc != ACC_DONE) {
			reqq_push_front(&l->waitq, R, ri);
			refused_note(s, &l->wait_mq_refused, ri, rc);
			break;
		}
		refused_clear(l);
		ports--;
		sim_progress(s);
	}
	while (ports > 0 && reqq_ready(&l->lsu, R, now) &&
	       !refused_now(s, l, l->lsu.head, l->lsu_refused, l->lsu_mq_refused)) {
		uint32_t ri = reqq_pop(&l->lsu, R);
		int rc = l1_access(s, sm, ri, false);
		if (rc != ACC_DONE) {
			reqq_push_front(&l->lsu, R, ri);
			refused_note(s, &l->lsu_mq_refused, ri, rc);
			break;
		}
		/* Accepted: it now sits in hitq, an MSHR entry, the wait queue or the miss queue. */
		refused_clear(l);
		ports--;
		sim_progress(s);
	}
	sim_wake_q(s, &l->hitq);
	sim_wake_q(s, &l->fillq);
	sim_wake_q(s, &l->retryq);
	sim_wake_q(s, &l->lsu);
}

/* The warp's state becomes `mshr_full` (core.c warp_blocker: its global
 * access cannot take a memory-buffer entry while every MSHR is in use or
 * misses wait for one). The L1 refused nothing yet, but the full MSHR file is
 * what holds the warp: the same counter and event as a refused miss, so the
 * state the warps panel shows has both (issue 22). */
void l1_mshr_full_at_issue(struct sim *s, struct sm *sm, int warp, uint64_t addr)
{
	struct l1 *l = &sm->l1;
	L1_INC(s, l, mshr_full, l1_mshr_full);
	l->full_events++;
	EV_EMIT(&s->ev, EV_L1_MSHR_FULL, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)warp,
		.addr = cache_line_addr(&l->c, addr), .a = EVM_ISSUE); /* the line of its first active lane */
}
