/*
 * test_rewind_restore.c: what a snapshot keeps outside the arena (engine/
 * snapshot.c restore()) comes back on a rewind: a stat watchpoint's previous
 * truth value (its edge trigger) and the per-kind event counts. Each test
 * fails when that part of the restore is dropped.
 */
#include <string.h>

#include "tui/commands.h"
#include "sim/event.h"
#include "sesstest.h"
#include "test.h"

static uint64_t hits(struct fx *f, int id)
{
	struct bp *b = bp_get(&f->ss.bps, id);
	return b ? b->hits : 0;
}

/* `watch l1.misses >= 10` fires once, when l1.misses reaches 10, and never
 * again (l1.misses only grows). Rewinding to a cycle after that edge replays
 * from a snapshot taken after it too (snapshots every 1024 cycles): with the
 * watchpoint's truth value at the snapshot restored (true) the replay sees
 * no new edge; restored as false it would count a second hit. */
TEST(rewind_restores_watchpoint_truth_value)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "watch l1.misses >= 10");
	CHECK_EQ(fx_run(&f, "continue"), CMD_RUN);
	CHECK_CONTAINS(f.cap.out.s, "Watchpoint 1, l1.misses >= 10 (now 10) at cycle");
	uint64_t edge = sim_cycle(f.ss.sim);
	CHECK(edge < 1024); /* the edge lies before the first snapshot after 0 */
	CHECK_EQ(hits(&f, 1), 1);
	fx_run(&f, "goto 3000");
	CHECK_EQ(sim_cycle(f.ss.sim), 3000);
	CHECK_EQ(hits(&f, 1), 1);
	fx_run(&f, "rs 5");
	CHECK_EQ(sim_cycle(f.ss.sim), 2995);
	CHECK_EQ(hits(&f, 1), 1);
	fx_run(&f, "info break");
	CHECK_CONTAINS(f.cap.out.s, "1    watchpoint  y    1     l1.misses >= 10");
	/* Back before the edge: not hit yet; forward again: the same one hit. */
	char to[32];
	snprintf(to, sizeof to, "goto %llu", (unsigned long long)(edge - 1));
	fx_run(&f, to);
	CHECK_EQ(hits(&f, 1), 0);
	fx_run(&f, "continue");
	CHECK_EQ(sim_cycle(f.ss.sim), edge);
	CHECK_EQ(hits(&f, 1), 1);
	fx_fini(&f);
}

/* `watch STAT` (a change watch) stops at the same cycles, with the same
 * from/to values, run straight through or after rewinding to just before a
 * change: its last value comes from the restored stats (without
 * bp_resync_changes it keeps the value of the later cycle and stops at once,
 * or misses the change). */
TEST(rewind_change_watch_stops_at_the_same_cycles)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "watch l1.misses");
	uint64_t at[3];
	char why[3][256];
	for (int i = 0; i < 3; i++) {
		REQUIRE(fx_run(&f, "continue") == CMD_RUN);
		at[i] = sim_cycle(f.ss.sim);
		snprintf(why[i], sizeof why[i], "%s", f.ss.bps.stop_reason);
	}
	CHECK(at[0] < at[1] && at[1] < at[2]);
	fx_run(&f, "goto 3000");
	char to[32];
	snprintf(to, sizeof to, "goto %llu", (unsigned long long)(at[1] - 1));
	fx_run(&f, to);
	CHECK_EQ(hits(&f, 1), 1); /* a stale last value would count a change while replaying */
	REQUIRE(fx_run(&f, "continue") == CMD_RUN);
	CHECK_EQ(sim_cycle(f.ss.sim), at[1]);
	CHECK_EQ(hits(&f, 1), 2);
	CHECK_STR(f.ss.bps.stop_reason, why[1]);
	REQUIRE(fx_run(&f, "continue") == CMD_RUN);
	CHECK_EQ(sim_cycle(f.ss.sim), at[2]);
	CHECK_STR(f.ss.bps.stop_reason, why[2]);
	fx_fini(&f);
}

/* The per-kind counts of events (struct events.counts: every kind logged or
 * watched) at a cycle are the same reached directly or by rewinding from
 * later. */
TEST(rewind_restores_event_counts)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "log all");
	fx_run(&f, "goto 2500");
	static uint64_t first[EV__COUNT];
	memcpy(first, sim_events_c(f.ss.sim)->counts, sizeof first);
	uint64_t total = sim_events_c(f.ss.sim)->total;
	uint64_t sum = 0;
	for (int k = 0; k < EV__COUNT; k++)
		sum += first[k];
	CHECK(sum > 1000); /* events were counted */
	fx_run(&f, "goto 5000");
	CHECK(sim_events_c(f.ss.sim)->total > total);
	fx_run(&f, "goto 2500");
	CHECK_EQ(sim_events_c(f.ss.sim)->total, total);
	int differ = 0;
	for (int k = 0; k < EV__COUNT; k++)
		if (sim_events_c(f.ss.sim)->counts[k] != first[k]) {
			if (!differ++)
				test_fail(__FILE__, __LINE__, "event kind %s: count %llu after the rewind, %llu first",
					  event_defs[k].name, (unsigned long long)sim_events_c(f.ss.sim)->counts[k],
					  (unsigned long long)first[k]);
		}
	CHECK_EQ(differ, 0);
	fx_fini(&f);
}
