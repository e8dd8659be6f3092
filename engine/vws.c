/*
 * vws.c: the VWS working-set estimator and active window (vws.h).
 */
#include "vws.h"

#include "sim_int.h"

bool vws_on(const struct sim *s) { return s->cfg.core.scheduler == SCHED_VWS; }

uint32_t vws_npred(const struct sim *s)
{
	/* Eq. 4.2 with N_CTA = grid CTAs / N_SM (the footnote's double division fixed). */
	uint64_t num = (uint64_t)s->cfg.core.vws_alpha_pct * s->nctas * s->threads_per_cta;
	uint64_t den = 100ull * (uint64_t)s->cfg.core.warp_size * (uint64_t)s->cfg.core.sms;
	uint64_t n = (num + den - 1) / den;
	return n ? (uint32_t)n : 1;
}

void vws_init(struct sim *s, struct sm *sm)
{
	if (!vws_on(s))
		return;
	sm->vws = ARENA_NEW(&s->arena, struct vws_sm, 1);
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

void vws_on_warp_done(struct sim *s, struct sm *sm, int warp)
{
	struct vws_sm *v = sm->vws;
	if (!v || !s->cfg.core.vws_iwl || s->cfg.core.vws_nact)
		return;
	struct warp *w = &sm->w[warp];
	uint32_t wsn = w->vws_miss ? w->vws_miss : 1;
	uint32_t ws = wsn * 256, rr = (uint32_t)w->vws_acc * 256 / wsn;
	v->ws_x256 = v->ws_x256 ? (v->ws_x256 + ws) / 2 : ws;
	v->rr_x256 = v->rr_x256 ? (v->rr_x256 + rr) / 2 : rr;
	v->finished++;
	uint32_t np = vws_npred(s);
	if (v->finished % np == 0)
		for (int k = 0; k < VWS_AMT_BITS / 64; k++)
			v->amt[k] = 0;
	if (v->finished >= np)
		v->post = 1;
	if (v->post) {
		uint64_t blocks = (uint64_t)s->cfg.l1.sets * (uint64_t)s->cfg.l1.ways;
		uint64_t prod = (uint64_t)v->ws_x256 * v->rr_x256; /* x 65536 */
		if (prod == 0)
			prod = 1;
		uint64_t n = ((uint64_t)s->cfg.core.vws_beta * blocks * 65536 + prod - 1) / prod;
		if (n < 1)
			n = 1;
		if (n > (uint64_t)s->cfg.core.warps_per_sm)
			n = (uint64_t)s->cfg.core.warps_per_sm;
		v->nact = (uint32_t)n;
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

uint64_t vws_active_mask(const struct sim *s, const struct sm *sm)
{
	int n = s->cfg.core.warps_per_sm;
	uint32_t cap = sm->vws->nact;
	if (s->cfg.core.vws_intercl && cap > (uint32_t)s->cfg.core.vws_level1)
		cap = (uint32_t)s->cfg.core.vws_level1;
	uint64_t mask = 0, taken = 0;
	uint32_t k = 0;
	while (k < cap) {
		int best = -1;
		for (int i = 0; i < n; i++) {
			const struct warp *w = &sm->w[i];
			if (w->state != WSL_ACTIVE || w->at_barrier || (taken >> i & 1))
				continue;
			if (best < 0 || rank_key(s, sm, i) < rank_key(s, sm, best))
				best = i;
		}
		if (best < 0)
			break;
		taken |= 1ull << best;
		mask |= 1ull << best;
		k++;
	}
	/* Warps at a barrier are not held back (they cannot issue anyway). */
	for (int i = 0; i < n; i++)
		if (sm->w[i].state == WSL_ACTIVE && sm->w[i].at_barrier)
			mask |= 1ull << i;
	return mask;
}
