/*
 * ccws.c: Cache-Conscious Wavefront Scheduling: per-warp victim tag arrays,
 * lost-locality scores and the load cutoff (ccws.h).
 */
#include "ccws.h"

#include <string.h>

#include "sim/sim_int.h"

static bool ccws_on(const struct sim *s) { return s->cfg.core.scheduler == SCHED_CCWS; }

static bool live(const struct warp *w) { return w->state == WSL_ACTIVE; }

void ccws_init(struct sim *s, struct sm *sm)
{
	if (!ccws_on(s))
		return;
	const struct core_cfg *cc = &s->cfg.core;
	struct ccws_sm *c = ARENA_SET(&s->arena, sm->ccws, struct ccws_sm, 1);
	ARENA_SET(&s->arena, c->vta, struct ccws_vta_ent, (size_t)cc->warps_per_sm * (size_t)cc->ccws_vta_entries);
	size_t lines = (size_t)s->cfg.l1.sets * (size_t)s->cfg.l1.ways;
	ARENA_SET(&s->arena, c->owner, int16_t, lines);
	for (size_t i = 0; i < lines; i++)
		c->owner[i] = -1;
	c->next_change = UINT64_MAX;
	if (sm == &s->sms[0]) {
		static const uint64_t pct[] = {0, 1, 2, 5, 10, 25, 50, 100};
		c->st_lost = stats_counter(&s->stats, "ccws.lost_locality",
					   "ccws: L1 load misses whose line was in the warp's own victim tag array");
		c->st_insert = stats_counter(&s->stats, "ccws.vta_inserts",
					     "ccws: L1 replacements recorded in the allocating warp's victim tag array");
		c->st_changes = stats_counter(&s->stats, "ccws.throttle_changes",
					      "ccws: times the set of warps whose loads are held back changed");
		c->st_thr_cycles = stats_counter(&s->stats, "ccws.throttled_cycles",
						 "ccws: SM cycles in which at least one warp's loads were held back");
		c->st_held = stats_counter(&s->stats, "ccws.held_warp_cycles",
					   "ccws: warp-cycles of live warps whose loads were held back (/ throttled_cycles = mean held warps)");
		c->st_adm = stats_counter(&s->stats, "ccws.admitted_warp_cycles",
					  "ccws: warp-cycles of live warps allowed to issue loads (/ (cycles x SMs) = mean warps loading per SM)");
		c->st_pct = stats_hist(&s->stats, "ccws.lls_pct_at_hit",
				       "ccws: a warp's lost-locality score after a lost-locality hit, percent of the cutoff",
				       pct, ARRAY_LEN(pct));
	} else {
		const struct ccws_sm *c0 = s->sms[0].ccws;
		c->st_lost = c0->st_lost;
		c->st_insert = c0->st_insert;
		c->st_changes = c0->st_changes;
		c->st_pct = c0->st_pct;
		c->st_thr_cycles = c0->st_thr_cycles;
		c->st_held = c0->st_held;
		c->st_adm = c0->st_adm;
	}
}

static int32_t lls_at(const struct sim *s, const struct ccws_sm *c, int w, uint64_t now)
{
	int32_t b = s->cfg.core.ccws_base_score, v = c->score[w];
	if (v <= b)
		return v;
	uint64_t d = (now - c->score_at[w]) * (uint64_t)s->cfg.core.ccws_decay;
	return d >= (uint64_t)(v - b) ? b : v - (int32_t)d;
}

/* The warp's LLS at the current cycle. */
static int32_t ccws_lls(const struct sim *s, const struct sm *sm, int w) { return lls_at(s, sm->ccws, w, s->st->now); }

void ccws_on_launch(struct sim *s, struct sm *sm, int w)
{
	struct ccws_sm *c = sm->ccws;
	if (!c)
		return;
	int n = s->cfg.core.ccws_vta_entries;
	if (sm->nwarps_active == 0) { /* empty since its last evaluation: nothing was held or admitted meanwhile */
		c->last_eval = s->st->now;
		c->thr = c->adm = 0;
	}
	c->score[w] = s->cfg.core.ccws_base_score;
	c->score_at[w] = s->st->now;
	c->hits[w] = 0;
	memset(&c->vta[(size_t)w * (size_t)n], 0, sizeof(struct ccws_vta_ent) * (size_t)n);
	/* Lines the slot's previous warp allocated are not this warp's. */
	size_t lines = (size_t)s->cfg.l1.sets * (size_t)s->cfg.l1.ways;
	for (size_t i = 0; i < lines; i++)
		if (c->owner[i] == w)
			c->owner[i] = -1;
	sm_wake(sm);
}

/* First entry of addr's VTA set for warp w. */
static struct ccws_vta_ent *vta_set(const struct sim *s, const struct ccws_sm *c, int w, uint64_t line)
{
	int n = s->cfg.core.ccws_vta_entries, ways = s->cfg.core.ccws_vta_ways;
	uint64_t set = (line / (uint64_t)s->cfg.l1.line) % (uint64_t)(n / ways);
	return &c->vta[(size_t)w * (size_t)n + (size_t)set * (size_t)ways];
}

bool ccws_vta_has(const struct sim *s, const struct sm *sm, int w, uint64_t addr)
{
	uint64_t line = addr & ~(uint64_t)(s->cfg.l1.line - 1);
	const struct ccws_vta_ent *e = vta_set(s, sm->ccws, w, line);
	for (int k = 0; k < s->cfg.core.ccws_vta_ways; k++)
		if (e[k].tag == (line | 1))
			return true;
	return false;
}

void ccws_on_fill(struct sim *s, struct sm *sm, int set, int way, int warp)
{
	if (sm->ccws)
		sm->ccws->owner[(size_t)set * (size_t)s->cfg.l1.ways + (size_t)way] = (int16_t)warp;
}

void ccws_on_evict(struct sim *s, struct sm *sm, int set, int way)
{
	struct ccws_sm *c = sm->ccws;
	if (!c)
		return;
	const struct cline *cl = cache_line(&sm->l1.c, set, way);
	int16_t *o = &c->owner[(size_t)set * (size_t)s->cfg.l1.ways + (size_t)way];
	int w = *o;
	*o = -1;
	if (!cl->valid || w < 0 || !live(&sm->w[w]) || ccws_vta_has(s, sm, w, cl->tag))
		return;
	struct ccws_vta_ent *e = vta_set(s, c, w, cl->tag);
	int v = 0;
	for (int k = 0; k < s->cfg.core.ccws_vta_ways; k++) { /* an empty entry, else the oldest (FIFO) */
		if (!e[k].tag) {
			v = k;
			break;
		}
		if (e[k].stamp < e[v].stamp)
			v = k;
	}
	e[v].tag = cl->tag | 1;
	e[v].stamp = ++c->stamp;
	stat_inc(&s->stats, c->st_insert);
}

void ccws_on_store(struct sim *s, struct sm *sm, uint64_t addr)
{
	struct ccws_sm *c = sm->ccws;
	if (!c)
		return;
	uint64_t line = addr & ~(uint64_t)(s->cfg.l1.line - 1);
	for (int w = 0; w < s->cfg.core.warps_per_sm; w++) {
		struct ccws_vta_ent *e = vta_set(s, c, w, line);
		for (int k = 0; k < s->cfg.core.ccws_vta_ways; k++)
			if (e[k].tag == (line | 1))
				e[k].tag = e[k].stamp = 0;
	}
}

static int32_t cutoff(const struct sim *s, const struct sm *sm)
{
	int n = 0;
	for (int i = 0; i < s->cfg.core.warps_per_sm; i++)
		n += live(&sm->w[i]);
	int64_t cut = (int64_t)n * s->cfg.core.ccws_base_score;
	return cut > 0 ? (int32_t)cut : 1;
}

void ccws_on_load_miss(struct sim *s, struct sm *sm, int warp, uint64_t addr)
{
	struct ccws_sm *c = sm->ccws;
	if (!c || !ccws_vta_has(s, sm, warp, addr))
		return;
	const struct core_cfg *cc = &s->cfg.core;
	uint64_t now = s->st->now;
	c->hits[warp]++;
	c->lost++;
	stat_inc(&s->stats, c->st_lost);
	/* Hits and instructions of the SM's live warps, this hit included. */
	uint64_t hits = 0, insts = 0;
	for (int i = 0; i < cc->warps_per_sm; i++)
		if (live(&sm->w[i])) {
			hits += c->hits[i];
			insts += sm->w[i].insts;
		}
	if (!insts)
		insts = 1;
	int64_t cut = cutoff(s, sm), b = cc->ccws_base_score;
	int64_t v = (int64_t)lls_at(s, c, warp, now) + (int64_t)(hits * (uint64_t)cc->ccws_kthrottle * (uint64_t)cut / insts);
	if (cc->ccws_kcap) {
		int64_t cap = (int64_t)(hits * (uint64_t)cc->ccws_kcap * (uint64_t)cut / insts);
		if (cap < b)
			cap = b;
		if (v > cap)
			v = cap;
	}
	if (v < b)
		v = b;
	if (v > INT32_MAX / 2)
		v = INT32_MAX / 2;
	c->score[warp] = (int32_t)v;
	c->score_at[warp] = now;
	stat_hist_add(&s->stats, c->st_pct, (uint64_t)(v * 100 / cut));
	sm_wake(sm);
	sim_progress(s);
}

void ccws_eval(struct sim *s, struct sm *sm)
{
	struct ccws_sm *c = sm->ccws;
	if (!c)
		return;
	uint64_t now = s->st->now;
	int n = s->cfg.core.warps_per_sm, k = 0;
	int32_t b = s->cfg.core.ccws_base_score, lls[CCWS_MAX_WARPS];
	int order[CCWS_MAX_WARPS];
	uint64_t livem = 0;
	for (int i = 0; i < n; i++) {
		if (!live(&sm->w[i]))
			continue;
		livem |= 1ull << i;
		lls[i] = lls_at(s, c, i, now);
		int j = k++; /* by score, then older first */
		while (j > 0 && (lls[order[j - 1]] < lls[i] ||
				 (lls[order[j - 1]] == lls[i] && sm->w[order[j - 1]].age > sm->w[i].age))) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	int32_t cut = cutoff(s, sm);
	uint64_t rate = (uint64_t)s->cfg.core.ccws_decay;
	int64_t sum = 0;
	uint64_t adm = 0;
	int decaying = 0;
	uint64_t to_base = UINT64_MAX;
	for (int j = 0; j < k && sum < cut; j++) {
		int i = order[j];
		sum += lls[i];
		adm |= 1ull << i;
		if (lls[i] > b) {
			decaying++;
			uint64_t t = ((uint64_t)(lls[i] - b) + rate - 1) / rate; /* cycles to the base */
			if (t < to_base)
				to_base = t;
		}
	}
	uint64_t thr = livem & ~adm, next = UINT64_MAX;
	/* [last_eval, now) ran under the previous mask (it only changes here). */
	if (c->thr) {
		stat_add(&s->stats, c->st_thr_cycles, now - c->last_eval);
		stat_add(&s->stats, c->st_held, (now - c->last_eval) * (uint64_t)__builtin_popcountll(c->thr));
	}
	stat_add(&s->stats, c->st_adm, (now - c->last_eval) * (uint64_t)__builtin_popcountll(c->adm));
	c->last_eval = now;
	c->adm = adm;
	if (thr && decaying) {
		/* Decay lowers the admitted sum by `decaying` x rate a cycle: it
		 * falls below the cutoff after dt cycles (one more warp is
		 * admitted), unless a decaying warp reaches the base first (the
		 * order among equal scores changes; the sum then falls slower). */
		uint64_t dt = (uint64_t)(sum - cut) / ((uint64_t)decaying * rate) + 1;
		next = now + (dt < to_base ? dt : to_base);
	}
	if (thr != c->thr) {
		stat_inc(&s->stats, c->st_changes);
		EV_EMIT(&s->ev, EV_CCWS_THROTTLE, .cycle = now, .sm = (int16_t)sm->id, .a = __builtin_popcountll(thr),
			.b = (int64_t)thr);
	}
	c->thr = thr;
	c->cutoff = cut;
	c->next_change = next;
}

bool inspect_ccws(const struct sim *s, int smi, struct ccws_info *o)
{
	if (smi < 0 || smi >= s->cfg.core.sms || !s->sms[smi].ccws)
		return false;
	const struct sm *sm = &s->sms[smi];
	const struct ccws_sm *c = sm->ccws;
	*o = (struct ccws_info){.cutoff = cutoff(s, sm), .thr_mask = c->thr, .lost = c->lost,
				.next_change = c->next_change};
	for (int i = 0; i < s->cfg.core.warps_per_sm; i++)
		if (live(&sm->w[i])) {
			o->live++;
			o->throttled += (int)(c->thr >> i & 1);
		}
	return true;
}

bool inspect_ccws_warp(const struct sim *s, int smi, int slot, struct ccws_warp_info *o)
{
	if (smi < 0 || smi >= s->cfg.core.sms || !s->sms[smi].ccws || slot < 0 || slot >= s->cfg.core.warps_per_sm)
		return false;
	const struct sm *sm = &s->sms[smi];
	const struct ccws_sm *c = sm->ccws;
	*o = (struct ccws_warp_info){.live = live(&sm->w[slot])};
	if (!o->live)
		return true;
	o->lls = ccws_lls(s, sm, slot);
	o->throttled = c->thr >> slot & 1;
	o->hits = c->hits[slot];
	int n = s->cfg.core.ccws_vta_entries;
	for (int k = 0; k < n; k++)
		o->vta_used += c->vta[(size_t)slot * (size_t)n + (size_t)k].tag != 0;
	return true;
}

/* ---- probe listeners (sim/probe.h) ------------------------------------------ */

/* A load miss (not one merged into an MSHR entry that already fetches
 * the line: the release probes on MISS, not HIT_RESERVED) looks for lost locality; a store drops the line from the VTAs.
 * Loads that skip the L1 are neither. */
static void on_l1_access(struct sim *s, const void *arg)
{
	const struct probe_access *a = arg;
	if (a->bypassed)
		return;
	if (a->op == PRB_LOAD && !a->hit && !a->inflight)
		ccws_on_load_miss(s, a->sm, a->warp, a->addr);
	else if (a->op == PRB_STORE)
		ccws_on_store(s, a->sm, a->addr);
}

static void on_l1_fill(struct sim *s, const void *arg)
{
	const struct probe_line *l = arg;
	ccws_on_fill(s, l->sm, l->set, l->way, l->warp);
}

static void on_l1_evict(struct sim *s, const void *arg)
{
	const struct probe_line *l = arg;
	ccws_on_evict(s, l->sm, l->set, l->way);
}

void ccws_attach(struct sim *s)
{
	if (!ccws_on(s))
		return;
	probe_listen(&s->probes, PP_L1_ACCESS, on_l1_access);
	probe_listen(&s->probes, PP_L1_FILL, on_l1_fill);
	probe_listen(&s->probes, PP_L1_EVICT, on_l1_evict);
}
