/*
 * test_probe.c: probe points (sim/probe.h). Listeners run in registration
 * order; every L1 and L2 lookup the stats count fires its probe exactly once;
 * the observers that listen (CCWS, VWS, the reuse profiler) see the same
 * stream after a rewind as in one uninterrupted run.
 */
#include <stdlib.h>

#include "test.h"
#include "simtest.h"
#include "debug/snapshot.h"
#include "sim/sim_int.h"
#include "sim/stats.h"

static int order_log[8], order_n;
static void first(struct sim *s, const void *a) { (void)s, (void)a, order_log[order_n++] = 1; }
static void second(struct sim *s, const void *a) { (void)s, (void)a, order_log[order_n++] = 2; }

TEST(probe_listeners_run_in_registration_order_up_to_the_limit)
{
	struct probes pr = {0};
	CHECK_EQ(probe_heard(&pr, PP_L1_ACCESS), 0);
	CHECK_EQ(probe_listen(&pr, PP_L1_ACCESS, second), 0);
	CHECK_EQ(probe_listen(&pr, PP_L1_ACCESS, first), 0);
	CHECK_EQ(probe_heard(&pr, PP_L1_ACCESS), 1);
	CHECK_EQ(probe_heard(&pr, PP_L2_ACCESS), 0);
	order_n = 0;
	probe_fire(&pr, NULL, PP_L1_ACCESS, NULL);
	REQUIRE(order_n == 2);
	CHECK_EQ(order_log[0], 2);
	CHECK_EQ(order_log[1], 1);
	probe_fire(&pr, NULL, PP_L2_ACCESS, NULL); /* nobody listens: nothing runs */
	CHECK_EQ(order_n, 2);
	for (int i = 2; i < PROBE_MAX; i++)
		CHECK_EQ(probe_listen(&pr, PP_L1_ACCESS, first), 0);
	CHECK_EQ(probe_listen(&pr, PP_L1_ACCESS, first), -1); /* full */
}

static uint64_t n_l1, n_l2, n_l1_loads, n_bad;
static void count_l1(struct sim *s, const void *arg)
{
	const struct probe_access *a = arg;
	n_l1++;
	n_l1_loads += a->op == PRB_LOAD;
	if (!a->sm || a->unit != a->sm->id || a->set < 0 || a->set >= s->cfg.l1.sets)
		n_bad++;
}
static void count_l2(struct sim *s, const void *arg)
{
	const struct probe_access *a = arg;
	n_l2++;
	if (a->sm || a->unit < 0 || a->unit >= s->cfg.l2.banks || a->set < 0 || a->set >= s->cfg.l2.sets)
		n_bad++;
}

static uint64_t stat(struct sim *s, const char *name)
{
	int id = stats_find(sim_stats_c(s), name);
	if (id < 0) {
		test_fail(__FILE__, __LINE__, "no stat %s", name);
		return 0;
	}
	return (uint64_t)stats_value(sim_stats_c(s), (uint32_t)id);
}

/* With or without the coherent L1 (coh_l1.c has its own lookups). */
static void every_lookup_fires_once(const char *protocol)
{
	struct kernel *k = tk_snap_kernel("probe", 8);
	REQUIRE(k);
	struct workload wl = {.kernel = k};
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	if (protocol)
		REQUIRE(cfg_set_value(&c, "coherence.protocol", protocol, &err) == 0);
	struct sim *s = sim_new(&c, &wl, &err);
	REQUIRE(s);
	REQUIRE(probe_listen(&s->probes, PP_L1_ACCESS, count_l1) == 0);
	REQUIRE(probe_listen(&s->probes, PP_L2_ACCESS, count_l2) == 0);
	n_l1 = n_l2 = n_l1_loads = n_bad = 0;
	sim_step(s, UINT64_MAX);
	REQUIRE(sim_done(s));
	CHECK(n_l1 > 0);
	CHECK_EQ(n_l1, stat(s, "l1.accesses"));
	CHECK_EQ(n_l2, stat(s, "l2.accesses"));
	CHECK(n_l1_loads > 0 && n_l1_loads < n_l1); /* the kernel loads and stores */
	CHECK_EQ(n_bad, 0);
	sim_free(s);
	kernel_free(k);
}

TEST(probe_every_cache_lookup_fires_once)
{
	every_lookup_fires_once(NULL);
	every_lookup_fires_once("nmoesi");
}

/* An observer fed by probes sees the same stream after rewinding: its stat
 * equals an uninterrupted run's, and is not zero. */
static void same_after_rewind(const char *scheduler, const char *statname)
{
	struct kernel *k = tk_snap_kernel("probe_rw", 12);
	REQUIRE(k);
	struct workload wl = {.kernel = k};
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	REQUIRE(cfg_set_value(&c, "core.scheduler", scheduler, &err) == 0);
	struct sim *a = sim_new(&c, &wl, &err);
	struct sim *b = sim_new(&c, &wl, &err);
	REQUIRE(a && b);
	sim_step(a, UINT64_MAX);
	uint64_t want = stat(a, statname);
	CHECK(want > 0);
	sim_snapshots_enable(b, 64u << 20);
	sim_step(b, sim_cycle(a) * 2 / 3);
	REQUIRE(sim_goto(b, sim_cycle(a) / 3, &err) == 0);
	sim_step(b, UINT64_MAX);
	CHECK_EQ(sim_cycle(b), sim_cycle(a));
	CHECK_EQ(stat(b, statname), want);
	sim_free(a);
	sim_free(b);
	kernel_free(k);
}

TEST(probe_observers_same_after_rewind)
{
	same_after_rewind("ccws", "ccws.lost_locality");
	same_after_rewind("vws", "vws.window_changes");
}
