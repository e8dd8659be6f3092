/*
 * session_file.h: `save session FILE`, `load session FILE`, `gpustep --session
 * FILE`. A session file is versioned, checksummed text (docs/SESSIONS.md):
 *
 *   gpustep-session 1
 *   cfg PATH=VALUE            every config parameter, resolved (presets may change later)
 *   seed N
 *   workload SPEC             built-in kernel name or file
 *   workload-hash KIND HEX    builtin|file + FNV-1a 64 of its JSON (a changed file is refused)
 *   param NAME=VALUE          every kernel parameter
 *   bp ID on|off TEXT         breakpoints and watchpoints as typed
 *   display EXPR / log KINDS / select ... / ui COMMAND
 *   cycle N                   loading replays to it
 *   stats-hash HEX            every stat's value at that cycle (checked after the replay)
 *   checksum fnv1a64 HEX      of every byte before this line
 *
 * Loading builds a fresh session, replays it to the saved cycle and only then
 * replaces the current one: a bad file leaves everything as it was.
 */
#ifndef GPUSTEP_SESSION_FILE_H
#define GPUSTEP_SESSION_FILE_H

#include "session.h"
#include "util.h"

#define SESSION_FILE_VERSION 1

/* The file's text (for tests); caller frees. */
char *session_file_text(const struct session *ss);
/* Write atomically (temp + fsync + rename). */
int session_save(const struct session *ss, const char *path, char **err);
/* Load into *ss (which must be a live session) or fail leaving it untouched.
 * Notes (e.g. the replayed state differs from the saved hash) go to *notes
 * (may be NULL). UI lines are left in ss->ui_pending for the front end. */
int session_load(struct session *ss, const char *path, struct strbuf *notes, char **err);
/* Same from text in memory; name is used in messages. */
int session_load_text(struct session *ss, const char *text, size_t len, const char *name, struct strbuf *notes,
		      char **err);

/* Run the UI lines of a loaded session (ss->ui_pending) when a UI is
 * attached (ss->ui); kept for later otherwise. */
struct cmd_out;
void session_apply_ui(struct session *ss, struct cmd_out *out);

#endif
