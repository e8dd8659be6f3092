/*
 * test_reuse_view.c: the `reuse` panel: snapshots at 80x24 and 132x40 (set
 * view of the selected L1, fully associative view of all L2 banks), and a
 * reuse.class breakpoint that the panel follows, marking the access's bin,
 * and predicted vs measured hit rate after `model`.
 */
#include <stdlib.h>
#include <string.h>

#include "debug/inspect.h"
#include "test.h"
#include "views/view.h"
#include "vtest.h"

static char *draw_model(struct session *ss, int w, int h, const int *keys, struct panel *keep,
			const struct rdm_summary *model)
{
	struct panel *p = keep ? keep : panel_create("reuse");
	REQUIRE(p != NULL);
	WINDOW *win = newwin(h, w, 0, 0);
	REQUIRE(win != NULL);
	struct view_ctx c = {
		.sim = ss->sim,
		.sel_sm = ss->sel_sm,
		.sel_l2 = ss->sel_l2,
		.stop_ev = ss->bps.stop ? &ss->bps.stop_ev : NULL,
		.model = model,
		.focused = true,
	};
	for (const int *k = keys; k && *k; k++)
		panel_key(p, *k, &c);
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	delwin(win);
	if (!keep)
		panel_free(p);
	return text;
}

static char *draw(struct session *ss, int w, int h, const int *keys, struct panel *keep)
{
	return draw_model(ss, w, h, keys, keep, NULL);
}

TEST(view_reuse_snapshot)
{
	vt_screen();
	struct session *ss = vt_session("workload matmul_naive\nstep 3000\n");
	REQUIRE(ss != NULL);
	char *t = draw(ss, 80, 24, NULL, NULL);
	CHECK_SNAPSHOT("reuse_80x24", t);
	CHECK(test_contains(t, "cut-off: 4 ways"));
	CHECK(test_contains(t, "inf new"));
	free(t);
	t = draw(ss, 132, 40, NULL, NULL);
	CHECK_SNAPSHOT("reuse_132x40", t);
	CHECK(test_contains(t, "associativity"));
	free(t);
	/* all L2 banks (Right twice), fully associative view (PgDn), log scale (Home) */
	static const int keys[] = {KEY_RIGHT, KEY_RIGHT, KEY_RIGHT, KEY_NPAGE, KEY_HOME, 0};
	t = draw(ss, 100, 30, keys, NULL);
	CHECK_SNAPSHOT("reuse_l2_fa_100x30", t);
	CHECK(test_contains(t, "L2 all"));
	CHECK(test_contains(t, "(FA LRU)"));
	free(t);
	vt_session_free(ss);
}

TEST(view_reuse_follows_class_breakpoint)
{
	vt_screen();
	struct session *ss = vt_session("workload matmul_naive\nbreak reuse.class class=associativity\ncontinue\n");
	REQUIRE(ss != NULL);
	REQUIRE(ss->bps.stop);
	CHECK_EQ(ss->bps.stop_ev.kind, EV_REUSE_CLASS);
	char *t = draw(ss, 80, 24, NULL, NULL);
	CHECK_SNAPSHOT("reuse_break_80x24", t);
	CHECK(test_contains(t, "break"));
	CHECK(test_contains(t, "associativity"));
	free(t);
	vt_session_free(ss);
}

/* After `model`: predicted vs measured hit rate beside the classes (wide)
 * or on one line (narrow); the numbers are the session's stored result. */
TEST(view_reuse_model_predicted_vs_measured)
{
	vt_screen();
	struct session *ss = vt_session("workload matmul_naive\nmodel\nstep 3000\n");
	REQUIRE(ss != NULL);
	REQUIRE(ss->model.valid);
	CHECK(ss->model.simulated);
	CHECK_EQ(ss->model.sets, (uint32_t)ss->cfg.l1.sets); /* the session's machine (teaching: 8 x 4) */
	CHECK_EQ(ss->model.ways, (uint32_t)ss->cfg.l1.ways);
	CHECK_EQ(ss->model.threads, 4096u);
	char want[32];
	char *t = draw_model(ss, 132, 40, NULL, NULL, &ss->model);
	CHECK_SNAPSHOT("reuse_model_132x40", t);
	CHECK(test_contains(t, "PREDICTED/MEASURED"));
	snprintf(want, sizeof want, "%5.1f", 100.0 * ss->model.model_hit);
	CHECK(test_contains(t, want));
	snprintf(want, sizeof want, "%5.1f", 100.0 * ss->model.sim_hit);
	CHECK(test_contains(t, want));
	CHECK(test_contains(t, "this L1 view, now"));
	/* the model's histogram beside the profiler's: its share per bin */
	CHECK(test_contains(t, "MODEL%"));
	CHECK_EQ(ss->model.hist_bins, 4u * ss->model.ways);
	uint64_t msum = 0;
	for (uint32_t b = 0; b < ss->model.hist_bins + RDM__BIN_EXTRA; b++)
		msum += ss->model.hist[b];
	CHECK_EQ(msum, ss->model.accesses);
	struct reuse_info ri;
	REQUIRE(inspect_reuse(ss->sim, CACHE_L1, 0, RV_SET, -1, &ri));
	REQUIRE(ri.accesses > 0);
	snprintf(want, sizeof want, "%5.1f %6.1f", 100.0 * (double)ri.bins[2] / (double)ri.accesses,
		 100.0 * (double)ss->model.hist[2] / (double)ss->model.accesses);
	CHECK(test_contains(t, want)); /* row d = 2: the profiler's share of sm0's lookups, then the model's */
	free(t);
	/* not in the fully associative view (PgDn): the model has no FA histogram */
	static const int fa[] = {KEY_NPAGE, 0};
	t = draw_model(ss, 132, 40, fa, NULL, &ss->model);
	CHECK(!test_contains(t, "MODEL%"));
	free(t);
	t = draw_model(ss, 60, 20, NULL, NULL, &ss->model);
	CHECK_SNAPSHOT("reuse_model_60x20", t);
	CHECK(test_contains(t, "hit%: model "));
	free(t);
	/* without a model result nothing of it shows */
	t = draw(ss, 132, 40, NULL, NULL);
	CHECK(!test_contains(t, "PREDICTED"));
	free(t);
	/* kept over a restart of the same machine and workload, dropped when either changes */
	vt_exec(ss, "run 10\n"); /* restarts from cycle 0 */
	CHECK(ss->model.valid);
	vt_exec(ss, "workload vecadd\n");
	CHECK(!ss->model.valid);
	vt_exec(ss, "model --no-sim\n");
	CHECK(ss->model.valid);
	CHECK(!ss->model.simulated);
	CHECK_NEAR(ss->model.model_miss, 1.0, 1e-9); /* streaming: every line new */
	CHECK(!ss->model.reference);
	vt_exec(ss, "model --no-sim --semantics reference\n");
	CHECK(ss->model.valid);
	CHECK(ss->model.reference);
	CHECK_EQ(ss->model.hist[ss->model.hist_bins + RDM_BIN_NEVER], ss->model.accesses);
	t = draw_model(ss, 132, 40, NULL, NULL, &ss->model);
	CHECK(test_contains(t, ", ref"));
	free(t);
	vt_exec(ss, "set l1.ways 2\n");
	CHECK(!ss->model.valid);
	vt_session_free(ss);
}

TEST(view_reuse_too_small_and_no_sim)
{
	vt_screen();
	struct panel *p = panel_create("reuse");
	REQUIRE(p != NULL);
	WINDOW *win = newwin(4, 30, 0, 0);
	struct view_ctx c = {.sim = NULL};
	panel_draw(p, win, &c);
	char *t = vt_text(win);
	CHECK(test_contains(t, "needs 40x5"));
	free(t);
	delwin(win);
	win = newwin(10, 60, 0, 0);
	panel_draw(p, win, &c);
	t = vt_text(win);
	CHECK(test_contains(t, "no simulator"));
	free(t);
	delwin(win);
	panel_free(p);
}
