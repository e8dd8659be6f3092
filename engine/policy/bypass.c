/*
 * bypass.c: the decoupled tag store, reference counts, LFU tag replacement,
 * aging and SM dueling of locality-driven L1 bypassing (notes 004 §2; the
 * structure and its rules are drawn in bypass.h). l1.c asks byp_probe() what
 * a load lookup would do and calls one byp_apply_*() once the lookup is
 * accepted. Whether a bypassed load the L2 cannot take waits at the head of
 * the bank's input queue (l1.bypass_at_l2) is l2_wait.c's test.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_int.h"

static struct btag *btag(struct byp_tags *b, int set, int way) { return &b->t[(size_t)set * (size_t)b->ways + (size_t)way]; }
static const struct btag *cbtag(const struct byp_tags *b, int set, int way)
{
	return &b->t[(size_t)set * (size_t)b->ways + (size_t)way];
}

static bool locality(const struct sim *s) { return s->cfg.l1.bypass == L1B_LOCALITY; }
static bool by_sets(const struct sim *s) { return s->cfg.l1.bypass_leaders == BYPL_SETS; }
/* No dueling with T = 0 either: that is the plain L1 (no set is decoupled),
 * whose two "leader groups" would be two plain samples and whose switches
 * would change nothing but l1.duel_switches. */
static bool dueling(const struct sim *s)
{
	return locality(s) && s->cfg.l1.bypass_duel && s->cfg.l1.bypass_threshold > 0 &&
	       (by_sets(s) ? s->cfg.l1.sets >= 2 : s->cfg.core.sms >= 2);
}

bool byp_dueling(const struct sim *s) { return dueling(s) && s->duel; }

/* Dueling role of a set of an SM: 0 decoupled leader, 1 plain leader, 2
 * follower. Leader sets: one of each mode in every group of P consecutive
 * sets. complement: in group c of SM i the decoupled leader sits at offset
 * o = (c + i) mod P and the plain one at its complement P - 1 - o (Qureshi et
 * al.'s complement-select, rotated per SM so that the SMs sample different
 * sets); fixed: offsets 0 and P/2 in every group of every SM. */
static int role_of(const struct sim *s, const struct sm *sm, int set)
{
	if (!by_sets(s))
		return sm->id < 2 ? sm->id : 2;
	int period = s->cfg.l1.sets / s->cfg.l1.bypass_duel_sets, r = set % period;
	if (s->cfg.l1.bypass_leader_select == BYPLS_FIXED)
		return r == 0 ? 0 : r == period / 2 ? 1 : 2;
	/* l1.sets and n are powers of two (validated), so P is even and o != P - 1 - o */
	int o = (int)(((unsigned)(set / period) + (unsigned)sm->id) % (unsigned)period);
	return r == o ? 0 : r == period - 1 - o ? 1 : 2;
}

void byp_register_stats(struct sim *s)
{
	struct stats *st = &s->stats;
	struct sim_stat_ids *id = &s->id;
	static const uint64_t rc_edges[] = {0, 1, 2, 3, 4, 6, 8, 16, 32, 63};
	id->l1_bypasses = stats_counter(st, "l1.bypasses", "loads sent to the L2 without an L1 line or MSHR, all SMs");
	id->l1_tag_hits = stats_counter(st, "l1.tag_hits", "locality: lookups that found a tag without a data line");
	id->l1_tag_allocs = stats_counter(st, "l1.tag_allocs", "locality: tags allocated on a tag-store miss");
	id->l1_tag_promotes = stats_counter(st, "l1.tag_promotes", "locality: candidates given a data line (RC over the threshold)");
	id->l1_tag_evicts = stats_counter(st, "l1.tag_evicts", "locality: candidate tags replaced (LFU)");
	id->l1_duel_switches = stats_counter(st, "l1.duel_switches", "locality: follower mode changes by dueling");
	id->l2_byp_waits = stats_counter(st, "l2.bypass_waits",
					 "bypassed loads that waited at the head of an L2 input queue for an MSHR entry, a merge slot, "
					 "memory-queue room or a line in transition (l1.bypass_at_l2 = queue; nack refuses them instead)");
	id->l1_rc_hist = stats_hist(st, "l1.rc_at_evict", "locality: RC of tags when they leave the tag store", rc_edges,
				    ARRAY_LEN(rc_edges));
	id->l1_mrpb_mshr = stats_counter(st, "l1.bypasses_mshr", "mrpb: loads bypassed because no MSHR entry or merge slot was free");
	id->l1_mrpb_resv = stats_counter(st, "l1.bypasses_resv", "mrpb: loads bypassed because every way of their set was reserved");
	stats_ratio(st, "l1.bypass_rate", "l1.bypasses / l1.accesses", "l1.bypasses", "l1.accesses", 1.0);
}

void byp_init(struct sim *s, struct sm *sm)
{
	struct byp_tags *b = &sm->l1.bt;
	char name[64];
	snprintf(name, sizeof name, "sm%d.l1.bypasses", sm->id);
	sm->l1.st.bypasses = stats_counter(&s->stats, name, "loads this L1 sent to the L2 without a line or MSHR");
	if (!locality(s))
		return;
	b->sets = s->cfg.l1.sets;
	b->ways = s->cfg.l1.bypass_tag_ways;
	ARENA_SET(&s->arena, b->t, struct btag, (size_t)b->sets * (size_t)b->ways);
	for (int i = 0; i < b->sets * b->ways; i++)
		b->t[i].pos = -1;
	/* Leaders (SM0 / SM1, or sets in every SM) keep their mode; followers
	 * start plain (notes 004 §2.5). b->decoupled is the followers' mode. */
	b->decoupled = !dueling(s) || (!by_sets(s) && sm->id == 0);
	if (sm->id == 0 && !s->duel) {
		ARENA_SET(&s->arena, s->duel, struct byp_duel, 1);
		s->duel->next_at = (uint64_t)s->cfg.l1.bypass_duel_interval;
	}
}

bool byp_decoupled(const struct sim *s, const struct sm *sm)
{
	return locality(s) && sm->l1.bt.decoupled && s->cfg.l1.bypass_threshold > 0;
}

bool byp_set_decoupled(const struct sim *s, const struct sm *sm, int set)
{
	if (!locality(s) || s->cfg.l1.bypass_threshold == 0)
		return false;
	if (!dueling(s) || !by_sets(s))
		return sm->l1.bt.decoupled;
	int r = role_of(s, sm, set);
	return r == 0 ? true : r == 1 ? false : sm->l1.bt.decoupled;
}

int byp_role(const struct sim *s, const struct sm *sm, int set)
{
	return dueling(s) ? role_of(s, sm, set) : -1;
}

static int find(const struct byp_tags *b, int set, uint64_t addr)
{
	for (int w = 0; w < b->ways; w++) {
		const struct btag *t = cbtag(b, set, w);
		if (t->valid && t->tag == addr)
			return w;
	}
	return -1;
}

static void touch(struct sim *s, struct byp_tags *b, struct btag *t, uint8_t how)
{
	t->stamp = ++b->clock;
	t->touch = how;
	t->touch_cycle = s->st->now;
}

/* Decrement every valid tag of the set except two ways. */
static void age(struct byp_tags *b, int set, int ex1, int ex2)
{
	for (int w = 0; w < b->ways; w++) {
		struct btag *t = btag(b, set, w);
		if (t->valid && w != ex1 && w != ex2 && t->rc)
			t->rc--;
	}
}

/* Rebuild a follower's tag store from its data store: every present line
 * becomes a committed entry with RC 0 (notes 004 §2.4 item 11). */
static void rebuild(const struct sim *s, struct sm *sm)
{
	struct byp_tags *b = &sm->l1.bt;
	struct cache *c = &sm->l1.c;
	for (int set = 0; set < b->sets; set++) {
		if (role_of(s, sm, set) != 2)
			continue; /* leaders keep their tags */
		int tw = 0;
		memset(btag(b, set, 0), 0, sizeof(*b->t) * (size_t)b->ways);
		for (int w = 0; w < b->ways; w++)
			btag(b, set, w)->pos = -1;
		for (int dw = 0; dw < c->ways; dw++) {
			const struct cline *cl = cache_line(c, set, dw);
			if (!cl->valid && !cl->reserved)
				continue;
			struct btag *t = btag(b, set, tw++);
			*t = (struct btag){.tag = cl->tag, .valid = 1, .pos = (int8_t)dw, .stamp = ++b->clock};
		}
	}
}

double byp_duel_margin_points(uint32_t m0, uint32_t a0, uint32_t m1, uint32_t a1)
{
	double p0 = (m0 + 1.0) / (a0 + 2.0), p1 = (m1 + 1.0) / (a1 + 2.0);
	return 196.0 * sqrt(p0 * (1 - p0) / (a0 + 2.0) + p1 * (1 - p1) / (a1 + 2.0));
}

bool byp_duel_unsure(int limit_points, int32_t diff_permille, uint32_t m0, uint32_t a0, uint32_t m1, uint32_t a1)
{
	return fabs(diff_permille / 10.0 - limit_points) <= byp_duel_margin_points(m0, a0, m1, a1);
}

/* The paper's rule on the closed interval h (its counts filled in): the
 * outcome (enum byp_iv_outcome), h->diff set when the rule decided. */
static uint8_t duel_rule(const struct sim *s, uint8_t followers, struct byp_iv *h)
{
	const struct l1_cfg *c = &s->cfg.l1;
	if (!h->acc[0] || !h->acc[1])
		return BYPIV_NO_LOOKUP;
	/* An interval in which both leader groups missed every lookup (cold
	 * misses, a streaming phase): no change under the cold hold. */
	if (h->miss[0] == h->acc[0] && h->miss[1] == h->acc[1] && c->bypass_duel_cold_hold)
		return BYPIV_COLD_HELD;
	/* per mille, integer arithmetic: 1000 * (m0/a0 - m1/a1) */
	int64_t diff = ((int64_t)h->miss[0] * 1000 * (int64_t)h->acc[1] - (int64_t)h->miss[1] * 1000 * (int64_t)h->acc[0]) /
		       ((int64_t)h->acc[0] * (int64_t)h->acc[1]);
	h->diff = (int32_t)diff;
	uint8_t want = diff > (int64_t)c->bypass_duel_diff * 10 ? 0 : 1;
	if (want == followers)
		return BYPIV_KEPT;
	/* l1.bypass_duel_unsure_hold: counts too few to put the difference on
	 * one side of the limit change nothing. */
	bool unsure = byp_duel_unsure(c->bypass_duel_diff, h->diff, h->miss[0], h->acc[0], h->miss[1], h->acc[1]);
	return unsure && c->bypass_duel_unsure_hold ? BYPIV_UNSURE_HELD : BYPIV_SWITCHED;
}

void byp_duel_update(struct sim *s)
{
	if (!dueling(s))
		return;
	struct byp_duel *d = s->duel;
	uint64_t now = s->st->now, iv = (uint64_t)s->cfg.l1.bypass_duel_interval;
	if (now < d->next_at)
		return;
	uint64_t boundary = d->next_at;
	struct byp_iv *h = &d->hist[d->hist_n++ % BYP_DUEL_HISTORY];
	*h = (struct byp_iv){.end = boundary};
	memcpy(h->acc, d->iv_acc, sizeof h->acc);
	memcpy(h->miss, d->iv_miss, sizeof h->miss);
	h->outcome = duel_rule(s, d->followers, h);
	if (h->acc[0] && h->acc[1]) {
		memcpy(d->last_acc, d->iv_acc, sizeof d->last_acc);
		memcpy(d->last_miss, d->iv_miss, sizeof d->last_miss);
		d->last_at = boundary;
		d->last_closed = now;
	}
	if (h->outcome >= BYPIV_KEPT)
		d->last_diff = h->diff;
	if (h->outcome == BYPIV_SWITCHED) {
		uint8_t want = !d->followers;
		d->followers = want;
		stat_inc(&s->stats, s->id.l1_duel_switches);
		EV_EMIT(&s->ev, EV_L1_DUEL_SWITCH, .cycle = boundary, .sm = -1, .a = want, .b = h->diff);
		for (int i = by_sets(s) ? 0 : 2; i < s->cfg.core.sms; i++) {
			s->sms[i].l1.bt.decoupled = want;
			if (want)
				rebuild(s, &s->sms[i]);
		}
	}
	h->followers = d->followers;
	d->iv_acc[0] = d->iv_miss[0] = d->iv_acc[1] = d->iv_miss[1] = 0;
	/* Intervals after the first that ended before now had no lookups. */
	d->next_at += iv * (1 + (now - boundary) / iv);
}

void byp_duel_count(struct sim *s, struct sm *sm, int set, bool miss)
{
	if (!dueling(s))
		return;
	int r = role_of(s, sm, set);
	if (r > 1)
		return;
	s->duel->iv_acc[r]++;
	s->duel->iv_miss[r] += miss;
}

void byp_probe(const struct sim *s, const struct sm *sm, int set, uint64_t addr, struct byp_probe *p)
{
	const struct byp_tags *b = &sm->l1.bt;
	int w = find(b, set, addr);
	p->way = w;
	p->reason = 0;
	if (w < 0) {
		p->kind = BYPK_BYPASS;
		p->rc = 1;
		return;
	}
	const struct btag *t = cbtag(b, set, w);
	if (t->pos >= 0) {
		p->kind = BYPK_PLAIN;
		p->rc = t->rc;
		return;
	}
	p->rc = t->rc < BYP_RC_MAX ? t->rc + 1 : BYP_RC_MAX;
	p->reason = 1;
	p->kind = p->rc > s->cfg.l1.bypass_threshold ? BYPK_ALLOC : BYPK_BYPASS;
}

/* LFU victim among candidates: invalid first, then the smallest RC, ties to
 * the least recently used. Committed entries are never chosen. */
static int lfu_victim(const struct byp_tags *b, int set)
{
	int best = -1;
	for (int w = 0; w < b->ways; w++) {
		const struct btag *t = cbtag(b, set, w);
		if (!t->valid)
			return w;
		if (t->pos >= 0)
			continue;
		const struct btag *bt = best >= 0 ? cbtag(b, set, best) : NULL;
		if (!bt || t->rc < bt->rc || (t->rc == bt->rc && t->stamp < bt->stamp))
			best = w;
	}
	return best;
}

void byp_apply_bypass(struct sim *s, struct sm *sm, int set, uint64_t addr, int warp, const struct byp_probe *p)
{
	struct byp_tags *b = &sm->l1.bt;
	int w = p->way;
	/* An LFU candidate exists while byp_check_invariants holds (tag ways >
	 * data ways); without one the load would bypass untracked. */
	if (w < 0)
		w = lfu_victim(b, set);
	if (p->way < 0 && w >= 0) {
		struct btag *v = btag(b, set, w);
		if (v->valid) {
			stat_inc(&s->stats, s->id.l1_tag_evicts);
			stat_hist_add(&s->stats, s->id.l1_rc_hist, v->rc);
			EV_EMIT(&s->ev, EV_L1_TAG_EVICT, .cycle = s->st->now, .sm = (int16_t)sm->id, .addr = v->tag,
				.set = set, .a = v->rc, .b = w);
		}
		*v = (struct btag){.tag = addr, .valid = 1, .rc = 1, .pos = -1};
		stat_inc(&s->stats, s->id.l1_tag_allocs);
		touch(s, b, v, BT_ALLOC);
	} else if (p->way >= 0) {
		struct btag *t = btag(b, set, w);
		t->rc = (uint8_t)p->rc;
		stat_inc(&s->stats, s->id.l1_tag_hits);
		touch(s, b, t, BT_INC);
	}
	stat_inc(&s->stats, sm->l1.st.bypasses);
	stat_inc(&s->stats, s->id.l1_bypasses);
	EV_EMIT(&s->ev, EV_L1_BYPASS, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)warp, .addr = addr,
		.set = set, .a = p->way < 0 ? BYPEV_TAG_MISS : BYPEV_LOW_RC, .b = p->rc);
}

void byp_count_all(struct sim *s, struct sm *sm, int set, uint64_t addr, int warp)
{
	stat_inc(&s->stats, sm->l1.st.bypasses);
	stat_inc(&s->stats, s->id.l1_bypasses);
	EV_EMIT(&s->ev, EV_L1_BYPASS, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)warp, .addr = addr,
		.set = set, .a = BYPEV_ALL, .b = 0);
}

void byp_count_resfail(struct sim *s, struct sm *sm, int set, uint64_t addr, int warp, int reason)
{
	stat_inc(&s->stats, sm->l1.st.bypasses);
	stat_inc(&s->stats, s->id.l1_bypasses);
	stat_inc(&s->stats, reason == BYPR_RESERVED ? s->id.l1_mrpb_resv : s->id.l1_mrpb_mshr);
	EV_EMIT(&s->ev, EV_L1_BYPASS, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)warp, .addr = addr,
		.set = set, .a = BYPEV_MRPB, .b = reason);
}

void byp_apply_committed(struct sim *s, struct sm *sm, int set, uint64_t addr, bool hit)
{
	struct byp_tags *b = &sm->l1.bt;
	int w = find(b, set, addr);
	if (w < 0)
		return;
	struct btag *t = btag(b, set, w);
	if (hit && t->rc < BYP_RC_MAX)
		t->rc++;
	touch(s, b, t, BT_HIT);
}

/* Owner of data way dway loses its line: candidate with RC 0. Returns its tag way. */
static int drop_owner(struct sim *s, struct byp_tags *b, int set, int dway)
{
	for (int w = 0; w < b->ways; w++) {
		struct btag *t = btag(b, set, w);
		if (t->valid && t->pos == dway) {
			t->pos = -1;
			t->rc = 0;
			t->touch = BT_RESET;
			t->touch_cycle = s->st->now;
			return w;
		}
	}
	return -1;
}

void byp_apply_alloc(struct sim *s, struct sm *sm, int set, uint64_t addr, const struct byp_probe *p, int dway)
{
	struct byp_tags *b = &sm->l1.bt;
	(void)addr;
	int x = p->way;
	const struct cline *cl = cache_line(&sm->l1.c, set, dway);
	int y = -1;
	if (cl->valid) { /* data-store eviction: its owner goes back to candidate */
		y = drop_owner(s, b, set, dway);
		if (s->cfg.l1.bypass_aging == 2)
			age(b, set, x, y);
	}
	struct btag *t = btag(b, set, x);
	t->rc = (uint8_t)p->rc;
	t->pos = (int8_t)dway;
	touch(s, b, t, BT_PROMOTE);
	age(b, set, x, y);
	stat_inc(&s->stats, s->id.l1_tag_hits);
	stat_inc(&s->stats, s->id.l1_tag_promotes);
	EV_EMIT(&s->ev, EV_L1_TAG_PROMOTE, .cycle = s->st->now, .sm = (int16_t)sm->id, .addr = t->tag, .set = set,
		.a = p->rc, .b = dway);
}

void byp_line_gone(struct sim *s, struct sm *sm, int set, uint64_t addr)
{
	struct byp_tags *b = &sm->l1.bt;
	int w = find(b, set, addr);
	if (w < 0 || btag(b, set, w)->pos < 0)
		return;
	drop_owner(s, b, set, btag(b, set, w)->pos);
	if (s->cfg.l1.bypass_gone_ages)
		age(b, set, w, -1);
}

/* In a decoupled set (a leader, or a follower in decoupled mode) the tag store
 * and the data store agree: each committed tag points to its own data way,
 * which holds (or is reserved for) the tag's block, and each valid or
 * reserved line has a committed tag. Plain sets are not kept (followers
 * rebuild their tags when they turn decoupled). A line dropped without
 * byp_line_gone breaks this, and enough such lines leave a tag set with no
 * candidate for the LFU victim. */
static int check_set(const struct sm *sm, int set, char **err)
{
	const struct byp_tags *b = &sm->l1.bt;
	struct cache *c = (struct cache *)&sm->l1.c; /* cache_line() is not const; only read here */
	for (int w = 0; w < b->ways; w++) {
		const struct btag *t = cbtag(b, set, w);
		if (!t->valid || t->pos < 0)
			continue;
		if (t->pos >= c->ways)
			return set_err(err, "sm%d L1 set %d: tag way %d points to data way %d of %d", sm->id, set, w,
				       t->pos, c->ways);
		for (int w2 = w + 1; w2 < b->ways; w2++)
			if (cbtag(b, set, w2)->valid && cbtag(b, set, w2)->pos == t->pos)
				return set_err(err, "sm%d L1 set %d: tag ways %d and %d both own data way %d", sm->id,
					       set, w, w2, t->pos);
		const struct cline *cl = cache_line(c, set, t->pos);
		if (!(cl->valid || cl->reserved) || cl->tag != t->tag)
			return set_err(err, "sm%d L1 set %d: committed tag 0x%llx (tag way %d) owns data way %d, which %s 0x%llx",
				       sm->id, set, (unsigned long long)t->tag, w, t->pos,
				       cl->valid || cl->reserved ? "holds" : "is empty, last", (unsigned long long)cl->tag);
	}
	for (int dw = 0; dw < c->ways; dw++) {
		const struct cline *cl = cache_line(c, set, dw);
		if (!(cl->valid || cl->reserved))
			continue;
		int w = find(b, set, cl->tag);
		if (w < 0 || cbtag(b, set, w)->pos != dw)
			return set_err(err, "sm%d L1 set %d: data way %d holds 0x%llx without a committed tag", sm->id,
				       set, dw, (unsigned long long)cl->tag);
	}
	return 0;
}

int byp_check_invariants(const struct sim *s, char **err)
{
	if (!locality(s))
		return 0;
	for (int i = 0; i < s->cfg.core.sms; i++)
		for (int set = 0; set < s->sms[i].l1.bt.sets; set++)
			if (byp_set_decoupled(s, &s->sms[i], set) && check_set(&s->sms[i], set, err))
				return -1;
	return 0;
}
