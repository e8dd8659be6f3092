/*
 * snapshot.h: rewinding. The simulator keeps periodic snapshots of its whole
 * state (every byte of the arena, plus the event-log counters and breakpoint
 * hit counts) within a memory budget, and reaches any earlier cycle by
 * restoring the nearest snapshot at or before it and replaying forward, which
 * determinism makes exact: after a rewind every stat, panel, log entry and
 * hit count shows what it showed the first time at that cycle.
 *
 *   cycle 0        K        2K        3K  ...               now
 *     |S0---------|S1-------|S2-------|S3 ...  replay -->    *
 *
 * Besides the arena, a snapshot keeps the few mutable fields of struct sim
 * itself (request-pool header, event counters).
 *
 * Snapshots are taken inside sim_step at multiples of the interval K (skip-
 * ahead stops there). When the budget is reached, every other snapshot in the
 * older half is dropped (snapshot 0 always stays) and K doubles, so more
 * snapshots remain near the present than far back.
 */
#ifndef GPUSTEP_SNAPSHOT_H
#define GPUSTEP_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "sim.h"

/* Enable with a memory budget in bytes (0 disables and frees them). Takes the
 * snapshot of the current cycle at once. */
void sim_snapshots_enable(struct sim *s, size_t budget_bytes);
/* Snapshots held, bytes used, current interval. */
void sim_snapshots_info(const struct sim *s, size_t *count, size_t *bytes, uint64_t *interval);
/* Earliest cycle reachable by rewinding (0 when snapshots are on). */
uint64_t sim_rewind_horizon(const struct sim *s);
/* Move to `cycle`, backwards (restore + replay) or forwards (run). Breakpoints
 * count their hits during the replay as they did the first time but do not
 * stop it. Forward moves past the end stop at the end. Returns -1 with *err
 * when the cycle is not reachable. */
int sim_goto(struct sim *s, uint64_t cycle, char **err);
/* Cycle just after the last breakpoint hit before the current cycle (where a
 * `continue` had stopped), or UINT64_MAX if none since the horizon. Replays
 * from snapshots; leaves the simulator at the current cycle. */
uint64_t sim_prev_break(struct sim *s);

#endif
