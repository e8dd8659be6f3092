/*
 * warps.c: the warp panel: one row per warp slot of the selected SM.
 *
 * The selected warp (`select warp W`, used by `next`) is reverse; Up/Down
 * select another through `select warp W`.
 *
 *    W   CTA STATE      OUT ORD NEXT            INSTS
 *   >3   1.3 ready        2   0 #2 ld A[tid]      120   <- issued this cycle (bold, '>')
 *    4   1.4 scoreboard   1   - #4 alu 4          118   <- stalled: the reason, in yellow
 *
 * NEXT starts with the statement's number (#N), the stmt= of warp.issue
 * events and breakpoints.
 *
 * CTA is "cta.warp-in-cta"; STATE is ready, done, empty or why the warp is
 * stalled; OUT the memory requests in flight; ORD the position in the
 * scheduler's order (0 = looked at first). Columns are ordered so that at 80
 * columns (overview) the next instruction still shows.
 *
 * With core.schedulers > 1 the title says how many and a SCH column after W
 * names each warp's scheduler (slot mod schedulers); ORD is then the
 * position in that scheduler's own order.
 *
 * Under core.scheduler = vws the title shows N_act, a line above the table
 * the IWL estimator (stage, completions / N_pred, WS, RRDegr) and level 1
 * (warps / capacity), and four columns follow W:
 *
 *    W   L   WS RRDEG WHY   CTA STATE ...
 *    0   1    3  2.67 same  0.0 ready
 *    4   2    1  1.00 -     2.0 inactive
 *
 * L is the level (1; 2 = in IWL's window but not level 1; x = outside the
 * window, throttled); WS and RRDEG the warp's own estimator values so far
 * (AMT-filtered misses, accesses / misses); WHY why it entered level 1
 * (same CTA, pred = predecessor CTA, succ = successor CTA, old = oldest;
 * InterCL only). Warps outside the active set are `inactive`.
 *
 * Under core.scheduler = ccws the title shows the cutoff (live warps x base
 * score) and how many warps have their loads held back; three columns
 * follow W: the warp's lost-locality score, its lost-locality hits (loads
 * that missed on a line in its own victim tag array) and LD `held` when the
 * cutoff keeps its loads from issuing (such a warp at a load is `inactive`):
 *
 *    W   LLS LOST LD   CTA STATE ...
 *    0   266    1      0.0 scoreboard
 *    3   100    0 held 0.3 inactive
 *
 * (With several schedulers per SM the CCWS columns take the SCH column's
 * place.)
 *
 * Under core.scheduler = tbas the title shows the running batch, a line
 * above the table the running set (warps / core.tbas_running), the swap
 * threshold and the resident batches as id:active/live (the running one in
 * brackets), and two columns follow W: the warp's thread batch and its place
 * in TBAS (run = in the running set; act = active, may be promoted with its
 * batch; load = waits for a load; bar = at a barrier):
 *
 *    W BAT SET   CTA STATE ...
 *    0   0 run   0.0 ready
 *    4   1 act   2.0 inactive
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "debug/inspect.h"
#include "table.h"
#include "sim/util.h"
#include "view.h"

struct warps_panel {
	struct panel base; /* first: the panel ops see this */
	struct table t;
	const struct sim *sim; /* valid during a draw only */
	int sm, sel;
	bool vws; /* core.scheduler = vws: the VWS columns */
	bool multi; /* core.schedulers > 1: the SCH column */
	bool ccws; /* core.scheduler = ccws: the CCWS columns */
	bool tbas; /* core.scheduler = tbas: the TBAS columns */
};

static const struct table_col cols[] = {
	{"W", 3, 0, true},  {"CTA", 5, 0, true}, {"STATE", 10, 0, false}, {"OUT", 3, 0, true},
	{"ORD", 3, 0, true}, {"NEXT", 6, 1, false}, {"INSTS", 7, 0, true},
};

/* Under VWS: W, then level, WS, RRDegr, promotion reason, then the rest. */
static const struct table_col vcols[] = {
	{"W", 3, 0, true},  {"L", 1, 0, true},   {"WS", 4, 0, true},     {"RRDEG", 5, 0, true},
	{"WHY", 4, 0, false}, {"CTA", 5, 0, true}, {"STATE", 10, 0, false}, {"OUT", 3, 0, true},
	{"ORD", 3, 0, true}, {"NEXT", 6, 1, false}, {"INSTS", 7, 0, true},
};
#define VCOLS 4 /* extra columns under VWS, after W */

/* With several schedulers per SM: W, the warp's scheduler, then the rest
 * (ORD is the position in its own scheduler's order). */
static const struct table_col scols[] = {
	{"W", 3, 0, true},   {"SCH", 3, 0, true},    {"CTA", 5, 0, true}, {"STATE", 10, 0, false},
	{"OUT", 3, 0, true}, {"ORD", 3, 0, true},    {"NEXT", 6, 1, false}, {"INSTS", 7, 0, true},
};
/* Under CCWS: W, then the lost-locality score, hits, held loads, then the rest. */
static const struct table_col ccols[] = {
	{"W", 3, 0, true},    {"LLS", 5, 0, true},     {"LOST", 4, 0, true}, {"LD", 4, 0, false},
	{"CTA", 5, 0, true},  {"STATE", 10, 0, false}, {"OUT", 3, 0, true},  {"ORD", 3, 0, true},
	{"NEXT", 6, 1, false}, {"INSTS", 7, 0, true},
};
#define CCOLS 3 /* extra columns under CCWS, after W */
/* Under TBAS: W, then the thread batch and the warp's place in TBAS, then the rest. */
static const struct table_col tcols[] = {
	{"W", 3, 0, true},    {"BAT", 3, 0, true},     {"SET", 4, 0, false}, {"CTA", 5, 0, true},
	{"STATE", 10, 0, false}, {"OUT", 3, 0, true},  {"ORD", 3, 0, true},  {"NEXT", 6, 1, false},
	{"INSTS", 7, 0, true},
};
#define TCOLS 2 /* extra columns under TBAS, after W */

static const char *const tbas_role_name[] = {"", "run", "act", "load", "bar"};

static const char *state_name(enum warp_state s)
{
	switch (s) {
	case WS_EMPTY:
		return "empty";
	case WS_READY:
		return "ready";
	case WS_STALLED:
		return "stalled";
	case WS_DONE:
		return "done";
	}
	return "?";
}

static void warp_row(void *u, int row, struct table_row *r)
{
	struct warps_panel *wp = u;
	struct warp_info wi;
	int o = wp->vws ? VCOLS : wp->ccws ? CCOLS : wp->tbas ? TCOLS : wp->multi ? 1 : 0; /* column offset of CTA.. */
	if (!inspect_warp(wp->sim, wp->sm, row, &wi)) {
		snprintf(r->text[0], TABLE_CELL, "%d", row);
		return;
	}
	snprintf(r->text[0], TABLE_CELL, "%s%d", wi.issued_now ? ">" : "", wi.slot);
	if (row == wp->sel)
		r->row_attr |= role_attr(R_SELECT);
	if (wi.state == WS_EMPTY) {
		snprintf(r->text[o + 2], TABLE_CELL, "empty");
		r->row_attr |= role_attr(R_DIM);
		return;
	}
	if (wp->multi)
		snprintf(r->text[1], TABLE_CELL, "%d", wi.sched);
	struct vws_warp_info vw;
	if (wp->vws && inspect_vws_warp(wp->sim, wp->sm, row, &vw) && vw.level) {
		snprintf(r->text[1], TABLE_CELL, "%s", vw.level == 1 ? "1" : vw.level == 2 ? "2" : "x");
		if (vw.level == 1)
			r->attr[1] = role_attr(R_HEADER);
		snprintf(r->text[2], TABLE_CELL, "%d", vw.miss);
		snprintf(r->text[3], TABLE_CELL, "%u.%02u", vw.rr_x256 / 256, (vw.rr_x256 % 256) * 100 / 256);
		snprintf(r->text[4], TABLE_CELL, "%s", vw.why);
	}
	struct ccws_warp_info cw;
	if (wp->ccws && inspect_ccws_warp(wp->sim, wp->sm, row, &cw) && cw.live) {
		snprintf(r->text[1], TABLE_CELL, "%d", cw.lls);
		snprintf(r->text[2], TABLE_CELL, "%u", cw.hits);
		if (cw.throttled) {
			snprintf(r->text[3], TABLE_CELL, "held");
			r->attr[3] = role_attr(R_STALL);
		}
	}
	struct tbas_warp_info tw;
	if (wp->tbas && inspect_tbas_warp(wp->sim, wp->sm, row, &tw) && tw.batch >= 0) {
		snprintf(r->text[1], TABLE_CELL, "%d", (int)tw.batch);
		snprintf(r->text[2], TABLE_CELL, "%s", tbas_role_name[tw.role]);
		if (tw.role == TBW_RUN)
			r->attr[2] = role_attr(R_HEADER);
	}
	snprintf(r->text[o + 1], TABLE_CELL, "%d.%d", wi.cta, wi.warp_in_cta);
	if (wi.state == WS_STALLED) {
		snprintf(r->text[o + 2], TABLE_CELL, "%s", stall_reason_name(wi.stall));
		r->attr[o + 2] = role_attr(R_STALL);
	} else {
		snprintf(r->text[o + 2], TABLE_CELL, "%s", state_name(wi.state));
	}
	snprintf(r->text[o + 3], TABLE_CELL, "%d", wi.outstanding);
	if (wi.order >= 0)
		snprintf(r->text[o + 4], TABLE_CELL, "%d", wi.order);
	else
		snprintf(r->text[o + 4], TABLE_CELL, "-");
	/* a statement, or "exit" (it issues as well), after its number "#N", the
	 * stmt= of warp.issue and `break warp.issue ... stmt=N` */
	if (wi.next_text && wi.next_stmt >= 0)
		snprintf(r->text[o + 5], TABLE_CELL, "#%d %s", wi.next_stmt, wi.next_text);
	else if (wi.next_text)
		snprintf(r->text[o + 5], TABLE_CELL, "%s", wi.next_text);
	snprintf(r->text[o + 6], TABLE_CELL, "%llu", (unsigned long long)wi.insts);
	if (wi.state == WS_DONE)
		r->row_attr |= role_attr(R_DIM);
	if (wi.issued_now)
		r->row_attr |= role_attr(R_HEADER);
}

static void warps_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct warps_panel *wp = (struct warps_panel *)p;
	char info[128] = "";
	int nrows = 0;
	struct vws_info v;
	struct ccws_info cc;
	struct tbas_info tb;
	wp->vws = false;
	wp->multi = false;
	wp->ccws = false;
	wp->tbas = false;
	if (c->sim) {
		int ctas = 0, warps = 0;
		uint64_t insts = 0;
		int nsm = inspect_sms(c->sim);
		wp->sm = c->sel_sm < nsm ? c->sel_sm : 0;
		inspect_sm_summary(c->sim, wp->sm, &ctas, &warps, &insts);
		wp->vws = inspect_vws(c->sim, wp->sm, &v);
		int k = snprintf(info, sizeof info, "sm %d/%d  %d ctas  %d warps  %llu insts", wp->sm, nsm, ctas, warps,
				 (unsigned long long)insts);
		if (wp->vws && k > 0 && (size_t)k < sizeof info)
			snprintf(info + k, sizeof info - (size_t)k, "  vws N_act %d", v.nact);
		int ns = inspect_schedulers(c->sim);
		wp->ccws = inspect_ccws(c->sim, wp->sm, &cc);
		wp->multi = ns > 1 && !wp->ccws; /* the CCWS columns take SCH's place */
		if (wp->multi && k > 0 && (size_t)k < sizeof info)
			snprintf(info + k, sizeof info - (size_t)k, "  %d schedulers", ns);
		if (wp->ccws && k > 0 && (size_t)k < sizeof info)
			snprintf(info + k, sizeof info - (size_t)k, "  ccws cutoff %d, %d held", cc.cutoff, cc.throttled);
		wp->tbas = inspect_tbas(c->sim, wp->sm, &tb);
		wp->multi &= !wp->tbas; /* as are the TBAS ones */
		k = (int)strlen(info);
		if (wp->tbas && (size_t)k < sizeof info) {
			if (tb.running >= 0)
				snprintf(info + k, sizeof info - (size_t)k, "  tbas batch %d", (int)tb.running);
			else
				snprintf(info + k, sizeof info - (size_t)k, "  tbas no batch");
		}
		nrows = inspect_warp_slots(c->sim);
	}
	wp->t.cols = wp->vws ? vcols : wp->ccws ? ccols : wp->tbas ? tcols : wp->multi ? scols : cols;
	wp->t.ncols = wp->vws	? (int)ARRAY_LEN(vcols)
		      : wp->ccws ? (int)ARRAY_LEN(ccols)
		      : wp->tbas ? (int)ARRAY_LEN(tcols)
		      : wp->multi ? (int)ARRAY_LEN(scols)
				  : (int)ARRAY_LEN(cols);
	struct rect r = view_frame(p, w, c, info);
	if (!c->sim) {
		put_text(w, r.y, r.x, r.w, "no simulator", role_attr(R_DIM), false);
		return;
	}
	if (wp->vws && r.h > 2) {
		/* VWS: the estimator and level 1 on one line above the table. */
		put_fmt(w, r.y, r.x, r.w, role_attr(R_HEADER),
			"vws %s %u/%d  WS %u.%02u  RRDegr %u.%02u  %s %d/%d warps", v.post ? "post-sampling" : "sampling",
			v.finished, v.npred, v.ws_x256 / 256, (v.ws_x256 % 256) * 100 / 256, v.rr_x256 / 256,
			(v.rr_x256 % 256) * 100 / 256, v.intercl ? "level 1" : "window", v.level1, v.level1_cap);
		r.y++;
		r.h--;
	}
	if (wp->tbas && r.h > 2) {
		/* TBAS: the running set and the resident batches on one line. */
		char line[256];
		int k = snprintf(line, sizeof line, "tbas running set %d/%d warps  swap below %d active  batches", tb.in_set,
				 tb.cap, tb.threshold);
		for (int i = 0; i < tb.nbatches && i < TBAS_INFO_BATCHES && k > 0 && (size_t)k < sizeof line; i++) {
			bool run = tb.batch[i].id == tb.running;
			k += snprintf(line + k, sizeof line - (size_t)k, " %s%d:%d/%d%s", run ? "[" : "", (int)tb.batch[i].id,
				      tb.batch[i].active, tb.batch[i].live, run ? "]" : "");
		}
		if (tb.nbatches > TBAS_INFO_BATCHES && k > 0 && (size_t)k < sizeof line)
			k += snprintf(line + k, sizeof line - (size_t)k, " +%d", tb.nbatches - TBAS_INFO_BATCHES);
		if (k > 0 && (size_t)k < sizeof line)
			snprintf(line + k, sizeof line - (size_t)k, "  stride %d, %s first", tb.stride,
				 tb.successor ? "successor" : "oldest");
		put_text(w, r.y, r.x, r.w, line, role_attr(R_HEADER), false);
		r.y++;
		r.h--;
	}
	wp->sim = c->sim;
	wp->sel = c->sel_warp;
	if (wp->t.sel != wp->sel && wp->sel < nrows)
		table_show(&wp->t, wp->sel);
	table_draw(&wp->t, w, r, nrows, false, warp_row, wp);
	wp->sim = NULL;
}

static int warps_key(struct panel *p, int key, const struct view_ctx *c)
{
	struct warps_panel *wp = (struct warps_panel *)p;
	int old = wp->t.sel;
	int res = table_key(&wp->t, key);
	if ((res & VK_HANDLED) && wp->t.sel != old && c->sim) {
		snprintf(p->request, sizeof p->request, "select warp %d", wp->t.sel);
		res |= VK_COMMAND;
	}
	return res;
}

static void warps_reset(struct panel *p) { table_reset(&((struct warps_panel *)p)->t); }

static void warps_free(struct panel *p) { free(p); }

static const struct panel_ops warps_ops = {
	.name = "warps",
	.desc = "warps of the selected SM",
	.min_w = 30,
	.min_h = 3,
	.draw = warps_draw,
	.key = warps_key,
	.reset = warps_reset,
	.free = warps_free,
};

struct panel *warps_panel_new(void)
{
	struct warps_panel *wp = xcalloc(1, sizeof *wp);
	wp->base.ops = &warps_ops;
	table_init(&wp->t, cols, (int)ARRAY_LEN(cols), true);
	return &wp->base;
}
