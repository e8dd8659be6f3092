/*
 * panel.c: what every panel shares: the does-not-fit line, the title bar and
 * the registry of panel kinds.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "view.h"

/* Panels with something to show when the simulator runs a DRAM trace alone
 * (sim_dram_only); the others say so in one line. */
static bool dram_only_panel(const char *name)
{
	static const char *const ok[] = {"dram", "dramq", "events", "stats"};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		if (strcmp(name, ok[i]) == 0)
			return true;
	return false;
}

void panel_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	int h = getmaxy(w), wd = getmaxx(w);
	p->h = h;
	p->w = wd;
	werase(w);
	if (wd < p->ops->min_w || h < p->ops->min_h) {
		char msg[96];
		snprintf(msg, sizeof msg, "%s: needs %dx%d, have %dx%d", p->ops->name, p->ops->min_w,
			 p->ops->min_h, wd, h);
		put_text(w, 0, 0, wd, msg, role_attr(c->focused ? R_SELECT : R_DIM), false);
		return;
	}
	if (c->sim && sim_dram_only(c->sim) && !dram_only_panel(p->ops->name)) {
		char msg[120];
		snprintf(msg, sizeof msg, "%s: nothing to show: a DRAM-trace session has no cores or caches (layout dram)",
			 p->ops->name);
		/* Word-wrapped over the panel's rows; the last row cuts with a marker. */
		const char *t = msg;
		for (int y = 0; y < h && *t; y++) {
			int n = (int)strlen(t);
			if (n > wd && y + 1 < h) {
				n = wd;
				while (n > 0 && t[n] != ' ')
					n--;
				if (n == 0)
					n = wd;
			}
			char line[120];
			snprintf(line, sizeof line, "%.*s", n, t);
			put_text(w, y, 0, wd, line, role_attr(c->focused ? R_SELECT : R_DIM), false);
			t += n;
			while (*t == ' ')
				t++;
		}
		return;
	}
	p->ops->draw(p, w, c);
}

int panel_key(struct panel *p, int key, const struct view_ctx *c)
{
	return p->ops->key ? p->ops->key(p, key, c) : VK_IGNORED;
}

void panel_reset(struct panel *p)
{
	if (p->ops->reset)
		p->ops->reset(p);
}

void panel_free(struct panel *p)
{
	if (p)
		p->ops->free(p);
}

struct rect view_frame(struct panel *p, WINDOW *w, const struct view_ctx *c, const char *info)
{
	int wd = getmaxx(w), h = getmaxy(w);
	int x0 = p->sep_left ? 1 : 0;
	if (p->sep_left)
		mvwvline(w, 0, 0, ACS_VLINE, h);
	put_hline(w, 0, x0, wd - x0, role_attr(R_DIM));
	char name[40];
	snprintf(name, sizeof name, " %s ", p->ops->name);
	attr_t na = role_attr(R_HEADER) | (c->focused ? role_attr(R_SELECT) : 0);
	int x = x0 + (wd - x0 > 8 ? 1 : 0);
	x += put_text(w, 0, x, wd - x, name, na, false);
	if (c->zoomed && x + 2 < wd) { /* tmux's Z flag, and where the panel belongs */
		char tag[48];
		snprintf(tag, sizeof tag, "[Z layout %s]", c->zoomed);
		x += put_text(w, 0, x, 1, " ", A_NORMAL, false);
		x += put_text(w, 0, x, wd - x - 1, tag, role_attr(R_HEADER), false);
	}
	if (c->squeezed && x + 2 < wd) {
		char tag[80];
		snprintf(tag, sizeof tag, "[%s]", c->squeezed);
		x += put_text(w, 0, x, 1, " ", A_NORMAL, false);
		x += put_text(w, 0, x, wd - x - 1, tag, role_attr(R_HEADER), false);
	}
	if (info && *info && x + 2 < wd) {
		x += put_text(w, 0, x, 1, " ", A_NORMAL, false);
		x += put_text(w, 0, x, wd - x - 1, info, A_NORMAL, false);
		put_text(w, 0, x, 1, " ", A_NORMAL, false);
	}
	return (struct rect){.y = 1, .x = x0, .h = h - 1, .w = wd - x0};
}

static const struct panel_kind kinds[] = {
	{"warps", "warps of the selected SM: state, stall reason, next instruction", warps_panel_new},
	{"mshr", "MSHR entries of the selected SM's L1 and the selected L2 bank", mshr_panel_new},
	{"cache", "L1 of the selected SM as a set x way grid", cache_panel_new},
	{"l2cache", "the selected L2 bank as a set x way grid", l2cache_panel_new},
	{"l2", "every L2 bank: lines, transient lines, MSHRs, NACKs", l2_panel_new},
	{"dram", "DRAM channels x banks: state, open row, queues, timing", dram_panel_new},
	{"events", "the event log, newest at the bottom (/ filters)", events_panel_new},
	{"stats", "the statistics registry (/ searches)", stats_panel_new},
	{"reuse", "reuse-distance histogram and miss classes of an L1 / L2 bank", reuse_panel_new}, /* views/reuse.c */
	{"frc", "Fetch and Replacement Cache entries of the selected L2 bank", frc_panel_new}, /* views/frc.c */
	{"rf", "register file of the selected SM: racetrack tracks, ports, shifts, queues, write buffer", rf_panel_new}, /* views/rf.c */
	{"coherence", "coherence transactions (/ filters) and the selected line's directory entry", coherence_panel_new}, /* views/coherence.c */
	{"protocol", "the coherence protocol's L1 and directory tables, the rows just taken marked", protocol_panel_new}, /* views/protocol.c */
	{"timeline", "one L2 set's recent requests as a Gantt chart over cycles (NACK waits, evictions, fetches, FRC swaps)", timeline_panel_new}, /* views/timeline.c */
	{"dramq", "the selected DRAM bank's queue, oldest first, and the scheduler's next pick with why", dramq_panel_new}, /* views/dramq.c */
	{"lesson", "the open lesson's current step, what to do and the hint (shown beside the layout while a lesson is open)", lesson_panel_new}, /* views/lesson.c */
};

size_t panel_kind_count(void) { return sizeof kinds / sizeof kinds[0]; }

const struct panel_kind *panel_kind_at(size_t i) { return i < panel_kind_count() ? &kinds[i] : NULL; }

const struct panel_kind *panel_kind_find(const char *name)
{
	for (size_t i = 0; i < panel_kind_count(); i++)
		if (strcmp(kinds[i].name, name) == 0)
			return &kinds[i];
	return NULL;
}

struct panel *panel_create(const char *name)
{
	const struct panel_kind *k = panel_kind_find(name);
	return k ? k->create() : NULL;
}

bool view_same_event(const struct event *a, const struct event *b)
{
	return a->cycle == b->cycle && a->kind == b->kind && a->addr == b->addr && a->sm == b->sm &&
	       a->warp == b->warp && a->unit == b->unit && a->ch == b->ch && a->bank == b->bank &&
	       a->row == b->row && a->set == b->set && a->a == b->a && a->b == b->b;
}
