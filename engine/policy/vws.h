/*
 * vws.h: the Versatile Warp Scheduler (Mao 2016 ch. 4; notes 002 §3), as a
 * core.scheduler policy. Per SM:
 *
 *   IWL      per-warp 10-bit access and miss counters; an 8192-bit address
 *            miss table (AMT, block address mod 8192) that counts a block's
 *            miss once; at each warp completion WS and RRDegr move halfway
 *            to the warp's values, and after N_pred completions (sampling)
 *            N_act = ceil(beta * L1 blocks / (WS * RRDegr)), clamped to
 *            [1, warps]. The AMT is cleared every N_pred completions.
 *            Without IWL, N_act = every warp slot.
 *   IntraCL  active warps come from as few CTAs as possible: the oldest
 *            warps first (launch order = contiguous slots); without it they
 *            are spread over CTAs (warp k of every CTA before warp k+1 of
 *            any).
 *   window   the first N_act live warps not at a barrier, in IntraCL's
 *            order (recomputed at every evaluation): IWL's throttle.
 *   InterCL  serial CTA dispatch (per-SM contiguous CTA ranges; engine/core/core.c)
 *            and a two-level pool inside the window. Level 1 (the warp's
 *            in_pool bit) holds at most min(core.vws_level1, N_act) warps,
 *            scheduled greedy-then-oldest; the window's other warps are
 *            level 2. On a cycle without an issue, a level-1 warp waiting on
 *            a load (scoreboard) or at a barrier is demoted to level 2 if
 *            some level-2 warp could be promoted; a level-1 warp the window
 *            lost (N_act fell) is demoted at once. Promotion fills level 1
 *            with window warps that are not at a barrier and whose next
 *            instruction does not wait on a load, best first:
 *              1. same CTA as a level-1 warp (or a warp just demoted),
 *              2. the predecessor CTA (id - 1) of one,
 *              3. the successor CTA (id + 1) of one,
 *              4. any other (also when level 1 is empty);
 *            ties by IntraCL's order. The class is recorded per warp.
 *
 *   Active set = level 1 with InterCL, else the window. Warps outside it
 *   are `inactive`; warps at a barrier are never held back (they cannot
 *   issue anyway). With N_act <= core.vws_level1 level 1 is the window and
 *   InterCL's pool only matters while N_act > core.vws_level1 (sampling,
 *   or weakly cache-sensitive kernels on SMs of more than 16 warps).
 */
#ifndef GPUSTEP_VWS_H
#define GPUSTEP_VWS_H

#include <stdbool.h>
#include <stdint.h>

#define VWS_AMT_BITS 8192
#define VWS_MAX_WARPS 64
#define VWS_FRAC 16 /* fraction bits of the IWL averages (10-bit counters: < 2^26) */

/* Why a warp entered level 1 (InterCL promotion priority). */
enum vws_why { VWS_WHY_NONE, VWS_WHY_SAME_CTA, VWS_WHY_PRED_CTA, VWS_WHY_SUCC_CTA, VWS_WHY_OLDEST, VWS_WHY__COUNT };

struct vws_sm {
	uint64_t amt[VWS_AMT_BITS / 64];
	uint32_t ws_q, rr_q;       /* WS_i and RRDegr_i (Eq. 4.1, 4.4), VWS_FRAC fraction bits */
	uint32_t finished;
	uint32_t nact;             /* current window (warps) */
	uint8_t post;              /* 1 = post-sampling */
	uint64_t want_demote;      /* InterCL: level-1 warps stalled this evaluation (cleared by vws_refill) */
	uint8_t why[VWS_MAX_WARPS]; /* InterCL: enum vws_why of each warp's latest promotion */
	uint64_t promoted_at[VWS_MAX_WARPS]; /* cycle of that promotion */
	uint32_t st_promote[VWS_WHY__COUNT], st_demote; /* stat ids (index 0 unused) */
	uint32_t st_window, st_changes; /* smN.vws.window (occupancy: N_act over time), vws.window_changes */
	uint32_t st_sampling_end;        /* smN.vws.sampling_end: cycle post-sampling began */
	uint8_t window_started;          /* smN.vws.window holds N_act (set at the first refill after stats freeze) */
	uint8_t est_valid;               /* ws_q / rr_q hold a completion's values */
	uint8_t pad[6];
};

struct sim;
struct sm;

void vws_init(struct sim *s, struct sm *sm);
/* First L1 lookup of a load by a warp (miss = not a data hit). */
/* vws_attach (sim_new) registers the estimator on the L1's PP_L1_ACCESS probe
 * (sim/probe.h); its listener calls vws_on_access for each load lookup. */
void vws_attach(struct sim *s);
void vws_on_access(struct sim *s, struct sm *sm, int warp, uint64_t addr, bool miss);
void vws_on_warp_done(struct sim *s, struct sm *sm, int warp);
/* Bit mask of the warp slots allowed to issue now. */
uint64_t vws_active_mask(const struct sim *s, const struct sm *sm);
/* The IWL/IntraCL window (first N_act live warps not at a barrier). */
uint64_t vws_window_mask(const struct sim *s, const struct sm *sm);
uint32_t vws_npred(const struct sim *s);
/* Level-1 capacity: min(core.vws_level1, N_act) with InterCL, else N_act. */
uint32_t vws_cap(const struct sim *s, const struct sm *sm);
/* InterCL pool (engine/core/sched.c): a warp's stall on a cycle without an issue,
 * then the demotions and promotions (also at CTA launch and warp exit). */
void vws_on_stall(struct sim *s, struct sm *sm, int warp, unsigned reason);
void vws_refill(struct sim *s, struct sm *sm);
const char *vws_why_name(enum vws_why w);

#endif
