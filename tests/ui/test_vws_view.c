/*
 * test_vws_view.c: the `warps` panel under core.scheduler = vws: N_act in the
 * title, the estimator line, and per warp the level (1, 2, x), its WS and
 * RRDegr, and why it entered level 1. matmul_naive on SMs of 16 warps with a
 * level 1 of 4, so InterCL's pool demotes and promotes; drawn off-screen at
 * 80x24 and 132x40.
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

TEST(view_vws_warps_levels)
{
	vt_screen();
	struct session *ss = vt_session("set core.warps_per_sm 16\nset core.threads_per_sm 512\nset core.vws_level1 4\n"
					"set core.scheduler vws\nset core.cta_dispatch serial\nworkload matmul_naive\nstep 700\n");
	REQUIRE(ss != NULL);
	struct vws_info v;
	REQUIRE(inspect_vws(ss->sim, 0, &v));
	CHECK_EQ(v.level1_cap, 4);
	char *t = draw_warps(ss, 80, 24);
	CHECK_CONTAINS(t, "vws N_act");
	CHECK_CONTAINS(t, "level 1 ");
	CHECK_CONTAINS(t, "RRDEG");
	CHECK_CONTAINS(t, "WHY");
	CHECK_SNAPSHOT("warps_vws_80x24", t);
	free(t);
	t = draw_warps(ss, 132, 40);
	CHECK_CONTAINS(t, "same");
	CHECK_CONTAINS(t, "INSTS");
	CHECK_SNAPSHOT("warps_vws_132x40", t);
	free(t);
	vt_session_free(ss);
}
