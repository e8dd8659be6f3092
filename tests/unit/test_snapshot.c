/*
 * test_snapshot.c: rewinding is exact. A state reached by rewinding and
 * replaying hashes the same as the state reached directly; breakpoint hit
 * counts and the event log come back as they were; the budget is kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "sim.h"
#include "snapshot.h"
#include "sim_int.h"
#include "stats.h"
#include "simtest.h"
#include "test.h"

static struct kernel *mk_kernel(void) { return tk_snap_kernel("snap", 12); }
static struct sim *mk_sim(struct kernel *k, struct workload *wl) { return tk_snap_sim("snap", k, wl); }

TEST(snapshot_goto_backward_equals_direct)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	struct workload wl1, wl2;
	struct sim *a = mk_sim(k, &wl1), *b = mk_sim(k, &wl2);
	REQUIRE(a && b);
	sim_snapshots_enable(b, 64u << 20);
	sim_step(a, 3000);
	uint64_t h3000 = sim_state_hash(a);
	sim_step(b, 7777);
	char *err = NULL;
	CHECK_EQ(sim_goto(b, 3000, &err), 0);
	CHECK_EQ(sim_cycle(b), 3000);
	CHECK(sim_state_hash(b) == h3000);
	/* Forward again to the end: identical to a straight run. */
	sim_step(a, UINT64_MAX);
	sim_step(b, UINT64_MAX);
	CHECK_EQ(sim_cycle(a), sim_cycle(b));
	CHECK(sim_state_hash(a) == sim_state_hash(b));
	/* Rewind to the start and run again. */
	CHECK_EQ(sim_goto(b, 0, &err), 0);
	CHECK_EQ(sim_cycle(b), 0);
	sim_step(b, UINT64_MAX);
	CHECK(sim_state_hash(a) == sim_state_hash(b));
	free(err);
	sim_free(a);
	sim_free(b);
	kernel_free(k);
}

/* A restore writes every byte of the state, whatever the arena held: fill it
 * with garbage, go back to a snapshot's cycle (no replay), and the state is
 * the one reached directly. The base is taken mid-run, so later snapshots
 * have blocks that are now zero where the base's were not; a decode that
 * skipped part of a run of blocks (equal to the base, zero, or stored)
 * would leave garbage there, which rewinding between similar states hides. */
TEST(snapshot_restore_overwrites_the_whole_state)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	struct workload wl1, wl2;
	struct sim *a = mk_sim(k, &wl1), *b = mk_sim(k, &wl2);
	REQUIRE(a && b);
	sim_step(b, 1500);
	sim_snapshots_enable(b, 64u << 20); /* the base at cycle 1500 */
	sim_snapshots_set_max_gap(b, 1024); /* snapshots every 1024 cycles */
	sim_step(b, 7777 - 1500);
	const uint64_t at = 3072;
	REQUIRE(sim_replay_distance(b, at) == 0);
	sim_step(a, at);
	uint64_t h = sim_state_hash(a);
	for (struct arena_chunk *c = b->arena.head; c; c = c->next)
		memset(c->data, 0xa5, c->used);
	char *err = NULL;
	CHECK_EQ(sim_goto(b, at, &err), 0);
	CHECK_EQ(sim_cycle(b), at);
	CHECK(sim_state_hash(b) == h);
	free(err);
	sim_free(a);
	sim_free(b);
	kernel_free(k);
}

/* A snapshot is taken inside sim_step, at the first cycle of an interval
 * (1024 at first). Stats that sim_step refreshes when it returns (the RF's
 * leakage and total energy) must be brought to that cycle in the snapshot,
 * not left at the previous sim_step boundary (1000 here): goto 1024 restores
 * that snapshot without any replay. Found by valgrind, where the wall-clock
 * snapshot spacing differed and a rewind landed exactly on a snapshot. */
TEST(snapshot_inside_a_step_holds_that_cycles_derived_stats)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	struct workload wl1, wl2;
	struct sim *a = mk_sim(k, &wl1), *b = mk_sim(k, &wl2);
	REQUIRE(a && b);
	sim_snapshots_enable(b, 64u << 20);
	size_t n0, n1, bytes;
	uint64_t iv;
	sim_snapshots_info(b, &n0, &bytes, &iv);
	REQUIRE(iv == 1024);
	sim_step(b, 1000);
	sim_step(b, 100); /* takes the snapshot of cycle 1024 on the way */
	sim_snapshots_info(b, &n1, &bytes, &iv);
	CHECK_EQ(n1, n0 + 1);
	sim_step(a, 1024);
	char *err = NULL;
	CHECK_EQ(sim_goto(b, 1024, &err), 0);
	CHECK(sim_state_hash(b) == sim_state_hash(a));
	CHECK_EQ(stats_counter_value(sim_stats(b), (uint32_t)stats_find(sim_stats(b), "rf.energy.leakage")),
		 stats_counter_value(sim_stats(a), (uint32_t)stats_find(sim_stats(a), "rf.energy.leakage")));
	free(err);
	sim_free(a);
	sim_free(b);
	kernel_free(k);
}

TEST(snapshot_budget_thins_and_keeps_cycle_zero)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	struct workload wl;
	struct sim *s = mk_sim(k, &wl);
	REQUIRE(s);
	sim_snapshots_enable(s, 1); /* tiny: forces thinning on every snapshot */
	sim_snapshots_set_max_gap(s, UINT64_MAX); /* no replay bound: the interval grows */
	sim_step(s, UINT64_MAX);
	size_t n, bytes;
	uint64_t interval;
	sim_snapshots_info(s, &n, &bytes, &interval);
	CHECK(n <= 2);
	CHECK(interval > 1024);
	CHECK_EQ(sim_rewind_horizon(s), 0);
	char *err = NULL;
	uint64_t end = sim_cycle(s);
	CHECK_EQ(sim_goto(s, end / 2, &err), 0);
	CHECK_EQ(sim_cycle(s), end / 2);
	free(err);
	sim_free(s);
	kernel_free(k);
}

TEST(snapshot_breakpoint_hits_and_log_restored)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	struct workload wl;
	struct sim *s = mk_sim(k, &wl);
	REQUIRE(s);
	struct bp_set bps;
	bp_init(&bps, sim_stats(s));
	char *err = NULL;
	int id = bp_add_break(&bps, "l1.miss sm=1", 128, &err);
	REQUIRE(id > 0);
	sim_set_bps(s, &bps);
	sim_snapshots_enable(s, 64u << 20);
	CHECK_EQ(sim_step(s, UINT64_MAX), SIM_STOP_BREAK);
	uint64_t c1 = sim_cycle(s);
	uint64_t hits1 = bp_get(&bps, id)->hits;
	uint64_t logged1 = events_logged(sim_events_c(s));
	for (int i = 0; i < 5; i++)
		CHECK_EQ(sim_step(s, UINT64_MAX), SIM_STOP_BREAK);
	uint64_t c6 = sim_cycle(s);
	/* reverse-continue: the previous stop */
	uint64_t prev = sim_prev_break(s);
	CHECK(prev < c6);
	CHECK_EQ(sim_cycle(s), c6);
	CHECK_EQ(sim_goto(s, c1, &err), 0);
	CHECK_EQ(bp_get(&bps, id)->hits, hits1);
	CHECK_EQ(events_logged(sim_events_c(s)), logged1);
	free(err);
	sim_set_bps(s, NULL);
	bp_fini(&bps);
	sim_free(s);
	kernel_free(k);
}


/* The search for reverse-continue in slices (sim_back_search_*) finds the
 * same stop as sim_prev_break with any budget, and the previous stop is the
 * one `continue` had made; whether it finishes or is cancelled half way, the
 * machine is back at its cycle with the same state hash and hit counts. */
TEST(snapshot_back_search_in_slices_equals_prev_break)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	const char *breaks[] = {"l1.miss sm=1", "dram.row_conflict", "cycle 2500", "l2.miss", "cycle 9000"};
	const uint64_t budgets[] = {1, 7, 100, 4096};
	int long_searches = 0;
	for (size_t bi = 0; bi < sizeof breaks / sizeof breaks[0]; bi++) {
		struct workload wl;
		struct sim *s = mk_sim(k, &wl);
		REQUIRE(s);
		struct bp_set bps;
		bp_init(&bps, sim_stats(s));
		char *err = NULL;
		int id = bp_add_break(&bps, breaks[bi], 128, &err);
		REQUIRE(id > 0);
		sim_set_bps(s, &bps);
		/* A small interval so the search crosses several snapshots. */
		sim_snapshots_enable(s, 64u << 20);
		int n = 0;
		while (n < 8 && sim_step(s, UINT64_MAX) == SIM_STOP_BREAK)
			n++;
		REQUIRE(n >= 1);
		/* On past the last stop (or the kernel ended there): the search
		 * has some way to go back. */
		CHECK_EQ(sim_goto(s, sim_cycle(s) + 3000, &err), 0); /* counts hits, does not stop */
		uint64_t now = sim_cycle(s), h = sim_state_hash(s), hits = bp_get(&bps, id)->hits;
		/* The oracle: a second machine run by `continue` up to now - 1. */
		struct workload wl2;
		struct sim *o = mk_sim(k, &wl2);
		struct bp_set obps;
		bp_init(&obps, sim_stats(o));
		REQUIRE(bp_add_break(&obps, breaks[bi], 128, &err) > 0);
		sim_set_bps(o, &obps);
		uint64_t want = UINT64_MAX;
		while (sim_cycle(o) < now - 1) {
			enum sim_stop why = sim_step(o, now - 1 - sim_cycle(o));
			if (why == SIM_STOP_BREAK)
				want = sim_cycle(o);
			else if (why == SIM_STOP_DONE)
				break;
		}
		sim_set_bps(o, NULL);
		bp_fini(&obps);
		sim_free(o);
		REQUIRE(want != UINT64_MAX);
		uint64_t prev = sim_prev_break(s);
		CHECK_EQ(prev, want);
		CHECK_EQ(sim_cycle(s), now);
		CHECK(sim_state_hash(s) == h);
		for (size_t ui = 0; ui < sizeof budgets / sizeof budgets[0]; ui++) {
			struct sim_back_search b;
			sim_back_search_begin(s, &b);
			int slices = 0;
			enum sim_search_status st;
			while ((st = sim_back_search_step(s, &b, budgets[ui])) == SIM_SEARCH_MORE)
				slices++;
			CHECK_EQ(st, SIM_SEARCH_DONE);
			CHECK_EQ(b.found, prev);
			CHECK(b.replayed >= now - 1 - prev);
			CHECK((uint64_t)(slices + 1) * budgets[ui] >= b.replayed);
			sim_back_search_end(s, &b);
			CHECK_EQ(sim_cycle(s), now);
			CHECK(sim_state_hash(s) == h);
			CHECK_EQ(bp_get(&bps, id)->hits, hits);
		}
		/* Cancelled after a few slices, and by an interrupt. */
		if (now - prev < 1000) /* found at once: nothing to cancel */
			goto next;
		long_searches++;
		struct sim_back_search b;
		sim_back_search_begin(s, &b);
		for (int i = 0; i < 5; i++)
			CHECK_EQ(sim_back_search_step(s, &b, 3), SIM_SEARCH_MORE);
		CHECK(sim_cycle(s) < now);
		sim_back_search_end(s, &b);
		CHECK_EQ(sim_cycle(s), now);
		CHECK(sim_state_hash(s) == h);
		CHECK_EQ(bp_get(&bps, id)->hits, hits);
		sim_back_search_begin(s, &b);
		CHECK_EQ(sim_back_search_step(s, &b, 50), SIM_SEARCH_MORE);
		sim_interrupt(s);
		CHECK_EQ(sim_back_search_step(s, &b, 50), SIM_SEARCH_INTERRUPTED);
		sim_back_search_end(s, &b);
		CHECK_EQ(sim_cycle(s), now);
		CHECK(sim_state_hash(s) == h);
		CHECK_EQ(bp_get(&bps, id)->hits, hits);
	next:
		free(err);
		sim_set_bps(s, NULL);
		bp_fini(&bps);
		sim_free(s);
	}
	CHECK(long_searches >= 2);
	kernel_free(k);
}
