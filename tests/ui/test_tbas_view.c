/*
 * test_tbas_view.c: the panels of TEMP and TBAS (docs/POLICIES.md): the
 * dram panel's OWN and REMOTE columns under dram.page_alloc = temp (each
 * bank's owning SM, requests from other SMs, the latest one marked) and the
 * warps panel under core.scheduler = tbas (running batch in the title, the
 * running set and resident batches above the table, each warp's batch and
 * place in TBAS). matmul_naive on the teaching machine (2 SMs of 32 warps,
 * so 4 CTAs = 4 batches share an SM), drawn
 * off-screen at 80x24 and 132x40.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/inspect.h"
#include "test.h"
#include "views/view.h"
#include "vtest.h"

static char *draw(const char *panel, struct session *ss, int sm, int w, int h)
{
	struct panel *p = panel_create(panel);
	REQUIRE(p != NULL);
	WINDOW *win = newwin(h, w, 0, 0);
	REQUIRE(win != NULL);
	struct view_ctx c = {
	    .sim = ss->sim, .sel_sm = sm, .sel_ch = ss->sel_ch, .sel_bank = ss->sel_bank, .focused = true};
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	delwin(win);
	panel_free(p);
	return text;
}

/* TEMP needs rows of whole 4 KB pages: 1024 columns x 4 B. */
static const char *const temp_setup =
    "set dram.columns 1024\nset dram.page_alloc temp\nset core.scheduler tbas\n"
    "set core.warps_per_sm 32\nset core.threads_per_sm 1024\n"
    "workload matmul_naive\nstep 3500\n";

TEST(view_dram_temp_owner_and_remote)
{
	vt_screen();
	struct session *ss = vt_session(temp_setup);
	REQUIRE(ss != NULL);
	/* the numbers the panel must show, from the engine */
	struct dram_bank_info b;
	REQUIRE(inspect_dram_bank(ss->sim, 0, 0, &b));
	CHECK_EQ(b.owner, 0);
	char *t = draw("dram", ss, 0, 132, 40);
	CHECK_CONTAINS(t, "OWN");
	CHECK_CONTAINS(t, "REMOTE");
	CHECK_CONTAINS(t, "sm0");
	CHECK_CONTAINS(t, "sm1");
	char val[24], cell[40];
	snprintf(val, sizeof val, "%llu%s", (unsigned long long)b.remote, b.last_remote ? "*" : "");
	snprintf(cell, sizeof cell, "sm0 %7s", val); /* the column right-aligns the count and its mark */
	CHECK_CONTAINS(t, cell);
	/* some bank's latest request came from the other SM: marked */
	int marked = 0;
	for (int k = 0; k < 16; k++)
		if (inspect_dram_bank(ss->sim, 0, k, &b))
			marked += b.last_remote;
	CHECK(marked > 0);
	CHECK_CONTAINS(t, "*\n");
	CHECK_SNAPSHOT("dram_temp_132x40", t);
	free(t);
	t = draw("dram", ss, 0, 80, 24);
	CHECK_SNAPSHOT("dram_temp_80x24", t);
	free(t);
	vt_session_free(ss);
}

TEST(view_tbas_warps_running_set_and_batches)
{
	vt_screen();
	struct session *ss = vt_session(temp_setup);
	REQUIRE(ss != NULL);
	struct tbas_info tb;
	REQUIRE(inspect_tbas(ss->sim, 0, &tb));
	CHECK(tb.running >= 0);
	CHECK(tb.in_set > 0 && tb.in_set <= tb.cap);
	CHECK(tb.nbatches >= 2);
	int run = 0;
	for (int i = 0; i < inspect_warp_slots(ss->sim); i++) {
		struct tbas_warp_info w;
		REQUIRE(inspect_tbas_warp(ss->sim, 0, i, &w));
		if (w.role == TBW_RUN) {
			CHECK_EQ(w.batch, tb.running);
			run++;
		}
	}
	CHECK_EQ(run, tb.in_set);
	char title[32], set[64];
	snprintf(title, sizeof title, "tbas batch %d", (int)tb.running);
	snprintf(set, sizeof set, "tbas running set %d/%d warps", tb.in_set, tb.cap);
	char *t = draw("warps", ss, 0, 132, 40);
	CHECK_CONTAINS(t, title);
	CHECK_CONTAINS(t, set);
	CHECK_CONTAINS(t, "BAT SET");
	CHECK_CONTAINS(t, " run ");
	CHECK_SNAPSHOT("warps_tbas_132x40", t);
	free(t);
	t = draw("warps", ss, 0, 80, 24);
	CHECK_SNAPSHOT("warps_tbas_80x24", t);
	free(t);
	/* Other schedulers draw no TBAS columns. */
	struct session *o = vt_session("workload matmul_naive\nstep 300\n");
	REQUIRE(o != NULL);
	CHECK(!inspect_tbas(o->sim, 0, &tb));
	t = draw("warps", o, 0, 80, 24);
	CHECK(strstr(t, "BAT") == NULL && strstr(t, "tbas") == NULL);
	free(t);
	vt_session_free(o);
	vt_session_free(ss);
}
