/*
 * outlog.h: the command output window's scrollback (gdb's command window):
 * a bounded ring of logical lines, wrapped to the window width when drawn,
 * newest at the bottom, scrolled up by whole screen rows.
 */
#ifndef GPUSTEP_TUI_OUTLOG_H
#define GPUSTEP_TUI_OUTLOG_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#define OUTLOG_CAP 2000

enum out_kind { OUT_TEXT, OUT_ECHO, OUT_ERROR };

struct outlog {
	struct {
		char *text;
		enum out_kind kind;
	} v[OUTLOG_CAP];
	int start, n;
	unsigned long long added; /* lines ever added (a command's output = the difference) */
	int scroll; /* screen rows scrolled up from the bottom */
	bool dirty;
};

void outlog_init(struct outlog *o);
void outlog_fini(struct outlog *o);
/* Append text ('\n' separates lines); scrolls back to the bottom. */
void outlog_add(struct outlog *o, const char *text, enum out_kind k);
void outlog_draw(struct outlog *o, WINDOW *w);
/* Scroll by pages (PgUp > 0) in a window of w's size, clamped. */
void outlog_page(struct outlog *o, WINDOW *w, int pages);
/* The newest k lines ('\n'-joined, caller frees) and the screen rows they
 * take at width wd. */
char *outlog_tail(const struct outlog *o, int k);
int outlog_tail_rows(const struct outlog *o, int k, int wd);

#endif
