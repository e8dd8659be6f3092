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

void help_draw_foot(WINDOW *w, const char *title, const char *foot, const char *text, int *scroll)
{
	int h = getmaxy(w), wd = getmaxx(w);
	werase(w);
	box(w, 0, 0);
	put_text(w, 0, 2, wd - 4, title, role_attr(R_HEADER), false);
	put_text(w, h - 1, wd > (int)strlen(foot) + 2 ? wd - (int)strlen(foot) - 2 : 1, wd - 2, foot, A_NORMAL, false);
	int rows = h - 2, total = help_lines(text);
	if (*scroll > total - rows)
		*scroll = total - rows;
	if (*scroll < 0)
		*scroll = 0;
	const char *p = text;
	for (int i = 0; i < *scroll && p; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	char line[512];
	for (int y = 1; y <= rows && p && *p; y++) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n >= sizeof line)
			n = sizeof line - 1;
		memcpy(line, p, n);
		line[n] = 0;
		put_text(w, y, 2, wd - 4, line, A_NORMAL, false);
		p = e ? e + 1 : NULL;
	}
	if (*scroll > 0)
		put_text(w, 1, wd - 2, 1, "^", role_attr(R_HEADER), false);
	if (*scroll + rows < total)
		put_text(w, h - 2, wd - 2, 1, "v", role_attr(R_HEADER), false);
}
