/*
 * layout.h: named layouts and the arithmetic that places panels in the
 * screen area between the status bar and the command window.
 *
 * A layout is a list of rows; each row a list of panels with width weights.
 * Arranging adapts to the terminal:
 *
 *   1. A row whose panels' minimum widths (plus one separator column each)
 *      do not fit is wrapped into several lines.
 *   2. Every line gets its minimum height (the tallest minimum of its
 *      panels), then the spare rows by weight. When even the minimums do not
 *      fit, lines share the rows in proportion to their minimums, and panels
 *      that end up too small say so (panel_draw).
 *   3. Within a line, widths likewise: minimums first, spare by weight.
 *
 *   overview at 132x40:                     overview at 80x24 (warps and mshr
 *   +----------------------+-------------+  still share a line: 30+1+36 <= 80)
 *   | warps                | mshr        |
 *   +-----------+----------+-------------+
 *   | l2        | dram                   |
 *   +-----------+------------------------+
 *   | events                             |
 *   +------------------------------------+
 */
#ifndef GPUSTEP_TUI_LAYOUT_H
#define GPUSTEP_TUI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#define LAYOUT_MAX_ROWS 4
#define LAYOUT_MAX_CELLS 4
#define LAYOUT_MAX_SLOTS (LAYOUT_MAX_ROWS * LAYOUT_MAX_CELLS)

struct layout_cell {
	const char *panel; /* NULL ends the row */
	int weight;
};

struct layout_row {
	int weight; /* 0 ends the layout */
	struct layout_cell cells[LAYOUT_MAX_CELLS];
};

struct layout_def {
	const char *name;
	const char *desc;
	struct layout_row rows[LAYOUT_MAX_ROWS];
};

struct layout_slot {
	const char *panel;
	int y, x, h, w;
	bool sep_left;
};

size_t layout_count(void);
const struct layout_def *layout_at(size_t i);
const struct layout_def *layout_find(const char *name);
/* The panels d shows, row by row (at most max names into out); their count. */
int layout_panels(const struct layout_def *d, const char **out, int max);
/* Whether d shows a panel of that name. */
bool layout_has(const struct layout_def *d, const char *panel);

/* Minimum size of a panel kind (from its ops); provided by the caller so the
 * arithmetic stays testable without curses. */
typedef void (*layout_min_fn)(const char *panel, int *min_w, int *min_h);

/* Place d's panels in the rectangle (y, x, h, w). Returns the number of slots
 * written to out (panels that get no rows at all are left out). */
int layout_arrange(const struct layout_def *d, int y, int x, int h, int w, layout_min_fn minf,
		   struct layout_slot *out);

#endif
