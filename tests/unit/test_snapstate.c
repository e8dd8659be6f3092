/*
 * test_snapstate.c: snapshot placement bounds the replay (engine/debug/snapshot.h),
 * and the machine state travels as a blob (engine/debug/snapstate.c): a machine
 * given the blob of another one, built at other addresses, hashes and runs
 * on exactly like it; a damaged blob is refused and changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "debug/bp.h"
#include "sim/sim.h"
#include "debug/snapshot.h"
#include "simtest.h"
#include "test.h"

static struct kernel *mk_kernel(void) { return tk_snap_kernel("snapstate", 24); }
static struct sim *mk_sim(struct kernel *k, struct workload *wl) { return tk_snap_sim("snapstate", k, wl); }

/* With the bound G set and a budget too small for the whole run, every
 * cycle from the window's start on replays at most G cycles, and thinning
 * drops older snapshots only where the gap left stays within G, so every
 * snapshot but the base is inside the window; rewinding there lands on the
 * state a straight run has; cycle 0 stays reachable. */
TEST(snapshot_placement_bounds_the_replay)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	struct workload wl1, wl2;
	struct sim *s = mk_sim(k, &wl1), *ref = mk_sim(k, &wl2);
	REQUIRE(s && ref);
	size_t state = sim_arena_bytes(s);
	const uint64_t G = 3000; /* not a power of two: the bound is not the interval's doubling */
	/* The base plus about four stored snapshots (each at most the whole state).
	 * 5x, not 7x: since each warp's kwarp holds its lanes' loaded values
	 * (512 B that this kernel never changes, so every snapshot stores them
	 * as the base's), 7x the state held this whole run and left no window. */
	sim_snapshots_enable(s, state * 5);
	sim_snapshots_set_max_gap(s, G);
	CHECK_EQ(sim_snapshots_max_gap(s), G);
	uint64_t checked = 0;
	while (sim_step(s, 2500) != SIM_STOP_DONE) {
		uint64_t now = sim_cycle(s), w = sim_rewind_window(s);
		size_t n, bytes;
		uint64_t iv;
		sim_snapshots_info(s, &n, &bytes, &iv);
		CHECK(iv <= G);
		CHECK(bytes <= state * 5 || n <= 2);
		for (uint64_t c = w; c < now; c += 97) {
			uint64_t d = sim_replay_distance(s, c);
			if (d > G) {
				test_fail(__FILE__, __LINE__,
				          "cycle %llu (window from %llu, now %llu) replays %llu > %llu",
				          (unsigned long long)c, (unsigned long long)w,
				          (unsigned long long)now, (unsigned long long)d,
				          (unsigned long long)G);
				break;
			}
			checked++;
		}
		/* Thinning keeps the bound while it can: only the base is left
		 * outside the window (the cycle just before it replays from 0). */
		if (w > 0 && sim_replay_distance(s, w - 1) != w - 1) {
			test_fail(__FILE__, __LINE__,
			          "at cycle %llu a snapshot before the window (from %llu) is kept",
			          (unsigned long long)now, (unsigned long long)w);
			break;
		}
		CHECK_EQ(sim_replay_distance(s, 0), 0);
		CHECK_EQ(sim_rewind_horizon(s), 0);
	}
	CHECK(checked > 100);
	uint64_t end = sim_cycle(s);
	/* The budget was too small to hold the whole run within the bound. */
	CHECK(sim_rewind_window(s) > 0);
	CHECK(end - sim_rewind_window(s) >= 2 * G);
	/* Rewinding inside the window lands on a straight run's state. */
	uint64_t target = end - G - 1;
	char *err = NULL;
	CHECK_EQ(sim_goto(s, target, &err), 0);
	sim_step(ref, target);
	CHECK_EQ(sim_cycle(s), sim_cycle(ref));
	CHECK(sim_state_hash(s) == sim_state_hash(ref));
	/* And before it, from the base. */
	CHECK_EQ(sim_goto(s, 5, &err), 0);
	CHECK_EQ(sim_cycle(s), 5);
	free(err);
	sim_free(s);
	sim_free(ref);
	kernel_free(k);
}

/* Budget enough: the whole run stays inside the window. */
TEST(snapshot_placement_whole_run_within_budget)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	struct workload wl;
	struct sim *s = mk_sim(k, &wl);
	REQUIRE(s);
	sim_snapshots_enable(s, 256u << 20);
	sim_snapshots_set_max_gap(s, 2048);
	sim_step(s, UINT64_MAX);
	CHECK_EQ(sim_rewind_window(s), 0);
	for (uint64_t c = 0; c < sim_cycle(s); c += 31)
		CHECK(sim_replay_distance(s, c) <= 2048);
	sim_free(s);
	kernel_free(k);
}

static uint64_t run_to_end(struct sim *s)
{
	while (sim_step(s, UINT64_MAX) != SIM_STOP_DONE)
		;
	return sim_state_hash(s);
}

/* A blob from one machine put onto another (other addresses) gives the same
 * state, and both run on to the same end. */
TEST(state_blob_round_trip)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	struct workload wl1, wl2, wl3, wl4;
	struct sim *a = mk_sim(k, &wl1);
	REQUIRE(a);
	struct bp_set bpa, bpb;
	bp_init(&bpa, sim_stats(a));
	char *err = NULL;
	int id = bp_add_break(&bpa, "l1.miss sm=1", 128, &err);
	REQUIRE(id > 0);
	sim_set_bps(a, &bpa);
	sim_snapshots_enable(a, 64u << 20);
	while (sim_cycle(a) < 7777)
		sim_step(a, 7777 - sim_cycle(a));
	unsigned char *blob = NULL;
	size_t len = 0;
	CHECK_EQ(sim_state_export(a, &blob, &len, &err), 0);
	REQUIRE(blob);
	CHECK(len < sim_arena_bytes(a)); /* run-length coded */
	/* Without the base snapshot at cycle 0 there is no reference. */
	struct sim *ref = mk_sim(k, &wl2);
	unsigned char *blob2 = NULL;
	size_t len2 = 0;
	sim_step(ref, 10);
	CHECK_EQ(sim_state_export(ref, &blob2, &len2, &err), -1);
	CHECK_CONTAINS(err, "cycle 0");
	free(err);
	err = NULL;
	struct sim *b = mk_sim(k, &wl3);
	bp_init(&bpb, sim_stats(b));
	int idb = bp_add_break(&bpb, "l1.miss sm=1", 128, &err);
	REQUIRE(idb == id);
	sim_set_bps(b, &bpb);
	sim_snapshots_enable(b, 64u << 20);
	CHECK_EQ(sim_state_import(b, blob, len, &err), 0);
	CHECK_EQ(sim_cycle(b), 7777);
	CHECK(sim_state_hash(b) == sim_state_hash(a));
	CHECK_EQ(bp_get(&bpb, id)->hits, bp_get(&bpa, id)->hits);
	CHECK(bp_get(&bpa, id)->hits > 0);
	CHECK_EQ(events_logged(sim_events_c(b)), events_logged(sim_events_c(a)));
	/* Rewinding works on the imported machine, back to before the import. */
	CHECK_EQ(sim_goto(b, 100, &err), 0);
	CHECK_EQ(sim_cycle(b), 100);
	CHECK_EQ(sim_goto(b, 7777, &err), 0);
	CHECK(sim_state_hash(b) == sim_state_hash(a));
	bp_enable(&bpa, id, false);
	bp_enable(&bpb, id, false);
	CHECK(run_to_end(a) == run_to_end(b));
	CHECK_EQ(sim_cycle(a), sim_cycle(b));
	CHECK_EQ(bp_get(&bpb, id)->hits, bp_get(&bpa, id)->hits);
	/* A machine without snapshots takes it too. */
	struct sim *c = mk_sim(k, &wl4);
	CHECK_EQ(sim_state_import(c, blob, len, &err), 0);
	CHECK_EQ(sim_cycle(c), 7777);
	free(err);
	free(blob);
	free(blob2);
	sim_set_bps(a, NULL);
	sim_set_bps(b, NULL);
	bp_fini(&bpa);
	bp_fini(&bpb);
	sim_free(a);
	sim_free(b);
	sim_free(c);
	sim_free(ref);
	kernel_free(k);
}

/* At cycle 0 no request slot was ever freed: the pool's free list is empty
 * (REQ_NIL), which a state must be allowed to carry; so is the state of a
 * machine whose pool is in use but whose free list is empty. */
TEST(state_blob_with_an_empty_free_list)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	struct workload wl1, wl2;
	struct sim *a = mk_sim(k, &wl1), *b = mk_sim(k, &wl2);
	REQUIRE(a && b);
	sim_snapshots_enable(a, 64u << 20);
	unsigned char *blob = NULL;
	size_t len = 0;
	char *err = NULL;
	CHECK_EQ(sim_state_export(a, &blob, &len, &err), 0);
	CHECK_EQ(sim_state_import(b, blob, len, &err), 0);
	CHECK(sim_state_hash(b) == sim_state_hash(a));
	/* Format 1 (before the pool kept unused slots zero) is named, not used. */
	struct workload wl3;
	struct sim *c = mk_sim(k, &wl3);
	blob[7] = '1';
	CHECK_EQ(sim_state_import(c, blob, len, &err), -1);
	CHECK_CONTAINS(err, "format 1 from another gpustep build");
	free(blob);
	free(err);
	sim_free(a);
	sim_free(b);
	sim_free(c);
	kernel_free(k);
}

/* Every damaged blob is refused with a message; the machine is unchanged. */
TEST(state_blob_damaged_is_refused)
{
	struct kernel *k = mk_kernel();
	REQUIRE(k);
	struct workload wl1, wl2;
	struct sim *a = mk_sim(k, &wl1), *b = mk_sim(k, &wl2);
	REQUIRE(a && b);
	sim_snapshots_enable(a, 64u << 20);
	sim_step(a, 3000);
	unsigned char *blob = NULL;
	size_t len = 0;
	char *err = NULL;
	REQUIRE(sim_state_export(a, &blob, &len, &err) == 0);
	uint64_t h0 = sim_state_hash(b);
	unsigned char *bad = malloc(len + 16);
	REQUIRE(bad);
	/* Cut short anywhere. */
	for (size_t cut = 0; cut < len; cut += 1 + len / 97) {
		CHECK_EQ(sim_state_import(b, blob, cut, &err), -1);
		CHECK(err != NULL);
		free(err);
		err = NULL;
	}
	/* Header fields and the first run header changed (a changed literal
	 * word is the session file's hash's to catch). Layout: snapstate.c. */
	size_t runs = 8 * 8 + 8 * (size_t)EV__COUNT + 8;
	size_t spots[] = {0, 8, 16, 56, runs + 3, runs + 7};
	for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
		memcpy(bad, blob, len);
		bad[spots[i]] ^= 0xa5;
		CHECK_EQ(sim_state_import(b, bad, len, &err), -1);
		CHECK(err != NULL);
		free(err);
		err = NULL;
		CHECK(sim_state_hash(b) == h0);
		CHECK_EQ(sim_cycle(b), 0);
	}
	/* Trailing garbage. */
	memcpy(bad, blob, len);
	memset(bad + len, 1, 16);
	CHECK_EQ(sim_state_import(b, bad, len + 16, &err), -1);
	CHECK_CONTAINS(err, "after its end");
	free(err);
	err = NULL;
	/* Wrong machine: a bigger one. */
	CHECK_EQ(sim_state_import(a, blob, len, &err), -1);
	CHECK_CONTAINS(err, "cycle 0");
	free(err);
	err = NULL;
	CHECK(sim_state_hash(b) == h0);
	free(bad);
	free(blob);
	sim_free(a);
	sim_free(b);
	kernel_free(k);
}
