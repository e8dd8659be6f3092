/*
 * tbas.h: thread-batch-aware warp scheduling (TBAS; Mao 2016 §5.3, notes 002
 * §4.5) as core.scheduler = tbas. A thread batch is core.batch_stride
 * consecutive CTAs (batch = floor(ctaid / stride)). Per SM:
 *
 *   running set  at most core.tbas_running warps, all from one batch (the
 *                running batch); only they issue, greedy-then-oldest
 *   demote       a running warp that stalls on memory (scoreboard, memory
 *                buffer, MSHRs) or waits at a barrier leaves the set
 *   refill       the set takes the running batch's other active warps,
 *                oldest first (active = not exited, not at a barrier, no
 *                load pending)
 *   swap         when the running batch has fewer than core.tbas_threshold
 *                active warps (or fewer than all its live warps, if it has
 *                fewer live warps than that), its warps are demoted and the
 *                oldest batch (smallest id) with enough active warps is
 *                promoted; with core.tbas_promote = successor the batch
 *                after the demoted one (wrapping) is tried first
 *                (Fig. 37(d)); with no qualifying batch the running batch
 *                stays
 *
 * The membership is w->in_pool, one set per SM however many schedulers it
 * has (each issues from its own warps in it). TBAS re-evaluates when no
 * scheduler of the SM issues, at CTA launch and at warp exit (sched.c hooks);
 * each change wakes the SM, so skip-ahead stays exact.
 */
#ifndef GPUSTEP_TBAS_H
#define GPUSTEP_TBAS_H

#include <stdbool.h>
#include <stdint.h>

struct sim;
struct sm;

enum tbas_promote { TBAS_OLDEST, TBAS_SUCCESSOR };

/* Re-evaluate the running set of one SM (state changes wake the SM). */
void tbas_update(struct sim *s, struct sm *sm);
/* Mask of warp slots in the running set. */
uint64_t tbas_running_mask(const struct sim *s, const struct sm *sm);

#endif
