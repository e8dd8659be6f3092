/*
 * tbas.c: thread-batch-aware warp scheduling (see tbas.h for the policy).
 *
 * Nothing is stored besides each warp's in_pool bit: the running batch is
 * the batch of the warps in the set. An evaluation:
 *
 *   1. per resident batch: live warps (not exited) and active warps (a
 *      running warp stays active unless it waits at a barrier or is stalled
 *      on memory with a load pending; a waiting warp is active when it is not
 *      at a barrier and has no load pending)
 *   2. the running batch keeps the set if it has enough active warps:
 *      min(threshold, live) and at least one
 *   3. else promote: the successor (core.tbas_promote = successor) or the
 *      oldest batch with enough active warps; if none has enough and the
 *      running batch has no active warp, the oldest batch with any active
 *      warp (the SM never idles while a warp could issue: a choice, the
 *      thesis is silent)
 *   4. the set = the target batch's active warps, oldest first, at most
 *      core.tbas_running
 *
 * Choice: the set is re-evaluated only when the SM does not issue, at CTA
 * launch and at warp exit; while a running warp can issue, a stalled one is
 * demoted at the next cycle without an issue (it could not issue anyway).
 */
#include "tbas.h"

#include "debug/inspect.h"
#include "sim/sim_int.h"

#define TBAS_MAX_BATCHES 64

static bool mem_stall(unsigned r) { return r == STALL_SCOREBOARD || r == STALL_MEM || r == STALL_MSHR_FULL; }

static bool load_pending(const struct warp *w) { return (w->pend[0] | w->pend[1] | w->pend[2] | w->pend[3]) != 0; }

static bool warp_active(const struct warp *w)
{
	if (w->state != WSL_ACTIVE || w->at_barrier)
		return false;
	if (w->in_pool)
		return !(mem_stall(w->stall) && load_pending(w));
	return !load_pending(w);
}

/* Batch of the CTA running in warp slot `slot`, -1 if the slot is empty. */
static int32_t tbas_batch_of(const struct sim *s, const struct sm *sm, int slot)
{
	const struct warp *w = &sm->w[slot];
	if (w->state == WSL_EMPTY || w->cta_slot < 0 || sm->cta[w->cta_slot].cta < 0)
		return -1;
	int stride = s->cfg.core.batch_stride > 0 ? s->cfg.core.batch_stride : 1;
	return sm->cta[w->cta_slot].cta / stride;
}

/* The running batch of the SM, -1 when none. */
static int32_t tbas_running_batch(const struct sim *s, const struct sm *sm)
{
	int32_t b = -1;
	uint64_t age = UINT64_MAX;
	for (int i = 0; i < s->cfg.core.warps_per_sm; i++) {
		const struct warp *w = &sm->w[i];
		if (w->state == WSL_ACTIVE && w->in_pool && w->age < age) {
			age = w->age;
			b = tbas_batch_of(s, sm, i);
		}
	}
	return b;
}

uint64_t tbas_running_mask(const struct sim *s, const struct sm *sm)
{
	uint64_t m = 0;
	for (int i = 0; i < s->cfg.core.warps_per_sm; i++)
		if (sm->w[i].state == WSL_ACTIVE && sm->w[i].in_pool)
			m |= 1ull << i;
	return m;
}

struct bstat {
	int32_t id;
	uint32_t live, act;
};

/* The batches of the SM's live warps, in order of their first warp slot:
 * live and active (issuable) warps of each; returns how many (at most
 * TBAS_MAX_BATCHES; warps of further batches are not counted). */
static int batch_census(const struct sim *s, const struct sm *sm, struct bstat *bs)
{
	int nb = 0;
	for (int i = 0; i < s->cfg.core.warps_per_sm; i++) {
		const struct warp *w = &sm->w[i];
		int32_t id = w->state == WSL_ACTIVE ? tbas_batch_of(s, sm, i) : -1;
		if (id < 0)
			continue;
		int k = 0;
		while (k < nb && bs[k].id != id)
			k++;
		if (k == nb) {
			if (nb == TBAS_MAX_BATCHES)
				continue;
			bs[nb++] = (struct bstat){.id = id};
		}
		bs[k].live++;
		bs[k].act += warp_active(w);
	}
	return nb;
}

static bool enough(const struct sim *s, const struct bstat *b)
{
	uint32_t t = (uint32_t)s->cfg.core.tbas_threshold;
	return b->act > 0 && b->act >= (b->live < t ? b->live : t);
}

void tbas_update(struct sim *s, struct sm *sm)
{
	int n = s->cfg.core.warps_per_sm;
	struct bstat bs[TBAS_MAX_BATCHES];
	int nb = batch_census(s, sm, bs);
	int32_t cur = tbas_running_batch(s, sm), target = cur;
	const struct bstat *cb = NULL;
	for (int k = 0; k < nb; k++)
		if (bs[k].id == cur)
			cb = &bs[k];
	if (!cb || !enough(s, cb)) {
		int pick = -1;
		if (cb && s->cfg.core.tbas_promote == TBAS_SUCCESSOR) {
			/* The next resident batch after the demoted one, wrapping to the oldest. */
			int lo = -1;
			for (int k = 0; k < nb; k++) {
				if (bs[k].id == cur || !enough(s, &bs[k]))
					continue;
				if (bs[k].id > cur && (pick < 0 || bs[k].id < bs[pick].id))
					pick = k;
				if (lo < 0 || bs[k].id < bs[lo].id)
					lo = k;
			}
			if (pick < 0)
				pick = lo;
		} else {
			for (int k = 0; k < nb; k++)
				if (bs[k].id != cur && enough(s, &bs[k]) && (pick < 0 || bs[k].id < bs[pick].id))
					pick = k;
		}
		if (pick < 0 && (!cb || cb->act == 0))
			for (int k = 0; k < nb; k++)
				if (bs[k].act && (pick < 0 || bs[k].id < bs[pick].id))
					pick = k;
		if (pick >= 0)
			target = bs[pick].id;
	}
	/* The set: the target batch's active warps, oldest first. */
	uint64_t want = 0;
	int cap = s->cfg.core.tbas_running, in = 0;
	while (in < cap) {
		int best = -1;
		for (int i = 0; i < n; i++) {
			const struct warp *w = &sm->w[i];
			if ((want >> i & 1) || w->state != WSL_ACTIVE || tbas_batch_of(s, sm, i) != target || !warp_active(w))
				continue;
			if (best < 0 || w->age < sm->w[best].age)
				best = i;
		}
		if (best < 0)
			break;
		want |= 1ull << best;
		in++;
	}
	uint64_t have = tbas_running_mask(s, sm);
	if (want == have)
		return;
	for (int i = 0; i < n; i++)
		sm->w[i].in_pool = (uint8_t)(want >> i & 1);
	if (target != cur)
		EV_EMIT(&s->ev, EV_TBAS_SWAP, .cycle = s->st->now, .sm = (int16_t)sm->id, .a = cur, .b = target);
	sm_wake(sm);
	sim_progress(s);
}

/* ---- inspection (inspect.h) ------------------------------------------------ */

bool inspect_tbas(const struct sim *s, int smi, struct tbas_info *o)
{
	if (s->cfg.core.scheduler != SCHED_TBAS || smi < 0 || smi >= s->cfg.core.sms)
		return false;
	const struct sm *sm = &s->sms[smi];
	*o = (struct tbas_info){.running = tbas_running_batch(s, sm),
				.in_set = __builtin_popcountll(tbas_running_mask(s, sm)),
				.cap = s->cfg.core.tbas_running,
				.threshold = s->cfg.core.tbas_threshold,
				.stride = s->cfg.core.batch_stride > 0 ? s->cfg.core.batch_stride : 1,
				.successor = s->cfg.core.tbas_promote == TBAS_SUCCESSOR};
	struct bstat bs[TBAS_MAX_BATCHES];
	int nb = batch_census(s, sm, bs);
	o->nbatches = nb;
	/* the 8 smallest ids, in order */
	for (int j = 0; j < nb && j < TBAS_INFO_BATCHES; j++) {
		int m = j;
		for (int k = j + 1; k < nb; k++)
			if (bs[k].id < bs[m].id)
				m = k;
		struct bstat t = bs[j];
		bs[j] = bs[m];
		bs[m] = t;
		o->batch[j].id = bs[j].id;
		o->batch[j].live = (int)bs[j].live;
		o->batch[j].active = (int)bs[j].act;
	}
	return true;
}

bool inspect_tbas_warp(const struct sim *s, int smi, int slot, struct tbas_warp_info *o)
{
	if (s->cfg.core.scheduler != SCHED_TBAS || smi < 0 || smi >= s->cfg.core.sms || slot < 0 ||
	    slot >= s->cfg.core.warps_per_sm)
		return false;
	const struct sm *sm = &s->sms[smi];
	const struct warp *w = &sm->w[slot];
	*o = (struct tbas_warp_info){.batch = w->state == WSL_ACTIVE ? tbas_batch_of(s, sm, slot) : -1};
	if (o->batch < 0)
		return true;
	o->role = w->in_pool ? TBW_RUN : w->at_barrier ? TBW_BARRIER : load_pending(w) ? TBW_LOAD : TBW_ACTIVE;
	return true;
}
