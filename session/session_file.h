/*
 * session_file.h: `save session FILE`, `load session FILE`, `gpustep --session
 * FILE`. A session file is versioned, checksummed text (docs/SESSIONS.md):
 *
 *   gpustep-session 1
 *   cfg PATH=VALUE            every config parameter, resolved (presets may change later)
 *   seed N
 *   workload SPEC             built-in kernel name or file
 *   workload-hash KIND HEX    builtin|file + FNV-1a 64 of its JSON (a changed file is refused)
 *   workload-json JSON        a kernel file's text (version 2): the session opens without the file
 *   param NAME=VALUE          every kernel parameter
 *   bp ID on|off TEXT         breakpoints and watchpoints as typed
 *   display EXPR / log KINDS / select ... / ui COMMAND
 *   cycle N                   loading replays to it
 *   stats-hash HEX            every stat's value at that cycle (checked after the replay)
 *   state / state-data        version 3 (--state): the machine state, so no replay (session_state.h)
 *   checksum fnv1a64 HEX      of every byte before this line but the state-data lines
 *
 * Loading builds a fresh session, replays it to the saved cycle and only then
 * replaces the current one: a bad file leaves everything as it was.
 */
#ifndef GPUSTEP_SESSION_FILE_H
#define GPUSTEP_SESSION_FILE_H

#include "session.h"
#include "sim/util.h"

/* Version 2 adds `workload-json` (a kernel file carried in the session); a
 * file without one is written as version 1, which every gpustep reads. */
#define SESSION_FILE_VERSION 3 /* 3: the machine state (session_state.h) */
/* A kernel file larger than this is named by path only (docs/SESSIONS.md). */
#define SESSION_MAX_KERNEL (1 << 20)

/* The file's text (for tests); caller frees. */
char *session_file_text(const struct session *ss);
/* The same, with the machine state when `state` (version 3); NULL + *err
 * when the state cannot be saved (rewinding off). */
char *session_file_text_ex(const struct session *ss, bool state, char **err);
/* Write atomically (temp + fsync + rename). */
int session_save(const struct session *ss, const char *path, char **err);
/* `save session FILE --state`: with the machine state. */
int session_save_ex(const struct session *ss, const char *path, bool state, char **err);
/* Load into *ss (which must be a live session) or fail leaving it untouched.
 * Notes (e.g. the replayed state differs from the saved hash) go to *notes
 * (may be NULL). UI lines are left in ss->ui_pending for the front end. */
int session_load(struct session *ss, const char *path, struct strbuf *notes, char **err);
/* (session_load returns -2 when Ctrl-C cancelled the replay: ss->load_sim
 * is the machine a signal handler should interrupt meanwhile.) */
/* Same from text in memory; name is used in messages. */
int session_load_text(struct session *ss, const char *text, size_t len, const char *name, struct strbuf *notes,
		      char **err);

/* The same in steps, so a long replay shows progress and can be cancelled
 * (`load session` in the TUI, `gpustep --session` on a terminal; batch mode
 * loops in session_load). new: read, check, build the session up to its
 * replay (NULL + *err on any problem, nothing changed); step: replay at most
 * `budget` cycles; finish: check the result and swap it into *ss, or with
 * partial (a cancelled start-up load) keep the cycle reached; both finish
 * and free release the loader. The live session is untouched until finish. */
struct session_loader;
enum session_load_status { SESSION_LOAD_MORE, SESSION_LOAD_DONE, SESSION_LOAD_CANCELLED };
struct session_loader *session_loader_new(const struct session *ss, const char *path, char **err);
struct session_loader *session_loader_new_text(const struct session *ss, const char *text, size_t len,
					       const char *name, char **err);
enum session_load_status session_loader_step(struct session_loader *ld, uint64_t budget, uint64_t *simulated);
/* From a signal handler: the next step returns SESSION_LOAD_CANCELLED. */
void session_loader_interrupt(struct session_loader *ld);
void session_loader_cancel(struct session_loader *ld);
void session_loader_progress(const struct session_loader *ld, uint64_t *cycle, uint64_t *target, const char **name);
int session_loader_finish(struct session *ss, struct session_loader *ld, bool partial, struct strbuf *notes,
			  char **err);
void session_loader_free(struct session_loader *ld);

/* A `ui` line a session file may carry: exactly what `save session` writes,
 * "layout NAME" or "zoom PANEL" (NAME: lower-case letters, digits, _ and -).
 * Loading drops every other ui line with a note (docs/SECURITY.md). */
bool session_ui_line_ok(const char *line);
/* Run the UI lines of a loaded session (ss->ui_pending) when a UI is
 * attached (ss->ui); kept for later otherwise. */
struct cmd_out;
void session_apply_ui(struct session *ss, struct cmd_out *out);

#endif
