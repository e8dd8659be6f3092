/*
 * coh_dir.c: the blocking directory kept per L2 line (coh_eng.h). A request
 * (GetS/GetX/Upg/GetN/UpgN, atomics) on a present line looks up (directory
 * state, message) in the protocol's directory table (coh.h) and executes the
 * row: invalidations and owner recalls go out over the crossbar and the
 * request is parked in the entry until every answer (Ack/AckD) is in; then
 * the grant (DataS/E/X/N) leaves, and E/X/N grants keep the entry locked
 * until the requester's Unblock. Requests that find the entry locked get a
 * NACK `dir_locked` (l2.nack reason 4, event coh.nack) and the L1 retries.
 * Puts from a recorded holder are taken even while the entry is locked.
 * Misses take the L2's ordinary miss path; the waiting requests are looked
 * up here when the fill arrives.
 */
#include "coh_eng.h"

static void set_sh(struct coh_dent *d, unsigned i) { d->sh[i >> 6] |= 1ull << (i & 63); }
static void clr_sh(struct coh_dent *d, unsigned i) { d->sh[i >> 6] &= ~(1ull << (i & 63)); }
static bool any_sh(const struct coh_dent *d) { return d->sh[0] | d->sh[1] | d->sh[2] | d->sh[3]; }

bool coh_l2_holders(const struct l2bank *b, int set, int way)
{
	const struct coh_dent *d = coh_dent_at(b, set, way);
	return any_sh(d) || d->owner >= 0;
}

void coh_l2_reset(struct l2bank *b, int set, int way)
{
	if (!b->dir)
		return;
	*coh_dent_at(b, set, way) = (struct coh_dent){.owner = -1, .held = REQ_NIL, .evict_mshr = REQ_NIL};
	cache_line(&b->c, set, way)->pinned = 0;
}

static void restate(struct coh_dent *d)
{
	if (!any_sh(d) && d->owner < 0)
		d->has_n = 0;
	d->ds = (uint8_t)(d->owner >= 0 ? (d->owner_o ? DS_O : DS_X) : d->has_n ? DS_N : any_sh(d) ? DS_S : DS_I);
}

static void settle(struct l2bank *b, int set, int way, struct coh_dent *d)
{
	restate(d);
	cache_line(&b->c, set, way)->pinned = d->busy == DB_ACKS || d->busy == DB_UNBLOCK;
}

static uint64_t dir_delay(const struct sim *s)
{
	return (uint64_t)s->cfg.l2.hit_latency + (uint64_t)s->cfg.l2.coh.dir_latency;
}

/* Inv/Recall to one L1. Every caller's admission check made room for one
 * round (coh_l2_request, l2_repl.c miss_room, frc.c finish_swap). */
static void send_l1(struct sim *s, struct l2bank *b, uint64_t addr, unsigned sm, unsigned type)
{
	uint32_t ri = req_alloc(&s->pool);
	if (ri == REQ_NIL)
		l2_pool_exhausted(s, "a coherence Inv/Recall");
	struct req *r = &s->pool.r[ri];
	r->type = RQ_COH;
	r->flags = REQF_COH;
	r->coh_msg = (uint8_t)type;
	r->sm = (uint16_t)sm;
	r->addr = addr;
	r->bank = (uint16_t)b->id;
	coh_count(s, type, (int)sm, b->id, addr);
	if (type == CM_INV)
		stat_inc(&s->stats, s->coh_inv_id);
	l2_reply(s, b, ri, RP_COH, dir_delay(s));
}

/* Invalidate every copy but `except`'s; counts the acks to wait for. */
static void inv_all(struct sim *s, struct l2bank *b, struct coh_dent *d, uint64_t addr, int except)
{
	for (int i = 0; i < s->cfg.core.sms; i++) {
		if (i == except || !(coh_has(d, (unsigned)i) || d->owner == i))
			continue;
		send_l1(s, b, addr, (unsigned)i, CM_INV);
		if (s->coh->inv_acks) {
			d->acks++;
		} else {
			clr_sh(d, (unsigned)i);
			if (d->owner == i)
				d->owner = -1;
		}
	}
}

static void note_dir(struct sim *s, struct l2bank *b, int sm, uint64_t addr, unsigned from, unsigned to, unsigned msg)
{
	coh_note(s, TX_DIR, sm, b->id, addr, from, to, msg);
}

/* The parked request gets its answer. */
static void grant(struct sim *s, struct l2bank *b, int set, int way, struct coh_dent *d)
{
	uint32_t ri = d->held;
	struct req *r = &s->pool.r[ri];
	struct cline *cl = cache_line(&b->c, set, way);
	unsigned q = r->sm, old = d->ds;
	uint32_t a = d->grant_act;
	d->held = REQ_NIL;
	d->busy = DB_NONE;
	if (r->type == RQ_ATOM) { /* every copy is gone: perform it here */
		cl->sv |= r->mask;
		cl->sd |= r->mask;
		l2_reply(s, b, ri, RP_DATA, dir_delay(s));
		settle(b, set, way, d);
		return;
	}
	bool had = coh_has(d, q) || d->owner == (int)q;
	unsigned msg = CM_DATA_S;
	if (a & D_DATA_S) {
		set_sh(d, q);
	} else if (a & D_DATA_E) {
		msg = CM_DATA_E;
		d->owner = (int16_t)q, d->owner_o = 0;
		d->sh[0] = d->sh[1] = d->sh[2] = d->sh[3] = 0;
		d->busy = DB_UNBLOCK;
	} else if (a & D_DATA_X) {
		msg = CM_DATA_X;
		d->owner = (int16_t)q, d->owner_o = 0, d->has_n = 0;
		d->sh[0] = d->sh[1] = d->sh[2] = d->sh[3] = 0;
		d->busy = DB_UNBLOCK;
	} else if (a & D_DATA_N) {
		msg = CM_DATA_N;
		set_sh(d, q);
		d->has_n = 1;
		d->busy = DB_UNBLOCK;
	}
	bool upg = r->coh_msg == CM_UPG || r->coh_msg == CM_UPGN;
	unsigned req_msg = r->coh_msg; /* logged: the directory row is (state, request) */
	r->coh_msg = (uint8_t)msg;
	r->coh_aux = !(upg && had); /* an upgrade of a copy still held carries no data */
	coh_count(s, msg, (int)q, b->id, r->addr);
	l2_reply(s, b, ri, RP_DATA, dir_delay(s));
	settle(b, set, way, d);
	note_dir(s, b, (int)q, r->addr, old, d->ds, req_msg);
}

/* A request on a present line (at lookup, or at the fill of its miss). */
void coh_l2_request(struct sim *s, struct l2bank *b, uint32_t ri, int set, int way)
{
	struct req *r = &s->pool.r[ri];
	struct coh_dent *d = coh_dent_at(b, set, way);
	unsigned q = r->sm;
	if (d->busy || s->pool.cap - s->pool.used < (uint32_t)s->cfg.core.sms + 1) {
		if (d->busy) {
			stat_inc(&s->stats, s->coh_nack_id);
			EV_EMIT(&s->ev, EV_COH_NACK, .cycle = s->st->now, .sm = (int16_t)q, .unit = (int16_t)b->id,
				.addr = r->addr, .a = r->coh_msg);
			coh_note(s, TX_NACK, (int)q, b->id, r->addr, d->ds, d->ds, r->coh_msg);
		}
		l2_nack(s, b, ri, NACK_DIR_LOCKED);
		return;
	}
	uint32_t a;
	if (r->type == RQ_ATOM) {
		a = D_INV;
	} else {
		int row = coh_dir_lookup(s->coh, d->ds, r->coh_msg);
		if (row < 0) {
			stat_inc(&s->stats, s->coh_err_id);
			l2_nack(s, b, ri, NACK_DIR_LOCKED);
			return;
		}
		a = s->coh->dir[row].act;
	}
	unsigned old = d->ds;
	d->req_sm = (uint16_t)q;
	d->grant_act = a;
	d->held = ri;
	d->acks = 0;
	if (a & D_INV)
		inv_all(s, b, d, r->addr, r->type == RQ_ATOM ? -1 : (int)q);
	if ((a & D_RECALL) && d->owner >= 0 && d->owner != (int)q) {
		send_l1(s, b, r->addr, (unsigned)d->owner, CM_RECALL);
		d->acks++;
	}
	if (d->acks) {
		d->busy = DB_ACKS;
		settle(b, set, way, d);
		note_dir(s, b, (int)q, r->addr, old, d->ds, r->type == RQ_ATOM ? CM_GETX : r->coh_msg);
	} else {
		grant(s, b, set, way, d);
	}
}

/* The last ack of an L2 replacement: the eviction step, then the fetch (l2_repl.c). */
static void evict_done(struct sim *s, struct l2bank *b, int set, int way, struct coh_dent *d)
{
	uint32_t e = d->evict_mshr;
	b->mlat[3 * e] = b->mlat[3 * e + 1] = s->st->now; /* miss latency split: invalidation over */
	coh_l2_reset(b, set, way);
	l2_evict_step(s, b, e);
}

/* A miss chose (set, way) as its victim: invalidate the copies first.
 * true = wait for the acks (the caller must not send the fetch). */
bool coh_l2_start_evict(struct sim *s, struct l2bank *b, int set, int way, uint32_t mshr)
{
	struct coh_dent *d = coh_dent_at(b, set, way);
	struct cline *cl = cache_line(&b->c, set, way);
	if (!coh_l2_holders(b, set, way)) {
		coh_l2_reset(b, set, way);
		return false;
	}
	unsigned old = d->ds;
	d->acks = 0;
	inv_all(s, b, d, cl->tag, -1);
	note_dir(s, b, -1, cl->tag, old, DS_I, CM_L2_REPL);
	if (!d->acks) {
		coh_l2_reset(b, set, way);
		return false;
	}
	d->busy = DB_EVICT;
	d->evict_mshr = mshr;
	return true;
}

/* FRC swap (frc.c): the victim in (set, way) leaves the L2 line; its
 * directory entry goes with it into FRC entry i and its copies are
 * invalidated from there. true = acks are due (the entry waits for them). */
bool coh_frc_victim(struct sim *s, struct l2bank *b, int i, int set, int way)
{
	struct coh_dent *d = &b->frc.dir[i];
	struct cline *cl = cache_line(&b->c, set, way);
	*d = *coh_dent_at(b, set, way);
	coh_l2_reset(b, set, way); /* the new block's entry: no copies */
	if (!cl->valid || !(any_sh(d) || d->owner >= 0))
		return false;
	unsigned old = d->ds;
	d->acks = 0;
	inv_all(s, b, d, cl->tag, -1);
	note_dir(s, b, -1, cl->tag, old, DS_I, CM_L2_REPL);
	stat_inc(&s->stats, s->id.frc_inv_victims);
	if (!d->acks)
		return false;
	d->busy = DB_EVICT;
	return true;
}

/* An Ack/AckD for a victim held in FRC entry i. */
static void frc_response(struct sim *s, struct l2bank *b, uint32_t ri, int i)
{
	struct req *r = &s->pool.r[ri];
	struct coh_dent *d = &b->frc.dir[i];
	unsigned q = r->sm;
	if (r->coh_msg == CM_UNBLOCK || d->busy != DB_EVICT || !d->acks) {
		stat_inc(&s->stats, s->coh_err_id);
		req_free(&s->pool, ri);
		return;
	}
	if (r->coh_msg == CM_ACKD) /* the copy's data goes with the victim */
		b->frc.e[i].victim_sd |= b->c.all_sectors;
	clr_sh(d, q);
	if (d->owner == (int)q)
		d->owner = -1, d->owner_o = 0;
	req_free(&s->pool, ri);
	if (--d->acks) {
		restate(d);
		return;
	}
	*d = (struct coh_dent){.owner = -1, .held = REQ_NIL, .evict_mshr = REQ_NIL};
	frc_evict_acked(s, b, i);
}

static void response(struct sim *s, struct l2bank *b, uint32_t ri)
{
	struct req *r = &s->pool.r[ri];
	int set = l2_bank_set(s, b, r->addr);
	int way = cache_find(&b->c, set, r->addr);
	unsigned q = r->sm, m = r->coh_msg;
	if (way < 0) {
		int fe = frc_victim_entry(b, r->addr);
		if (fe >= 0) {
			frc_response(s, b, ri, fe);
			return;
		}
		stat_inc(&s->stats, s->coh_err_id);
		req_free(&s->pool, ri);
		return;
	}
	struct coh_dent *d = coh_dent_at(b, set, way);
	struct cline *cl = cache_line(&b->c, set, way);
	if (m == CM_UNBLOCK) {
		if (d->busy != DB_UNBLOCK || d->req_sm != q)
			stat_inc(&s->stats, s->coh_err_id);
		else
			d->busy = DB_NONE;
		settle(b, set, way, d);
		req_free(&s->pool, ri);
		return;
	}
	if ((d->busy != DB_ACKS && d->busy != DB_EVICT) || !d->acks) {
		stat_inc(&s->stats, s->coh_err_id);
		req_free(&s->pool, ri);
		return;
	}
	unsigned kept = r->coh_aux;
	if (m == CM_ACKD && kept != KEPT_O) { /* the copy's data merges into the L2 line */
		cl->sv |= b->c.all_sectors;
		cl->sd |= b->c.all_sectors;
	}
	if (s->cv && m == CM_ACKD) /* an O owner's words are forwarded: the L2 keeps them clean */
		coh_values_l2_merge(s, b, ri, set, way, kept != KEPT_O);
	if (kept == KEPT_GONE) {
		clr_sh(d, q);
		if (d->owner == (int)q)
			d->owner = -1, d->owner_o = 0;
	} else if (kept == KEPT_S) {
		if (d->owner == (int)q)
			d->owner = -1, d->owner_o = 0;
		set_sh(d, q);
	} else {
		d->owner_o = 1;
	}
	req_free(&s->pool, ri);
	if (--d->acks) {
		restate(d);
		return;
	}
	if (d->busy == DB_EVICT)
		evict_done(s, b, set, way, d);
	else
		grant(s, b, set, way, d);
}

/* A Put from an L1 eviction, on a line the L2 holds (possibly transient). */
static void put(struct sim *s, struct l2bank *b, uint32_t ri, int set, int way)
{
	struct req *r = &s->pool.r[ri];
	struct coh_dent *d = coh_dent_at(b, set, way);
	struct cline *cl = cache_line(&b->c, set, way);
	unsigned q = r->sm, m = r->coh_msg, old = d->ds;
	bool holder = m == CM_PUTN ? coh_has(d, q) : d->owner == (int)q;
	stat_inc(&s->stats, s->coh_put_id); /* a notice, not a lookup: no l2.hits (docs/COHERENCE.md) */
	if (holder) {
		if (m != CM_PUTE) {
			cl->sv |= b->c.all_sectors;
			cl->sd |= r->mask ? r->mask : b->c.all_sectors;
			if (s->cv)
				coh_values_l2_merge(s, b, ri, set, way, true);
		}
		clr_sh(d, q);
		if (d->owner == (int)q)
			d->owner = -1, d->owner_o = 0;
		restate(d);
		note_dir(s, b, (int)q, r->addr, old, d->ds, m);
	}
	req_free(&s->pool, ri); /* stale Puts are dropped: the data went with an ack */
}

/* Coherent traffic arriving at a bank. true = handled here. */
bool coh_l2_access(struct sim *s, struct l2bank *b, uint32_t ri)
{
	struct req *r = &s->pool.r[ri];
	if (r->type == RQ_COH) {
		response(s, b, ri);
		return true;
	}
	int set = l2_bank_set(s, b, r->addr);
	int way = cache_find(&b->c, set, r->addr);
	struct cline *cl = way >= 0 ? cache_line(&b->c, set, way) : NULL;
	if (r->type == RQ_WB) {
		int fe = !cl || !cl->valid ? frc_victim_entry(b, r->addr) : -1;
		if (fe >= 0) { /* a Put of a victim held in an FRC entry */
			struct coh_dent *d = &b->frc.dir[fe];
			unsigned q = r->sm, m = r->coh_msg;
			stat_inc(&s->stats, s->coh_put_id);
			if (m == CM_PUTN ? coh_has(d, q) : d->owner == (int)q) {
				if (m != CM_PUTE)
					b->frc.e[fe].victim_sd |= r->mask ? r->mask : b->c.all_sectors;
				clr_sh(d, q);
				if (d->owner == (int)q)
					d->owner = -1, d->owner_o = 0;
				restate(d);
			}
			req_free(&s->pool, ri);
			return true;
		}
		if (!cl || !cl->valid)
			return false; /* not held: an ordinary write */
		put(s, b, ri, set, way);
		return true;
	}
	if (r->type != RQ_FETCH && r->type != RQ_ATOM)
		return false; /* WT: the L2's write path */
	if (!cl || !cl->valid || cl->transient || (cl->sv & r->mask) != r->mask)
		return false; /* miss / transient / missing sectors: the ordinary path, then the fill */
	l2_count_access(s, b, ri, set, true);
	cache_touch(&b->c, set, way);
	cl->touch = TOUCH_HIT;
	cl->touch_cycle = s->st->now;
	coh_l2_request(s, b, ri, set, way);
	return true;
}

/* Count the messages that l2.c's replies carry (WTAck, Nack). */
void coh_l2_reply_note(struct sim *s, struct l2bank *b, struct req *r, uint8_t kind)
{
	if (!(r->flags & REQF_COH) || r->type == RQ_WB || r->type == RQ_COH)
		return;
	if (kind == RP_NACK)
		coh_count(s, CM_NACK, r->sm, b->id, r->addr);
	else if (kind == RP_ACK && r->coh_msg == CM_WT)
		coh_count(s, CM_WT_ACK, r->sm, b->id, r->addr);
}
