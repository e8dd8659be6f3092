/*
 * dram.c: the DRAM panel: each channel as a summary line followed by its
 * banks.
 *
 *   ch0  read q 3/32  write q 0/32  reads 1234  writes 56  bus 23%
 *    BANK STATE       ROW   Q LAST        HITS  MISS  CONF NEXT
 *   0.0   active        31  2 RD  @-4      310    12     7    3
 *
 * HITS/MISS/CONF are row-buffer hits, misses (bank closed) and conflicts
 * (another row open); NEXT is core cycles until the bank's next command may
 * issue; OWN and REMOTE (only under TEMP page colouring, dram.page_alloc =
 * temp, or dram.local_stats, where banks have owners) the SM the bank belongs
 * to and the requests other SMs sent it, "12*" (yellow) when the latest
 * request was one of them. The selected
 * channel/bank is reverse; Up/Down select through `select channel C` /
 * `select bank B`.
 */
#include <stdio.h>
#include <stdlib.h>

#include "draw.h"
#include "debug/inspect.h"
#include "table.h"
#include "sim/util.h"
#include "view.h"

struct dram_panel {
	struct panel base;
	struct table t;
	const struct sim *sim;
	int *map; /* row -> ch << 16 | (bank + 1); bank+1 == 0: channel line */
	int nmap, cap;
	int sel_ch, sel_bank;
	uint64_t now;
};

static const struct table_col cols[] = {
	{"BANK", 5, 0, false}, {"STATE", 11, 0, false}, {"ROW", 7, 0, true}, {"Q", 3, 0, true},
	{"LAST", 10, 0, false}, {"HITS", 6, 0, true},    {"MISS", 6, 0, true}, {"CONF", 6, 0, true},
	{"NEXT", 4, 0, true},  {"OWN", 4, 0, true},     {"REMOTE", 7, 0, true},
};

static void dram_row(void *u, int row, struct table_row *r)
{
	struct dram_panel *dp = u;
	int ch = dp->map[row] >> 16, bank = (dp->map[row] & 0xffff) - 1;
	if (bank < 0) {
		struct dram_chan_info ci;
		r->span = true;
		r->row_attr = role_attr(R_HEADER);
		if (!inspect_dram_channel(dp->sim, ch, &ci)) {
			snprintf(r->text[0], TABLE_CELL, "ch%d", ch);
			return;
		}
		snprintf(r->text[0], TABLE_CELL, "ch%d  read q %d/%d  write q %d/%d%s  reads %llu  writes %llu  bus %.0f%%",
			 ch, ci.read_q, ci.read_cap, ci.write_q, ci.write_cap, ci.draining_writes ? " (draining)" : "",
			 (unsigned long long)ci.reads, (unsigned long long)ci.writes, ci.bus_util * 100.0);
		if (ci.read_q >= ci.read_cap || ci.write_q >= ci.write_cap)
			r->attr[0] = role_attr(R_STALL);
		return;
	}
	struct dram_bank_info b;
	snprintf(r->text[0], TABLE_CELL, "%d.%d", ch, bank);
	if (ch == dp->sel_ch && bank == dp->sel_bank)
		r->row_attr = role_attr(R_SELECT);
	if (!inspect_dram_bank(dp->sim, ch, bank, &b))
		return;
	snprintf(r->text[1], TABLE_CELL, "%s", dram_bank_state_name(b.state));
	if (b.open_row >= 0)
		snprintf(r->text[2], TABLE_CELL, "%lld", (long long)b.open_row);
	else
		snprintf(r->text[2], TABLE_CELL, "-");
	snprintf(r->text[3], TABLE_CELL, "%d", b.queue);
	if (b.last_cmd[0])
		snprintf(r->text[4], TABLE_CELL, "%-3.3s @-%llu", b.last_cmd,
			 (unsigned long long)(dp->now >= b.last_cmd_cycle ? dp->now - b.last_cmd_cycle : 0));
	snprintf(r->text[5], TABLE_CELL, "%llu", (unsigned long long)b.hits);
	snprintf(r->text[6], TABLE_CELL, "%llu", (unsigned long long)b.misses);
	snprintf(r->text[7], TABLE_CELL, "%llu", (unsigned long long)b.conflicts);
	if (b.next_legal >= 0)
		snprintf(r->text[8], TABLE_CELL, "%d", b.next_legal);
	else
		snprintf(r->text[8], TABLE_CELL, "-");
	/* TEMP page colouring (dram.page_alloc = temp / dram.local_stats): the SM
	 * the bank is bound to and the requests from other SMs, yellow and with a
	 * '*' when the latest one was remote. */
	if (b.owner >= 0) {
		snprintf(r->text[9], TABLE_CELL, "sm%d", b.owner);
		snprintf(r->text[10], TABLE_CELL, "%llu%s", (unsigned long long)b.remote, b.last_remote ? "*" : "");
		if (b.last_remote)
			r->attr[10] = role_attr(R_STALL);
	} else {
		snprintf(r->text[9], TABLE_CELL, "-");
		snprintf(r->text[10], TABLE_CELL, "-");
	}
	r->attr[5] = role_attr(R_HIT);
	r->attr[6] = role_attr(R_MISS);
	r->attr[7] = role_attr(R_STALL);
	if (b.state == DBS_IDLE && b.queue == 0)
		r->attr[1] = role_attr(R_DIM);
}

static void dram_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct dram_panel *dp = (struct dram_panel *)p;
	int nch = c->sim ? inspect_dram_channels(c->sim) : 0;
	char info[64] = "";
	if (nch > 0)
		snprintf(info, sizeof info, "%d channel%s  selected ch%d bank%d", nch, nch == 1 ? "" : "s", c->sel_ch,
			 c->sel_bank);
	struct rect r = view_frame(p, w, c, info);
	if (!c->sim || nch <= 0) {
		put_text(w, r.y, r.x, r.w, c->sim ? "fixed-latency memory (no DRAM model)" : "no simulator",
			 role_attr(R_DIM), false);
		return;
	}
	dp->nmap = 0;
	for (int ch = 0; ch < nch; ch++) {
		struct dram_chan_info ci;
		int banks = inspect_dram_channel(c->sim, ch, &ci) ? ci.banks : 0;
		if (dp->nmap + banks + 1 > dp->cap) {
			dp->cap = (dp->nmap + banks + 1) * 2;
			dp->map = xrealloc(dp->map, sizeof(int) * (size_t)dp->cap);
		}
		dp->map[dp->nmap++] = ch << 16;
		for (int b = 0; b < banks; b++)
			dp->map[dp->nmap++] = ch << 16 | (b + 1);
	}
	/* OWN and REMOTE only when banks have owners (TEMP page colouring or
	 * dram.local_stats): otherwise 13 columns of dashes. */
	bool owned = false;
	for (int i = 0; i < dp->nmap && !owned; i++) {
		struct dram_bank_info bi;
		int bank = (dp->map[i] & 0xffff) - 1;
		owned = bank >= 0 && inspect_dram_bank(c->sim, dp->map[i] >> 16, bank, &bi) && bi.owner >= 0;
	}
	dp->t.ncols = (int)ARRAY_LEN(cols) - (owned ? 0 : 2);
	dp->sim = c->sim;
	dp->now = sim_cycle(c->sim);
	/* Keep the selected bank on screen when the selection changes. */
	if (dp->sel_ch != c->sel_ch || dp->sel_bank != c->sel_bank) {
		dp->sel_ch = c->sel_ch;
		dp->sel_bank = c->sel_bank;
		for (int i = 0; i < dp->nmap; i++)
			if (dp->map[i] == (dp->sel_ch << 16 | (dp->sel_bank + 1)))
				table_show(&dp->t, i);
	}
	table_draw(&dp->t, w, r, dp->nmap, false, dram_row, dp);
	dp->sim = NULL;
}

static int dram_key(struct panel *p, int key, const struct view_ctx *c)
{
	struct dram_panel *dp = (struct dram_panel *)p;
	int old = dp->t.sel;
	int res = table_key(&dp->t, key);
	if (!(res & VK_HANDLED) || dp->t.sel == old || !c->sim || dp->nmap == 0)
		return res;
	/* Skip channel lines in the direction of travel. */
	int i = dp->t.sel, dir = i > old ? 1 : -1;
	while (i >= 0 && i < dp->nmap && (dp->map[i] & 0xffff) == 0)
		i += dir;
	if (i < 0 || i >= dp->nmap)
		i = old;
	int ch = dp->map[i] >> 16, bank = (dp->map[i] & 0xffff) - 1;
	if (bank < 0)
		return res;
	dp->t.sel = i;
	snprintf(p->request, sizeof p->request, "select channel %d\nselect bank %d", ch, bank);
	return res | VK_COMMAND | VK_REDRAW;
}

static void dram_reset(struct panel *p) { table_reset(&((struct dram_panel *)p)->t); }

static void dram_free(struct panel *p)
{
	free(((struct dram_panel *)p)->map);
	free(p);
}

static const struct panel_ops dram_ops = {
	.name = "dram",
	.desc = "DRAM channels x banks",
	.min_w = 30,
	.min_h = 3,
	.draw = dram_draw,
	.key = dram_key,
	.reset = dram_reset,
	.free = dram_free,
};

struct panel *dram_panel_new(void)
{
	struct dram_panel *dp = xcalloc(1, sizeof *dp);
	dp->base.ops = &dram_ops;
	dp->sel_ch = dp->sel_bank = -1;
	table_init(&dp->t, cols, (int)ARRAY_LEN(cols), true);
	return &dp->base;
}
