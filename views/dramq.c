/*
 * dramq.c: the dramq panel: the selected DRAM bank's queue, oldest first,
 * and what the channel's scheduler does next with why, so FR-FCFS
 * reordering can be watched cycle by cycle (engine/dram/dram_queue.h).
 *
 *   ─ dramq  ch0 bank 0  open row 0  hits run 9/16 ───────────────
 *   next: PRE now for #0 -- oldest; nothing waiting hits open row 0 ...
 *     #  Q     ROW   ADDR          AGE  HIT
 *   > 0  rd      1   0x10008400    114
 *     1  rd      0   0x10000480      3  hit
 *
 * '>' and bold: the request the next command serves; HIT (green): its row is
 * the open row; a started request (its column commands have begun) is
 * `busy`. Up/Down scroll.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dram/dram_queue.h"
#include "draw.h"
#include "debug/inspect.h"
#include "table.h"
#include "sim/util.h"
#include "view.h"

#define DQ_MAX 256

struct dramq_panel {
	struct panel base;
	struct table t;
	struct dram_qreq_info q[DQ_MAX];
	int n, pick;
	int last_pick; /* the view scrolls to a new pick, else stays where scrolled */
	uint64_t last_addr;
};

static const struct table_col cols[] = {
	{"#", 3, 0, true},      {"Q", 4, 0, false}, {"ROW", 5, 0, true},
	{"ADDR", 10, 0, false}, {"AGE", 5, 0, true}, {"HIT", 3, 1, false},
};

static void q_row(void *u, int row, struct table_row *r)
{
	struct dramq_panel *dp = u;
	const struct dram_qreq_info *q = &dp->q[row];
	snprintf(r->text[0], TABLE_CELL, "%s%d", row == dp->pick ? ">" : "", row);
	snprintf(r->text[1], TABLE_CELL, "%s", q->started ? "busy" : q->write ? "wr" : "rd");
	snprintf(r->text[2], TABLE_CELL, "%lld", (long long)q->row);
	snprintf(r->text[3], TABLE_CELL, "0x%llx", (unsigned long long)q->addr);
	snprintf(r->text[4], TABLE_CELL, "%llu", (unsigned long long)q->age);
	if (q->row_hit) {
		snprintf(r->text[5], TABLE_CELL, "hit");
		r->attr[5] = role_attr(R_HIT);
	}
	if (row == dp->pick)
		r->row_attr |= role_attr(R_HEADER);
}

static void dramq_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct dramq_panel *dp = (struct dramq_panel *)p;
	struct dram_pick_info pk;
	bool ok = c->sim && inspect_dram_pick(c->sim, c->sel_ch, c->sel_bank, &pk);
	char info[96] = "";
	if (ok) {
		int n = snprintf(info, sizeof info, "ch%d bank %d  ", c->sel_ch, c->sel_bank);
		if (pk.open_row >= 0)
			n += snprintf(info + n, sizeof info - (size_t)n, "open row %lld", (long long)pk.open_row);
		else
			n += snprintf(info + n, sizeof info - (size_t)n, "closed");
		if (pk.frfcfs && pk.open_row >= 0 && pk.row_hit_cap)
			snprintf(info + n, sizeof info - (size_t)n, "  hits run %u/%d", pk.hits_run, pk.row_hit_cap);
	}
	struct rect r = view_frame(p, w, c, info);
	if (!ok) {
		put_text(w, r.y, r.x, r.w, c->sim ? "no DRAM (mem.model is not dram)" : "no simulator", role_attr(R_DIM),
			 false);
		return;
	}
	char line[256];
	if (pk.cmd[0]) {
		char when[24] = "", whom[24] = "";
		if (pk.next_in == 0)
			snprintf(when, sizeof when, " now");
		else if (pk.next_in > 0)
			snprintf(when, sizeof when, " in %d", pk.next_in);
		if (pk.pick >= 0)
			snprintf(whom, sizeof whom, " for #%d", pk.pick);
		snprintf(line, sizeof line, "next: %s%s%s -- %s", pk.cmd, when, whom, pk.why);
	} else {
		snprintf(line, sizeof line, "next: nothing -- %s", pk.why);
	}
	/* The reason may need two rows at 80 columns. */
	int used = put_wrapped(w, r.y, r.x, r.w, r.h > 3 ? 2 : 1, line, A_NORMAL);
	dp->n = inspect_dram_queue(c->sim, c->sel_ch, c->sel_bank, dp->q, DQ_MAX);
	if (dp->n > DQ_MAX)
		dp->n = DQ_MAX;
	dp->pick = pk.pick;
	struct rect tr = {r.y + used, r.x, r.h - used, r.w};
	if (dp->n <= 0) {
		if (tr.h > 0)
			put_text(w, tr.y, tr.x, tr.w, "(nothing queued)", role_attr(R_DIM), false);
		return;
	}
	if (dp->pick >= 0 && (dp->pick != dp->last_pick || dp->q[dp->pick].addr != dp->last_addr))
		table_show(&dp->t, dp->pick);
	dp->last_pick = dp->pick;
	dp->last_addr = dp->pick >= 0 ? dp->q[dp->pick].addr : 0;
	table_draw(&dp->t, w, tr, dp->n, c->focused, q_row, dp);
}

static int dramq_key(struct panel *p, int key, const struct view_ctx *c)
{
	(void)c;
	return table_key(&((struct dramq_panel *)p)->t, key);
}

static void dramq_reset(struct panel *p) { table_reset(&((struct dramq_panel *)p)->t); }
static void dramq_free(struct panel *p) { free(p); }

static const struct panel_ops dramq_ops = {
	.name = "dramq",
	.desc = "the selected DRAM bank's queue and the scheduler's next pick with why",
	.min_w = 30,
	.min_h = 3,
	.draw = dramq_draw,
	.key = dramq_key,
	.reset = dramq_reset,
	.free = dramq_free,
};

struct panel *dramq_panel_new(void)
{
	struct dramq_panel *dp = xcalloc(1, sizeof *dp);
	dp->base.ops = &dramq_ops;
	table_init(&dp->t, cols, (int)ARRAY_LEN(cols), true);
	dp->last_pick = -1;
	return &dp->base;
}
