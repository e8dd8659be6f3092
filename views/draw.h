/*
 * draw.h: text primitives every view uses: colour roles, clipped text with a
 * truncation marker, bars and sparklines.
 *
 * Colours mean one thing each (docs/TUI.md):
 *
 *   R_HIT      green    hits, row hits, lines filled
 *   R_MISS     red      misses, row misses
 *   R_STALL    yellow   conflicts, stalls, NACKs, full queues
 *   R_SELECT   reverse  the selected unit / row, the focused panel's title
 *   R_HEADER   bold     column headers, panel titles
 *   R_DIM      dim      empty slots, invalid lines, finished warps
 *   R_BREAK    reverse+yellow: the event that fired a breakpoint
 *   R_BAR      status bar and overlay chrome
 *   R_OWN0..3  cyan, magenta, blue, default: the owner of a register-file
 *              row (warp slot mod 4) in the rf strips, nothing else
 *
 * With colours off (NO_COLOR, `color off`, a terminal without colours) every
 * role falls back to bold / reverse / underline / dim, and the text itself
 * still carries the meaning (H/M/C marks, state names).
 *
 * All strings drawn are ASCII apart from the glyphs below; in a UTF-8 locale
 * the truncation marker is U+2026 and bars use block elements, otherwise '>'
 * and ASCII ramps.
 */
#ifndef GPUSTEP_VIEWS_DRAW_H
#define GPUSTEP_VIEWS_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

enum role {
	R_NORMAL,
	R_HEADER,
	R_HIT,
	R_MISS,
	R_STALL,
	R_SELECT,
	R_DIM,
	R_BREAK,
	R_BAR,
	R_ERROR,
	R_BAR_ALERT, /* status bar: a stop that wants attention (breakpoint, interrupt) */
	R_BAR_DONE,  /* status bar: finished */
	R_OWN0,      /* rf strips: row owned by a warp with slot mod 4 = 0 (cyan) */
	R_OWN1,      /* ... 1 (magenta) */
	R_OWN2,      /* ... 2 (blue) */
	R_OWN3,      /* ... 3 (default colour) */
	R__COUNT,
};

/* Call after initscr/newterm. colours: try to use colours (false = monochrome).
 * utf8: glyphs may be multibyte. Returns whether colours are in use. */
bool draw_init(bool colours, bool utf8);
bool draw_colours(void);
bool draw_utf8(void);
attr_t role_attr(enum role r);

/* Truncation marker: "…" or ">". */
const char *draw_marker(void);

/* Draw s at (y, x) in at most width columns with attribute a; if s is longer,
 * the last column shows the marker. Pads with spaces to width when pad.
 * Returns the columns used. Never writes outside [x, x + width). */
int put_text(WINDOW *w, int y, int x, int width, const char *s, attr_t a, bool pad);
/* s word-wrapped over at most `rows` rows from (y, x), each at most width
 * columns (a word longer than a row is cut); text that does not fit ends
 * with the marker. Returns the rows used. */
int put_wrapped(WINDOW *w, int y, int x, int width, int rows, const char *s, attr_t a);
/* Split s into rows of at most wd columns, breaking after a space when a word
 * would be cut (a word longer than a row is cut). Fills start/end byte
 * offsets of up to max rows (none with max 0); returns the number of rows
 * (at least 1). The output area and the pager wrap with it. */
int wrap_rows(const char *s, int wd, size_t *start, size_t *end, int max);
/* printf variant, clipped like put_text (no padding). */
int put_fmt(WINDOW *w, int y, int x, int width, attr_t a, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Right-aligned within width. */
int put_right(WINDOW *w, int y, int x, int width, const char *s, attr_t a);
/* A horizontal fill of `n` copies of ch (ACS or ASCII). */
void put_hline(WINDOW *w, int y, int x, int n, attr_t a);

/* Occupancy bar "[####....]" of width cols (including brackets); yellow when full. */
void put_bar(WINDOW *w, int y, int x, int width, uint64_t used, uint64_t cap);
/* Sparkline of vals scaled to max (0 = auto); draws the last `width` values. */
void put_spark(WINDOW *w, int y, int x, int width, const uint16_t *vals, int n, unsigned max);

/* Compact number: 1234 -> "1234", 12345678 -> "12.3M". buf >= 8. */
const char *fmt_si(char *buf, size_t n, double v);

/* Read one row of a window back as UTF-8 text (for snapshot tests and for
 * capture); trailing spaces removed. Returns buf. */
char *draw_read_row(WINDOW *w, int y, char *buf, size_t n);

#endif
