/*
 * layout.c: the named layouts and their arrangement (see layout.h).
 */
#include "layout.h"

#include <string.h>

static const struct layout_def layouts[] = {
	{"overview",
	 "warps, L1/L2 MSHRs, L2 banks, DRAM banks and the event log",
	 {{4, {{"warps", 3}, {"mshr", 2}}}, {3, {{"l2", 2}, {"dram", 3}}}, {3, {{"events", 1}}}}},
	{"cache", "set x way grids of the selected L1 and L2 bank", {{1, {{"cache", 1}}}, {1, {{"l2cache", 1}}}}},
	{"dram", "DRAM channels and banks, the selected bank's queue and the scheduler's next pick, the event log",
	 {{3, {{"dram", 1}}}, {2, {{"dramq", 1}, {"events", 1}}}}}, /* views/dramq.c */
	{"events", "the event log, full screen", {{1, {{"events", 1}}}}},
	{"stats", "the statistics registry, full screen", {{1, {{"stats", 1}}}}},
	{"reuse", "reuse-distance histogram of a cache above the event log", {{3, {{"reuse", 1}}}, {1, {{"events", 1}}}}}, /* views/reuse.c */
	{"frc", "the selected L2 bank's FRC entries, its set x way grid and the event log",
	 {{3, {{"frc", 3}, {"l2", 2}}}, {3, {{"l2cache", 1}}}, {2, {{"events", 1}}}}},
	{"rf", "the selected SM's register banks (racetrack tracks and ports) above its warps and the event log",
	 {{3, {{"rf", 1}}}, {1, {{"warps", 1}, {"events", 1}}}}}, /* views/rf.c */
	{"timeline", "one L2 set's requests over cycles (`timeline l2 BANK SET`) above the FRC entries and the event log", {{3, {{"timeline", 1}}}, {1, {{"frc", 3}, {"events", 2}}}}}, /* views/timeline.c */
	{"coherence", "coherence transactions and the selected line's directory entry beside the protocol tables, the L1 below", {{3, {{"coherence", 3}, {"protocol", 2}}}, {2, {{"cache", 1}}}}}, /* views/coherence.c, protocol.c */
};

size_t layout_count(void) { return sizeof layouts / sizeof layouts[0]; }

const struct layout_def *layout_at(size_t i) { return i < layout_count() ? &layouts[i] : NULL; }

const struct layout_def *layout_find(const char *name)
{
	for (size_t i = 0; i < layout_count(); i++)
		if (strcmp(layouts[i].name, name) == 0)
			return &layouts[i];
	return NULL;
}

int layout_panels(const struct layout_def *d, const char **out, int max)
{
	int n = 0;
	for (int r = 0; r < LAYOUT_MAX_ROWS && d->rows[r].weight; r++)
		for (int c = 0; c < LAYOUT_MAX_CELLS && d->rows[r].cells[c].panel; c++)
			if (n < max)
				out[n++] = d->rows[r].cells[c].panel;
	return n;
}

bool layout_has(const struct layout_def *d, const char *panel)
{
	const char *names[LAYOUT_MAX_SLOTS];
	int n = layout_panels(d, names, LAYOUT_MAX_SLOTS);
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], panel) == 0)
			return true;
	return false;
}

/* Split total among n parts: minimums first, then spare by weight; if the
 * minimums do not fit, in proportion to them. */
static void split(int total, int n, const int *mins, const int *weights, int *out)
{
	int summin = 0, sumw = 0;
	for (int i = 0; i < n; i++) {
		summin += mins[i];
		sumw += weights[i];
	}
	if (total <= 0 || n == 0) {
		for (int i = 0; i < n; i++)
			out[i] = 0;
		return;
	}
	if (summin >= total) {
		int given = 0, acc = 0;
		for (int i = 0; i < n; i++) {
			acc += mins[i];
			int upto = summin ? (int)((long long)total * acc / summin) : total * (i + 1) / n;
			out[i] = upto - given;
			given = upto;
		}
		return;
	}
	int spare = total - summin, given = 0, acc = 0;
	for (int i = 0; i < n; i++) {
		acc += weights[i];
		int upto = sumw ? (int)((long long)spare * acc / sumw) : spare * (i + 1) / n;
		out[i] = mins[i] + upto - given;
		given = upto;
	}
}

struct line {
	int first, n; /* cells of the row */
	const struct layout_row *row;
};

int layout_arrange(const struct layout_def *d, int y, int x, int h, int w, layout_min_fn minf,
		   struct layout_slot *out)
{
	struct line lines[LAYOUT_MAX_SLOTS];
	int nl = 0;
	for (int r = 0; r < LAYOUT_MAX_ROWS && d->rows[r].weight; r++) {
		const struct layout_row *row = &d->rows[r];
		int c = 0;
		while (c < LAYOUT_MAX_CELLS && row->cells[c].panel) {
			int start = c, used = 0;
			while (c < LAYOUT_MAX_CELLS && row->cells[c].panel) {
				int mw, mh;
				minf(row->cells[c].panel, &mw, &mh);
				int add = mw + (c > start ? 1 : 0);
				if (c > start && used + add > w)
					break;
				used += add;
				c++;
			}
			lines[nl++] = (struct line){start, c - start, row};
		}
	}
	int mins[LAYOUT_MAX_SLOTS] = {0}, weights[LAYOUT_MAX_SLOTS] = {0}, hs[LAYOUT_MAX_SLOTS] = {0};
	for (int i = 0; i < nl; i++) {
		mins[i] = 1;
		for (int c = lines[i].first; c < lines[i].first + lines[i].n; c++) {
			int mw, mh;
			minf(lines[i].row->cells[c].panel, &mw, &mh);
			if (mh > mins[i])
				mins[i] = mh;
		}
		weights[i] = lines[i].row->weight;
	}
	split(h, nl, mins, weights, hs);
	int ns = 0, yy = y;
	for (int i = 0; i < nl; i++) {
		int n = lines[i].n, cm[LAYOUT_MAX_CELLS], cw[LAYOUT_MAX_CELLS], ws[LAYOUT_MAX_CELLS];
		for (int k = 0; k < n; k++) {
			int mh;
			minf(lines[i].row->cells[lines[i].first + k].panel, &cm[k], &mh);
			cm[k] += k ? 1 : 0; /* separator column */
			cw[k] = lines[i].row->cells[lines[i].first + k].weight;
		}
		split(w, n, cm, cw, ws);
		int xx = x;
		for (int k = 0; k < n; k++) {
			if (hs[i] > 0 && ws[k] > 0)
				out[ns++] = (struct layout_slot){
					.panel = lines[i].row->cells[lines[i].first + k].panel,
					.y = yy,
					.x = xx,
					.h = hs[i],
					.w = ws[k],
					.sep_left = k > 0,
				};
			xx += ws[k];
		}
		yy += hs[i];
	}
	return ns;
}
