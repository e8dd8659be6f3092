/*
 * draw.c: colour roles and clipped text for views (see draw.h).
 *
 * The theme is process-wide because curses itself is: one screen, one set of
 * colour pairs. It holds no simulator state.
 */
#include "draw.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

static struct {
	bool colours, utf8;
	attr_t attr[R__COUNT];
} theme = {.attr = {0}};

enum { PAIR_HIT = 1, PAIR_MISS, PAIR_STALL, PAIR_BAR, PAIR_BREAK, PAIR_BAR_ALERT, PAIR_BAR_DONE, PAIR_OWN0, PAIR_OWN1,
       PAIR_OWN2 };

bool draw_init(bool colours, bool utf8)
{
	theme.utf8 = utf8;
	theme.colours = colours && has_colors() && start_color() == OK && COLORS >= 8;
	if (theme.colours) {
		use_default_colors();
		init_pair(PAIR_HIT, COLOR_GREEN, -1);
		init_pair(PAIR_MISS, COLOR_RED, -1);
		init_pair(PAIR_STALL, COLOR_YELLOW, -1);
		init_pair(PAIR_BAR, COLOR_WHITE, COLOR_BLUE);
		init_pair(PAIR_BREAK, COLOR_BLACK, COLOR_YELLOW);
		init_pair(PAIR_BAR_ALERT, COLOR_YELLOW, COLOR_BLUE);
		init_pair(PAIR_BAR_DONE, COLOR_GREEN, COLOR_BLUE);
		/* register-file row owners: colours no other role uses */
		init_pair(PAIR_OWN0, COLOR_CYAN, -1);
		init_pair(PAIR_OWN1, COLOR_MAGENTA, -1);
		init_pair(PAIR_OWN2, COLOR_BLUE, -1);
	}
	attr_t *a = theme.attr;
	a[R_NORMAL] = A_NORMAL;
	a[R_HEADER] = A_BOLD;
	a[R_SELECT] = A_REVERSE;
	a[R_DIM] = A_DIM;
	if (theme.colours) {
		a[R_HIT] = COLOR_PAIR(PAIR_HIT);
		a[R_MISS] = COLOR_PAIR(PAIR_MISS);
		a[R_STALL] = COLOR_PAIR(PAIR_STALL);
		a[R_BREAK] = COLOR_PAIR(PAIR_BREAK) | A_BOLD;
		a[R_BAR] = COLOR_PAIR(PAIR_BAR);
		a[R_ERROR] = COLOR_PAIR(PAIR_MISS) | A_BOLD;
		a[R_BAR_ALERT] = COLOR_PAIR(PAIR_BAR_ALERT) | A_BOLD;
		a[R_BAR_DONE] = COLOR_PAIR(PAIR_BAR_DONE) | A_BOLD;
		a[R_OWN0] = COLOR_PAIR(PAIR_OWN0);
		a[R_OWN1] = COLOR_PAIR(PAIR_OWN1);
		a[R_OWN2] = COLOR_PAIR(PAIR_OWN2);
		a[R_OWN3] = A_NORMAL;
	} else {
		a[R_HIT] = A_NORMAL;
		a[R_MISS] = A_UNDERLINE;
		a[R_STALL] = A_BOLD;
		a[R_BREAK] = A_REVERSE | A_BOLD;
		a[R_BAR] = A_REVERSE;
		a[R_ERROR] = A_BOLD;
		a[R_BAR_ALERT] = A_REVERSE | A_BOLD;
		a[R_BAR_DONE] = A_REVERSE | A_BOLD;
		a[R_OWN0] = a[R_OWN1] = a[R_OWN2] = a[R_OWN3] = A_NORMAL; /* the glyph names the warp */
	}
	return theme.colours;
}

bool draw_colours(void) { return theme.colours; }
bool draw_utf8(void) { return theme.utf8; }
attr_t role_attr(enum role r) { return r < R__COUNT ? theme.attr[r] : A_NORMAL; }
const char *draw_marker(void) { return theme.utf8 ? "\xe2\x80\xa6" : ">"; }

int put_text(WINDOW *w, int y, int x, int width, const char *s, attr_t a, bool pad)
{
	if (width <= 0 || y < 0 || y >= getmaxy(w) || x < 0 || x >= getmaxx(w))
		return 0;
	if (x + width > getmaxx(w))
		width = getmaxx(w) - x;
	/* Columns = code points (every glyph used here is one column wide). */
	int cols = 0, cut = -1;
	for (const char *p = s; *p; p++) {
		if (((unsigned char)*p & 0xC0) == 0x80)
			continue;
		if (cols == width - 1)
			cut = (int)(p - s);
		cols++;
	}
	int used;
	wattr_set(w, a, PAIR_NUMBER(a), NULL);
	if (cols <= width) {
		mvwaddstr(w, y, x, s);
		used = cols;
	} else {
		mvwaddnstr(w, y, x, s, cut);
		waddstr(w, draw_marker());
		used = width;
	}
	if (pad && used < width) {
		for (int i = used; i < width; i++)
			waddch(w, ' ');
		used = width;
	}
	wattr_set(w, A_NORMAL, 0, NULL);
	return used;
}

int put_wrapped(WINDOW *w, int y, int x, int width, int rows, const char *s, attr_t a)
{
	int used = 0;
	while (*s && used < rows && width > 0) {
		while (*s == ' ')
			s++;
		/* Bytes of the first `width` columns, and the last space within them. */
		int cols = 0;
		const char *p = s, *space = NULL;
		while (*p && cols < width) {
			if (*p == ' ')
				space = p;
			p++;
			while (((unsigned char)*p & 0xC0) == 0x80)
				p++;
			cols++;
		}
		if (!*p || used == rows - 1) { /* the rest fits, or the last row: cut with the marker */
			put_text(w, y + used++, x, width, s, a, false);
			break;
		}
		const char *end = *p == ' ' ? p : space ? space : p; /* a word longer than a row is cut */
		char line[512];
		int n = (int)(end - s) < (int)sizeof line - 1 ? (int)(end - s) : (int)sizeof line - 1;
		memcpy(line, s, (size_t)n);
		line[n] = 0;
		put_text(w, y + used++, x, width, line, a, false);
		s = end;
	}
	return used;
}

/* Byte offset of column col in s. */
static size_t col_offset(const char *s, int col)
{
	size_t i = 0;
	int c = 0;
	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xC0) != 0x80) {
			if (c == col)
				return i;
			c++;
		}
	}
	return i;
}

int wrap_rows(const char *s, int wd, size_t *start, size_t *end, int max)
{
	size_t len = strlen(s), pos = 0;
	int n = 0;
	do {
		size_t e = col_offset(s + pos, wd) + pos;
		if (e < len && s[e] != ' ') {
			size_t b = e;
			while (b > pos && s[b - 1] != ' ')
				b--;
			if (b > pos)
				e = b;
		}
		if (n < max) {
			start[n] = pos;
			end[n] = e;
		}
		n++;
		pos = e;
		while (pos < len && s[pos] == ' ')
			pos++;
	} while (pos < len);
	return n;
}

int put_fmt(WINDOW *w, int y, int x, int width, attr_t a, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return put_text(w, y, x, width, buf, a, false);
}

int put_right(WINDOW *w, int y, int x, int width, const char *s, attr_t a)
{
	int len = (int)strlen(s);
	if (len >= width)
		return put_text(w, y, x, width, s, a, false);
	return put_text(w, y, x + width - len, len, s, a, false);
}

void put_hline(WINDOW *w, int y, int x, int n, attr_t a)
{
	if (n <= 0 || y < 0 || y >= getmaxy(w) || x >= getmaxx(w))
		return;
	if (x + n > getmaxx(w))
		n = getmaxx(w) - x;
	wattr_set(w, a, PAIR_NUMBER(a), NULL);
	mvwhline(w, y, x, ACS_HLINE, n);
	wattr_set(w, A_NORMAL, 0, NULL);
}

void put_bar(WINDOW *w, int y, int x, int width, uint64_t used, uint64_t cap)
{
	if (width < 3)
		return;
	int inner = width - 2;
	int fill = cap ? (int)((used * (uint64_t)inner + cap - 1) / cap) : 0;
	if (fill > inner)
		fill = inner;
	attr_t a = cap && used >= cap ? role_attr(R_STALL) : A_NORMAL;
	put_text(w, y, x, 1, "[", A_NORMAL, false);
	for (int i = 0; i < inner; i++) {
		const char *g = i < fill ? (theme.utf8 ? "\xe2\x96\x88" : "#") : (theme.utf8 ? "\xc2\xb7" : ".");
		put_text(w, y, x + 1 + i, 1, g, i < fill ? a : role_attr(R_DIM), false);
	}
	put_text(w, y, x + width - 1, 1, "]", A_NORMAL, false);
}

void put_spark(WINDOW *w, int y, int x, int width, const uint16_t *vals, int n, unsigned max)
{
	static const char *const blocks[] = {" ",
					     "\xe2\x96\x81",
					     "\xe2\x96\x82",
					     "\xe2\x96\x83",
					     "\xe2\x96\x84",
					     "\xe2\x96\x85",
					     "\xe2\x96\x86",
					     "\xe2\x96\x87",
					     "\xe2\x96\x88"};
	static const char ascii[] = " .:-=+*##";
	if (width <= 0)
		return;
	int first = n > width ? n - width : 0;
	if (max == 0)
		for (int i = first; i < n; i++)
			if (vals[i] > max)
				max = vals[i];
	for (int i = first, col = 0; i < n; i++, col++) {
		unsigned lvl = max ? (unsigned)(((uint64_t)vals[i] * 8 + max - 1) / max) : 0;
		if (lvl > 8)
			lvl = 8;
		char g[2] = {ascii[lvl], 0};
		put_text(w, y, x + col, 1, theme.utf8 ? blocks[lvl] : g, A_NORMAL, false);
	}
}

const char *fmt_si(char *buf, size_t n, double v)
{
	if (v < 0)
		v = 0;
	if (v < 10000)
		snprintf(buf, n, "%.0f", v);
	else if (v < 1e6)
		snprintf(buf, n, "%.1fk", v / 1e3);
	else if (v < 1e9)
		snprintf(buf, n, "%.1fM", v / 1e6);
	else
		snprintf(buf, n, "%.1fG", v / 1e9);
	return buf;
}

char *draw_read_row(WINDOW *w, int y, char *buf, size_t n)
{
	size_t len = 0;
	int cols = getmaxx(w);
	mbstate_t st;
	memset(&st, 0, sizeof st);
	buf[0] = 0;
	for (int x = 0; x < cols; x++) {
		cchar_t cc;
		wchar_t wc[CCHARW_MAX + 1];
		attr_t at;
		short pair;
		if (mvwin_wch(w, y, x, &cc) == ERR)
			break;
		if (getcchar(&cc, wc, &at, &pair, NULL) == ERR)
			continue;
		if (at & A_ALTCHARSET) { /* line drawing: show what the terminal shows */
			wchar_t m = wc[0] == 'q' ? 0x2500 : wc[0] == 'x' ? 0x2502 : wc[0] == 'l' ? 0x250c
				  : wc[0] == 'k' ? 0x2510 : wc[0] == 'm' ? 0x2514 : wc[0] == 'j' ? 0x2518 : wc[0];
			wc[0] = m;
			wc[1] = 0;
		}
		for (int i = 0; wc[i] && i < CCHARW_MAX; i++) {
			char mb[16];
			size_t k = wcrtomb(mb, wc[i], &st);
			if (k == (size_t)-1) {
				mb[0] = '?';
				k = 1;
			}
			if (len + k + 1 >= n)
				goto out;
			memcpy(buf + len, mb, k);
			len += k;
		}
	}
out:
	while (len > 0 && buf[len - 1] == ' ')
		len--;
	buf[len] = 0;
	return buf;
}
