/*
 * tui.h: the interactive front end.
 *
 *   row 0          status bar (views/status.c)
 *   rows 1..       panels arranged by the current layout (layout.c)
 *   next rows      command output: scrollback of what commands printed
 *   last row       the readline prompt (rl.c)
 *
 * The CLI calls tui_main() for interactive mode. The rest of this header is
 * for tui_commands.c (the TUI-only commands reach the front end through
 * session->ui) and for the view tests, which draw whole screens off-screen.
 */
#ifndef GPUSTEP_TUI_TUI_H
#define GPUSTEP_TUI_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "commands.h"
#include "session/session.h"

/* Run the interactive UI on an initialised session until `quit` (returns 0)
 * or a terminal error (prints it, returns 1). */
int tui_main(struct session *ss);

struct tui;

/* A front end on the current curses screen (the caller did initscr/newterm).
 * Sets ss->ui and the TUI-only commands; tui_free undoes both. */
struct tui *tui_new(struct session *ss, bool colours, bool utf8);
void tui_free(struct tui *t);
/* Draw everything that changed (wnoutrefresh + one doupdate). */
void tui_frame(struct tui *t);
/* Run a command line as if typed (echoed into the command output). Returns cmd_result flags. */
int tui_exec(struct tui *t, const char *line);
/* Finish a pending run (CMD_RUN) synchronously, as the loop would (for tests). */
void tui_run_to_stop(struct tui *t);

/* For tui_commands.c. */
const char *tui_layout_name(const struct tui *t);
/* The zoomed panel's name, or NULL. */
const char *tui_zoomed(const struct tui *t);
/* The panels of the current layout (zoom's completion); at most max. */
size_t tui_layout_panels(const struct tui *t, const char **out, size_t max);
struct layout_slot;
/* The panel windows as placed now (after any pending layout or resize): at
 * most max, in drawing order. For tests. */
int tui_arrangement(struct tui *t, struct layout_slot *out, int max);
void tui_redraw(struct tui *t);

/* The TUI-only commands (tui_commands.c), registered as session->extra_cmds. */
extern const struct cmd_def tui_cmds[];
extern const size_t tui_ncmds;

#endif
