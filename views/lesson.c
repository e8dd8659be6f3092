/*
 * lesson.c: the lesson pane: the open lesson's current step (its text, what
 * to do, the hint once asked for, how the previous step went), word-wrapped
 * to the pane's width. The front end places it beside (wide screens) or
 * above (narrow ones) the layout while a lesson is open (tui.c, docs/LESSONS.md).
 *
 *   -- lesson  coalescing: step 2 of 8 -----------------------------------
 *   Step 1: right, event.reqs is 1. The coalesce event of warp 0's load...
 *   With stride 8, how many requests will warp 0's load make on the
 *   > answer N with your prediction (`hint` for a hint)  v 2 more lines
 *
 * Order: how the previous answer went (dim), the step's text, what to do
 * (bold), the hint (after `hint`). When that is longer than the pane the
 * last row keeps what to do and says how much is cut (and the first row,
 * once scrolled, how much is above); the arrows and PgUp/PgDn scroll it when
 * it has the focus. Asking for the hint scrolls to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "sim/util.h"
#include "view.h"

#define LP_MAX_LINES 256

struct wline {
	const char *s;
	int n;
	enum role role;
};

struct lesson_panel {
	struct panel base;
	int scroll;
	int last_step; /* a new step starts at its top */
	const void *last_lesson;
	bool last_hint; /* the hint just asked for: scroll so it shows */
};

/* Columns of s[0..n) (UTF-8 continuation bytes take none). */
static int cols_of(const char *s, int n)
{
	int c = 0;
	for (int i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

/* Byte length of the longest prefix of s (up to n bytes) that fits w columns. */
static int fit(const char *s, int n, int w)
{
	int c = 0, i = 0;
	while (i < n) {
		int k = 1;
		while (i + k < n && ((unsigned char)s[i + k] & 0xC0) == 0x80)
			k++;
		if (c + 1 > w)
			break;
		c++;
		i += k;
	}
	return i;
}

/* Word-wrap text ('\n' breaks lines) into out at width w; returns the count. */
static int wrap(const char *text, int w, enum role role, struct wline *out, int n, int max)
{
	if (!text || w < 1)
		return n;
	const char *p = text;
	for (;;) {
		const char *e = strchr(p, '\n');
		int len = e ? (int)(e - p) : (int)strlen(p);
		if (len == 0 && n < max)
			out[n++] = (struct wline){p, 0, role};
		while (len > 0 && n < max) {
			int take = len;
			if (cols_of(p, len) > w) {
				take = fit(p, len, w);
				int sp = take;
				while (sp > 0 && p[sp] != ' ')
					sp--;
				if (sp > 0)
					take = sp;
			}
			out[n++] = (struct wline){p, take, role};
			p += take;
			len -= take;
			while (len > 0 && *p == ' ') {
				p++;
				len--;
			}
		}
		if (!e)
			break;
		p = e + 1;
	}
	return n;
}

static int lines_of(const struct lesson_view *v, int w, struct wline *out)
{
	int n = 0;
	if (v->result && *v->result) /* the verdict on the answer just given, then the next step */
		n = wrap(v->result, w, R_DIM, out, n, LP_MAX_LINES);
	n = wrap(v->text, w, R_NORMAL, out, n, LP_MAX_LINES);
	n = wrap(v->todo, w, R_HEADER, out, n, LP_MAX_LINES);
	if (v->hint)
		n = wrap(v->hint, w, R_HIT, out, n, LP_MAX_LINES);
	return n;
}

int lesson_pane_rows(const struct lesson_view *v, int w)
{
	struct wline l[LP_MAX_LINES];
	return 1 + lines_of(v, w, l); /* the title row */
}

static void lesson_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct lesson_panel *lp = (struct lesson_panel *)p;
	const struct lesson_view *v = c->lesson;
	char info[160];
	if (!v) {
		struct rect r = view_frame(p, w, c, NULL);
		put_wrapped(w, r.y, r.x, r.w, r.h,
			    c->sim ? "No lesson open: `lesson NAME` opens one (`lesson list`)."
				   : "no simulator; no lesson open: `lesson NAME` opens one (`lesson list`).",
			    role_attr(R_DIM));
		return;
	}
	if (v->step > v->nsteps)
		snprintf(info, sizeof info, "%s: finished", v->name);
	else
		snprintf(info, sizeof info, "%s: step %d of %d", v->name, v->step, v->nsteps);
	struct rect r = view_frame(p, w, c, info);
	if (r.h < 1 || r.w < 1)
		return;
	if (lp->last_lesson != v->id || lp->last_step != v->step) { /* a new step: its top */
		lp->scroll = 0;
		lp->last_lesson = v->id;
		lp->last_step = v->step;
	}
	struct wline l[LP_MAX_LINES];
	int n = lines_of(v, r.w, l);
	if (v->hint && !lp->last_hint) /* the end: the hint and what follows it */
		lp->scroll = n;
	lp->last_hint = v->hint != NULL;
	if (lp->scroll > n - r.h)
		lp->scroll = n - r.h;
	if (lp->scroll < 0)
		lp->scroll = 0;
	/* Cut: the last row keeps what to do, with how much is below. */
	int todo = n;
	while (todo > 0 && l[todo - 1].role != R_HEADER)
		todo--;
	todo = todo > 0 && l[todo - 1].role == R_HEADER ? todo - 1 : -1; /* the (last) todo line */
	int first = lp->scroll, rows = r.h, y = r.y;
	bool above = first > 0, below = first + rows < n;
	char mark[96];
	if (above && rows > 1) {
		snprintf(mark, sizeof mark, "%s %d more line%s above (Up scrolls)", draw_utf8() ? "\xe2\x96\xb2" : "^", first,
			 first == 1 ? "" : "s");
		put_text(w, y++, r.x, r.w, mark, role_attr(R_STALL), false);
		rows--;
		first++;
		below = first + rows < n;
	}
	int shown = below ? rows - 1 : rows;
	for (int i = 0; i < shown && first + i < n; i++) {
		char buf[512];
		int k = l[first + i].n < (int)sizeof buf - 1 ? l[first + i].n : (int)sizeof buf - 1;
		memcpy(buf, l[first + i].s, (size_t)k);
		buf[k] = 0;
		put_text(w, y++, r.x, r.w, buf, role_attr(l[first + i].role), false);
	}
	if (below) {
		int rest = n - (first + shown);
		int x = r.x;
		/* What to do stays on screen while the step's text is cut above it. */
		if (todo >= first + shown) {
			char buf[256];
			int k = l[todo].n < (int)sizeof buf - 1 ? l[todo].n : (int)sizeof buf - 1;
			memcpy(buf, l[todo].s, (size_t)k);
			buf[k] = 0;
			x += put_text(w, y, x, r.w, buf, role_attr(R_HEADER), false);
			x += put_text(w, y, x, r.x + r.w - x, " ", A_NORMAL, false);
			rest--;
		}
		if (rest > 0) {
			snprintf(mark, sizeof mark, "%s %d more line%s (%s)", draw_utf8() ? "\xe2\x96\xbc" : "v", rest,
				 rest == 1 ? "" : "s", c->focused ? "Down/PgDn" : "Tab, Down");
			put_text(w, y, x, r.x + r.w - x, mark, role_attr(R_STALL), false);
		}
	}
}

static int lesson_key(struct panel *p, int key, const struct view_ctx *c)
{
	struct lesson_panel *lp = (struct lesson_panel *)p;
	int page = p->h > 3 ? p->h - 2 : 1;
	(void)c;
	switch (key) {
	case KEY_UP:
		lp->scroll--;
		break;
	case KEY_DOWN:
		lp->scroll++;
		break;
	case KEY_PPAGE:
		lp->scroll -= page;
		break;
	case KEY_NPAGE:
		lp->scroll += page;
		break;
	case KEY_HOME:
		lp->scroll = 0;
		break;
	case KEY_END:
		lp->scroll = LP_MAX_LINES;
		break;
	default:
		return VK_IGNORED;
	}
	if (lp->scroll < 0)
		lp->scroll = 0;
	return VK_HANDLED | VK_REDRAW; /* the draw clamps the far end */
}

static void lesson_reset(struct panel *p) { ((struct lesson_panel *)p)->scroll = 0; }

static void lesson_free_panel(struct panel *p) { free(p); }

static const struct panel_ops lesson_ops = {
	.name = "lesson",
	.desc = "the open lesson's current step: text, what to do, the hint once asked for",
	.min_w = 24,
	.min_h = 3,
	.draw = lesson_draw,
	.key = lesson_key,
	.reset = lesson_reset,
	.free = lesson_free_panel,
};

struct panel *lesson_panel_new(void)
{
	struct lesson_panel *lp = xcalloc(1, sizeof *lp);
	lp->base.ops = &lesson_ops;
	lp->last_step = -1;
	return &lp->base;
}
