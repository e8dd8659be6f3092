/*
 * sched.c: warp scheduling policies (one issue per scheduler per cycle).
 *
 *   lrr        loose round robin: first ready warp after the last issued one
 *   gto        greedy-then-oldest: keep issuing from the last warp while it
 *              is ready, else the oldest ready warp (launch order)
 *   vws        greedy-then-oldest inside the VWS active set (vws.h): with
 *              InterCL the level 1 of a two-level pool (demote on a load
 *              wait or barrier, promote same CTA -> predecessor ->
 *              successor -> oldest; vws_on_stall / vws_refill), else a
 *              window recomputed at every evaluation
 *   ccws       greedy-then-oldest; warps past the lost-locality cutoff may
 *              not issue loads (ccws.h)
 *   rmws       lowest racetrack score first (rmws.h; ties per rf.rmws_tiebreak)
 *   tbas       greedy-then-oldest inside the running set (tbas.h); with
 *              core.tbas_order = rmws, RMWS's score inside it instead (the
 *              only place two of the thesis's schedulers compose)
 *   two_level  an active pool of core.active_pool warps scheduled LRR; a warp
 *              that stalls on memory (scoreboard / memory buffer) or waits at
 *              a barrier leaves the pool; the oldest warp outside it that is
 *              not at a barrier (preferring one with no load pending) enters
 *
 * With core.schedulers = S > 1 each SM has S schedulers: scheduler k owns
 * the warp slots w with w mod S = k (as in Fermi/Volta), remembers its own
 * last issued warp and runs the policy over its own warps (two_level: one
 * pool of core.active_pool warps per scheduler). vws and tbas keep one set
 * per SM (VWS's window and level-1 pool, TBAS's running set: both size the
 * SM's share of the L1 or of its DRAM pages, which the schedulers share);
 * each scheduler picks greedy-then-oldest among its own warps in the set
 * (docs/POLICIES.md, "Several schedulers").
 *
 * sched_pick() runs every cycle on each scheduler's ready set; sched_order()
 * produces the full "warp queue" (the order the policy looks at warps) for
 * panels.
 */
#include "sim/sim_int.h"
#include "policy/tbas.h"

static bool active(const struct warp *w) { return w->state == WSL_ACTIVE; }

/* Slots k, k + S, k + 2S, ... below warps_per_sm: the every-S-th-bit
 * pattern shifted to k (core.schedulers is 1, 2 or 4, hier_cfg.c); core_tick
 * asks for it per scheduler at every evaluation. */
uint64_t sched_mask(const struct sim *s, int k)
{
	static const uint64_t every[5] = {0, ~0ull, 0x5555555555555555ull, 0x9249249249249249ull,
					  0x1111111111111111ull};
	int n = s->cfg.core.warps_per_sm, S = s->cfg.core.schedulers;
	uint64_t slots = n >= 64 ? ~0ull : (1ull << n) - 1;
	return (every[S] << k) & slots;
}

int sched_pick(const struct sim *s, const struct sm *sm, const uint64_t ready_all, int k)
{
	int n = s->cfg.core.warps_per_sm, last = sm->sched_last[k];
	const uint64_t ready = s->cfg.core.scheduler == SCHED_TBAS ? ready_all & tbas_running_mask(s, sm) : ready_all;
	if (!ready)
		return -1;
	switch (s->cfg.core.scheduler) {
	case SCHED_RMWS:
		return rmws_pick(s, sm, ready, last);
	case SCHED_TBAS: /* GTO inside the running set; RMWS only when core.tbas_order asks */
		if (s->cfg.core.tbas_order == TBAS_ORDER_RMWS)
			return rmws_pick(s, sm, ready, last);
		/* fall through */
	case SCHED_VWS: /* GTO inside the active window (inactive warps are never ready) */
	case SCHED_CCWS: /* GTO; warps past the load cutoff are not ready at a load */
	case SCHED_GTO: {
		if (last >= 0 && (ready >> last & 1))
			return last;
		int best = -1;
		for (uint64_t m = ready; m; m &= m - 1) { /* the ready warps, ascending */
			int i = __builtin_ctzll(m);
			if (best < 0 || sm->w[i].age < sm->w[best].age)
				best = i;
		}
		return best;
	}
	case SCHED_TWO_LEVEL:
	case SCHED_LRR:
	default: {
		int start = last + 1;
		for (int j = 0; j < n; j++) {
			int i = (start + j) % n;
			if (ready >> i & 1)
				return i;
		}
		return -1;
	}
	}
}

/* Two-level: keep the active pool full with the oldest warps outside it. */
void sched_refill(struct sim *s, struct sm *sm);
void sched_refill(struct sim *s, struct sm *sm)
{
	if (s->cfg.core.scheduler == SCHED_TBAS)
		tbas_update(s, sm);
	if (s->cfg.core.scheduler == SCHED_VWS)
		vws_refill(s, sm);
	if (s->cfg.core.scheduler != SCHED_TWO_LEVEL)
		return;
	int n = s->cfg.core.warps_per_sm, S = s->cfg.core.schedulers;
	for (int k = 0; k < S; k++) { /* one pool per scheduler, over its own warps */
		int in = 0;
		for (int i = k; i < n; i += S)
			in += active(&sm->w[i]) && sm->w[i].in_pool;
		while (in < s->cfg.core.active_pool) {
			/* Oldest warp outside the pool that is not waiting at a barrier,
			 * preferring one with no load outstanding (likely ready). */
			int best = -1, best_pend = 1;
			for (int i = k; i < n; i += S) {
				const struct warp *w = &sm->w[i];
				if (!active(w) || w->in_pool || w->at_barrier)
					continue;
				int pend = (w->pend[0] | w->pend[1] | w->pend[2] | w->pend[3]) != 0;
				if (best < 0 || pend < best_pend || (pend == best_pend && w->age < sm->w[best].age)) {
					best = i;
					best_pend = pend;
				}
			}
			if (best < 0)
				break;
			sm->w[best].in_pool = 1;
			in++;
			sm_wake(sm);
			sim_progress(s);
		}
	}
}

void sched_on_issue(struct sim *s, struct sm *sm, int slot)
{
	sm->last_issued = slot;
	sm->sched_last[sched_of(s, slot)] = (int16_t)slot;
}

void sched_on_stall(struct sim *s, struct sm *sm, int slot, unsigned reason)
{
	if (s->cfg.core.scheduler == SCHED_VWS)
		vws_on_stall(s, sm, slot, reason);
	if (s->cfg.core.scheduler != SCHED_TWO_LEVEL)
		return;
	struct warp *w = &sm->w[slot];
	if (w->in_pool && (reason == STALL_SCOREBOARD || reason == STALL_MEM || reason == STALL_MSHR_FULL ||
			    reason == STALL_BARRIER)) {
		/* Demote only if someone of its scheduler could come in. */
		for (int i = sched_of(s, slot); i < s->cfg.core.warps_per_sm; i += s->cfg.core.schedulers)
			if (active(&sm->w[i]) && !sm->w[i].in_pool && !sm->w[i].at_barrier) {
				w->in_pool = 0;
				sm_wake(sm);
				sim_progress(s);
				return;
			}
	}
}

/* Scheduler kk's order over its own warps (every warp with one scheduler). */
static int order_of(const struct sim *s, const struct sm *sm, int kk, int *order)
{
	int n = s->cfg.core.warps_per_sm, k = 0, S = s->cfg.core.schedulers, last = sm->sched_last[kk];
#define MINE(i) ((i) % S == kk)
	switch (s->cfg.core.scheduler) {
	case SCHED_VWS: { /* GTO order, the active set (level 1) first */
		uint64_t act = vws_active_mask(s, sm);
		int li = sm->last_issued;
		bool greedy = li >= 0 && active(&sm->w[li]) && (act >> li & 1);
		if (greedy)
			order[k++] = li;
		for (int pass = 0; pass < 2; pass++) {
			int base = k;
			for (int i = 0; i < n; i++) {
				if (!active(&sm->w[i]) || (greedy && i == li) || (bool)(act >> i & 1) != (pass == 0))
					continue;
				int j = k++;
				while (j > base && sm->w[order[j - 1]].age > sm->w[i].age) {
					order[j] = order[j - 1];
					j--;
				}
				order[j] = i;
			}
		}
		return k;
	}
	case SCHED_RMWS: /* shown in GTO order; the score decides among ready warps */
	case SCHED_CCWS:
	case SCHED_GTO: {
		if (last >= 0 && active(&sm->w[last]))
			order[k++] = last;
		/* The rest by age (insertion; at most 64 warps, only for display). */
		int base = k;
		for (int i = 0; i < n; i++) {
			if (!MINE(i) || !active(&sm->w[i]) || i == last)
				continue;
			int j = k++;
			while (j > base && sm->w[order[j - 1]].age > sm->w[i].age) {
				order[j] = order[j - 1];
				j--;
			}
			order[j] = i;
		}
		return k;
	}
	default: {
		int start = last + 1;
		for (int pass = 0; pass < 2; pass++)
			for (int t = 0; t < n; t++) {
				int i = (start + t) % n;
				if (!MINE(i) || !active(&sm->w[i]))
					continue;
				bool in = (s->cfg.core.scheduler != SCHED_TWO_LEVEL && s->cfg.core.scheduler != SCHED_TBAS) ||
					  sm->w[i].in_pool;
				if ((pass == 0) == in)
					order[k++] = i;
			}
		return k;
	}
	}
}
#undef MINE

/* With several schedulers: scheduler 0's order, then 1's, ... */
int sched_order(const struct sim *s, const struct sm *sm, int *order)
{
	int k = 0;
	for (int kk = 0; kk < s->cfg.core.schedulers; kk++)
		k += order_of(s, sm, kk, order + k);
	return k;
}
