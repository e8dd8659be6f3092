/*
 * test_lab.c: issue 22, what a lab on coalescing, MSHRs, DRAM row buffers
 * and reuse needs from the screen and the debugger commands: the events
 * panel following every stop, gdb's habits, the legends of every column,
 * the coalescer and DRAM queue views, watchpoints on a line's movements.
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "draw.h"
#include "sesstest.h"
#include "test.h"
#include "tui.h"
#include "tui_int.h"
#include "vtest.h"

static char *screen_row(int y, char *buf, size_t n) { return draw_read_row(curscr, y, buf, n); }

/* A screen row whose text contains `needle` drawn with the breakpoint
 * colours (the event that fired), or -1. */
static int highlighted_row(const char *needle)
{
	char row[512];
	for (int y = 1; y < LINES; y++) {
		screen_row(y, row, sizeof row);
		char *p = strstr(row, needle);
		if (!p || strstr(row, "Breakpoint") || strstr(row, "stopped"))
			continue;
		cchar_t cc;
		mvwin_wch(curscr, y, (int)(p - row), &cc);
		attr_t a;
		short pair;
		wchar_t wc[CCHARW_MAX + 1];
		getcchar(&cc, wc, &a, &pair, NULL);
		if ((a & A_BOLD) && pair == PAIR_NUMBER(role_attr(R_BREAK)))
			return y;
	}
	return -1;
}

/* Item 1: every stop brings its own event into the events panel, not only
 * the first one after a run that ended without a breakpoint. */
TEST(lab_events_panel_follows_every_stop)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_exec(t, "workload stencil2d");
	tui_exec(t, "log all");
	tui_exec(t, "break l1.mshr_merge");
	for (int i = 0; i < 4; i++) {
		CHECK(tui_exec(t, "continue") & CMD_RUN);
		tui_run_to_stop(t);
		tui_frame(t);
		/* The highlighted row is this stop's event (cycle, sm, addr). */
		const struct event *e = &ss->bps.stop_ev;
		char want[96];
		snprintf(want, sizeof want, "%llu l1.mshr_merge      sm=%d warp=%d addr=0x%llx",
			 (unsigned long long)e->cycle, e->sm, e->warp, (unsigned long long)e->addr);
		int y = highlighted_row("l1.mshr_merge");
		if (y < 0) {
			test_fail(__FILE__, __LINE__, "stop %d: the stop event is not highlighted", i + 1);
			continue;
		}
		char row[512];
		CHECK_CONTAINS(screen_row(y, row, sizeof row), want);
	}
	tui_exec(t, "delete");
	tui_exec(t, "run 0");
	tui_exec(t, "break dram.row_conflict");
	for (int i = 0; i < 3; i++) {
		tui_exec(t, "continue");
		tui_run_to_stop(t);
		tui_frame(t);
		CHECK(highlighted_row("dram.row_conflict") > 0);
	}
	vt_tui_stop(t, ss);
}
