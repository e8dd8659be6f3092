/*
 * test_views.c: view snapshots (every panel at 80x24 and 132x40, drawn
 * off-screen from a deterministic session) and the pure view logic: the
 * generic table, clipping with markers, the does-not-fit line, layouts.
 */
#include <stdlib.h>
#include <string.h>

#include "views/draw.h"
#include "tui/layout.h"
#include "views/status.h"
#include "views/table.h"
#include "test.h"
#include "tui/tui.h"
#include "sim/util.h"
#include "views/view.h"
#include "vtest.h"

/* A busy moment some hundreds of cycles in, the hierarchy's events logged (a fixed
 * list, so kinds added later elsewhere do not change these pictures). */
static const char *const setup = "log l1.* +l2.* +dram.* +mem.* +warp.* +coalesce\nstep 400\n";

/* keys: typed into the panel before drawing (e.g. a search), NULL for none.
 * The snapshot is tests/views/<panel>_<w>x<h><suffix>.txt. */
static void snapshot_named(const char *panel, const char *suffix, int w, int h, struct session *ss, const char *keys)
{
	struct panel *p = panel_create(panel);
	REQUIRE(p != NULL);
	/* The panel's window is a sub-window of a larger one filled with '~':
	 * whatever the panel writes must stay inside its w x h. */
	WINDOW *frame = newwin(h + 2, w + 2, 0, 0);
	REQUIRE(frame != NULL);
	for (int y = 0; y < h + 2; y++)
		for (int x = 0; x < w + 2; x++)
			mvwaddch(frame, y, x, '~');
	WINDOW *win = derwin(frame, h, w, 1, 1);
	REQUIRE(win != NULL);
	werase(stdscr); /* nor on the screen's own window */
	struct view_ctx c = {
		.sim = ss->sim,
		.sel_sm = ss->sel_sm,
		.sel_warp = ss->sel_warp,
		.sel_l2 = ss->sel_l2,
		.sel_ch = ss->sel_ch,
		.sel_bank = ss->sel_bank,
		.focused = true,
	};
	for (const char *k = keys; k && *k; k++)
		panel_key(p, *k, &c);
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	char name[64];
	snprintf(name, sizeof name, "%s_%dx%d%s", panel, w, h, suffix);
	CHECK_SNAPSHOT(name, text);
	/* Nothing is drawn outside the window: the frame around it is intact. */
	int outside = 0;
	for (int y = 0; y < h + 2; y++)
		for (int x = 0; x < w + 2; x++)
			if (((y == 0 || y == h + 1 || x == 0 || x == w + 1) && (mvwinch(frame, y, x) & A_CHARTEXT) != '~') ||
			    (mvwinch(stdscr, y, x) & A_CHARTEXT) != ' ')
				outside++;
	if (outside)
		test_fail(__FILE__, __LINE__, "%s %dx%d: %d cells drawn outside the panel's window", panel, w, h, outside);
	free(text);
	delwin(win);
	delwin(frame);
	panel_free(p);
}

static void snapshot_panel(const char *panel, int w, int h, struct session *ss, const char *keys)
{
	snapshot_named(panel, "", w, h, ss, keys);
}

static void snapshot_all_sizes(const char *panel, const char *keys)
{
	vt_screen();
	struct session *ss = vt_session(setup);
	REQUIRE(ss != NULL);
	snapshot_panel(panel, 80, 24, ss, keys);
	snapshot_panel(panel, 132, 40, ss, keys);
	vt_session_free(ss);
}

TEST(view_warps_snapshot) { snapshot_all_sizes("warps", NULL); }
TEST(view_mshr_snapshot) { snapshot_all_sizes("mshr", NULL); }
/* Volta's sectored L1 keeps one MSHR entry per line and sector set: two
 * entries of one line show their sectors' addresses (0x...100, 0x...120),
 * and a warp with two requests in an entry is listed once as w0*2. */
TEST(view_mshr_sectored_titanv)
{
	vt_screen();
	struct session *ss = vt_session("load titanv\nworkload matmul_naive\nset param.n 64\nstep 300\n");
	REQUIRE(ss != NULL);
	snapshot_named("mshr", "_titanv", 80, 24, ss, NULL);
	snapshot_named("mshr", "_titanv", 132, 40, ss, NULL);
	vt_session_free(ss);
}
TEST(view_cache_snapshot) { snapshot_all_sizes("cache", NULL); }
TEST(view_l2cache_snapshot) { snapshot_all_sizes("l2cache", NULL); }
TEST(view_l2_snapshot) { snapshot_all_sizes("l2", NULL); }
TEST(view_dram_snapshot) { snapshot_all_sizes("dram", NULL); }
TEST(view_events_snapshot) { snapshot_all_sizes("events", NULL); }
/* Cycle 20: every L2 line is still transient (fetching) and the L1s have
 * none valid; the cells are as wide as later (tag, T flag and LRU rank
 * shown in full, not cut). */
TEST(view_cache_early_cycle_snapshot)
{
	vt_screen();
	struct session *ss = vt_session("step 20\n");
	REQUIRE(ss != NULL);
	snapshot_named("l2cache", "_cycle20", 80, 24, ss, NULL);
	snapshot_named("cache", "_cycle20", 80, 24, ss, NULL);
	/* The same cell width as at cycle 400 (view_cache_snapshot): way columns
	 * do not move as lines become valid. */
	struct panel *p = panel_create("l2cache");
	WINDOW *win = newwin(24, 80, 0, 0);
	struct view_ctx c = {.sim = ss->sim, .sel_l2 = 0};
	panel_draw(p, win, &c);
	char *t20 = vt_text(win);
	vt_exec(ss, "step 380\n");
	werase(win);
	panel_draw(p, win, &c);
	char *t400 = vt_text(win);
	const char *h20 = strstr(t20, "SET"), *h400 = strstr(t400, "SET");
	REQUIRE(h20 && h400);
	CHECK_EQ((long)(strchr(h20, '\n') - h20), (long)(strchr(h400, '\n') - h400));
	CHECK(strncmp(h20, h400, (size_t)(strchr(h20, '\n') - h20)) == 0);
	CHECK(strstr(t20, " T-") != NULL); /* transient flag and LRU rank (none), not cut */
	const char *legend = strstr(t20, "H hit");
	const char *cut = strstr(t20, "\xe2\x80\xa6"); /* '…' in a cell, not the clipped legend */
	CHECK(cut == NULL || (legend && cut > legend));
	free(t20);
	free(t400);
	delwin(win);
	panel_free(p);
	vt_session_free(ss);
}

/* l2_set_burst stopped where every way of an L2 set is transient: the set
 * is marked '!' and the legend says what that means. */
TEST(view_l2cache_all_transient_set_snapshot)
{
	vt_screen();
	struct session *ss = vt_session("workload l2_set_burst\nbreak l2.set_all_transient\ncontinue\n");
	REQUIRE(ss != NULL);
	CHECK_EQ(ss->sel_l2, 0);
	snapshot_named("l2cache", "_all_transient", 132, 40, ss, NULL);
	snapshot_named("l2cache", "_all_transient", 80, 24, ss, NULL);
	vt_session_free(ss);
}

/* Searched for the DRAM and L1 rows (new stats elsewhere do not disturb it);
 * shows the derived rows too. */
TEST(view_stats_snapshot) { snapshot_all_sizes("stats", "/dram.r\n"); }

/* NAME is as wide as the longest stat name, not a share of a wide panel; on
 * a narrow one names are cut (with the marker) before VALUE is dropped. */
TEST(view_stats_name_column_width)
{
	vt_screen();
	struct session *ss = vt_session(setup);
	REQUIRE(ss != NULL);
	snapshot_named("stats", "", 34, 12, ss, "/dram.r\n");
	struct panel *p = panel_create("stats");
	struct view_ctx c = {.sim = ss->sim, .focused = true};
	for (const char *k = "/dram.r\n"; *k; k++)
		panel_key(p, *k, &c);
	size_t longest = 0;
	const struct stats *st = sim_stats_c(ss->sim);
	for (uint32_t i = 0; i < st->n; i++)
		longest = strlen(st->defs[i].name) > longest ? strlen(st->defs[i].name) : longest;
	int widths[] = {200, 132, 80, 41, 34, 30};
	for (size_t k = 0; k < ARRAY_LEN(widths); k++) {
		WINDOW *win = newwin(12, widths[k], 0, 0);
		panel_draw(p, win, &c);
		char row[1024];
		draw_read_row(win, 1, row, sizeof row);
		const char *v = strstr(row, "VALUE");
		if (!v) {
			test_fail(__FILE__, __LINE__, "width %d: VALUE dropped: %s", widths[k], row);
		} else {
			int at = (int)(v - row);
			CHECK(at <= (int)longest + 2); /* NAME no wider than the longest name (+ '*') */
			if (widths[k] >= 80)
				CHECK(at >= (int)longest + 1);
		}
		/* a cut name ends with the marker, its value still shown */
		for (int y = 2; y < 12 && widths[k] < 41; y++) {
			draw_read_row(win, y, row, sizeof row);
			if (strstr(row, "dram.read_latency_m"))
				test_fail(__FILE__, __LINE__, "width %d: long name not cut: %s", widths[k], row);
			if (strncmp(row, "dram.read_lat", 13) == 0 && strstr(row, "\xe2\x80\xa6") == NULL)
				test_fail(__FILE__, __LINE__, "width %d: no marker: %s", widths[k], row);
		}
		delwin(win);
	}
	panel_free(p);
	vt_session_free(ss);
}

TEST(view_stats_derives_hit_rates_and_bandwidth)
{
	vt_screen();
	struct session *ss = vt_session(setup);
	REQUIRE(ss != NULL);
	struct panel *p = panel_create("stats");
	WINDOW *win = newwin(30, 132, 0, 0);
	struct view_ctx c = {.sim = ss->sim, .focused = true};
	for (const char *k = "/bandwidth\n"; *k; k++)
		panel_key(p, *k, &c);
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	CHECK_CONTAINS(text, "dram.bandwidth*");
	CHECK_CONTAINS(text, "B/cyc");
	free(text);
	/* Backspace over the filter, then a per-SM hit rate (the engine has only l1.hit_rate). */
	for (const char *k = "/\b\b\b\b\b\b\b\b\b\bsm0.l1.hit\n"; *k; k++)
		panel_key(p, *k == '\b' ? 127 : *k, &c);
	panel_draw(p, win, &c);
	text = vt_text(win);
	CHECK_CONTAINS(text, "sm0.l1.hit_rate*");
	CHECK_CONTAINS(text, "filter: sm0.l1.hit");
	free(text);
	delwin(win);
	panel_free(p);
	vt_session_free(ss);
}

TEST(view_every_panel_kind_has_ops)
{
	for (size_t i = 0; i < panel_kind_count(); i++) {
		const struct panel_kind *k = panel_kind_at(i);
		struct panel *p = k->create();
		REQUIRE(p != NULL);
		CHECK_STR(p->ops->name, k->name);
		CHECK(p->ops->draw != NULL);
		CHECK(p->ops->free != NULL);
		CHECK(p->ops->min_w > 0 && p->ops->min_h > 0);
		panel_free(p);
	}
	CHECK(panel_create("nope") == NULL);
}

TEST(view_too_small_says_so)
{
	vt_screen();
	struct session *ss = vt_session(NULL);
	REQUIRE(ss != NULL);
	struct panel *p = panel_create("mshr");
	WINDOW *win = newwin(2, 20, 0, 0);
	struct view_ctx c = {.sim = ss->sim};
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	/* "mshr: needs 36x4, have 20x2" clipped to 20 columns with the marker. */
	CHECK_STR(text, "mshr: needs 36x4, h\xe2\x80\xa6\n\n");
	free(text);
	delwin(win);
	win = newwin(3, 40, 0, 0);
	panel_draw(p, win, &c);
	text = vt_text(win);
	CHECK_STR(text, "mshr: needs 36x4, have 40x3\n\n\n");
	free(text);
	delwin(win);
	panel_free(p);
	vt_session_free(ss);
}

TEST(view_no_simulator)
{
	vt_screen();
	struct view_ctx c = {0};
	for (size_t i = 0; i < panel_kind_count(); i++) {
		struct panel *p = panel_kind_at(i)->create();
		WINDOW *win = newwin(10, 60, 0, 0);
		panel_draw(p, win, &c);
		char *text = vt_text(win);
		CHECK_CONTAINS(text, "no simulator");
		free(text);
		delwin(win);
		panel_free(p);
	}
}

/* ---- put_text / table ---------------------------------------------------------- */

TEST(view_put_text_clips_with_marker)
{
	vt_screen();
	WINDOW *w = newwin(1, 10, 0, 0);
	put_text(w, 0, 0, 6, "abcdefghij", A_NORMAL, false);
	char row[64];
	CHECK_STR(draw_read_row(w, 0, row, sizeof row), "abcde\xe2\x80\xa6");
	werase(w);
	put_text(w, 0, 0, 10, "abc", A_NORMAL, false);
	CHECK_STR(draw_read_row(w, 0, row, sizeof row), "abc");
	werase(w);
	/* Past the window edge: clipped to the window, never wrapped. */
	put_text(w, 0, 7, 20, "xyzw", A_NORMAL, false);
	CHECK_STR(draw_read_row(w, 0, row, sizeof row), "       xy\xe2\x80\xa6");
	delwin(w);
}

struct rows_ctx {
	int calls;
};

static void num_row(void *u, int row, struct table_row *r)
{
	struct rows_ctx *rc = u;
	rc->calls++;
	snprintf(r->text[0], TABLE_CELL, "%d", row);
	snprintf(r->text[1], TABLE_CELL, "row %d with a long description", row);
}

static const struct table_col tcols[] = {{"N", 4, 0, true}, {"TEXT", 10, 1, false}, {"MORE", 8, 0, false}};

TEST(view_table_scrolls_and_draws_only_visible_rows)
{
	vt_screen();
	WINDOW *w = newwin(6, 30, 0, 0);
	struct table t;
	table_init(&t, tcols, 3, true);
	struct rows_ctx rc = {0};
	struct rect r = {0, 0, 6, 30};
	table_draw(&t, w, r, 1000, true, num_row, &rc);
	CHECK_EQ(rc.calls, 5); /* header + 5 rows */
	CHECK_EQ(t.visible, 5);
	char row[128];
	CHECK_STR(draw_read_row(w, 0, row, sizeof row), "   N TEXT            MORE");
	CHECK_STR(draw_read_row(w, 5, row, sizeof row), "   4 row 4 with a l\xe2\x80\xa6         v");
	CHECK(table_key(&t, KEY_NPAGE) & VK_REDRAW);
	CHECK_EQ(t.top, 4);
	CHECK(table_key(&t, KEY_END) & VK_HANDLED);
	CHECK_EQ(t.sel, 999);
	CHECK_EQ(t.top, 995);
	CHECK(t.follow);
	/* Following: new rows keep the cursor on the last one. */
	werase(w);
	table_draw(&t, w, r, 1010, true, num_row, &rc);
	CHECK_EQ(t.sel, 1009);
	CHECK(table_key(&t, KEY_HOME) & VK_HANDLED);
	CHECK_EQ(t.top, 0);
	CHECK(!t.follow);
	CHECK_EQ(table_key(&t, 'x'), VK_IGNORED);
	delwin(w);
}

/* Hints longer than the panel wrap over its empty rows at word breaks, and
 * only text beyond the last row is cut (with the marker). */
TEST(view_put_wrapped_and_panel_hints)
{
	vt_screen();
	WINDOW *w = newwin(3, 20, 0, 0);
	char row[128];
	CHECK_EQ(put_wrapped(w, 0, 0, 20, 3, "one two three four five six seven", A_NORMAL), 2);
	CHECK_STR(draw_read_row(w, 0, row, sizeof row), "one two three four");
	CHECK_STR(draw_read_row(w, 1, row, sizeof row), "five six seven");
	werase(w);
	CHECK_EQ(put_wrapped(w, 0, 0, 20, 2, "aaaaaaaaaaaaaaaaaaaaaaaaa bb cc dd ee ff gg hh ii jj kk", A_NORMAL), 2);
	CHECK_STR(draw_read_row(w, 0, row, sizeof row), "aaaaaaaaaaaaaaaaaaaa");
	CHECK_STR(draw_read_row(w, 1, row, sizeof row), "aaaaa bb cc dd ee f\xe2\x80\xa6");
	delwin(w);
	/* The panels' "not in this machine" hints, on the default (teaching) machine. */
	struct session *ss = vt_session(NULL);
	REQUIRE(ss != NULL);
	static const char *const panels[][2] = {
		{"coherence", "`set coherence.protocol moesi` at cycle 0"},
		{"protocol", "`protocol moesi` prints one"},
		{"frc", "at cycle 0)"},
	};
	for (size_t i = 0; i < ARRAY_LEN(panels); i++) {
		struct panel *p = panel_create(panels[i][0]);
		REQUIRE(p != NULL);
		WINDOW *pw = newwin(8, 60, 0, 0);
		struct view_ctx c = {.sim = ss->sim};
		panel_draw(p, pw, &c);
		char *text = vt_text(pw);
		CHECK(strstr(text, "\xe2\x80\xa6") == NULL);
		/* the end of the hint is on screen (possibly split at a space) */
		const char *tail = strrchr(panels[i][1], ' ');
		CHECK_CONTAINS(text, tail ? tail + 1 : panels[i][1]);
		free(text);
		delwin(pw);
		panel_free(p);
	}
	vt_session_free(ss);
}

TEST(view_table_drops_columns_with_marker)
{
	vt_screen();
	WINDOW *w = newwin(3, 18, 0, 0);
	struct table t;
	table_init(&t, tcols, 3, true);
	struct rows_ctx rc = {0};
	table_draw(&t, w, (struct rect){0, 0, 3, 18}, 2, false, num_row, &rc);
	char row[128];
	/* MORE does not fit: dropped, the header ends with the marker; TEXT takes the rest. */
	CHECK_STR(draw_read_row(w, 0, row, sizeof row), "   N TEXT        \xe2\x80\xa6");
	CHECK_STR(draw_read_row(w, 1, row, sizeof row), "   0 row 0 with a\xe2\x80\xa6");
	delwin(w);
}

/* ---- layouts ------------------------------------------------------------------- */

static void min_of(const char *name, int *w, int *h)
{
	struct panel *p = panel_create(name);
	*w = p ? p->ops->min_w : 10;
	*h = p ? p->ops->min_h : 3;
	panel_free(p);
}

static void check_tiling(const struct layout_def *d, int h, int w)
{
	struct layout_slot s[LAYOUT_MAX_SLOTS];
	int n = layout_arrange(d, 1, 0, h, w, min_of, s);
	long area = 0;
	for (int i = 0; i < n; i++) {
		CHECK(s[i].h > 0 && s[i].w > 0);
		CHECK(s[i].y >= 1 && s[i].y + s[i].h <= 1 + h);
		CHECK(s[i].x >= 0 && s[i].x + s[i].w <= w);
		area += (long)s[i].h * s[i].w;
		for (int j = 0; j < i; j++) {
			bool apart = s[i].x >= s[j].x + s[j].w || s[j].x >= s[i].x + s[i].w ||
				     s[i].y >= s[j].y + s[j].h || s[j].y >= s[i].y + s[i].h;
			CHECK(apart);
		}
	}
	if (h >= 8) /* every row is used when there is room for every line */
		CHECK_EQ(area, (long)h * w);
}

TEST(layout_tiles_every_size)
{
	static const int sizes[][2] = {{18, 80}, {34, 132}, {50, 200}, {70, 250}, {6, 40}, {1, 20}, {0, 10}, {3, 3}};
	for (size_t i = 0; i < layout_count(); i++)
		for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
			check_tiling(layout_at(i), sizes[k][0], sizes[k][1]);
}

TEST(layout_overview_at_132x40)
{
	struct layout_slot s[LAYOUT_MAX_SLOTS];
	int n = layout_arrange(layout_find("overview"), 1, 0, 34, 132, min_of, s);
	CHECK_EQ(n, 5);
	CHECK_STR(s[0].panel, "warps");
	CHECK_STR(s[1].panel, "mshr");
	CHECK_EQ(s[0].y, s[1].y); /* side by side */
	CHECK(s[1].sep_left);
	CHECK_STR(s[4].panel, "events");
	CHECK_EQ(s[4].w, 132);
	CHECK(layout_find("nope") == NULL);
}

TEST(layout_wraps_a_row_that_is_too_narrow)
{
	struct layout_slot s[LAYOUT_MAX_SLOTS];
	/* 50 columns: warps (30) + mshr (36) cannot share a line. */
	int n = layout_arrange(layout_find("overview"), 0, 0, 40, 50, min_of, s);
	CHECK_EQ(n, 5);
	CHECK_EQ(s[0].x, 0);
	CHECK_EQ(s[1].x, 0);
	CHECK(s[1].y > s[0].y);
	CHECK(!s[1].sep_left);
}

/* ---- status bar ------------------------------------------------------------------ */

TEST(view_status_bar_drops_optional_parts_first)
{
	vt_screen();
	WINDOW *w = newwin(1, 132, 0, 0);
	struct status_info si = {.config = "teaching", .workload = "vecadd", .layout = "overview", .cycle = 10,
				 .state = "paused", .cps = -1, .ipc = 0.5};
	status_draw(w, &si);
	char row[512];
	CHECK_STR(draw_read_row(w, 0, row, sizeof row), " cycle 10 | paused | IPC 0.500 | teaching | vecadd | overview");
	delwin(w);
	w = newwin(1, 40, 0, 0);
	si.state = "stopped at breakpoint 1: dram.row_conflict ch=0 bank=3 row=0x1f";
	status_draw(w, &si);
	CHECK_STR(draw_read_row(w, 0, row, sizeof row), " cycle 10 | stopped at breakpoint 1: d\xe2\x80\xa6");
	delwin(w);
	/* "rewind ≥ 0" is 10 columns (12 bytes): at exactly the width everything
	 * needs, nothing is dropped. */
	struct session *ss = vt_session(NULL);
	REQUIRE(ss != NULL);
	si.sim = ss->sim;
	si.state = "paused";
	const char *all = " cycle 10 | paused | IPC 0.500 | rewind \xe2\x89\xa5 0 | teaching | vecadd | overview";
	w = newwin(1, (int)strlen(all) - 2 + 1, 0, 0);
	status_draw(w, &si);
	CHECK_STR(draw_read_row(w, 0, row, sizeof row), all);
	delwin(w);
	vt_session_free(ss);
}
