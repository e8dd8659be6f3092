/*
 * test_frc_view.c: the FRC panel drawn off-screen: in the middle of a
 * gather_random run with 16 FRC entries per bank, stopped when a swap
 * completes (list, two sizes); under MOESI in transpose_naive, stopped at the
 * first swap whose victim has L1 copies (an evicting entry with invalidation
 * acks due, its dirty victim's write-back after them), in list and grid
 * modes at 80x24 and 200x60; saxpy's dirty victims waiting for their
 * write-back; a 512-entry FRC as a grid at both sizes, and scrolling when it
 * does not fit;
 * and its message when the machine has no FRC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "views/view.h"
#include "vtest.h"

/* Draw the frc panel at w x h; `grid` switches it to the grid with Right. */
static char *draw_text(struct session *ss, int w, int h, bool grid)
{
	struct panel *p = panel_create("frc");
	REQUIRE(p != NULL);
	WINDOW *win = newwin(h, w, 0, 0);
	REQUIRE(win != NULL);
	struct view_ctx c = {.sim = ss->sim, .sel_l2 = ss->sel_l2, .focused = true};
	if (grid)
		CHECK_EQ(panel_key(p, KEY_RIGHT, &c), VK_HANDLED | VK_REDRAW);
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	delwin(win);
	panel_free(p);
	return text;
}

static void draw(struct session *ss, int w, int h, bool grid, const char *name)
{
	char *text = draw_text(ss, w, h, grid);
	CHECK_SNAPSHOT(name, text);
	free(text);
}

TEST(view_frc_snapshot)
{
	vt_screen();
	struct session *ss =
		vt_session("set l2.frc.entries 16\nworkload gather_random\nbreak frc.swap_done\ncontinue\ncontinue\n");
	REQUIRE(ss != NULL);
	draw(ss, 80, 24, false, "frc_80x24");
	draw(ss, 132, 40, false, "frc_132x40");
	vt_session_free(ss);
}

TEST(view_frc_moesi_evicting_list_and_grid)
{
	vt_screen();
	struct session *ss = vt_session("set coherence.protocol moesi\nset l2.frc.entries 16\nworkload transpose_naive\n"
					"break frc.swap_done if frc.inv_victims > 0\ncontinue\nselect l2 1\n");
	REQUIRE(ss != NULL);
	char *text = draw_text(ss, 200, 60, false);
	/* an evicting entry with acks due and one whose dirty victim waits */
	CHECK_CONTAINS(text, "evicting");
	CHECK_CONTAINS(text, "yes");
	free(text);
	draw(ss, 80, 24, false, "frc_moesi_list_80x24");
	draw(ss, 200, 60, false, "frc_moesi_list_200x60");
	draw(ss, 80, 24, true, "frc_moesi_grid_80x24");
	draw(ss, 200, 60, true, "frc_moesi_grid_200x60");
	vt_session_free(ss);
}

/* Without coherence saxpy's dirty victims leave through the FRC; with a
 * two-request fixed memory queue their write-backs wait, and the entries
 * hold the victims meanwhile (stopped right after the 11th). */
TEST(view_frc_dirty_victim_wb_pending)
{
	vt_screen();
	struct session *ss = vt_session("set l2.frc.entries 16\nset mem.model fixed\nset mem.queue 2\n"
					"workload saxpy\nwatch frc.evictions > 10\ncontinue\n");
	REQUIRE(ss != NULL);
	char *text = draw_text(ss, 200, 60, false);
	CHECK_CONTAINS(text, "yes");
	free(text);
	draw(ss, 80, 24, false, "frc_wb_list_80x24");
	draw(ss, 80, 24, true, "frc_wb_grid_80x24");
	draw(ss, 200, 60, false, "frc_wb_list_200x60");
	draw(ss, 200, 60, true, "frc_wb_grid_200x60");
	vt_session_free(ss);
}

TEST(view_frc_grid_512_entries)
{
	vt_screen();
	struct session *ss = vt_session("set l2.frc.entries 512\nset l2.frc.ways 8\nworkload gather_random\n"
					"break frc.swap_done\ncontinue\n");
	REQUIRE(ss != NULL);
	draw(ss, 80, 24, true, "frc_grid512_80x24");
	draw(ss, 200, 60, true, "frc_grid512_200x60");
	vt_session_free(ss);
}

/* 512 one-way sets need 21 rows of tagless cells at 80x24 (20 shown): the
 * grid scrolls with Down/End/Home and marks the rows out of sight. */
TEST(view_frc_grid_scrolls_when_it_does_not_fit)
{
	vt_screen();
	struct session *ss = vt_session("set l2.frc.entries 512\nset l2.frc.ways 1\nworkload gather_random\nstep 60\n");
	REQUIRE(ss != NULL);
	struct panel *p = panel_create("frc");
	WINDOW *win = newwin(24, 80, 0, 0);
	struct view_ctx c = {.sim = ss->sim, .sel_l2 = ss->sel_l2, .focused = true};
	CHECK_EQ(panel_key(p, KEY_RIGHT, &c), VK_HANDLED | VK_REDRAW);
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	CHECK_CONTAINS(text, "512 entries (512 sets x 1 ways)  busy");
	CHECK_CONTAINS(text, "\n  0 ");
	CHECK(strstr(text, "\n500 ") == NULL); /* set 500's row is below */
	CHECK_CONTAINS(text, " v\n");
	free(text);
	CHECK_EQ(panel_key(p, KEY_END, &c), VK_HANDLED | VK_REDRAW);
	werase(win);
	panel_draw(p, win, &c);
	text = vt_text(win);
	CHECK_CONTAINS(text, "\n500 ");
	CHECK(strstr(text, "\n  0 ") == NULL);
	CHECK_CONTAINS(text, " ^\n");
	free(text);
	CHECK_EQ(panel_key(p, KEY_HOME, &c), VK_HANDLED | VK_REDRAW);
	CHECK_EQ(panel_key(p, KEY_UP, &c), VK_HANDLED); /* already at the top */
	CHECK_EQ(panel_key(p, KEY_LEFT, &c), VK_HANDLED | VK_REDRAW);
	werase(win);
	panel_draw(p, win, &c);
	text = vt_text(win);
	CHECK_CONTAINS(text, "ENTRY STATE");
	free(text);
	delwin(win);
	panel_free(p);
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

/* At its minimum height the panel still lists entries (issue 38: the frc
 * lesson's step 5 at 80x24 gives it 5 rows and 40 columns beside the L2
 * panel, where a two-line summary left no entry row): title, one summary
 * line, the header, and entries 0.0 and 0.1. */
TEST(view_frc_min_height_shows_entries)
{
	vt_screen();
	struct session *ss =
		vt_session("set l2.frc.entries 16\nworkload gather_random\nbreak frc.swap_done\ncontinue\n");
	REQUIRE(ss != NULL);
	struct panel *p = panel_create("frc");
	REQUIRE(p != NULL);
	int min_h = p->ops->min_h;
	CHECK(min_h >= 5);
	char *text = draw_text(ss, 40, min_h, false);
	CHECK_CONTAINS(text, "ENTRY STATE");
	CHECK_CONTAINS(text, "\n0.0 ");
	CHECK_CONTAINS(text, "\n0.1 ");
	free(text);
	panel_free(p);
	vt_session_free(ss);
}
