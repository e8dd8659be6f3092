/*
 * test_threads.c: the threaded SM phases (machine/sim.c "Threads") give the
 * same machine for every thread count. Machines on the presets of issue 41
 * are built with 1, 2 and 4 threads (and 3 on 15 SMs, an uneven split) and
 * stepped side by side: their state hashes (the arena: every unit, the
 * request pool and its stashes, the stats, the event ring) must be equal
 * after every cycle of the first 40 to 160 and every few dozen to
 * thousand cycles after, and at the end every stat, every event count and the
 * whole logged event stream, in order. A merge that followed the threads
 * (which SM ran where or finished first) instead of the SMs' order fails
 * here (tests/mutations.txt threads-merge-follows-parts). The split of a
 * phase's SMs among the threads' parts, balanced by time in a run, is forced
 * here to uneven and empty parts that change every step
 * (threads_any_split_same), and the balance's votes and window are checked
 * on their own (threads_balance_step). With several threads, once every CTA is
 * dispatched, the two phases run fused (sim_par.c "Fused phases"): every
 * case above compares them with one thread's separate phases, and
 * threads_fused_deferred sends every SM through the fused phase's rare
 * deferred path. threads_stats_pending reads counters between steps, across
 * changed thread counts and a rewind, with the threads' counts still
 * pending (stats_sync).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/bp.h"
#include "debug/snapshot.h"
#include "load/loader.h"
#include "machine/sim_par.h"
#include "session/session.h"
#include "sim/event.h"
#include "sim/sim.h"
#include "sim/stats.h"
#include "test.h"

struct tcase {
	const char *preset, *workload;
	const char *sets[4];       /* NULL-terminated overrides */
	const char *param;        /* "n" or NULL */
	int64_t value;
	bool parallel;            /* the machine runs its SM phases threaded */
	bool defer;               /* threaded: every fused core_tick deferred (par_test_defer) */
};

static struct sim *build(struct session *ss, const struct tcase *tc, int threads)
{
	struct sim_cfg c;
	char *err = NULL;
	cfg_defaults(&c);
	if (loader_load_config(tc->preset, &c, &err))
		goto fail;
	for (int i = 0; tc->sets[i]; i++)
		if (loader_apply_override(&c, tc->sets[i], &err))
			goto fail;
	c.threads = threads;
	if (cfg_validate(&c, &err) || session_init(ss, &c, "", tc->workload, 1, &err))
		goto fail;
	if (tc->param) {
		struct kernel_src k = ss->ksrc;
		if (kernel_src_set_param(&k, tc->param, tc->value, &err) || session_set_kernel_src(ss, &k, &err)) {
			session_fini(ss);
			goto fail;
		}
	}
	session_set_snapshot_budget(ss, 0); /* speed: test_snapshot covers rewinding */
	if (tc->defer && threads > 1)
		par_test_defer(ss->sim, true);
	events_log_all(sim_events(ss->sim), true);
	return ss->sim;
fail:
	test_fail(__FILE__, __LINE__, "%s %s: %s", tc->preset, tc->workload, err ? err : "?");
	free(err);
	return NULL;
}

static void all_stats(struct sim *s, struct strbuf *sb)
{
	const struct stats *st = sim_stats_c(s);
	for (uint32_t i = 0; i < stats_count(st); i++) {
		stats_format(st, i, sb);
		sb_puts(sb, "\n");
	}
}

/* Run tc with each of the thread counts in ns (ns[0] is the reference),
 * comparing hashes after every cycle of the first `first` (CTAs launching,
 * the first misses), then every `every` cycles (a hash reads the whole
 * arena: tens of megabytes on the big presets). */
static void same_for_every_count(const struct tcase *tc, const int *ns, int nn, uint64_t first, uint64_t every)
{
	struct session ss[4];
	struct sim *s[4];
	REQUIRE(nn <= 4);
	for (int i = 0; i < nn; i++) {
		s[i] = build(&ss[i], tc, ns[i]);
		if (!s[i]) {
			for (int j = 0; j < i; j++)
				session_fini(&ss[j]);
			return;
		}
		CHECK_EQ(sim_threads_possible(s[i]), tc->parallel);
		CHECK_EQ(sim_threads(s[i]), tc->parallel ? ns[i] : 1);
	}
	uint64_t steps = 0;
	bool differ = false;
	while (!sim_done(s[0]) && steps < 100000) {
		uint64_t k = sim_cycle(s[0]) < first ? 1 : every;
		for (int i = 0; i < nn; i++)
			sim_step(s[i], k);
		steps++;
		uint64_t h = sim_state_hash(s[0]);
		for (int i = 1; i < nn && !differ; i++)
			if (sim_state_hash(s[i]) != h || sim_cycle(s[i]) != sim_cycle(s[0])) {
				test_fail(__FILE__, __LINE__, "%s %s: %d threads differ from %d at cycle %llu", tc->preset,
					  tc->workload, ns[i], ns[0], (unsigned long long)sim_cycle(s[0]));
				differ = true;
			}
		if (differ)
			break;
	}
	CHECK(sim_done(s[0]));
	struct strbuf ref;
	sb_init(&ref);
	all_stats(s[0], &ref);
	const struct events *e0 = sim_events_c(s[0]);
	for (int i = 1; i < nn; i++) {
		CHECK(sim_done(s[i]));
		struct strbuf sb;
		sb_init(&sb);
		all_stats(s[i], &sb);
		if (strcmp(sb.s, ref.s))
			test_fail(__FILE__, __LINE__, "%s %s: stats with %d threads differ", tc->preset, tc->workload, ns[i]);
		sb_fini(&sb);
		const struct events *e = sim_events_c(s[i]);
		CHECK(e->total == e0->total);
		CHECK(!memcmp(e->counts, e0->counts, sizeof e->counts));
		for (uint64_t k = 0; k < e0->total && k < e0->cap; k++) {
			const struct event *a = events_recent(e0, k), *b = events_recent(e, k);
			if (!b || memcmp(a, b, sizeof *a)) {
				test_fail(__FILE__, __LINE__, "%s %s: event %llu back differs with %d threads", tc->preset,
					  tc->workload, (unsigned long long)k, ns[i]);
				break;
			}
		}
	}
	sb_fini(&ref);
	/* The run did something: the reference issued instructions. */
	CHECK(stats_counter_value(sim_stats_c(s[0]), (uint32_t)stats_find(sim_stats_c(s[0]), "sim.warp_insts")) > 0);
	for (int i = 0; i < nn; i++)
		session_fini(&ss[i]);
}

static const int n124[] = {1, 2, 4};

/* One thread runs its SM phases directly (sim_par.c: counters, occupancies,
 * events written as they happen) unless a breakpoint is set, when it takes
 * the threads' buffered path; both must give the same machine, cycle by
 * cycle. A direct path taking request slots from the pool instead of the
 * SM's stash differs at once (tests/mutations.txt par-direct-no-stash). */
TEST(threads_one_thread_direct_equals_buffered)
{
	struct tcase tc = {"rx540", "gather_random", {"l2.frc.entries=64", NULL}, "n", 4096, true, false};
	struct session ss[2];
	struct sim *s[2];
	REQUIRE((s[0] = build(&ss[0], &tc, 1)) != NULL);
	if (!(s[1] = build(&ss[1], &tc, 1))) {
		session_fini(&ss[0]);
		return;
	}
	char *err = NULL;
	/* Never fires (no such SM), but makes the phases buffered. */
	if (bp_add_break(&ss[1].bps, "l1.fill sm=1000", 0, &err) <= 0)
		test_fail(__FILE__, __LINE__, "breakpoint: %s", err ? err : "?");
	free(err);
	bool differ = false;
	while (!sim_done(s[0]) && sim_cycle(s[0]) < 1000000 && !differ) {
		uint64_t k = sim_cycle(s[0]) < 400 ? 1 : 41;
		sim_step(s[0], k);
		sim_step(s[1], k);
		if (sim_state_hash(s[0]) != sim_state_hash(s[1]) || sim_cycle(s[0]) != sim_cycle(s[1])) {
			test_fail(__FILE__, __LINE__, "direct and buffered differ at cycle %llu",
				  (unsigned long long)sim_cycle(s[0]));
			differ = true;
		}
	}
	CHECK(sim_done(s[0]) && sim_done(s[1]));
	struct strbuf a, b;
	sb_init(&a);
	sb_init(&b);
	all_stats(s[0], &a);
	all_stats(s[1], &b);
	CHECK(!strcmp(a.s, b.s));
	sb_fini(&a);
	sb_fini(&b);
	session_fini(&ss[0]);
	session_fini(&ss[1]);
}

TEST(threads_titanv_matmul_naive)
{
	struct tcase tc = {"titanv", "matmul_naive", {NULL}, "n", 64, true, false};
	same_for_every_count(&tc, n124, 3, 40, 1499);
}

/* 15 SMs on 3 threads: five each; on 2 and 4, uneven shares. Every cycle. */
TEST(threads_gtx480_stencil2d_odd_split)
{
	static const int n[] = {1, 3, 2, 4};
	struct tcase tc = {"gtx480", "stencil2d", {NULL}, "n", 64, true, false};
	same_for_every_count(&tc, n, 4, 160, 37);
}

/* With a coherence protocol the SM phases stay on one thread (its L1
 * controllers still reach shared state): same results, one thread. */
TEST(threads_gtx480_stencil2d_coherence)
{
	struct tcase tc = {"gtx480", "stencil2d", {"coherence.protocol=si", NULL}, "n", 64, false, false};
	same_for_every_count(&tc, n124, 3, 160, 37);
}

TEST(threads_rx540_frc)
{
	struct tcase tc = {"rx540", "gather_random", {"l2.frc.entries=64", NULL}, "n", 4096, true, false};
	same_for_every_count(&tc, n124, 3, 160, 97);
}

TEST(threads_trace_replay)
{
	struct tcase tc = {"gtx480", "tests/traces/vecadd/kernel-1.traceg", {NULL}, NULL, 0, true, false};
	same_for_every_count(&tc, n124, 3, 160, 37);
}

/* More threads than busy SMs, and a phase below the threshold (the
 * teaching machine's two SMs run on the calling thread). */
TEST(threads_more_than_sms)
{
	static const int n[] = {1, 2};
	struct tcase tc = {"teaching", "vecadd", {NULL}, NULL, 0, true, false};
	same_for_every_count(&tc, n, 2, 160, 13);
}

/* The parts' boundaries, which a run moves by the parts' times, decide only
 * who ticks which SM: 4 threads with a different forced split at every step
 * (everything in the first or the last part, empty parts in between, random
 * cuts) give the machine of one thread, cycle by cycle. */
TEST(threads_any_split_same)
{
	struct tcase tc = {"gtx480", "stencil2d", {NULL}, "n", 64, true, false};
	struct session ss[2];
	struct sim *s1 = build(&ss[0], &tc, 1);
	REQUIRE(s1);
	struct sim *s4 = build(&ss[1], &tc, 4);
	if (!s4) {
		session_fini(&ss[0]);
		return;
	}
	REQUIRE(sim_threads(s4) == 4);
	uint64_t x = 0x9e3779b97f4a7c15u, steps = 0;
	while (!sim_done(s1) && steps < 20000) {
		uint32_t f[5] = {0, 0, 0, 0, 65536};
		switch (steps % 5) {
		case 0: /* everything in part 3 */
			break;
		case 1: /* everything in part 0 */
			f[1] = f[2] = f[3] = 65536;
			break;
		case 2: /* parts 1 and 2 empty */
			f[1] = f[2] = f[3] = 30000;
			break;
		default: /* random cuts, ascending */
			for (int k = 1; k < 4; k++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				f[k] = (uint32_t)(x % 65537);
			}
			for (int a = 1; a < 4; a++)
				for (int b = a + 1; b < 4; b++)
					if (f[b] < f[a]) {
						uint32_t t = f[a];
						f[a] = f[b];
						f[b] = t;
					}
		}
		par_force_split(s4, f);
		uint64_t k = sim_cycle(s1) < 300 ? 1 : 23;
		sim_step(s1, k);
		sim_step(s4, k);
		steps++;
		if (sim_state_hash(s1) != sim_state_hash(s4) || sim_cycle(s1) != sim_cycle(s4)) {
			test_fail(__FILE__, __LINE__, "split %u %u %u: 4 threads differ from 1 at cycle %llu", f[1], f[2],
				  f[3], (unsigned long long)sim_cycle(s1));
			break;
		}
	}
	CHECK(sim_done(s1));
	CHECK(sim_done(s4));
	CHECK(stats_counter_value(sim_stats_c(s1), (uint32_t)stats_find(sim_stats_c(s1), "sim.warp_insts")) > 0);
	session_fini(&ss[0]);
	session_fini(&ss[1]);
}

/* Feed `phases` phases of times ns to the balance; returns how many of
 * them ended a window. */
static int feed(struct par_bal *b, uint32_t *f, int nt, const uint64_t *ns, uint32_t n, int phases)
{
	int ends = 0;
	for (int i = 0; i < phases; i++)
		ends += par_balance_add(b, f, nt, ns, n);
	return ends;
}

/* The balance moves a boundary one SM's share toward the faster part once
 * per window of phases, when at least a quarter of the window's votes net
 * say the other part was slower past the slack, and never past its
 * neighbours; one phase however slow moves nothing. */
TEST(threads_balance_step)
{
	struct par_bal b = {0};
	uint32_t f[3] = {0, 32768, 65536};
	uint64_t slow0[2] = {9000, 3000}, slow1[2] = {3000, 9000}, close[2] = {10000, 10300};
	uint64_t lost[2] = {4000000000u, 3000}; /* a thread that lost its core once */
	const int w = PAR_BAL_WINDOW;
	uint32_t step = (65536 + 9) / 10; /* 10 SMs */
	CHECK_EQ(feed(&b, f, 2, slow0, 10, w - 1), 0);
	CHECK_EQ(f[1], 32768); /* within the window: stays */
	CHECK_EQ(feed(&b, f, 2, slow0, 10, 1), 1);
	CHECK_EQ(f[1], 32768 - step); /* part 0 slower: it gives an SM away */
	CHECK_EQ(feed(&b, f, 2, slow1, 10, 2 * w), 2);
	CHECK_EQ(f[1], 32768 + step);
	feed(&b, f, 2, close, 10, w); /* within a sixteenth: stays */
	CHECK_EQ(f[1], 32768 + step);
	/* A quarter of the window slower, the rest even: moves; fewer: stays. */
	feed(&b, f, 2, slow0, 10, w / 4);
	feed(&b, f, 2, close, 10, w - w / 4);
	CHECK_EQ(f[1], 32768);
	feed(&b, f, 2, slow0, 10, w / 4 - 1);
	feed(&b, f, 2, close, 10, w - w / 4 + 1);
	CHECK_EQ(f[1], 32768);
	/* Slower in turns: the votes cancel. */
	for (int i = 0; i < w / 2; i++) {
		feed(&b, f, 2, slow0, 10, 1);
		feed(&b, f, 2, slow1, 10, 1);
	}
	CHECK_EQ(f[1], 32768);
	/* One phase a million times slower is one vote. */
	feed(&b, f, 2, lost, 10, 1);
	feed(&b, f, 2, close, 10, w - 1);
	CHECK_EQ(f[1], 32768);
	feed(&b, f, 2, slow1, 10, 20 * w);
	CHECK_EQ(f[1], 65536); /* part 1 empty, not beyond */
	feed(&b, f, 2, slow0, 10, 40 * w);
	CHECK_EQ(f[1], 0);
	/* Four parts, part 2 slowest: its boundaries close in, order kept. */
	struct par_bal b4 = {0};
	uint32_t g[5] = {0, 16384, 32768, 49152, 65536};
	uint64_t t4[4] = {1000, 1000, 50000, 1000};
	for (int i = 0; i < 100; i++) {
		feed(&b4, g, 4, t4, 80, w);
		for (int k = 0; k < 4; k++)
			CHECK(g[k] <= g[k + 1]);
	}
	CHECK(g[2] > 32768 && g[3] < 49152);
	CHECK_EQ(g[3] - g[2] <= (65536 + 79) / 80, 1);
	CHECK_EQ(g[0], 0);
	CHECK_EQ(g[4], 65536);
	CHECK_EQ(g[1], 16384); /* parts 0 and 1 even: their boundary stays */
}

/* Fused phases, every SM with L1-phase buffers deferred (its stash settled
 * after the L1 merge, its core_tick on the calling thread): the machine of
 * one thread's separate phases, cycle by cycle for the first 400. */
TEST(threads_fused_deferred)
{
	static const int n[] = {1, 2, 4};
	struct tcase tc = {"gtx480", "stencil2d", {NULL}, "n", 64, true, true};
	same_for_every_count(&tc, n, 3, 400, 29);
}

/* The threads' stat counts reach the registry only when something reads it
 * (stats_sync, par.h), at the latest when sim_step returns. A watchpoint
 * polls a counter that the SMs count after every cycle of a step: it must
 * stop at the first cycle the counter holds the value, as one thread
 * stepped a cycle at a time without breakpoints sees it (a read that skipped
 * the pending counts stops late: tests/mutations.txt stats-read-not-synced).
 * Counters read between steps, across changed thread counts and a rewind,
 * must match one thread's too. */
static uint64_t ctr(struct sim *s, const char *name)
{
	int id = stats_find(sim_stats_c(s), name);
	if (id < 0) {
		test_fail(__FILE__, __LINE__, "no stat %s", name);
		return 0;
	}
	return stats_counter_value(sim_stats_c(s), (uint32_t)id);
}

TEST(threads_stats_pending)
{
	struct tcase tc = {"titanv", "matmul_naive", {NULL}, "n", 64, true, false};
	static const char *names[] = {"sim.warp_insts", "l1.accesses", "l1.misses", "l2.accesses"};
	struct session ss[2];
	struct sim *s[2];
	REQUIRE((s[0] = build(&ss[0], &tc, 1)) != NULL);
	if (!(s[1] = build(&ss[1], &tc, 2))) {
		session_fini(&ss[0]);
		return;
	}
	/* The first cycle with at least `want` L1 accesses, one cycle at a time. */
	uint64_t want = 3000, first = 0;
	while (!sim_done(s[0]) && ctr(s[0], "l1.accesses") < want)
		sim_step(s[0], 1);
	first = sim_cycle(s[0]);
	REQUIRE(!sim_done(s[0]) && first > 100);
	session_fini(&ss[0]);
	REQUIRE((s[0] = build(&ss[0], &tc, 1)) != NULL);
	char *err = NULL;
	if (bp_add_watch(&ss[1].bps, "l1.accesses >= 3000", 0, &err) <= 0)
		test_fail(__FILE__, __LINE__, "watch: %s", err ? err : "?");
	free(err);
	err = NULL;
	CHECK_EQ(sim_step(s[1], UINT64_MAX), SIM_STOP_BREAK);
	CHECK_EQ(sim_cycle(s[1]), first);
	bp_delete(&ss[1].bps, -1);
	sim_step(s[0], first);

	session_set_snapshot_budget(&ss[0], 64u << 20);
	session_set_snapshot_budget(&ss[1], 64u << 20);
	s[0] = ss[0].sim;
	s[1] = ss[1].sim;
	REQUIRE(sim_threads(s[1]) == 2);
	bool differ = false;
	for (int step = 0; step < 60 && !sim_done(s[0]) && !differ; step++) {
		for (int i = 0; i < 2; i++)
			sim_step(s[i], 37);
		if (step == 20) /* a changed count keeps what the old threads counted */
			CHECK_EQ(sim_set_threads(s[1], 3), 3);
		if (step == 30)
			CHECK_EQ(sim_set_threads(s[1], 2), 2);
		if (step == 40) { /* back, then forward again over the same cycles */
			uint64_t to = sim_cycle(s[0]) - 300;
			for (int i = 0; i < 2; i++)
				if (sim_goto(s[i], to, &err)) {
					test_fail(__FILE__, __LINE__, "rewind: %s", err ? err : "?");
					free(err);
					err = NULL;
				}
		}
		for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
			uint64_t a = ctr(s[0], names[k]), b = ctr(s[1], names[k]);
			if (a != b) {
				test_fail(__FILE__, __LINE__, "%s: %llu with 1 thread, %llu with threads at cycle %llu",
					  names[k], (unsigned long long)a, (unsigned long long)b,
					  (unsigned long long)sim_cycle(s[0]));
				differ = true;
			}
		}
	}
	CHECK(sim_state_hash(s[0]) == sim_state_hash(s[1]));
	session_fini(&ss[0]);
	session_fini(&ss[1]);
}
