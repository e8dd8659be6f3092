/*
 * cmd_rewind.c: moving backwards in time: `reverse-step [N]`, `reverse-continue`
 * and `goto CYCLE`, on top of the engine's snapshots (engine/debug/snapshot.h).
 *
 *   reverse-step N     sim_goto(now - N)            then an empty run request
 *   reverse-continue   sim_prev_break() = C; sim_goto(C - 1), then `step 1`:
 *                      the breakpoint fires again exactly as the first time.
 *                      In the TUI a RUN_REVERSE request does the same in
 *                      slices (session.c reverse_slice; Ctrl-C cancels it)
 *   goto C  (C < now)  sim_goto(C)                  then an empty run request
 *   goto C  (C > now)  a RUN_GOTO request: runs in slices (Ctrl-C stops it),
 *                      breakpoints count their hits but do not stop
 *
 * Every command ends with a run request so the caller prints the usual stop
 * report and displays (batch) or updates the status bar (TUI), exactly as
 * after `step`.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "session/session_file.h"
#include "debug/snapshot.h"

/* Without snapshots there is nothing to go back to. */
static int need_snapshots(struct session *ss, struct cmd_out *out, const char *cmd)
{
	size_t n, bytes;
	uint64_t iv;
	sim_snapshots_info(ss->sim, &n, &bytes, &iv);
	if (n)
		return 0;
	cmd_errorf(out, "%s: rewinding is off (started with --snapshot-mb 0)", cmd);
	return -1;
}

/* Snapshots restored and cycles replayed so far (sim_rewind_work). */
struct rewind_work {
	uint64_t restores, replayed;
};

static struct rewind_work work_now(const struct session *ss)
{
	struct rewind_work w;
	sim_rewind_work(ss->sim, &w.restores, &w.replayed);
	return w;
}

/* With GPUSTEP_TIME_COMMANDS=1 in batch mode (tools/bench.sh), what the
 * command did since w0 besides its wall time: a rewind's time follows the
 * cycles it replays, which depend on where the last snapshot fell. */
static void report_work(const struct session *ss, struct cmd_out *out, struct rewind_work w0)
{
	const char *tv = getenv("GPUSTEP_TIME_COMMANDS");
	if (ss->ui || !tv || !*tv || strcmp(tv, "0") == 0)
		return;
	struct rewind_work w = work_now(ss);
	if (w.restores > w0.restores)
		cmd_printf(out, "replay: %llu restore%s, %llu cycles replayed", (unsigned long long)(w.restores - w0.restores),
			   w.restores - w0.restores == 1 ? "" : "s", (unsigned long long)(w.replayed - w0.replayed));
}

/* Go back to `cycle` (< now) and leave an empty run request for the report;
 * w0: the rewinding work done before the command began. */
static int rewind_to(struct session *ss, uint64_t cycle, struct cmd_out *out, const char *cmd, struct rewind_work w0)
{
	char *err = NULL;
	if (sim_goto(ss->sim, cycle, &err)) {
		cmd_errorf(out, "%s: %s", cmd, err ? err : "cannot rewind");
		free(err);
		return CMD_ERR;
	}
	report_work(ss, out, w0);
	ss->started = sim_cycle(ss->sim) > 0;
	session_start_run(ss, RUN_CYCLES, 0);
	return CMD_RUN;
}

CMD_FN(cmd_reverse_step)
{
	uint64_t n = 1;
	if (cmd_opt_count(out, "reverse-step", argc, argv, 1, &n))
		return CMD_ERR;
	if (need_snapshots(ss, out, "reverse-step"))
		return CMD_ERR;
	uint64_t now = sim_cycle(ss->sim), horizon = sim_rewind_horizon(ss->sim);
	if (now <= horizon) {
		cmd_errorf(out, "reverse-step: already at cycle %llu, the earliest reachable", (unsigned long long)now);
		return CMD_ERR;
	}
	uint64_t target = now - horizon < n ? horizon : now - n;
	if (now - horizon < n) /* not silently: the user asked for more */
		cmd_printf(out, "reverse-step: %llu cycle%s back from cycle %llu is before cycle %llu, the earliest "
				"reachable; going back %llu instead",
			   (unsigned long long)n, n == 1 ? "" : "s", (unsigned long long)now,
			   (unsigned long long)horizon, (unsigned long long)(now - horizon));
	return rewind_to(ss, target, out, "reverse-step", work_now(ss));
}

CMD_FN(cmd_reverse_continue)
{
	if (cmd_no_args(out, "reverse-continue", argc, argv))
		return CMD_ERR;
	if (need_snapshots(ss, out, "reverse-continue"))
		return CMD_ERR;
	/* Nothing could have stopped: say so at once rather than replay the
	 * whole history looking (seconds at millions of cycles, uninterruptible). */
	bool any = false;
	for (unsigned i = 0; i < ss->bps.n; i++)
		any |= ss->bps.v[i].enabled;
	if (!any) {
		cmd_errorf(out, "reverse-continue: no enabled breakpoint or watchpoint to go back to (see `info break`)");
		return CMD_ERR;
	}
	/* The TUI searches in slices, like `continue`: the screen keeps updating
	 * and Ctrl-C/Esc cancels it, leaving everything where it was. */
	if (ss->ui) {
		session_start_run(ss, RUN_REVERSE, 0);
		return CMD_RUN;
	}
	uint64_t now = sim_cycle(ss->sim);
	struct rewind_work w0 = work_now(ss);
	uint64_t c = sim_prev_break(ss->sim);
	if (c == UINT64_MAX || c == 0 || c >= now) {
		cmd_errorf(out, "reverse-continue: no breakpoint stop between cycle %llu and cycle %llu",
			   (unsigned long long)sim_rewind_horizon(ss->sim), (unsigned long long)now);
		return CMD_ERR;
	}
	/* One cycle before the stop, then step into it: the stop report, the
	 * selection and the highlighted event are those of the first time. */
	int rc = rewind_to(ss, c - 1, out, "reverse-continue", w0);
	if (rc & CMD_RUN)
		session_start_run(ss, RUN_CYCLES, 1);
	return rc;
}

CMD_FN(cmd_goto)
{
	uint64_t c;
	if (argc == 1)
		return cmd_usage_why(out, "goto", "which cycle?");
	if (argc > 2)
		return cmd_usage_why(out, "goto", "one cycle, got also '%s'", argv[2]);
	if (cmd_parse_u64(argv[1], &c))
		return cmd_usage_why(out, "goto", "'%s' is not a cycle number", argv[1]);
	uint64_t now = sim_cycle(ss->sim);
	if (c < now) {
		if (need_snapshots(ss, out, "goto"))
			return CMD_ERR;
		return rewind_to(ss, c, out, "goto", work_now(ss));
	}
	if (c > now && sim_done(ss->sim)) {
		cmd_errorf(out, "goto: the kernel finished at cycle %llu", (unsigned long long)now);
		return CMD_ERR;
	}
	session_start_run(ss, RUN_GOTO, c - now);
	return CMD_RUN;
}

/* `load session FILE`: all or nothing (session_file.c). With a screen the
 * replay runs in slices like `continue` (RUN_LOAD: progress in the status
 * bar, Ctrl-C or Esc cancels and changes nothing); without one it runs here. */
int cmd_load_session(struct session *ss, const char *path, struct cmd_out *out)
{
	struct strbuf notes;
	sb_init(&notes);
	char *err = NULL;
	ss->last_line[0] = 0;
	if (ss->ui) {
		struct session_loader *ld = session_loader_new(ss, path, &err);
		if (!ld) {
			cmd_errorf(out, "load session: %s", err ? err : path);
			cmd_errorf(out, "the current session is unchanged");
			free(err);
			sb_fini(&notes);
			return CMD_ERR;
		}
		session_start_load(ss, ld, false);
		sb_fini(&notes);
		return CMD_RUN;
	}
	if (session_load(ss, path, &notes, &err)) {
		cmd_errorf(out, "load session: %s", err ? err : path);
		cmd_errorf(out, "the current session is unchanged");
		free(err);
		sb_fini(&notes);
		return CMD_ERR;
	}
	session_loaded_message(ss, path, &notes);
	free(ss->load_report);
	ss->load_report = xstrdup(notes.s);
	sb_fini(&notes);
	session_start_run(ss, RUN_CYCLES, 0); /* report the notes, the cycle and the displays */
	return CMD_RUN | CMD_RESET;
}
