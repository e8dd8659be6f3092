/*
 * table.c: the generic scrollable table (see table.h for the picture).
 */
#include "table.h"

#include <string.h>

#include "draw.h"
#include "sim/util.h"

void table_init(struct table *t, const struct table_col *cols, int ncols, bool header)
{
	memset(t, 0, sizeof *t);
	t->cols = cols;
	t->ncols = ncols > TABLE_MAX_COLS ? TABLE_MAX_COLS : ncols;
	t->header = header;
}

void table_limit(struct table *t, int col, int max, int shrink)
{
	if (col < 0 || col >= TABLE_MAX_COLS)
		return;
	t->max[col] = max;
	t->shrink[col] = shrink;
}

void table_reset(struct table *t)
{
	t->top = t->sel = 0;
}

static void clamp(struct table *t)
{
	int vis = t->visible > 0 ? t->visible : 1;
	if (t->follow)
		t->sel = t->nrows - 1;
	if (t->sel >= t->nrows)
		t->sel = t->nrows - 1;
	if (t->sel < 0)
		t->sel = 0;
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + vis)
		t->top = t->sel - vis + 1;
	if (t->top > t->nrows - vis)
		t->top = t->nrows - vis;
	if (t->top < 0)
		t->top = 0;
}

void table_show(struct table *t, int row)
{
	t->sel = row;
	t->follow = false;
	clamp(t);
}

/* Column x positions and widths for the available width; returns columns shown. */
static int place(const struct table *t, int avail, int *xs, int *ws, bool *dropped)
{
	int need = 0, n = 0;
	*dropped = false;
	for (int i = 0; i < t->ncols; i++) {
		int add = t->cols[i].width + (n ? 1 : 0);
		if (need + add > avail)
			break;
		need += add;
		n++;
	}
	for (int i = 0; i < n; i++)
		ws[i] = t->cols[i].width;
	/* Narrow shrinkable columns to show more columns (as many as possible). */
	for (int k = t->ncols; k > n; k--) {
		int needk = k - 1, slack = 0;
		for (int i = 0; i < k; i++) {
			needk += t->cols[i].width;
			if (t->shrink[i] > 0 && t->shrink[i] < t->cols[i].width)
				slack += t->cols[i].width - t->shrink[i];
		}
		if (needk - slack > avail)
			continue;
		int cut = needk - avail;
		for (int i = 0; i < k; i++) {
			ws[i] = t->cols[i].width;
			if (cut > 0 && t->shrink[i] > 0 && t->shrink[i] < ws[i]) {
				int c = MIN(cut, ws[i] - t->shrink[i]);
				ws[i] -= c;
				cut -= c;
			}
		}
		n = k;
		need = avail;
		break;
	}
	*dropped = n < t->ncols;
	if (n == 0 && t->ncols > 0) { /* not even the first column: clip it */
		xs[0] = 0;
		ws[0] = avail;
		*dropped = t->ncols > 1;
		return 1;
	}
	/* Spare width to flex columns by weight, each up to its max; what a
	 * capped column cannot take is shared again among the others. */
	int spare = avail - need;
	bool capped[TABLE_MAX_COLS] = {false};
	while (spare > 0) {
		int flex = 0;
		for (int i = 0; i < n; i++)
			if (t->cols[i].flex && !capped[i])
				flex += t->cols[i].flex;
		if (!flex)
			break;
		int given = 0, fi = 0, left = spare;
		for (int i = 0; i < n; i++) {
			if (!t->cols[i].flex || capped[i])
				continue;
			fi += t->cols[i].flex;
			int extra = spare * fi / flex - given;
			given += extra;
			if (t->max[i] && ws[i] + extra >= t->max[i]) {
				extra = MAX(0, t->max[i] - ws[i]);
				capped[i] = true;
			}
			ws[i] += extra;
			left -= extra;
		}
		if (left == spare)
			break;
		spare = left;
	}
	int x = 0;
	for (int i = 0; i < n; i++) {
		xs[i] = x;
		x += ws[i] + 1;
	}
	return n;
}

/* A row colour (e.g. the fired breakpoint) wins over cell colours: colour
 * pairs cannot be ORed. */
static attr_t combine(attr_t row, attr_t cell)
{
	return PAIR_NUMBER(row) ? (cell & ~A_COLOR) | row : cell | row;
}

static void draw_cell(WINDOW *w, int y, int x, int width, const char *s, attr_t a, bool right)
{
	if (right)
		put_right(w, y, x, width, s, a);
	else
		put_text(w, y, x, width, s, a, false);
}

void table_draw(struct table *t, WINDOW *w, struct rect r, int nrows, bool focused, table_row_fn fn,
		void *u)
{
	if (r.h <= 0 || r.w <= 0)
		return;
	int xs[TABLE_MAX_COLS], ws[TABLE_MAX_COLS];
	bool dropped;
	/* When rows overflow, the last column is kept for the ^ / v markers. */
	int data_rows = r.h - (t->header ? 1 : 0);
	int cw = nrows > data_rows && r.w > 8 ? r.w - 1 : r.w;
	int ncol = place(t, cw, xs, ws, &dropped);
	int y = r.y;
	if (t->header) {
		for (int i = 0; i < ncol; i++)
			draw_cell(w, y, r.x + xs[i], ws[i], t->cols[i].name, role_attr(R_HEADER), t->cols[i].right);
		if (dropped)
			put_text(w, y, r.x + cw - 1, 1, draw_marker(), role_attr(R_HEADER), false);
		y++;
	}
	t->nrows = nrows;
	t->visible = r.y + r.h - y;
	if (t->visible < 1)
		return;
	clamp(t);
	struct table_row row;
	for (int i = 0; i < t->visible && t->top + i < nrows; i++) {
		int ri = t->top + i;
		memset(&row, 0, sizeof row);
		fn(u, ri, &row);
		attr_t ra = row.row_attr;
		if (focused && ri == t->sel)
			ra |= role_attr(R_SELECT);
		if (ra & A_REVERSE) /* a selected row is reverse across its whole width */
			put_text(w, y + i, r.x, r.w, "", ra, true);
		if (row.span) {
			put_text(w, y + i, r.x, cw, row.text[0], combine(ra, row.attr[0]), false);
			continue;
		}
		for (int c = 0; c < ncol; c++)
			draw_cell(w, y + i, r.x + xs[c], ws[c], row.text[c], combine(ra, row.attr[c]), t->cols[c].right);
	}
	/* More rows above / below: a marker in the last column. */
	if (t->top > 0)
		put_text(w, y, r.x + r.w - 1, 1, "^", role_attr(R_HEADER), false);
	if (t->top + t->visible < nrows)
		put_text(w, y + t->visible - 1, r.x + r.w - 1, 1, "v", role_attr(R_HEADER), false);
}

int table_key(struct table *t, int key)
{
	int page = t->visible > 1 ? t->visible - 1 : 1;
	int old_sel = t->sel, old_top = t->top;
	switch (key) {
	case KEY_UP:
		t->sel--;
		t->follow = false;
		break;
	case KEY_DOWN:
		t->sel++;
		break;
	case KEY_PPAGE:
		t->sel -= page;
		t->top -= page;
		t->follow = false;
		break;
	case KEY_NPAGE:
		t->sel += page;
		t->top += page;
		break;
	case KEY_HOME:
		t->sel = 0;
		t->follow = false;
		break;
	case KEY_END:
		t->sel = t->nrows - 1;
		t->follow = true;
		break;
	default:
		return VK_IGNORED;
	}
	clamp(t);
	return VK_HANDLED | (t->sel != old_sel || t->top != old_top ? VK_REDRAW : 0);
}
