/*
 * vws.c: the VWS working-set estimator and active window (vws.h).
 */
#include "vws.h"

#include <stdio.h>

#include "sim/sim_int.h"

static bool vws_on(const struct sim *s) { return s->cfg.core.scheduler == SCHED_VWS; }

uint32_t vws_npred(const struct sim *s)
{
	/* Eq. 4.2 with N_CTA = grid CTAs / N_SM (the footnote's double division fixed). */
	uint64_t num = (uint64_t)s->cfg.core.vws_alpha_pct * s->nctas * s->threads_per_cta;
	uint64_t den = 100ull * (uint64_t)s->cfg.core.warp_size * (uint64_t)s->cfg.core.sms;
	uint64_t n = (num + den - 1) / den;
	return n ? (uint32_t)n : 1;
}

static const char *const why_names[VWS_WHY__COUNT] = {"-", "same", "pred", "succ", "old"};

const char *vws_why_name(enum vws_why w) { return (unsigned)w < VWS_WHY__COUNT ? why_names[w] : "?"; }

void vws_init(struct sim *s, struct sm *sm)
{
	if (!vws_on(s))
		return;
	ARENA_SET(&s->arena, sm->vws, struct vws_sm, 1);
	if (sm == &s->sms[0]) {
		static const char *const sn[VWS_WHY__COUNT] = {NULL, "vws.promote_same_cta", "vws.promote_pred_cta",
								"vws.promote_succ_cta", "vws.promote_oldest"};
		static const char *const sd[VWS_WHY__COUNT] = {
			NULL, "vws InterCL: level-2 warps promoted because their CTA had warps in level 1",
			"vws InterCL: promoted as the predecessor CTA of a level-1 CTA",
			"vws InterCL: promoted as the successor CTA of a level-1 CTA",
			"vws InterCL: promoted with no CTA relation (oldest first)"};
		for (int k = 1; k < VWS_WHY__COUNT; k++)
			sm->vws->st_promote[k] = stats_counter(&s->stats, sn[k], sd[k]);
		sm->vws->st_demote = stats_counter(&s->stats, "vws.demotions",
						   "vws InterCL: level-1 warps demoted (load wait or barrier)");
		sm->vws->st_changes = stats_counter(&s->stats, "vws.window_changes",
						    "vws IWL: changes of N_act (the active-warp window) at warp completions, all SMs");
	} else {
		for (int k = 1; k < VWS_WHY__COUNT; k++)
			sm->vws->st_promote[k] = s->sms[0].vws->st_promote[k];
		sm->vws->st_demote = s->sms[0].vws->st_demote;
		sm->vws->st_changes = s->sms[0].vws->st_changes;
	}
	char name[64];
	snprintf(name, sizeof name, "sm%d.vws.window", sm->id);
	sm->vws->st_window = stats_occupancy(&s->stats, name, "vws IWL: N_act, the active-warp window, over time (mean, max)",
					     (uint64_t)s->cfg.core.warps_per_sm);
	snprintf(name, sizeof name, "sm%d.vws.sampling_end", sm->id);
	sm->vws->st_sampling_end = stats_counter(&s->stats, name,
						 "vws IWL: cycle at which the SM's sampling stage ended (N_pred completions; 0 = never)");
	sm->vws->nact = (uint32_t)s->cfg.core.warps_per_sm;
	if (s->cfg.core.vws_nact) { /* fixed window (teaching and tests) */
		sm->vws->nact = (uint32_t)s->cfg.core.vws_nact;
		sm->vws->post = 1;
	}
}

void vws_on_access(struct sim *s, struct sm *sm, int warp, uint64_t addr, bool miss)
{
	if (!sm->vws || !s->cfg.core.vws_iwl)
		return;
	struct warp *w = &sm->w[warp];
	if (w->vws_acc < 1023)
		w->vws_acc++;
	if (!miss)
		return;
	uint64_t i = (addr / (uint64_t)s->cfg.l1.line) % VWS_AMT_BITS;
	if (sm->vws->amt[i >> 6] >> (i & 63) & 1)
		return;
	sm->vws->amt[i >> 6] |= 1ull << (i & 63);
	if (w->vws_miss < 1023)
		w->vws_miss++;
}

/* Eq. 4.1 / 4.4: the average moves halfway to the new value, rounded to
 * nearest (truncating kept a steady RRDegr of 8 one unit in the last place
 * below 8, so Eq. 4.6's ceil gave 9 where the thesis gives 8). */
static uint32_t halfway(uint32_t avg, uint32_t x) { return (uint32_t)(((uint64_t)avg + x + 1) / 2); }

/* Eq. 4.6: ceil(beta * L1 blocks / (WS * RRDegr)), clamped to [1, warps]. */
static uint32_t eq46(const struct sim *s, const struct vws_sm *v)
{
	uint64_t blocks = (uint64_t)s->cfg.l1.sets * (uint64_t)s->cfg.l1.ways;
	uint64_t prod = (uint64_t)v->ws_q * v->rr_q; /* x 2^(2 VWS_FRAC) */
	uint64_t max = (uint64_t)s->cfg.core.warps_per_sm;
	if (prod == 0) /* no L1 access: nothing to protect */
		return (uint32_t)max;
	uint64_t n = (((uint64_t)s->cfg.core.vws_beta * blocks << (2 * VWS_FRAC)) + prod - 1) / prod;
	return (uint32_t)(n < 1 ? 1 : n > max ? max : n);
}

void vws_on_warp_done(struct sim *s, struct sm *sm, int warp)
{
	struct vws_sm *v = sm->vws;
	if (!v || !s->cfg.core.vws_iwl || s->cfg.core.vws_nact)
		return;
	struct warp *w = &sm->w[warp];
	uint32_t wsn = w->vws_miss ? w->vws_miss : 1;
	uint32_t ws = wsn << VWS_FRAC;
	uint32_t rr = (uint32_t)((((uint64_t)w->vws_acc << VWS_FRAC) + wsn / 2) / wsn); /* Eq. 4.5 */
	v->ws_q = v->est_valid ? halfway(v->ws_q, ws) : ws; /* the first completion sets them */
	v->rr_q = v->est_valid ? halfway(v->rr_q, rr) : rr;
	v->est_valid = 1;
	v->finished++;
	uint32_t np = vws_npred(s);
	if (v->finished % np == 0)
		for (int k = 0; k < VWS_AMT_BITS / 64; k++)
			v->amt[k] = 0;
	if (v->finished >= np && !v->post) {
		v->post = 1;
		stat_add(&s->stats, v->st_sampling_end, s->st->now);
	}
	if (v->post) {
		uint32_t n = eq46(s, v);
		if (v->nact != n) {
			stat_inc(&s->stats, v->st_changes);
			stat_occ_set(&s->stats, v->st_window, n);
		}
		v->nact = n;
	}
}

/* Rank key: IntraCL = launch order; otherwise warp-in-CTA index first. */
static uint64_t rank_key(const struct sim *s, const struct sm *sm, int i)
{
	const struct warp *w = &sm->w[i];
	if (s->cfg.core.vws_intracl)
		return w->age;
	return ((uint64_t)w->kw.warp_in_cta << 40) | w->age;
}

static bool intercl(const struct sim *s) { return s->cfg.core.vws_intercl; }

uint32_t vws_cap(const struct sim *s, const struct sm *sm)
{
	uint32_t cap = sm->vws->nact;
	if (intercl(s) && cap > (uint32_t)s->cfg.core.vws_level1)
		cap = (uint32_t)s->cfg.core.vws_level1;
	return cap;
}

static bool live(const struct warp *w) { return w->state == WSL_ACTIVE; }

/* The IWL/IntraCL window: the first N_act live warps not at a barrier, in
 * rank order. */
static uint64_t window(const struct sim *s, const struct sm *sm)
{
	int n = s->cfg.core.warps_per_sm;
	uint32_t cap = sm->vws->nact, k = 0;
	uint64_t taken = 0;
	if (cap >= (uint32_t)n) { /* no throttling: every such warp */
		for (int i = 0; i < n; i++)
			if (live(&sm->w[i]) && !sm->w[i].at_barrier)
				taken |= 1ull << i;
		return taken;
	}
	while (k < cap) {
		int best = -1;
		for (int i = 0; i < n; i++) {
			const struct warp *w = &sm->w[i];
			if (!live(w) || w->at_barrier || (taken >> i & 1))
				continue;
			if (best < 0 || rank_key(s, sm, i) < rank_key(s, sm, best))
				best = i;
		}
		if (best < 0)
			break;
		taken |= 1ull << best;
		k++;
	}
	return taken;
}

static uint64_t at_barrier_mask(const struct sim *s, const struct sm *sm)
{
	uint64_t m = 0;
	for (int i = 0; i < s->cfg.core.warps_per_sm; i++)
		if (live(&sm->w[i]) && sm->w[i].at_barrier)
			m |= 1ull << i;
	return m;
}

static uint64_t level1_mask(const struct sim *s, const struct sm *sm)
{
	uint64_t m = 0;
	for (int i = 0; i < s->cfg.core.warps_per_sm; i++)
		if (live(&sm->w[i]) && sm->w[i].in_pool)
			m |= 1ull << i;
	return m;
}

uint64_t vws_window_mask(const struct sim *s, const struct sm *sm) { return window(s, sm); }

uint64_t vws_active_mask(const struct sim *s, const struct sm *sm)
{
	uint64_t a = window(s, sm);
	if (intercl(s)) /* the two-level pool: level 1, inside the window */
		a &= level1_mask(s, sm);
	/* Warps at a barrier are not held back (they cannot issue anyway). */
	return a | at_barrier_mask(s, sm);
}

void vws_on_stall(struct sim *s, struct sm *sm, int warp, unsigned reason)
{
	if (!sm->vws || !intercl(s))
		return;
	if (sm->w[warp].in_pool && (reason == STALL_SCOREBOARD || reason == STALL_BARRIER))
		sm->vws->want_demote |= 1ull << warp;
}

/* A level-2 warp worth promoting: live, not at a barrier, and its next
 * instruction (if fetched) does not wait on a load. */
static bool promotable(const struct warp *w)
{
	if (!live(w) || w->in_pool || w->at_barrier)
		return false;
	if (!w->ib_valid)
		return true;
	for (unsigned i = 0; i < w->ibh.nsrc; i++)
		if (w->pend[w->ibh.src[i] >> 6] >> (w->ibh.src[i] & 63) & 1)
			return false;
	if (w->ibh.ndst && (w->pend[w->ibh.dst >> 6] >> (w->ibh.dst & 63) & 1))
		return false;
	return true;
}

static int32_t cta_of(const struct sm *sm, const struct warp *w) { return sm->cta[w->cta_slot].cta; }

static bool has_cta(const int32_t *l, int nl, int64_t c)
{
	for (int k = 0; k < nl; k++)
		if (l[k] == c)
			return true;
	return false;
}

void vws_refill(struct sim *s, struct sm *sm)
{
	struct vws_sm *v = sm->vws;
	if (v && !v->window_started && s->stats.frozen) /* N_act from the first launch, on every SM (idle ones too) */
		for (int i = 0; i < s->cfg.core.sms; i++) {
			struct vws_sm *u = s->sms[i].vws;
			u->window_started = 1;
			stat_occ_set(&s->stats, u->st_window, u->nact);
		}
	if (!v || !intercl(s))
		return;
	int n = s->cfg.core.warps_per_sm;
	uint64_t win = window(s, sm), cand = 0;
	for (int i = 0; i < n; i++)
		if ((win >> i & 1) && promotable(&sm->w[i]))
			cand |= 1ull << i;
	/* Demote: level-1 warps the window no longer holds (N_act fell), and
	 * warps stalled on a load or at a barrier if someone can come in. The
	 * CTAs of demoted warps still count as level-1 CTAs for promotion. */
	int32_t l1c[VWS_MAX_WARPS];
	int nl = 0;
	uint32_t in = 0;
	for (int i = 0; i < n; i++) {
		struct warp *w = &sm->w[i];
		if (!live(w) || !w->in_pool)
			continue;
		bool out = !(win >> i & 1) && !w->at_barrier;
		if (out || ((v->want_demote >> i & 1) && cand)) {
			w->in_pool = 0;
			stat_inc(&s->stats, v->st_demote);
			sm_wake(sm);
			sim_progress(s);
		} else {
			in++;
		}
		if (!has_cta(l1c, nl, cta_of(sm, w)))
			l1c[nl++] = cta_of(sm, w);
	}
	v->want_demote = 0;
	uint32_t cap = vws_cap(s, sm);
	while (in < cap && cand) {
		int best = -1;
		enum vws_why best_why = VWS_WHY_OLDEST;
		for (int i = 0; i < n; i++) {
			if (!(cand >> i & 1))
				continue;
			int64_t c = cta_of(sm, &sm->w[i]);
			enum vws_why why = has_cta(l1c, nl, c)       ? VWS_WHY_SAME_CTA
					   : has_cta(l1c, nl, c + 1) ? VWS_WHY_PRED_CTA
					   : has_cta(l1c, nl, c - 1) ? VWS_WHY_SUCC_CTA
								     : VWS_WHY_OLDEST;
			if (best < 0 || why < best_why ||
			    (why == best_why && rank_key(s, sm, i) < rank_key(s, sm, best))) {
				best = i;
				best_why = why;
			}
		}
		struct warp *w = &sm->w[best];
		w->in_pool = 1;
		v->why[best] = (uint8_t)best_why;
		v->promoted_at[best] = s->st->now;
		stat_inc(&s->stats, v->st_promote[best_why]);
		cand &= ~(1ull << best);
		if (!has_cta(l1c, nl, cta_of(sm, w)))
			l1c[nl++] = cta_of(sm, w);
		in++;
		sm_wake(sm);
		sim_progress(s);
	}
}

/* ---- probe listener (sim/probe.h) ------------------------------------------- */

/* The IWL estimator counts the L1 loads that look the cache up. */
static void on_l1_access(struct sim *s, const void *arg)
{
	const struct probe_access *a = arg;
	if (a->bypassed || a->op != PRB_LOAD)
		return;
	vws_on_access(s, a->sm, a->warp, a->addr, !a->hit);
}

void vws_attach(struct sim *s)
{
	if (!vws_on(s))
		return;
	probe_listen(&s->probes, PP_L1_ACCESS, on_l1_access);
}
