/* test_commands.c: the command table on a real session (teaching + vecadd). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/commands.h"
#include "load/loader.h"
#include "sesstest.h"
#include "test.h"
#include "tui/tui.h"

static void fx_init(struct fx *f) { fx_init_wl(f, "vecadd"); }

TEST(commands_table_complete)
{
	for (size_t i = 0; i < cmd_count(NULL); i++) {
		const struct cmd_def *d = cmd_at(NULL, i);
		CHECK(d->usage && d->summary && d->help && d->fn);
		if (!strstr(d->help, "Example:"))
			test_fail(__FILE__, __LINE__, "help of %s has no Example: line", d->name);
		CHECK(cmd_lookup(NULL, d->name) == d);
	}
	CHECK(cmd_lookup(NULL, "s") == cmd_lookup(NULL, "step"));
	CHECK(cmd_lookup(NULL, "cont") == cmd_lookup(NULL, "continue"));
	CHECK(cmd_lookup(NULL, "und") == cmd_lookup(NULL, "undisplay"));
	CHECK(cmd_lookup(NULL, "di") == NULL); /* disable / display */
}

/* Columns of one line of UTF-8 text (one per code point; no wide glyphs here). */
static int columns(const char *s, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Every line of text is at most max columns; names the first that is not. */
static void check_width(const char *what, const char *text, int max)
{
	for (const char *l = text; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		if (columns(l, n) > max)
			test_fail(__FILE__, __LINE__, "%s: line of %d columns (max %d): %.*s", what, columns(l, n), max,
				  (int)n, l);
		l += n + (e != NULL);
	}
}

/* `help`, `help CMD` for every command (the TUI's too) and `help keys` fit an
 * 80-column screen with room for the output window's margin: <= 78 columns. */
TEST(commands_help_fits_78_columns)
{
	struct fx f;
	fx_init(&f);
	f.ss.extra_cmds = tui_cmds;
	f.ss.nextra_cmds = tui_ncmds;
	CHECK_EQ(fx_run(&f, "help"), CMD_OK);
	check_width("help", f.cap.out.s, 78);
	CHECK_EQ(fx_run(&f, "help keys"), CMD_OK);
	check_width("help keys", f.cap.out.s, 78);
	size_t n = cmd_count(&f.ss);
	CHECK(n > tui_ncmds);
	for (size_t i = 0; i < n; i++) {
		const struct cmd_def *d = cmd_at(&f.ss, i);
		char line[80], what[64];
		snprintf(line, sizeof line, "help %s", d->name);
		snprintf(what, sizeof what, "help %s", d->name);
		CHECK_EQ(fx_run(&f, line), CMD_OK);
		if (strcmp(d->name, "keys") != 0) /* `help keys` is the key table, checked above */
			CHECK_CONTAINS(f.cap.out.s, "usage: ");
		check_width(what, f.cap.out.s, 78);
	}
	fx_fini(&f);
}

TEST(commands_step_print_repeat)
{
	struct fx f;
	fx_init(&f);
	CHECK_EQ(fx_run(&f, "step 10"), CMD_RUN);
	CHECK_STR(f.cap.out.s, "cycle 10\n");
	CHECK_EQ(sim_cycle(f.ss.sim), 10);
	fx_run(&f, ""); /* Enter repeats step 10 */
	CHECK_EQ(sim_cycle(f.ss.sim), 20);
	fx_run(&f, "print sim.cycles");
	CHECK_STR(f.cap.out.s, "sim.cycles = 20\n");
	fx_run(&f, ""); /* print is not repeatable */
	CHECK_STR(f.cap.out.s, "");
	CHECK_EQ(sim_cycle(f.ss.sim), 20);
	CHECK_EQ(fx_run(&f, "p l1.*"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "l1.hits = ");
	CHECK_EQ(fx_run(&f, "print l1.hts"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "unknown stat 'l1.hts'");
	CHECK_EQ(fx_run(&f, "print l1.ways"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "l1.ways = ");
	CHECK_EQ(fx_run(&f, "print param.n"), CMD_OK);
	CHECK_EQ(fx_run(&f, "step 1k"), CMD_RUN);
	CHECK_EQ(sim_cycle(f.ss.sim), 1020);
	fx_fini(&f);
}

TEST(commands_errors)
{
	struct fx f;
	fx_init(&f);
	CHECK_EQ(fx_run(&f, "frob"), CMD_ERR);
	CHECK_STR(f.cap.err.s, "unknown command 'frob' (try help)\n");
	CHECK_EQ(fx_run(&f, "d"), CMD_OK); /* alias of delete, not ambiguous */
	CHECK_EQ(fx_run(&f, "di 1"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "ambiguous command 'di'");
	CHECK_EQ(fx_run(&f, "step -3"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "select sm 99"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "sm: expected a number from 0 to");
	CHECK_EQ(fx_run(&f, "set l2.sets 48"), CMD_ERR);
	CHECK_STR(f.cap.err.s, "l2.sets: must be a power of two, got 48\n");
	CHECK_EQ(fx_run(&f, "info nothing"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "log nosuch.*"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "print \"unterminated"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "workload nope_nope"), CMD_ERR);
	CHECK_STR(f.ss.ksrc.name, "vecadd"); /* unchanged */
	CHECK_EQ(fx_run(&f, "load /nonexistent.json"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "quit"), CMD_QUIT);
	fx_fini(&f);
}

/* A bad argument is named before the usage line (before: a bare "usage: step
 * [N]" for `step abc`), and extra arguments are refused, not ignored (`info
 * bank 9 9` showed bank 9 of the selected channel, `info mshr l3` the L1). */
TEST(commands_bad_arguments_are_named)
{
	static const struct {
		const char *line, *err;
	} cases[] = {
		{"step abc", "step: 'abc' is not a number of 1 or more\nusage: step [N]\n"},
		{"step 5 6", "step: one number at most, got also '6'\n"},
		{"continue 3", "continue: takes no arguments, got '3'\nusage: continue\n"},
		{"run x", "run: 'x' is not a number\n"},
		{"reverse-step 0", "reverse-step: '0' is not a number of 1 or more\n"},
		{"goto abc", "goto: 'abc' is not a cycle number\nusage: goto CYCLE\n"},
		{"goto", "goto: which cycle?\n"},
		{"next 3", "next: takes no arguments, got '3'\n"},
		{"check foo", "check: takes no arguments, got 'foo'\n"},
		{"list foo", "list: nothing called 'foo' to list\n"},
		{"save foo x", "save: cannot save 'foo'\n"},
		{"save stats", "save: into which file?\n"},
		{"timeline foo", "timeline: expected l2 or follow, got 'foo'\n"},
		{"why zz", "why: 'zz' is neither warp, go nor an address\n"},
		{"why 0x10 3", "why: one address, got also '3'\n"},
		{"info bank 1 2", "info bank: one number (N), got also '2'\n"},
		{"info sm 0 1", "info sm: one number (N), got also '1'\n"},
		{"info mshr l3", "info mshr: expected l1 or l2, got 'l3'\n"},
		{"info mshr l2 x", "info mshr: expected l1 or l2, got 'x'\n"},
		{"select warp", "select: which warp? (a number; for line an address or last)\n"},
		{"select foo 1", "select: unknown unit 'foo' (sm, warp, l2, channel, bank, line, mshr)\n"},
		/* silent before: no output at all */
		{"info stats nosuch*", "info stats: no stat matches 'nosuch*' (see list stats)\n"},
		{"info config l1.a*", "info config: no config key matches 'l1.a*' (see list config)\n"},
		/* before: "display: expected a number from 0 to 0, got '3'" (displays count from 1) */
		{"undisplay 3", "undisplay: there are no displays (`display STAT` adds one)\n"},
	};
	struct fx f;
	fx_init(&f);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		CHECK_EQ(fx_run(&f, cases[i].line), CMD_ERR);
		if (strncmp(f.cap.err.s, cases[i].err, strlen(cases[i].err)) != 0)
			test_fail(__FILE__, __LINE__, "%s: error '%s', want it to start with '%s'", cases[i].line, f.cap.err.s,
			          cases[i].err);
	}
	CHECK_EQ(fx_run(&f, "info mshr l2"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "L2 bank 0 MSHR");
	/* A screen command is explained in batch mode too (before: "help: no
	 * command or panel 'layout'", while `layout` itself says it is one). */
	CHECK_EQ(fx_run(&f, "help layout"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "usage: layout");
	CHECK_CONTAINS(f.cap.out.s, "Example: ");
	CHECK_CONTAINS(f.cap.out.s, "only in the TUI");
	CHECK_EQ(fx_run(&f, "display l1.hits"), CMD_OK);
	CHECK_EQ(fx_run(&f, "undisplay 0"), CMD_ERR);
	CHECK_STR(f.cap.err.s, "undisplay: expected a display number from 1 to 1 (see `display`), got '0'\n");
	CHECK_EQ(fx_run(&f, "undisplay 1"), CMD_OK);
	/* After cycle 0 a wrong key or value is named, not "use run 0 first"
	 * (which would not help); a right one gets that advice. */
	CHECK_EQ(fx_run(&f, "step 2"), CMD_RUN);
	CHECK_EQ(fx_run(&f, "set l1.wayz 4"), CMD_ERR);
	CHECK_STR(f.cap.err.s, "l1.wayz: unknown key (did you mean l1.ways?)\n");
	CHECK_EQ(fx_run(&f, "set l1.ways 0"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "l1.ways: must be between 1 and");
	CHECK_EQ(fx_run(&f, "set param.nope 3"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "no such parameter");
	CHECK_EQ(fx_run(&f, "set l1.ways 4"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "Use `run 0` to go back to cycle 0");
	fx_fini(&f);
}

/* What Tab offers after `info` is what `info` takes: every word is a subject
 * it accepts (frc and rf among them), and the unknown-subject message lists
 * every one. */
TEST(commands_info_words_are_subjects)
{
	struct fx f;
	fx_init(&f);
	const struct cmd_def *d = cmd_lookup(NULL, "info");
	REQUIRE(d && d->words);
	CHECK_EQ(fx_run(&f, "info nosuch"), CMD_ERR);
	char *unknown = xstrdup(f.cap.err.s);
	int n = 0;
	bool frc = false, rf = false;
	for (const char *const *w = d->words; *w; w++, n++) {
		char line[64], listed[64], first[64];
		snprintf(line, sizeof line, "info %s%s", *w, strcmp(*w, "line") == 0 ? " 0x80" : "");
		if (fx_run(&f, line) != CMD_OK)
			test_fail(__FILE__, __LINE__, "%s: %s", line, f.cap.err.s);
		CHECK(!strstr(f.cap.err.s, "unknown subject"));
		snprintf(listed, sizeof listed, " %s%s", *w, w[1] ? "," : ")");
		snprintf(first, sizeof first, "(%s,", *w);
		if (!strstr(unknown, w == d->words ? first : listed))
			test_fail(__FILE__, __LINE__, "'%s' not in the unknown-subject message: %s", *w, unknown);
		frc |= strcmp(*w, "frc") == 0;
		rf |= strcmp(*w, "rf") == 0;
	}
	CHECK(frc && rf);
	CHECK(n >= 14);
	free(unknown);
	fx_fini(&f);
}

/* One meaning of "cycle N" everywhere: the machine after N cycles (sim.cycles,
 * the status bar, `info`, `goto N`, `break cycle N`). An event's breakpoint
 * stops at the end of the cycle the event happened in, so the report names
 * that cycle too, as the event log shows it. */
TEST(commands_stop_report_names_the_machine_cycle)
{
	struct fx f;
	fx_init(&f);
	char want[160];
	CHECK_EQ(fx_run(&f, "break dram.row_conflict"), CMD_OK);
	CHECK_EQ(fx_run(&f, "continue"), CMD_RUN);
	REQUIRE(f.ss.last_stop == SIM_STOP_BREAK);
	unsigned long long now = (unsigned long long)sim_cycle(f.ss.sim);
	CHECK_EQ(f.ss.bps.stop_ev.cycle + 1, now);
	snprintf(want, sizeof want, "at cycle %llu (logged in cycle %llu)\n", now, now - 1);
	CHECK_CONTAINS(f.cap.out.s, want);
	fx_run(&f, "print sim.cycles");
	snprintf(want, sizeof want, "sim.cycles = %llu\n", now);
	CHECK_STR(f.cap.out.s, want);
	fx_run(&f, "info");
	snprintf(want, sizeof want, "cycle     %llu (stopped)", now);
	CHECK_CONTAINS(f.cap.out.s, want);
	/* rs 5 is five cycles before the cycle reported; c finds the same hit */
	fx_run(&f, "rs 5");
	CHECK_EQ(sim_cycle(f.ss.sim), now - 5);
	fx_run(&f, "continue");
	CHECK_EQ(sim_cycle(f.ss.sim), now);
	snprintf(want, sizeof want, "at cycle %llu (logged in cycle %llu)\n", now, now - 1);
	CHECK_CONTAINS(f.cap.out.s, want);
	/* goto the reported cycle lands where the stop did */
	fx_run(&f, "goto 3");
	snprintf(want, sizeof want, "goto %llu", now);
	fx_run(&f, want);
	CHECK_EQ(sim_cycle(f.ss.sim), now);
	/* break cycle N: no event, the machine is at N */
	fx_run(&f, "delete");
	snprintf(want, sizeof want, "break cycle %llu", now + 10);
	fx_run(&f, want);
	fx_run(&f, "continue");
	CHECK_EQ(sim_cycle(f.ss.sim), now + 10);
	snprintf(want, sizeof want, "cycle %llu at cycle %llu\n", now + 10, now + 10);
	CHECK_CONTAINS(f.cap.out.s, want);
	/* next: the issue was logged in the cycle before the one reported */
	fx_run(&f, "next");
	snprintf(want, sizeof want, "at cycle %llu (logged in cycle %llu)\n", (unsigned long long)sim_cycle(f.ss.sim),
		 (unsigned long long)sim_cycle(f.ss.sim) - 1);
	CHECK_CONTAINS(f.cap.out.s, want);
	fx_fini(&f);
}

/* `next` uses a breakpoint of its own that gives its number back; `info
 * bank` says when no row is open rather than printing row -1. */
TEST(commands_next_keeps_breakpoint_numbers_and_info_bank_rows)
{
	struct fx f;
	fx_init(&f);
	CHECK_EQ(fx_run(&f, "info bank 0"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "channel 0 bank 0: idle, no open row,");
	CHECK(strstr(f.cap.out.s, "-1") == NULL);
	CHECK_EQ(fx_run(&f, "next"), CMD_RUN);
	CHECK_CONTAINS(f.cap.out.s, "sm 0 warp 0 issued");
	fx_run(&f, "next");
	CHECK_EQ(fx_run(&f, "break dram.row_conflict"), CMD_OK);
	CHECK_STR(f.cap.out.s, "Breakpoint 1: dram.row_conflict\n");
	fx_run(&f, "until l2.miss"); /* a visible temporary breakpoint does take one */
	CHECK_CONTAINS(f.cap.out.s, "Temporary breakpoint 2, l2.miss");
	fx_run(&f, "next");
	fx_run(&f, "break l1.fill");
	CHECK_STR(f.cap.out.s, "Breakpoint 3: l1.fill\n");
	fx_run(&f, "delete 3");
	fx_run(&f, "continue"); /* the row conflict: bank 0 had row 0 open */
	fx_run(&f, "step 40");
	fx_run(&f, "info bank 0");
	CHECK_CONTAINS(f.cap.out.s, ", open row ");
	fx_fini(&f);
}

TEST(commands_breakpoints_and_until)
{
	struct fx f;
	fx_init(&f);
	CHECK_EQ(fx_run(&f, "break l1.miss sm=1"), CMD_OK);
	CHECK_STR(f.cap.out.s, "Breakpoint 1: l1.miss sm=1\n");
	CHECK_EQ(fx_run(&f, "continue"), CMD_RUN);
	CHECK_EQ(f.ss.last_stop, SIM_STOP_BREAK);
	CHECK_CONTAINS(f.cap.out.s, "Breakpoint 1, l1.miss sm=1 ");
	uint64_t at = sim_cycle(f.ss.sim);
	fx_run(&f, "info break");
	CHECK_CONTAINS(f.cap.out.s, "breakpoint  y    1     l1.miss sm=1");
	fx_run(&f, "disable 1");
	fx_run(&f, "until cycle 5000");
	CHECK_EQ(sim_cycle(f.ss.sim), 5000);
	CHECK(sim_cycle(f.ss.sim) > at);
	CHECK_EQ(f.ss.bps.n, 1); /* the until breakpoint is gone */
	fx_run(&f, "until l2.miss unit=77"); /* never happens: runs to the end */
	CHECK_EQ(f.ss.last_stop, SIM_STOP_DONE);
	CHECK_EQ(f.ss.bps.n, 1);
	CHECK_CONTAINS(f.cap.out.s, "Kernel vecadd finished at cycle");
	CHECK_EQ(fx_run(&f, "continue"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "use `run` to restart");
	/* run restarts; breakpoints survive */
	fx_run(&f, "enable 1");
	CHECK_EQ(fx_run(&f, "run"), CMD_RUN | CMD_RESET);
	CHECK_EQ(f.ss.last_stop, SIM_STOP_BREAK);
	CHECK_EQ(sim_cycle(f.ss.sim), at);
	fx_run(&f, "delete");
	CHECK_STR(f.cap.out.s, "deleted 1 breakpoint\n");
	fx_fini(&f);
}

TEST(commands_set_load_workload)
{
	struct fx f;
	fx_init(&f);
	CHECK_EQ(fx_run(&f, "set l1.ways 2"), CMD_RESET);
	CHECK_EQ(f.ss.cfg.l1.ways, 2);
	CHECK_EQ(fx_run(&f, "set seed=7"), CMD_RESET);
	CHECK_EQ(f.ss.seed, 7);
	CHECK_EQ(fx_run(&f, "set param.n 1024"), CMD_RESET);
	fx_run(&f, "step 3");
	CHECK_EQ(fx_run(&f, "set l1.ways 4"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "run 0");
	CHECK_EQ(fx_run(&f, "run 0"), CMD_RESET);
	CHECK_EQ(sim_cycle(f.ss.sim), 0);
	CHECK_EQ(fx_run(&f, "set l1.ways 4"), CMD_RESET);
	CHECK_EQ(fx_run(&f, "load teaching"), CMD_RESET);
	CHECK_EQ(f.ss.cfg.l1.ways, 4);
	CHECK_EQ(fx_run(&f, "workload strided"), CMD_RESET);
	CHECK_STR(f.ss.ksrc.name, "strided");
	fx_run(&f, "list kernels");
	CHECK_CONTAINS(f.cap.out.s, "vecadd");
	fx_run(&f, "help events");
	CHECK_CONTAINS(f.cap.out.s, "dram.row_conflict");
	fx_run(&f, "help break");
	CHECK_CONTAINS(f.cap.out.s, "Example: break");
	fx_run(&f, "info config l1.*");
	CHECK_CONTAINS(f.cap.out.s, "l1.ways");
	fx_run(&f, "info");
	CHECK_CONTAINS(f.cap.out.s, "workload  strided");
	fx_fini(&f);
}

TEST(commands_display_log_save)
{
	struct fx f;
	fx_init(&f);
	CHECK_EQ(fx_run(&f, "display sim.cycles"), CMD_OK);
	CHECK_STR(f.cap.out.s, "1: sim.cycles = 0\n");
	fx_run(&f, "step 4");
	CHECK_STR(f.cap.out.s, "cycle 4\n1: sim.cycles = 4\n");
	fx_run(&f, "undisplay 1");
	CHECK_EQ(f.ss.ndisplays, 0);
	CHECK_EQ(fx_run(&f, "log l1.* +dram.act -l1.hit"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "dram.act");
	CHECK(!strstr(f.cap.out.s, "l1.hit "));
	fx_run(&f, "step 3000");
	fx_run(&f, "info events 5");
	CHECK_CONTAINS(f.cap.out.s, "cycle ");
	/* the log filter survives a restart */
	fx_run(&f, "run 0");
	fx_run(&f, "log");
	CHECK_CONTAINS(f.cap.out.s, "dram.act");
	char path[] = "/tmp/gpustep-stats-XXXXXX";
	int fd = mkstemp(path);
	REQUIRE(fd >= 0);
	close(fd);
	char line[128];
	snprintf(line, sizeof line, "save stats %s", path);
	CHECK_EQ(fx_run(&f, line), CMD_OK);
	char *err = NULL, *text = loader_read_file(path, NULL, &err);
	REQUIRE(text != NULL);
	CHECK_CONTAINS(text, "\"sim.cycles\": 0");
	free(text);
	snprintf(line, sizeof line, "save config %s", path);
	CHECK_EQ(fx_run(&f, line), CMD_OK);
	struct sim_cfg c;
	cfg_defaults(&c);
	CHECK_EQ(loader_load_config(path, &c, &err), 0);
	free(err);
	CHECK(memcmp(&c, &f.ss.cfg, sizeof c) == 0);
	unlink(path);
	fx_fini(&f);
}

TEST(commands_script)
{
	struct fx f;
	fx_init(&f);
	FILE *s = tmpfile();
	REQUIRE(s != NULL);
	fputs("# comment\n\nstep 2\nbogus\nprint sim.cycles\nquit\nstep 5\n", s);
	rewind(s);
	fx_clear(&f);
	int quit = 0;
	CHECK_EQ(cmd_run_script(&f.ss, s, &f.out, &quit), 1);
	CHECK_EQ(quit, 1);
	CHECK_EQ(sim_cycle(f.ss.sim), 2);
	CHECK_CONTAINS(f.cap.out.s, "(gpustep) step 2\ncycle 2\n");
	CHECK_CONTAINS(f.cap.err.s, "unknown command 'bogus'");
	fclose(s);
	fx_fini(&f);
}

/* `info threads` says how many threads tick the SMs and, on a machine that
 * cannot use more, why; `set threads N` applies at once at any cycle (the
 * results are the same for every count) instead of asking for `run 0`. */
static void fx_init_preset(struct fx *f, const char *preset, const char *set, const char *wl)
{
	struct sim_cfg c;
	char *err = NULL;
	cfg_defaults(&c);
	if (loader_load_config(preset, &c, &err) || (set && loader_apply_override(&c, set, &err)))
		test_fail(__FILE__, __LINE__, "%s: %s", preset, err ? err : "?");
	free(err);
	fx_init_cfg(f, &c, wl);
}

TEST(commands_info_threads_and_set_threads_mid_run)
{
	struct fx f;
	fx_init_preset(&f, "titanv", NULL, "matmul_naive");
	CHECK_EQ(fx_run(&f, "set param.n 64"), CMD_RESET);
	CHECK_EQ(fx_run(&f, "set threads 2"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "threads = 2: 2 ticking the SMs");
	CHECK_EQ(fx_run(&f, "step 3000"), CMD_RUN);
	uint64_t at = sim_cycle(f.ss.sim);
	CHECK(at > 0);
	CHECK_EQ(fx_run(&f, "info threads"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "threads: 2 ticking the SMs (config threads = 2;");
	CHECK(strstr(f.cap.out.s, "busy SMs per thread") || strstr(f.cap.out.s, "calling thread alone"));
	/* mid-run: no trip back to cycle 0 */
	CHECK_EQ(fx_run(&f, "set threads 1"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "threads = 1: 1 ticking the SMs");
	CHECK_EQ(sim_cycle(f.ss.sim), at);
	CHECK_EQ(fx_run(&f, "info threads"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "this machine can use more: set threads 2");
	CHECK_EQ(fx_run(&f, "set threads many"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "threads");
	fx_fini(&f);

	fx_init_preset(&f, "gtx480", "coherence.protocol=moesi", "vecadd");
	CHECK_EQ(fx_run(&f, "set threads 2"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "threads = 2: 1 ticking the SMs (its coherence protocol");
	CHECK_EQ(fx_run(&f, "info threads"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "runs on one thread whatever is asked: its coherence protocol");
	fx_fini(&f);
}
