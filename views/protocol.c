/*
 * protocol.c: the protocol panel: the machine's coherence protocol as its two
 * tables (coh.h), the same rows the engine executes and `protocol` prints
 * (coh_l1_row_text / coh_dir_row_text), with the rows taken marked:
 *
 *   L1 table: state  event -> next  actions  note
 *     I     load     -> IS_D  GetS                         miss: ask for a copy
 *   > IS_D  DataE    -> E     fill|Unblock                 ...
 *   directory table: state  message -> next  actions  note
 *   > I  GetS     -> X  DataE                        no copies: grant E
 *
 * '>' marks the rows of the newest L1 transition's cycle in the L1 table and
 * of the newest directory transition's cycle in the directory table (the
 * transaction log, inspect_coh_tx); they are drawn reverse+yellow when that
 * cycle is the last one simulated, bold when older. The title names the
 * newest L1 transition. The view scrolls to a newly marked row unless you
 * have scrolled; Up/Down/PgUp/PgDn/Home/End scroll.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coh/coh.h"
#include "draw.h"
#include "debug/inspect.h"
#include "table.h"
#include "sim/util.h"
#include "view.h"

#define PROTO_SCAN 512 /* the engine's transaction log */

struct proto_panel {
	struct panel base;
	struct table t;
	const struct coh_proto *p;
	bool l1_mark[64], dir_mark[64]; /* rows taken in the marked cycles */
	bool l1_recent, dir_recent;     /* ... in the last simulated cycle */
	uint64_t shown_cycle;           /* marked cycle the view last scrolled to */
	bool user_scrolled;
};

static const struct table_col cols[] = {
	{"", 1, 0, false},
	{"ROW", 30, 1, false},
};

/* Rows: 0 = L1 title, 1..nl1 = L1 rows, nl1+1 = directory title, then its rows. */
static void proto_row(void *u, int row, struct table_row *r)
{
	struct proto_panel *pp = u;
	const struct coh_proto *p = pp->p;
	int nl1 = (int)p->nl1;
	if (row == 0 || row == nl1 + 1) {
		r->span = true;
		snprintf(r->text[0], TABLE_CELL, "%s",
			 row == 0 ? "L1 table: state  event -> next  actions  note"
				  : "directory table: state  message -> next  actions  note");
		r->row_attr = role_attr(R_HEADER);
		return;
	}
	bool l1 = row <= nl1;
	int i = l1 ? row - 1 : row - nl1 - 2;
	if (l1)
		coh_l1_row_text(&p->l1[i], r->text[1], TABLE_CELL);
	else
		coh_dir_row_text(&p->dir[i], r->text[1], TABLE_CELL);
	bool mark = i < 64 && (l1 ? pp->l1_mark[i] : pp->dir_mark[i]);
	if (mark) {
		r->text[0][0] = '>';
		r->row_attr = role_attr((l1 ? pp->l1_recent : pp->dir_recent) ? R_BREAK : R_HEADER);
	}
}

/* Mark the rows taken in the cycle of the newest L1 and directory transitions.
 * Returns that L1 transition through *nt (false if none). */
static bool mark_rows(struct proto_panel *pp, const struct sim *s, struct coh_tx_info *nt, uint64_t *dcyc)
{
	memset(pp->l1_mark, 0, sizeof pp->l1_mark);
	memset(pp->dir_mark, 0, sizeof pp->dir_mark);
	bool have_l1 = false, have_dir = false;
	uint64_t l1c = 0, dirc = 0;
	struct coh_tx_info t;
	for (uint64_t i = 0; i < PROTO_SCAN && inspect_coh_tx(s, i, &t); i++) {
		if (t.kind == 0 && (!have_l1 || t.cycle == l1c)) {
			if (!have_l1)
				*nt = t;
			have_l1 = true;
			l1c = t.cycle;
			int k = coh_l1_lookup(pp->p, t.from, t.msg);
			if (k >= 0 && k < 64)
				pp->l1_mark[k] = true;
		} else if (t.kind == 1 && (!have_dir || t.cycle == dirc)) {
			have_dir = true;
			dirc = t.cycle;
			int k = coh_dir_lookup(pp->p, t.from, t.msg);
			if (k >= 0 && k < 64)
				pp->dir_mark[k] = true;
		}
		if (have_l1 && have_dir && t.cycle < l1c && t.cycle < dirc)
			break;
	}
	uint64_t now = sim_cycle(s);
	pp->l1_recent = have_l1 && l1c + 1 >= now;
	pp->dir_recent = have_dir && dirc + 1 >= now;
	*dcyc = have_dir ? dirc : 0;
	return have_l1;
}

static void proto_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct proto_panel *pp = (struct proto_panel *)p;
	pp->p = c->sim ? inspect_coh_proto(c->sim) : NULL;
	char info[200] = "";
	struct coh_tx_info nt = {0};
	uint64_t dcyc = 0;
	bool have = pp->p && mark_rows(pp, c->sim, &nt, &dcyc);
	if (pp->p && have)
		snprintf(info, sizeof info, "%s  last L1 transition: cycle %llu sm%d %s %s -> %s", pp->p->name,
			 (unsigned long long)nt.cycle, nt.sm, coh_event_name(nt.msg), coh_state_name(nt.from),
			 coh_state_name(nt.to));
	else if (pp->p)
		snprintf(info, sizeof info, "%s  no transition yet", pp->p->name);
	struct rect r = view_frame(p, w, c, info);
	if (!c->sim) {
		put_text(w, r.y, r.x, r.w, "no simulator", role_attr(R_DIM), false);
		return;
	}
	if (!pp->p) {
		put_wrapped(w, r.y, r.x, r.w, r.h,
			    "no coherence protocol: start with -s coherence.protocol=moesi (or si, nmoesi); `protocol "
			    "moesi` prints one",
			    role_attr(R_DIM));
		return;
	}
	int nrows = (int)(pp->p->nl1 + pp->p->ndir + 2);
	/* Scroll to the newly marked L1 row (or directory row) unless the user scrolled. */
	uint64_t mc = have ? nt.cycle : dcyc;
	if ((have || dcyc) && mc != pp->shown_cycle && !pp->user_scrolled) {
		pp->shown_cycle = mc;
		int first = -1;
		for (unsigned i = 0; i < pp->p->nl1 && i < 64 && first < 0; i++)
			if (pp->l1_mark[i])
				first = (int)i + 1;
		for (unsigned i = 0; i < pp->p->ndir && i < 64 && first < 0; i++)
			if (pp->dir_mark[i])
				first = (int)(pp->p->nl1 + 2 + i);
		int vis = r.h > 1 ? r.h : 1;
		if (first >= 0 && (first < pp->t.top || first >= pp->t.top + vis)) {
			pp->t.top = first - vis / 3;
			if (pp->t.top < 0)
				pp->t.top = 0;
			pp->t.sel = first;
		}
	}
	table_draw(&pp->t, w, r, nrows, c->focused, proto_row, pp);
	pp->p = NULL;
}

static int proto_key(struct panel *p, int key, const struct view_ctx *c)
{
	(void)c;
	struct proto_panel *pp = (struct proto_panel *)p;
	int res = table_key(&pp->t, key);
	if (res)
		pp->user_scrolled = key != KEY_HOME;
	return res;
}

static void proto_reset(struct panel *p)
{
	struct proto_panel *pp = (struct proto_panel *)p;
	table_reset(&pp->t);
	pp->shown_cycle = 0;
	pp->user_scrolled = false;
}

static void proto_free(struct panel *p) { free(p); }

static const struct panel_ops proto_ops = {
	.name = "protocol",
	.desc = "the coherence protocol's L1 and directory tables, the rows just taken marked",
	.min_w = 40,
	.min_h = 3,
	.draw = proto_draw,
	.key = proto_key,
	.reset = proto_reset,
	.free = proto_free,
};

struct panel *protocol_panel_new(void)
{
	struct proto_panel *pp = xcalloc(1, sizeof *pp);
	pp->base.ops = &proto_ops;
	table_init(&pp->t, cols, (int)ARRAY_LEN(cols), false);
	return &pp->base;
}
