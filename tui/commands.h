/*
 * commands.h: the one command table. The TUI prompt, key bindings (bound to
 * command strings), batch scripts and `help` all go through cmd_exec().
 *
 * Commands that advance time (step, continue, run, next, until) only set
 * session->run and return CMD_RUN: batch mode runs the request to its end at
 * once, the TUI runs it in slices while polling the keyboard. When the run
 * ends, cmd_report_stop() prints why (and the displays).
 */
#ifndef GPUSTEP_COMMANDS_H
#define GPUSTEP_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

#include "session/session.h"

struct cmd_out {
	void (*print)(void *u, const char *text); /* one or more lines, no trailing newline needed */
	void (*error)(void *u, const char *text);
	void *u;
};

void cmd_printf(struct cmd_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cmd_errorf(struct cmd_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

enum cmd_result {
	CMD_OK = 0,
	CMD_ERR = 1 << 0,
	CMD_QUIT = 1 << 1,
	CMD_RUN = 1 << 2,    /* session->run holds a request */
	CMD_RESET = 1 << 3,  /* the simulator was rebuilt (panels reset their scroll) */
};

enum cmd_complete {
	COMPL_NONE,
	COMPL_COMMAND,
	COMPL_EVENT,
	COMPL_STAT,
	COMPL_CONFIG,  /* config paths */
	COMPL_KERNEL,  /* built-in kernel names */
	COMPL_LAYOUT,
	COMPL_PANEL,
	COMPL_FILE,
	COMPL_LINE,    /* cache lines in the coherence transaction log */
	COMPL_LAYOUT_PANEL, /* the panels of the current layout (`zoom`) */
};

#define CMD_MAX_ARGS 32

struct cmd_def {
	const char *name;
	const char *aliases;  /* space-separated, e.g. "s" */
	const char *usage;    /* "step [N]" */
	const char *summary;  /* one line */
	const char *help;     /* paragraph(s) ending with an "Example:" line */
	int (*fn)(struct session *ss, int argc, char **argv, struct cmd_out *out);
	unsigned repeat : 1;  /* Enter on an empty line repeats it (gdb) */
	unsigned complete : 4; /* enum cmd_complete for its arguments */
	/* Subcommand words Tab offers for the first argument (NULL-terminated),
	 * before `complete` applies to what follows; NULL for none. */
	const char *const *words;
};

/* Execute one line. Unknown commands: CMD_ERR with "unknown command 'x' (try help)". */
int cmd_exec(struct session *ss, const char *line, struct cmd_out *out);
/* Built-in table plus the session's extra (TUI) commands. */
const struct cmd_def *cmd_lookup(const struct session *ss, const char *name_or_alias);
size_t cmd_count(const struct session *ss);
/* Line addresses in the coherence transaction log, newest first, each once
 * (what Tab offers after `history`); at most max, returns the count. */
size_t cmd_history_lines(const struct session *ss, uint64_t *lines, size_t max);
const struct cmd_def *cmd_at(const struct session *ss, size_t i);
/* Print why the last run stopped: "stopped at breakpoint 2 (dram.row_conflict ch=0 bank=3 ...)
 * at cycle N", then each display. */
void cmd_report_stop(struct session *ss, struct cmd_out *out);
/* Run a script (batch mode): each line echoed as "(gpustep) line", outputs to
 * out; returns the number of failed commands. Comments (#) and blank lines skipped. */
int cmd_run_script(struct session *ss, FILE *f, struct cmd_out *out, int *quit);

#endif
