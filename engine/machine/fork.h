/*
 * fork.h: a second machine that holds this one's exact state but runs under
 * a changed configuration, for `whatif` (tui/cmd_whatif.c).
 *
 *   s (stepped by the user)      untouched
 *   fork(s, cfg')  = sim_new(cfg') + every state word of s
 *
 * A configuration can change mid-run only when it lives in struct sim_cfg
 * alone: a machine built from it must have the same state at cycle 0, byte
 * for byte (pointers left out), as one built from s's configuration. Keys that
 * size or fill the state at build time (MSHR entries, cache geometry, SM
 * count, the reuse profiler, ...) fail that test and are refused; the caller
 * then replays from cycle 0 (whatif --from-start).
 */
#ifndef GPUSTEP_FORK_H
#define GPUSTEP_FORK_H

#include "sim/sim.h"

/* A new machine from cfg and s's workload holding s's state (cycle, every
 * stat, the event log, its counters and filter), with no breakpoints and rewinding
 * off. NULL with *err when cfg is invalid or changes the build-time state
 * (*cfg_ok set false then; true when sim_new refused cfg itself). Caller
 * frees with sim_free. With cfg equal to s's, sim_state_hash of the fork
 * equals s's. */
struct sim *sim_fork(const struct sim *s, const struct sim_cfg *cfg, bool *cfg_ok, char **err);

#endif
