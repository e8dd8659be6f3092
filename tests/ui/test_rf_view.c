/*
 * test_rf_view.c: the `rf` panel drawn off-screen at 80x24 (4 banks, three
 * lines each, scrolled) and 200x60 (all 16 banks) on a racetrack register
 * file under RMWS, stopped at the first rf.shift_stall after cycle 400 (the
 * write buffer holding results, queues of several requests); and its message on
 * the default free SRAM operand path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/draw.h"
#include "debug/inspect.h"
#include "test.h"
#include "views/view.h"
#include "vtest.h"

static char *draw(struct session *ss, struct panel *p, int w, int h)
{
	WINDOW *win = newwin(h, w, 0, 0);
	REQUIRE(win != NULL);
	struct view_ctx c = {.sim = ss->sim, .sel_sm = ss->sel_sm, .focused = true};
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	delwin(win);
	return text;
}

TEST(view_rf_snapshot_at_shift_stall)
{
	vt_screen();
	struct session *ss = vt_session("set rf.kind racetrack\nset core.scheduler rmws\nworkload matmul_tiled\n"
					"step 400\nbreak rf.shift_stall\ncontinue\n");
	REQUIRE(ss != NULL);
	struct panel *p = panel_create("rf");
	REQUIRE(p != NULL);
	char *t = draw(ss, p, 80, 24);
	CHECK_SNAPSHOT("rf_80x24", t);
	CHECK_CONTAINS(t, "b0 ");
	CHECK_CONTAINS(t, "wb:");
	free(t);
	struct view_ctx c = {.sim = ss->sim, .focused = true};
	panel_key(p, KEY_NPAGE, &c);
	t = draw(ss, p, 80, 24);
	CHECK_SNAPSHOT("rf_80x24_scrolled", t);
	free(t);
	panel_reset(p);
	t = draw(ss, p, 200, 60);
	CHECK_SNAPSHOT("rf_200x60", t);
	CHECK_CONTAINS(t, "b15");
	free(t);
	panel_free(p);
	vt_session_free(ss);
}

TEST(view_rf_free_sram_path_says_how_to_enable)
{
	vt_screen();
	struct session *ss = vt_session("step 10\n");
	REQUIRE(ss != NULL);
	struct panel *p = panel_create("rf");
	char *t = draw(ss, p, 120, 8);
	CHECK_CONTAINS(t, "free SRAM operand path");
	CHECK_CONTAINS(t, "rf.kind racetrack");
	free(t);
	panel_free(p);
	vt_session_free(ss);
}

/* Row colours: every owned domain of a strip carries its owner's colour role
 * (warp slot mod 4), unused rows are dim, and with more than one scheduler
 * and warp-register remapping each bank is labelled with its scheduler and
 * the counter line shows the schedule hazards. The warps panel then has a
 * SCH column. */
TEST(view_rf_dual_rmws_owner_colours_and_schedulers)
{
	vt_screen();
	struct session *ss = vt_session("set rf.kind racetrack\nset core.scheduler rmws\nset core.schedulers 2\n"
					"set rf.warp_reg_remap true\nworkload matmul_tiled\nstep 400\n");
	REQUIRE(ss != NULL);
	struct panel *p = panel_create("rf");
	REQUIRE(p != NULL);
	WINDOW *win = newwin(60, 200, 0, 0);
	REQUIRE(win != NULL);
	struct view_ctx c = {.sim = ss->sim, .sel_sm = ss->sel_sm, .focused = true};
	panel_draw(p, win, &c);
	char *t = vt_text(win);
	CHECK_SNAPSHOT("rf_dual_remap_200x60", t);
	CHECK_CONTAINS(t, "2 sched (private banks) hazards 0");
	CHECK_CONTAINS(t, "b0  s0");
	CHECK_CONTAINS(t, "b8  s1");
	free(t);
	/* the strip of bank 0 starts at column 4 of the line after its header
	 * (frame row 0, counters row 1, bank 0 at rows 2-3) */
	int checked = 0, colours = 0;
	attr_t seen[4] = {0};
	for (int row = 0; row < 64; row++) {
		int wp, rg;
		int col = 4 + row + row / 16; /* segments are separated by '|' */
		chtype ch = mvwinch(win, 3, col);
		if (!inspect_rf_owner(ss->sim, 0, row, &wp, &rg)) {
			CHECK_EQ((char)(ch & A_CHARTEXT), '.');
			continue;
		}
		attr_t want = role_attr((enum role)(R_OWN0 + (wp & 3)));
		CHECK_EQ(ch & A_COLOR, want & A_COLOR);
		CHECK_EQ(wp % 2, 0); /* bank 0 belongs to scheduler 0: even warp slots only */
		if (!seen[wp & 3]++)
			colours++;
		checked++;
	}
	CHECK(checked >= 8);
	CHECK(colours >= 2); /* neighbouring warps differ */
	delwin(win);
	panel_free(p);
	p = panel_create("warps");
	REQUIRE(p != NULL);
	win = newwin(24, 80, 0, 0);
	panel_draw(p, win, &c);
	t = vt_text(win);
	CHECK_SNAPSHOT("warps_dual_80x24", t);
	CHECK_CONTAINS(t, "2 schedulers");
	CHECK_CONTAINS(t, "SCH");
	free(t);
	delwin(win);
	panel_free(p);
	vt_session_free(ss);
}

/* A breakpoint on rf.schedule_hazard stops after the cycle in which two RMWS
 * schedulers pulled a bank both ways; the panel marks that bank HAZARD (and
 * only banks hit in that cycle), and the counter line counts it. */
TEST(view_rf_breaks_on_schedule_hazard_and_marks_the_bank)
{
	vt_screen();
	struct session *ss = vt_session("set rf.kind racetrack\nset core.scheduler rmws\nset core.schedulers 2\n"
					"workload matmul_tiled\nlog +rf.schedule_hazard\nbreak rf.schedule_hazard\ncontinue\n");
	REQUIRE(ss != NULL);
	const struct events *ev = sim_events(ss->sim);
	const struct event *e = NULL;
	for (uint64_t i = 0; (e = events_recent(ev, i)) && e->kind != EV_RF_SCHED_HAZARD; i++)
		;
	REQUIRE(e != NULL);
	CHECK_EQ(e->cycle + 1, sim_cycle(ss->sim));
	int bank = e->unit, smi = e->sm;
	vt_exec(ss, smi ? "select sm 1\n" : "select sm 0\n");
	struct panel *p = panel_create("rf");
	REQUIRE(p != NULL);
	WINDOW *win = newwin(60, 200, 0, 0);
	struct view_ctx c = {.sim = ss->sim, .sel_sm = smi, .focused = true};
	panel_draw(p, win, &c);
	char *t = vt_text(win);
	CHECK_CONTAINS(t, "2 sched hazards 1");
	char want[16];
	snprintf(want, sizeof want, "\nb%-2d ", bank);
	const char *line = strstr(t, want);
	REQUIRE(line != NULL);
	const char *eol = strchr(line + 1, '\n'), *mark = strstr(line, "HAZARD");
	CHECK(mark != NULL && eol != NULL && mark < eol); /* on that bank's line */
	/* every HAZARD mark is on a bank the event log names for this cycle */
	int marks = 0;
	for (const char *q = strstr(t, "HAZARD"); q; q = strstr(q + 1, "HAZARD"))
		marks++;
	int logged = 0;
	for (uint64_t i = 0; (e = events_recent(ev, i)) && e->cycle + 1 == sim_cycle(ss->sim); i++)
		logged += e->kind == EV_RF_SCHED_HAZARD && e->sm == smi;
	CHECK_EQ(marks, logged);
	free(t);
	delwin(win);
	panel_free(p);
	vt_session_free(ss);
}
