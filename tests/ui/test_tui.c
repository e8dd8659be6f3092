/*
 * test_tui.c: the whole screen, off-screen: status bar, layouts, the command
 * output, TUI-only commands, stops and the breakpoint highlight. Full-screen
 * snapshots of the overview at 80x24 and 132x40 (tests/views/screen_*.txt).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/commands.h"
#include "views/draw.h"
#include "sesstest.h"
#include "export/stats_json.h"
#include "test.h"
#include "tui/tui.h"
#include "tui/tui_int.h"
#include "vtest.h"

/* The screen as the terminal would show it (curscr after doupdate). */
static char *screen_text(void)
{
	return vt_text(curscr);
}

static char *screen_row(int y, char *buf, size_t n) { return draw_read_row(curscr, y, buf, n); }

TEST(tui_step_shows_cycle_in_status_bar)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_frame(t);
	char row[512];
	CHECK_CONTAINS(screen_row(0, row, sizeof row), " cycle 0 | paused");
	CHECK(tui_exec(t, "step 10") & CMD_RUN);
	tui_run_to_stop(t);
	tui_frame(t);
	CHECK_CONTAINS(screen_row(0, row, sizeof row), " cycle 10 | paused");
	CHECK_CONTAINS(screen_row(0, row, sizeof row), "vecadd");
	/* The command and its output are in the command window above the prompt. */
	char *text = screen_text();
	CHECK_CONTAINS(text, "(gpustep) step 10");
	free(text);
	vt_tui_stop(t, ss);
}

TEST(tui_breakpoint_stop_is_shown_and_highlighted)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 40, 132);
	REQUIRE(t != NULL);
	tui_exec(t, "log all");
	tui_exec(t, "break dram.row_conflict");
	CHECK(tui_exec(t, "continue") & CMD_RUN);
	tui_run_to_stop(t);
	tui_frame(t);
	char row[512];
	CHECK_CONTAINS(screen_row(0, row, sizeof row), "stopped at breakpoint 1: dram.row_conflict ch=0");
	char *text = screen_text();
	CHECK_CONTAINS(text, "Breakpoint 1, dram.row_conflict");
	free(text);
	/* The event that fired is in the log panel with the breakpoint colours. */
	bool found = false;
	for (int y = 1; y < LINES && !found; y++) {
		screen_row(y, row, sizeof row);
		char *p = strstr(row, "dram.row_conflict");
		if (!p || strstr(row, "Breakpoint") || strstr(row, "stopped"))
			continue;
		cchar_t cc;
		mvwin_wch(curscr, y, (int)(p - row), &cc);
		attr_t a;
		short pair;
		wchar_t wc[CCHARW_MAX + 1];
		getcchar(&cc, wc, &a, &pair, NULL);
		found = (a & A_BOLD) && pair == PAIR_NUMBER(role_attr(R_BREAK));
	}
	CHECK(found);
	/* Enter on an empty line repeats continue through the session. */
	CHECK(tui_exec(t, "") & CMD_RUN);
	tui_run_to_stop(t);
	CHECK_EQ(ss->bps.v[0].hits, 2);
	vt_tui_stop(t, ss);
}

TEST(tui_commands_layout_focus_color)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 40, 132);
	REQUIRE(t != NULL);
	CHECK_EQ(tui_exec(t, "layout dram"), CMD_OK);
	CHECK_STR(tui_layout_name(t), "dram");
	tui_frame(t);
	char *text = screen_text();
	CHECK_CONTAINS(text, "\xe2\x94\x80 dram ");
	CHECK_CONTAINS(text, "\xe2\x94\x80 events ");
	free(text);
	CHECK(tui_exec(t, "layout bogus") & CMD_ERR);
	CHECK_EQ(tui_exec(t, "focus events"), CMD_OK);
	CHECK(tui_exec(t, "focus warps") & CMD_ERR); /* not in this layout */
	CHECK_EQ(tui_exec(t, "focus cmd"), CMD_OK);
	CHECK_EQ(tui_exec(t, "color off"), CMD_OK);
	CHECK(!draw_colours());
	CHECK_EQ(tui_exec(t, "colour on"), CMD_OK);
	CHECK(draw_colours());
	CHECK_EQ(tui_exec(t, "refresh"), CMD_OK);
	CHECK_EQ(tui_exec(t, "keys"), CMD_OK);
	tui_frame(t);
	text = screen_text();
	CHECK_CONTAINS(text, "keys and commands");
	CHECK_CONTAINS(text, "F10");
	free(text);
	/* `help` lists the TUI commands with the rest. */
	CHECK(cmd_lookup(ss, "layout") != NULL);
	CHECK(cmd_lookup(ss, "focus") != NULL);
	vt_tui_stop(t, ss);
}

static void screen_snapshot(int lines, int cols)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, lines, cols);
	REQUIRE(t != NULL);
	tui_exec(t, "log l1.* +l2.* +dram.* +mem.* +warp.* +coalesce");
	tui_exec(t, "step 300");
	tui_run_to_stop(t);
	tui_frame(t);
	char *text = screen_text();
	char name[64];
	snprintf(name, sizeof name, "screen_overview_%dx%d", cols, lines);
	CHECK_SNAPSHOT(name, text);
	free(text);
	vt_tui_stop(t, ss);
}

TEST(tui_screen_overview_80x24) { screen_snapshot(24, 80); }
TEST(tui_screen_overview_132x40) { screen_snapshot(40, 132); }

TEST(tui_survives_tiny_and_huge_screens)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	static const int sizes[][2] = {{12, 40}, {5, 20}, {2, 10}, {1, 1}, {80, 250}, {24, 80}};
	char row[512];
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		resizeterm(sizes[i][0], sizes[i][1]);
		for (size_t l = 0; l < 5; l++) {
			static const char *const lay[] = {"layout overview", "layout cache", "layout dram", "layout events",
							  "layout stats"};
			tui_exec(t, lay[l]);
			tui_frame(t);
		}
		if (sizes[i][1] >= 20)
			CHECK_CONTAINS(screen_row(0, row, sizeof row), " cycle 0");
	}
	vt_tui_stop(t, ss);
}

/* The same commands give the same stops and stats in the TUI (runs in slices
 * between frames, budgets tuned by wall time) as in --batch (cmd_exec, then
 * the run to its end, as cmd_run_script does): after every line the cycle,
 * why the run stopped, which breakpoint and its report, the hit counts; at
 * the end the whole --stats JSON. */
TEST(tui_and_batch_give_the_same_stops_and_stats)
{
	static const char *const script[] = {
		"log all",
		"display sim.cycles",
		"break dram.row_conflict bank=1",
		"watch l2.misses >= 40",
		"continue",
		"",		/* Enter repeats continue */
		"continue",
		"step 777",
		"until l1.fill sm=1",
		"next",
		"rs 5",
		"c",
		"rc",
		"goto 6000",
		"disable 2",
		"break cycle 7000",
		"continue",
		"continue",
		"continue",
		NULL,
	};
	struct session *ts;
	struct tui *t = vt_tui_start(&ts, 40, 132);
	REQUIRE(t != NULL);
	struct fx f;
	fx_init_wl(&f, "vecadd");
	int stops = 0;
	for (int i = 0; script[i]; i++) {
		int rb = fx_run(&f, script[i]);
		int rt = tui_exec(t, script[i]);
		if (rt & CMD_RUN) {
			tui_frame(t);
			tui_run_to_stop(t);
		}
		tui_frame(t);
		CHECK_EQ(rt, rb);
		if (sim_cycle(ts->sim) != sim_cycle(f.ss.sim))
			test_fail(__FILE__, __LINE__, "after '%s': TUI at cycle %llu, batch at %llu", script[i],
				  (unsigned long long)sim_cycle(ts->sim), (unsigned long long)sim_cycle(f.ss.sim));
		CHECK_EQ(ts->last_stop, f.ss.last_stop);
		CHECK_EQ(ts->bps.stop_id, f.ss.bps.stop_id);
		CHECK_STR(ts->bps.stop_reason, f.ss.bps.stop_reason);
		REQUIRE(ts->bps.n == f.ss.bps.n);
		for (unsigned k = 0; k < ts->bps.n; k++)
			CHECK_EQ(ts->bps.v[k].hits, f.ss.bps.v[k].hits);
		stops += (rb & CMD_RUN) && f.ss.last_stop == SIM_STOP_BREAK;
	}
	CHECK(stops >= 6); /* the script did stop at breakpoints, watchpoints and `until` */
	CHECK(sim_done(f.ss.sim));
	struct stats_json_info info = {.config = "teaching", .workload = "vecadd", .seed = 1};
	char *jt = stats_json_string(ts->sim, &info), *jb = stats_json_string(f.ss.sim, &info);
	REQUIRE(jt && jb);
	CHECK(strlen(jt) > 1000);
	CHECK_STR(jt, jb);
	free(jt);
	free(jb);
	fx_fini(&f);
	vt_tui_stop(t, ts);
}

/* reverse-continue runs in slices: the status bar says how far back the
 * search is while the panels keep showing where it started; an interrupt
 * puts back the cycle, state hash, hit counts and panels; run to its end it
 * stops where `continue` had. */
TEST(tui_reverse_continue_in_slices_and_interrupted)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_exec(t, "break cycle 200");
	tui_exec(t, "continue");
	tui_run_to_stop(t);
	REQUIRE(sim_cycle(ss->sim) == 200);
	tui_exec(t, "goto 6000");
	tui_run_to_stop(t);
	uint64_t now = sim_cycle(ss->sim), h = sim_state_hash(ss->sim);
	REQUIRE(now > 5000);
	tui_frame(t);
	char before[12][512], row[512];
	for (int y = 1; y < 12; y++)
		screen_row(y, before[y], sizeof before[y]);
	CHECK(tui_exec(t, "rc") & CMD_RUN);
	for (int i = 0; i < 6; i++)
		CHECK(session_run_slice(ss, 200));
	CHECK(sim_cycle(ss->sim) < now); /* somewhere in the past meanwhile */
	tui_frame(t);
	screen_row(0, row, sizeof row);
	CHECK_CONTAINS(row, "searching back: cycle");
	/* Progress: the snapshot reached, how far back that is, cycles replayed. */
	unsigned long long at = 0, back = 0, replayed = 0;
	const char *sb = strstr(row, "searching back: cycle");
	REQUIRE(sb && sscanf(sb, "searching back: cycle %llu, %llu back, %llu replayed", &at, &back, &replayed) == 3);
	CHECK_EQ(at + back, now);
	CHECK(replayed > 0 && replayed <= 6 * 200);
	char want[64];
	snprintf(want, sizeof want, " cycle %llu |", (unsigned long long)now);
	CHECK_CONTAINS(row, want);
	tui_run_interrupt(t);
	tui_frame(t);
	CHECK_EQ(sim_cycle(ss->sim), now);
	CHECK(sim_state_hash(ss->sim) == h);
	CHECK_EQ(bp_get(&ss->bps, 1)->hits, 1);
	for (int y = 1; y < 12; y++)
		CHECK_STR(screen_row(y, row, sizeof row), before[y]);
	char *text = screen_text();
	CHECK_CONTAINS(text, "Interrupted at cycle");
	free(text);
	CHECK(tui_exec(t, "rc") & CMD_RUN);
	tui_run_to_stop(t);
	tui_frame(t);
	CHECK_EQ(sim_cycle(ss->sim), 200);
	CHECK_EQ(bp_get(&ss->bps, 1)->hits, 1);
	CHECK_CONTAINS(screen_row(0, row, sizeof row), "stopped at breakpoint 1: cycle 200");
	vt_tui_stop(t, ss);
}

/* A model deadlock is not a finished kernel: the status bar says
 * `deadlocked` and the output names it (the locality-bypassing deadlock of
 * docs/POLICIES.md; tests/unit/test_deadlock.c checks the engine side). */
TEST(tui_status_bar_names_a_deadlock)
{
	static const char kernel[] =
	    "{\"kernel\": \"fp\", \"grid\": [4], \"block\": [256], \"params\": {\"n\": 1024}, \"nregs\": 8,\n"
	    " \"arrays\": {\"A\": {\"elem\": 4, \"len\": \"n*64\"}, \"B\": {\"elem\": 4, \"len\": \"n*64\"},\n"
	    "            \"C\": {\"elem\": 4, \"len\": \"n*64\"}, \"D\": {\"elem\": 4, \"len\": \"n*64\"}},\n"
	    " \"body\": [\"ld A[tid / 64] -> r1\", \"ld B[tid * 8] -> r2\", \"alu 2 <- r1, r2\", \"ld C[tid * 33] -> r3\",\n"
	    "          \"st D[tid] <- r3\"]}\n";
	char dir[] = "/tmp/gpustep-deadlock-XXXXXX";
	REQUIRE(mkdtemp(dir) != NULL);
	char path[128], cmd[192];
	snprintf(path, sizeof path, "%s/fp.json", dir);
	FILE *f = fopen(path, "w");
	REQUIRE(f != NULL);
	fputs(kernel, f);
	fclose(f);
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	static const char *const sets[] = {"set core.sms 1", "set l2.banks 1", "set mem.model fixed",
					   "set mem.latency 100", "set icnt.latency 4", "set core.scheduler lrr",
					   "set l1.mshr.entries 4", "set l1.mshr.merges 2", "set l1.wait_queue 2",
					   "set l1.bypass locality", "set icnt.ack_channel shared", NULL};
	for (int i = 0; sets[i]; i++)
		CHECK(!(tui_exec(t, sets[i]) & CMD_ERR));
	snprintf(cmd, sizeof cmd, "workload %s", path);
	CHECK(!(tui_exec(t, cmd) & CMD_ERR));
	tui_exec(t, "continue");
	tui_run_to_stop(t);
	tui_frame(t);
	char row[512];
	bool dead = sim_deadlock(ss->sim, NULL, 0);
	CHECK(dead); /* the Acks behind the requests (icnt.ack_channel = shared; test_deadlock.c) */
	if (dead) {
		CHECK_CONTAINS(screen_row(0, row, sizeof row), "| deadlocked |");
		char *text = screen_text();
		CHECK_CONTAINS(text, "the model deadlocked at cycle");
		free(text);
	}
	vt_tui_stop(t, ss);
	unlink(path);
	rmdir(dir);
}
