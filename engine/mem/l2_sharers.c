/*
 * l2_sharers.c: the L2's record of which L1s hold a copy of each line, kept
 * without a coherence protocol (l2.sharers = record, coherence.protocol =
 * none), so that replacing a line invalidates its L1 copies first, as the
 * FRC thesis's L2 does whatever the protocol (notes 000 §1.7, "does not fully
 * reconcile"; §2.1 step 1). With a protocol the directory (coh_dir.c) does it.
 *
 *   b->shr:     words per line (set * ways + way), one bit per SM; a bit is set
 *               when the L2 answers that SM's line fetch (RQ_FETCH) with data.
 *               L1 evictions send nothing; l2.sharers = exact drops an SM
 *               whose L1 no longer holds the line when the record is used
 *               (as if the eviction had been notified, without the message),
 *               superset invalidates every recorded SM.
 *   b->frc_shr: two records per FRC entry: [2i] SMs answered from the entry
 *               while it was fetching (they become the line's at the swap),
 *               [2i + 1] the victim's sharers, invalidated from the entry.
 *
 * An invalidation is an RQ_COH request (coh_msg CM_INV) sent down with the
 * directory latency; the L1 drops its copy if it holds one (l2sh_l1_inv) and
 * answers CM_ACK, or CM_ACKD carrying its dirty sectors (write-back L1),
 * which merge into the victim. The conventional miss waits for every ack
 * before its eviction step (l2_evict_step); an FRC entry waits in EVICTING.
 */
#include <string.h>

#include "coh_eng.h"
#include "frc.h"
#include "l2_sharers.h"
#include "sim/sim_int.h"

static unsigned words(const struct sim *s)
{
	return ((unsigned)s->cfg.core.sms + 63) / 64;
}

static bool l2sh_on(const struct sim *s)
{
	return s->cfg.l2.sharers != L2SH_OFF && !s->cfg.l2.coh.protocol && s->cfg.l1.enabled;
}

void l2sh_init(struct sim *s, struct l2bank *b)
{
	if (!l2sh_on(s))
		return;
	size_t lines = (size_t)b->c.sets * (size_t)b->c.ways;
	ARENA_SET(&s->arena, b->shr, uint64_t, lines * words(s));
	if (b->frc.n)
		ARENA_SET(&s->arena, b->frc_shr, uint64_t, 2 * (size_t)b->frc.n * words(s));
}

static uint64_t *line_rec(const struct sim *s, const struct l2bank *b, int set, int way)
{
	return &b->shr[((size_t)set * (size_t)b->c.ways + (size_t)way) * words(s)];
}

static uint64_t *frc_rec(const struct sim *s, const struct l2bank *b, int i, int victim)
{
	return &b->frc_shr[(2 * (size_t)i + (size_t)victim) * words(s)];
}

static bool any(const struct sim *s, const uint64_t *w)
{
	for (unsigned k = 0; k < words(s); k++)
		if (w[k])
			return true;
	return false;
}

/* exact: does SM i's L1 still hold (or wait for) the line? An L1 eviction
 * leaves the record as a notified directory's would. */
static bool l1_holds(const struct sim *s, int i, uint64_t addr)
{
	const struct cache *c = &s->sms[i].l1.c;
	int set = cache_set(c, addr), way = cache_find(c, set, addr);
	return way >= 0 && (c->l[(size_t)set * (size_t)c->ways + (size_t)way].valid ||
	                    c->l[(size_t)set * (size_t)c->ways + (size_t)way].reserved);
}

bool l2sh_has(const struct sim *s, const struct l2bank *b, int set, int way)
{
	if (!b->shr)
		return false;
	const uint64_t *rec = line_rec(s, b, set, way);
	if (s->cfg.l2.sharers != L2SH_EXACT)
		return any(s, rec);
	uint64_t addr = b->c.l[(size_t)set * (size_t)b->c.ways + (size_t)way].tag;
	for (int i = 0; i < s->cfg.core.sms; i++)
		if ((rec[(unsigned)i >> 6] >> ((unsigned)i & 63) & 1) && l1_holds(s, i, addr))
			return true;
	return false;
}

void l2sh_clear(const struct sim *s, struct l2bank *b, int set, int way)
{
	if (b->shr)
		memset(line_rec(s, b, set, way), 0, words(s) * sizeof(uint64_t));
}

void l2sh_note_reply(struct sim *s, struct l2bank *b, const struct req *r)
{
	if (!b->shr || r->type != RQ_FETCH || r->sm >= (unsigned)s->cfg.core.sms || (r->flags & REQF_IFETCH))
		return; /* an instruction line in an L1I is read only: never invalidated */
	uint64_t bit = 1ull << (r->sm & 63);
	unsigned wd = r->sm >> 6;
	int set = l2_bank_set(s, b, r->addr);
	int way = cache_find(&b->c, set, r->addr);
	if (way >= 0 && cache_line(&b->c, set, way)->valid) {
		line_rec(s, b, set, way)[wd] |= bit;
		return;
	}
	for (int i = 0; i < b->frc.n; i++) { /* answered from an entry at its fill */
		const struct frc_entry *e = &b->frc.e[i];
		if ((e->state == FRC_FETCHING || e->state == FRC_SWAPPING) && e->incoming == r->addr) {
			frc_rec(s, b, i, 0)[wd] |= bit;
			return;
		}
	}
}

/* One Inv per recorded SM; the record is cleared. Returns the acks due. */
static unsigned send_invs(struct sim *s, struct l2bank *b, uint64_t *rec, uint64_t addr)
{
	unsigned n = 0;
	for (int i = 0; i < s->cfg.core.sms; i++) {
		if (!(rec[(unsigned)i >> 6] >> ((unsigned)i & 63) & 1))
			continue;
		if (s->cfg.l2.sharers == L2SH_EXACT && !l1_holds(s, i, addr))
			continue;
		uint32_t ri = req_alloc(&s->pool);
		if (ri == REQ_NIL)
			l2_pool_exhausted(s, "an L1 invalidation (l2.sharers)");
		struct req *r = &s->pool.r[ri];
		r->type = RQ_COH;
		r->flags = REQF_COH;
		r->coh_msg = CM_INV;
		r->sm = (uint16_t)i;
		r->addr = addr;
		r->bank = (uint16_t)b->id;
		stat_inc(&s->stats, s->id.l2sh_invs);
		EV_EMIT(&s->ev, EV_L2_INV, .cycle = s->st->now, .sm = (int16_t)i, .unit = (int16_t)b->id,
		        .addr = addr);
		l2_reply(s, b, ri, RP_COH,
		         (uint64_t)s->cfg.l2.hit_latency + (uint64_t)s->cfg.l2.coh.dir_latency);
		n++;
	}
	memset(rec, 0, words(s) * sizeof(uint64_t));
	return n;
}

unsigned l2sh_inval_line(struct sim *s, struct l2bank *b, int set, int way)
{
	if (!b->shr)
		return 0;
	return send_invs(s, b, line_rec(s, b, set, way), cache_line(&b->c, set, way)->tag);
}

unsigned l2sh_frc_swap(struct sim *s, struct l2bank *b, int i, int set, int way, bool victim_valid)
{
	if (!b->shr)
		return 0;
	uint64_t *lr = line_rec(s, b, set, way), *vr = frc_rec(s, b, i, 1), *in = frc_rec(s, b, i, 0);
	size_t n = words(s) * sizeof(uint64_t);
	memcpy(vr, lr, n);
	memcpy(lr, in, n); /* the new block's copies: those answered from the entry */
	memset(in, 0, n);
	if (!victim_valid) {
		memset(vr, 0, n);
		return 0;
	}
	return send_invs(s, b, vr, cache_line(&b->c, set, way)->tag);
}

void l2sh_frc_alloc(struct sim *s, struct l2bank *b, int i)
{
	if (b->frc_shr)
		memset(frc_rec(s, b, i, 0), 0, 2 * words(s) * sizeof(uint64_t));
}

unsigned l2sh_room_needed(const struct sim *s)
{
	return l2sh_on(s) ? (unsigned)s->cfg.core.sms : 0;
}

/* An L1 got an Inv without a coherence protocol: drop the copy, answer. */
void l2sh_l1_inv(struct sim *s, struct sm *sm, uint32_t ri)
{
	struct l1 *l = &sm->l1;
	struct req *r = &s->pool.r[ri];
	int set = cache_set(&l->c, r->addr);
	int way = cache_find(&l->c, set, r->addr);
	struct cline *cl = way >= 0 ? cache_line(&l->c, set, way) : NULL;
	uint32_t dirty = 0;
	/* A line waiting for its fill (reserved / sector fetch) is not a copy yet. */
	if (cl && cl->valid && !cl->reserved && !cl->fetching) {
		dirty = cl->sd;
		if (byp_set_decoupled(s, sm, set)) /* its committed tag goes back to candidate (bypass.c) */
			byp_line_gone(s, sm, set, r->addr);
		cl->valid = 0;
		cl->sv = cl->sd = 0;
		stat_inc(&s->stats, s->id.l2sh_l1_dropped);
		EV_EMIT(&s->ev, EV_L1_EVICT, .cycle = s->st->now, .sm = (int16_t)sm->id, .addr = r->addr,
		        .set = set);
	}
	r->type = RQ_COH;
	r->reply = RP_NONE;
	r->flags = REQF_COH;
	r->coh_msg = dirty ? CM_ACKD : CM_ACK;
	r->mask = dirty;
	r->sm = (uint16_t)sm->id;
	l1_send_down(s, l, ri);
}

/* An ack reached the L2 (coherence.protocol none). */
void l2sh_ack(struct sim *s, struct l2bank *b, uint32_t ri)
{
	struct req *r = &s->pool.r[ri];
	uint64_t addr = r->addr;
	uint32_t dirty = r->coh_msg == CM_ACKD ? r->mask : 0;
	req_free(&s->pool, ri);
	sim_progress(s);
	for (int i = 0; i < b->frc.n; i++) {
		struct frc_entry *e = &b->frc.e[i];
		if (e->state == FRC_EVICTING && e->acks && e->victim_valid && e->tag == addr) {
			e->victim_sd |= dirty;
			if (!--e->acks)
				frc_evict_acked(s, b, i);
			return;
		}
	}
	for (uint32_t k = 0; k < b->m.n; k++) {
		struct mshr_ent *me = &b->m.e[k];
		if (me->state == ME_EVICTING && b->inv_acks[k] && me->victim == addr) {
			struct cline *cl = cache_line(&b->c, me->set, me->way);
			cl->sd |= dirty;
			cl->sv |= dirty;
			if (!--b->inv_acks[k]) {
				b->mlat[3 * k] = s->st->now; /* miss latency split: invalidation over */
				l2_evict_step(s, b, k);
			}
			return;
		}
	}
	stat_inc(&s->stats, s->id.l2sh_stray_acks); /* nothing waits for it: a bug */
}
