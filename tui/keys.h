/*
 * keys.h: key bindings. Every key that does something is listed once here,
 * bound to a command string that goes through the one command table (tmux's
 * key-bindings.c). A few keys act on the screen itself (Ctrl-C, Esc, the
 * scrolling keys); they are listed with command NULL so `help keys` shows
 * them too.
 *
 * Letters are never bound: typing at the prompt always works. Keys marked
 * KB_EMPTY act only while the prompt line is empty (otherwise they go to
 * readline: Tab completes, '?' is typed).
 */
#ifndef GPUSTEP_TUI_KEYS_H
#define GPUSTEP_TUI_KEYS_H

#include <stdbool.h>

#include "sim/util.h"

/* Alt-x arrives as Esc x; the front end folds it into one code. */
#define KEYS_ALT(c) (0x100000 | (c))

enum key_flags {
	KB_EMPTY = 1u << 0,   /* only when the prompt line is empty */
	KB_RUNNING = 1u << 1, /* also while a run is in progress */
	KB_QUIET = 1u << 2,   /* screen-only command: not echoed into the command output */
};

struct key_binding {
	int key;             /* curses code, a control character or KEYS_ALT(c) */
	const char *label;   /* "F10", "Alt-1" */
	const char *command; /* NULL: handled by the front end itself */
	unsigned flags;
	const char *help;
};

/* The binding for key in the current state, or NULL. */
const struct key_binding *keys_lookup(int key, bool prompt_empty, bool running);
/* The table as text, one "label  command  help" line per binding. */
void keys_help(struct strbuf *out);

#endif
