/*
 * timeline.c: the timeline panel: the recent history of one L2 set as a Gantt
 * chart over cycles, rebuilt from the event log. One row per block (line
 * address) seen in the set, oldest first; the right edge is the current cycle.
 *
 *   ─ timeline  l2 bank 0 set 0 (newest event)  cycles 0-1359, 20/col ─────────
 *   > arrive  n NACKed  t transient  F fetch  R FRC fetch  S swap  E FRC evict …
 *   BLOCK      0         200       400       600       800       1000      1200
 *   0x10000000 >FFFFF*<
 *   0x10002000 >nnnnnt tttt*<...
 *
 * Phases (bars) and marks, from the events of the bank (`unit`) and set:
 *   n  NACKed: from a refused request's first l2.nack to the retry the L2 took
 *   t  transient: a victim line of the conventional path (l2.transient) until
 *      the fill of the block that replaces it (l2.fill)
 *   F  fetch in memory: the accepted miss (l2.miss + l2.transient, or a merge)
 *      until l2.fill
 *   R  FRC fetch: frc.alloc until frc.fill
 *   S  swap: frc.swap_start until frc.swap_done
 *   E  FRC evicting: frc.swap_done of the entry until frc.evict_done of the
 *      victim it held (only dirty victims or ones with L1 copies)
 *   >  arrival (l2.access starting a request), H hit, * data in the L2 (l2.fill,
 *      frc.fill), < data at a warp (mem.reply)
 * Colours as everywhere (draw.h): fetches red (misses), NACK waits, transient
 * lines, swaps and evictions yellow (stalls / busy with a victim), hits and
 * fills green, arrivals bold. The letters carry the meaning without colour.
 *
 * `timeline l2 BANK SET` fixes the set; otherwise the panel follows the set of
 * the newest L2 event of the selected bank. Up/Down scroll older blocks,
 * Left/Right zoom in/out (Home: fit again). The log is a bounded ring: the
 * panel says how far back it reaches and which needed kinds are not logged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "debug/inspect.h"
#include "sim/util.h"
#include "view.h"

#define TL_MAX_ROWS 256
#define TL_NONE UINT64_MAX
#define TL_LABEL 11 /* "0x10016000 " */
#define TL_ENTRIES 256 /* FRC entries tracked for evictions */

enum tl_glyph { G_NACK, G_TRANS, G_FETCH, G_FRC, G_SWAP, G_EVICT, G_ARRIVE, G_HIT, G_FILL, G_REPLY, G__COUNT };

static const struct {
	char ch;
	enum role role;
	int prio;
	const char *word;
} glyphs[G__COUNT] = {
	[G_NACK] = {'n', R_STALL, 1, "NACKed"},   [G_TRANS] = {'t', R_STALL, 2, "transient"},
	[G_FETCH] = {'F', R_MISS, 5, "fetch"},    [G_FRC] = {'R', R_MISS, 5, "FRC fetch"},
	[G_SWAP] = {'S', R_STALL, 4, "swap"},     [G_EVICT] = {'E', R_STALL, 3, "FRC evict"},
	[G_ARRIVE] = {'>', R_HEADER, 9, "arrive"}, [G_HIT] = {'H', R_HIT, 9, "hit"},
	[G_FILL] = {'*', R_HIT, 8, "in L2"},      [G_REPLY] = {'<', R_HIT, 7, "at warp"},
};

static const unsigned needed[] = {
	EV_L2_ACCESS, EV_L2_HIT,      EV_L2_MISS,      EV_L2_NACK,       EV_L2_TRANSIENT,
	EV_L2_FILL,   EV_FRC_ALLOC,   EV_FRC_FILL,     EV_FRC_SWAP_START, EV_FRC_SWAP_DONE,
	EV_FRC_EVICT_DONE, EV_MEM_REPLY,
};

const unsigned *timeline_kinds(size_t *n)
{
	*n = ARRAY_LEN(needed);
	return needed;
}

struct tl_item { /* a bar (t1 >= t0) or a mark (t1 == t0, glyph >= G_ARRIVE) */
	int row;
	uint8_t g;
	uint64_t t0, t1;
};

struct tl_row {
	uint64_t addr, first;
	/* reconstruction state */
	uint64_t nack0, last_nack, last_access;
	uint64_t miss_t, fetch0, frc0, swap0;
	uint64_t trans0; int trans_for; /* transient victim: until the fill of row trans_for */
	bool busy;
	bool write; /* the last access was a write: a write miss is acknowledged without a fetch (lazy fetch) */
};

struct timeline_panel {
	struct panel base;
	struct tl_item *items;
	size_t nitems, itemcap;
	struct tl_row rows[TL_MAX_ROWS];
	int nrows;
	bool rows_full;
	int scroll;     /* rows hidden below (newer) the visible ones */
	int zoom;       /* 0 = fit; >0 zoomed in steps */
	int entry_row_set[TL_ENTRIES];     /* FRC entry -> swapped in this set (1) */
	uint64_t entry_swapped[TL_ENTRIES]; /* its last swap_done */
};

static bool has_set_field(unsigned k)
{
	switch (k) {
	case EV_L2_ACCESS:
	case EV_L2_HIT:
	case EV_L2_MISS:
	case EV_L2_TRANSIENT:
	case EV_L2_SET_ALL_TRANSIENT:
	case EV_L2_FILL:
	case EV_L2_WRITEBACK:
	case EV_FRC_SWAP_START:
	case EV_FRC_SWAP_DONE:
		return true; /* set = the L2 set (frc.lookup/alloc carry the FRC set) */
	default:
		return false;
	}
}

static int row_find(struct timeline_panel *tp, uint64_t addr)
{
	for (int i = 0; i < tp->nrows; i++)
		if (tp->rows[i].addr == addr)
			return i;
	return -1;
}

static int row_add(struct timeline_panel *tp, uint64_t addr)
{
	int i = row_find(tp, addr);
	if (i >= 0)
		return i;
	if (tp->nrows == TL_MAX_ROWS) {
		tp->rows_full = true;
		return -1;
	}
	tp->rows[tp->nrows] = (struct tl_row){
		.addr = addr, .first = TL_NONE, .nack0 = TL_NONE, .last_nack = TL_NONE, .last_access = TL_NONE,
		.miss_t = TL_NONE, .fetch0 = TL_NONE, .frc0 = TL_NONE, .swap0 = TL_NONE, .trans0 = TL_NONE, .trans_for = -1,
	};
	return tp->nrows++;
}

static void item(struct timeline_panel *tp, int row, enum tl_glyph g, uint64_t t0, uint64_t t1)
{
	if (row < 0)
		return;
	if (tp->nitems == tp->itemcap) {
		tp->itemcap = tp->itemcap ? 2 * tp->itemcap : 256;
		tp->items = xrealloc(tp->items, tp->itemcap * sizeof *tp->items);
	}
	tp->items[tp->nitems++] = (struct tl_item){.row = row, .g = (uint8_t)g, .t0 = t0, .t1 = t1 < t0 ? t0 : t1};
	struct tl_row *r = &tp->rows[row];
	if (t0 < r->first)
		r->first = t0;
}

/* Close a NACK run at the retry the L2 took (the last access after the last NACK). */
static void close_nacks(struct timeline_panel *tp, int row, uint64_t now, bool final)
{
	struct tl_row *r = &tp->rows[row];
	if (r->nack0 == TL_NONE)
		return;
	if (r->last_access != TL_NONE && r->last_access > r->last_nack) {
		item(tp, row, G_NACK, r->nack0, r->last_access);
		r->nack0 = TL_NONE;
	} else if (final) {
		item(tp, row, G_NACK, r->nack0, now); /* still waiting */
	}
}

static uint64_t line_of(uint64_t a, uint64_t mask) { return a & ~mask; }

/* Rebuild rows and items from the log for (bank, set). */
/* An L2 event of a row's block (access, hit, miss, nack, transient, fill).
 * last_miss: the row and cycle of the latest miss, whose victim a transient
 * event of the same cycle belongs to. */
static void l2_event(struct timeline_panel *tp, int row, const struct event *e, uint64_t now, uint64_t ring0,
		     int *last_miss, uint64_t *last_miss_t)
{
	struct tl_row *r = &tp->rows[row];
	uint64_t t = e->cycle;
	switch (e->kind) {
	case EV_L2_ACCESS:
		if (r->nack0 != TL_NONE && r->last_access != TL_NONE && r->last_access > r->last_nack)
			close_nacks(tp, row, now, false); /* the previous retry was taken */
		if (r->nack0 == TL_NONE && !r->busy)
			item(tp, row, G_ARRIVE, t, t);
		r->last_access = t;
		r->write = e->a == EVA_WRITE;
		break;
	case EV_L2_HIT:
		close_nacks(tp, row, now, false);
		item(tp, row, G_HIT, t, t);
		break;
	case EV_L2_MISS:
		if (!r->write) /* a write miss needs no fetch unless it goes transient (below) */
			r->miss_t = t;
		r->busy = !r->write;
		*last_miss = row;
		*last_miss_t = t;
		break;
	case EV_L2_NACK:
		if (r->miss_t == t)
			r->miss_t = TL_NONE;
		if (r->fetch0 == TL_NONE && r->frc0 == TL_NONE && r->swap0 == TL_NONE)
			r->busy = false;
		if (r->nack0 == TL_NONE)
			r->nack0 = t;
		r->last_nack = t;
		break;
	case EV_L2_TRANSIENT:
		/* the victim of the miss just before (same cycle): the fetch leaves */
		if (*last_miss >= 0 && *last_miss_t == t) {
			struct tl_row *m = &tp->rows[*last_miss];
			close_nacks(tp, *last_miss, now, false);
			m->fetch0 = t;
			m->miss_t = TL_NONE;
			if (row != *last_miss) {
				r->trans0 = t;
				r->trans_for = *last_miss;
			}
		}
		break;
	case EV_L2_FILL: {
		close_nacks(tp, row, now, false);
		uint64_t t0 = r->fetch0 != TL_NONE ? r->fetch0 : r->miss_t != TL_NONE ? r->miss_t : ring0;
		item(tp, row, G_FETCH, t0, t);
		item(tp, row, G_FILL, t, t);
		r->fetch0 = r->miss_t = TL_NONE;
		r->busy = false;
		for (int j = 0; j < tp->nrows; j++)
			if (tp->rows[j].trans_for == row && tp->rows[j].trans0 != TL_NONE) {
				item(tp, j, G_TRANS, tp->rows[j].trans0, t);
				tp->rows[j].trans0 = TL_NONE;
				tp->rows[j].trans_for = -1;
			}
		break;
	}
	default:
		break;
	}
}

/* An FRC event of a row's block (alloc, fill, swap); ent: the entry, or -1. */
static void frc_event(struct timeline_panel *tp, int row, const struct event *e, int ent, uint64_t now,
		      uint64_t ring0)
{
	struct tl_row *r = &tp->rows[row];
	uint64_t t = e->cycle;
	switch (e->kind) {
	case EV_FRC_ALLOC:
		close_nacks(tp, row, now, false);
		r->frc0 = t;
		r->miss_t = TL_NONE;
		r->busy = true;
		break;
	case EV_FRC_FILL:
		item(tp, row, G_FRC, r->frc0 != TL_NONE ? r->frc0 : ring0, t);
		item(tp, row, G_FILL, t, t);
		r->frc0 = TL_NONE;
		break;
	case EV_FRC_SWAP_START:
		r->swap0 = t;
		break;
	case EV_FRC_SWAP_DONE:
		item(tp, row, G_SWAP, r->swap0 != TL_NONE ? r->swap0 : ring0, t);
		r->swap0 = TL_NONE;
		r->busy = false;
		if (ent >= 0) {
			tp->entry_row_set[ent] = 1;
			tp->entry_swapped[ent] = t;
		}
		break;
	default:
		break;
	}
}

/* Phases still open run to now. */
static void close_open(struct timeline_panel *tp, uint64_t now)
{
	for (int j = 0; j < tp->nrows; j++) {
		struct tl_row *r = &tp->rows[j];
		close_nacks(tp, j, now, true);
		if (r->fetch0 != TL_NONE)
			item(tp, j, G_FETCH, r->fetch0, now);
		else if (r->miss_t != TL_NONE)
			item(tp, j, G_FETCH, r->miss_t, now);
		if (r->frc0 != TL_NONE)
			item(tp, j, G_FRC, r->frc0, now);
		if (r->swap0 != TL_NONE)
			item(tp, j, G_SWAP, r->swap0, now);
		if (r->trans0 != TL_NONE)
			item(tp, j, G_TRANS, r->trans0, now);
	}
}

static void rebuild(struct timeline_panel *tp, const struct events *ev, uint64_t n, int bank, int set,
		    uint64_t lmask, uint64_t now, uint64_t ring0)
{
	tp->nrows = 0;
	tp->rows_full = false;
	tp->nitems = 0;
	/* Rows: the blocks seen in the set, newest first (so a full table keeps the newest). */
	for (uint64_t i = 0; i < n; i++) {
		const struct event *e = events_recent(ev, i);
		if (e && e->unit == bank && has_set_field(e->kind) && e->set == set)
			row_add(tp, line_of(e->addr, lmask));
	}
	if (!tp->nrows)
		return;
	memset(tp->entry_row_set, 0, sizeof tp->entry_row_set);
	int last_miss = -1;
	uint64_t last_miss_t = TL_NONE;
	for (uint64_t i = n; i-- > 0;) {
		const struct event *e = events_recent(ev, i);
		if (!e)
			continue;
		uint64_t t = e->cycle, a = line_of(e->addr, lmask);
		unsigned k = e->kind;
		int ent = e->a >= 0 && e->a < TL_ENTRIES ? (int)e->a : -1;
		if (k == EV_MEM_REPLY) {
			int row = row_find(tp, a);
			if (row >= 0 && tp->rows[row].first != TL_NONE)
				item(tp, row, G_REPLY, t, t);
			continue;
		}
		if (e->unit != bank || !(event_defs[k].fields & EVF_UNIT))
			continue;
		if (k == EV_FRC_EVICT_DONE) {
			if (ent >= 0 && tp->entry_row_set[ent]) {
				int row = row_add(tp, a);
				item(tp, row, G_EVICT, tp->entry_swapped[ent], t);
				tp->entry_row_set[ent] = 0;
			}
			continue;
		}
		int row = (event_defs[k].fields & EVF_ADDR) ? row_find(tp, a) : -1;
		if (row < 0)
			continue;
		l2_event(tp, row, e, now, ring0, &last_miss, &last_miss_t); /* each ignores the other's kinds */
		frc_event(tp, row, e, ent, now, ring0);
	}
	close_open(tp, now);
	for (int i = 0; i < TL_ENTRIES; i++) /* victims still being evicted: address unknown until evict_done */
		tp->entry_row_set[i] = 0;
}

/* The set the panel shows: fixed, or the newest L2 event's of the bank. */
static bool pick_set(const struct view_ctx *c, const struct events *ev, uint64_t n, int *bank, int *set)
{
	if (c->tl_fixed) {
		*bank = c->tl_bank;
		*set = c->tl_set;
		return true;
	}
	*bank = c->sel_l2;
	for (uint64_t i = 0; i < n; i++) {
		const struct event *e = events_recent(ev, i);
		if (e && e->unit == *bank && has_set_field(e->kind)) {
			*set = e->set;
			return true;
		}
	}
	return false;
}

static uint64_t nice_at_least(uint64_t v)
{
	static const uint64_t m[] = {1, 2, 5};
	for (uint64_t p = 1;; p *= 10)
		for (int i = 0; i < 3; i++)
			if (m[i] * p >= v)
				return m[i] * p;
}

/* The largest of 1, 2, 5, 10, 20, ... below v (v > 1). */
static uint64_t nice_below(uint64_t v)
{
	uint64_t best = 1;
	for (uint64_t x = 1; x < v; x = nice_at_least(x + 1))
		best = x;
	return best;
}

static int draw_legend(WINDOW *w, int y, int x, int width, int maxlines)
{
	int cx = 0, line = 0;
	for (int g = 0; g < G__COUNT; g++) {
		int len = 2 + (int)strlen(glyphs[g].word);
		if (cx && cx + 2 + len > width) {
			if (++line >= maxlines) {
				put_text(w, y + line - 1, x + width - 1, 1, draw_marker(), A_NORMAL, false);
				return line;
			}
			cx = 0;
		}
		if (cx)
			cx += 2;
		char ch[2] = {glyphs[g].ch, 0};
		put_text(w, y + line, x + cx, width - cx, ch, role_attr(glyphs[g].role), false);
		put_text(w, y + line, x + cx + 1, width - cx - 1, " ", A_NORMAL, false);
		put_text(w, y + line, x + cx + 2, width - cx - 2, glyphs[g].word, role_attr(R_DIM), false);
		cx += len;
	}
	return line + 1;
}

/* The panel without a chart: why (no event of the bank yet, too narrow, no
 * event of the set), and which needed kinds are not logged. set < 0: none. */
static void draw_no_chart(struct panel *p, WINDOW *w, const struct view_ctx *c, struct rect r, int bank, int set,
			  bool narrow, const char *missing, uint64_t ring0)
{
	char info[200];
	if (set >= 0)
		snprintf(info, sizeof info, "l2 bank %d set %d%s", bank, set, c->tl_fixed ? "" : " (newest event)");
	else
		snprintf(info, sizeof info, "l2 bank %d (follows the newest event)", bank);
	view_frame(p, w, c, info);
	int y = r.y;
	if (set < 0)
		put_text(w, y++, r.x, r.w, "no L2 event of this bank in the log yet: step, or `timeline l2 BANK SET`",
			 role_attr(R_DIM), false);
	else if (narrow)
		put_text(w, y++, r.x, r.w, "too narrow for a chart", role_attr(R_DIM), false);
	else
		put_fmt(w, y++, r.x, r.w, role_attr(R_DIM), "no events of bank %d set %d in the log%s", bank, set,
			ring0 ? " (older ones were dropped)" : " yet");
	if (missing[0] && y < r.y + r.h)
		put_fmt(w, y++, r.x, r.w, role_attr(R_STALL), "not logged:%s (`timeline l2 %d %d` logs them)", missing,
			bank, set < 0 ? 0 : set);
}

/* Row indices in order of first appearance (oldest first), then address. */
static void sort_rows(const struct timeline_panel *tp, int *order)
{
	for (int i = 0; i < tp->nrows; i++)
		order[i] = i;
	for (int i = 1; i < tp->nrows; i++) { /* insertion sort: few rows */
		int v = order[i], j = i;
		while (j > 0 && (tp->rows[order[j - 1]].first > tp->rows[v].first ||
				 (tp->rows[order[j - 1]].first == tp->rows[v].first && tp->rows[order[j - 1]].addr > tp->rows[v].addr))) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
}

/* The axis line: "BLOCK", then tick labels at multiples of a nice step, at
 * least 10 columns apart. */
static void draw_axis(WINDOW *w, int y, int x, int chart_w, uint64_t left, uint64_t now, uint64_t cpc)
{
	uint64_t step = nice_at_least(cpc * 10);
	put_text(w, y, x, TL_LABEL, "BLOCK", role_attr(R_HEADER), false);
	int xa = x + TL_LABEL;
	for (uint64_t tk = (left + step - 1) / step * step; tk <= now; tk += step) {
		int col = (int)((tk - left) / cpc);
		if (col >= chart_w)
			break;
		char lab[24];
		snprintf(lab, sizeof lab, "%llu", (unsigned long long)tk);
		put_text(w, y, xa + col, chart_w - col, lab, role_attr(R_HEADER), false);
	}
}

/* One block's row: its address, then each column's highest-priority glyph
 * among the items that cover it (cell: chart_w bytes of scratch). */
static void draw_row(WINDOW *w, const struct timeline_panel *tp, int row, int y, int x, int chart_w, uint64_t left,
		     uint64_t cpc, unsigned char *cell)
{
	memset(cell, 0, (size_t)chart_w);
	for (size_t k = 0; k < tp->nitems; k++) {
		const struct tl_item *it = &tp->items[k];
		if (it->row != row || it->t1 < left)
			continue;
		uint64_t a0 = it->t0 < left ? left : it->t0;
		int c0 = (int)((a0 - left) / cpc), c1 = (int)((it->t1 - left) / cpc);
		if (c1 >= chart_w)
			c1 = chart_w - 1;
		for (int col = c0; col <= c1; col++)
			if (!cell[col] || glyphs[cell[col] - 1].prio < glyphs[it->g].prio)
				cell[col] = (unsigned char)(it->g + 1);
	}
	char lab[24];
	snprintf(lab, sizeof lab, "0x%llx", (unsigned long long)tp->rows[row].addr);
	put_text(w, y, x, TL_LABEL - 1, lab, A_NORMAL, false);
	for (int col = 0; col < chart_w; col++) {
		if (!cell[col])
			continue;
		const char ch[2] = {glyphs[cell[col] - 1].ch, 0};
		put_text(w, y, x + TL_LABEL + col, 1, ch, role_attr(glyphs[cell[col] - 1].role), false);
	}
}

static void timeline_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct timeline_panel *tp = (struct timeline_panel *)p;
	const struct events *ev = c->sim ? sim_events_c(c->sim) : NULL;
	if (!ev) {
		struct rect r = view_frame(p, w, c, "");
		put_text(w, r.y, r.x, r.w, "no simulator", role_attr(R_DIM), false);
		return;
	}
	uint64_t total = events_logged(ev), n = total < ev->cap ? total : ev->cap;
	uint64_t now = sim_cycle(c->sim);
	const struct event *oldest = n ? events_recent(ev, n - 1) : NULL;
	uint64_t ring0 = total > ev->cap && oldest ? oldest->cycle : 0;
	int bank = c->sel_l2, set = -1;
	bool have = pick_set(c, ev, n, &bank, &set);
	struct cache_geom g = {0};
	bool geom = inspect_cache_geom(c->sim, CACHE_L2, bank, &g);
	uint64_t lmask = geom && g.line > 0 ? (uint64_t)g.line - 1 : 0;
	if (have && geom)
		rebuild(tp, ev, n, bank, set, lmask, now, ring0);
	else
		tp->nrows = 0;

	/* Missing kinds. */
	char missing[160] = "";
	size_t ml = 0;
	for (size_t i = 0; i < ARRAY_LEN(needed); i++) {
		unsigned k = needed[i];
		if (!((ev->log_mask[k >> 6] >> (k & 63)) & 1u) && ml + 24 < sizeof missing)
			ml += (size_t)snprintf(missing + ml, sizeof missing - ml, " %s", event_defs[k].name);
	}

	struct rect r = view_frame(p, w, c, NULL); /* title redrawn below once the scale is known */
	int notes = (missing[0] ? 1 : 0) + (ring0 ? 1 : 0) + (tp->rows_full ? 1 : 0);
	int legend_lines = r.h >= 12 && r.w < 100 ? 2 : 1;
	int chart_w = r.w - TL_LABEL;
	char info[200];
	if (!geom) {
		snprintf(info, sizeof info, "l2 bank %d", bank);
		view_frame(p, w, c, info);
		put_text(w, r.y, r.x, r.w, "no such L2 bank in this machine", role_attr(R_DIM), false);
		return;
	}
	if (!have || !tp->nrows || chart_w < 8) {
		draw_no_chart(p, w, c, r, bank, have ? set : -1, chart_w < 8, missing, ring0);
		return;
	}
	int order[TL_MAX_ROWS];
	sort_rows(tp, order);
	int body = r.h - legend_lines - 1 - notes;
	if (body < 1) {
		notes = 0;
		body = r.h - legend_lines - 1;
	}
	if (body < 1) {
		legend_lines = 0;
		body = r.h - 1;
	}
	int maxscroll = tp->nrows > body ? tp->nrows - body : 0;
	if (tp->scroll > maxscroll)
		tp->scroll = maxscroll;
	int last = tp->nrows - tp->scroll; /* exclusive */
	int firstrow = last - body > 0 ? last - body : 0;
	uint64_t t_begin = now;
	for (int i = firstrow; i < last; i++)
		if (tp->rows[order[i]].first < t_begin)
			t_begin = tp->rows[order[i]].first;
	uint64_t span = now - t_begin + 1;
	uint64_t cpc = nice_at_least((span + (uint64_t)chart_w - 1) / (uint64_t)chart_w);
	for (int z = 0; z < tp->zoom && cpc > 1; z++)
		cpc = nice_below(cpc);
	uint64_t left = now + 1 > cpc * (uint64_t)chart_w ? now + 1 - cpc * (uint64_t)chart_w : 0;
	/* align so columns start at multiples of cpc */
	left -= left % cpc;
	snprintf(info, sizeof info, "l2 bank %d set %d%s  cycles %llu-%llu, %llu/col%s", bank, set,
		 c->tl_fixed ? "" : " (newest event)", (unsigned long long)left, (unsigned long long)now,
		 (unsigned long long)cpc, maxscroll ? "  Up/Down: older blocks" : "");
	view_frame(p, w, c, info);
	int y = r.y;
	if (legend_lines)
		y += draw_legend(w, y, r.x, r.w, legend_lines);
	draw_axis(w, y++, r.x, chart_w, left, now, cpc);
	unsigned char *cell = xcalloc((size_t)chart_w, 1);
	for (int i = firstrow; i < last && y < r.y + r.h - notes; i++, y++)
		draw_row(w, tp, order[i], y, r.x, chart_w, left, cpc, cell);
	free(cell);
	y = r.y + r.h - notes;
	if (notes && ring0)
		put_fmt(w, y++, r.x, r.w, role_attr(R_DIM),
			"the log reaches back to cycle %llu (ring of %u; older events dropped, bars from before are cut)",
			(unsigned long long)ring0, ev->cap);
	if (notes && tp->rows_full)
		put_fmt(w, y++, r.x, r.w, role_attr(R_DIM), "only the newest %d blocks of the set are drawn", TL_MAX_ROWS);
	if (notes && missing[0])
		put_fmt(w, y++, r.x, r.w, role_attr(R_STALL), "not logged:%s (`timeline l2 %d %d` logs them)", missing, bank,
			set);
}

static int timeline_key(struct panel *p, int key, const struct view_ctx *c)
{
	(void)c;
	struct timeline_panel *tp = (struct timeline_panel *)p;
	switch (key) {
	case KEY_UP:
		tp->scroll++;
		return VK_HANDLED | VK_REDRAW;
	case KEY_DOWN:
		if (tp->scroll > 0)
			tp->scroll--;
		return VK_HANDLED | VK_REDRAW;
	case KEY_PPAGE:
		tp->scroll += p->h > 4 ? p->h - 4 : 1;
		return VK_HANDLED | VK_REDRAW;
	case KEY_NPAGE:
		tp->scroll -= p->h > 4 ? p->h - 4 : 1;
		if (tp->scroll < 0)
			tp->scroll = 0;
		return VK_HANDLED | VK_REDRAW;
	case KEY_LEFT:
		if (tp->zoom < 20)
			tp->zoom++;
		return VK_HANDLED | VK_REDRAW;
	case KEY_RIGHT:
		if (tp->zoom > 0)
			tp->zoom--;
		return VK_HANDLED | VK_REDRAW;
	case KEY_HOME:
	case KEY_END:
		tp->scroll = 0;
		tp->zoom = 0;
		return VK_HANDLED | VK_REDRAW;
	default:
		return VK_IGNORED;
	}
}

static void timeline_reset(struct panel *p)
{
	struct timeline_panel *tp = (struct timeline_panel *)p;
	tp->scroll = 0;
	tp->zoom = 0;
}

static void timeline_free(struct panel *p)
{
	struct timeline_panel *tp = (struct timeline_panel *)p;
	free(tp->items);
	free(tp);
}

static const struct panel_ops timeline_ops = {
	.name = "timeline",
	.desc = "one L2 set's recent requests as a Gantt chart over cycles (NACK waits, evictions, fetches, FRC swaps)",
	.min_w = 40,
	.min_h = 4,
	.draw = timeline_draw,
	.key = timeline_key,
	.reset = timeline_reset,
	.free = timeline_free,
};

struct panel *timeline_panel_new(void)
{
	struct timeline_panel *tp = xcalloc(1, sizeof *tp);
	tp->base.ops = &timeline_ops;
	return &tp->base;
}
