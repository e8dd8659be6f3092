/*
 * sim_par.h: the threaded SM phases (sim_par.c), for sim.c only.
 */
#ifndef GPUSTEP_SIM_PAR_H
#define GPUSTEP_SIM_PAR_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim.h"
#include "threads.h"

struct sim;
struct sm;

/* Decide whether the machine's SM phases may run threaded (par_ok) and set
 * up its per-thread and per-SM buffers; par_teardown frees them. */
void par_setup(struct sim *s);
void par_teardown(struct sim *s);
/* The SM part of a cycle: every busy SM's l1_tick, CTA dispatch, every busy
 * SM's core_tick (and the activity bit after it), merged in ascending SM
 * order; with several threads and every CTA dispatched, both phases in one
 * job (sim_par.c "Fused phases"). */
void par_cycle(struct sim *s);
/* Tests: every SM whose L1 phase buffered something takes the fused
 * phase's deferred path (its core_tick after the L1 merge, on the calling
 * thread). Results do not depend on it. */
void par_test_defer(struct sim *s, bool all);
/* Tests: fix the fractions of the SMs of each phase that the threads' parts
 * run (frac[1..threads-1], ascending, of 65536; frac[0] and frac[threads]
 * are taken as 0 and 65536), instead of the timed balance; NULL restores
 * the even split and the balance. Results do not depend on it. */
void par_force_split(struct sim *s, const uint32_t *frac);
/* The balance (sim_par.c "The parts of a phase"): the times ns[0..nt) of
 * a phase's parts vote on each boundary frac[k], 0 < k < nt (ascending,
 * frac[0] = 0, frac[nt] = 65536): +1 when part k - 1 was slower than part
 * k by more than a sixteenth, -1 when part k was. Every PAR_BAL_WINDOW
 * phases (then it returns true and the votes start again), a boundary
 * with at least a quarter of the window's votes net moves by one of the n
 * SMs' share away from the slower side, never past its neighbours. */
#define PAR_BAL_WINDOW 64
struct par_bal {
	int32_t vote[SIM_MAX_THREADS];
	uint32_t phases;
};
bool par_balance_add(struct par_bal *b, uint32_t *frac, int nt, const uint64_t *ns, uint32_t n);
/* sim.c: does the machine run a built-in kernel (not a trace, DRAM requests)? */
bool sim_wl_is_kernel(const struct sim *s);
/* sim.c: an SM whose ticks would do nothing. */
bool sim_sm_busy(const struct sim *s, const struct sm *sm);

#endif
