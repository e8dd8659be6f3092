/*
 * test_bypass_view.c: panels of the locality policies. The `cache` panel with
 * l1.bypass = locality shows the
 * decoupled tag store (RC, position) beside the data store; drawn off-screen
 * at two sizes when a candidate is promoted in a matmul_naive run; the
 * `warps` panel under VWS shows the estimator line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "views/view.h"
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

/* Set dueling: each SM's leader sets are marked in the SET column, d for
 * the decoupled leader and p for the plain one, where byp_role puts them
 * (complement-select rotated per SM: SM i leads set i decoupled and set
 * P - 1 - i plain with one leader of each mode; teaching: P = 8 sets). */
TEST(view_bypass_marks_leader_sets)
{
	vt_screen();
	struct session *ss = vt_session("set l1.bypass locality\nworkload matmul_naive\nbreak l1.tag_promote\ncontinue\n");
	REQUIRE(ss != NULL);
	int sets = 8;
	for (int sm = 0; sm < 2; sm++) {
		ss->sel_sm = sm;
		char *t = draw(ss, 132, 40);
		CHECK_CONTAINS(t, "d/p leaders");
		char d[16], p[16];
		snprintf(d, sizeof d, "\n%3dd ", sm);
		snprintf(p, sizeof p, "\n%3dp ", sets - 1 - sm);
		CHECK_CONTAINS(t, d);
		CHECK_CONTAINS(t, p);
		int marks = 0;
		for (int set = 0; set < sets; set++) {
			char any[16];
			snprintf(any, sizeof any, "\n%3dd ", set);
			marks += strstr(t, any) != NULL;
			snprintf(any, sizeof any, "\n%3dp ", set);
			marks += strstr(t, any) != NULL;
		}
		CHECK_EQ(marks, 2);
		free(t);
	}
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
