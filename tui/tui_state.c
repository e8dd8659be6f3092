/*
 * tui_state.c: the status bar's state word after a run: finished,
 * deadlocked (a model bug), stopped at a breakpoint, interrupted, paused.
 */
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"
#include "tui_int.h"

/* "Breakpoint 2, dram.row_conflict ch=0 bank=3 at cycle 813 (logged in cycle 812)" ->
 * "stopped at breakpoint 2: dram.row_conflict ch=0 bank=3". */
static void format_break_state(struct tui *t, const struct bp_set *b)
{
	const char *r = b->stop_reason;
	const char *comma = strstr(r, ", ");
	char label[64] = "breakpoint";
	const char *what = r;
	if (comma) {
		size_t n = (size_t)(comma - r) < sizeof label ? (size_t)(comma - r) : sizeof label - 1;
		memcpy(label, r, n);
		label[n] = 0;
		what = comma + 2;
	}
	for (char *p = label; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	/* The cycle is the status bar's own field: drop " at cycle N (logged in cycle M)". */
	const char *at = strstr(what, " at cycle ");
	int n = at ? (int)(at - what) : (int)strlen(what);
	if (n > 200)
		n = 200;
	if (comma)
		snprintf(t->state, sizeof t->state, "stopped at %s: %.*s", label, n, what);
	else
		snprintf(t->state, sizeof t->state, "stopped at breakpoint %d: %.*s", b->stop_id, n, what);
}

bool tui_end_state(struct tui *t, const struct session *ss)
{
	if (!ss->sim || !sim_done(ss->sim))
		return false;
	bool dead = sim_deadlock(ss->sim, NULL, 0);
	snprintf(t->state, sizeof t->state, dead ? "deadlocked" : "finished");
	t->state_role = dead ? R_BAR_ALERT : R_BAR_DONE;
	return true;
}

void tui_stop_state(struct tui *t, struct session *ss)
{
	t->state_role = R_NORMAL;
	if (tui_end_state(t, ss))
		return;
	if (ss->last_stop == SIM_STOP_BREAK) {
		format_break_state(t, &ss->bps);
		t->state_role = R_BAR_ALERT;
		if (ss->bps.stop_ev.kind < EV__COUNT) {
			t->stop_ev = ss->bps.stop_ev;
			t->have_stop_ev = true;
		}
	} else if (ss->last_stop == SIM_STOP_INTERRUPT) {
		snprintf(t->state, sizeof t->state, "interrupted");
		t->state_role = R_BAR_ALERT;
	} else {
		snprintf(t->state, sizeof t->state, "paused");
	}
}
