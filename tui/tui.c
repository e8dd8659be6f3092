/*
 * tui.c: the interactive front end: screen, input routing and the run loop.
 *
 *   +--------------------------------------------------------------+
 *   | status bar                                                   |  row 0
 *   +--------------------------------------------------------------+
 *   | panels, arranged by the layout (layout.c); each panel is a   |
 *   | WINDOW drawn by its view (views/)                             |
 *   +--------------------------------------------------------------+
 *   | command output (scrollback, newest at the bottom)            |  2..10 rows
 *   | (gpustep) prompt line (readline, rl.c)                        |  last row
 *   +--------------------------------------------------------------+
 *
 * Input routing, first match wins:
 *   1. the help overlay, while open, takes every key (scroll or close)
 *   2. a panel in modal input (typing a `/` search) takes every key
 *   3. Ctrl-C / Esc: stop a run, or clear the line / close things / unzoom
 *   4. key bindings (keys.c): F-keys, Alt-N, Tab on an empty line, ...
 *   5. navigation keys go to the focused panel (or the output scrollback,
 *      or readline history when the prompt has the focus)
 *   6. everything else is typed into readline
 *
 * Running: a command that advances time returns CMD_RUN. The loop then calls
 * session_run_slice() with a cycle budget tuned so one slice takes ~10 ms,
 * polls the keyboard without blocking between slices, and draws at most 30
 * frames per second. Drawing only happens for what is dirty: panels when the
 * simulation moved, the prompt when readline changed it, and so on
 * (wnoutrefresh per window, one doupdate per frame, werase never clear).
 */
#include "tui.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "views/draw.h"
#include "views/help.h"
#include "keys.h"
#include "layout.h"
#include "outlog.h"
#include "rl.h"
#include "session/session_file.h"
#include "views/status.h"
#include "sim/util.h"
#include "views/view.h"

#include "tui_int.h"

static volatile sig_atomic_t got_sigint;
static struct sim *volatile sigint_sim;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- command output ------------------------------------------------------ */

static void out_print_cb(void *u, const char *text) { outlog_add(&((struct tui *)u)->log, text, OUT_TEXT); }
static void out_error_cb(void *u, const char *text) { outlog_add(&((struct tui *)u)->log, text, OUT_ERROR); }

struct cmd_out tui_out(struct tui *t)
{
	return (struct cmd_out){.print = out_print_cb, .error = out_error_cb, .u = t};
}

/* ---- windows and layout ---------------------------------------------------- */

static void panel_min(const char *name, int *w, int *h)
{
	const struct panel_kind *k = panel_kind_find(name);
	struct panel *p = k ? k->create() : NULL;
	*w = p ? p->ops->min_w : 10;
	*h = p ? p->ops->min_h : 3;
	panel_free(p);
}

static struct panel *panel_get(struct tui *t, const char *name)
{
	for (size_t i = 0; i < panel_kind_count() && i < ARRAY_LEN(t->panels); i++) {
		if (strcmp(panel_kind_at(i)->name, name) != 0)
			continue;
		if (!t->panels[i])
			t->panels[i] = panel_kind_at(i)->create();
		return t->panels[i];
	}
	return NULL;
}

static void del_windows(struct tui *t)
{
	for (int i = 0; i < t->nslots; i++)
		if (t->slots[i].w)
			delwin(t->slots[i].w);
	t->nslots = 0;
	WINDOW **ws[] = {&t->status, &t->out, &t->prompt, &t->help};
	for (size_t i = 0; i < ARRAY_LEN(ws); i++) {
		if (*ws[i])
			delwin(*ws[i]);
		*ws[i] = NULL;
	}
}

/* Command output rows: a fifth of the screen (5 at 24 lines, 7 at 34, 12
 * from 59); output longer than that opens in the pager. */
static int out_rows_for(int lines)
{
	int r = (lines + 1) / 5;
	return r < 2 ? 2 : r > 12 ? 12 : r;
}

/* newwin that never makes a full-screen window from a zero size. */
static WINDOW *mkwin(int h, int w, int y, int x)
{
	if (h < 1)
		h = 1;
	if (w < 1)
		w = 1;
	return newwin(h, w, y, x);
}

static int lesson_geometry(struct tui *t, int ph, int W)
{
	return lesson_pane_geometry(t->ss, &t->lpb, &t->lesson, ph, W);
}

/* The pager and the help overlay leave a lesson pane above the panels on
 * screen: they take the rows below it (down to the row above the prompt),
 * so the step being followed stays readable beside the output it asked
 * for. Beside the panels (lg < 0) the overlay is centred in the panels'
 * columns already. Below OVERLAY_MIN_ROWS (3 text rows and the frame) the
 * screen is too small to share: the overlay takes the whole height. */
#define OVERLAY_MIN_ROWS 5
static void overlay_below_lesson(int lg, int *hy, int *hh)
{
	if (lg > 0 && *hy < 1 + lg && *hh - (1 + lg - *hy) >= OVERLAY_MIN_ROWS) {
		*hh -= 1 + lg - *hy;
		*hy = 1 + lg;
	}
}

void tui_apply_layout(struct tui *t)
{
	del_windows(t);
	t->lines = LINES;
	t->cols = COLS;
	int H = LINES, W = COLS;
	/* Fixed rows: status 1, prompt 1, output; panels get the rest. */
	int outh = out_rows_for(H);
	if (H < 4)
		outh = 0;
	int ph = H - 2 - outh;
	if (ph < 0)
		ph = 0;
	t->status = mkwin(1, W, 0, 0);
	t->prompt = mkwin(1, W, H > 1 ? H - 1 : 0, 0);
	t->out = mkwin(outh > 0 ? outh : 1, W, outh > 0 ? H - 1 - outh : 0, 0);
	if (outh == 0) { /* tiny screen: no output window on screen */
		delwin(t->out);
		t->out = newpad(1, W > 0 ? W : 1);
	}
	keypad(t->prompt, TRUE);
	leaveok(t->prompt, FALSE);
	struct layout_slot sl[LAYOUT_MAX_SLOTS];
	int n = 0;
	/* The lesson pane takes its room first; the layout gets the rest. */
	int lg = lesson_geometry(t, ph, W), py = 1;
	struct layout_slot lesson_slot = {0};
	t->lesson_geom = lg;
	if (lg < 0) {
		W += lg;
		lesson_slot = (struct layout_slot){.panel = "lesson", .y = 1, .x = W, .h = ph, .w = -lg, .sep_left = true};
	} else if (lg > 0) {
		lesson_slot = (struct layout_slot){.panel = "lesson", .y = 1, .x = 0, .h = lg, .w = W};
		ph -= lg;
		py += lg;
	}
	if (ph > 0 && t->zoom[0]) /* zoomed: one panel, the whole area (tmux's resize-pane -Z) */
		sl[n++] = (struct layout_slot){.panel = t->zoom, .y = py, .x = 0, .h = ph, .w = W};
	else if (ph > 0)
		n = layout_arrange(t->layout, py, 0, ph, W, panel_min, sl);
	/* A layout whose panels do not all fit (60x15) would show "needs WxH"
	 * lines: show one of them whole instead, the focused one or the
	 * layout's first (its most useful), and say so in its title. */
	t->squeezed = 0;
	bool fits = true;
	for (int i = 0; i < n && !t->zoom[0]; i++) {
		int mw, mh;
		panel_min(sl[i].panel, &mw, &mh);
		fits &= sl[i].w >= mw && sl[i].h >= mh;
	}
	if (!fits && n > 1) {
		const char *names[LAYOUT_MAX_SLOTS];
		int m = layout_panels(t->layout, names, LAYOUT_MAX_SLOTS), pick = 0;
		for (int i = 0; i < m; i++)
			if (strcmp(names[i], t->focus_name) == 0)
				pick = i;
		sl[0] = (struct layout_slot){.panel = names[pick], .y = py, .x = 0, .h = ph, .w = W};
		n = 1;
		t->squeezed = m;
		snprintf(t->squeeze_note, sizeof t->squeeze_note, "%d of %d fits, Tab: next", pick + 1, m);
	}
	t->nslots = 0;
	for (int i = 0; i < n; i++) {
		struct panel *p = panel_get(t, sl[i].panel);
		if (!p)
			continue;
		p->sep_left = sl[i].sep_left;
		t->slots[t->nslots++] = (struct slot){p, mkwin(sl[i].h, sl[i].w, sl[i].y, sl[i].x)};
	}
	if (lg) { /* last in the Tab order: the layout's panels keep their places */
		struct panel *p = panel_get(t, "lesson");
		p->sep_left = lesson_slot.sep_left;
		t->slots[t->nslots++] =
			(struct slot){p, mkwin(lesson_slot.h, lesson_slot.w, lesson_slot.y, lesson_slot.x)};
	}
	/* Keep the focus on the same panel when it is still shown. */
	t->focus = -1;
	for (int i = 0; i < t->nslots; i++)
		if (strcmp(t->slots[i].p->ops->name, t->focus_name) == 0)
			t->focus = i;
	if (t->help_open) {
		/* The whole width up to 100 columns: help text is written for 80
		 * (what is wider wraps, help_draw). */
		int hh = H - 2 > 4 ? H - 2 : H, hw = W > 100 ? 100 : W, hy = (H - hh) / 2;
		overlay_below_lesson(lg, &hy, &hh);
		t->help = mkwin(hh, hw, hy, (W - hw) / 2);
	}
	t->need_layout = false;
	t->dirty_panels = t->dirty_status = t->log.dirty = true;
}

/* ---- status and frames ----------------------------------------------------- */

static double current_ipc(struct tui *t)
{
	const struct sim *s = t->ss->sim;
	if (!s || sim_dram_only(s)) /* a DRAM trace issues no instructions */
		return -1;
	const struct stats *st = sim_stats_c(s);
	if (t->ipc_sim != s) {
		t->ipc_sim = s;
		t->ipc_id = stats_find(st, "sim.ipc");
	}
	return t->ipc_id >= 0 ? stats_value(st, (uint32_t)t->ipc_id) : -1;
}

static void draw_status(struct tui *t)
{
	const struct session *ss = t->ss;
	char state[300];
	bool searching = t->running && ss->run.kind == RUN_REVERSE;
	if (searching) { /* the interval being replayed starts here; it moves back */
		uint64_t at = ss->run.search.in_interval ? ss->run.search.from : ss->run.search.limit;
		snprintf(state, sizeof state, "searching back: cycle %llu, %llu back, %llu replayed (Ctrl-C stops)",
			 (unsigned long long)at, (unsigned long long)(ss->run.search.origin - at),
			 (unsigned long long)ss->run.search.replayed);
	}
	else if (t->running && session_load_progress(ss, state, sizeof state - 20))
		strcat(state, " (Ctrl-C cancels)");
	else if (t->running)
		snprintf(state, sizeof state, "running (Ctrl-C stops)");
	else
		snprintf(state, sizeof state, "%s", t->state);
	char lay[48];
	if (t->zoom[0])
		snprintf(lay, sizeof lay, "%s Z", t->layout->name);
	else
		snprintf(lay, sizeof lay, "%s", t->layout->name);
	struct status_info si = {
		.sim = ss->sim,
		.config = ss->cfg.name[0] ? ss->cfg.name : ss->cfg_source,
		.workload = ss->wl.name[0] ? ss->wl.name : ss->workload_spec,
		.layout = lay,
		.cycle = searching ? ss->run.search.origin : ss->sim ? sim_cycle(ss->sim) : 0,
		.state = state,
		.state_role = t->running ? R_NORMAL : t->state_role,
		.cps = t->running && t->cps > 0 ? t->cps : -1, /* none before the first measurement, nor while a search stands */
		.ipc = searching ? t->rev_ipc : current_ipc(t),
	};
	status_draw(t->status, &si);
	t->dirty_status = false;
}

struct view_ctx tui_ctx_for(struct tui *t, int slot)
{
	const struct session *ss = t->ss;
	return (struct view_ctx){
		.sim = ss->sim,
		.sel_sm = ss->sel_sm,
		.sel_warp = ss->sel_warp,
		.sel_l2 = ss->sel_l2,
		.sel_ch = ss->sel_ch,
		.sel_bank = ss->sel_bank,
		.sel_line = ss->sel_line,
		.sel_line_set = ss->sel_line_set,
		.tl_bank = ss->tl_bank,
		.tl_set = ss->tl_set,
		.tl_fixed = ss->tl_fixed,
		.stop_ev = t->have_stop_ev ? &t->stop_ev : NULL,
		.model = ss->model.valid ? &ss->model : NULL,
		.focused = slot == t->focus,
		.zoomed = t->zoom[0] ? t->layout->name : NULL,
		/* the squeezed layout's one panel, not the lesson pane beside it */
		.squeezed = t->squeezed && !(slot >= 0 && slot < t->nslots && strcmp(t->slots[slot].p->ops->name, "lesson") == 0)
				    ? t->squeeze_note
				    : NULL,
		.lesson = t->lesson,
		.sel_mshr_level = ss->sel_mshr_level,
		.sel_mshr = ss->sel_mshr,
		.sel_mshr_gen = ss->sel_mshr_gen,
	};
}

static void draw_panels(struct tui *t)
{
	for (int i = 0; i < t->nslots; i++) {
		struct view_ctx c = tui_ctx_for(t, i);
		panel_draw(t->slots[i].p, t->slots[i].w, &c);
		wnoutrefresh(t->slots[i].w);
	}
	t->dirty_panels = false;
}

static void draw_prompt(struct tui *t)
{
	if (t->running) {
		werase(t->prompt);
		int w = getmaxx(t->prompt);
		int x = put_text(t->prompt, 0, 0, w, "running... Ctrl-C or Esc stops", role_attr(R_DIM), false);
		char *typed = t->nahead ? tui_typeahead_text(t) : NULL;
		if (typed && typed[0] && x + 12 < w) {
			/* What was typed meanwhile, run when this run stops; when it
			 * does not fit, its end (where the typing is) with … before. */
			x += put_text(t->prompt, 0, x, w - x, "  next: ", role_attr(R_DIM), false);
			int room = w - x, cols = 0;
			const char *p = typed;
			for (const char *q = typed; *q; q++)
				cols += ((unsigned char)*q & 0xC0) != 0x80;
			if (cols > room && room > 1) {
				x += put_text(t->prompt, 0, x, 1, draw_utf8() ? "\xe2\x80\xa6" : "<", role_attr(R_DIM), false);
				for (int skip = cols - (room - 1); skip > 0 && *p; skip--) {
					p++;
					while (*p && ((unsigned char)*p & 0xC0) == 0x80)
						p++;
				}
			}
			put_text(t->prompt, 0, x, w - x, p, A_NORMAL, true);
		}
		free(typed);
		wmove(t->prompt, 0, 0);
	} else if (t->interactive) {
		rlw_draw(t->prompt);
	} else {
		werase(t->prompt);
		put_text(t->prompt, 0, 0, getmaxx(t->prompt), "(gpustep) ", A_NORMAL, false);
	}
}

void tui_frame(struct tui *t)
{
	/* A lesson opened, closed, hidden, or a step of another length: the
	 * pane's room changes. Its content is read again every frame. */
	if (!t->need_layout && t->lines == LINES && t->cols == COLS) {
		int H = LINES, outh = H < 4 ? 0 : out_rows_for(H), area = H - 2 - outh;
		if (lesson_geometry(t, area < 0 ? 0 : area, COLS) != t->lesson_geom)
			t->need_layout = true;
	}
	if (t->need_layout || LINES != t->lines || COLS != t->cols)
		tui_apply_layout(t);
	bool any = false;
	if (t->dirty_panels) {
		draw_panels(t);
		any = true;
	}
	if (t->dirty_status || any) {
		draw_status(t);
		wnoutrefresh(t->status);
	}
	if (t->log.dirty && t->out) {
		outlog_draw(&t->log, t->out);
		if (getmaxy(t->out) > 0 && t->lines >= 4)
			wnoutrefresh(t->out);
	}
	if (t->help_open && t->help) {
		if (t->pager)
			help_draw_foot(t->help, t->help_title, " PgUp/PgDn/Space scroll, Esc/q closes, typing goes on ",
				       t->help_text ? t->help_text : "", &t->help_scroll);
		else
			help_draw(t->help, " gpustep: keys and commands ", t->help_text ? t->help_text : "",
				  &t->help_scroll);
		wnoutrefresh(t->help);
	}
	/* The prompt last: the terminal cursor ends where readline's point is. */
	draw_prompt(t);
	wnoutrefresh(t->prompt);
	doupdate();
	t->last_frame = now_s();
}

void tui_redraw(struct tui *t)
{
	clearok(curscr, TRUE);
	t->need_layout = true;
}

/* ---- runs -------------------------------------------------------------------- */

static void reset_panels(struct tui *t);

static void default_logging(struct session *ss);

static void run_finished(struct tui *t)
{
	struct session *ss = t->ss;
	if (ss->load_report) { /* a `load session` swapped a new machine in */
		reset_panels(t);
		t->rev_run = false;
		if (ss->loaded_at_start) /* as when --session loaded before the screen */
			default_logging(ss);
		ss->loaded_at_start = false;
	}
	t->running = false;
	t->have_stop_ev = false;
	tui_stop_state(t, ss);
	struct cmd_out o = tui_out(t);
	if (ss->run_error[0]) { /* a reverse-continue that found nothing: nothing moved */
		cmd_errorf(&o, "%s", ss->run_error);
		ss->run_error[0] = 0;
		snprintf(t->state, sizeof t->state, "%s", t->rev_state);
		t->state_role = t->rev_state_role;
	} else {
		cmd_report_stop(ss, &o);
	}
	if (t->rev_run && ss->last_stop != SIM_STOP_BREAK) {
		/* Cancelled or found nothing: back where it began, highlight included. */
		t->stop_ev = t->rev_stop_ev;
		t->have_stop_ev = t->rev_have_stop_ev;
	}
	t->rev_run = false;
	t->dirty_panels = t->dirty_status = t->log.dirty = true;
}

static void run_start(struct tui *t)
{
	t->running = true;
	/* A search and a load leave everything as it was when they end without a
	 * result: keep what to put back. */
	t->rev_run = t->ss->run.kind == RUN_REVERSE || t->ss->run.kind == RUN_LOAD;
	if (t->rev_run) {
		t->rev_stop_ev = t->stop_ev;
		t->rev_have_stop_ev = t->have_stop_ev;
		snprintf(t->rev_state, sizeof t->rev_state, "%s", t->state);
		t->rev_state_role = t->state_role;
		t->rev_ipc = current_ipc(t);
	}
	t->have_stop_ev = false;
	t->run_t0 = t->mark_t = now_s();
	t->run_c0 = t->ss->sim ? sim_cycle(t->ss->sim) : 0;
	t->run_s0 = t->mark_s = t->ss->simulated;
	t->cps = 0;
	if (t->budget == 0)
		t->budget = 1000;
	t->dirty_status = true;
}

/* One slice of the current run, with the budget tuned towards SLICE_SECONDS. */
static void run_slice(struct tui *t)
{
	struct session *ss = t->ss;
	double t0 = now_s();
	uint64_t c0 = ss->sim ? sim_cycle(ss->sim) : 0, s0 = ss->simulated;
	bool more = session_run_slice(ss, t->budget);
	double t1 = now_s(), dt = t1 - t0;
	uint64_t c1 = ss->sim ? sim_cycle(ss->sim) : 0, s1 = ss->simulated;
	/* Tune only on slices that used their budget: short runs say nothing.
	 * Cycles simulated, not moved: a reverse-continue replays backwards. */
	if (more && s1 - s0 >= t->budget / 2) {
		double f = dt > 1e-6 ? SLICE_SECONDS / dt : 4.0;
		if (f > 4.0)
			f = 4.0;
		if (f < 0.25)
			f = 0.25;
		double nb = (double)t->budget * f;
		t->budget = nb < 1 ? 1 : nb > 1e9 ? (uint64_t)1e9 : (uint64_t)nb;
	}
	if (t1 - t->mark_t >= 0.25) {
		t->cps = (double)(s1 - t->mark_s) / (t1 - t->mark_t);
		t->mark_t = t1;
		t->mark_s = s1;
	}
	/* A search in progress is somewhere in the past: panels keep showing
	 * where it started (the status bar shows how far back it is). */
	if (c1 != c0 && !(more && ss->run.kind == RUN_REVERSE))
		t->dirty_panels = true;
	else if (more && ss->run.kind == RUN_REVERSE)
		t->dirty_status = true;
	if (!more)
		run_finished(t);
}

void tui_run_interrupt(struct tui *t)
{
	struct session *ss = t->ss;
	if (!t->running)
		return;
	t->nahead = 0; /* an interrupt takes back control: drop what was typed */
	if (ss->run.kind == RUN_REVERSE || ss->run.kind == RUN_LOAD) {
		/* Cancel the search (the machine goes back to where it began) or
		 * the load (the loaded session is dropped). */
		session_run_interrupt(ss);
		run_finished(t);
		return;
	}
	if (ss->sim)
		sim_interrupt(ss->sim);
	/* Let the session see the interrupt and end the request itself. */
	for (int i = 0; i < 4 && session_run_slice(ss, 1); i++)
		if (ss->sim)
			sim_interrupt(ss->sim);
	session_run_interrupt(ss);
	run_finished(t);
}

void tui_run_to_stop(struct tui *t)
{
	while (t->running)
		run_slice(t);
}

/* ---- commands ------------------------------------------------------------------ */

static void reset_panels(struct tui *t)
{
	for (size_t i = 0; i < ARRAY_LEN(t->panels); i++)
		if (t->panels[i])
			panel_reset(t->panels[i]);
	t->have_stop_ev = false;
	t->ipc_sim = NULL; /* a rebuilt sim may reuse a freed one's address */
	snprintf(t->state, sizeof t->state, "paused");
	t->state_role = R_NORMAL;
}

int tui_exec(struct tui *t, const char *line)
{
	char echo[600];
	snprintf(echo, sizeof echo, "(gpustep) %s", line);
	outlog_add(&t->log, echo, OUT_ECHO);
	struct cmd_out o = tui_out(t);
	unsigned long long before = t->log.added;
	uint64_t simulated = t->ss->simulated;
	int r = cmd_exec(t->ss, line, &o);
	/* Output that does not fit the output area opens in the pager (the
	 * overlay; PgUp/PgDn scroll by a page, typing goes on at the prompt). */
	int k = (int)(t->log.added - before);
	if (k > 0 && !(r & (CMD_RUN | CMD_QUIT)) && !t->help_open && t->out && t->lines >= 4 &&
	    outlog_tail_rows(&t->log, k, getmaxx(t->out)) > getmaxy(t->out) - 1) {
		free(t->help_text);
		t->help_text = outlog_tail(&t->log, k);
		const char *l = line;
		while (*l == ' ' || *l == '\t')
			l++;
		snprintf(t->help_title, sizeof t->help_title, " output of: %.60s ", l);
		t->help_open = t->pager = true;
		t->help_scroll = 0;
		t->need_layout = true;
	}
	if (r & CMD_RESET)
		reset_panels(t);
	/* A command that ran the machine to its stop itself (a lesson's
	 * `answer` runs its step's commands): the status bar and the stop's
	 * highlight follow that stop, as after a run of the loop. */
	if (!(r & CMD_RUN) && t->ss->simulated != simulated) {
		t->have_stop_ev = false;
		tui_stop_state(t, t->ss);
	}
	if (r & CMD_QUIT || t->ss->quit)
		t->quit = true;
	if (r & CMD_RUN)
		run_start(t);
	t->dirty_panels = t->dirty_status = t->log.dirty = true;
	return r;
}

static void on_line(void *u, char *line)
{
	struct tui *t = u;
	if (!line) { /* Ctrl-D on an empty line */
		tui_exec(t, "quit");
		return;
	}
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p) {
		/* gdb: an empty line repeats the last repeatable command (cmd_exec keeps it). */
		if (t->ss->last_line[0])
			tui_exec(t, t->ss->last_line);
	} else {
		tui_exec(t, line);
	}
	free(line);
}

static size_t layout_panels_cb(void *u, const char **out, size_t max) { return tui_layout_panels(u, out, max); }

static void on_show(void *u, const char *text) { outlog_add(&((struct tui *)u)->log, text, OUT_TEXT); }

/* Run a panel's request (one command per line) through the command table. */
void tui_panel_request(struct tui *t, struct panel *p)
{
	char buf[sizeof p->request];
	snprintf(buf, sizeof buf, "%s", p->request);
	p->request[0] = 0;
	struct cmd_out o = tui_out(t);
	for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		cmd_exec(t->ss, l, &o);
	t->dirty_panels = t->dirty_status = true;
}

/* ---- life cycle ------------------------------------------------------------------------- */

struct tui *tui_new(struct session *ss, bool colours, bool utf8)
{
	struct tui *t = xcalloc(1, sizeof *t);
	t->ss = ss;
	t->layout = layout_at(0);
	t->focus = -1;
	snprintf(t->focus_name, sizeof t->focus_name, "cmd");
	t->utf8 = utf8;
	t->colours = draw_init(colours, utf8);
	t->budget = 1000;
	outlog_init(&t->log);
	snprintf(t->state, sizeof t->state, "paused");
	tui_end_state(t, ss);
	ss->ui = t;
	ss->extra_cmds = tui_cmds;
	ss->nextra_cmds = tui_ncmds;
	t->need_layout = true;
	return t;
}

void tui_free(struct tui *t)
{
	if (!t)
		return;
	del_windows(t);
	for (size_t i = 0; i < ARRAY_LEN(t->panels); i++)
		panel_free(t->panels[i]);
	outlog_fini(&t->log);
	free(t->help_text);
	free(t->ahead);
	if (t->ss->ui == t) {
		t->ss->ui = NULL;
		t->ss->extra_cmds = NULL;
		t->ss->nextra_cmds = 0;
	}
	free(t);
}

static void discard(void *u, const char *text)
{
	(void)u;
	(void)text;
}

/* The event panel is part of the picture: log every kind unless the user
 * chose a filter already (logging costs little, and never changes stats).
 * At start, and for the session `gpustep --session` loads on screen. */
static void default_logging(struct session *ss)
{
	bool logging = false;
	for (int i = 0; i < EV_MASK_WORDS; i++)
		logging |= ss->log_mask[i] != 0;
	if (!logging) {
		struct cmd_out quiet = {.print = discard, .error = discard};
		cmd_exec(ss, "log all -reuse.*", &quiet); /* reuse.* triples every access: opt in with log +reuse.* */
	}
}

static void on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
	if (sigint_sim)
		sim_interrupt(sigint_sim);
}

int tui_main(struct session *ss)
{
	setlocale(LC_ALL, "");
	const char *cs = nl_langinfo(CODESET);
	bool utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
	const char *nc = getenv("NO_COLOR");
	bool colours = !(nc && *nc);
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		fprintf(stderr, "gpustep: cannot start the terminal UI (TERM=%s); try --batch or --run\n",
			getenv("TERM") ? getenv("TERM") : "");
		return 1;
	}
	raw();
	noecho();
	nonl();
	set_escdelay(25);
	curs_set(1);

	struct tui *t = tui_new(ss, colours, utf8);
	t->interactive = true;
	const char *lay_names[16] = {0}, *pan_names[24] = {0};
	for (size_t i = 0; i < layout_count() && i + 1 < ARRAY_LEN(lay_names); i++)
		lay_names[i] = layout_at(i)->name;
	for (size_t i = 0; i < panel_kind_count() && i + 1 < ARRAY_LEN(pan_names); i++)
		pan_names[i] = panel_kind_at(i)->name;
	struct rlw_hooks hooks = {.line = on_line,
				  .show = on_show,
				  .u = t,
				  .ss = ss,
				  .layouts = lay_names,
				  .panels = pan_names,
				  .layout_panels = layout_panels_cb};
	rlw_init("(gpustep) ", &hooks);

	struct sigaction sa, old_sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_sa);

	default_logging(ss);
	outlog_add(&t->log, "gpustep " GPUSTEP_VERSION ": F10 step, F5 continue, F1 keys, `help` commands, `quit` leaves",
		OUT_TEXT);
	tui_apply_layout(t);
	struct cmd_out uo = tui_out(t);
	session_apply_ui(ss, &uo); /* the layout of a --session file */
	if (ss->run.kind == RUN_LOAD) { /* gpustep --session: replayed on screen, Ctrl-C stops it */
		run_start(t);
		run_slice(t); /* a session with its machine state is there already: no progress to show */
	}
	tui_frame(t);
	while (!t->quit) {
		sigint_sim = ss->sim;
		if (got_sigint) {
			got_sigint = 0;
			if (t->running)
				tui_run_interrupt(t);
			else
				rlw_clear_line();
		}
		if (t->running) {
			run_slice(t);
			tui_poll_keys(t, 0);
			if (now_s() - t->last_frame >= FRAME_SECONDS || !t->running) {
				t->dirty_status = true;
				tui_frame(t);
			}
		} else {
			if (t->dirty_panels || t->dirty_status || t->log.dirty || t->need_layout || rlw_dirty() ||
			    LINES != t->lines || COLS != t->cols)
				tui_frame(t);
			tui_poll_keys(t, 250);
		}
	}
	sigint_sim = NULL;
	sigaction(SIGINT, &old_sa, NULL);
	rlw_fini();
	tui_free(t);
	endwin();
	delscreen(scr);
	return 0;
}
