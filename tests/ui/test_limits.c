/*
 * test_limits.c: resource bounds (issue 27): the memory a machine needs is
 * estimated before it is built and checked against a limit; breakpoints are
 * limited when added, and a session with as many loads again; stale temp
 * files of atomic saves are removed; a long `load session` runs in slices
 * with progress and can be cancelled (TUI, start-up and batch mode) leaving
 * the current session as it was; a .trc read whole stops at its limit.
 */
#include <fcntl.h>
#include <lzma.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/time.h>
#include <unistd.h>

#include "tui/commands.h"
#include "views/draw.h"
#include "load/loader.h"
#include "session/session.h"
#include "session/session_file.h"
#include "machine/sim_mem.h"
#include "sesstest.h"
#include "test.h"
#include "load/trace_io.h"
#include "tui/tui.h"
#include "tui/tui_int.h"
#include "vtest.h"

static int build_preset(struct session *ss, const char *preset, const char *wl, const char *const *sets, char **err)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	if (preset && loader_load_config(preset, &c, err))
		return -1;
	for (; sets && *sets; sets++)
		if (loader_apply_override(&c, *sets, err))
			return -1;
	if (cfg_validate(&c, err))
		return -1;
	return session_init(ss, &c, "", wl, 1, err);
}

/* The estimate follows the real allocation: within 10% over every preset,
 * and for scaled-up caches, SMs and the profiler. */
TEST(sim_mem_estimate_matches_built_machines)
{
	static const char *const presets[] = {"teaching", "gtx480", "titanv", "hd7770", "rx540", "rx570", "vega64"};
	static const char *const big_l1[] = {"core.sms=32", "l1.sets=1024", "l1.ways=16", NULL};
	static const char *const big_l2[] = {"l2.sets=4096", "l2.ways=32", "reuse.profile=false", NULL};
	static const char *const tags[] = {"core.sms=32", "l1.sets=1024", "l1.ways=16", "reuse.profile=false", NULL};
	static const char *const coh[] = {"coherence.protocol=moesi", "coherence.check_values=true", NULL};
	struct mcase {
		const char *preset;
		const char *const *sets;
	} cases[16];
	int n = 0;
	for (size_t i = 0; i < sizeof presets / sizeof *presets; i++)
		cases[n++] = (struct mcase){presets[i], NULL};
	cases[n++] = (struct mcase){"teaching", big_l1};
	cases[n++] = (struct mcase){"gtx480", big_l2};
	cases[n++] = (struct mcase){"teaching", coh};
	cases[n++] = (struct mcase){"teaching", tags};
	for (int i = 0; i < n; i++) {
		struct session ss;
		char *err = NULL;
		if (build_preset(&ss, cases[i].preset, "vecadd", cases[i].sets, &err)) {
			test_fail(__FILE__, __LINE__, "%s: %s", cases[i].preset, err);
			free(err);
			continue;
		}
		struct sim_mem m;
		sim_mem_estimate(&ss.cfg, &ss.wl, &m);
		double actual = (double)sim_arena_bytes(ss.sim), ratio = (double)m.total / actual;
		if (getenv("GPUSTEP_TEST_VERBOSE"))
			printf("%s%s: estimate %llu actual %.0f ratio %.3f\n", cases[i].preset, cases[i].sets ? "+" : "",
			       (unsigned long long)m.total, actual, ratio);
		if (ratio < 0.9 || ratio > 1.1)
			test_fail(__FILE__, __LINE__, "%s%s: estimate %llu B, machine %.0f B (ratio %.3f)", cases[i].preset,
				  cases[i].sets ? " (scaled)" : "", (unsigned long long)m.total, actual, ratio);
		session_fini(&ss);
	}
}

/* A machine over the limit is refused by the rebuild, naming the structure;
 * the session keeps its machine. */
TEST(sim_mem_limit_refuses_a_rebuild)
{
	struct fx a;
	fx_init_wl(&a, "vecadd");
	a.ss.max_memory = 50ull << 20;
	uint64_t h = sim_state_hash(a.ss.sim);
	CHECK(fx_run(&a, "set l1.sets 65536") & CMD_ERR);
	CHECK_CONTAINS(a.cap.err.s, "more than the limit of 50.0 MB (--max-memory 50 MB)");
	CHECK_CONTAINS(a.cap.err.s, "the largest structure is the reuse profiler");
	CHECK_EQ(a.ss.cfg.l1.sets, 8);
	CHECK(sim_state_hash(a.ss.sim) == h);
	CHECK_EQ(fx_run(&a, "set l1.sets 64"), CMD_OK | CMD_RESET);
	fx_fini(&a);
}

static char *tmp_file(const char *name)
{
	const char *d = getenv("TMPDIR");
	return xasprintf("%s/gpustep-lim-%d-%s", d && *d ? d : "/tmp", (int)getpid(), name);
}

/* BP_MAX breakpoints are accepted, one more is refused when added (not when
 * the session is loaded again); a session with 300 (refused on load before)
 * and one with BP_MAX round-trip. */
TEST(breakpoint_limit_when_added_and_sessions_load_it)
{
	struct fx a, b;
	fx_init_wl(&a, "vecadd");
	fx_init_wl(&b, "strided");
	char *path = tmp_file("bps.gps"), cmd[600];
	for (int i = 0; i < BP_MAX; i++) {
		char line[64];
		snprintf(line, sizeof line, i % 2 ? "break l1.miss sm=%d" : "watch 0x%x", i % 2 ? i % 2 : 0x1000 + 128 * i);
		if (fx_run(&a, line) & CMD_ERR) {
			test_fail(__FILE__, __LINE__, "breakpoint %d refused: %s", i + 1, a.cap.err.s);
			break;
		}
		if (i + 1 == 300 || i + 1 == BP_MAX) {
			snprintf(cmd, sizeof cmd, "save session %s", path);
			CHECK_EQ(fx_run(&a, cmd), CMD_OK);
			snprintf(cmd, sizeof cmd, "load session %s", path);
			CHECK_EQ(fx_run(&b, cmd), CMD_RUN | CMD_RESET);
			CHECK_EQ(b.ss.bps.n, (unsigned)(i + 1));
		}
	}
	CHECK_EQ(fx_run(&a, "break l2.miss"), CMD_ERR);
	CHECK_CONTAINS(a.cap.err.s, "too many breakpoints and watchpoints (at most 1024); delete some first");
	CHECK_EQ(fx_run(&a, "watch 0x40"), CMD_ERR);
	CHECK_EQ(a.ss.bps.n, (unsigned)BP_MAX);
	CHECK_EQ(fx_run(&a, "delete 5"), CMD_OK);
	CHECK_EQ(fx_run(&a, "break l2.miss"), CMD_OK);
	unlink(path);
	free(path);
	fx_fini(&a);
	fx_fini(&b);
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");
	REQUIRE(f);
	fputs("half a session\n", f);
	fclose(f);
}

/* Temp files a killed save left beside FILE are removed by the next save of
 * FILE; one a live save still holds (locked), and those of other files, stay. */
TEST(atomic_save_removes_stale_temp_files)
{
	struct fx a;
	fx_init_wl(&a, "vecadd");
	char *dir = vt_tmpdir("stale");
	char *target = xasprintf("%s/s.gps", dir), *s1 = xasprintf("%s/s.gps.tmpAbC123", dir),
	     *s2 = xasprintf("%s/s.gps.tmpzzzzzz", dir), *live = xasprintf("%s/s.gps.tmpLIVE00", dir),
	     *other = xasprintf("%s/t.gps.tmpAbC123", dir), *longer = xasprintf("%s/s.gps.tmpAbC1234", dir);
	touch(s1);
	touch(s2);
	touch(live);
	touch(other);
	touch(longer);
	int fd = open(live, O_RDWR);
	REQUIRE(fd >= 0);
	REQUIRE(flock(fd, LOCK_EX) == 0); /* a save in progress (this process, another open file) */
	char cmd[600];
	snprintf(cmd, sizeof cmd, "save session %s", target);
	CHECK_EQ(fx_run(&a, cmd), CMD_OK);
	CHECK(access(target, F_OK) == 0);
	CHECK(access(s1, F_OK) != 0);
	CHECK(access(s2, F_OK) != 0);
	CHECK(access(live, F_OK) == 0);
	CHECK(access(other, F_OK) == 0);
	CHECK(access(longer, F_OK) == 0);
	close(fd);
	const char *const all[] = {target, s1, s2, live, other, longer};
	for (size_t i = 0; i < 6; i++)
		unlink(all[i]);
	rmdir(dir);
	free(target), free(s1), free(s2), free(live), free(other), free(longer), free(dir);
	fx_fini(&a);
}

/* A session file for vecadd n=4194304 at `cycle` (its replay takes seconds:
 * longer than any of these tests waits). The stats hash cannot be known
 * without replaying: the file has none. */
static char *long_session(const char *dir, uint64_t cycle)
{
	struct fx a;
	fx_init_wl(&a, "vecadd");
	fx_run(&a, "set param.n 4194304");
	fx_run(&a, "break l1.miss");
	char *t = session_file_text(&a.ss);
	fx_fini(&a);
	struct strbuf sb;
	sb_init(&sb);
	for (const char *p = t; *p;) {
		size_t n = strcspn(p, "\n");
		if (strncmp(p, "cycle ", 6) == 0)
			sb_printf(&sb, "cycle %llu\n", (unsigned long long)cycle);
		else if (strncmp(p, "stats-hash ", 11) != 0 && strncmp(p, "checksum ", 9) != 0)
			sb_printf(&sb, "%.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < sb.len; i++)
		h = (h ^ (unsigned char)sb.s[i]) * 0x100000001b3ull;
	sb_printf(&sb, "checksum fnv1a64 %016llx\n", (unsigned long long)h);
	char *path = xasprintf("%s/long.gps", dir);
	FILE *f = fopen(path, "w");
	REQUIRE(f);
	fputs(sb.s, f);
	fclose(f);
	sb_fini(&sb);
	free(t);
	return path;
}

/* `load session` in the TUI: the replay runs in slices, the status bar says
 * how far it is, the panels keep the current machine; Ctrl-C drops it and
 * nothing changed. Run to its end, it swaps the session in. */
TEST(tui_load_session_in_slices_cancelled_then_done)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	char *dir = vt_tmpdir("load");
	char *path = long_session(dir, 3000000);
	tui_exec(t, "step 40");
	tui_run_to_stop(t);
	uint64_t h = sim_state_hash(ss->sim);
	char *before = session_file_text(ss);
	char cmd[1100], row[512];
	snprintf(cmd, sizeof cmd, "load session %s", path);
	CHECK_EQ(tui_exec(t, cmd), CMD_RUN);
	for (int i = 0; i < 3; i++)
		CHECK(session_run_slice(ss, 500));
	tui_frame(t);
	draw_read_row(curscr, 0, row, sizeof row);
	CHECK_CONTAINS(row, " cycle 40 | loading ");
	CHECK_CONTAINS(row, ": cycle 1500 of 3000000 (0%) (Ctrl-C cancels)");
	CHECK_EQ(sim_cycle(ss->sim), 40); /* the current machine meanwhile */
	tui_run_interrupt(t);
	tui_frame(t);
	CHECK_EQ(sim_cycle(ss->sim), 40);
	CHECK(sim_state_hash(ss->sim) == h);
	char *after = session_file_text(ss);
	CHECK_STR(after, before);
	char *text = vt_text(curscr);
	CHECK_CONTAINS(text, "load session: cancelled at cycle 1500 of 3000000; the current session is");
	free(text);
	draw_read_row(curscr, 0, row, sizeof row);
	CHECK_CONTAINS(row, " cycle 40 | paused");
	/* The machine runs on as if nothing happened (no stray interrupt). */
	tui_exec(t, "step 10");
	tui_run_to_stop(t);
	CHECK_EQ(sim_cycle(ss->sim), 50);
	/* A short one to its end: swapped in, reported, the cycle it was saved at. */
	free(path);
	path = long_session(dir, 700);
	snprintf(cmd, sizeof cmd, "load session %s", path);
	CHECK_EQ(tui_exec(t, cmd), CMD_RUN);
	tui_run_to_stop(t);
	tui_frame(t);
	CHECK_EQ(sim_cycle(ss->sim), 700);
	CHECK_EQ(ss->ksrc.params[0].value, 4194304);
	CHECK_EQ(ss->bps.n, 1);
	text = vt_text(curscr);
	CHECK_CONTAINS(text, "loaded session ");
	CHECK_CONTAINS(text, "cycle 700");
	free(text);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
	free(before);
	free(after);
	vt_tui_stop(t, ss);
}

/* gpustep --session on a terminal: cancelled, the session stays at the cycle
 * it reached (instead of the placeholder it started with). */
TEST(startup_session_load_cancelled_keeps_the_cycle_reached)
{
	struct fx a;
	fx_init_wl(&a, "strided");
	char *dir = vt_tmpdir("load0");
	char *path = long_session(dir, 3000000), *err = NULL;
	struct session_loader *ld = session_loader_new(&a.ss, path, &err);
	REQUIRE(ld != NULL);
	session_start_load(&a.ss, ld, true);
	CHECK(session_run_slice(&a.ss, 800));
	CHECK(session_run_slice(&a.ss, 800));
	session_run_interrupt(&a.ss);
	CHECK_EQ(a.ss.run.kind, RUN_NONE);
	CHECK_EQ(sim_cycle(a.ss.sim), 1600);
	CHECK_STR(a.ss.ksrc.name, "vecadd");
	CHECK_EQ(a.ss.bps.n, 1);
	cmd_report_stop(&a.ss, &a.out);
	CHECK_CONTAINS(a.cap.out.s, "load cancelled at cycle 1600 of 3000000: the session stays at cycle 1600");
	CHECK(a.ss.load_report == NULL);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
	free(err);
	fx_fini(&a);
}

static struct session *alarm_target;
static void on_alarm(int sig)
{
	(void)sig;
	if (alarm_target && alarm_target->load_sim)
		sim_interrupt(alarm_target->load_sim); /* what cli.c's SIGINT handler does */
}

/* Batch mode: the replay answers the signal handler through ss->load_sim
 * (session_load returns -2), and the session is unchanged. */
TEST(batch_session_load_cancelled_by_signal)
{
	struct fx a;
	fx_init_wl(&a, "strided");
	fx_run(&a, "step 33");
	uint64_t h = sim_state_hash(a.ss.sim);
	char *dir = vt_tmpdir("load1");
	char *path = long_session(dir, 50000000), *err = NULL;
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	alarm_target = &a.ss;
	struct itimerval it = {{0, 0}, {0, 200000}};
	setitimer(ITIMER_REAL, &it, NULL);
	struct strbuf notes;
	sb_init(&notes);
	int rc = session_load(&a.ss, path, &notes, &err);
	sigaction(SIGALRM, &old, NULL);
	alarm_target = NULL;
	CHECK_EQ(rc, -2);
	CHECK_CONTAINS(err, "load cancelled at cycle ");
	CHECK_CONTAINS(err, " of 50000000");
	CHECK(a.ss.load_sim == NULL);
	CHECK_EQ(sim_cycle(a.ss.sim), 33);
	CHECK(sim_state_hash(a.ss.sim) == h);
	sb_fini(&notes);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
	free(err);
	fx_fini(&a);
}

/* A .trc.xz past its limit is refused once that much is decoded (the rest of
 * the stream is never decompressed); the same text fits a larger limit. */
TEST(trc_xz_read_whole_stops_at_its_limit)
{
	struct strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, "blocksize: 64 1 1\n");
	for (int i = 0; i < 200000; i++)
		sb_printf(&sb, "%d 0 %d 4\n", i % 640, 0x10000000 + 4 * (i % 640));
	size_t cap = sb.len + 4096, zlen = 0;
	uint8_t *z = xmalloc(cap);
	REQUIRE(lzma_easy_buffer_encode(0, LZMA_CHECK_CRC64, NULL, (const uint8_t *)sb.s, sb.len, z, &zlen, cap) ==
		LZMA_OK);
	char *dir = vt_tmpdir("trcxz");
	char *path = xasprintf("%s/t.trc.xz", dir);
	FILE *f = fopen(path, "wb");
	REQUIRE(f);
	fwrite(z, 1, zlen, f);
	fclose(f);
	size_t len = 0;
	char *err = NULL;
	char *text = trace_read_file_max(path, 1u << 20, &len, &err);
	CHECK(text == NULL);
	CHECK_CONTAINS(err, "t.trc.xz: decompresses to more than 1 MB, the most a trace read whole may hold");
	free(err);
	err = NULL;
	text = trace_read_file_max(path, sb.len, &len, &err);
	REQUIRE(text != NULL);
	CHECK_EQ(len, sb.len);
	CHECK(trace_text_limit() <= TRACE_TEXT_MAX);
	free(text);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
	free(z);
	sb_fini(&sb);
}
