/*
 * frc.c: the FRC panel: the Fetch and Replacement Cache of the selected L2
 * bank, under a counters line (wrapped onto a second row when narrow), in
 * one of two modes; Left/Right switch between them. The counters are the
 * bank's (l2.bankN.frc.*; misses handled = l2.bankN.frc.share, allocs over
 * the bank's L2 misses), with the machine-wide frc.share as "all banks".
 *
 * list: one row per entry in set-major order; INV = invalidation acks still
 * due for the victim (coherence), WB = its dirty write-back not yet handed
 * to memory.
 *
 *   ─ frc  bank 1  16 entries (2 sets x 8 ways)  busy 1  list ───────
 *   misses handled 100.0% (74 allocs / 74 bank misses; all banks 100.0%)  swaps 74
 *   hits while fetching 0  fallbacks 0  evictions 16
 *   ENTRY STATE     INCOMING     VICTIM          AGE WAIT INV WB  L2 SET.WAY
 *   1.0   free
 *   1.1   evicting  0x10001500   0x10004500        1    0   1 yes 4.2
 *
 * grid: the sets x ways grid, one cell per entry: state letter, block number
 * (address / L2 line, hex; the victim's once evicting), a flag (i acks due,
 * w write-back pending, + requests waiting); as many whole sets per row as
 * fit, or one set over several rows (label set.way) when its ways do not.
 * The tag is as wide as a 32-bit address's block number when the whole FRC
 * then fits, else narrower down to 4 digits (a cut tag starts with the
 * truncation marker), else cells are letter and flag only; what still does
 * not fit scrolls.
 *
 *   SET  0        1        2        3        4   ...
 *     0 E200104w .        .        F20014d+ .
 *     1 F20014c+ E200105w F20004d+ E200109w .
 *
 * Fetching entries are drawn as misses (red: a fetch is out), swapping and
 * evicting as stalls (yellow: the entry is busy with a victim), free entries
 * dim. Up/Down/PgUp/PgDn/Home/End scroll; `select l2 N` picks the bank.
 */
#include <stdio.h>
#include <stdlib.h>

#include "draw.h"
#include "mem/frc.h"
#include "debug/inspect.h"
#include "table.h"
#include "sim/util.h"
#include "view.h"

struct frc_panel {
	struct panel base;
	struct table t;
	const struct sim *sim;
	int bank, ways;
	bool grid;    /* sets x ways grid instead of the list */
	int gtop;     /* grid: first row shown */
	int gvisible; /* grid: rows shown at the last draw */
};

static const struct table_col cols[] = {
	{"ENTRY", 5, 0, false}, {"STATE", 9, 0, false}, {"INCOMING", 12, 0, false}, {"VICTIM", 12, 0, false},
	{"AGE", 6, 0, true},    {"WAIT", 4, 0, true},   {"INV", 3, 0, true},         {"WB", 3, 0, false},
	{"L2 SET.WAY", 10, 0, false},
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
	if (e.pending_inv > 0)
		snprintf(r->text[6], TABLE_CELL, "%d", e.pending_inv);
	else
		snprintf(r->text[6], TABLE_CELL, "-");
	snprintf(r->text[7], TABLE_CELL, "%s", e.wb_pending ? "yes" : "-");
	if (e.l2_way >= 0)
		snprintf(r->text[8], TABLE_CELL, "%d.%d", e.l2_set, e.l2_way);
	else
		snprintf(r->text[8], TABLE_CELL, "%d.-", e.l2_set);
	r->attr[1] = role_attr(e.state == FRC_FETCHING ? R_MISS : R_STALL);
	if (e.pending_inv > 0)
		r->attr[6] = role_attr(R_STALL);
	if (e.wb_pending)
		r->attr[7] = role_attr(R_STALL);
}

static int hex_digits(uint64_t v)
{
	int n = 1;
	while (v >>= 4)
		n++;
	return n;
}

static int dec_digits(int v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Grid geometry for tag width tw (0: no tag, cells of state letter and flag
 * without a gap) in content width `width`. */
struct grid_geom {
	int tw;   /* hex digits of the block number; 0 = no tags */
	int cw;   /* one cell with its gap: letter, tag, flag, space */
	int lw;   /* row label column */
	int spr;  /* whole sets per row (>= 1), or 0 when a set spans rows */
	int cpr;  /* cells per row when a set spans rows */
	int rps;  /* rows per set when a set spans rows */
	int rows; /* rows the whole FRC needs */
};

static struct grid_geom grid_geom(int tw, int width, int sets, int ways)
{
	struct grid_geom g = {.tw = tw, .cw = tw ? tw + 3 : 2};
	int setd = dec_digits(sets - 1), wayd = dec_digits(ways - 1);
	/* label "SET " / "12  ": the set number; a set over several rows: "12.40 " */
	g.lw = (setd > 3 ? setd : 3) + 1;
	int set_w = ways * g.cw + 1; /* an extra space between sets */
	if (width - g.lw >= ways * g.cw) {
		g.spr = (width - g.lw + 1) / set_w;
		if (g.spr < 1)
			g.spr = 1;
		g.rows = (sets + g.spr - 1) / g.spr;
		return g;
	}
	g.lw = setd + 1 + wayd + 1;
	if (g.lw < 4)
		g.lw = 4;
	g.cpr = (width - g.lw) / g.cw;
	if (g.cpr < 1)
		g.cpr = 1;
	g.rps = (ways + g.cpr - 1) / g.cpr;
	g.rows = sets * g.rps;
	return g;
}

/* The widest cells with which the whole FRC fits in `avail` rows, whole sets
 * per row before sets split over rows; tags (at least 4 digits) before none;
 * when nothing fits, the narrowest, scrolled. */
static struct grid_geom grid_choose(int tw_full, int width, int avail, int sets, int ways)
{
	for (int pass = 0; pass < 2; pass++)
		for (int tw = tw_full; tw >= 3; tw--) {
			struct grid_geom g = grid_geom(tw == 3 ? 0 : tw, width, sets, ways);
			if (g.rows <= avail && (pass || g.spr))
				return g;
		}
	return grid_geom(0, width, sets, ways);
}

static char state_letter(int st)
{
	switch (st) {
	case FRC_FETCHING: return 'F';
	case FRC_SWAPPING: return 'S';
	case FRC_EVICTING: return 'E';
	default: return '.';
	}
}

/* One cell at (y, x): state letter, the block (incoming; the victim once
 * evicting), a flag: i invalidation acks due, w write-back pending, + waiters. */
static void grid_cell(WINDOW *w, int y, int x, const struct frc_panel *fp, int i, const struct grid_geom *g,
		      uint64_t line)
{
	struct frc_entry_info e;
	if (!inspect_frc_entry(fp->sim, fp->bank, i, &e))
		return;
	if (e.state == FRC_FREE) {
		put_text(w, y, x, 1, ".", role_attr(R_DIM), false);
		return;
	}
	uint64_t blk = (e.state == FRC_EVICTING && e.victim ? e.victim : e.incoming) / line;
	char tag[24] = "";
	if (!g->tw)
		;
	else if (hex_digits(blk) > g->tw)
		snprintf(tag, sizeof tag, "%s%0*llx", draw_marker(), g->tw - 1,
			 (unsigned long long)(blk & ((((uint64_t)1) << (4 * (g->tw - 1))) - 1)));
	else
		snprintf(tag, sizeof tag, "%0*llx", g->tw, (unsigned long long)blk);
	char flag = e.pending_inv > 0 ? 'i' : e.wb_pending ? 'w' : e.waiters > 0 ? '+' : ' ';
	char cell[40];
	snprintf(cell, sizeof cell, "%c%s%c", state_letter(e.state), tag, flag);
	put_text(w, y, x, g->tw ? g->cw - 1 : g->cw, cell, role_attr(e.state == FRC_FETCHING ? R_MISS : R_STALL), false);
}

static void grid_draw(struct frc_panel *fp, WINDOW *w, struct rect r, const struct frc_info *fi)
{
	struct cache_geom cg;
	uint64_t line = inspect_cache_geom(fp->sim, CACHE_L2, fp->bank, &cg) && cg.line > 0 ? (uint64_t)cg.line : 1;
	int avail = r.h - 1; /* below the header */
	if (avail < 1)
		return;
	struct grid_geom g = grid_choose(hex_digits(0xffffffffull / line), r.w, avail, fi->sets, fi->ways);
	int max_top = g.rows - avail > 0 ? g.rows - avail : 0;
	if (fp->gtop > max_top)
		fp->gtop = max_top;
	if (fp->gtop < 0)
		fp->gtop = 0;
	fp->gvisible = avail;

	/* Header: way numbers over each cell's tag. */
	put_text(w, r.y, r.x, g.lw, "SET", role_attr(R_HEADER), false);
	int ncell = g.spr ? g.spr * fi->ways : g.cpr, hx = r.x + g.lw;
	for (int k = 0; k < ncell; k++) { /* a number that would touch the previous one is left out */
		int way = g.spr ? k % fi->ways : k;
		int x = r.x + g.lw + k * g.cw + (g.spr ? k / fi->ways : 0) + (g.tw ? 1 : 0);
		if (x < hx || x + dec_digits(way) > r.x + r.w)
			continue;
		put_fmt(w, r.y, x, dec_digits(way), role_attr(R_HEADER), "%d", way);
		hx = x + dec_digits(way) + 1;
	}

	int shown = 0;
	for (int row = fp->gtop; row < g.rows && shown < avail; row++, shown++) {
		int y = r.y + 1 + shown;
		if (g.spr) {
			int s0 = row * g.spr;
			put_fmt(w, y, r.x, g.lw - 1, A_NORMAL, "%*d", g.lw - 1, s0);
			for (int k = 0; k < g.spr && s0 + k < fi->sets; k++)
				for (int wy = 0; wy < fi->ways; wy++)
					grid_cell(w, y, r.x + g.lw + (k * fi->ways + wy) * g.cw + k, fp,
						  (s0 + k) * fi->ways + wy, &g, line);
		} else {
			int set = row / g.rps, w0 = (row % g.rps) * g.cpr;
			put_fmt(w, y, r.x, g.lw - 1, A_NORMAL, "%d.%d", set, w0);
			for (int k = 0; k < g.cpr && w0 + k < fi->ways; k++)
				grid_cell(w, y, r.x + g.lw + k * g.cw, fp, set * fi->ways + w0 + k, &g, line);
		}
	}
	if (fp->gtop > 0)
		put_text(w, r.y + 1, r.x + r.w - 1, 1, "^", role_attr(R_HEADER), false);
	if (fp->gtop + shown < g.rows)
		put_text(w, r.y + shown, r.x + r.w - 1, 1, "v", role_attr(R_HEADER), false);
	/* Spare rows: the legend. */
	if (shown + 1 < avail)
		put_wrapped(w, r.y + 2 + shown, r.x, r.w, avail - shown - 1,
			    g.tw ? "F fetching  S swapping  E evicting (victim block)  . free   block = address / L2 line, "
				   "hex   i invalidation acks due  w write-back pending  + requests waiting"
				 : "F fetching  S swapping  E evicting  . free   i invalidation acks due  w write-back "
				   "pending  + requests waiting   (too small for block numbers: see the list, Left/Right)",
			    role_attr(R_DIM));
}

static void frc_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct frc_panel *fp = (struct frc_panel *)p;
	struct frc_info fi;
	char info[160] = "";
	bool on = c->sim && inspect_frc(c->sim, c->sel_l2, &fi);
	if (on)
		snprintf(info, sizeof info, "bank %d  %d entries (%d sets x %d ways)  busy %d  %s", c->sel_l2, fi.entries,
			 fi.sets, fi.ways, fi.busy, fp->grid ? "grid" : "list");
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
	/* The bank's l2.bankN.frc.* counters; the machine-wide frc.share in the
	 * parentheses. */
	char ctr[256];
	snprintf(ctr, sizeof ctr,
		 "misses handled %.1f%% (%llu allocs / %llu bank misses; all banks %.1f%%)  swaps %llu  hits while "
		 "fetching %llu  fallbacks %llu  evictions %llu",
		 fi.l2_misses ? 100.0 * (double)fi.allocs / (double)fi.l2_misses : 0.0, (unsigned long long)fi.allocs,
		 (unsigned long long)fi.l2_misses,
		 fi.all_l2_misses ? 100.0 * (double)fi.all_allocs / (double)fi.all_l2_misses : 0.0,
		 (unsigned long long)fi.swaps, (unsigned long long)fi.hits_fetching, (unsigned long long)fi.fallbacks,
		 (unsigned long long)fi.evictions);
	/* Two summary lines only when three entry rows still fit under the header. */
	int n = put_wrapped(w, r.y, r.x, r.w, r.h > 5 ? 2 : 1, ctr, A_NORMAL);
	r.y += n;
	r.h -= n;
	fp->sim = c->sim;
	fp->bank = c->sel_l2;
	fp->ways = fi.ways;
	if (fp->grid)
		grid_draw(fp, w, r, &fi);
	else
		table_draw(&fp->t, w, r, fi.entries, false, entry_row, fp);
	fp->sim = NULL;
}

static int frc_key(struct panel *p, int key, const struct view_ctx *c)
{
	(void)c;
	struct frc_panel *fp = (struct frc_panel *)p;
	if (key == KEY_LEFT || key == KEY_RIGHT) {
		fp->grid = !fp->grid;
		return VK_HANDLED | VK_REDRAW;
	}
	if (!fp->grid)
		return table_key(&fp->t, key);
	int old = fp->gtop, page = fp->gvisible > 1 ? fp->gvisible - 1 : 1;
	switch (key) {
	case KEY_UP: fp->gtop--; break;
	case KEY_DOWN: fp->gtop++; break; /* clamped at the next draw */
	case KEY_PPAGE: fp->gtop -= page; break;
	case KEY_NPAGE: fp->gtop += page; break;
	case KEY_HOME: fp->gtop = 0; break;
	case KEY_END: fp->gtop = 1 << 20; break;
	default: return VK_IGNORED;
	}
	if (fp->gtop < 0)
		fp->gtop = 0;
	return VK_HANDLED | (fp->gtop != old ? VK_REDRAW : 0);
}

static void frc_reset(struct panel *p)
{
	struct frc_panel *fp = (struct frc_panel *)p;
	table_reset(&fp->t);
	fp->gtop = 0;
}

static void frc_free(struct panel *p) { free(p); }

static const struct panel_ops frc_ops = {
	.name = "frc",
	.desc = "Fetch and Replacement Cache entries of the selected L2 bank",
	.min_w = 30,
	.min_h = 5, /* title, summary, header and two entries: the lesson at 80x24 (issue 38) */
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
