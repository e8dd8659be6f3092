/* fuzz_cmdline.c: the prompt's command line (tui/commands.c and the cmd_*.c
 * commands: word splitting, numbers with k/M/G, breakpoint and watchpoint
 * specs, globs, rewinding). Each input line is one command on a session of
 * vecadd on the teaching machine; runs it starts are bounded (20000
 * cycles). Not fed to it: `save` (writes files), `model` (a long separate
 * run), and lines naming /dev or /proc (a device read never ends). */
#include <stdlib.h>
#include <string.h>

#include "tui/commands.h"
#include "fuzz.h"

static int skipped(const char *line)
{
	line += strspn(line, " \t");
	static const char *const words[] = {"save", "model", NULL};
	for (int i = 0; words[i]; i++) {
		size_t n = strlen(words[i]);
		if (strncmp(line, words[i], n) == 0 && (line[n] == 0 || line[n] == ' ' || line[n] == '\t'))
			return 1;
	}
	return strstr(line, "/dev") || strstr(line, "/proc");
}

FUZZ_TARGET(cmdline)
{
	char *text = fuzz_str(data, size);
	struct sim_cfg c;
	cfg_defaults(&c);
	struct session ss;
	char *err = NULL;
	if (session_init(&ss, &c, "", "vecadd", 1, &err) == 0) {
		session_set_snapshot_budget(&ss, 8u << 20);
		int n = 0;
		for (char *line = text, *nl; line && n < 32; line = nl ? nl + 1 : NULL, n++) {
			nl = strchr(line, '\n');
			if (nl)
				*nl = 0;
			if (skipped(line))
				continue;
			int rc = cmd_exec(&ss, line, &fuzz_quiet);
			if (rc & CMD_QUIT)
				break;
			if (rc & CMD_RUN) {
				for (int i = 0; i < 20 && session_run_slice(&ss, 1000); i++)
					;
				session_run_interrupt(&ss);
				cmd_report_stop(&ss, &fuzz_quiet);
			}
		}
		session_fini(&ss);
	}
	fuzz_note(err);
	free(err);
	free(text);
	return 0;
}
