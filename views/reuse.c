/*
 * reuse.c: the reuse-distance panel: the profiler's histogram for one cache
 * as horizontal bars, the LRU cut-off, infinity split into never-seen and
 * in-flight, and the miss-class breakdown beside it (docs/REUSE.md).
 *
 *   DIST     COUNT     %                         | CLASS        COUNT     %
 *      0      5035  20.3 ██████████              | hit          16332  65.8
 *      3      1905   7.7 ████                    | compulsory     768   3.1
 *   ── cut-off: 4 ways ──────────────────────    | ...
 *      4       606   2.4 █                       |
 *   >=16      1748   7.0 ███                     |
 *   inf new    768   3.1 █                       |
 *   inf fly   4018  16.2 ███████                 |
 *
 * After `model`, the set view of an L1 adds the model's histogram: a MODEL
 * column (share of the model's accesses per bin) and a marker on each bar
 * (bars then scale by share, so the two compare although the model sees
 * one core and a capped thread count):
 *
 *   DIST     COUNT     %  MODEL%
 *      0      5035  20.3    22.1 █████████|
 *
 * Keys: Left/Right cache (L1 of the selected SM, all L1s, the selected L2
 * bank, all L2 banks); PgDn/PgUp view (set, fully associative, one set);
 * Up/Down scroll, or in the one-set view choose the set; Home log scale.
 * When a reuse.* breakpoint fires the panel shows that cache and marks the bin.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "draw.h"
#include "debug/inspect.h"
#include "reuse/reuse.h"
#include "sim/util.h"
#include "view.h"

enum { RC_L1_SEL, RC_L1_ALL, RC_L2_SEL, RC_L2_ALL, RC_MODES };

struct reuse_panel {
	struct panel base;
	int mode, view, set, scroll;
	bool logscale;
	uint64_t stop_seen; /* cycle+addr of the last breakpoint event followed */
	struct reuse_info ri; /* scratch: large */
};

static const char *const view_names[RV__COUNT] = {"set view", "fully assoc.", "one set"};

static bool is_reuse_event(const struct event *e)
{
	return e && (e->kind == EV_REUSE_ACCESS || e->kind == EV_REUSE_INF || e->kind == EV_REUSE_CLASS);
}

/* Bin of the breakpoint's access in the shown histogram, or -1. */
static int break_bin(const struct reuse_panel *rp, const struct reuse_info *ri, const struct event *e)
{
	if (!is_reuse_event(e) || !ri->has_last || ri->last_addr != e->addr)
		return -1;
	if (rp->view == RV_ONESET && e->set != rp->set)
		return -1;
	if (e->b == RC_LATENCY)
		return ri->nbins + 2;
	int64_t d = rp->view == RV_FA ? ri->last_dfa : ri->last_d;
	if (d < 0)
		return ri->nbins + 1;
	if ((uint64_t)d >= ri->cap)
		return ri->nbins;
	return (int)(d / ri->bin_width);
}

static void bin_label(const struct reuse_info *ri, int b, char *buf, size_t n)
{
	if (b == ri->nbins)
		snprintf(buf, n, ">=%llu", (unsigned long long)ri->cap);
	else if (b == ri->nbins + 1)
		snprintf(buf, n, "inf new");
	else if (b == ri->nbins + 2)
		snprintf(buf, n, "inf fly");
	else if (ri->bin_width == 1)
		snprintf(buf, n, "%d", b);
	else
		snprintf(buf, n, "%d-%d", b * ri->bin_width, (b + 1) * ri->bin_width - 1);
}

static int bar_len(const struct reuse_panel *rp, double v, double max, int width)
{
	if (v <= 0 || max <= 0 || width <= 0)
		return 0;
	double f = rp->logscale ? log1p(v) / log1p(max) : v / max;
	int n = (int)(f * width + 0.5);
	return n < 1 ? 1 : n > width ? width : n;
}

/* The model's count for panel bin b, or -1 when the model's histogram does
 * not resolve it (its cap is below the panel's). */
static int64_t model_bin(const struct rdm_summary *m, const struct reuse_info *ri, int b)
{
	int mb = (int)m->hist_bins;
	if (b > ri->nbins) /* inf new, inf fly */
		return (int64_t)m->hist[mb + (b - ri->nbins)];
	if (b < ri->nbins)
		return b < mb ? (int64_t)m->hist[b] : -1;
	if (mb <= ri->nbins) /* >= the panel's cap */
		return mb == ri->nbins ? (int64_t)m->hist[mb] : -1;
	uint64_t v = 0;
	for (int k = ri->nbins; k <= mb; k++)
		v += m->hist[k];
	return (int64_t)v;
}

/* m: the model's histogram to show beside (an L1's set view), or NULL. */
static void draw_hist(struct reuse_panel *rp, WINDOW *w, struct rect r, const struct reuse_info *ri,
		      const struct view_ctx *c, const struct rdm_summary *m)
{
	int total = ri->nbins + 3;
	/* bars: counts, or with the model shares of each side's accesses */
	double max = 0, sa = ri->accesses ? (double)ri->accesses : 1.0, ma = m && m->accesses ? (double)m->accesses : 1.0;
	for (int b = 0; b < total; b++) {
		max = MAX(max, m ? (double)ri->bins[b] / sa : (double)ri->bins[b]);
		if (m && model_bin(m, ri, b) > 0)
			max = MAX(max, (double)model_bin(m, ri, b) / ma);
	}
	int col = m ? 7 : 0; /* the MODEL% column */
	if (m)
		put_fmt(w, r.y, r.x, r.w, role_attr(R_HEADER), "%-8s %9s %5s %6s %s", "DIST", "COUNT", "%",
			"MODEL%", rp->logscale ? "(log)" : "");
	else
		put_fmt(w, r.y, r.x, r.w, role_attr(R_HEADER), "%-8s %9s %5s %s", "DIST", "COUNT", "%",
			rp->logscale ? "(log)" : "");
	int rows = r.h - 1; /* the cut-off line takes one of them */
	int bb = break_bin(rp, ri, c->stop_ev);
	if (rows > total + 1)
		rows = total + 1;
	int maxscroll = total + 1 - rows;
	if (bb >= 0 && (bb < rp->scroll || bb >= rp->scroll + rows - 1))
		rp->scroll = bb - (rows - 1) / 2;
	rp->scroll = MAX(0, MIN(rp->scroll, maxscroll));
	int y = r.y + 1, b = rp->scroll;
	bool cut_drawn = b > ri->cutoff;
	int barw = r.w - 26 - col;
	const char *glyph = draw_utf8() ? "\u2588" : "#";
	while (y < r.y + r.h && b < total) {
		if (!cut_drawn && b == ri->cutoff) {
			char lab[64];
			if (rp->view == RV_FA)
				snprintf(lab, sizeof lab, " cut-off: %d lines (FA LRU) ", ri->lines);
			else
				snprintf(lab, sizeof lab, " cut-off: %d ways ", ri->ways);
			put_hline(w, y, r.x, r.w, role_attr(R_DIM));
			put_text(w, y, r.x + 2, r.w - 2, lab, role_attr(R_DIM), false);
			cut_drawn = true;
			y++;
			continue;
		}
		char lab[24];
		bin_label(ri, b, lab, sizeof lab);
		uint64_t v = ri->bins[b];
		double pct = ri->accesses ? 100.0 * (double)v / (double)ri->accesses : 0.0;
		attr_t a = b == bb ? role_attr(R_BREAK) : A_NORMAL;
		put_fmt(w, y, r.x, r.w, a, "%-8s %9llu %5.1f", lab, (unsigned long long)v, pct);
		int64_t mv = m ? model_bin(m, ri, b) : -1;
		if (m && mv >= 0)
			put_fmt(w, y, r.x + 25, col, A_NORMAL, "%6.1f", 100.0 * (double)mv / ma);
		else if (m)
			put_fmt(w, y, r.x + 25, col, role_attr(R_DIM), "%6s", "-");
		attr_t ba = b < ri->cutoff ? role_attr(R_HIT) : b == ri->nbins + 2 ? role_attr(R_STALL) : role_attr(R_MISS);
		int n = bar_len(rp, m ? (double)v / sa : (double)v, max, barw - 2);
		for (int i = 0; i < n; i++)
			put_text(w, y, r.x + 25 + col + i, 1, glyph, ba, false);
		int mn = mv > 0 ? bar_len(rp, (double)mv / ma, max, barw - 2) : 0;
		if (mn) /* the model's share: a marker at the end of its bar */
			put_text(w, y, r.x + 25 + col + mn - 1, 1, draw_utf8() ? "\u2503" : "|", role_attr(R_HEADER), false);
		int e = MAX(n, mn);
		if (b == bb)
			put_text(w, y, r.x + 25 + col + e + 1, barw - e - 1, draw_utf8() ? "\u25c0 break" : "< break",
				 role_attr(R_BREAK), false);
		y++;
		b++;
	}
}

/* Predicted vs measured hit rate after a `model` command (latency misses
 * count as hits on every line, as the model's miss rate leaves them out):
 * the model, the fresh full simulation it ran beside, and the cache shown
 * here so far. Returns the next row. */
static int draw_model(WINDOW *w, struct rect r, int y, const struct rdm_summary *m, const struct reuse_info *ri,
		      bool l1)
{
	if (!m || y >= r.y + r.h)
		return y;
	put_fmt(w, y++, r.x, r.w, role_attr(R_HEADER), "%-21s %5s %3s", "PREDICTED/MEASURED", "hit%", "");
	if (y < r.y + r.h)
		put_fmt(w, y++, r.x, r.w, A_NORMAL, "%-21.21s %5.1f", "model (one core)", 100.0 * m->model_hit);
	if (y < r.y + r.h && m->simulated)
		put_fmt(w, y++, r.x, r.w, A_NORMAL, "%-21.21s %5.1f", "sim, full run", 100.0 * m->sim_hit);
	if (y < r.y + r.h && l1 && ri->accesses)
		put_fmt(w, y++, r.x, r.w, A_NORMAL, "%-21.21s %5.1f", "this L1 view, now",
			100.0 * (1.0 - (double)(ri->accesses - ri->cls[0] - ri->cls[4]) / (double)ri->accesses));
	if (y < r.y + r.h)
		put_fmt(w, y++, r.x, r.w, role_attr(R_DIM), "%.12s %ux%u, %u thr%s", m->workload, m->sets, m->ways,
			m->threads, m->reference ? ", ref" : "");
	return y;
}

static void draw_classes(WINDOW *w, struct rect r, const struct reuse_info *ri, const struct rdm_summary *m, bool l1)
{
	static const int order[6] = {0, 1, 2, 3, 4, 5};
	put_fmt(w, r.y, r.x, r.w, role_attr(R_HEADER), "%-13s %9s %5s", "CLASS", "COUNT", "%");
	int y = r.y + 1;
	for (int i = 0; i < 6 && y < r.y + r.h; i++, y++) {
		int k = order[i];
		double pct = ri->accesses ? 100.0 * (double)ri->cls[k] / (double)ri->accesses : 0.0;
		attr_t a = k == 0 ? role_attr(R_HIT) : k == 4 ? role_attr(R_STALL) : role_attr(R_MISS);
		put_fmt(w, y, r.x, r.w, a, "%-13s %9llu %5.1f", inspect_reuse_class_name(k),
			(unsigned long long)ri->cls[k], pct);
	}
	uint64_t miss = ri->accesses - ri->cls[0];
	if (y < r.y + r.h && ri->accesses) {
		put_fmt(w, y++, r.x, r.w, A_NORMAL, "miss %.1f%%, w/o latency %.1f%%",
			100.0 * (double)miss / (double)ri->accesses,
			100.0 * (double)(miss - ri->cls[4]) / (double)ri->accesses);
	}
	y = draw_model(w, r, y, m, ri, l1);
	if (y < r.y + r.h)
		put_fmt(w, y++, r.x, r.w, A_NORMAL, "lookups %llu", (unsigned long long)ri->accesses);
	if (y < r.y + r.h && ri->has_last) {
		char d[24];
		if (ri->last_d < 0)
			snprintf(d, sizeof d, "inf");
		else
			snprintf(d, sizeof d, "%lld", (long long)ri->last_d);
		put_fmt(w, y++, r.x, r.w, A_NORMAL, "last 0x%llx set %d", (unsigned long long)ri->last_addr,
			ri->last_set);
		if (y < r.y + r.h)
			put_fmt(w, y++, r.x, r.w, A_NORMAL, "  d=%s %s", d, inspect_reuse_class_name(ri->last_cls));
	}
	if (y < r.y + r.h && ri->hits_far)
		put_fmt(w, y++, r.x, r.w, role_attr(R_STALL), "hits beyond the ways %llu", (unsigned long long)ri->hits_far);
	if (y < r.y + r.h && ri->approx)
		put_fmt(w, y++, r.x, r.w, role_attr(R_DIM), "folded seen bits %llu", (unsigned long long)ri->approx);
	if (y < r.y + r.h) {
		char b[16];
		put_fmt(w, y++, r.x, r.w, role_attr(R_DIM), "profiler memory %sB", fmt_si(b, sizeof b, (double)ri->bytes));
	}
}

/* Follow a reuse.* breakpoint once: show the cache and the set of its access. */
static void follow_break(struct reuse_panel *rp, const struct view_ctx *c, int *sm, int *bank)
{
	const struct event *e = c->stop_ev;
	if (!is_reuse_event(e))
		return;
	uint64_t key = e->cycle * 1000003u ^ e->addr;
	if (key == rp->stop_seen)
		return;
	rp->stop_seen = key;
	rp->mode = e->unit < 0 ? RC_L1_SEL : RC_L2_SEL;
	rp->set = e->set;
	*sm = e->sm;
	*bank = e->unit;
}

static void reuse_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct reuse_panel *rp = (struct reuse_panel *)p;
	int sm = c->sel_sm, bank = c->sel_l2;
	if (c->sim)
		follow_break(rp, c, &sm, &bank);
	bool l1 = rp->mode == RC_L1_SEL || rp->mode == RC_L1_ALL;
	bool all = rp->mode == RC_L1_ALL || rp->mode == RC_L2_ALL;
	int unit = all ? -1 : l1 ? sm : bank;
	struct reuse_info *ri = &rp->ri;
	bool ok = c->sim && inspect_reuse(c->sim, l1 ? CACHE_L1 : CACHE_L2, unit, RV_SET, 0, ri);
	if (ok && rp->view == RV_ONESET)
		rp->set = MAX(0, MIN(rp->set, ri->sets - 1));
	ok = ok && inspect_reuse(c->sim, l1 ? CACHE_L1 : CACHE_L2, unit, rp->view, rp->set, ri);
	char info[96];
	char what[32];
	if (all)
		snprintf(what, sizeof what, "%s all", l1 ? "L1" : "L2");
	else
		snprintf(what, sizeof what, l1 ? "L1 sm%d" : "L2 bank%d", unit);
	if (ok && rp->view == RV_ONESET)
		snprintf(info, sizeof info, "%s  %dx%d  set %d", what, ri->sets, ri->ways, rp->set);
	else if (ok)
		snprintf(info, sizeof info, "%s  %dx%d  %s", what, ri->sets, ri->ways, view_names[rp->view]);
	else
		snprintf(info, sizeof info, "%s", what);
	struct rect r = view_frame(p, w, c, info);
	if (!ok) {
		const char *why = !c->sim ? "no simulator"
				  : !sim_cfg(c->sim)->reuse.profile
				      ? "reuse profiler off in this machine: `set reuse.profile true` at cycle 0 (or -s reuse.profile=true)"
				      : "no such cache (L1 disabled?)";
		put_wrapped(w, r.y, r.x, r.w, r.h, why, role_attr(R_DIM));
		return;
	}
	int right = r.w >= 70 ? 31 : 0;
	struct rect hr = {r.y, r.x, r.h, r.w - right - (right ? 1 : 0)};
	if (!right && r.h >= 7 && c->model) { /* narrow: predicted vs measured above the summary */
		hr.h--;
		char simv[16] = "-";
		if (c->model->simulated)
			snprintf(simv, sizeof simv, "%.1f", 100.0 * c->model->sim_hit);
		put_fmt(w, r.y + r.h - 2, r.x, r.w, A_NORMAL, "hit%%: model %.1f, simulated (full run) %s",
			100.0 * c->model->model_hit, simv);
	}
	if (!right && r.h >= 6) { /* narrow: one summary line at the bottom */
		hr.h--;
		uint64_t a = ri->accesses ? ri->accesses : 1;
		put_fmt(w, r.y + r.h - 1, r.x, r.w, A_NORMAL, "hit %.1f%% comp %.1f cap %.1f assoc %.1f lat %.1f oth %.1f",
			100.0 * (double)ri->cls[0] / (double)a, 100.0 * (double)ri->cls[1] / (double)a,
			100.0 * (double)ri->cls[2] / (double)a, 100.0 * (double)ri->cls[3] / (double)a,
			100.0 * (double)ri->cls[4] / (double)a, 100.0 * (double)ri->cls[5] / (double)a);
	}
	const struct rdm_summary *mh = c->model && c->model->hist_bins && l1 && rp->view == RV_SET ? c->model : NULL;
	draw_hist(rp, w, hr, ri, c, mh);
	if (right) {
		int x = r.x + r.w - right;
		for (int y = r.y; y < r.y + r.h; y++)
			mvwaddch(w, y, x - 1, draw_utf8() ? ACS_VLINE : '|');
		draw_classes(w, (struct rect){r.y, x, r.h, right}, ri, c->model, l1);
	}
}

static int reuse_key(struct panel *p, int key, const struct view_ctx *c)
{
	(void)c;
	struct reuse_panel *rp = (struct reuse_panel *)p;
	switch (key) {
	case KEY_LEFT:
		rp->mode = (rp->mode + RC_MODES - 1) % RC_MODES;
		break;
	case KEY_RIGHT:
		rp->mode = (rp->mode + 1) % RC_MODES;
		break;
	case KEY_NPAGE:
		rp->view = (rp->view + 1) % RV__COUNT;
		break;
	case KEY_PPAGE:
		rp->view = (rp->view + RV__COUNT - 1) % RV__COUNT;
		break;
	case KEY_UP:
		if (rp->view == RV_ONESET)
			rp->set = rp->set > 0 ? rp->set - 1 : 0;
		else
			rp->scroll = rp->scroll > 0 ? rp->scroll - 1 : 0;
		break;
	case KEY_DOWN:
		if (rp->view == RV_ONESET)
			rp->set++; /* clamped when drawn */
		else
			rp->scroll++;
		break;
	case KEY_HOME:
		rp->logscale = !rp->logscale;
		break;
	default:
		return VK_IGNORED;
	}
	return VK_HANDLED | VK_REDRAW;
}

static void reuse_reset(struct panel *p)
{
	struct reuse_panel *rp = (struct reuse_panel *)p;
	rp->scroll = 0;
	rp->stop_seen = 0;
}

static void reuse_free(struct panel *p) { free(p); }

static const struct panel_ops reuse_ops = {
	.name = "reuse",
	.desc = "reuse-distance histogram and miss classes of an L1 or L2 bank",
	.min_w = 40,
	.min_h = 5,
	.draw = reuse_draw,
	.key = reuse_key,
	.reset = reuse_reset,
	.free = reuse_free,
};

struct panel *reuse_panel_new(void)
{
	struct reuse_panel *rp = xcalloc(1, sizeof *rp);
	rp->base.ops = &reuse_ops;
	return &rp->base;
}
