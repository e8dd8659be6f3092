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
 * ahead stops there). The first one (the base) is a whole copy; every other
 * one keeps only the 64-byte blocks that differ from the base (zero blocks
 * cost two bits), which on titanv is about a sixth of the state.
 *
 * Placement bounds the replay: no two neighbouring snapshots are more than
 * G cycles apart (G: sim_snapshots_set_max_gap, or automatically what the
 * machine simulates in 0.16 s at the speed measured between snapshots, or in
 * twenty times the time one snapshot takes when that is longer, so snapshots
 * cost at most about 5 %; a multiple of 1024), and
 * K <= G. When the budget is reached, every other snapshot in the older half
 * is dropped where the gap left stays <= G (thinning with age; K doubles up
 * to G), and when none can go without breaking that, the oldest but the base:
 *
 *   base            window start                              now
 *   S0 ............ |S---------S---------S-----S-----S--S--S--*
 *   (reachable,       replay <= G for every target from here on
 *    replay longer)
 */
#ifndef GPUSTEP_SNAPSHOT_H
#define GPUSTEP_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

/* Enable with a memory budget in bytes (0 disables and frees them). Takes the
 * snapshot of the current cycle at once. */
void sim_snapshots_enable(struct sim *s, size_t budget_bytes);
/* Snapshots held, bytes used, current interval. */
void sim_snapshots_info(const struct sim *s, size_t *count, size_t *bytes, uint64_t *interval);
/* Earliest cycle reachable by rewinding (0 when snapshots are on). */
uint64_t sim_rewind_horizon(const struct sim *s);
/* The replay bound G in cycles (0 = automatic, the default). */
void sim_snapshots_set_max_gap(struct sim *s, uint64_t cycles);
/* G in force (UINT64_MAX while the automatic one is not measured yet; 0 when
 * rewinding is off). */
uint64_t sim_snapshots_max_gap(const struct sim *s);
/* Earliest cycle from which every backward target replays at most G cycles. */
uint64_t sim_rewind_window(const struct sim *s);
/* Cycles a goto to `cycle` would replay (0 forwards; UINT64_MAX unreachable). */
uint64_t sim_replay_distance(const struct sim *s, uint64_t cycle);
/* Rewinding's work since snapshots were enabled: snapshots restored and
 * cycles replayed from them (by sim_goto backwards and by the back search),
 * for timing reports (a backward goto costs one restore plus its replay). */
void sim_rewind_work(const struct sim *s, uint64_t *restores, uint64_t *replayed);
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

/* The machine state as a blob (snapstate.c) for session files: the state XOR
 * this machine's state at cycle 0 (its base snapshot, so rewinding must have
 * been on since cycle 0), run-length coded; pointers, fixed since the build,
 * come out as the reader's own. *out is malloc'ed; caller frees. */
int sim_state_export(const struct sim *s, unsigned char **out, size_t *len, char **err);
/* Put a blob onto s, freshly built from the same config, workload and seed,
 * at cycle 0, its breakpoints attached (hit counts come from the blob). Every
 * length and count is checked first: on error s is unchanged. */
int sim_state_import(struct sim *s, const unsigned char *blob, size_t len, char **err);

#endif
