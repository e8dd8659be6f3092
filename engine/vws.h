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
 *   IntraCL  the N_act active warps are the oldest ones (launch order), so
 *            they come from as few CTAs as possible (contiguous slots);
 *            without it they are spread over CTAs (warp k of every CTA
 *            before warp k+1 of any).
 *   InterCL  serial CTA dispatch (per-SM contiguous CTA ranges) and a level
 *            1 of at most core.vws_level1 warps scheduled greedy-then-oldest.
 *
 *   active window = first min(N_act, level1) warps in that order, counting
 *   only warps that are neither finished nor waiting at a barrier (so a CTA
 *   at a barrier never deadlocks the window); the others are `inactive`.
 */
#ifndef GPUSTEP_VWS_H
#define GPUSTEP_VWS_H

#include <stdbool.h>
#include <stdint.h>

#define VWS_AMT_BITS 8192

struct vws_sm {
	uint64_t amt[VWS_AMT_BITS / 64];
	uint32_t ws_x256, rr_x256; /* moving averages, fixed point; 0 = undefined */
	uint32_t finished;
	uint32_t nact;             /* current window (warps) */
	uint8_t post;              /* 1 = post-sampling */
};

struct sim;
struct sm;

void vws_init(struct sim *s, struct sm *sm);
bool vws_on(const struct sim *s);
/* First L1 lookup of a load by a warp (miss = not a data hit). */
void vws_on_access(struct sim *s, struct sm *sm, int warp, uint64_t addr, bool miss);
void vws_on_warp_done(struct sim *s, struct sm *sm, int warp);
/* Bit mask of the warp slots allowed to issue now. */
uint64_t vws_active_mask(const struct sim *s, const struct sm *sm);
uint32_t vws_npred(const struct sim *s);

#endif
