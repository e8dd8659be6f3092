/*
 * test_bypass_view.c: panels of the locality policies. The `cache` panel with
 * l1.bypass = locality shows the
 * decoupled tag store (RC, position) beside the data store; drawn off-screen
 * at two sizes when a candidate is promoted in a matmul_naive run; the
 * `warps` panel under VWS shows the estimator line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "test.h"
#include "view.h"
#include "vtest.h"

static char *draw(struct session *ss, int w, int h)
{
	struct panel *p = panel_create("cache");
	REQUIRE(p != NULL);
	WINDOW *win = newwin(h, w, 0, 0);
	REQUIRE(win != NULL);
	struct view_ctx c = {.sim = ss->sim, .sel_sm = ss->sel_sm, .focused = true};
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	delwin(win);
	panel_free(p);
	return text;
}

TEST(view_bypass_tagstore_snapshot)
{
	vt_screen();
	struct session *ss = vt_session("set l1.bypass locality\nset l1.bypass_leaders sms\nworkload matmul_naive\nbreak l1.tag_promote\ncontinue\n");
	REQUIRE(ss != NULL);
	char *t = draw(ss, 80, 24);
	CHECK_CONTAINS(t, "decoupled leader");
	CHECK_CONTAINS(t, "| data free");
	CHECK_SNAPSHOT("cache_tags_80x24", t);
	free(t);
	t = draw(ss, 132, 40);
	CHECK_CONTAINS(t, "| data ways 0-3");
	CHECK_SNAPSHOT("cache_tags_132x40", t);
	free(t);
	vt_session_free(ss);
}

TEST(view_vws_warps_line)
{
	vt_screen();
	struct session *ss = vt_session("set core.scheduler vws\nset core.cta_dispatch serial\nworkload matmul_naive\nstep 400\n");
	REQUIRE(ss != NULL);
	struct panel *p = panel_create("warps");
	REQUIRE(p != NULL);
	WINDOW *win = newwin(24, 100, 0, 0);
	struct view_ctx c = {.sim = ss->sim, .sel_sm = 0, .focused = true};
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	CHECK_CONTAINS(text, "vws sampling");
	CHECK_CONTAINS(text, "N_act");
	CHECK_SNAPSHOT("warps_vws_100x24", text);
	free(text);
	delwin(win);
	panel_free(p);
	vt_session_free(ss);
}
