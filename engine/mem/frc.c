/*
 * frc.c: the Fetch and Replacement Cache (see frc.h for the picture).
 *
 * Choices where the thesis is silent (config keys under l2.frc.*):
 *   victim      at_swap (default): the L2 victim is the LRU line when the swap
 *               starts, so the old block stays readable for the whole fetch;
 *               at_miss: chosen (and promised) when the entry is allocated.
 *   serve_evicting  false (default): once swapped out, the victim is gone; a
 *               request for it misses. true: it is served from the entry.
 *   mshr        separate (default): FRC entries track misses in addition to
 *               the L2 MSHRs; shared: an FRC entry uses up an MSHR slot.
 *   index       xor (default): the FRC set folds every bit of the block's
 *               line number within the bank (bank-select bits removed), so
 *               misses to one L2 set (differing in tag bits) and a stream
 *               (differing in set bits) both spread over the FRC sets; linear
 *               (low bits: one L2 set's misses share one FRC set),
 *               skip_l2_set_bits (the low tag bits: one L2 set's misses spread,
 *               a stream shares a set), global (line address mod sets, the
 *               pre-option behaviour: with 256 B bank interleave and 64 B
 *               lines only 4 of the sets of a bank are ever used).
 *   Writes that hit a fetching entry wait like reads; their sectors are
 *   dirty in the L2 line after the swap. Every requester waiting at fill time
 *   is answered from the entry at once; later ones after the swap, from the
 *   L2 line. The early fetch leaves lookup_cycles after the L2 tag miss.
 *   Without a coherence protocol the L2's sharer record (l2.sharers,
 *   l2_sharers.c) moves with the victim into the entry at the swap and its
 *   copies are invalidated from there: EVICTING lasts until the last ack and
 *   a dirty victim's write-back is handed to memory (l2.sharers = off: only
 *   the write-back). A fill takes l2.frc.fill_port_cycles and a swap
 *   l2.frc.swap_port_cycles of the bank's L2 ports (the data array).
 *   The entry keeps its fetch's request slot for the write-back, so the
 *   eviction never waits for (or loses) a slot.
 *
 * With a coherence protocol (coherence.protocol != none):
 *   - the swap waits while the victim's directory entry is locked;
 *   - at the swap the victim's directory entry moves into the FRC entry and
 *     the L2 line's entry starts empty for the new block; Inv goes to every
 *     recorded copy from the entry (coh_frc_victim, coh_dir.c); the entry
 *     stays EVICTING until the last Ack/AckD (AckD data and Puts of the
 *     victim merge into the entry's dirty mask), then writes back if dirty;
 *   - requests for the victim block while its entry is EVICTING are refused
 *     (NACK `transient`, as for a transient line); serve_evicting is ignored;
 *   - coherent requests waiting on a fetching entry (GetS/GetX/..., atomics)
 *     are answered by the directory from the L2 line at the swap, when the
 *     new block's directory entry exists; other waiters at the fill as before.
 */
#include <stdio.h>

#include "sim/util.h"

#include "coh_eng.h"
#include "frc.h"
#include "l2_sharers.h"
#include "sim/sim_int.h"

static const char *const state_names[] = {"free", "fetching", "swapping", "evicting"};

/* Count one FRC event in the bank's l2.bankN.frc.<what> and the machine-wide
 * frc.<what> (frc_check_stat_sums keeps them in step). */
#define F_INC(s, b, what)                                                                                  \
	do {                                                                                               \
		stat_inc(&(s)->stats, (b)->st.frc_##what);                                                \
		stat_inc(&(s)->stats, (s)->id.frc_##what);                                                \
	} while (0)

const char *frc_state_name(unsigned st) { return st < 4 ? state_names[st] : "?"; }

void frc_init(struct sim *s, struct l2bank *b)
{
	const struct frc_cfg *c = &s->cfg.l2.frc;
	struct frc *f = &b->frc;
	f->n = c->entries;
	if (!f->n)
		return;
	f->ways = c->ways;
	f->sets = c->entries / c->ways;
	f->set_bits = (int)log2u((uint64_t)f->sets);
	f->l2_set_bits = (int)log2u((uint64_t)s->cfg.l2.sets);
	ARENA_SET(&s->arena, f->e, struct frc_entry, f->n);
	for (int i = 0; i < f->n; i++) {
		reqq_init(&f->e[i].wait);
		f->e[i].way = -1;
	}
}

int frc_set_of(const struct sim *s, const struct l2bank *b, uint64_t addr)
{
	const struct frc *f = &b->frc;
	uint64_t mask = (uint64_t)(f->sets - 1), line = (uint64_t)s->cfg.l2.line;
	uint64_t lb = l2_local_addr(s, addr) / line; /* line number within the bank */
	switch (s->cfg.l2.frc.index) {
	case FRC_IDX_GLOBAL:
		return (int)((addr / line) & mask);
	case FRC_IDX_LINEAR:
		return (int)(lb & mask);
	case FRC_IDX_SKIP_L2_SET_BITS:
		return (int)((lb >> f->l2_set_bits) & mask);
	default: { /* xor: fold every set_bits-wide chunk of the line number */
		if (!f->set_bits)
			return 0;
		uint64_t v = 0;
		for (; lb; lb >>= f->set_bits)
			v ^= lb & mask;
		return (int)v;
	}
	}
}

static void enter(struct sim *s, struct l2bank *b, int i, unsigned st)
{
	struct frc_entry *e = &b->frc.e[i];
	if (e->state == FRC_FREE && st != FRC_FREE)
		b->frc.active++;
	if (e->state != FRC_FREE && st == FRC_FREE)
		b->frc.active--;
	if (e->state == FRC_SWAPPING)
		b->frc.swapping--;
	if (st == FRC_SWAPPING) {
		b->frc.swapping++;
		sim_act_l2(s, b); /* frc_tick finishes it */
	}
	if (e->state == FRC_EVICTING)
		b->frc.evicting--;
	if (st == FRC_EVICTING)
		b->frc.evicting++;
	e->state = (uint8_t)st;
	e->t_state = s->st->now;
	stat_occ_set(&s->stats, b->st.frc_occ, (uint64_t)b->frc.active);
	sim_progress(s);
}

static bool is_write(const struct req *r) { return r->type == RQ_ST || r->type == RQ_WB; }

/* A request the directory must answer (coherence on). */
static bool coherent(const struct sim *s, const struct req *r)
{
	return s->coh && (r->type == RQ_FETCH || r->type == RQ_ATOM) && ((r->flags & REQF_COH) || r->type == RQ_ATOM);
}

int frc_victim_entry(const struct l2bank *b, uint64_t line)
{
	const struct frc *f = &b->frc;
	if (!f->evicting)
		return -1;
	for (int i = 0; i < f->n; i++)
		if (f->e[i].state == FRC_EVICTING && f->e[i].victim_valid && f->e[i].tag == line)
			return i;
	return -1;
}

/* Answer a waiter from the entry (at fill) or from the L2 line (after the swap). */
static void answer(struct sim *s, struct l2bank *b, struct frc_entry *e, uint32_t wi, uint64_t delay)
{
	struct req *w = &s->pool.r[wi];
	if (is_write(w) || w->type == RQ_ATOM)
		e->wmask |= w->mask;
	l2_reply(s, b, wi, is_write(w) ? RP_ACK : RP_DATA, delay);
}

bool frc_join(struct sim *s, struct l2bank *b, uint32_t ri)
{
	struct frc *f = &b->frc;
	if (!f->n)
		return false;
	struct req *r = &s->pool.r[ri];
	struct frc_entry *row = &f->e[frc_set_of(s, b, r->addr) * f->ways];
	for (int w = 0; w < f->ways; w++) {
		struct frc_entry *e = &row[w];
		if ((e->state == FRC_FETCHING || e->state == FRC_SWAPPING) && e->tag == r->addr) {
			reqq_push(&e->wait, s->pool.r, ri);
			e->nwait++;
			F_INC(s, b, hits_fetching);
			return true;
		}
	}
	return false;
}

bool frc_access(struct sim *s, struct l2bank *b, uint32_t ri, int set)
{
	struct frc *f = &b->frc;
	if (!f->n)
		return false;
	struct req *r = &s->pool.r[ri];
	uint64_t now = s->st->now;
	const struct frc_cfg *c = &s->cfg.l2.frc;
	F_INC(s, b, lookups);
	int fs = frc_set_of(s, b, r->addr);
	struct frc_entry *row = &f->e[fs * f->ways];
	EV_EMIT(&s->ev, EV_FRC_LOOKUP, .cycle = now, .unit = (int16_t)b->id, .addr = r->addr, .set = fs);
	if (s->coh && frc_victim_entry(b, r->addr) >= 0) {
		/* The block's old copies are still being invalidated from an entry. */
		l2_nack_transient(s, b, ri);
		return true;
	}
	int freew = -1;
	for (int w = 0; w < f->ways; w++) {
		struct frc_entry *e = &row[w];
		if (e->state == FRC_FREE) {
			if (freew < 0)
				freew = w;
			continue;
		}
		if ((e->state == FRC_FETCHING || e->state == FRC_SWAPPING) && e->tag == r->addr) {
			reqq_push(&e->wait, s->pool.r, ri);
			e->nwait++;
			F_INC(s, b, hits_fetching);
			return true;
		}
		if (e->state == FRC_EVICTING && e->tag == r->addr && c->serve_evicting && !s->coh && !is_write(r) &&
		    r->type != RQ_ATOM) {
			F_INC(s, b, evicting_hits);
			l2_reply(s, b, ri, RP_DATA, (uint64_t)s->cfg.l2.hit_latency + (uint64_t)c->lookup_cycles);
			return true;
		}
	}
	bool shared_full = c->mshr == FRC_MSHR_SHARED && b->m.used + (uint32_t)f->active >= (uint32_t)s->cfg.l2.mshr_entries;
	/* The entry's one request slot (the fetch, later the victim's write-back)
	 * is taken now; the victim's invalidations are checked at the swap. */
	bool pool_full = !l2_pool_room(s, 1);
	if (freew < 0 || shared_full || !l2_memq_room(s, b, 1) || pool_full) {
		F_INC(s, b, fallbacks);
		EV_EMIT(&s->ev, EV_FRC_FALLBACK, .cycle = now, .unit = (int16_t)b->id, .addr = r->addr, .set = fs,
			.a = freew < 0 ? FRCFB_SET_FULL : shared_full ? FRCFB_MSHR_FULL : pool_full ? FRCFB_POOL_FULL : FRCFB_QUEUE_FULL);
		if (f->active == f->n)
			EV_EMIT(&s->ev, EV_FRC_ALL_BUSY, .cycle = now, .unit = (int16_t)b->id);
		return false;
	}
	int way = -1;
	if (c->victim == FRC_VICTIM_AT_MISS) {
		way = cache_victim(&b->c, set, &s->st->rng);
		if (way < 0) {
			F_INC(s, b, fallbacks);
			EV_EMIT(&s->ev, EV_FRC_FALLBACK, .cycle = now, .unit = (int16_t)b->id, .addr = r->addr, .set = fs,
				.a = FRCFB_NO_VICTIM);
			return false;
		}
		cache_line(&b->c, set, way)->swap_pending = 1;
	}
	int i = fs * f->ways + freew;
	struct frc_entry *e = &f->e[i];
	*e = (struct frc_entry){.tag = r->addr, .incoming = r->addr, .t_alloc = now, .set = set, .way = (int16_t)way,
				.mask = is_write(r) ? b->c.all_sectors : r->mask, .nwait = 1, .mreq = REQ_NIL};
	reqq_init(&e->wait);
	l2sh_frc_alloc(s, b, i);
	reqq_push(&e->wait, s->pool.r, ri);
	enter(s, b, i, FRC_FETCHING);
	F_INC(s, b, allocs);
	EV_EMIT(&s->ev, EV_FRC_ALLOC, .cycle = now, .unit = (int16_t)b->id, .addr = r->addr, .set = fs, .a = i);
	uint32_t mi = l2_mem_req(s, b, RQ_FETCH, r->addr, e->mask, FRC_TAG | (uint32_t)i);
	s->pool.r[mi].t_ready = now + 1 + (uint64_t)c->lookup_cycles;
	return true;
}

static bool choose_victim(struct sim *s, struct l2bank *b, struct frc_entry *e)
{
	if (e->way >= 0)
		return true;
	int way = cache_victim(&b->c, e->set, &s->st->rng);
	if (way < 0)
		return false;
	e->way = (int16_t)way;
	cache_line(&b->c, e->set, way)->swap_pending = 1;
	return true;
}

void frc_fill(struct sim *s, struct l2bank *b, uint32_t mi)
{
	int i = (int)(s->pool.r[mi].mshr & ~FRC_TAG);
	struct frc_entry *e = &b->frc.e[i];
	uint64_t now = s->st->now;
	e->mreq = mi; /* kept for the victim's write-back */
	F_INC(s, b, fills);
	l2_port_take(s, b, (uint64_t)s->cfg.l2.frc.fill_port_cycles, s->id.l2_port_frc);
	EV_EMIT(&s->ev, EV_FRC_FILL, .cycle = now, .unit = (int16_t)b->id, .addr = e->tag, .a = i);
	l2_miss_lat_frc(s, b, e);
	uint32_t wi;
	struct reqq keep;
	reqq_init(&keep);
	uint16_t nkeep = 0;
	while ((wi = reqq_pop(&e->wait, s->pool.r)) != REQ_NIL) {
		if (coherent(s, &s->pool.r[wi])) { /* the directory answers at the swap */
			reqq_push(&keep, s->pool.r, wi);
			nkeep++;
		} else {
			answer(s, b, e, wi, l2_fill_delay(s));
		}
	}
	e->wait = keep;
	e->nwait = nkeep;
	enter(s, b, i, FRC_SWAPPING);
	e->t_done = now + (uint64_t)s->cfg.l2.frc.swap_cycles;
	if (!choose_victim(s, b, e))
		e->t_done = now + 1; /* every way busy: try again next cycle */
	EV_EMIT(&s->ev, EV_FRC_SWAP_START, .cycle = now, .unit = (int16_t)b->id, .addr = e->tag, .set = e->set,
		.a = i, .b = e->way);
	sim_wake_at(s, e->t_done);
}

/* The victim's copies are gone: write it back if dirty, else free the entry. */
static void evict_or_free(struct sim *s, struct l2bank *b, int i)
{
	struct frc_entry *e = &b->frc.e[i];
	uint64_t now = s->st->now;
	if (e->victim_valid && e->victim_sd) {
		l2_mem_send(s, b, e->mreq, RQ_WB, e->tag, e->victim_sd, FRC_TAG | (uint32_t)i);
		e->mreq = REQ_NIL;
		F_INC(s, b, evictions);
		stat_inc(&s->stats, s->id.l2_writebacks);
		enter(s, b, i, FRC_EVICTING);
		return;
	}
	if (e->state == FRC_EVICTING) /* waited for acks only */
		EV_EMIT(&s->ev, EV_FRC_EVICT_DONE, .cycle = now, .unit = (int16_t)b->id, .addr = e->tag, .a = i);
	if (e->mreq != REQ_NIL) {
		req_free(&s->pool, e->mreq);
		e->mreq = REQ_NIL;
	}
	enter(s, b, i, FRC_FREE);
	EV_EMIT(&s->ev, EV_FRC_FREE, .cycle = now, .unit = (int16_t)b->id, .a = i);
}

void frc_evict_acked(struct sim *s, struct l2bank *b, int i)
{
	struct frc_entry *e = &b->frc.e[i];
	e->t_acked = s->st->now;
	stat_add(&s->stats, s->id.frc_ev_inval, e->t_acked - e->t_swap);
	evict_or_free(s, b, i);
}

static void finish_swap(struct sim *s, struct l2bank *b, int i)
{
	struct frc_entry *e = &b->frc.e[i];
	uint64_t now = s->st->now;
	if (!choose_victim(s, b, e)) {
		e->t_done = now + 1;
		sim_wake_at(s, e->t_done);
		return;
	}
	struct cline *cl = cache_line(&b->c, e->set, e->way);
	/* Not while a sector fetch for the victim is out or (coherence) its
	 * directory entry is locked: try again next cycle. */
	if (cl->valid && (mshr_find(&b->m, cl->tag, 0) != REQ_NIL || (s->coh && coh_dent_at(b, e->set, e->way)->busy) ||
			  !l2_pool_room(s, (uint32_t)s->cfg.core.sms))) {
		e->t_done = now + 1;
		sim_wake_at(s, e->t_done);
		return;
	}
	/* Coherence: the victim's directory entry moves into the FRC entry, its
	 * copies are invalidated from there; the line's entry starts empty. */
	bool acks = s->coh && coh_frc_victim(s, b, i, e->set, e->way);
	/* Without a protocol, the sharer record (l2_sharers.c) does the same. */
	e->acks = (uint16_t)l2sh_frc_swap(s, b, i, e->set, e->way, cl->valid);
	if (e->acks) {
		acks = true;
		stat_inc(&s->stats, s->id.frc_inv_victims);
	}
	l2_port_take(s, b, (uint64_t)s->cfg.l2.frc.swap_port_cycles, s->id.l2_port_frc);
	e->victim_valid = cl->valid;
	e->victim_sd = cl->valid ? cl->sd : 0;
	uint64_t victim = cl->tag;
	cache_install(&b->c, e->set, e->way, e->incoming);
	cl->sv = e->mask | e->wmask;
	cl->sd = e->wmask;
	cl->touch = TOUCH_FILL;
	cl->touch_cycle = now;
	F_INC(s, b, swaps);
	EV_EMIT(&s->ev, EV_FRC_SWAP_DONE, .cycle = now, .unit = (int16_t)b->id, .addr = e->incoming, .set = e->set,
		.a = i, .b = e->way);
	/* Requests that came during the swap are served from the L2 line. */
	uint32_t wi;
	while ((wi = reqq_pop(&e->wait, s->pool.r)) != REQ_NIL) {
		struct req *w = &s->pool.r[wi];
		if (coherent(s, w) && (w->mask & ~cl->sv)) {
			/* sectors the fetch did not bring: look up again */
			w->t_ready = now;
			reqq_push_front(&b->inq, s->pool.r, wi);
			sim_act_l2(s, b);
			icnt_req_credit(s, b, 1);
			continue;
		}
		if (coherent(s, w)) {
			coh_l2_request(s, b, wi, e->set, e->way); /* the new block's directory answers */
			continue;
		}
		if (is_write(w) || w->type == RQ_ATOM) {
			cl->sv |= w->mask;
			cl->sd |= w->mask;
		}
		l2_reply(s, b, wi, is_write(w) ? RP_ACK : RP_DATA, (uint64_t)s->cfg.l2.hit_latency);
	}
	e->nwait = 0;
	e->tag = e->victim_valid ? victim : 0;
	e->t_swap = e->t_acked = now;
	if (acks) {
		enter(s, b, i, FRC_EVICTING); /* until the last ack (frc_evict_acked) */
		return;
	}
	evict_or_free(s, b, i);
}

void frc_handed(struct sim *s, struct l2bank *b, uint32_t mi)
{
	int i = (int)(s->pool.r[mi].mshr & ~FRC_TAG);
	struct frc_entry *e = &b->frc.e[i];
	stat_add(&s->stats, s->id.frc_ev_wb, s->st->now - e->t_acked);
	EV_EMIT(&s->ev, EV_FRC_EVICT_DONE, .cycle = s->st->now, .unit = (int16_t)b->id, .addr = e->tag, .a = i);
	enter(s, b, i, FRC_FREE);
	EV_EMIT(&s->ev, EV_FRC_FREE, .cycle = s->st->now, .unit = (int16_t)b->id, .a = i);
}

void frc_tick(struct sim *s, struct l2bank *b)
{
	struct frc *f = &b->frc;
	if (!f->swapping)
		return;
	uint64_t now = s->st->now;
	for (int i = 0; i < f->n && f->swapping; i++) {
		struct frc_entry *e = &f->e[i];
		if (e->state != FRC_SWAPPING)
			continue;
		if (e->t_done <= now)
			finish_swap(s, b, i);
		else
			sim_wake_at(s, e->t_done);
	}
}

int frc_check_invariants(const struct sim *s, const struct l2bank *b, char **err)
{
	const struct frc *f = &b->frc;
	int active = 0, swapping = 0, evicting = 0;
	for (int i = 0; i < f->n; i++) {
		const struct frc_entry *e = &f->e[i];
		if (e->state > FRC_EVICTING)
			return set_err(err, "l2 bank%d FRC entry %d: state %u is none of free/fetching/swapping/evicting", b->id,
				       i, e->state);
		active += e->state != FRC_FREE;
		swapping += e->state == FRC_SWAPPING;
		evicting += e->state == FRC_EVICTING;
		if (e->state == FRC_FREE)
			continue;
		bool in = e->state == FRC_FETCHING || e->state == FRC_SWAPPING;
		if (!in && !e->victim_valid)
			continue; /* evicting nothing: frees at once */
		if (in) {
			/* Not yet in the L2: the block must not also be a valid line there. */
			int w = cache_find(&b->c, e->set, e->tag);
			const struct cline *l = w >= 0 ? &b->c.l[(size_t)e->set * (size_t)b->c.ways + (size_t)w] : NULL;
			if (l && l->valid && !l->transient)
				return set_err(err, "l2 bank%d FRC entry %d (%s): block 0x%llx is also a valid L2 line (set %d way %d)",
					       b->id, i, frc_state_name(e->state), (unsigned long long)e->tag, e->set, w);
		}
		for (int j = i + 1; j < f->n; j++) {
			const struct frc_entry *o = &f->e[j];
			if (o->state == FRC_FREE || o->tag != e->tag)
				continue;
			bool oin = o->state == FRC_FETCHING || o->state == FRC_SWAPPING;
			if (!oin && !o->victim_valid)
				continue;
			/* Without coherence a victim's block may be fetched again while its
			 * write-back is queued (the fetch leaves behind it); with coherence
			 * requests for an evicting victim are refused. */
			if (in != oin && !s->coh)
				continue;
			return set_err(err, "l2 bank%d: block 0x%llx is in FRC entries %d (%s) and %d (%s)", b->id,
				       (unsigned long long)e->tag, i, frc_state_name(e->state), j, frc_state_name(o->state));
		}
	}
	if (active != f->active || swapping != f->swapping || evicting != f->evicting)
		return set_err(err,
			       "l2 bank%d FRC counters: active %d swapping %d evicting %d, but the entries say %d, %d, %d",
			       b->id, f->active, f->swapping, f->evicting, active, swapping, evicting);
	return 0;
}

int frc_check_stat_sums(const struct sim *s, char **err)
{
	if (!s->cfg.l2.frc.entries)
		return 0;
	static const char *const names[] = {"lookups", "allocs", "fallbacks", "hits_fetching",
					    "evicting_hits", "fills", "swaps", "evictions"};
	const struct stats *st = &s->stats;
	const struct sim_stat_ids *id = &s->id;
	const uint32_t agg[] = {id->frc_lookups, id->frc_allocs, id->frc_fallbacks, id->frc_hits_fetching,
				id->frc_evicting_hits, id->frc_fills, id->frc_swaps, id->frc_evictions};
	for (int k = 0; k < 8; k++) {
		uint64_t sum = 0;
		for (int i = 0; i < s->cfg.l2.banks; i++) {
			const struct l2_stats *bs = &s->banks[i].st;
			const uint32_t per[] = {bs->frc_lookups, bs->frc_allocs, bs->frc_fallbacks, bs->frc_hits_fetching,
						bs->frc_evicting_hits, bs->frc_fills, bs->frc_swaps, bs->frc_evictions};
			sum += stats_counter_value(st, per[k]);
		}
		uint64_t all = stats_counter_value(st, agg[k]);
		if (sum != all)
			return set_err(err, "l2.bank*.frc.%s sum to %llu but frc.%s is %llu", names[k],
				       (unsigned long long)sum, names[k], (unsigned long long)all);
	}
	return 0;
}
