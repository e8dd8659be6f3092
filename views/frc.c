/*
 * frc.c: the FRC panel: the Fetch and Replacement Cache of the selected L2
 * bank, one row per entry in set-major order.
 *
 *   FRC bank 0  32 entries (4 sets x 8 ways)  busy 3   allocs 120  fallbacks 4  share 96.8%
 *   ENTRY STATE     INCOMING     VICTIM       AGE WAIT  L2 SET.WAY
 *   0.0   fetching  0x10002300   -             41    2  5.-
 *   0.1   evicting  0x10004100   0x10000100     1    0  3.2
 *
 * Fetching entries are drawn as misses (red: a fetch is out), swapping and
 * evicting as stalls (yellow: the entry is busy with a victim), free entries
 * dim. Up/Down scroll; `select l2 N` picks the bank.
 */
#include <stdio.h>
#include <stdlib.h>

#include "draw.h"
#include "frc.h"
#include "inspect.h"
#include "table.h"
#include "util.h"
#include "view.h"

struct frc_panel {
	struct panel base;
	struct table t;
	const struct sim *sim;
	int bank, ways;
};

static const struct table_col cols[] = {
	{"ENTRY", 7, 0, false},   {"STATE", 9, 0, false}, {"INCOMING", 12, 0, false}, {"VICTIM", 12, 0, false},
	{"AGE", 6, 0, true},      {"WAIT", 4, 0, true},   {"L2 SET.WAY", 10, 0, false},
};

static void entry_row(void *u, int row, struct table_row *r)
{
	struct frc_panel *fp = u;
	struct frc_entry_info e;
	snprintf(r->text[0], TABLE_CELL, "%d.%d", row / fp->ways, row % fp->ways);
	if (!inspect_frc_entry(fp->sim, fp->bank, row, &e))
		return;
	snprintf(r->text[1], TABLE_CELL, "%s", frc_state_name((unsigned)e.state));
	if (e.state == FRC_FREE) {
		r->row_attr = role_attr(R_DIM);
		return;
	}
	snprintf(r->text[2], TABLE_CELL, "0x%llx", (unsigned long long)e.incoming);
	if (e.victim)
		snprintf(r->text[3], TABLE_CELL, "0x%llx", (unsigned long long)e.victim);
	else
		snprintf(r->text[3], TABLE_CELL, "-");
	snprintf(r->text[4], TABLE_CELL, "%llu", (unsigned long long)e.age);
	snprintf(r->text[5], TABLE_CELL, "%d", e.waiters);
	if (e.l2_way >= 0)
		snprintf(r->text[6], TABLE_CELL, "%d.%d", e.l2_set, e.l2_way);
	else
		snprintf(r->text[6], TABLE_CELL, "%d.-", e.l2_set);
	r->attr[1] = role_attr(e.state == FRC_FETCHING ? R_MISS : R_STALL);
}

static void frc_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct frc_panel *fp = (struct frc_panel *)p;
	struct frc_info fi;
	char info[160] = "";
	bool on = c->sim && inspect_frc(c->sim, c->sel_l2, &fi);
	if (on)
		snprintf(info, sizeof info, "bank %d  %d entries (%d sets x %d ways)  busy %d  allocs %llu  fallbacks %llu  share %.1f%%",
			 c->sel_l2, fi.entries, fi.sets, fi.ways, fi.busy, (unsigned long long)fi.allocs,
			 (unsigned long long)fi.fallbacks,
			 fi.l2_misses ? 100.0 * (double)fi.allocs / (double)fi.l2_misses : 0.0);
	struct rect r = view_frame(p, w, c, info);
	if (!c->sim) {
		put_text(w, r.y, r.x, r.w, "no simulator", role_attr(R_DIM), false);
		return;
	}
	if (!on) {
		put_wrapped(w, r.y, r.x, r.w, r.h,
			    "no FRC in this machine: set l2.frc.entries (e.g. `set l2.frc.entries 32` at cycle 0)",
			    role_attr(R_DIM));
		return;
	}
	fp->sim = c->sim;
	fp->bank = c->sel_l2;
	fp->ways = fi.ways;
	table_draw(&fp->t, w, r, fi.entries, false, entry_row, fp);
	fp->sim = NULL;
}

static int frc_key(struct panel *p, int key, const struct view_ctx *c)
{
	(void)c;
	return table_key(&((struct frc_panel *)p)->t, key);
}

static void frc_reset(struct panel *p) { table_reset(&((struct frc_panel *)p)->t); }
static void frc_free(struct panel *p) { free(p); }

static const struct panel_ops frc_ops = {
	.name = "frc",
	.desc = "Fetch and Replacement Cache entries of the selected L2 bank",
	.min_w = 30,
	.min_h = 3,
	.draw = frc_draw,
	.key = frc_key,
	.reset = frc_reset,
	.free = frc_free,
};

struct panel *frc_panel_new(void)
{
	struct frc_panel *fp = xcalloc(1, sizeof *fp);
	fp->base.ops = &frc_ops;
	table_init(&fp->t, cols, (int)ARRAY_LEN(cols), true);
	return &fp->base;
}
