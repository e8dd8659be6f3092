/*
 * test_timeline_view.c: the timeline panel on the FRC thesis's fig. 6.2 case
 * (l2_set_burst, one CTA, three iterations, a one-way L2, fixed memory) with
 * the FRC off and with 4 entries, stopped at cycle 400, at two sizes; the
 * `timeline` command; and the note when the log filter leaves kinds out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/commands.h"
#include "test.h"
#include "views/view.h"
#include "vtest.h"

#define FIG62 "log all\nworkload l2_set_burst\nset param.ctas 1\nset param.iters 3\nset l2.ways 1\nset mem.model fixed\n"

static char *draw_text(struct session *ss, int w, int h)
{
	struct panel *p = panel_create("timeline");
	REQUIRE(p != NULL);
	WINDOW *win = newwin(h, w, 0, 0);
	REQUIRE(win != NULL);
	struct view_ctx c = {.sim = ss->sim, .sel_l2 = ss->sel_l2, .tl_bank = ss->tl_bank, .tl_set = ss->tl_set,
			     .tl_fixed = ss->tl_fixed, .focused = true};
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	delwin(win);
	panel_free(p);
	return text;
}

static void draw(struct session *ss, int w, int h, const char *name)
{
	char *text = draw_text(ss, w, h);
	CHECK_SNAPSHOT(name, text);
	free(text);
}

TEST(view_timeline_fig62_frc_off)
{
	vt_screen();
	struct session *ss = vt_session(FIG62 "step 400\n");
	REQUIRE(ss != NULL);
	char *text = draw_text(ss, 132, 40);
	CHECK_CONTAINS(text, "l2 bank 0 set 0");
	CHECK_CONTAINS(text, "nnnnFFFF"); /* a NACK wait, then the fetch */
	CHECK_CONTAINS(text, "*");
	free(text);
	draw(ss, 80, 24, "timeline_fig62_off_80x24");
	draw(ss, 132, 40, "timeline_fig62_off_132x40");
	vt_session_free(ss);
}

TEST(view_timeline_fig62_frc_on)
{
	vt_screen();
	struct session *ss = vt_session(FIG62 "set l2.frc.ways 8\nset l2.frc.entries 8\nstep 400\n");
	REQUIRE(ss != NULL);
	char *text = draw_text(ss, 132, 40);
	CHECK_CONTAINS(text, "RRRR"); /* FRC fetches overlap */
	CHECK(strstr(text, "nnn") == NULL); /* and nobody is refused */
	free(text);
	draw(ss, 80, 24, "timeline_fig62_frc_80x24");
	draw(ss, 132, 40, "timeline_fig62_frc_132x40");
	vt_session_free(ss);
}

TEST(view_timeline_command_fixes_the_set_and_logs_kinds)
{
	vt_screen();
	struct session *ss = vt_session(FIG62 "log none\nstep 50\n");
	REQUIRE(ss != NULL);
	char *text = draw_text(ss, 100, 10);
	CHECK_CONTAINS(text, "no L2 event of this bank");
	CHECK_CONTAINS(text, "not logged: l2.access");
	free(text);
	vt_exec(ss, "timeline l2 0 0\nstep 100\n");
	CHECK(ss->tl_fixed && ss->tl_bank == 0 && ss->tl_set == 0);
	text = draw_text(ss, 100, 10);
	CHECK_CONTAINS(text, "l2 bank 0 set 0 ");
	CHECK(strstr(text, "not logged") == NULL);
	CHECK_CONTAINS(text, ">");
	free(text);
	vt_exec(ss, "timeline follow\n");
	CHECK(!ss->tl_fixed);
	vt_session_free(ss);
}
