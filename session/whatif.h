/*
 * whatif.h: the fork/compare/report core of `whatif` (the TUI command,
 * tui/cmd_whatif.c, and the headless `gpustep whatif`, cli/whatif.c).
 *
 * Two machines, A under the session's configuration and B under a changed
 * one, are forked from the session's machine at its stop (or built at cycle
 * 0 with from_start) and run in lockstep over the same span; their event
 * logs are compared as they go, so the first pair of events that differ is
 * where they part. The report says where, why (on each side), which counters
 * moved most and how the stall mix changed. The session's own machine is
 * never stepped.
 */
#ifndef GPUSTEP_SESSION_WHATIF_H
#define GPUSTEP_SESSION_WHATIF_H

#include <stdbool.h>
#include <stdint.h>

#include "session.h"
#include "sim/event.h"
#include "sim/evcode.h"

#define WHATIF_MAX_KEYS 8
#define WHATIF_TOP 12 /* stats listed under "what moved" */

enum whatif_span { WHATIF_TO_END, WHATIF_CYCLES, WHATIF_UNTIL };

/* What to change and over which span. */
struct whatif_spec {
	char keys[WHATIF_MAX_KEYS][128], vals[WHATIF_MAX_KEYS][256];
	int nkeys;
	enum whatif_span span;
	uint64_t cycles;
	char until[512];
	bool from_start;
	struct sim_cfg cfg; /* the base configuration with the changes */
};

/* Output: print for the report, error for what went wrong; cancel (may be
 * NULL) is asked between chunks and stops the whatif when it says true. */
struct whatif_out {
	void (*print)(void *u, const char *text);
	void (*error)(void *u, const char *text);
	void *u;
	bool (*cancel)(void *u);
};

/* Where the two runs part. */
struct whatif_part {
	bool parted, lost;
	uint64_t cycle;    /* of the earlier of the two differing events */
	bool has_a, has_b; /* a side that ended has no event there */
	struct event a, b;
};

/* One counter that differs over the span (name points into A's stats). */
struct whatif_stat {
	const char *name;
	double a, b, d, rel; /* span values, difference, difference / max(|a|, |b|) */
};

struct whatif_result {
	struct whatif_part part;
	uint64_t fork_at, start_cycle; /* the session's stop; where A and B began */
	struct sim *a, *b;             /* both sides at the span's end (owned) */
	bool interrupted;              /* cancelled: a and b stopped early, no report */
	struct whatif_stat *changes;   /* the differing counters, the largest effect first, */
	uint32_t nchanges;             /* without per-unit copies of a total (whatif_drop_unit_copies) */
	uint32_t nmoved;               /* every differing counter */
	int64_t stall_a[STALL__COUNT], stall_b[STALL__COUNT]; /* SM-cycles per reason over the span */
};

/* The spec for changes on top of base: whole run when from_start and
 * span WHATIF_TO_END. */
void whatif_spec_init(struct whatif_spec *w, const struct sim_cfg *base);
/* Add one change "KEY=VALUE" (applied to w->cfg): 0, or -1 and *err. */
int whatif_spec_add(struct whatif_spec *w, const char *kv, char **err);
/* After the last whatif_spec_add: the changed configuration valid? */
int whatif_spec_check(const struct whatif_spec *w, char **err);
/* "k1=v1 k2=v2" */
const char *whatif_change_text(const struct whatif_spec *w, char *buf, size_t n);

/* Run the whatif and print its report; 0 with *r filled (free it with
 * whatif_result_free), or -1 with the reason sent to out->error (r is then
 * empty). A cancelled whatif returns 0 with r->interrupted set. quiet: no
 * report (the caller reads r). */
int whatif_run(struct session *ss, const struct whatif_spec *w, const struct whatif_out *out, bool quiet,
	       struct whatif_result *r);
void whatif_result_free(struct whatif_result *r);
/* Async-signal-safe: stop the running whatif (a SIGINT handler calls it).
 * whatif_run forgets a request made before it started. */
void whatif_interrupt(void);

/* `whatif --each`: one fork per change of w (each alone, same span and
 * from_start), ranked by the change in cycles (most cycles saved first),
 * printed with a bar per change. */
struct whatif_each_row {
	char change[400];
	bool ok;           /* false: the change was refused (msg says why) */
	char msg[256];
	uint64_t cycles_a, cycles_b; /* the span's length on A and B */
	int64_t delta;     /* cycles_b - cycles_a */
	bool parted;
	uint64_t part_cycle;
	char top[160];     /* the counter that moved most, "" when none */
};
/* 0 with *rows (n of them, caller frees), -1 when nothing ran or it was
 * interrupted (said on out->error). */
int whatif_each(struct session *ss, const struct whatif_spec *w, const struct whatif_out *out,
		struct whatif_each_row **rows, int *n);

/* The ranking of "what moved", for `gpustep diff` too: largest
 * |rel| x log10(2 + |d|) first, then by name. */
int whatif_stat_rank(const void *x, const void *y);
/* "sm3.l1.misses" -> "l1", "dram.row_hits" -> "dram". */
void whatif_structure_of(const char *name, char *buf, size_t n);
/* Drop from v (m entries) each per-unit stat ("sm3.l1.nacks",
 * "l2.bank0.nacks") whose total ("l1.nacks", "l2.nacks") is in v with the
 * same two values: all of the total's change is that unit's, and listing
 * both would crowd other stats out. Keeps the order; the new count. */
uint32_t whatif_drop_unit_copies(struct whatif_stat *v, uint32_t m);
/* The top WHATIF_TOP of v (m, ranked) re-sorted by structure, as the report
 * prints them; moved: how many differ before whatif_drop_unit_copies;
 * noun: what they are ("counters"). */
void whatif_print_changes(const struct whatif_out *out, const char *noun, const struct whatif_stat *v, uint32_t m,
			  uint32_t moved, const char *la, const char *lb);
/* The Nsight Compute name of a stall reason. */
const char *whatif_stall_nsight(int r);
/* Bytes of state one more copy of the session's machine takes. */
uint64_t whatif_copy_bytes(const struct session *ss);

#endif
