/*
 * test_dram_numa.c: the NUMA fabric (dram.numa_nodes, engine/dram/dram_numa.c)
 * on the DRAM harness: 2 SMs in 2 nodes, 8 banks (SM 0 owns the even ones,
 * SM 1 the odd ones, as TEMP binds them). Every expectation is derived from
 * the fabric's parameters against the same request with the fabric off.
 */
#include "test_dram_harness.h"

static void numa_cfg(struct dh *h, int nodes, int lat, int link)
{
	dh_cfg(&h->cfg);
	h->cfg.core.sms = 2;
	h->cfg.dram.numa_nodes = nodes;
	h->cfg.dram.numa_latency = lat;
	h->cfg.dram.numa_link_bytes = link;
}

/* Completion cycle of one read of (bank, row 3, col 0) from SM sm. */
static uint64_t one_read(int nodes, int lat, int link, unsigned bank, int sm, uint64_t *remote)
{
	struct dh h;
	numa_cfg(&h, nodes, lat, link);
	if (!dh_init(&h))
		return 0;
	dram_enqueue_from(h.d, dh_addr(&h, 0, bank, 3, 0), false, 1, sm);
	dh_run(&h, 0, true);
	uint64_t t = h.done_at[1];
	*remote = nodes > 1 ? dh_stat(&h, "dram.numa.remote") : 0;
	dh_fini(&h);
	return t;
}

TEST(numa_remote_read_pays_latency_and_link)
{
	uint64_t r, base = one_read(0, 0, 0, 1, 0, &r);
	REQUIRE(base > 0);
	/* Bank 1 belongs to SM 1 (node 1): SM 0's read crosses the fabric. */
	CHECK_EQ(one_read(2, 37, 0, 1, 0, &r), base + 37);
	CHECK_EQ(r, 1);
	/* A 64 B line over a 16 B/cycle link takes 4 cycles more. */
	CHECK_EQ(one_read(2, 37, 16, 1, 0, &r), base + 37 + 64 / 16);
	/* Its own bank: no charge. */
	CHECK_EQ(one_read(2, 37, 16, 1, 1, &r), base);
	CHECK_EQ(r, 0);
	/* Unknown origin (a write-back, an FRC fetch): no charge. */
	CHECK_EQ(one_read(2, 37, 16, 1, -1, &r), base);
}

/* Two remote reads that leave the DRAM together share the node's link: the
 * second waits for the first's transfer. Two links of different nodes do
 * not interfere. */
TEST(numa_link_serialises_a_nodes_transfers)
{
	struct dh h;
	numa_cfg(&h, 2, 10, 8); /* 64 B = 8 link cycles */
	REQUIRE(dh_init(&h));
	/* SM 0 reads two lines of SM 1's bank 1, same row (back-to-back data). */
	dram_enqueue_from(h.d, dh_addr(&h, 0, 1, 3, 0), false, 1, 0);
	dram_enqueue_from(h.d, dh_addr(&h, 0, 1, 3, 4), false, 2, 0);
	dh_run(&h, 0, true);
	uint64_t a = h.done_at[1], b = h.done_at[2];
	dh_fini(&h);

	struct dh u;
	numa_cfg(&u, 0, 0, 0);
	REQUIRE(dh_init(&u));
	dram_enqueue_from(u.d, dh_addr(&u, 0, 1, 3, 0), false, 1, 0);
	dram_enqueue_from(u.d, dh_addr(&u, 0, 1, 3, 4), false, 2, 0);
	dh_run(&u, 0, true);
	uint64_t ua = u.done_at[1], ub = u.done_at[2];
	dh_fini(&u);

	CHECK_EQ(a, ua + 8 + 10);
	/* The second starts on the link when it is free, or when its data is out. */
	uint64_t start = ub > ua + 8 ? ub : ua + 8;
	CHECK_EQ(b, start + 8 + 10);
	CHECK(b > ub + 8 + 10 || ub >= ua + 8); /* the wait is real when the data came closer than a transfer */
}

TEST(numa_fabric_keeps_the_dram_stats_and_goes_idle)
{
	struct dh h;
	numa_cfg(&h, 2, 50, 16);
	REQUIRE(dh_init(&h));
	for (uint32_t i = 0; i < 8; i++)
		dram_enqueue_from(h.d, dh_addr(&h, 0, i, 3, 0), (i & 2) != 0, i, 0);
	dh_run(&h, 0, true);
	CHECK(dram_idle(h.d));
	CHECK_EQ(h.ndone, 8);
	CHECK_EQ(dh_stat(&h, "dram.numa.sm_requests"), 8);
	CHECK_EQ(dh_stat(&h, "dram.numa.remote"), 4); /* the odd banks */
	/* Every remote request pays at least the latency and its transfer. */
	CHECK(dh_stat(&h, "dram.numa.delay_sum") >= 4 * (50 + 64 / 16));
	dh_fini(&h);
}

TEST(numa_config_is_validated)
{
	struct sim_cfg c;
	char *err = NULL;
	cfg_defaults(&c);
	c.core.sms = 15;
	c.dram.numa_nodes = 4;
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK(err && strstr(err, "dram.numa_nodes") && strstr(err, "divide core.sms"));
	free(err);
	err = NULL;
	cfg_defaults(&c);
	c.dram.numa_latency = 10;
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK(err && strstr(err, "dram.numa_nodes of 2 or more"));
	free(err);
}
