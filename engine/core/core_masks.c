/*
 * core_masks.c: the warp masks of struct sm, which let core_tick (core.c)
 * skip warps whose evaluation cannot have changed, and their invariants.
 *
 * Warp masks (struct sm): core_tick runs on every cycle an SM has news, and
 * looks at each warp. Three bitmaps per SM keep that to the warps that
 * matter:
 *
 *   wact     slot i is ACTIVE (set at launch, cleared at exit): the loops
 *            walk its set bits instead of every slot.
 *   sb_wait  slot i's last evaluation returned STALL_SCOREBOARD. Until one
 *            of its registers is written (vmb_complete) nothing warp_blocker
 *            tests before the scoreboard can change without the warp
 *            issuing: it is not at a barrier, not busy, has its instruction
 *            fetched and, with no active pool, window or load throttle
 *            (core_masks_ok), nothing else decides. Its reason is therefore
 *            still scoreboard, and re-evaluating it would change nothing
 *            (same reason: no event, no stall segment change), so it is
 *            only counted.
 *   rdy      slot i's last evaluation returned STALL_NONE and it has not
 *            issued since. For the same reasons, and since only its own
 *            issue sets its scoreboard bits, it is still ready unless its
 *            instruction is a global access and the memory buffer is full
 *            now (re-evaluated then); without a timed register file, whose
 *            bank queues can hold it back any cycle.
 *   fwant    (l1i.enabled) slot i is one the fetch unit must look at
 *            (fetch.c). Cleared when fetch_tick finds the warp's buffer
 *            holding its next instruction (or nothing to fetch), set again
 *            when it issues, when its CTA launches and whenever fetch_ready
 *            finds its buffer without that instruction. Between those its
 *            buffer, fetch state and next instruction cannot change, so the
 *            fetch unit would pass it over: with many warps waiting on
 *            loads it walks only the few that fetch.
 *
 * All are in the arena (snapshotted, hashed; stepping, running and
 * rewinding evaluate the same warps at the same cycles, so set them alike);
 * core_check_invariants checks them against the warps.
 */
#include "sim/sim_int.h"

static inline bool sb_test(const struct warp *w, unsigned r) { return (w->pend[r >> 6] >> (r & 63)) & 1; }

bool core_masks_ok(const struct sim *s, const struct sm *sm)
{
	int k = s->cfg.core.scheduler;
	return k != SCHED_TWO_LEVEL && k != SCHED_TBAS && !sm->vws && !sm->ccws;
}

/* The warp masks agree with the warps (sim.c check_invariants). */
int core_check_invariants(const struct sim *s, char **err)
{
	for (int i = 0; i < s->cfg.core.sms; i++) {
		const struct sm *sm = &s->sms[i];
		for (int k = 0; k < s->cfg.core.warps_per_sm; k++) {
			const struct warp *w = &sm->w[k];
			bool act = sm->wact >> k & 1, sb = sm->sb_wait >> k & 1, rdy = sm->rdy >> k & 1;
			if (act != (w->state == WSL_ACTIVE))
				return set_err(err, "sm%d warp %d: state %u but its active bit is %d", i, k, w->state, act);
			if (act && l1i_active(&s->cfg) && !(sm->fwant >> k & 1)) {
				uint64_t pc = w->ib_valid ? fetch_pc(s, &w->ib) : 0;
				if (w->fst != FS_IDLE || !w->ib_valid || w->rf_collect ||
				    (pc != WINST_PC_NONE && !(w->ibn && w->ibpc == pc)))
					return set_err(err, "sm%d warp %d: fetch bit clear but its buffer lacks its next instruction", i,
						       k);
			}
			if (!sb && !rdy)
				continue;
			if (!core_masks_ok(s, sm) || (rdy && sm->rf))
				return set_err(err, "sm%d warp %d: mask bit set under a scheduler that re-evaluates", i, k);
			bool pend = false;
			for (unsigned r = 0; r < w->ibh.nsrc; r++)
				pend |= sb_test(w, w->ibh.src[r]);
			pend |= w->ibh.ndst && sb_test(w, w->ibh.dst);
			if (!act || w->at_barrier || !w->ib_valid || w->rf_collect || w->busy_until > s->st->now)
				return set_err(err, "sm%d warp %d: mask bit set but the warp is not waiting to issue", i, k);
			if (sb && (rdy || w->stall != STALL_SCOREBOARD || !pend))
				return set_err(err, "sm%d warp %d: scoreboard bit set but the warp is not waiting on a register", i, k);
			if (rdy && (pend || w->stall != STALL_NONE))
				return set_err(err, "sm%d warp %d: ready bit set but the warp waits (%s)", i, k,
					       pend ? "a register" : stall_reason_name(w->stall));
		}
	}
	return 0;
}
