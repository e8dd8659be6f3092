/*
 * cmd_whatif.c: `whatif KEY=VALUE [...] [--cycles N | --to-end | --until EVENT
 * ...] [--from-start]`: fork the machine at the current stop with a changed
 * configuration, run both copies over the same span, and say where they part
 * and what moved. The forking, comparing and the report are
 * session/whatif.c (shared with the headless `gpustep whatif`); this file
 * reads the command's arguments, lets Ctrl-C stop it, and keeps what `whatif
 * show` and `whatif go` need (cmd_whatif_show.c).
 *
 * A mid-run whatif and a --from-start one differ in when B's change takes
 * effect. Mid-run, B is the stepped
 * machine's own history to C with the change applied at C: exactly the run
 * of A's config from cycle 0 whose config is changed in place at C
 * (tests/unit/test_fork_mshr.c), so B's state at C is A's. With
 * --from-start the change holds from cycle 0, B's state at C is in general
 * another one, and A is the stepped machine's config rebuilt (its run, by
 * determinism). At C = 0 the two are the same run. MSHR counts are limits a
 * fork may lower or raise up to the built capacity (fork.h).
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "cmd_int.h"
#include "whatif_int.h"

struct wi_last whatif_last; /* front-end only; one session at a time */

/* The span options and KEY=VALUE changes into w; `each`: --each was given. */
static int parse_args(struct session *ss, int argc, char **argv, struct whatif_spec *w, bool *each,
		      struct cmd_out *out)
{
	whatif_spec_init(w, &ss->cfg);
	*each = false;
	int spans = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--from-start") == 0) {
			w->from_start = true;
		} else if (strcmp(a, "--each") == 0) {
			*each = true;
		} else if (strcmp(a, "--to-end") == 0) {
			w->span = WHATIF_TO_END;
			spans++;
		} else if (strcmp(a, "--cycles") == 0) {
			if (i + 1 >= argc)
				return cmd_usage_why(out, "whatif", "--cycles needs a number of cycles");
			if (cmd_parse_u64(argv[++i], &w->cycles) || w->cycles == 0)
				return cmd_usage_why(out, "whatif", "--cycles: '%s' is not a positive number of cycles", argv[i]);
			w->span = WHATIF_CYCLES;
			spans++;
		} else if (strcmp(a, "--until") == 0) {
			int j = i + 1;
			while (j < argc && strncmp(argv[j], "--", 2) != 0)
				j++;
			if (j == i + 1)
				return cmd_usage_why(out, "whatif", "--until needs an event (see `help events`)");
			cmd_join_args(j, argv, i + 1, w->until, sizeof w->until);
			i = j - 1;
			w->span = WHATIF_UNTIL;
			spans++;
		} else if (strncmp(a, "--", 2) == 0) {
			return cmd_usage_why(out, "whatif", "unknown option '%s'", a);
		} else {
			const char *eq = strchr(a, '=');
			if (!eq || eq == a || !eq[1])
				return cmd_usage_why(out, "whatif", "'%s' is not KEY=VALUE", a);
			if (w->nkeys == WHATIF_MAX_KEYS)
				return cmd_usage_why(out, "whatif", "at most %d changes at once", WHATIF_MAX_KEYS);
			if (strncmp(a, "param.", 6) == 0)
				return cmd_usage_why(out, "whatif",
						     "'%s': kernel parameters change the program, not the machine; use `run 0` and `set`", a);
			char *err = NULL;
			if (whatif_spec_add(w, a, &err)) {
				cmd_errorf(out, "whatif: %s", err ? err : a);
				free(err);
				return CMD_ERR;
			}
		}
	}
	if (!w->nkeys)
		return cmd_usage_why(out, "whatif", "what change? (KEY=VALUE, e.g. l1.mshr.entries=4)");
	if (spans > 1)
		return cmd_usage_why(out, "whatif", "one of --cycles, --to-end, --until");
	if (*each && w->nkeys < 2)
		return cmd_usage_why(out, "whatif", "--each compares two or more changes, one fork each");
	char *err = NULL;
	if (!*each && whatif_spec_check(w, &err)) {
		cmd_errorf(out, "whatif: %s", err ? err : "invalid configuration");
		free(err);
		return CMD_ERR;
	}
	return CMD_OK;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Ctrl-C on the terminal while a whatif runs: the screen reads keys raw (no
 * SIGINT), so the keyboard is looked at between chunks, every 50 ms; other
 * keys go back to the screen's queue. */
static bool tui_cancel(void *u)
{
	static double last;
	(void)u;
	if (!stdscr || isendwin() || !isatty(STDIN_FILENO))
		return false;
	double t = now_s();
	if (t - last < 0.05)
		return false;
	last = t;
	struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
	bool stop = false;
	unsigned char kept[64];
	int n = 0;
	while (!stop && n < (int)sizeof kept && poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN)) {
		unsigned char c;
		if (read(STDIN_FILENO, &c, 1) != 1)
			break;
		if (c == 3)
			stop = true;
		else
			kept[n++] = c;
	}
	/* ungetch is a stack: the last byte back first keeps their order */
	while (n > 0)
		ungetch(kept[--n]);
	return stop;
}

static struct whatif_out wi_out(struct cmd_out *out)
{
	return (struct whatif_out){.print = out->print, .error = out->error, .u = out->u, .cancel = tui_cancel};
}

CMD_FN(cmd_whatif);
CMD_FN(cmd_whatif)
{
	if (argc >= 2 && strcmp(argv[1], "show") == 0)
		return whatif_show(ss, argc, argv, out);
	if (argc >= 2 && strcmp(argv[1], "go") == 0)
		return whatif_go(ss, argc, argv, out);
	struct whatif_spec *w = xmalloc(sizeof *w);
	bool each;
	int rc = parse_args(ss, argc, argv, w, &each, out);
	if (rc != CMD_OK) {
		free(w);
		return rc;
	}
	struct whatif_out o = wi_out(out);
	if (each) {
		struct whatif_each_row *rows;
		int n;
		rc = whatif_each(ss, w, &o, &rows, &n) ? CMD_ERR : CMD_OK;
		if (rc == CMD_OK)
			free(rows);
		free(w);
		return rc;
	}
	struct whatif_result r;
	if (whatif_run(ss, w, &o, false, &r)) {
		free(w);
		return CMD_ERR;
	}
	if (r.interrupted) {
		cmd_errorf(out, "whatif: interrupted (Ctrl-C) at cycle %llu of A; the machine you step is as it was, at cycle %llu",
			   (unsigned long long)sim_cycle(r.a), (unsigned long long)sim_cycle(ss->sim));
		whatif_result_free(&r);
		free(w);
		return CMD_ERR;
	}
	whatif_last = (struct wi_last){.ss = ss, .sim = ss->sim, .cycle = r.fork_at, .hash = sim_state_hash(ss->sim),
				       .valid = true, .from_start = w->from_start, .part = r.part, .cfg_b = w->cfg};
	whatif_change_text(w, whatif_last.change, sizeof whatif_last.change);
	if (r.part.parted)
		cmd_printf(out, "(`whatif show` puts both machines side by side at cycle %llu; `whatif go a|b` goes there)",
			   (unsigned long long)r.part.cycle);
	whatif_result_free(&r);
	free(w);
	return CMD_OK;
}
