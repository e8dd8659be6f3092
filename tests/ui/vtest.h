/*
 * vtest.h: helpers for view tests: one off-screen curses screen (newterm on
 * /dev/null, TERM=xterm, 250x80, C.UTF-8), a deterministic session, and
 * snapshot comparison against tests/views/<name>.txt.
 *
 *   UPDATE_SNAPSHOTS=1 build/ui_tests view     rewrite the expectations
 *
 * Snapshots are the window text row by row (UTF-8, trailing spaces removed).
 */
#ifndef GPUSTEP_TESTS_VTEST_H
#define GPUSTEP_TESTS_VTEST_H

#include <curses.h>
#include <stdbool.h>

#include "session/session.h"

/* The shared off-screen screen (created on first use, freed at exit). */
void vt_screen(void);
/* A session on the built-in config and workload, after `setup` commands
 * (one per line) have run to completion. Free with vt_session_free. */
struct session *vt_session(const char *setup);
void vt_session_free(struct session *ss);
/* Run command lines (one per line) and finish the runs they start. */
void vt_exec(struct session *ss, const char *lines);
/* The text of w (h rows); caller frees. */
char *vt_text(WINDOW *w);
/* Compare text with tests/views/<name>.txt (or write it under UPDATE_SNAPSHOTS).
 * Reports the first differing line through test_fail. Returns true on match. */
bool vt_snapshot(const char *name, const char *text, const char *file, int line);

/* A new private directory under $TMPDIR (default /tmp) named
 * gpustep-TAG-XXXXXX; caller removes it and frees the path. */
char *vt_tmpdir(const char *tag);
/* A private lesson-progress home: vt_tmpdir(tag) set as $XDG_STATE_HOME.
 * vt_state_home_drop removes it, frees the path and unsets the variable. */
char *vt_state_home(const char *tag);
void vt_state_home_drop(char *d);

struct tui;
/* The interactive screen on a fresh session at lines x cols (the shared
 * off-screen screen resized); vt_tui_stop frees both and checks the session
 * was detached, then restores the screen's size. */
struct tui *vt_tui_start(struct session **ss, int lines, int cols);
void vt_tui_stop(struct tui *t, struct session *ss);

#define CHECK_SNAPSHOT(name, text) vt_snapshot((name), (text), __FILE__, __LINE__)

#endif
