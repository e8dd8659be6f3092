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
 * from snapshots; leaves the simulator at the current cycle. The same as
 * sim_back_search_begin + _step until done + _end. */
uint64_t sim_prev_break(struct sim *s);

/* The same search in slices (the TUI's reverse-continue, which Ctrl-C stops).
 * It replays one snapshot interval at a time, newest first, and ends at the
 * first interval that holds a stop:
 *
 *   horizon ... |S(k-1)------|S(k)---------|S(k+1)----* origin
 *                              <- 3rd         <- 2nd     <- 1st (ends at origin-1)
 *
 * begin keeps an exact copy of the state at the origin; _end puts it back
 * (arena, event counters, hit counts: the same state hash), whether the
 * search found a stop, found none, or is being cancelled half way. While a
 * search is open the simulator is somewhere in the past: run nothing else on
 * it until _end. */
struct sim_back_search {
	uint64_t origin;     /* the cycle the search started at */
	uint64_t limit;      /* next interval: the newest snapshot before this cycle */
	uint64_t from, end;  /* the interval being replayed: (from, end], from a snapshot */
	bool in_interval;    /* from/end are set and being replayed */
	bool done;           /* finished: found holds the answer */
	uint64_t last_break; /* the last stop seen in the current interval */
	uint64_t found;      /* the answer: a stop's cycle, or UINT64_MAX for none */
	uint64_t replayed;   /* cycles replayed so far (progress, slice tuning) */
};
enum sim_search_status {
	SIM_SEARCH_MORE,       /* budget used, not finished */
	SIM_SEARCH_DONE,       /* b->found is the answer */
	SIM_SEARCH_INTERRUPTED /* sim_interrupt() was called: cancel with _end */
};
void sim_back_search_begin(struct sim *s, struct sim_back_search *b);
/* Replay at most about `budget` cycles (each snapshot restored counts as at
 * least one). */
enum sim_search_status sim_back_search_step(struct sim *s, struct sim_back_search *b, uint64_t budget);
/* Back to the origin exactly as it was; frees the copy. */
void sim_back_search_end(struct sim *s, struct sim_back_search *b);

#endif
