/*
 * test_rewind.c: reverse-step, reverse-continue and goto through cmd_exec on
 * a real session, and the determinism the rewinding rests on: for every
 * built-in kernel on the teaching machine, run-to-end == step-by-1-to-end ==
 * run-to-middle + rewind-to-start + run-to-end (every stat, and the state
 * hash), and the state at cycle N hashes alike however N was reached.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/commands.h"
#include "load/loader.h"
#include "debug/snapshot.h"
#include "sim/stats.h"
#include "export/stats_json.h"
#include "sesstest.h"
#include "test.h"

static uint64_t now(struct fx *f) { return sim_cycle(f->ss.sim); }

static uint64_t hits(struct fx *f, int id)
{
	struct bp *b = bp_get(&f->ss.bps, id);
	return b ? b->hits : 0;
}

TEST(rewind_snapshots_on_by_default_and_after_rebuild)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	size_t n, bytes;
	uint64_t iv;
	sim_snapshots_info(f.ss.sim, &n, &bytes, &iv);
	CHECK(n >= 1);
	CHECK_EQ(f.ss.snapshot_bytes, (size_t)SESSION_SNAPSHOT_MB_DEFAULT << 20);
	static const char *const rebuilders[] = {"run 0", "load teaching", "workload strided", "set l1.mshr.entries 4"};
	for (size_t i = 0; i < sizeof rebuilders / sizeof *rebuilders; i++) {
		fx_run(&f, rebuilders[i]);
		sim_snapshots_info(f.ss.sim, &n, &bytes, &iv);
		if (n < 1)
			test_fail(__FILE__, __LINE__, "no snapshots after '%s'", rebuilders[i]);
	}
	session_set_snapshot_budget(&f.ss, 0);
	fx_run(&f, "step 100");
	CHECK_EQ(fx_run(&f, "rs"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "rewinding is off");
	CHECK_EQ(fx_run(&f, "goto 5"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "goto 500"), CMD_RUN); /* forwards needs no snapshots */
	CHECK_EQ(now(&f), 500);
	fx_fini(&f);
}

/* A plain --run sets the budget to 0 before the session is built, so the
 * first state is not encoded at all (it was the largest allocation). */
TEST(rewind_initial_budget_zero_takes_no_snapshot)
{
	session_set_initial_snapshot_budget(0);
	struct fx f;
	fx_init_wl(&f, "vecadd");
	session_set_initial_snapshot_budget((size_t)SESSION_SNAPSHOT_MB_DEFAULT << 20);
	size_t n = 1, bytes = 1;
	uint64_t iv;
	sim_snapshots_info(f.ss.sim, &n, &bytes, &iv);
	CHECK_EQ(n, 0);
	CHECK_EQ(bytes, 0);
	CHECK_EQ(f.ss.snapshot_bytes, 0);
	fx_fini(&f);
	fx_init_wl(&f, "vecadd"); /* the next session has the default again */
	sim_snapshots_info(f.ss.sim, &n, &bytes, &iv);
	CHECK(n >= 1);
	fx_fini(&f);
}

TEST(rewind_reverse_step_repeat_and_goto)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "display dram.row_hits");
	fx_run(&f, "step 3000");
	char at2990[4096];
	fx_run(&f, "goto 2990");
	snprintf(at2990, sizeof at2990, "%s", f.cap.out.s);
	fx_run(&f, "goto 3000");
	CHECK_EQ(fx_run(&f, "reverse-step 10"), CMD_RUN);
	CHECK_EQ(now(&f), 2990);
	CHECK_STR(f.cap.out.s, at2990); /* report and displays as the first time */
	CHECK_CONTAINS(f.cap.out.s, "cycle 2990\n1: dram.row_hits = ");
	fx_run(&f, ""); /* Enter repeats rs 10 */
	CHECK_EQ(now(&f), 2980);
	CHECK_EQ(fx_run(&f, "rs"), CMD_RUN);
	CHECK_EQ(now(&f), 2979);
	CHECK_EQ(fx_run(&f, "rs 1M"), CMD_RUN); /* clamps at the horizon, and says so */
	CHECK_EQ(now(&f), 0);
	CHECK_CONTAINS(f.cap.out.s, "1000000 cycles back from cycle 2979 is before cycle 0, the earliest reachable; "
				    "going back 2979 instead");
	CHECK_EQ(fx_run(&f, "rs"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "already at cycle 0");
	CHECK_EQ(fx_run(&f, "goto 7k"), CMD_RUN);
	CHECK_EQ(now(&f), 7000);
	CHECK_EQ(fx_run(&f, "goto 1G"), CMD_RUN);
	CHECK(sim_done(f.ss.sim));
	CHECK_CONTAINS(f.cap.out.s, "finished at cycle");
	uint64_t end = now(&f);
	CHECK_EQ(fx_run(&f, "goto 1G"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "finished");
	CHECK_EQ(fx_run(&f, "rs 5"), CMD_RUN); /* rewinding out of the end */
	CHECK_EQ(now(&f), end - 5);
	CHECK(!sim_done(f.ss.sim));
	/* Bad input. */
	CHECK_EQ(fx_run(&f, "rs 0"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "rs -3"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "rs 1 2"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "goto"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "goto x"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "usage: goto CYCLE");
	CHECK_EQ(fx_run(&f, "rc now"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "goto 99999999999999999999999"), CMD_ERR);
	fx_fini(&f);
}

TEST(rewind_breakpoint_hits_and_reverse_continue)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	CHECK_EQ(fx_run(&f, "rc"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "no enabled breakpoint or watchpoint");
	fx_run(&f, "break dram.row_conflict");
	CHECK_EQ(fx_run(&f, "rc"), CMD_ERR); /* one, but no stop yet */
	CHECK_CONTAINS(f.cap.err.s, "no breakpoint stop between cycle 0 and cycle 0");
	CHECK_EQ(fx_run(&f, "continue"), CMD_RUN);
	char first[512];
	snprintf(first, sizeof first, "%s", f.cap.out.s);
	CHECK_CONTAINS(first, "Breakpoint 1, dram.row_conflict");
	uint64_t c1 = now(&f);
	CHECK_EQ(hits(&f, 1), 1);
	fx_run(&f, "rs 5");
	CHECK_EQ(now(&f), c1 - 5);
	CHECK_EQ(hits(&f, 1), 0);
	fx_run(&f, "c"); /* the same hit again */
	CHECK_EQ(now(&f), c1);
	CHECK_EQ(hits(&f, 1), 1);
	CHECK_STR(f.cap.out.s, first);
	fx_run(&f, "c");
	fx_run(&f, "c");
	uint64_t c3 = now(&f);
	struct event ev3 = f.ss.bps.stop_ev;
	fx_run(&f, "step 50");
	/* reverse-continue: the stop at c3 (the last before now), reported as then. */
	CHECK_EQ(fx_run(&f, "reverse-continue"), CMD_RUN);
	CHECK_EQ(now(&f), c3);
	CHECK_EQ(hits(&f, 1), 3);
	CHECK_EQ(f.ss.last_stop, SIM_STOP_BREAK);
	CHECK_EQ(f.ss.bps.stop_ev.cycle, ev3.cycle);
	CHECK_EQ(f.ss.bps.stop_ev.addr, ev3.addr);
	CHECK_CONTAINS(f.cap.out.s, "Breakpoint 1, dram.row_conflict");
	fx_run(&f, "rc");
	CHECK(now(&f) < c3);
	CHECK_EQ(hits(&f, 1), 2);
	fx_run(&f, "rc");
	CHECK_EQ(now(&f), c1);
	CHECK_STR(f.cap.out.s, first);
	CHECK_EQ(fx_run(&f, "rc"), CMD_ERR);
	CHECK_EQ(now(&f), c1);
	/* goto forward counts hits without stopping. */
	fx_run(&f, "goto 9000");
	CHECK_EQ(now(&f), 9000);
	CHECK(hits(&f, 1) > 3);
	/* A disabled breakpoint is not a stop for rc. */
	fx_run(&f, "disable 1");
	CHECK_EQ(fx_run(&f, "rc"), CMD_ERR);
	CHECK_EQ(now(&f), 9000);
	/* ... and with none enabled rc answers at once, without replaying. */
	CHECK_CONTAINS(f.cap.err.s, "no enabled breakpoint or watchpoint");
	fx_run(&f, "break cycle 100");
	fx_run(&f, "disable 2");
	CHECK_EQ(fx_run(&f, "rc"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "no enabled breakpoint or watchpoint");
	fx_run(&f, "enable 2");
	CHECK_EQ(fx_run(&f, "rc"), CMD_RUN);
	CHECK_EQ(now(&f), 100);
	fx_fini(&f);
}

TEST(rewind_keys_listed)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	CHECK_EQ(fx_run(&f, "help keys"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "F6         reverse-step");
	CHECK_CONTAINS(f.cap.out.s, "Shift-F10  reverse-step");
	CHECK_CONTAINS(f.cap.out.s, "F9         reverse-continue");
	CHECK_CONTAINS(f.cap.out.s, "Shift-F5   reverse-continue");
	CHECK_EQ(fx_run(&f, "help rs"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "Example: reverse-step 5");
	fx_fini(&f);
}

/* ---- determinism ---------------------------------------------------------------- */
static char *stats_text(struct fx *f)
{
	struct stats_json_info info = {"t", "w", 1};
	return stats_json_string(f->ss.sim, &info);
}

static void check_same(const char *kernel, const char *how, const char *a, const char *b)
{
	if (strcmp(a, b) != 0)
		test_fail(__FILE__, __LINE__, "%s: stats after %s differ from an uninterrupted run", kernel, how);
}

TEST(rewind_determinism_every_builtin_kernel)
{
	size_t nk;
	char **names = loader_names(LOADER_KERNELS, &nk);
	CHECK(nk >= 10);
	for (size_t i = 0; i < nk; i++) {
		const char *k = names[i];
		struct fx a, b, c;
		fx_init_wl(&a, k);
		fx_init_wl(&b, k);
		fx_init_wl(&c, k);
		/* a: in one go. */
		sim_step(a.ss.sim, UINT64_MAX);
		uint64_t end = now(&a);
		REQUIRE(end > 0);
		char *sa = stats_text(&a);
		uint64_t ha = sim_state_hash(a.ss.sim);
		/* b: one cycle at a time (odd chunks after 60k cycles), recording the
		 * hash at a few cycles. */
		uint64_t marks[3] = {end / 3, end / 2, end - 1}, hb[3] = {0};
		while (!sim_done(b.ss.sim)) {
			uint64_t t = now(&b);
			for (int m = 0; m < 3; m++)
				if (t == marks[m])
					hb[m] = sim_state_hash(b.ss.sim);
			uint64_t step = t < 60000 ? 1 : 7;
			for (int m = 0; m < 3; m++)
				if (marks[m] > t && marks[m] - t < step)
					step = marks[m] - t;
			sim_step(b.ss.sim, step);
		}
		char *sb_ = stats_text(&b);
		check_same(k, "step by 1", sa, sb_);
		CHECK(sim_state_hash(b.ss.sim) == ha);
		/* c: to the middle, back to 0, to the end; then back to each mark. */
		char *err = NULL;
		sim_step(c.ss.sim, end / 2);
		CHECK_EQ(sim_goto(c.ss.sim, 0, &err), 0);
		CHECK_EQ(now(&c), 0);
		sim_step(c.ss.sim, UINT64_MAX);
		char *sc = stats_text(&c);
		check_same(k, "run to the middle, rewind to 0, run", sa, sc);
		CHECK(sim_state_hash(c.ss.sim) == ha);
		for (int m = 2; m >= 0; m--) {
			CHECK_EQ(sim_goto(c.ss.sim, marks[m], &err), 0);
			if (sim_state_hash(c.ss.sim) != hb[m])
				test_fail(__FILE__, __LINE__, "%s: state at cycle %llu differs after rewinding", k,
					  (unsigned long long)marks[m]);
		}
		/* a again: straight to each mark from cycle 0. */
		for (int m = 0; m < 3; m++) {
			struct fx d;
			fx_init_wl(&d, k);
			sim_step(d.ss.sim, marks[m]);
			if (sim_state_hash(d.ss.sim) != hb[m])
				test_fail(__FILE__, __LINE__, "%s: state at cycle %llu differs run vs stepped", k,
					  (unsigned long long)marks[m]);
			fx_fini(&d);
		}
		free(err);
		free(sa);
		free(sb_);
		free(sc);
		fx_fini(&a);
		fx_fini(&b);
		fx_fini(&c);
	}
	loader_names_free(names);
}

/* Snapshot and restore of each structure a feature adds to the state (FRC
 * entries, coherence directory and transient states, racetrack banks and
 * write buffers, the VWS/CCWS/TBAS schedulers, the bypass tag store and
 * dueling, TEMP page ownership, trace readers, the reuse profiler, the memory
 * buffer freed on completion): with the
 * feature on, the state at cycle M hashes the same reached directly, reached
 * by rewinding from the last cycle, and after rewinding the run ends with the same
 * stats and state as an uninterrupted one. */
struct feature_case {
	const char *what, *workload;
	const char *witness; /* a stat the feature must have moved (> 0) */
	const char *sets[5];
};

static void set_all(struct fx *f, const struct feature_case *fc)
{
	for (int i = 0; i < 5 && fc->sets[i]; i++) {
		char line[160];
		snprintf(line, sizeof line, "set %s", fc->sets[i]);
		if (fx_run(f, line) & CMD_ERR)
			test_fail(__FILE__, __LINE__, "%s: `%s`: %s", fc->what, line, f->cap.err.s);
	}
}

TEST(rewind_each_structure_restores_exactly)
{
	static const struct feature_case cases[] = {
		{"FRC", "l2_set_burst", "frc.swaps", {"l2.frc.entries 8", "l2.frc.ways 4"}},
		{"MOESI directory", "shared_write", "coh.msgs.Recall", {"coherence.protocol moesi"}},
		{"NMOESI locks", "shared_write", "coh.msgs.GetN", {"coherence.protocol nmoesi"}},
		{"SI write-through", "shared_write", "coh.msgs.WT", {"coherence.protocol si"}},
		{"racetrack RF + RMWS + write buffer", "matmul_tiled", "rf.shifts",
		 {"rf.kind racetrack", "core.scheduler rmws", "rf.write_buffer.claim issue"}},
		{"VWS", "stencil2d", "vws.promote_same_cta", {"core.scheduler vws"}},
		{"CCWS", "bfs_like", "ccws.vta_inserts", {"core.scheduler ccws"}},
		{"locality bypass + dueling", "gather_random", "l1.tag_allocs", {"l1.bypass locality", "l1.bypass_duel_interval 50"}},
		{"TEMP + TBAS", "stencil2d", "dram.temp.pages",
		 {"dram.columns 1024", "dram.page_alloc temp", "core.cta_dispatch serial", "core.scheduler tbas"}},
		{"NUMA fabric", "stencil2d", "dram.numa.link_wait",
		 {"dram.numa_nodes 2", "dram.numa_latency 40", "dram.numa_link_bytes 4"}},
		{"reuse profiler off", "matmul_naive", "l1.hits", {"reuse.profile false"}},
		{"Accel-Sim trace", "tests/traces/matmul/kernelslist.g", "trace.memcpy.copies", {NULL}},
		/* entries freed out of ring order; the witness counts cycles a full buffer stalled */
		{"memory buffer freed on completion", "vecadd", "core.stall.mshr_full", {"core.mem_release completion"}},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct feature_case *fc = &cases[i];
		struct fx a, b;
		fx_init_wl(&a, fc->workload);
		fx_init_wl(&b, fc->workload);
		set_all(&a, fc);
		set_all(&b, fc);
		/* a: straight through, the state hashed at the mark. */
		sim_step(a.ss.sim, UINT64_MAX);
		uint64_t end = now(&a);
		if (end < 40)
			test_fail(__FILE__, __LINE__, "%s: only %llu cycles", fc->what, (unsigned long long)end);
		/* Two thirds in: past the first periodic snapshot (every 1024 cycles at
		 * first) on all but the shortest run, so a snapshot taken mid-run is
		 * what gets restored. */
		uint64_t mark = end * 2 / 3;
		char *sa = stats_text(&a);
		uint64_t ha = sim_state_hash(a.ss.sim);
		const struct stats *st = sim_stats_c(a.ss.sim);
		int wid = stats_find(st, fc->witness);
		if (wid < 0 || stats_counter_value(st, (uint32_t)wid) == 0)
			test_fail(__FILE__, __LINE__, "%s: %s is %s: the feature did not act", fc->what, fc->witness,
				  wid < 0 ? "not a stat" : "0");
		struct fx d;
		fx_init_wl(&d, fc->workload);
		set_all(&d, fc);
		sim_step(d.ss.sim, mark);
		uint64_t hm = sim_state_hash(d.ss.sim);
		fx_fini(&d);
		/* b: past the mark, back to it, on to the end. */
		char *err = NULL;
		sim_step(b.ss.sim, end - 1);
		if (sim_goto(b.ss.sim, mark, &err) != 0)
			test_fail(__FILE__, __LINE__, "%s: goto %llu: %s", fc->what, (unsigned long long)mark, err);
		if (sim_state_hash(b.ss.sim) != hm)
			test_fail(__FILE__, __LINE__, "%s: state at cycle %llu differs after rewinding", fc->what,
				  (unsigned long long)mark);
		sim_step(b.ss.sim, UINT64_MAX);
		char *sb_ = stats_text(&b);
		check_same(fc->what, "rewinding to two thirds", sa, sb_);
		if (sim_state_hash(b.ss.sim) != ha)
			test_fail(__FILE__, __LINE__, "%s: end state differs after rewinding", fc->what);
		free(err);
		free(sa);
		free(sb_);
		fx_fini(&a);
		fx_fini(&b);
	}
}
