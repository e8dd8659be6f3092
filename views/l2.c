/*
 * l2.c: the L2 panel: one row per bank.
 *
 *   BANK LINES      TRANS MSHR   Q   ACCESSES  HIT%  MISSES  NACKS
 *      0 812/1024       2  3/16  1      10234  81.2    1921      4
 *
 * The selected bank (`select l2 N`) is shown reverse; Up/Down select another
 * bank by running `select l2 N`.
 */
#include <stdio.h>
#include <stdlib.h>

#include "draw.h"
#include "debug/inspect.h"
#include "table.h"
#include "sim/util.h"
#include "view.h"

struct l2_panel {
	struct panel base;
	struct table t;
	const struct sim *sim;
	int sel;
};

static const struct table_col cols[] = {
	{"BANK", 4, 0, true},  {"LINES", 11, 0, false}, {"TRANS", 5, 0, true}, {"MSHR", 7, 0, true},
	{"Q", 3, 0, true},     {"ACCESS", 8, 0, true},  {"HIT%", 5, 0, true},  {"MISSES", 7, 0, true},
	{"NACKS", 6, 0, true},
};

static void bank_row(void *u, int row, struct table_row *r)
{
	struct l2_panel *lp = u;
	struct l2_bank_info b;
	snprintf(r->text[0], TABLE_CELL, "%d", row);
	if (row == lp->sel)
		r->row_attr = role_attr(R_SELECT);
	if (!inspect_l2_bank(lp->sim, row, &b))
		return;
	snprintf(r->text[1], TABLE_CELL, "%d/%d", b.valid_lines, b.total_lines);
	snprintf(r->text[2], TABLE_CELL, "%d", b.transient_lines);
	snprintf(r->text[3], TABLE_CELL, "%d/%d", b.mshr_used, b.mshr_entries);
	snprintf(r->text[4], TABLE_CELL, "%d", b.queue);
	snprintf(r->text[5], TABLE_CELL, "%llu", (unsigned long long)b.accesses);
	if (b.accesses)
		snprintf(r->text[6], TABLE_CELL, "%.1f", 100.0 * (double)b.hits / (double)b.accesses);
	else
		snprintf(r->text[6], TABLE_CELL, "-");
	snprintf(r->text[7], TABLE_CELL, "%llu", (unsigned long long)b.misses);
	snprintf(r->text[8], TABLE_CELL, "%llu", (unsigned long long)b.nacks);
	r->attr[6] = role_attr(R_HIT);
	r->attr[7] = role_attr(R_MISS);
	if (b.nacks)
		r->attr[8] = role_attr(R_STALL);
	if (b.transient_lines)
		r->attr[2] = role_attr(R_STALL);
	if (b.mshr_entries && b.mshr_used >= b.mshr_entries)
		r->attr[3] = role_attr(R_STALL);
}

static void l2_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct l2_panel *lp = (struct l2_panel *)p;
	char info[64] = "";
	int n = c->sim ? inspect_l2_banks(c->sim) : 0;
	if (c->sim)
		snprintf(info, sizeof info, "%d banks  selected %d", n, c->sel_l2);
	struct rect r = view_frame(p, w, c, info);
	if (!c->sim) {
		put_text(w, r.y, r.x, r.w, "no simulator", role_attr(R_DIM), false);
		return;
	}
	lp->sim = c->sim;
	lp->sel = c->sel_l2;
	if (lp->sel != lp->t.sel && lp->sel < n)
		table_show(&lp->t, lp->sel);
	table_draw(&lp->t, w, r, n, false, bank_row, lp);
	lp->sim = NULL;
}

static int l2_key(struct panel *p, int key, const struct view_ctx *c)
{
	struct l2_panel *lp = (struct l2_panel *)p;
	int old = lp->t.sel;
	int res = table_key(&lp->t, key);
	if ((res & VK_HANDLED) && lp->t.sel != old && c->sim) {
		snprintf(p->request, sizeof p->request, "select l2 %d", lp->t.sel);
		res |= VK_COMMAND;
	}
	return res;
}

static void l2_reset(struct panel *p) { table_reset(&((struct l2_panel *)p)->t); }
static void l2_free(struct panel *p) { free(p); }

static const struct panel_ops l2_ops = {
	.name = "l2",
	.desc = "every L2 bank",
	.min_w = 30,
	.min_h = 3,
	.draw = l2_draw,
	.key = l2_key,
	.reset = l2_reset,
	.free = l2_free,
};

struct panel *l2_panel_new(void)
{
	struct l2_panel *lp = xcalloc(1, sizeof *lp);
	lp->base.ops = &l2_ops;
	table_init(&lp->t, cols, (int)ARRAY_LEN(cols), true);
	return &lp->base;
}
