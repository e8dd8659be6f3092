/*
 * test_snapshot.c: rewinding is exact. A state reached by rewinding and
 * replaying hashes the same as the state reached directly; breakpoint hit
 * counts and the event log come back as they were; the budget is kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "debug/bp.h"
#include "sim/sim.h"
#include "debug/snapshot.h"
#include "sim/sim_int.h"
#include "sim/stats.h"
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

/* sim_rewind_work counts what rewinding did: a backward goto restores one
 * snapshot and replays the distance sim_replay_distance gave before it (none
 * when it lands on a snapshot); a forward goto is a run, not a replay; a
 * back search's replayed cycles are its own count (b.replayed). */
TEST(snapshot_rewind_work_counts_restores_and_replayed_cycles)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	struct workload wl;
	struct sim *s = mk_sim(k, &wl);
	REQUIRE(s);
	uint64_t r, c;
	sim_rewind_work(s, &r, &c); /* rewinding off */
	CHECK(r == 0 && c == 0);
	sim_snapshots_enable(s, 64u << 20);
	sim_snapshots_set_max_gap(s, 1024);
	sim_step(s, 7777);
	sim_rewind_work(s, &r, &c);
	CHECK(r == 0 && c == 0);
	uint64_t d = sim_replay_distance(s, 5000);
	REQUIRE(d > 0 && d < 5000);
	CHECK_EQ(sim_goto(s, 5000, NULL), 0);
	sim_rewind_work(s, &r, &c);
	CHECK_EQ(r, 1);
	CHECK_EQ(c, d);
	CHECK_EQ(sim_goto(s, 6000, NULL), 0); /* forwards */
	sim_rewind_work(s, &r, &c);
	CHECK(r == 1 && c == d);
	REQUIRE(sim_replay_distance(s, 3072) == 0);
	CHECK_EQ(sim_goto(s, 3072, NULL), 0);
	sim_rewind_work(s, &r, &c);
	CHECK(r == 2 && c == d);
	CHECK_EQ(sim_goto(s, 6000, NULL), 0);
	struct bp_set bps;
	bp_init(&bps, sim_stats(s));
	REQUIRE(bp_add_break(&bps, "cycle 2500", 128, NULL) > 0);
	sim_set_bps(s, &bps);
	struct sim_back_search b;
	sim_back_search_begin(s, &b);
	int steps = 0;
	while (sim_back_search_step(s, &b, 1000) != SIM_SEARCH_DONE)
		steps++;
	sim_back_search_end(s, &b);
	CHECK_EQ(b.found, 2500);
	CHECK(steps > 0 && b.replayed >= 6000 - 1 - 2500);
	uint64_t r2, c2;
	sim_rewind_work(s, &r2, &c2);
	CHECK_EQ(c2 - c, b.replayed);
	CHECK(r2 - r >= 2); /* at least one snapshot and the origin put back */
	sim_set_bps(s, NULL);
	bp_fini(&bps);
	sim_free(s);
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

/* The kinds a crafted state gives each 64-byte block against the base. */
enum { CR_SAME, CR_ZERO, CR_NEW };

/* Runs of every kind, of lengths 1, 2, 3 and many, each next to runs of the
 * other kinds; a chunk starts with two zero blocks and ends with three (the
 * last one short when the chunk's bytes are not a multiple of 64). */
static void craft_chunk(unsigned char *kinds, size_t nb)
{
	static const struct {
		unsigned char kind;
		unsigned char len;
	} runs[] = {{CR_NEW, 1},  {CR_ZERO, 1}, {CR_SAME, 1}, {CR_ZERO, 2},  {CR_NEW, 2},  {CR_ZERO, 3},
		    {CR_SAME, 2}, {CR_ZERO, 1}, {CR_NEW, 3},  {CR_ZERO, 40}, {CR_SAME, 3}, {CR_ZERO, 2},
		    {CR_NEW, 20}, {CR_ZERO, 7}, {CR_SAME, 90}};
	size_t r = 0, left = runs[0].len;
	for (size_t k = 0; k < nb; k++) {
		kinds[k] = runs[r].kind;
		if (--left == 0) {
			r = (r + 1) % (sizeof runs / sizeof runs[0]);
			left = runs[r].len;
		}
	}
	for (size_t k = 0; k < 2 && k < nb; k++)
		kinds[k] = CR_ZERO;
	for (size_t k = nb > 3 ? nb - 3 : 0; k < nb; k++)
		kinds[k] = CR_ZERO;
}

/* Write the runs of craft_chunk into every chunk of the arena. */
static void craft_state(struct arena *a, struct rng *r)
{
	for (struct arena_chunk *c = a->head; c; c = c->next) {
		size_t nb = (c->used + 63) / 64;
		unsigned char *kinds = xmalloc(nb);
		craft_chunk(kinds, nb);
		for (size_t b = 0; b < nb; b++) {
			size_t off = b * 64, n = c->used - off < 64 ? c->used - off : 64;
			if (kinds[b] == CR_ZERO)
				memset(c->data + off, 0, n);
			else if (kinds[b] == CR_NEW)
				for (size_t i = 0; i < n; i++)
					c->data[off + i] ^= (unsigned char)(1 + rng_below(r, 255));
		}
		free(kinds);
	}
}

static bool block_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* A restore writes exactly the snapshot's bytes, however the blocks that
 * differ from the base lie: runs of zero blocks (where the base's are not
 * zero), of changed blocks and of unchanged ones, of lengths 1, 2, 3 and
 * many, at the start and the end of the state and of each arena chunk. The
 * states are made by hand (a kernel seldom zeroes two neighbouring blocks):
 * two chunks are added to the arena (the newest come first in the state, so
 * its first block can be zero; the machine's own chunk starts with the
 * cycle counter), the base is random bytes without a zero block, and the
 * second snapshot is the base with the runs written in. Whatever the arena
 * holds before the restore (other garbage, the base itself, all zeros), it
 * ends with the second snapshot's bytes, compared byte for byte with a copy
 * taken when it was made. Nothing simulates here (sim_goto lands on the
 * snapshot's cycle); the machine's own state is put back before sim_free. */
TEST(snapshot_restore_writes_runs_of_every_kind_and_length)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	struct workload wl;
	struct sim *s = mk_sim(k, &wl);
	REQUIRE(s);
	for (size_t tail = 80; tail >= 48; tail -= 32) { /* a new chunk each, not a multiple of 64 bytes long */
		size_t rem = s->arena.head->size - s->arena.head->used;
		arena_alloc(&s->arena, (rem + 63) / 64 * 64 + tail);
	}
	const size_t len = arena_bytes(&s->arena);
	unsigned char *own = xmalloc(len), *want = xmalloc(len), *got = xmalloc(len);
	arena_save(&s->arena, own);
	struct rng r;
	rng_seed(&r, 29);
	for (struct arena_chunk *c = s->arena.head; c; c = c->next)
		for (size_t i = 0; i < c->used; i++)
			c->data[i] = (unsigned char)(1 + rng_below(&r, 255));
	s->st->now = 0;
	sim_snapshots_enable(s, 64u << 20); /* the base: these bytes, whole */
	craft_state(&s->arena, &r);
	const uint64_t at = 5000;
	s->st->now = at;
	snapshot_resume(s); /* the second snapshot, of these bytes, at cycle 5000 */
	size_t n, bytes;
	uint64_t iv;
	sim_snapshots_info(s, &n, &bytes, &iv);
	REQUIRE(n == 2);
	CHECK(bytes < 2 * len); /* stored as its difference from the base */
	arena_save(&s->arena, want);
	/* What the state holds (the machine wrote its cycle and derived stats
	 * over a few of the crafted bytes): zero runs at both ends, many long. */
	size_t nblk = (len + 63) / 64, long_runs = 0, chunks = 0;
	for (struct arena_chunk *c = s->arena.head; c; c = c->next)
		chunks++;
	CHECK(chunks >= 3);
	CHECK(block_zero(want, 128) && block_zero(want + len - 64 - len % 64, 64 + len % 64));
	for (size_t b = 1, run = 0; b < nblk; b++) {
		run = block_zero(want + b * 64, MIN(64, len - b * 64)) ? run + 1 : 0;
		long_runs += run == 2;
	}
	CHECK(long_runs >= 20);
	for (int g = 0; g < 3; g++) {
		if (g == 0)
			for (struct arena_chunk *c = s->arena.head; c; c = c->next)
				memset(c->data, 0xa5, c->used);
		else if (g == 1)
			CHECK_EQ(sim_goto(s, 0, NULL), 0); /* the base itself */
		else
			for (struct arena_chunk *c = s->arena.head; c; c = c->next)
				memset(c->data, 0, c->used);
		s->st->now = at + 1; /* the machine is past the snapshot: goto restores it */
		CHECK_EQ(sim_goto(s, at, NULL), 0);
		CHECK_EQ(sim_cycle(s), at);
		arena_save(&s->arena, got);
		size_t first = 0;
		while (first < len && got[first] == want[first])
			first++;
		if (first < len)
			test_fail(__FILE__, __LINE__, "garbage %d: byte %zu of %zu (block %zu) is %#x after the restore, not %#x",
				  g, first, len, first / 64, got[first], want[first]);
	}
	arena_load(&s->arena, own); /* the machine's own state, for sim_free */
	free(own);
	free(want);
	free(got);
	sim_free(s);
	kernel_free(k);
}
