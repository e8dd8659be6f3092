/* test_stats.c: the stats registry (counters, occupancy integrals, histograms, ratios). */
#include <stdlib.h>

#include "sim/stats.h"
#include "test.h"

TEST(stats_counter_and_ratio)
{
	uint64_t now = 0;
	struct stats s;
	struct arena a;
	arena_init(&a);
	stats_init(&s, &now);
	uint32_t hits = stats_counter(&s, "l1.hits", "hits");
	uint32_t acc = stats_counter(&s, "l1.accesses", "accesses");
	uint32_t rate = stats_ratio(&s, "l1.hit_rate", "hit rate", "l1.hits", "l1.accesses", 1.0);
	stats_freeze(&s, &a);
	CHECK_NEAR(stats_value(&s, rate), 0.0, 1e-12); /* 0/0 is 0, not NaN */
	stat_inc(&s, hits);
	stat_add(&s, acc, 4);
	CHECK_EQ(stats_counter_value(&s, hits), 1);
	CHECK_EQ(stats_counter_value(&s, acc), 4);
	CHECK_NEAR(stats_value(&s, rate), 0.25, 1e-12);
	CHECK_EQ(stats_find(&s, "l1.accesses"), (int)acc);
	CHECK_EQ(stats_find(&s, "l1.nothing"), -1);
	struct strbuf sb;
	sb_init(&sb);
	stats_format(&s, hits, &sb);
	CHECK_STR(sb.s, "l1.hits = 1");
	sb_fini(&sb);
	stats_fini(&s);
	arena_fini(&a);
}

TEST(stats_occupancy_integral)
{
	uint64_t now = 0;
	struct stats s;
	struct arena a;
	arena_init(&a);
	stats_init(&s, &now);
	uint32_t q = stats_occupancy(&s, "l1.mshr.occupancy", "entries in use", 4);
	stats_freeze(&s, &a);
	/* 0 for cycles [0,10), 2 for [10,20), 4 (= full) for [20,30), 1 from 30. */
	now = 10;
	stat_occ_set(&s, q, 2);
	now = 20;
	stat_occ_add(&s, q, 2);
	now = 30;
	stat_occ_add(&s, q, -3);
	now = 40;
	const struct stat_occ *o = stats_occ(&s, q);
	CHECK_EQ(o->cur, 1);
	CHECK_EQ(o->max, 4);
	CHECK_EQ(o->capacity, 4);
	CHECK_EQ(o->integral, 2 * 10 + 4 * 10 + 1 * 10);
	CHECK_EQ(o->full, 10);
	CHECK_NEAR(stats_occ_mean(&s, q), 70.0 / 40.0, 1e-12);
	/* Reading must not change the stored state (snapshots hash it). */
	uint64_t h = arena_hash(&a);
	now = 50;
	(void)stats_occ(&s, q);
	CHECK_EQ(arena_hash(&a), h);
	stats_fini(&s);
	arena_fini(&a);
}

TEST(stats_histogram_buckets)
{
	uint64_t now = 0;
	struct stats s;
	struct arena a;
	arena_init(&a);
	stats_init(&s, &now);
	const uint64_t edges[] = {0, 10, 100, 1000};
	uint32_t h = stats_hist(&s, "dram.latency", "latency", edges, 4);
	stats_freeze(&s, &a);
	const uint64_t samples[] = {0, 9, 10, 99, 100, 5000, 1000};
	for (size_t i = 0; i < ARRAY_LEN(samples); i++)
		stat_hist_add(&s, h, samples[i]);
	const uint64_t *c = stats_hist_counts(&s, h);
	CHECK_EQ(c[0], 2);
	CHECK_EQ(c[1], 2);
	CHECK_EQ(c[2], 1);
	CHECK_EQ(c[3], 2);
	CHECK_NEAR(stats_value(&s, h), 7, 0);
	stats_fini(&s);
	arena_fini(&a);
}

TEST(stats_snapshot_via_arena)
{
	uint64_t now = 0;
	struct stats s;
	struct arena a;
	arena_init(&a);
	stats_init(&s, &now);
	uint32_t c = stats_counter(&s, "x", "x");
	stats_freeze(&s, &a);
	stat_add(&s, c, 5);
	void *buf = malloc(arena_bytes(&a));
	arena_save(&a, buf);
	stat_add(&s, c, 7);
	CHECK_EQ(stats_counter_value(&s, c), 12);
	arena_load(&a, buf);
	CHECK_EQ(stats_counter_value(&s, c), 5);
	free(buf);
	stats_fini(&s);
	arena_fini(&a);
}
