/*
 * mshr.c: the MSHR panel: the selected SM's L1 MSHRs above the selected L2
 * bank's, each as
 *
 *   L1 sm0 [#####.....] 12/32  wait 3/8  retry 1  missq 2  full 17
 *   (plus `acks N` after missq while invalidation Acks wait on their channel)
 *   occ ▁▁▂▃▅▅▇█▇▅▃                       <- occupancy over recent cycles
 *   #   ADDR        MRG AGE  SENT WAITERS
 *   0   0x10080       3  41  yes  w3 w5 w9
 *
 * Only valid entries are listed. On a sectored cache (Volta) an entry fetches
 * some sectors of its line: ADDR is the first one's address, with '+' when it
 * fetches more. Waiters are warp slots for the L1 and requesting SMs for the
 * L2, in arrival order, a run of requests from one as w3*2. Arrow keys scroll the L1 list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "debug/inspect.h"
#include "table.h"
#include "sim/util.h"
#include "view.h"

struct mshr_section {
	struct table t;
	int *idx; /* valid entry indices */
	int nidx, cap;
	enum cache_id_kind kind;
	int unit;
};

struct mshr_panel {
	struct panel base;
	struct mshr_section sec[2]; /* L1, L2 */
	const struct sim *sim;
	uint16_t hist[512];
	unsigned gen;  /* the last `select mshr` acted on */
	int keysec;    /* the section the cursor keys move: 0 L1, 1 L2 (after `select mshr l2`) */
};

static const struct table_col cols[] = {
	{"#", 3, 0, true},    {"ADDR", 12, 0, false}, {"MRG", 3, 0, true},
	{"AGE", 5, 0, true},  {"SENT", 4, 0, false},  {"WAITERS", 8, 1, false},
};

struct row_ctx {
	struct mshr_panel *mp;
	struct mshr_section *s;
};

static void entry_row(void *u, int row, struct table_row *r)
{
	struct row_ctx *rc = u;
	struct mshr_entry_info e;
	int i = rc->s->idx[row];
	snprintf(r->text[0], TABLE_CELL, "%d", i);
	if (!inspect_mshr_entry(rc->mp->sim, rc->s->kind, rc->s->unit, i, &e) || !e.valid)
		return;
	/* Sectored caches keep one entry per line and sector set: the address of
	 * the first sector fetched, '+' when the entry fetches more than one. */
	uint64_t a = e.addr;
	bool more = false;
	if (e.sector_bytes && e.sectors) {
		int first = __builtin_ctz(e.sectors);
		a += (uint64_t)first * (uint64_t)e.sector_bytes;
		more = (e.sectors & (e.sectors - 1)) != 0;
	}
	snprintf(r->text[1], TABLE_CELL, "0x%llx%s", (unsigned long long)a, more ? "+" : "");
	snprintf(r->text[2], TABLE_CELL, "%d", e.merged);
	snprintf(r->text[3], TABLE_CELL, "%llu", (unsigned long long)e.age);
	snprintf(r->text[4], TABLE_CELL, "%s", e.sent ? "yes" : "no");
	char *o = r->text[5];
	size_t left = TABLE_CELL;
	int nw = e.nwaiters < INSPECT_MAX_WAITERS ? e.nwaiters : INSPECT_MAX_WAITERS;
	/* A waiter with several requests in the entry once, as w3*2. */
	for (int k = 0, first = 1; k < nw && left > 8; first = 0) {
		int run = 1;
		while (k + run < nw && e.waiters[k + run] == e.waiters[k])
			run++;
		int n = snprintf(o, left, "%s%s%d", first ? "" : " ", rc->s->kind == CACHE_L1 ? "w" : "sm",
				 e.waiters[k]);
		if (n > 0 && (size_t)n < left && run > 1)
			n += snprintf(o + n, left - (size_t)n, "*%d", run);
		if (n < 0 || (size_t)n >= left)
			break;
		o += n;
		left -= (size_t)n;
		k += run;
	}
	if (e.nwaiters > nw && left > 8)
		snprintf(o, left, " +%d", e.nwaiters - nw);
	if (!e.sent)
		r->attr[4] = role_attr(R_STALL);
}

/* Draw one section into rows [y, y+h); returns rows used. */
static int draw_section(struct mshr_panel *mp, struct mshr_section *s, WINDOW *w, struct rect r,
			bool focused, int pick)
{
	struct mshr_info mi;
	char label[32];
	if (s->kind == CACHE_L1)
		snprintf(label, sizeof label, "L1 sm%d", s->unit);
	else
		snprintf(label, sizeof label, "L2 bank%d", s->unit);
	if (!inspect_mshr(mp->sim, s->kind, s->unit, &mi)) {
		put_fmt(w, r.y, r.x, r.w, role_attr(R_DIM), "%s: no MSHRs", label);
		return 1;
	}
	int x = r.x;
	x += put_text(w, r.y, x, r.w, label, role_attr(R_HEADER), false);
	x += put_text(w, r.y, x, r.x + r.w - x, " ", A_NORMAL, false);
	if (r.x + r.w - x >= 12) {
		put_bar(w, r.y, x, 12, (uint64_t)mi.used, (uint64_t)mi.limit);
		x += 12;
	}
	char tail[176], acks[24] = "", head[40] = ""; /* Acks on their own channel (icnt.ack_channel), shown while any wait */
	if (mi.ack_queue)
		snprintf(acks, sizeof acks, "  acks %d", mi.ack_queue);
	if (mi.head_wait >= 0) /* l2.when_busy = queue: the head waits instead of a NACK */
		snprintf(head, sizeof head, "  head waits: %s", event_field_code_name(EV_L2_NACK, EVF_A, mi.head_wait));
	snprintf(tail, sizeof tail, " %d/%d  wait %d/%d  retry %d  missq %d%s%s  full %llu", mi.used, mi.limit,
		 mi.wait_queue, mi.wait_cap, mi.retry_queue, mi.miss_queue, acks, head, (unsigned long long)mi.full_events);
	put_text(w, r.y, x, r.x + r.w - x, tail, mi.used >= mi.limit ? role_attr(R_STALL) : A_NORMAL, false);
	int used = 1;
	if (r.h >= 4) {
		int n = r.w - 4 < (int)ARRAY_LEN(mp->hist) ? r.w - 4 : (int)ARRAY_LEN(mp->hist);
		if (n > 0) {
			int got = inspect_mshr_history(mp->sim, s->kind, s->unit, mp->hist, n);
			put_text(w, r.y + 1, r.x, 4, "occ ", role_attr(R_DIM), false);
			put_spark(w, r.y + 1, r.x + 4, n, mp->hist, got, (unsigned)mi.limit);
		}
		used = 2;
	}
	if (mi.entries > s->cap) {
		s->cap = mi.entries;
		s->idx = xrealloc(s->idx, sizeof(int) * (size_t)s->cap);
	}
	s->nidx = 0;
	for (int i = 0; i < mi.entries; i++) {
		struct mshr_entry_info e;
		if (inspect_mshr_entry(mp->sim, s->kind, s->unit, i, &e) && e.valid)
			s->idx[s->nidx++] = i;
	}
	for (int k = 0; pick >= 0 && k < s->nidx; k++) /* `select mshr`: the cursor on that entry */
		if (s->idx[k] == pick) {
			s->t.nrows = s->nidx;
			table_show(&s->t, k);
		}
	struct rect tr = {.y = r.y + used, .x = r.x, .h = r.h - used, .w = r.w};
	if (tr.h >= 1) {
		struct row_ctx rc = {mp, s};
		s->t.header = tr.h >= 2 || s->nidx == 0; /* one row: an entry rather than the column names */
		table_draw(&s->t, w, tr, s->nidx, focused, entry_row, &rc);
		if (s->nidx == 0 && tr.h >= 2)
			put_text(w, tr.y + 1, tr.x, tr.w, "(no entries in use)", role_attr(R_DIM), false);
		used = r.h;
	}
	return used;
}

static void mshr_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct mshr_panel *mp = (struct mshr_panel *)p;
	struct rect r = view_frame(p, w, c, "");
	if (!c->sim) {
		put_text(w, r.y, r.x, r.w, "no simulator", role_attr(R_DIM), false);
		return;
	}
	mp->sim = c->sim;
	mp->sec[0].unit = c->sel_sm;
	mp->sec[1].unit = c->sel_l2;
	int pick[2] = {-1, -1};
	if (c->sel_mshr_gen != mp->gen) { /* a new selection: move to it once */
		mp->gen = c->sel_mshr_gen;
		mp->keysec = c->sel_mshr_level ? 1 : 0;
		pick[mp->keysec] = c->sel_mshr;
	}
	bool f0 = c->focused && mp->keysec == 0, f1 = c->focused && mp->keysec == 1;
	/* The L1 gets the top half, the L2 the rest; when short (80x24) without
	 * the rule between them, down to one summary line each. */
	if (r.h >= 8) {
		int h1 = (r.h + 1) / 2;
		draw_section(mp, &mp->sec[0], w, (struct rect){r.y, r.x, h1 - 1, r.w}, f0, pick[0]);
		put_hline(w, r.y + h1 - 1, r.x, r.w, role_attr(R_DIM));
		draw_section(mp, &mp->sec[1], w, (struct rect){r.y + h1, r.x, r.h - h1, r.w}, f1, pick[1]);
	} else if (r.h >= 2) {
		int h1 = (r.h + 1) / 2;
		draw_section(mp, &mp->sec[0], w, (struct rect){r.y, r.x, h1, r.w}, f0, pick[0]);
		draw_section(mp, &mp->sec[1], w, (struct rect){r.y + h1, r.x, r.h - h1, r.w}, f1, pick[1]);
	} else {
		draw_section(mp, &mp->sec[0], w, r, c->focused, pick[0]);
	}
	mp->sim = NULL;
}

static int mshr_key(struct panel *p, int key, const struct view_ctx *c)
{
	(void)c;
	struct mshr_panel *mp = (struct mshr_panel *)p;
	return table_key(&mp->sec[mp->keysec].t, key);
}

static void mshr_reset(struct panel *p)
{
	struct mshr_panel *mp = (struct mshr_panel *)p;
	table_reset(&mp->sec[0].t);
	table_reset(&mp->sec[1].t);
}

static void mshr_free(struct panel *p)
{
	struct mshr_panel *mp = (struct mshr_panel *)p;
	free(mp->sec[0].idx);
	free(mp->sec[1].idx);
	free(mp);
}

static const struct panel_ops mshr_ops = {
	.name = "mshr",
	.desc = "MSHRs of the selected L1 and L2 bank",
	.min_w = 36,
	.min_h = 4,
	.draw = mshr_draw,
	.key = mshr_key,
	.reset = mshr_reset,
	.free = mshr_free,
};

struct panel *mshr_panel_new(void)
{
	struct mshr_panel *mp = xcalloc(1, sizeof *mp);
	mp->base.ops = &mshr_ops;
	mp->sec[0].kind = CACHE_L1;
	mp->sec[1].kind = CACHE_L2;
	table_init(&mp->sec[0].t, cols, (int)ARRAY_LEN(cols), true);
	table_init(&mp->sec[1].t, cols, (int)ARRAY_LEN(cols), true);
	return &mp->base;
}
