/*
 * test_rf_view.c: the `rf` panel drawn off-screen at 80x24 (4 banks, three
 * lines each, scrolled) and 200x60 (all 16 banks) on a racetrack register
 * file under RMWS, stopped at the first rf.shift_stall; and its message on
 * the default free SRAM operand path.
 */
#include <stdio.h>
#include <stdlib.h>

#include "test.h"
#include "view.h"
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
					"break rf.shift_stall\ncontinue\n");
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
