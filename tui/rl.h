/*
 * rl.h: GNU readline in callback mode inside ncurses. The only file that
 * includes readline headers (cgdb's lib/rline and rlncurses.c show the
 * technique):
 *
 *   keyboard --wget_wch--> tui.c --rlw_feed()--> fake input stream
 *        (rl_getc_function) --> rl_callback_read_char() --> line handler
 *   readline redisplay --> rlw_draw() paints prompt + rl_line_buffer into
 *        the prompt window, scrolled so rl_point is visible.
 *
 * readline never touches the terminal: no signal handlers, no terminal
 * preparation, no environment changes (LINES/COLUMNS belong to curses), and
 * its output stream is /dev/null. Completion lists are handed back through
 * the `show` callback so they appear in the command output window.
 *
 * History lives in ~/.gpustep_history (or $GPUSTEP_HISTORY; empty disables it).
 * readline's state is process-wide, so there is one prompt per process.
 */
#ifndef GPUSTEP_TUI_RL_H
#define GPUSTEP_TUI_RL_H

#include <curses.h>
#include <stdbool.h>

#include "session/session.h"

struct rlw_hooks {
	/* A complete line (heap string the callee owns and frees); NULL on Ctrl-D. */
	void (*line)(void *u, char *line);
	/* Show text (completion candidates) in the command output. */
	void (*show)(void *u, const char *text);
	void *u;
	/* Where completion reads commands, stats and events from. */
	const struct session *ss;
	/* Extra word lists for COMPL_LAYOUT / COMPL_PANEL: NULL-terminated. */
	const char *const *layouts;
	const char *const *panels;
	/* COMPL_LAYOUT_PANEL: the current layout's panels (at most max into out). */
	size_t (*layout_panels)(void *u, const char **out, size_t max);
};

void rlw_init(const char *prompt, const struct rlw_hooks *hooks);
void rlw_fini(void);
/* Feed one byte (a character's UTF-8 bytes one after another). */
void rlw_feed(int byte);
/* Feed a wide character from wget_wch. */
void rlw_feed_wch(wchar_t wc);
/* An ncurses KEY_* code readline should act on (arrows, Home, Del...).
 * Returns false if it is not an editing key. */
bool rlw_key(int key);
bool rlw_empty(void);
/* Forget the current line (Ctrl-C at the prompt). */
void rlw_clear_line(void);
/* Paint the prompt line into w and leave the cursor at the insertion point. */
void rlw_draw(WINDOW *w);
/* Something changed since the last rlw_draw. */
bool rlw_dirty(void);

#endif
