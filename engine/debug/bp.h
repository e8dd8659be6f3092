/*
 * bp.h: breakpoints and watchpoints, matched inside the engine so that a
 * `continue` checks only event kinds someone watches.
 *
 *   break EVENT [field=value ...] [if STAT OP VALUE]   event breakpoint
 *   break cycle N                                      stop when cycle == N
 *   tbreak ...                                         break, deleted at its first stop
 *   watch ADDR                                         wherever ADDR's line moves:
 *                                                      accesses, fills, replies,
 *                                                      evictions, DRAM enqueue/done
 *   watch STAT OP VALUE                                stop when it becomes true
 *
 * Parsing lives here too (pure text), so the TUI prompt and batch scripts
 * accept exactly the same syntax.
 */
#ifndef GPUSTEP_BP_H
#define GPUSTEP_BP_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/event.h"
#include "sim/stats.h"

enum bp_type { BP_EVENT, BP_CYCLE, BP_WATCH_ADDR, BP_WATCH_STAT };
enum bp_op { BP_EQ, BP_NE, BP_LT, BP_LE, BP_GT, BP_GE, BP_CHANGED /* watch STAT: any change of value */ };

#define BP_MAX_FILTERS 8
/* Breakpoints and watchpoints a set holds at most (each enabled one is
 * checked against every event of its kind); `break` beyond it is refused, and
 * a session file may hold as many (docs/SESSIONS.md). */
#define BP_MAX 1024

struct bp_filter {
	unsigned field; /* EVF_ bit */
	enum bp_op op;
	int64_t value;
};

struct bp {
	int id;
	enum bp_type type;
	bool enabled;
	bool temporary; /* deleted after its first hit (`until`) */
	unsigned kind;  /* BP_EVENT */
	struct bp_filter f[BP_MAX_FILTERS];
	unsigned nf;
	bool has_cond; /* `if STAT OP VALUE` / watch STAT */
	uint32_t stat;
	char stat_name[96]; /* to re-resolve `stat` when the simulator is rebuilt */
	enum bp_op cop;
	double cval;        /* BP_CHANGED: the value at the last cycle polled */
	double changed_from; /* BP_CHANGED: the value before the change that stopped */
	bool was_true;      /* watch STAT: edge trigger */
	uint64_t cycle;     /* BP_CYCLE */
	uint64_t line_addr; /* BP_WATCH_ADDR, aligned to line_bytes */
	uint64_t line_bytes;
	uint64_t hits;
	/* `ignore N COUNT`: hits ignore_from..ignore_to count but do not stop
	 * (hit numbers, so rewinding to before the `ignore` stops as before). */
	uint64_t ignore_from, ignore_to;
	char text[160]; /* as typed, for `info break` */
};

struct bp_set {
	struct bp *v;
	unsigned n, cap;
	int next_id;
	struct stats *stats;
	/* Stop request raised during a cycle; the sim loop ends the step. */
	bool stop;
	int stop_id;
	struct event stop_ev; /* the event that fired (kind EV__COUNT for cycle/stat) */
	char stop_reason[256];
};

void bp_init(struct bp_set *b, struct stats *stats);
void bp_fini(struct bp_set *b);
/* Parse the arguments of `break` / `watch` / `until`; returns the new id or -1. */
int bp_add_break(struct bp_set *b, const char *args, uint64_t line_bytes, char **err);
int bp_add_watch(struct bp_set *b, const char *args, uint64_t line_bytes, char **err);
/* `until` arguments (same syntax as break): a temporary breakpoint. */
int bp_add_until(struct bp_set *b, const char *args, uint64_t line_bytes, char **err);
/* `tbreak` (gdb): a breakpoint deleted when it first stops. */
int bp_add_tbreak(struct bp_set *b, const char *args, uint64_t line_bytes, char **err);
/* `ignore N COUNT`: the next COUNT hits of N count but do not stop. */
int bp_set_ignore(struct bp_set *b, int id, uint64_t count, char **err);
/* `condition N [STAT OP VALUE]`: replace (or with NULL/"" remove) the `if`
 * condition of event breakpoint N; its text follows. */
int bp_set_condition(struct bp_set *b, int id, const char *cond, char **err);
/* Point the set at a rebuilt simulator's stats: re-resolves stat names; a
 * breakpoint whose stat no longer exists is disabled (returns how many). */
int bp_rebind(struct bp_set *b, struct stats *stats);
/* Value a condition compares: occupancies by their current level, others by
 * stats_value(). */
const char *bp_op_name(enum bp_op op);
int bp_delete(struct bp_set *b, int id); /* id < 0: all; returns count removed */
int bp_enable(struct bp_set *b, int id, bool on);
/* After the machine's state was replaced (rewind, a session's saved state,
 * a replay from cycle 0): `watch STAT` change watches take the value they
 * compare against from the restored stats, which is what they held when
 * that cycle was first polled. */
void bp_resync_changes(struct bp_set *b);
struct bp *bp_get(struct bp_set *b, int id);
/* Event kinds the set needs to see (OR into events.watch). */
void bp_watch_mask(const struct bp_set *b, uint64_t *mask);
/* Called by ev_emit for watched kinds. */
void bp_on_event(struct bp_set *b, const struct event *e);
/* Cycle and stat conditions, checked by the sim loop after each cycle it
 * simulates (only when such breakpoints exist). */
bool bp_has_polled(const struct bp_set *b);
void bp_poll(struct bp_set *b, uint64_t cycle);
/* Earliest enabled cycle breakpoint > now, or UINT64_MAX (bounds skip-ahead). */
uint64_t bp_next_cycle(const struct bp_set *b, uint64_t now);
void bp_clear_stop(struct bp_set *b);

#endif
