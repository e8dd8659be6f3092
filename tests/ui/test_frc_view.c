/*
 * test_frc_view.c: the FRC panel drawn off-screen at two sizes in the middle
 * of a gather_random run with 16 FRC entries per bank, stopped when a swap
 * completes; and its message when the machine has no FRC.
 */
#include <stdio.h>
#include <stdlib.h>

#include "test.h"
#include "view.h"
#include "vtest.h"

static void draw(struct session *ss, int w, int h, const char *name)
{
	struct panel *p = panel_create("frc");
	REQUIRE(p != NULL);
	WINDOW *win = newwin(h, w, 0, 0);
	REQUIRE(win != NULL);
	struct view_ctx c = {.sim = ss->sim, .sel_l2 = ss->sel_l2, .focused = true};
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	CHECK_SNAPSHOT(name, text);
	free(text);
	delwin(win);
	panel_free(p);
}

TEST(view_frc_snapshot)
{
	vt_screen();
	struct session *ss =
		vt_session("set l2.frc.entries 16\nworkload gather_random\nbreak frc.swap_done\ncontinue\ncontinue\n");
	REQUIRE(ss != NULL);
	draw(ss, 80, 24, "frc_80x24");
	draw(ss, 132, 40, "frc_132x40");
	vt_session_free(ss);
}

TEST(view_frc_without_frc_says_how_to_enable)
{
	vt_screen();
	struct session *ss = vt_session("step 10\n");
	REQUIRE(ss != NULL);
	struct panel *p = panel_create("frc");
	WINDOW *win = newwin(6, 100, 0, 0);
	struct view_ctx c = {.sim = ss->sim, .focused = true};
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	CHECK_CONTAINS(text, "no FRC in this machine");
	CHECK_CONTAINS(text, "l2.frc.entries");
	free(text);
	delwin(win);
	panel_free(p);
	vt_session_free(ss);
}
