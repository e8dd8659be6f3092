/*
 * table.h: the one scrollable table/list view behind the warp list, MSHR
 * entries, L2 banks, DRAM banks, the event log and the stats registry.
 *
 * The table owns no data: the owner says how many rows there are and a
 * callback fills only the rows on screen, so a 64k-entry event ring costs
 * what the visible rows cost.
 *
 *   +-----------------------------------------+
 *   | HDR1  HDR2     HDR3 ...               >  |  header (bold); '>' = columns dropped
 *   | row top                                 |
 *   | row top+1   (cursor row reverse when     |
 *   | ...          the panel has focus)        |
 *   | row top+visible-1                     v  |  'v' / '^' = more rows below / above
 *   +-----------------------------------------+
 *
 * Column widths: every column gets its minimum; spare width goes to flex
 * columns by weight, each up to its max (what a capped column cannot take
 * goes to the others). When a column would not fit, columns with a shrink
 * width narrow first (their text cut with a marker); columns that still do
 * not fit are dropped from the right and the header ends with the marker.
 */
#ifndef GPUSTEP_VIEWS_TABLE_H
#define GPUSTEP_VIEWS_TABLE_H

#include <curses.h>
#include <stdbool.h>

#include "view.h"

#define TABLE_MAX_COLS 12
#define TABLE_CELL 160

struct table_col {
	const char *name;
	int width; /* minimum */
	int flex;  /* weight for spare width; 0 = fixed */
	bool right;
};

struct table_row {
	char text[TABLE_MAX_COLS][TABLE_CELL];
	attr_t attr[TABLE_MAX_COLS];
	attr_t row_attr; /* ORed into every cell */
	bool span;       /* text[0] fills the whole row (section lines) */
};

/* Fill `out` (zeroed by the caller) for row `row`. */
typedef void (*table_row_fn)(void *u, int row, struct table_row *out);

struct table {
	const struct table_col *cols;
	int ncols;
	int nrows;   /* as of the last draw */
	int top;     /* first row shown */
	int sel;     /* cursor */
	bool follow; /* keep the cursor on the last row (logs) */
	bool header;
	int visible; /* data rows that fit last draw */
	int max[TABLE_MAX_COLS];    /* flex grows a column at most to this; 0 = no limit */
	int shrink[TABLE_MAX_COLS]; /* it may narrow to this (text cut) before a column is dropped; 0 = never */
};

void table_init(struct table *t, const struct table_col *cols, int ncols, bool header);
/* Draw into rectangle r of w. focused: show the cursor. */
void table_draw(struct table *t, WINDOW *w, struct rect r, int nrows, bool focused, table_row_fn fn,
		void *u);
/* Up/Down/PgUp/PgDn/Home/End. Returns VK_ flags. */
int table_key(struct table *t, int key);
/* Move the cursor to row and scroll so it is visible. */
void table_show(struct table *t, int row);
void table_reset(struct table *t);
/* Column col grows at most to max (0 = no limit) and may narrow to shrink
 * (0 = never) rather than let a column to its right be dropped. */
void table_limit(struct table *t, int col, int max, int shrink);

#endif
