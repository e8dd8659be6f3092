/*
 * cmd_run.c: what happens around commands that move time: the stop report
 * (why the run ended, then every display) and the batch script runner.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd_int.h"
#include "session/session_file.h"

void cmd_report_stop(struct session *ss, struct cmd_out *out)
{
	if (ss->load_report) { /* a `load session` ended: its notes, then its screen layout */
		cmd_print_block(out, ss->load_report);
		free(ss->load_report);
		ss->load_report = NULL;
		session_apply_ui(ss, out);
	}
	unsigned long long now = (unsigned long long)sim_cycle(ss->sim);
	switch (ss->last_stop) {
	case SIM_STOP_BREAK:
		if (ss->bps.stop_reason[0])
			cmd_printf(out, "%s", ss->bps.stop_reason);
		else
			cmd_printf(out, "Stopped at cycle %llu", now);
		break;
	case SIM_STOP_DONE:
		if (sim_dram_only(ss->sim))
			cmd_printf(out, "DRAM trace %s finished at cycle %llu (every request completed)", ss->ksrc.name,
				   now);
		else if (sim_deadlock(ss->sim, NULL, 0)) {
			char why[320];
			sim_deadlock(ss->sim, why, sizeof why);
			cmd_errorf(out, "Kernel %s stopped: %s", ss->ksrc.name, why);
		} else
			cmd_printf(out, "Kernel %s finished at cycle %llu", ss->ksrc.name, now);
		break;
	case SIM_STOP_INTERRUPT:
		cmd_printf(out, "Interrupted at cycle %llu", now);
		break;
	case SIM_STOP_LIMIT:
		if (ss->stop_note[0])
			cmd_printf(out, "%s", ss->stop_note);
		else
			cmd_printf(out, "cycle %llu", now);
		break;
	}
	for (int i = 0; i < ss->ndisplays; i++) {
		char prefix[16];
		snprintf(prefix, sizeof prefix, "%d: ", i + 1);
		cmd_print_expr(ss, ss->displays[i], prefix, out);
	}
}

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cmd_run_script(struct session *ss, FILE *f, struct cmd_out *out, int *quit)
{
	char line[1024];
	int failed = 0;
	/* GPUSTEP_TIME_COMMANDS=1: print each command's wall time (tools/bench.sh). */
	const char *tv = getenv("GPUSTEP_TIME_COMMANDS");
	bool timing = tv && *tv && strcmp(tv, "0") != 0;
	if (quit)
		*quit = 0;
	while (fgets(line, sizeof line, f)) {
		size_t n = strlen(line);
		if (n == sizeof line - 1 && line[n - 1] != '\n') {
			cmd_errorf(out, "script line longer than %zu characters", sizeof line - 2);
			failed++;
			int c;
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			continue;
		}
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		const char *p = line;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			continue;
		cmd_printf(out, "(gpustep) %s", p);
		double t0 = timing ? wall_s() : 0;
		int rc = cmd_exec(ss, p, out);
		if (rc & CMD_ERR)
			failed++;
		if (rc & CMD_RUN)
			session_run_all(ss);
		if (timing)
			cmd_printf(out, "time: %.3f ms", (wall_s() - t0) * 1e3);
		if (rc & CMD_RUN)
			cmd_report_stop(ss, out);
		if (rc & CMD_QUIT) {
			if (quit)
				*quit = 1;
			break;
		}
	}
	return failed;
}
