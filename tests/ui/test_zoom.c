/*
 * test_zoom.c: `zoom [PANEL]` (tmux's zoom): the panel gets the whole panel
 * area at 80x24 and 200x60, unzooming gives back the exact arrangement,
 * resizing while zoomed, errors naming the layout's panels, focus, the
 * title/status marks, `save session` / `load session` and rewinding.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/commands.h"
#include "views/draw.h"
#include "tui/layout.h"
#include "session/session_file.h"
#include "test.h"
#include "tui/tui.h"
#include "vtest.h"

struct arr {
	struct layout_slot s[LAYOUT_MAX_SLOTS];
	int n;
};

static struct arr arrangement(struct tui *t)
{
	struct arr a;
	a.n = tui_arrangement(t, a.s, LAYOUT_MAX_SLOTS);
	return a;
}

/* Two arrangements are the same: panels, places, sizes and separators. */
static bool same_arrangement(const struct arr *a, const struct arr *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++) {
		const struct layout_slot *x = &a->s[i], *y = &b->s[i];
		if (strcmp(x->panel, y->panel) != 0 || x->y != y->y || x->x != y->x || x->h != y->h || x->w != y->w ||
		    x->sep_left != y->sep_left)
			return false;
	}
	return true;
}

/* The rectangle the slots cover (their bounding box) and their total area. */
static void bounds(const struct arr *a, int *y0, int *x0, int *y1, int *x1, long *area)
{
	*y0 = *x0 = 1 << 20;
	*y1 = *x1 = -1;
	*area = 0;
	for (int i = 0; i < a->n; i++) {
		const struct layout_slot *s = &a->s[i];
		*y0 = s->y < *y0 ? s->y : *y0;
		*x0 = s->x < *x0 ? s->x : *x0;
		*y1 = s->y + s->h > *y1 ? s->y + s->h : *y1;
		*x1 = s->x + s->w > *x1 ? s->x + s->w : *x1;
		*area += (long)s->h * s->w;
	}
}

static char *screen_row(int y, char *buf, size_t n) { return draw_read_row(curscr, y, buf, n); }

/* Zoom frc in layout frc at lines x cols: one slot, the whole area the layout
 * tiles (below the status bar, above the command output); unzoom: the same
 * slots as before, to the cell. */
static void zoom_fills_and_restores(int lines, int cols)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, lines, cols);
	REQUIRE(t != NULL);
	CHECK_EQ(tui_exec(t, "layout frc"), CMD_OK);
	struct arr before = arrangement(t);
	CHECK_EQ(before.n, 4);
	int y0, x0, y1, x1;
	long area;
	bounds(&before, &y0, &x0, &y1, &x1, &area);
	CHECK_EQ(y0, 1);
	CHECK_EQ(x0, 0);
	CHECK_EQ(x1, cols);
	CHECK_EQ(area, (long)(y1 - y0) * cols); /* the layout tiles the area */
	CHECK(y1 < lines - 1);                  /* the command output and prompt stay below */

	CHECK_EQ(tui_exec(t, "zoom frc"), CMD_OK);
	CHECK_STR(tui_zoomed(t), "frc");
	struct arr z = arrangement(t);
	REQUIRE(z.n == 1);
	CHECK_STR(z.s[0].panel, "frc");
	CHECK_EQ(z.s[0].y, 1);
	CHECK_EQ(z.s[0].x, 0);
	CHECK_EQ(z.s[0].h, y1 - y0);
	CHECK_EQ(z.s[0].w, cols);
	CHECK(!z.s[0].sep_left);
	/* The zoomed panel is focused (reverse title) and says where it belongs. */
	tui_frame(t);
	char row[512];
	CHECK_CONTAINS(screen_row(1, row, sizeof row), " frc  [Z layout frc]");
	if (cols >= 132) /* the status bar has room for the layout: tmux's Z flag */
		CHECK_CONTAINS(screen_row(0, row, sizeof row), "| frc Z");

	CHECK_EQ(tui_exec(t, "zoom"), CMD_OK);
	CHECK(tui_zoomed(t) == NULL);
	struct arr after = arrangement(t);
	CHECK(same_arrangement(&before, &after));
	tui_frame(t);
	CHECK(!strstr(screen_row(1, row, sizeof row), "[Z"));
	vt_tui_stop(t, ss);
}

TEST(zoom_fills_the_area_and_unzoom_restores_80x24) { zoom_fills_and_restores(24, 80); }
TEST(zoom_fills_the_area_and_unzoom_restores_200x60) { zoom_fills_and_restores(60, 200); }

/* Resizing while zoomed keeps the zoom at the new size; unzooming then gives
 * the layout's arrangement for that size. */
TEST(zoom_survives_resizing)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_exec(t, "layout frc");
	tui_exec(t, "zoom l2cache");
	tui_frame(t);
	resizeterm(60, 200);
	tui_frame(t);
	CHECK_STR(tui_zoomed(t), "l2cache");
	struct arr z = arrangement(t);
	REQUIRE(z.n == 1);
	CHECK_STR(z.s[0].panel, "l2cache");
	CHECK_EQ(z.s[0].w, 200);
	tui_exec(t, "zoom l2cache"); /* the zoomed panel by name toggles too */
	CHECK(tui_zoomed(t) == NULL);
	struct arr un = arrangement(t);
	tui_exec(t, "layout frc");
	struct arr fresh = arrangement(t);
	CHECK(same_arrangement(&un, &fresh));
	CHECK_EQ(un.n, 4);
	/* Tiny and back: nothing breaks while zoomed. */
	tui_exec(t, "zoom events");
	static const int sizes[][2] = {{5, 20}, {2, 10}, {1, 1}, {24, 80}};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		resizeterm(sizes[i][0], sizes[i][1]);
		tui_frame(t);
	}
	CHECK_STR(tui_zoomed(t), "events");
	z = arrangement(t);
	REQUIRE(z.n == 1);
	CHECK_EQ(z.s[0].w, 80);
	vt_tui_stop(t, ss);
}

static void out_cb(void *u, const char *text) { sb_printf(u, "%s\n", text); }

/* Run line through the command table (as the prompt does); its output. */
static char *run(struct session *ss, const char *line, int *rc)
{
	struct strbuf sb;
	sb_init(&sb);
	struct cmd_out o = {.print = out_cb, .error = out_cb, .u = &sb};
	*rc = cmd_exec(ss, line, &o);
	return sb.s ? sb.s : xstrdup("");
}

TEST(zoom_errors_name_the_layouts_panels)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_exec(t, "layout frc");
	int rc;
	char *o = run(ss, "zoom warps", &rc);
	CHECK(rc & CMD_ERR);
	CHECK_CONTAINS(o, "panel 'warps' is not in layout frc (its panels: frc, l2, l2cache, events)");
	free(o);
	o = run(ss, "zoom bogus", &rc);
	CHECK(rc & CMD_ERR);
	CHECK_CONTAINS(o, "unknown panel 'bogus' (layout frc has: frc, l2, l2cache, events)");
	free(o);
	o = run(ss, "zoom frc l2", &rc);
	CHECK(rc & CMD_ERR);
	CHECK_CONTAINS(o, "usage: zoom [PANEL]");
	free(o);
	CHECK(tui_zoomed(t) == NULL);
	/* An error while zoomed leaves the zoom alone. */
	tui_exec(t, "zoom events");
	o = run(ss, "zoom dram", &rc);
	CHECK(rc & CMD_ERR);
	free(o);
	CHECK_STR(tui_zoomed(t), "events");
	/* Completion offers the layout's panels. */
	const char *names[8];
	size_t n = tui_layout_panels(t, names, 8);
	CHECK_EQ(n, 4);
	CHECK_STR(names[2], "l2cache");
	CHECK_EQ(cmd_lookup(ss, "zoom")->complete, (unsigned)COMPL_LAYOUT_PANEL);
	vt_tui_stop(t, ss);
	/* Batch mode has no screen. */
	struct session *b = vt_session(NULL);
	REQUIRE(b != NULL);
	o = run(b, "zoom", &rc);
	CHECK(rc & CMD_ERR);
	free(o);
	vt_session_free(b);
}

/* Whether the title of panel name is on screen with its name in reverse
 * (focused). */
static bool title_focused(const char *name)
{
	char row[512], pat[48];
	snprintf(pat, sizeof pat, "\xe2\x94\x80 %s ", name); /* "─ name " */
	for (int y = 1; y < LINES; y++) {
		char *p = strstr(screen_row(y, row, sizeof row), pat);
		if (!p)
			continue;
		/* Columns, not bytes: "─" is one column of three bytes. */
		int x = 0;
		for (char *q = row; q < p; q++)
			x += ((unsigned char)*q & 0xc0) != 0x80;
		cchar_t cc;
		mvwin_wch(curscr, y, x + 2, &cc); /* the name's first letter */
		attr_t a;
		short pair;
		wchar_t wc[CCHARW_MAX + 1];
		getcchar(&cc, wc, &a, &pair, NULL);
		return (a & A_REVERSE) != 0;
	}
	return false;
}

/* Which panel `zoom` takes, and what focus and layout changes do (tmux:
 * switching panes unzooms). */
TEST(zoom_focus_and_layout)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_exec(t, "layout frc");
	/* The prompt has the focus: the layout's first panel, which gets the focus. */
	CHECK_EQ(tui_exec(t, "zoom"), CMD_OK);
	CHECK_STR(tui_zoomed(t), "frc");
	CHECK_EQ(arrangement(t).n, 1);
	tui_frame(t);
	CHECK(title_focused("frc"));
	CHECK_EQ(tui_exec(t, "zoom"), CMD_OK); /* unzoom keeps the focus on frc */
	tui_frame(t);
	CHECK(title_focused("frc"));
	CHECK(!title_focused("l2cache"));
	CHECK_EQ(tui_exec(t, "focus l2cache"), CMD_OK);
	CHECK_EQ(tui_exec(t, "zoom"), CMD_OK);
	CHECK_STR(tui_zoomed(t), "l2cache");
	/* focus cmd and focus of the zoomed panel keep the zoom. */
	CHECK_EQ(tui_exec(t, "focus cmd"), CMD_OK);
	CHECK_STR(tui_zoomed(t), "l2cache");
	CHECK_EQ(tui_exec(t, "focus l2cache"), CMD_OK);
	CHECK_STR(tui_zoomed(t), "l2cache");
	/* Tab (focus next) moves on and unzooms: events follows l2cache. */
	CHECK_EQ(tui_exec(t, "focus next"), CMD_OK);
	CHECK(tui_zoomed(t) == NULL);
	CHECK_EQ(arrangement(t).n, 4);
	tui_frame(t);
	CHECK(title_focused("events"));
	/* Focusing another panel by name unzooms too; a failed focus does not. */
	tui_exec(t, "zoom");
	CHECK_STR(tui_zoomed(t), "events");
	CHECK(tui_exec(t, "focus warps") & CMD_ERR);
	CHECK_STR(tui_zoomed(t), "events");
	CHECK_EQ(tui_exec(t, "focus l2"), CMD_OK);
	CHECK(tui_zoomed(t) == NULL);
	/* Zooming another panel of the layout while zoomed switches the zoom. */
	tui_exec(t, "zoom frc");
	CHECK_EQ(tui_exec(t, "zoom l2"), CMD_OK);
	CHECK_STR(tui_zoomed(t), "l2");
	/* A layout, even the same one, unzooms. */
	CHECK_EQ(tui_exec(t, "layout frc"), CMD_OK);
	CHECK(tui_zoomed(t) == NULL);
	tui_exec(t, "zoom frc");
	CHECK_EQ(tui_exec(t, "layout dram"), CMD_OK);
	CHECK(tui_zoomed(t) == NULL);
	CHECK_EQ(arrangement(t).n, 3); /* dram, dramq, events */
	vt_tui_stop(t, ss);
}

/* Zoom is screen state: rewinding (rs, goto) leaves it; `save session` keeps
 * it after the layout (as the layout is kept) and `load session` brings it
 * back. */
TEST(zoom_kept_by_sessions_not_touched_by_rewind)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_exec(t, "layout frc");
	tui_exec(t, "step 200");
	tui_run_to_stop(t);
	CHECK_EQ(tui_exec(t, "zoom l2cache"), CMD_OK);
	CHECK(tui_exec(t, "rs 50") & CMD_RUN);
	tui_run_to_stop(t);
	CHECK_EQ(sim_cycle(ss->sim), 150);
	CHECK(tui_exec(t, "goto 20") & CMD_RUN);
	tui_run_to_stop(t);
	CHECK_EQ(sim_cycle(ss->sim), 20);
	CHECK_STR(tui_zoomed(t), "l2cache");
	CHECK_EQ(arrangement(t).n, 1);

	char *dir = vt_tmpdir("zoom");
	char path[1024], cmd[1100];
	snprintf(path, sizeof path, "%s/z.gps", dir);
	snprintf(cmd, sizeof cmd, "save session \"%s\"", path);
	CHECK_EQ(tui_exec(t, cmd), CMD_OK);
	char *text = session_file_text(ss);
	CHECK_CONTAINS(text, "\nui layout frc\nui zoom l2cache\n");
	free(text);
	/* Elsewhere, unzoomed: loading brings the layout and the zoom back. */
	tui_exec(t, "layout dram");
	CHECK(tui_zoomed(t) == NULL);
	snprintf(cmd, sizeof cmd, "load session \"%s\"", path);
	CHECK(!(tui_exec(t, cmd) & CMD_ERR));
	tui_run_to_stop(t);
	CHECK_STR(tui_layout_name(t), "frc");
	CHECK_STR(tui_zoomed(t), "l2cache");
	CHECK_EQ(sim_cycle(ss->sim), 20);
	/* Unzoomed, the file has no zoom line. */
	tui_exec(t, "zoom");
	text = session_file_text(ss);
	CHECK(!strstr(text, "ui zoom"));
	free(text);
	unlink(path);
	rmdir(dir);
	free(dir);
	vt_tui_stop(t, ss);
}
