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
 * size or fill the state at build time (cache geometry, SM count, the reuse
 * profiler, l1.mshr.capacity, ...) fail that test and are refused; the caller
 * then replays from cycle 0 (whatif --from-start).
 *
 * MSHR counts are limits, not sizes (mem/mshr.h): the files are allocated at
 * l1_mshr_cap / l2_mshr_cap (sim/config.h) and l1.mshr.entries,
 * l2.mshr.entries and the *.mshr.merges keys are read from the configuration
 * at every allocation and merge. sim_fork builds the fork with s's
 * capacities (unless cfg changes the capacity keys themselves), so
 *   - l1.mshr.entries / l2.mshr.entries may go down, or up to that capacity
 *     (above it: refused, *err naming the capacity key to set at the start);
 *     a lower count keeps the entries in flight and allocates none until
 *     fewer than the count are in use;
 *   - the merge counts may take any value.
 * The fork's own sim_cfg then holds the pinned capacity. A fork at cycle C
 * runs exactly as s's machine with its configuration changed in place at C
 * (tests/unit/test_fork_mshr.c).
 */
#ifndef GPUSTEP_FORK_H
#define GPUSTEP_FORK_H

#include "sim/sim.h"

/* A new machine from cfg (its MSHR capacities pinned to s's, above) and s's
 * workload holding s's state (cycle, every stat, the event log, its counters
 * and filter), with no breakpoints and rewinding off. NULL with *err when cfg
 * is invalid or changes the build-time state, an MSHR count above s's
 * capacity included (*cfg_ok set false then; true when sim_new refused cfg
 * itself). Caller
 * frees with sim_free. With cfg equal to s's, sim_state_hash of the fork
 * equals s's. */
struct sim *sim_fork(const struct sim *s, const struct sim_cfg *cfg, bool *cfg_ok, char **err);

#endif
