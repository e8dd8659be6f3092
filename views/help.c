/*
 * help.c: the help overlay box.
 */
#include "help.h"

#include <string.h>

#include "draw.h"

int help_lines(const char *text)
{
	int n = 1;
	for (const char *p = text; *p; p++)
		if (*p == '\n' && p[1])
			n++;
	return n;
}

void help_draw(WINDOW *w, const char *title, const char *text, int *scroll)
{
	help_draw_foot(w, title, " any key closes, PgUp/PgDn scroll ", text, scroll);
}

/* Line i of text (from p) into buf; the start of the next line or NULL. */
static const char *next_line(const char *p, char *buf, size_t n)
{
	const char *e = strchr(p, '\n');
	size_t len = e ? (size_t)(e - p) : strlen(p);
	if (len >= n)
		len = n - 1;
	memcpy(buf, p, len);
	buf[len] = 0;
	return e && e[1] ? e + 1 : NULL;
}

#define HELP_ROWS_MAX 64

/* The rows of one line in wd columns: the first row full width, the others
 * indented by *ind (the line's own indentation + 2, at most wd / 3) so a
 * wrapped table cell or chain link stays under its text. s/e: byte offsets
 * into line of each row's text (up to HELP_ROWS_MAX). Returns the rows. */
static int hang_rows(const char *line, int wd, size_t *s, size_t *e, int *ind)
{
	int lead = 0;
	while (line[lead] == ' ')
		lead++;
	*ind = lead + 2 < wd / 3 ? lead + 2 : wd / 3;
	size_t s0, e0;
	if (wrap_rows(line, wd, &s0, &e0, 1) == 1) {
		s[0] = 0, e[0] = strlen(line);
		return 1;
	}
	s[0] = s0, e[0] = e0;
	size_t rest = e0;
	while (line[rest] == ' ')
		rest++;
	size_t rs[HELP_ROWS_MAX - 1], re[HELP_ROWS_MAX - 1];
	int n = wrap_rows(line + rest, wd - *ind, rs, re, HELP_ROWS_MAX - 1);
	if (n > HELP_ROWS_MAX - 1)
		n = HELP_ROWS_MAX - 1;
	for (int i = 0; i < n; i++)
		s[i + 1] = rest + rs[i], e[i + 1] = rest + re[i];
	return n + 1;
}

int help_rows(const char *text, int wd)
{
	if (wd <= 0)
		return help_lines(text);
	char line[512];
	int n = 0, ind;
	size_t s[HELP_ROWS_MAX], e[HELP_ROWS_MAX];
	for (const char *p = text; p;) {
		p = next_line(p, line, sizeof line);
		n += hang_rows(line, wd, s, e, &ind);
	}
	return n;
}

void help_draw_foot(WINDOW *w, const char *title, const char *foot, const char *text, int *scroll)
{
	int h = getmaxy(w), wd = getmaxx(w), tw = wd - 3; /* text in columns 1..wd-3, ^/v at wd-2 */
	werase(w);
	box(w, 0, 0);
	put_text(w, 0, 2, wd - 4, title, role_attr(R_HEADER), false);
	put_text(w, h - 1, wd > (int)strlen(foot) + 2 ? wd - (int)strlen(foot) - 2 : 1, wd - 2, foot, A_NORMAL, false);
	int rows = h - 2, total = help_rows(text, tw);
	if (*scroll > total - rows)
		*scroll = total - rows;
	if (*scroll < 0)
		*scroll = 0;
	/* Lines longer than the box wrap (as in the output area), so nothing is
	 * lost at 80 columns; scrolling counts rows. */
	char line[512], row[512];
	int r = 0, y = 1, ind = 0;
	for (const char *p = *text ? text : NULL; p && y <= rows;) {
		p = next_line(p, line, sizeof line);
		size_t s[HELP_ROWS_MAX], e[HELP_ROWS_MAX];
		int n = tw > 0 ? hang_rows(line, tw, s, e, &ind) : 1;
		if (tw <= 0)
			s[0] = 0, e[0] = strlen(line);
		for (int i = 0; i < n && y <= rows; i++, r++) {
			if (r < *scroll)
				continue;
			size_t len = e[i] - s[i];
			memcpy(row, line + s[i], len);
			row[len] = 0;
			int x = i ? 1 + ind : 1;
			put_text(w, y++, x, tw - (x - 1), row, A_NORMAL, false);
		}
	}
	if (*scroll > 0)
		put_text(w, 1, wd - 2, 1, "^", role_attr(R_HEADER), false);
	if (*scroll + rows < total)
		put_text(w, h - 2, wd - 2, 1, "v", role_attr(R_HEADER), false);
}
