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
	int above, below; /* rows of the step's text cut at the last draw */
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

/* The parts of the pane, each word-wrapped: the step's text, what to do,
 * the hint. The verdict on the previous answer takes one row (fold). */
struct parts {
	struct wline l[LP_MAX_LINES];
	int text, todo, hint; /* rows of each, in l in that order */
};

static void parts_of(const struct lesson_view *v, int w, struct parts *p)
{
	int n = wrap(v->text, w, R_NORMAL, p->l, 0, LP_MAX_LINES);
	p->text = n;
	n = wrap(v->todo, w, R_HEADER, p->l, n, LP_MAX_LINES);
	p->todo = n - p->text;
	if (v->hint)
		n = wrap(v->hint, w, R_HIT, p->l, n, LP_MAX_LINES);
	p->hint = n - p->text - p->todo;
}

/* Rows of the step's question: its last sentence (from the last ". ",
 * "? " or line break before its end), which the pane keeps on screen. */
static int question_rows(const char *text, const struct parts *p)
{
	if (!text || !p->text)
		return 0;
	size_t len = strlen(text), start = 0;
	while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\n'))
		len--;
	for (size_t i = 0; i + 2 < len; i++)
		if (((text[i] == '.' || text[i] == '?' || text[i] == '!') && text[i + 1] == ' ') || text[i] == '\n')
			start = i + 1;
	const char *q = text + start;
	int rows = 0;
	for (int i = 0; i < p->text; i++)
		if (p->l[i].s + p->l[i].n > q)
			rows++;
	return rows > 0 ? rows : 1;
}

int lesson_pane_rows(const struct lesson_view *v, int w)
{
	struct parts p;
	parts_of(v, w, &p);
	return 1 + (v->result && *v->result) + p.text + p.todo + p.hint; /* the title row */
}

static void put_line(WINDOW *w, int y, int x, int width, const struct wline *l)
{
	char buf[512];
	int k = l->n < (int)sizeof buf - 1 ? l->n : (int)sizeof buf - 1;
	memcpy(buf, l->s, (size_t)k);
	buf[k] = 0;
	put_text(w, y, x, width, buf, role_attr(l->role), false);
}

/* The verdict folded to one row: its start, "..." where it is cut (the
 * whole of it is in the command output). */
static void put_fold(WINDOW *w, int y, int x, int width, const char *s, attr_t a)
{
	int len = (int)strlen(s), k = fit(s, len, width);
	const char *nl = memchr(s, '\n', (size_t)k);
	if (nl)
		k = (int)(nl - s);
	if (k == len) {
		put_text(w, y, x, width, s, a, false);
		return;
	}
	const char *dots = draw_utf8() ? "\xe2\x80\xa6" : "...";
	int room = fit(s, k, width - (draw_utf8() ? 1 : 3));
	while (room > 0 && s[room] != ' ') /* whole words */
		room--;
	char buf[512];
	snprintf(buf, sizeof buf, "%.*s%s", room > 0 ? room : fit(s, k, width - 3), s, dots);
	put_text(w, y, x, width, buf, a, false);
}

/* Rows of the step's text above the shown ones, and below (0 when it all
 * shows), for the title and for PgUp/PgDn: lesson_panel_hidden(). */
static void lesson_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct lesson_panel *lp = (struct lesson_panel *)p;
	const struct lesson_view *v = c->lesson;
	struct view_ctx cc = *c;
	cc.zoomed = NULL; /* the pane is outside the layouts: no zoom tag */
	char info[200];
	lp->above = lp->below = 0;
	if (!v) {
		struct rect r = view_frame(p, w, &cc, NULL);
		put_wrapped(w, r.y, r.x, r.w, r.h,
			    c->sim ? "No lesson open: `lesson NAME` opens one (`lesson list`)."
				   : "no simulator; no lesson open: `lesson NAME` opens one (`lesson list`).",
			    role_attr(R_DIM));
		return;
	}
	if (lp->last_lesson != v->id || lp->last_step != v->step) { /* a new step: its question */
		lp->scroll = 0;
		lp->last_lesson = v->id;
		lp->last_step = v->step;
	}
	if (v->hint && !lp->last_hint) /* the hint just asked for: the question and the hint */
		lp->scroll = 0;
	lp->last_hint = v->hint != NULL;
	int x0 = p->sep_left ? 1 : 0, width = getmaxx(w) - x0, h = getmaxy(w) - 1;
	struct parts pt;
	parts_of(v, width, &pt);
	/* From the bottom up: what to do (never cut), the hint, then the step's
	 * text ending with its question, then the previous verdict on one row
	 * when a row is left. Text that does not fit is cut at its top (PgUp). */
	bool verdict = v->result && *v->result;
	bool warn = v->warning && *v->warning && h >= 3 + pt.todo; /* one row, after the question's */
	int fixed = pt.todo + pt.hint + warn;
	if (fixed > h) { /* the hint gives way to what to do */
		pt.hint = h > pt.todo + warn ? h - pt.todo - warn : 0;
		fixed = pt.todo + pt.hint + warn;
	}
	int avail = h - fixed;
	/* the verdict's row, unless the question needs it */
	int q = question_rows(v->text, &pt);
	bool show_verdict = verdict && avail >= 1 + (pt.text < q ? pt.text : q);
	int room = avail - show_verdict;
	int shown = pt.text < room ? pt.text : room;
	int maxscroll = pt.text - shown;
	if (lp->scroll > maxscroll)
		lp->scroll = maxscroll;
	if (lp->scroll < 0)
		lp->scroll = 0;
	int first = pt.text - shown - lp->scroll;
	lp->above = first;
	lp->below = lp->scroll;
	if (v->step > v->nsteps)
		snprintf(info, sizeof info, "%s: finished", v->name);
	else
		snprintf(info, sizeof info, "%s: step %d of %d", v->name, v->step, v->nsteps);
	if (lp->above || lp->below) {
		size_t k = strlen(info);
		const char *up = draw_utf8() ? "\xe2\x96\xb2" : "^", *dn = draw_utf8() ? "\xe2\x96\xbc" : "v";
		if (lp->above)
			k += (size_t)snprintf(info + k, sizeof info - k, "  %s %d line%s above (PgUp)", up, lp->above,
					      lp->above == 1 ? "" : "s");
		if (lp->below && k < sizeof info)
			snprintf(info + k, sizeof info - k, "  %s %d below (PgDn)", dn, lp->below);
	}
	struct rect r = view_frame(p, w, &cc, info);
	if (r.h < 1 || r.w < 1)
		return;
	int y = r.y;
	if (show_verdict)
		put_fold(w, y++, r.x, r.w, v->result, role_attr(R_DIM));
	if (warn) { /* a configuration fallback: the student would not see it elsewhere */
		put_fold(w, y++, r.x, r.w, v->warning, role_attr(R_STALL));
	}
	for (int i = 0; i < shown; i++)
		put_line(w, y++, r.x, r.w, &pt.l[first + i]);
	/* the hint and what to do: at the bottom when the text is cut */
	if (first > 0 || lp->scroll > 0)
		y = r.y + r.h - pt.todo - pt.hint;
	if (y < r.y)
		y = r.y;
	for (int i = 0; i < pt.hint && y < r.y + r.h - pt.todo; i++)
		put_line(w, y++, r.x, r.w, &pt.l[pt.text + pt.todo + i]);
	for (int i = 0; i < pt.todo && y < r.y + r.h; i++)
		put_line(w, y++, r.x, r.w, &pt.l[pt.text + i]);
}

int lesson_panel_hidden(const struct panel *p)
{
	const struct lesson_panel *lp = (const struct lesson_panel *)p;
	return lp->above + lp->below;
}

static int lesson_key(struct panel *p, int key, const struct view_ctx *c)
{
	struct lesson_panel *lp = (struct lesson_panel *)p;
	int page = p->h > 3 ? p->h - 2 : 1;
	(void)c;
	switch (key) {
	case KEY_UP: /* scroll counts the text's rows hidden below the shown ones */
		lp->scroll++;
		break;
	case KEY_DOWN:
		lp->scroll--;
		break;
	case KEY_PPAGE:
		lp->scroll += page;
		break;
	case KEY_NPAGE:
		lp->scroll -= page;
		break;
	case KEY_HOME:
		lp->scroll = LP_MAX_LINES;
		break;
	case KEY_END:
		lp->scroll = 0;
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
