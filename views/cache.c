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

/* The decoupled tag store beside the data store (l1.bypass = locality). */
static void tagstore_draw(struct cache_panel *cp, WINDOW *w, const struct view_ctx *c, const struct cache_geom *g,
			  const struct byp_info *bi, struct rect r)
{
	int unit = c->sel_sm;
	cp->sets = g->sets;
	cp->ways = bi->ways;
	int first_touched = -1;
	uint64_t maxtag = 0xfff;
	uint64_t tdiv = (uint64_t)g->line * (uint64_t)g->sets;
	for (int s = 0; s < g->sets; s++)
		for (int wy = 0; wy < bi->ways; wy++) {
			struct btag_info t;
			if (!inspect_bypass_tag(c->sim, unit, s, wy, &t) || !t.valid)
				continue;
			if (t.addr / tdiv > maxtag)
				maxtag = t.addr / tdiv;
			if (t.touched != BTT_NONE && first_touched < 0)
				first_touched = s;
		}
	int tw = hex_digits(maxtag);
	int setw = 5;
	/* Wide: tags shown; narrow (under 80 + 12 x tag digits): RC and way only. */
	bool wide = setw + bi->ways * (tw + 6) + 2 + g->ways * (tw + 3) + 3 <= r.w;
	int tcw = wide ? tw + 6 : 6; /* "P1a2f 0  3 " or "P 3 0 " */
	int dcw = wide ? tw + 3 : 3; /* "1a2f 0 " or "V0 " */
	int rows = r.h - 1;
	if (rows < 1)
		rows = 1;
	scroll_clamp(cp, rows, first_touched);
	int dx = r.x + setw + bi->ways * tcw; /* data store column */
	put_text(w, r.y, r.x, setw, "SET", role_attr(R_HEADER), false);
	for (int wy = 0; wy < bi->ways; wy++)
		put_fmt(w, r.y, r.x + setw + wy * tcw, tcw, role_attr(R_HEADER), wide ? "tag%d" : "t%d", wy);
	put_fmt(w, r.y, dx, r.x + r.w - dx, role_attr(R_HEADER), wide ? "| data ways 0-%d  free" : "| data free",
		g->ways - 1);
	for (int i = 0; i < rows && cp->top + i < g->sets; i++) {
		int s = cp->top + i, y = r.y + 1 + i;
		put_fmt(w, y, r.x, setw - 1, A_NORMAL, "%*d", setw - 2, s);
		/* set dueling: this SM's leader sets, d decoupled, p plain (the title says so) */
		int role = inspect_bypass_set_role(c->sim, unit, s);
		if (bi->leader_sets && (role == 0 || role == 1))
			put_text(w, y, r.x + setw - 2, 1, role == 0 ? "d" : "p", role_attr(R_HEADER), false);
		for (int wy = 0; wy < bi->ways; wy++) {
			int x = r.x + setw + wy * tcw;
			struct btag_info t;
			if (!inspect_bypass_tag(c->sim, unit, s, wy, &t))
				continue;
			if (!t.valid) {
				put_fmt(w, y, x, tcw - 1, role_attr(R_DIM), "%c %s", btouch_mark(t.touched),
					draw_utf8() ? "\xc2\xb7" : "-");
				continue;
			}
			attr_t a = t.touched == BTT_PROMOTE || t.touched == BTT_HIT ? role_attr(R_HIT)
				   : t.touched == BTT_RESET			  ? role_attr(R_STALL)
				   : t.touched != BTT_NONE			  ? role_attr(R_MISS)
				   : t.pos >= 0 || t.rc >= bi->threshold	  ? A_NORMAL
										  : role_attr(R_DIM);
			char pos = t.pos >= 0 ? (char)('0' + t.pos % 10) : '-';
			if (wide)
				put_fmt(w, y, x, tcw - 1, a, "%c%*llx %c%2d", btouch_mark(t.touched), tw,
					(unsigned long long)(t.addr / tdiv), pos, t.rc);
			else
				put_fmt(w, y, x, tcw - 1, a, "%c%2d %c", btouch_mark(t.touched), t.rc, pos);
		}
		put_text(w, y, dx, 1, "|", role_attr(R_DIM), false);
		int nfree = 0;
		for (int wy = 0; wy < g->ways; wy++) {
			int x = dx + 2 + wy * dcw;
			struct line_info li;
			if (!inspect_cache_line(c->sim, CACHE_L1, unit, s, wy, &li))
				continue;
			if (!li.valid && !li.transient) {
				nfree++;
				put_text(w, y, x, dcw - 1, draw_utf8() ? "\xc2\xb7" : "-", role_attr(R_DIM), false);
				continue;
			}
			char lru = li.lru_rank < 0 ? '-' : li.lru_rank < 10 ? (char)('0' + li.lru_rank) : '+';
			attr_t a = li.transient ? role_attr(R_STALL) : role_attr(touch_role(li.touched));
			if (wide)
				put_fmt(w, y, x, dcw - 1, a, "%*llx %c", tw, (unsigned long long)li.tag,
					li.transient ? 'R' : lru);
			else
				put_fmt(w, y, x, dcw - 1, a, "%c%c", li.transient ? 'R' : 'V', lru);
		}
		put_fmt(w, y, dx + 2 + g->ways * dcw, 4, A_NORMAL, "%d", nfree);
	}
	if (g->sets - cp->top + 2 <= rows)
		put_fmt(w, r.y + rows, r.x, r.w, role_attr(R_DIM),
			wide ? "tag way RC (- candidate)  A alloc + RC up P promoted H hit R reset   data: tag LRU (R reserved)"
			     : "RC way (- candidate)  A alloc + RC up P promoted H hit R reset  data: V/R LRU");
}

/* How one line's cell is laid out (cache_draw works it out per frame). */
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

static void cache_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct cache_panel *cp = (struct cache_panel *)p;
	struct cache_geom g;
	int unit = cp->kind == CACHE_L1 ? c->sel_sm : c->sel_l2;
	char info[128] = "";
	bool ok = c->sim && inspect_cache_geom(c->sim, cp->kind, unit, &g);
	if (ok)
		snprintf(info, sizeof info, "%s %d  %d sets x %d ways  %dB lines%s", cp->kind == CACHE_L1 ? "sm" : "bank",
			 unit, g.sets, g.ways, g.line, g.sectors_per_line > 1 ? "  sectored" : "");
	struct byp_info bi;
	bool tags = ok && cp->kind == CACHE_L1 && inspect_bypass(c->sim, unit, &bi) && bi.sets > 0;
	if (tags) {
		static const char *const role[] = {"leader", "leader", "follower"};
		bool set_duel = bi.leader_sets && inspect_bypass_set_role(c->sim, unit, 0) >= 0;
		snprintf(info, sizeof info, "sm %d  %s%s%s  T=%d  %d sets x %d tags | %d ways  %llu bypassed%s", unit,
			 bi.decoupled ? "decoupled" : "plain", bi.role >= 0 ? " " : "", bi.role >= 0 ? role[bi.role] : "",
			 bi.threshold, g.sets, bi.ways, g.ways, (unsigned long long)bi.bypasses,
			 set_duel ? "  d/p leaders" : "");
	}
	struct rect r = view_frame(p, w, c, info);
	if (!ok) {
		put_text(w, r.y, r.x, r.w, c->sim ? "no such cache" : "no simulator", role_attr(R_DIM), false);
		return;
	}
	if (tags) {
		tagstore_draw(cp, w, c, &g, &bi, r);
		return;
	}
	cp->sets = g.sets;
	cp->ways = g.ways;
	int spl = g.sectors_per_line > 1 ? g.sectors_per_line : 0;
	if (spl > 8)
		spl = 8;

	uint64_t maxtag;
	int first_touched = scan_sets(c, cp->kind, unit, &g, &maxtag);
	int tw = hex_digits(maxtag);
	/* The L1's coherence state letter after the tag when a protocol is set. */
	bool coh = cp->kind == CACHE_L1 && inspect_coh_proto(c->sim) != NULL;
	/* cell: mark tag [' ' state] ' ' flag lru [' ' sectors] + gap */
	int cw = 1 + 1 + tw + (coh ? 2 : 0) + 1 + 1 + 1 + (spl ? 1 + spl : 0) + 2;
	int setw = hex_digits((uint64_t)g.sets) > 3 ? 6 : 5; /* decimal set number, right aligned */
	/* Room to spare: show each line's address too (what `info line` takes). */
	int aw = 0;
	uint64_t maxaddr = (uint64_t)1 << 32;
	if (r.w - setw >= g.ways * (cw + hex_digits(maxaddr) + 3)) {
		aw = hex_digits(maxaddr) + 3;
		cw += aw;
	}
	const struct cell_fmt cl = {cw, tw, aw, spl, coh};

	int rows = r.h - 1; /* header */
	if (rows < 1)
		rows = 1;
	scroll_clamp(cp, rows, first_touched);
	int fit = (r.w - setw) / cw;
	if (fit < 1)
		fit = 1;
	if (cp->way0 > g.ways - fit)
		cp->way0 = g.ways - fit;
	if (cp->way0 < 0)
		cp->way0 = 0;
	int wlast = MIN(g.ways, cp->way0 + fit);

	put_text(w, r.y, r.x, setw, "SET", role_attr(R_HEADER), false);
	for (int wy = cp->way0; wy < wlast; wy++)
		put_fmt(w, r.y, r.x + setw + (wy - cp->way0) * cw, cw, role_attr(R_HEADER), "%sway%d",
			wy == cp->way0 && cp->way0 > 0 ? "<" : " ", wy);
	if (wlast < g.ways)
		put_text(w, r.y, r.x + r.w - 1, 1, draw_marker(), role_attr(R_HEADER), false);

	bool any_all_transient = false;
	for (int i = 0; i < rows && cp->top + i < g.sets; i++) {
		int s = cp->top + i, y = r.y + 1 + i;
		put_fmt(w, y, r.x, setw - 1, A_NORMAL, "%*d", setw - 2, s);
		if (set_all_transient(c->sim, cp->kind, unit, s, g.ways)) {
			put_fmt(w, y, r.x, setw - 2, role_attr(R_STALL), "%*d", setw - 2, s);
			put_text(w, y, r.x + setw - 2, 1, "!", role_attr(R_STALL), false);
			any_all_transient = true;
		}
		for (int wy = cp->way0; wy < wlast; wy++) {
			int x = r.x + setw + (wy - cp->way0) * cw;
			struct line_info li;
			if (!inspect_cache_line(c->sim, cp->kind, unit, s, wy, &li))
				continue;
			line_cell(w, y, x, &cl, &li);
		}
	}
	legend(w, r, rows, g.sets - cp->top, &cl, any_all_transient);
	if (cp->top > 0)
		put_text(w, r.y + 1, r.x + r.w - 1, 1, "^", role_attr(R_HEADER), false);
	if (cp->top + rows < g.sets)
		put_text(w, r.y + rows, r.x + r.w - 1, 1, "v", role_attr(R_HEADER), false);
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
