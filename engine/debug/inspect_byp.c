/* inspect_byp.c: read-only accessors for the locality policies: the decoupled
 * tag store of bypassing (bypass.h) and the VWS estimator (vws.h). */
#include <string.h>

#include "sim/sim_int.h"

bool inspect_bypass(const struct sim *s, int sm, struct byp_info *o)
{
	if (sm < 0 || sm >= s->cfg.core.sms)
		return false;
	const struct l1 *l = &s->sms[sm].l1;
	/* role: the SM's with SM leaders; -1 with leader sets (roles are per set: byp_role) */
	*o = (struct byp_info){.mode = s->cfg.l1.bypass,
			       .threshold = s->cfg.l1.bypass_threshold,
			       .decoupled = byp_decoupled(s, &s->sms[sm]),
			       .role = s->cfg.l1.bypass == L1B_LOCALITY && s->cfg.l1.bypass_leaders == BYPL_SMS ? byp_role(s, &s->sms[sm], 0) : -1,
			       .leader_sets = s->cfg.l1.bypass_leaders == BYPL_SETS,
			       .last_diff = s->duel ? s->duel->last_diff : 0,
			       .bypasses = stats_counter_value(&s->stats, l->st.bypasses)};
	if (l->bt.t) {
		o->sets = l->bt.sets;
		o->ways = l->bt.ways;
	}
	return true;
}

bool inspect_duel(const struct sim *s, struct duel_info *o)
{
	const struct byp_duel *d = s->duel;
	if (!byp_dueling(s))
		return false;
	*o = (struct duel_info){.followers_decoupled = d->followers,
				.last_at = d->last_at,
				.closed_at = d->last_closed,
				.diff_permille = d->last_diff,
				.limit_points = s->cfg.l1.bypass_duel_diff,
				.interval = s->cfg.l1.bypass_duel_interval};
	for (int g = 0; g < 2; g++) {
		o->acc[g] = d->last_acc[g];
		o->miss[g] = d->last_miss[g];
	}
	o->margin_points = byp_duel_margin_points(o->miss[0], o->acc[0], o->miss[1], o->acc[1]);
	o->unsure = byp_duel_unsure(o->limit_points, o->diff_permille, o->miss[0], o->acc[0], o->miss[1], o->acc[1]);
	o->unsure_hold = s->cfg.l1.bypass_duel_unsure_hold;
	o->cold_hold = s->cfg.l1.bypass_duel_cold_hold;
	o->open_end = d->next_at;
	memcpy(o->open_acc, d->iv_acc, sizeof o->open_acc);
	memcpy(o->open_miss, d->iv_miss, sizeof o->open_miss);
	o->closed = d->hist_n;
	return true;
}

int inspect_duel_history(const struct sim *s, struct duel_iv_info *out, int max)
{
	struct duel_info di;
	if (!inspect_duel(s, &di) || max <= 0)
		return 0;
	const struct byp_duel *d = s->duel;
	uint32_t n = d->hist_n < BYP_DUEL_HISTORY ? d->hist_n : BYP_DUEL_HISTORY;
	if (n > (uint32_t)max)
		n = (uint32_t)max;
	for (uint32_t i = 0; i < n; i++) {
		const struct byp_iv *h = &d->hist[(d->hist_n - n + i) % BYP_DUEL_HISTORY];
		out[i] = (struct duel_iv_info){.end = h->end,
					       .diff_permille = h->diff,
					       .outcome = h->outcome,
					       .followers_decoupled = h->followers};
		memcpy(out[i].acc, h->acc, sizeof out[i].acc);
		memcpy(out[i].miss, h->miss, sizeof out[i].miss);
		out[i].margin_points = byp_duel_margin_points(h->miss[0], h->acc[0], h->miss[1], h->acc[1]);
		out[i].unsure = h->outcome >= BYPIV_KEPT &&
				byp_duel_unsure(di.limit_points, h->diff, h->miss[0], h->acc[0], h->miss[1], h->acc[1]);
	}
	return (int)n;
}

int inspect_bypass_set_role(const struct sim *s, int sm, int set)
{
	if (sm < 0 || sm >= s->cfg.core.sms || s->cfg.l1.bypass != L1B_LOCALITY || set < 0 || set >= s->cfg.l1.sets)
		return -1;
	return byp_role(s, &s->sms[sm], set);
}

bool inspect_bypass_tag(const struct sim *s, int sm, int set, int way, struct btag_info *o)
{
	if (sm < 0 || sm >= s->cfg.core.sms)
		return false;
	const struct byp_tags *b = &s->sms[sm].l1.bt;
	if (!b->t || set < 0 || set >= b->sets || way < 0 || way >= b->ways)
		return false;
	const struct btag *t = &b->t[(size_t)set * (size_t)b->ways + (size_t)way];
	*o = (struct btag_info){.valid = t->valid, .addr = t->tag, .rc = t->rc, .pos = t->pos, .lru_rank = -1};
	if (!t->valid)
		return true;
	int rank = 0;
	for (int w = 0; w < b->ways; w++) {
		const struct btag *u = &b->t[(size_t)set * (size_t)b->ways + (size_t)w];
		rank += u->valid && u->stamp > t->stamp;
	}
	o->lru_rank = rank;
	o->touched = t->touch_cycle + 1 == s->st->now && s->st->now ? (enum btag_touch_kind)t->touch : BTT_NONE;
	return true;
}

bool inspect_vws(const struct sim *s, int sm, struct vws_info *o)
{
	if (sm < 0 || sm >= s->cfg.core.sms || !s->sms[sm].vws)
		return false;
	const struct sm *m = &s->sms[sm];
	const struct vws_sm *v = m->vws;
	*o = (struct vws_info){.post = v->post, .nact = (int)v->nact, .npred = (int)vws_npred(s),
			       .ws_x256 = (v->ws_q + 128) >> 8, .rr_x256 = (v->rr_q + 128) >> 8, .finished = v->finished,
			       .active_mask = vws_active_mask(s, m), .window_mask = vws_window_mask(s, m),
			       .intercl = s->cfg.core.vws_intercl, .level1_cap = (int)vws_cap(s, m)};
	for (int i = 0; o->intercl && i < s->cfg.core.warps_per_sm; i++)
		o->level1 += m->w[i].state == WSL_ACTIVE && m->w[i].in_pool;
	if (!o->intercl)
		o->level1 = __builtin_popcountll(o->window_mask);
	return true;
}

bool inspect_vws_warp(const struct sim *s, int sm, int slot, struct vws_warp_info *o)
{
	if (sm < 0 || sm >= s->cfg.core.sms || !s->sms[sm].vws || slot < 0 || slot >= s->cfg.core.warps_per_sm)
		return false;
	const struct sm *m = &s->sms[sm];
	const struct warp *w = &m->w[slot];
	*o = (struct vws_warp_info){.why = vws_why_name(VWS_WHY_NONE)};
	if (w->state != WSL_ACTIVE)
		return true;
	o->acc = w->vws_acc;
	o->miss = w->vws_miss;
	o->rr_x256 = (uint32_t)w->vws_acc * 256 / (w->vws_miss ? w->vws_miss : 1);
	bool in_win = vws_window_mask(s, m) >> slot & 1;
	if (s->cfg.core.vws_intercl && w->in_pool) {
		o->level = 1;
		o->why = vws_why_name((enum vws_why)m->vws->why[slot]);
		o->promoted_at = m->vws->promoted_at[slot];
	} else if (!s->cfg.core.vws_intercl && in_win) {
		o->level = 1;
	} else {
		o->level = in_win || w->at_barrier ? 2 : 3;
	}
	return true;
}
