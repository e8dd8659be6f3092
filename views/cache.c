/*
 * cache.c: the set x way grid of one cache: `cache` shows the selected SM's
 * L1, `l2cache` the selected L2 bank. One row per set, one cell per way:
 *
 *   SET  way0            way1            way2 ...
 *     0  H  1a2f D0 vvDv  ·               ·
 *     1     0c41  1 vv..  M  0c44  0 ....
 *        | |     | | +---- sectors: v valid, D dirty, . not present
 *        | |     | +------ LRU rank (0 = most recently used)
 *        | |     +-------- D dirty, T transient (L2 victim being replaced)
 *        | +-------------- tag (hex)
 *        +---------------- touched in the last cycle: H hit, M miss, F fill
 *
 * A set whose ways are all transient has '!' after its number (yellow): a
 * miss to it has no victim and waits (l2.set_all_transient).
 *
 * With a coherence protocol the L1 cells carry the copy's state after the
 * tag (cache panel only): "H 1a2f M D0" (M/O/E/S/I/N/V, '~' transient).
 *
 * Invalid ways show '·'. Up/Down/PgUp/PgDn scroll sets, Left/Right scroll
 * ways when they do not all fit, Home returns to following the sets touched
 * in the last cycle.
 *
 * With l1.bypass = locality the L1 view shows the decoupled tag store
 * beside the data store (notes 004 §6.3), one row per set:
 *
 *   SET  tag0       tag1       ...  | data ways 0-3      free
 *     0  P1a2f 0  4 +0c41 -  2    | 1a2f 0  ·  ·  ·     3
 *        ||    |  |                   |    +--- LRU rank
 *        ||    |  +--- reference count (bright when at the threshold or above)
 *        ||    +------ data way holding the block, - = candidate
 *        |+----------- tag
 *        +------------ last cycle: A allocated, + RC up, P promoted,
 *                        H hit, R reset by a data eviction
 * Under 80 + 12 x tag digits columns the tags are left out (RC and way
 * only) and a data line shows V valid / R reserved and its LRU rank.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coh/coh.h"
#include "draw.h"
#include "debug/inspect.h"
#include "sim/util.h"
#include "view.h"

struct cache_panel {
	struct panel base;
	enum cache_id_kind kind;
	int top;      /* first set shown */
	int way0;     /* first way shown */
	bool follow;  /* scroll to touched sets */
	int visible;  /* sets on screen at the last draw */
	int sets, ways;
};

static enum role touch_role(enum touch t)
{
	switch (t) {
	case TOUCH_HIT:
		return R_HIT;
	case TOUCH_MISS:
		return R_MISS;
	case TOUCH_FILL:
		return R_HIT;
	default:
		return R_NORMAL;
	}
}

static char touch_mark(enum touch t)
{
	return t == TOUCH_HIT ? 'H' : t == TOUCH_MISS ? 'M' : t == TOUCH_FILL ? 'F' : ' ';
}

static int hex_digits(uint64_t v)
{
	int n = 1;
	while (v >>= 4)
		n++;
	return n;
}

static char btouch_mark(enum btag_touch_kind t)
{
	static const char m[] = " A+PHR";
	return t >= BTT_NONE && t <= BTT_RESET ? m[t] : ' ';
}

/* Every way of the set is transient (being replaced or reserved): a miss
 * to the set has no victim and waits (l2.set_all_transient). */
static bool set_all_transient(const struct sim *sim, enum cache_id_kind k, int unit, int set, int ways)
{
	for (int wy = 0; wy < ways; wy++) {
		struct line_info li;
		if (!inspect_cache_line(sim, k, unit, set, wy, &li) || !li.transient)
			return false;
	}
	return ways > 0;
}

static void scroll_clamp(struct cache_panel *cp, int rows, int first_touched)
{
	cp->visible = rows;
	if (cp->follow && first_touched >= 0 && (first_touched < cp->top || first_touched >= cp->top + rows))
		cp->top = first_touched - rows / 3;
	if (cp->top > cp->sets - rows)
		cp->top = cp->sets - rows;
	if (cp->top < 0)
		cp->top = 0;
}

/* The first set with a tag touched last cycle (-1: none) and the widest tag
 * (at least 0xfff), over the tag store. */
static int tagstore_scan(const struct view_ctx *c, int unit, const struct cache_geom *g, const struct byp_info *bi,
			 uint64_t *maxtag)
{
	int first_touched = -1;
	uint64_t tdiv = (uint64_t)g->line * (uint64_t)g->sets;
	*maxtag = 0xfff;
	for (int s = 0; s < g->sets; s++)
		for (int wy = 0; wy < bi->ways; wy++) {
			struct btag_info t;
			if (!inspect_bypass_tag(c->sim, unit, s, wy, &t) || !t.valid)
				continue;
			if (t.addr / tdiv > *maxtag)
				*maxtag = t.addr / tdiv;
			if (t.touched != BTT_NONE && first_touched < 0)
				first_touched = s;
		}
	return first_touched;
}

/* How the tag store's cells are laid out this frame. */
struct tag_fmt {
	bool wide;     /* tags shown (else RC and way only) */
	int tw;        /* tag digits */
	int tcw, dcw;  /* tag cell and data cell widths with their gaps */
	uint64_t tdiv; /* address / tdiv = tag */
};

/* One tag store entry: last cycle's mark, [tag,] data way (- candidate), RC. */
static void tag_cell(WINDOW *w, int y, int x, const struct tag_fmt *f, const struct byp_info *bi,
		     const struct btag_info *t)
{
	if (!t->valid) {
		put_fmt(w, y, x, f->tcw - 1, role_attr(R_DIM), "%c %s", btouch_mark(t->touched),
			draw_utf8() ? "\xc2\xb7" : "-");
		return;
	}
	attr_t a = t->touched == BTT_PROMOTE || t->touched == BTT_HIT ? role_attr(R_HIT)
		   : t->touched == BTT_RESET			  ? role_attr(R_STALL)
		   : t->touched != BTT_NONE			  ? role_attr(R_MISS)
		   : t->pos >= 0 || t->rc >= bi->threshold	  ? A_NORMAL
								  : role_attr(R_DIM);
	char pos = t->pos >= 0 ? (char)('0' + t->pos % 10) : '-';
	if (f->wide)
		put_fmt(w, y, x, f->tcw - 1, a, "%c%*llx %c%2d", btouch_mark(t->touched), f->tw,
			(unsigned long long)(t->addr / f->tdiv), pos, t->rc);
	else
		put_fmt(w, y, x, f->tcw - 1, a, "%c%2d %c", btouch_mark(t->touched), t->rc, pos);
}

/* Set s's data ways from column dx on, then how many are free. */
static void data_cells(WINDOW *w, const struct view_ctx *c, int unit, int s, int y, int dx, const struct tag_fmt *f,
		       const struct cache_geom *g)
{
	int nfree = 0;
	for (int wy = 0; wy < g->ways; wy++) {
		int x = dx + 2 + wy * f->dcw;
		struct line_info li;
		if (!inspect_cache_line(c->sim, CACHE_L1, unit, s, wy, &li))
			continue;
		if (!li.valid && !li.transient) {
			nfree++;
			put_text(w, y, x, f->dcw - 1, draw_utf8() ? "\xc2\xb7" : "-", role_attr(R_DIM), false);
			continue;
		}
		char lru = li.lru_rank < 0 ? '-' : li.lru_rank < 10 ? (char)('0' + li.lru_rank) : '+';
		attr_t a = li.transient ? role_attr(R_STALL) : role_attr(touch_role(li.touched));
		if (f->wide)
			put_fmt(w, y, x, f->dcw - 1, a, "%*llx %c", f->tw, (unsigned long long)li.tag, li.transient ? 'R' : lru);
		else
			put_fmt(w, y, x, f->dcw - 1, a, "%c%c", li.transient ? 'R' : 'V', lru);
	}
	put_fmt(w, y, dx + 2 + g->ways * f->dcw, 4, A_NORMAL, "%d", nfree);
}

/* The decoupled tag store beside the data store (l1.bypass = locality). */
static void tagstore_draw(struct cache_panel *cp, WINDOW *w, const struct view_ctx *c, const struct cache_geom *g,
			  const struct byp_info *bi, struct rect r)
{
	int unit = c->sel_sm;
	cp->sets = g->sets;
	cp->ways = bi->ways;
	uint64_t maxtag;
	int first_touched = tagstore_scan(c, unit, g, bi, &maxtag);
	struct tag_fmt f = {.tw = hex_digits(maxtag), .tdiv = (uint64_t)g->line * (uint64_t)g->sets};
	int setw = 5;
	/* Wide: tags shown; narrow (under 80 + 12 x tag digits): RC and way only. */
	f.wide = setw + bi->ways * (f.tw + 6) + 2 + g->ways * (f.tw + 3) + 3 <= r.w;
	f.tcw = f.wide ? f.tw + 6 : 6; /* "P1a2f 0  3 " or "P 3 0 " */
	f.dcw = f.wide ? f.tw + 3 : 3; /* "1a2f 0 " or "V0 " */
	int rows = r.h - 1;
	if (rows < 1)
		rows = 1;
	scroll_clamp(cp, rows, first_touched);
	int dx = r.x + setw + bi->ways * f.tcw; /* data store column */
	put_text(w, r.y, r.x, setw, "SET", role_attr(R_HEADER), false);
	for (int wy = 0; wy < bi->ways; wy++)
		put_fmt(w, r.y, r.x + setw + wy * f.tcw, f.tcw, role_attr(R_HEADER), f.wide ? "tag%d" : "t%d", wy);
	put_fmt(w, r.y, dx, r.x + r.w - dx, role_attr(R_HEADER), f.wide ? "| data ways 0-%d  free" : "| data free",
		g->ways - 1);
	for (int i = 0; i < rows && cp->top + i < g->sets; i++) {
		int s = cp->top + i, y = r.y + 1 + i;
		put_fmt(w, y, r.x, setw - 1, A_NORMAL, "%*d", setw - 2, s);
		/* set dueling: this SM's leader sets, d decoupled, p plain (the title says so) */
		int role = inspect_bypass_set_role(c->sim, unit, s);
		if (bi->leader_sets && (role == 0 || role == 1))
			put_text(w, y, r.x + setw - 2, 1, role == 0 ? "d" : "p", role_attr(R_HEADER), false);
		for (int wy = 0; wy < bi->ways; wy++) {
			struct btag_info t;
			if (inspect_bypass_tag(c->sim, unit, s, wy, &t))
				tag_cell(w, y, r.x + setw + wy * f.tcw, &f, bi, &t);
		}
		put_text(w, y, dx, 1, "|", role_attr(R_DIM), false);
		data_cells(w, c, unit, s, y, dx, &f, g);
	}
	if (g->sets - cp->top + 2 <= rows)
		put_fmt(w, r.y + rows, r.x, r.w, role_attr(R_DIM),
			f.wide ? "tag way RC (- candidate)  A alloc + RC up P promoted H hit R reset   data: tag LRU (R reserved)"
			       : "RC way (- candidate)  A alloc + RC up P promoted H hit R reset  data: V/R LRU");
}

/* How one line's cell is laid out (cell_layout works it out per frame). */
struct cell_fmt {
	int cw;   /* cell width with its gap */
	int tw;   /* tag digits */
	int aw;   /* address column width, 0 when there is no room */
	int spl;  /* sector letters shown (0: not sectored) */
	bool coh; /* the coherence state letter after the tag */
};

/* One line: mark, tag [address] [state] flag LRU-rank [sectors]. */
static void line_cell(WINDOW *w, int y, int x, const struct cell_fmt *f, const struct line_info *li)
{
	attr_t a = role_attr(touch_role(li->touched));
	if (!li->valid && !li->transient) {
		char cell[16];
		snprintf(cell, sizeof cell, "%c %s", touch_mark(li->touched), draw_utf8() ? "\xc2\xb7" : "-");
		put_text(w, y, x, f->cw - 1, cell, li->touched ? a : role_attr(R_DIM), false);
		return;
	}
	char sec[12] = "";
	for (int k = 0; k < f->spl; k++)
		sec[k] = (li->sector_dirty >> k) & 1 ? 'D' : (li->sector_valid >> k) & 1 ? 'v' : '.';
	sec[f->spl] = 0;
	char lru = li->lru_rank < 0    ? '-'
		   : li->lru_rank < 10 ? (char)('0' + li->lru_rank)
		   : li->lru_rank < 36 ? (char)('a' + li->lru_rank - 10) : '+';
	char cell[96], addr[32] = "", cst[4] = "";
	if (f->aw)
		snprintf(addr, sizeof addr, " 0x%-*llx", f->aw - 3, (unsigned long long)li->addr);
	if (f->coh)
		snprintf(cst, sizeof cst, " %c", li->coh_state >= 0 ? coh_state_letter((unsigned)li->coh_state) : '?');
	snprintf(cell, sizeof cell, "%c %*llx%s%s %c%c%s%s", touch_mark(li->touched), f->tw, (unsigned long long)li->tag,
		 addr, cst, li->transient ? 'T' : li->dirty ? 'D' : ' ', lru, f->spl ? " " : "", sec);
	if (li->transient && !li->touched)
		a = role_attr(R_STALL);
	put_text(w, y, x, f->cw - 1, cell, a, false);
}

/* The first touched set (-1: none) and the widest tag. The tag column is as
 * wide as the largest tag of a 32-bit address (what the address column
 * assumes too), so cells keep their width from the first cycle on, when
 * every line is still transient; a wider tag widens it. */
static int scan_sets(const struct view_ctx *c, int kind, int unit, const struct cache_geom *g, uint64_t *maxtag)
{
	int first_touched = -1;
	*maxtag = 0xffffffffu / (uint64_t)g->line / (uint64_t)g->sets;
	if (kind == CACHE_L2 && inspect_l2_banks(c->sim) > 1)
		*maxtag /= (uint64_t)inspect_l2_banks(c->sim);
	for (int s = 0; s < g->sets; s++)
		for (int wy = 0; wy < g->ways; wy++) {
			struct line_info li;
			if (!inspect_cache_line(c->sim, kind, unit, s, wy, &li))
				continue;
			if ((li.valid || li.transient) && li.tag > *maxtag)
				*maxtag = li.tag;
			if (li.touched != TOUCH_NONE && first_touched < 0)
				first_touched = s;
		}
	return first_touched;
}

/* Spare rows under the sets (shown: sets drawn): a legend, and what '!'
 * means above it (or alone on the last spare row). */
static void legend(WINDOW *w, struct rect r, int rows, int shown, const struct cell_fmt *f, bool any_all_transient)
{
	if (shown + 2 <= rows)
		put_fmt(w, r.y + rows, r.x, r.w, role_attr(R_DIM),
			"H hit  M miss  F fill (last cycle)   tag%s%s  D dirty  T transient  LRU rank (0 = MRU)%s   %s invalid",
			f->aw ? " addr" : "", f->coh ? " state (MOESI/N/V, ~ transient)" : "",
			f->spl ? "  sectors: v valid D dirty . absent" : "", draw_utf8() ? "\xc2\xb7" : "-");
	int spare = rows - shown;
	if (any_all_transient && spare >= 1)
		put_text(w, r.y + rows - (spare >= 2 ? 1 : 0), r.x, r.w, "N! every way of set N is transient: misses to it wait",
			 role_attr(R_STALL), false);
}

/* Where the grid's columns are this frame. */
struct grid {
	struct rect r;
	int setw;        /* the set number column */
	int way0, wlast; /* the ways shown: [way0, wlast) */
	struct cell_fmt cl;
};

/* The cell layout: tag digits, the coherence letter (L1 with a protocol),
 * sectors, and the address when there is room; *first_touched for the
 * scrolling. */
static struct cell_fmt cell_layout(const struct cache_panel *cp, const struct view_ctx *c, int unit,
				   const struct cache_geom *g, int room, int *first_touched)
{
	int spl = g->sectors_per_line > 1 ? g->sectors_per_line : 0;
	if (spl > 8)
		spl = 8;
	uint64_t maxtag;
	*first_touched = scan_sets(c, cp->kind, unit, g, &maxtag);
	int tw = hex_digits(maxtag);
	/* The L1's coherence state letter after the tag when a protocol is set. */
	bool coh = cp->kind == CACHE_L1 && inspect_coh_proto(c->sim) != NULL;
	/* cell: mark tag [' ' state] ' ' flag lru [' ' sectors] + gap */
	int cw = 1 + 1 + tw + (coh ? 2 : 0) + 1 + 1 + 1 + (spl ? 1 + spl : 0) + 2;
	/* Room to spare: show each line's address too (what `info line` takes). */
	int aw = 0;
	uint64_t maxaddr = (uint64_t)1 << 32;
	if (room >= g->ways * (cw + hex_digits(maxaddr) + 3)) {
		aw = hex_digits(maxaddr) + 3;
		cw += aw;
	}
	return (struct cell_fmt){cw, tw, aw, spl, coh};
}

/* The ways that fit in the width, from way0 (clamped); returns the end of
 * the range shown. */
static int way_window(struct cache_panel *cp, int ways, int width, int cw)
{
	int fit = width / cw;
	if (fit < 1)
		fit = 1;
	if (cp->way0 > ways - fit)
		cp->way0 = ways - fit;
	if (cp->way0 < 0)
		cp->way0 = 0;
	return MIN(ways, cp->way0 + fit);
}

/* The header row: SET, the ways shown ('<' when scrolled right), and a
 * marker at the right edge when ways are cut off. */
static void grid_header(WINDOW *w, const struct grid *gr, int ways)
{
	const struct rect r = gr->r;
	put_text(w, r.y, r.x, gr->setw, "SET", role_attr(R_HEADER), false);
	for (int wy = gr->way0; wy < gr->wlast; wy++)
		put_fmt(w, r.y, r.x + gr->setw + (wy - gr->way0) * gr->cl.cw, gr->cl.cw, role_attr(R_HEADER), "%sway%d",
			wy == gr->way0 && gr->way0 > 0 ? "<" : " ", wy);
	if (gr->wlast < ways)
		put_text(w, r.y, r.x + r.w - 1, 1, draw_marker(), role_attr(R_HEADER), false);
}

/* Set s on row y: its number ('!' when every way is transient), then its
 * lines. Returns whether every way is transient. */
static bool set_row(const struct cache_panel *cp, WINDOW *w, const struct view_ctx *c, int unit, const struct grid *gr,
		    int s, int y, int ways)
{
	const struct rect r = gr->r;
	bool all_transient = false;
	put_fmt(w, y, r.x, gr->setw - 1, A_NORMAL, "%*d", gr->setw - 2, s);
	if (set_all_transient(c->sim, cp->kind, unit, s, ways)) {
		put_fmt(w, y, r.x, gr->setw - 2, role_attr(R_STALL), "%*d", gr->setw - 2, s);
		put_text(w, y, r.x + gr->setw - 2, 1, "!", role_attr(R_STALL), false);
		all_transient = true;
	}
	for (int wy = gr->way0; wy < gr->wlast; wy++) {
		int x = r.x + gr->setw + (wy - gr->way0) * gr->cl.cw;
		struct line_info li;
		if (!inspect_cache_line(c->sim, cp->kind, unit, s, wy, &li))
			continue;
		line_cell(w, y, x, &gr->cl, &li);
	}
	return all_transient;
}

/* The title: the unit and its geometry. */
static void cache_title(const struct cache_panel *cp, int unit, const struct cache_geom *g, char *info, size_t n)
{
	snprintf(info, n, "%s %d  %d sets x %d ways  %dB lines%s", cp->kind == CACHE_L1 ? "sm" : "bank", unit, g->sets,
		 g->ways, g->line, g->sectors_per_line > 1 ? "  sectored" : "");
}

/* The title with a tag store: the policy, this SM's role in the duel, the
 * threshold, both stores' sizes and the bypasses. */
static void tagstore_title(const struct view_ctx *c, int unit, const struct cache_geom *g, const struct byp_info *bi,
			   char *info, size_t n)
{
	static const char *const role[] = {"leader", "leader", "follower"};
	bool set_duel = bi->leader_sets && inspect_bypass_set_role(c->sim, unit, 0) >= 0;
	snprintf(info, n, "sm %d  %s%s%s  T=%d  %d sets x %d tags | %d ways  %llu bypassed%s", unit,
		 bi->decoupled ? "decoupled" : "plain", bi->role >= 0 ? " " : "", bi->role >= 0 ? role[bi->role] : "",
		 bi->threshold, g->sets, bi->ways, g->ways, (unsigned long long)bi->bypasses, set_duel ? "  d/p leaders" : "");
}

/* The set x way grid of one cache, scrolled; '^' / 'v' at the right edge
 * when sets are above or below. */
static void grid_draw(struct cache_panel *cp, WINDOW *w, const struct view_ctx *c, int unit, const struct cache_geom *g,
		      struct rect r)
{
	cp->sets = g->sets;
	cp->ways = g->ways;
	struct grid gr = {.r = r};
	gr.setw = hex_digits((uint64_t)g->sets) > 3 ? 6 : 5; /* decimal set number, right aligned */
	int first_touched;
	gr.cl = cell_layout(cp, c, unit, g, r.w - gr.setw, &first_touched);
	int rows = r.h - 1; /* header */
	if (rows < 1)
		rows = 1;
	scroll_clamp(cp, rows, first_touched);
	gr.wlast = way_window(cp, g->ways, r.w - gr.setw, gr.cl.cw);
	gr.way0 = cp->way0;
	grid_header(w, &gr, g->ways);
	bool any_all_transient = false;
	for (int i = 0; i < rows && cp->top + i < g->sets; i++)
		any_all_transient |= set_row(cp, w, c, unit, &gr, cp->top + i, r.y + 1 + i, g->ways);
	legend(w, r, rows, g->sets - cp->top, &gr.cl, any_all_transient);
	if (cp->top > 0)
		put_text(w, r.y + 1, r.x + r.w - 1, 1, "^", role_attr(R_HEADER), false);
	if (cp->top + rows < g->sets)
		put_text(w, r.y + rows, r.x + r.w - 1, 1, "v", role_attr(R_HEADER), false);
}

static void cache_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct cache_panel *cp = (struct cache_panel *)p;
	struct cache_geom g;
	int unit = cp->kind == CACHE_L1 ? c->sel_sm : c->sel_l2;
	char info[128] = "";
	bool ok = c->sim && inspect_cache_geom(c->sim, cp->kind, unit, &g);
	struct byp_info bi;
	bool tags = ok && cp->kind == CACHE_L1 && inspect_bypass(c->sim, unit, &bi) && bi.sets > 0;
	if (tags)
		tagstore_title(c, unit, &g, &bi, info, sizeof info);
	else if (ok)
		cache_title(cp, unit, &g, info, sizeof info);
	struct rect r = view_frame(p, w, c, info);
	if (!ok)
		put_text(w, r.y, r.x, r.w, c->sim ? "no such cache" : "no simulator", role_attr(R_DIM), false);
	else if (tags)
		tagstore_draw(cp, w, c, &g, &bi, r);
	else
		grid_draw(cp, w, c, unit, &g, r);
}

static int cache_key(struct panel *p, int key, const struct view_ctx *c)
{
	(void)c;
	struct cache_panel *cp = (struct cache_panel *)p;
	int page = cp->visible > 1 ? cp->visible - 1 : 1;
	switch (key) {
	case KEY_UP:
		cp->top--;
		break;
	case KEY_DOWN:
		cp->top++;
		break;
	case KEY_PPAGE:
		cp->top -= page;
		break;
	case KEY_NPAGE:
		cp->top += page;
		break;
	case KEY_LEFT:
		cp->way0--;
		return VK_HANDLED | VK_REDRAW;
	case KEY_RIGHT:
		cp->way0++;
		return VK_HANDLED | VK_REDRAW;
	case KEY_HOME:
		cp->top = 0;
		cp->way0 = 0;
		cp->follow = true;
		return VK_HANDLED | VK_REDRAW;
	case KEY_END:
		cp->top = cp->sets;
		break;
	default:
		return VK_IGNORED;
	}
	cp->follow = false;
	if (cp->top > cp->sets - cp->visible)
		cp->top = cp->sets - cp->visible;
	if (cp->top < 0)
		cp->top = 0;
	return VK_HANDLED | VK_REDRAW;
}

static void cache_reset(struct panel *p)
{
	struct cache_panel *cp = (struct cache_panel *)p;
	cp->top = cp->way0 = 0;
	cp->follow = true;
}

static void cache_free(struct panel *p) { free(p); }

static const struct panel_ops l1_ops = {
	.name = "cache",
	.desc = "L1 of the selected SM, sets x ways",
	.min_w = 24,
	.min_h = 3,
	.draw = cache_draw,
	.key = cache_key,
	.reset = cache_reset,
	.free = cache_free,
};

static const struct panel_ops l2_ops = {
	.name = "l2cache",
	.desc = "the selected L2 bank, sets x ways",
	.min_w = 24,
	.min_h = 3,
	.draw = cache_draw,
	.key = cache_key,
	.reset = cache_reset,
	.free = cache_free,
};

static struct panel *cache_new(enum cache_id_kind k)
{
	struct cache_panel *cp = xcalloc(1, sizeof *cp);
	cp->base.ops = k == CACHE_L1 ? &l1_ops : &l2_ops;
	cp->kind = k;
	cp->follow = true;
	return &cp->base;
}

struct panel *cache_panel_new(void) { return cache_new(CACHE_L1); }
struct panel *l2cache_panel_new(void) { return cache_new(CACHE_L2); }
