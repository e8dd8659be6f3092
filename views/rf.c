/*
 * rf.c: the `rf` panel: the selected SM's register banks as racetrack strips.
 *
 *   sm 1: reads 3 writes 21 shifts 24 (56 cyc) conflicts 8 | all SMs: reads 3 writes 37 ...
 *   b 3  BML  5  proj  9  shift 5>9 (3 left)  q 2: w4r3 R>9 d4 ~2 | w1r7 R>2 d7
 *        0123....|4567....|89ab....|cdef....   wb: w2r3 R* | -
 *
 * A strip is the bank's rows (domains) left to right, segments separated by
 * '|'; each row shows the warp slot that owns it (0-9a-zA-Z), '.' unused,
 * coloured by the owner (warp slot mod 4: cyan, magenta, blue, default; a
 * colour no other panel uses, so neighbouring warps' bands stand apart and
 * with 4 schedulers the colour is the scheduler). The rows under the ports
 * (offset = the live BML in every segment) are drawn reversed in that colour;
 * the rows a shift is heading for are yellow. With core.schedulers > 1 the
 * counter line adds the schedule hazards (yellow once there was one), a bank
 * two schedulers pulled both ways in the last cycle says HAZARD (yellow), and
 * with rf.warp_reg_remap each bank is labelled with its scheduler (b4 s1).
 * The counter line is the selected SM's smN.rf.* (timed register file) and
 * then the machine-wide rf.* ("all SMs:", with the energy and hazards), then
 * the write-buffer counters (the SM's, all SMs'), cut with the truncation
 * mark where the window ends. proj is the BML of the
 * newest queued request (what RMWS scores against). Queue entries: warp and
 * register, R/W, target BML, distance, ~waited RF cycles; '*' marks the one in
 * service. Write-buffer ways: warp/register, R when the data arrived, '*' when
 * the next request at proj drains it. Wide windows put two lines per bank,
 * narrow ones three. Up/Down/PgUp/PgDn/Home/End scroll over banks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "debug/inspect.h"
#include "sim/util.h"
#include "view.h"

struct rf_panel {
	struct panel base;
	int top;   /* first bank shown */
	int shown; /* banks that fit, from the last draw */
	int banks;
};

static const char warp_glyph[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+#";

/* One group of counters: reads, writes, shifts (racetrack), conflicts. */
static int counts(WINDOW *w, int y, int x, int width, const struct rf_info *fi, const struct rf_counts *n)
{
	int used = put_fmt(w, y, x, width, 0, " reads %llu writes %llu", (unsigned long long)n->reads,
			   (unsigned long long)n->writes);
	if (fi->kind == RF_RACETRACK)
		used += put_fmt(w, y, x + used, width - used, 0, " shifts %llu (%llu cyc)", (unsigned long long)n->shifts,
				(unsigned long long)n->shift_cycles);
	return used + put_fmt(w, y, x + used, width - used, 0, " conflicts %llu", (unsigned long long)n->conflicts);
}

static int wb_counts(WINDOW *w, int y, int x, int width, const struct rf_counts *n)
{
	return put_fmt(w, y, x, width, 0, "wb raw %llu void %llu direct %llu piggy %llu overflow %llu",
		       (unsigned long long)n->wb_reads, (unsigned long long)n->wb_voided,
		       (unsigned long long)n->wb_direct, (unsigned long long)n->wb_piggy,
		       (unsigned long long)n->wb_overflow);
}

/* The selected SM's counters (smN.rf.*, timed RF), then the machine-wide
 * ones with the energy and hazards (rf.*), then the two write buffers' (the
 * SM's, all SMs'); what does not fit is cut with the truncation mark. */
static void header(WINDOW *w, struct rect r, int y, int sm, const struct rf_info *fi)
{
	char e[16];
	int x = r.x;
#define LEFT (r.w - (x - r.x))
	if (fi->per_sm) {
		x += put_fmt(w, y, x, LEFT, role_attr(R_HEADER), "sm %d:", sm);
		x += counts(w, y, x, LEFT, fi, &fi->sm);
		x += put_fmt(w, y, x, LEFT, 0, " | ");
	}
	x += put_fmt(w, y, x, LEFT, role_attr(R_HEADER), "all SMs:");
	x += counts(w, y, x, LEFT, fi, &fi->all);
	x += put_fmt(w, y, x, LEFT, role_attr(R_DIM), ", %s nJ", fmt_si(e, sizeof e, (double)fi->energy_fj / 1e6));
	if (fi->schedulers > 1)
		x += put_fmt(w, y, x, LEFT, role_attr(fi->hazards ? R_STALL : R_NORMAL), ", %d sched%s hazards %llu",
			     fi->schedulers, fi->warp_reg_remap ? " (private banks)" : "", (unsigned long long)fi->hazards);
	if (fi->ways && fi->per_sm) {
		x += put_fmt(w, y, x, LEFT, 0, " | sm %d ", sm);
		x += wb_counts(w, y, x, LEFT, &fi->sm);
	}
	if (fi->ways) {
		x += put_fmt(w, y, x, LEFT, 0, " | all SMs ");
		wb_counts(w, y, x, LEFT, &fi->all);
	}
#undef LEFT
}

/* Queue entries from index 0 into the rest of the line. */
static void queue_text(WINDOW *w, int y, int x, int width, const struct sim *s, int sm, int b, int queued)
{
	int used = put_fmt(w, y, x, width, role_attr(queued > 1 ? R_STALL : R_NORMAL), "q %d:", queued);
	struct rf_req_info q;
	for (int i = 0; used < width && inspect_rf_req(s, sm, b, i, &q); i++)
		used += put_fmt(w, y, x + used, width - used, q.in_service ? role_attr(R_HEADER) : 0, " w%dr%d %c>%d d%d%s~%llu",
				q.warp, q.reg, q.write ? 'W' : 'R', q.bml, q.dist, q.in_service ? "*" : " ",
				(unsigned long long)q.waited);
}

static void wb_text(WINDOW *w, int y, int x, int width, const struct sim *s, int sm, int b, int ways)
{
	int used = put_text(w, y, x, width, "wb:", role_attr(R_DIM), false);
	struct rf_wb_info e;
	for (int k = 0; k < ways && used < width && inspect_rf_wb(s, sm, b, k, &e); k++) {
		if (!e.valid)
			used += put_text(w, y, x + used, width - used, " -", role_attr(R_DIM), false);
		else
			used += put_fmt(w, y, x + used, width - used, role_attr(e.ready ? R_HIT : R_NORMAL), " w%dr%d%s%s",
					e.warp, e.reg, e.ready ? " R" : "", e.at_port ? "*" : "");
	}
}

static int strip(WINDOW *w, int y, int x, int width, const struct sim *s, const struct rf_info *fi, int b,
		 const struct rf_bank_info *bi)
{
	int col = 0;
	for (int row = 0; row < fi->entries && col < width; row++) {
		if (row && row % fi->seg == 0) {
			mvwaddch(w, y, x + col++, '|');
			if (col >= width)
				break;
		}
		int wp, rg;
		bool own = inspect_rf_owner(s, b, row, &wp, &rg);
		attr_t a = own ? role_attr((enum role)(R_OWN0 + (wp & 3))) : role_attr(R_DIM);
		if (row % fi->seg == bi->loc)
			a |= role_attr(R_SELECT); /* the ports: reversed, in the owner's colour */
		else if (bi->shifting && row % fi->seg == bi->to)
			a = role_attr(R_STALL);
		wattrset(w, a);
		mvwaddch(w, y, x + col++, (chtype)(unsigned char)(own ? warp_glyph[wp & 63] : '.'));
		wattrset(w, 0);
	}
	return col;
}

static void rf_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct rf_panel *rp = (struct rf_panel *)p;
	struct rf_info fi;
	char info[160] = "";
	static const char *const remaps[] = {"contiguous", "eq3_3", "balanced"};
	bool on = c->sim && inspect_rf(c->sim, c->sel_sm, &fi);
	if (on)
		snprintf(info, sizeof info, "sm %d  %s %dP seg %d  %s  %d banks x %d  %d regs  RF cycle %llu", c->sel_sm,
			 fi.kind ? "racetrack" : "sram", fi.ports, fi.seg, remaps[fi.remap % 3], fi.banks, fi.entries,
			 fi.nregs, (unsigned long long)fi.rf_now);
	struct rect r = view_frame(p, w, c, info);
	if (!on) {
		put_text(w, r.y, r.x, r.w, "no simulator", role_attr(R_DIM), false);
		return;
	}
	int y = r.y;
	header(w, r, y++, c->sel_sm, &fi);
	if (fi.warning[0] && y < r.y + r.h)
		put_text(w, y++, r.x, r.w, fi.warning, role_attr(R_STALL), false);
	if (!fi.timed) {
		if (y < r.y + r.h)
			put_wrapped(w, y, r.x, r.w, r.y + r.h - y,
				    "free SRAM operand path (rf.sram_cycles 0): no banks to show; `set rf.kind racetrack` "
				    "or `set rf.sram_cycles 1` at cycle 0",
				    role_attr(R_DIM));
		return;
	}
	int stripw = fi.entries + fi.ports - 1;
	bool wide = r.w >= 6 + stripw + 4 + 9 * fi.ways + 30;
	int per = wide ? 2 : 3, avail = r.y + r.h - y;
	rp->banks = fi.banks;
	rp->shown = MAX(1, avail / per);
	if (rp->top > fi.banks - rp->shown)
		rp->top = MAX(0, fi.banks - rp->shown);
	int y0 = y, b = rp->top, bottom = r.y + r.h;
	bool cut = false; /* the last bank drawn lacks rows */
	/* As many banks as fit, the last one with the rows that still fit (its
	 * header and strips) rather than blank rows. */
	for (; b < fi.banks && y < bottom; b++) {
		cut = y + per > bottom;
		struct rf_bank_info bi;
		inspect_rf_bank(c->sim, c->sel_sm, b, &bi);
		int x = r.x;
		x += put_fmt(w, y, x, r.w, role_attr(R_HEADER), "b%-2d", b);
		if (bi.sched >= 0) /* rf.warp_reg_remap: the scheduler whose warps use this bank */
			x += put_fmt(w, y, x, r.w - (x - r.x), 0, " s%d", bi.sched);
		x += put_fmt(w, y, x, r.w - (x - r.x), 0, " BML %2d proj %2d ", bi.loc, bi.tail);
		if (bi.hazard) /* two schedulers pulled this bank both ways in the last cycle */
			x += put_fmt(w, y, x, r.w - (x - r.x), role_attr(R_STALL), "HAZARD ");
		if (bi.shifting)
			x += put_fmt(w, y, x, r.w - (x - r.x), role_attr(R_STALL), "shift %d>%d (%d left) ", bi.from, bi.to,
				     bi.remaining);
		queue_text(w, y, x, r.w - (x - r.x), c->sim, c->sel_sm, b, bi.queued);
		y++;
		if (y >= bottom)
			continue;
		int sx = r.x + 4;
		int used = strip(w, y, sx, r.w - 4, c->sim, &fi, b, &bi);
		if (fi.ways && wide)
			wb_text(w, y, sx + used + 3, r.w - 4 - used - 3, c->sim, c->sel_sm, b, fi.ways);
		y++;
		if (!wide && y < bottom) {
			if (fi.ways)
				wb_text(w, y, r.x + 4, r.w - 4, c->sim, c->sel_sm, b, fi.ways);
			y++;
		}
	}
	/* More banks above / below than fit: the table panels' marks. */
	if (rp->top > 0 && y > y0)
		put_text(w, y0, r.x + r.w - 1, 1, "^", role_attr(R_HEADER), false);
	if ((b < fi.banks || cut) && y > y0)
		put_text(w, y - 1, r.x + r.w - 1, 1, "v", role_attr(R_HEADER), false);
}

static int rf_key(struct panel *p, int key, const struct view_ctx *c)
{
	(void)c;
	struct rf_panel *rp = (struct rf_panel *)p;
	int old = rp->top, page = MAX(1, rp->shown);
	switch (key) {
	case KEY_UP: rp->top--; break;
	case KEY_DOWN: rp->top++; break;
	case KEY_PPAGE: rp->top -= page; break;
	case KEY_NPAGE: rp->top += page; break;
	case KEY_HOME: rp->top = 0; break;
	case KEY_END: rp->top = rp->banks; break;
	default: return VK_IGNORED;
	}
	if (rp->top > rp->banks - page)
		rp->top = rp->banks - page;
	if (rp->top < 0)
		rp->top = 0;
	return rp->top != old ? VK_HANDLED | VK_REDRAW : VK_HANDLED;
}

static void rf_reset(struct panel *p) { ((struct rf_panel *)p)->top = 0; }
static void rf_free(struct panel *p) { free(p); }

static const struct panel_ops rf_ops = {
	.name = "rf",
	.desc = "register file of the selected SM: racetrack tracks, ports, shifts, arbitrator queues, write buffer",
	.min_w = 40,
	.min_h = 4,
	.draw = rf_draw,
	.key = rf_key,
	.reset = rf_reset,
	.free = rf_free,
};

struct panel *rf_panel_new(void)
{
	struct rf_panel *rp = xcalloc(1, sizeof *rp);
	rp->base.ops = &rf_ops;
	return &rp->base;
}
