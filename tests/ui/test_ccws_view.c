/*
 * test_ccws_view.c: the `warps` panel under core.scheduler = ccws: the
 * cutoff and the number of held warps in the title, and per warp its
 * lost-locality score, lost-locality hits and whether its loads are held.
 * matmul_naive on the teaching preset (A's rows are reused by each warp
 * along k and lost in the small L1), stopped while warps are held; drawn
 * off-screen at 80x24 and 132x40.
 */
#include <stdio.h>
#include <stdlib.h>

#include "debug/inspect.h"
#include "test.h"
#include "views/view.h"
#include "vtest.h"

static char *draw_warps(struct session *ss, int w, int h)
{
	struct panel *p = panel_create("warps");
	REQUIRE(p != NULL);
	WINDOW *win = newwin(h, w, 0, 0);
	REQUIRE(win != NULL);
	struct view_ctx c = {.sim = ss->sim, .sel_sm = 0, .focused = true};
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	delwin(win);
	panel_free(p);
	return text;
}

TEST(view_ccws_warps_scores)
{
	vt_screen();
	struct session *ss = vt_session("set core.scheduler ccws\nset l2.fill_reply at_once\nworkload matmul_naive\nstep 1500\n");
	REQUIRE(ss != NULL);
	struct ccws_info cc;
	REQUIRE(inspect_ccws(ss->sim, 0, &cc));
	/* A's rows, lost by warps 0-2 and 4, put 3 warps' scores above the
	 * cutoff of 8 x 100: warps 3-7 are held at their loads. */
	CHECK_EQ(cc.cutoff, 800);
	CHECK_EQ(cc.live, 8);
	CHECK_EQ(cc.throttled, 5);
	CHECK_EQ(cc.thr_mask, 0xf8);
	char *t = draw_warps(ss, 80, 24);
	CHECK_CONTAINS(t, "ccws cutoff 800, 5 held");
	CHECK_CONTAINS(t, "LLS LOST LD");
	CHECK_CONTAINS(t, "held");
	CHECK_SNAPSHOT("warps_ccws_80x24", t);
	free(t);
	t = draw_warps(ss, 132, 40);
	CHECK_CONTAINS(t, "inactive");
	CHECK_CONTAINS(t, "INSTS");
	CHECK_SNAPSHOT("warps_ccws_132x40", t);
	free(t);
	vt_session_free(ss);
}
