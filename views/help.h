/*
 * help.h: the help overlay: a framed box in the middle of the screen showing
 * a multi-line text (key bindings, commands), scrollable; lines longer than
 * the box wrap.
 */
#ifndef GPUSTEP_VIEWS_HELP_H
#define GPUSTEP_VIEWS_HELP_H

#include <curses.h>

/* Draw text ('\n'-separated lines) starting at line *scroll into w, which the
 * caller sized and placed; clamps *scroll. */
void help_draw(WINDOW *w, const char *title, const char *text, int *scroll);
/* The same with another footer line (the pager's keys). */
void help_draw_foot(WINDOW *w, const char *title, const char *foot, const char *text, int *scroll);
/* Lines in text. */
int help_lines(const char *text);
/* Rows the text takes in a box of wd text columns (long lines wrap), which
 * help_draw's *scroll counts. */
int help_rows(const char *text, int wd);

#endif
