/*
 * test_dram.c: cycle-exact DRAM timing, derived from the parameters in
 * test_dram_harness.h (1:1 clocks, tCL 5, tCWL 3, tRCD 4, tRP 4, tRAS 10,
 * tRC 14, tRRD 2, tFAW 12, tCCD 4, tBL 2, tWR 3, tWTR 2, tRTP 2).
 */
#include "test_dram_harness.h"

TEST(dram_read_idle_bank)
{
	struct dh h;
	dh_cfg(&h.cfg);
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 3, 7, 0), false, 0);
	dh_run(&h, 0, false);
	CHECK_EQ(h.done_at[0], 4 + 5 + 2); /* tRCD + tCL + tBL */
	CHECK_EQ(dh_stat(&h, "dram.row_misses"), 1);
	CHECK_EQ(dh_stat(&h, "dram.activates"), 1);
	CHECK_EQ(dh_stat(&h, "dram.ch0.b3.row_misses"), 1);
	dh_fini(&h);
}

TEST(dram_row_hit_respects_tccd)
{
	struct dh h;
	dh_cfg(&h.cfg);
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 5, 0), false, 0);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 5, 4), false, 1);
	dh_run(&h, 0, false);
	/* RD1 at tRCD = 4, RD2 at 4 + tCCD = 8, data tCL + tBL later */
	CHECK_EQ(h.done_at[0], 11);
	CHECK_EQ(h.done_at[1], 8 + 5 + 2);
	CHECK_EQ(dh_stat(&h, "dram.row_hits"), 1);
	CHECK_EQ(dh_stat(&h, "dram.row_misses"), 1);
	dh_fini(&h);
}

TEST(dram_row_hit_bus_bound)
{
	/* tCCD 1 < tBL 2: back-to-back hits are limited by the data bus. */
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.timing.tCCD = h.cfg.dram.timing.tCCD_L = 1;
	REQUIRE(dh_init(&h));
	for (unsigned i = 0; i < 4; i++)
		dram_enqueue(h.d, dh_addr(&h, 0, 0, 5, i * 4), false, i);
	dh_run(&h, 0, false);
	for (unsigned i = 0; i < 4; i++)
		CHECK_EQ(h.done_at[i], 11 + 2 * i);
	dh_fini(&h);
}

TEST(dram_row_conflict_respects_tras)
{
	struct dh h;
	dh_cfg(&h.cfg);
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 2, 1, 0), false, 0);
	dram_enqueue(h.d, dh_addr(&h, 0, 2, 9, 0), false, 1);
	dh_run(&h, 0, false);
	CHECK_EQ(h.done_at[0], 11);
	/* PRE waits for tRAS (10 > RD 4 + tRTP 2), then tRP + tRCD + tCL + tBL */
	CHECK_EQ(h.done_at[1], 10 + 4 + 4 + 5 + 2);
	CHECK_EQ(dh_stat(&h, "dram.row_conflicts"), 1);
	CHECK_EQ(dh_stat(&h, "dram.precharges"), 1);
	CHECK_EQ(dh_stat(&h, "dram.activates"), 2);
	dh_fini(&h);
}

TEST(dram_conflict_costs_trp_trcd_over_hit)
{
	/* Same bank, late second request: tRAS no longer binds. */
	struct dh h;
	dh_cfg(&h.cfg);
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 2, 1, 0), false, 0);
	dh_run(&h, 100, false);
	dram_enqueue(h.d, dh_addr(&h, 0, 2, 1, 8), false, 1); /* hit */
	dh_run(&h, 200, false);
	dram_enqueue(h.d, dh_addr(&h, 0, 2, 3, 0), false, 2); /* conflict */
	dh_run(&h, 0, false);
	uint64_t hit = h.done_at[1] - 100, conf = h.done_at[2] - 200;
	CHECK_EQ(hit, 5 + 2);
	CHECK_EQ(conf, hit + 4 + 4);
	dh_fini(&h);
}

TEST(dram_tfaw_delays_fifth_activate)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.timing.tCCD = h.cfg.dram.timing.tCCD_L = 1;
	REQUIRE(dh_init(&h));
	for (unsigned b = 0; b < 5; b++)
		dram_enqueue(h.d, dh_addr(&h, 0, b, 1, 0), false, b);
	dh_run(&h, 0, false);
	/* One command bus, column commands first: ACT b0 0, ACT b1 2, RD b0 4,
	 * ACT b2 5, RD b1 6, ACT b3 7, RD b2 9, RD b3 11; the fifth ACT waits for
	 * 0 + tFAW = 12 (tRRD alone would allow 9) */
	CHECK_EQ(h.done_at[0], 11);
	CHECK_EQ(h.done_at[1], 13);
	CHECK_EQ(h.done_at[2], 16);
	CHECK_EQ(h.done_at[3], 18);
	CHECK_EQ(h.done_at[4], 12 + 11);
	dh_fini(&h);

	dh_cfg(&h.cfg);
	h.cfg.dram.timing.tCCD = h.cfg.dram.timing.tCCD_L = 1;
	h.cfg.dram.timing.tFAW = 0;
	REQUIRE(dh_init(&h));
	for (unsigned b = 0; b < 5; b++)
		dram_enqueue(h.d, dh_addr(&h, 0, b, 1, 0), false, b);
	dh_run(&h, 0, false);
	CHECK_EQ(h.done_at[4], 10 + 11); /* ACT at 10: cycle 9 went to RD b2 */
	dh_fini(&h);
}

TEST(dram_twtr_separates_write_then_read)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.write_high = 1; /* drain the write first */
	h.cfg.dram.write_low = 0;
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), true, 0);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 4), false, 1);
	dh_run(&h, 0, false);
	/* WR at tRCD = 4, data ends 4 + tCWL + tBL = 9, RD at 9 + tWTR = 11 */
	CHECK_EQ(h.done_at[0], 9);
	CHECK_EQ(h.done_at[1], 11 + 5 + 2);
	CHECK_EQ(dh_stat(&h, "dram.writes"), 1);
	CHECK_EQ(dh_stat(&h, "dram.reads"), 1);
	dh_fini(&h);
}

TEST(dram_trtw_separates_read_then_write)
{
	struct dh h;
	dh_cfg(&h.cfg);
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 4), true, 1);
	dh_run(&h, 0, false);
	/* RD at 4; WR at 4 + tRTW = 10; write data ends 10 + tCWL + tBL */
	CHECK_EQ(h.done_at[0], 11);
	CHECK_EQ(h.done_at[1], 10 + 3 + 2);
	dh_fini(&h);
}

TEST(dram_refresh_blocks_for_trfc)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.refresh = DRAM_REFRESH_ALL_BANK;
	REQUIRE(dh_init(&h));
	h.now = 95;
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	dh_run(&h, 101, false);
	dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 0), false, 1);
	dh_run(&h, 0, false);
	CHECK_EQ(h.done_at[0], 95 + 11);
	/* REF due at 100: PRE bank 0 at tRAS (95 + 10), REF at 105 + tRP = 109,
	 * bank 1 may ACT at 109 + tRFC = 129 */
	CHECK_EQ(h.done_at[1], 129 + 11);
	CHECK_EQ(dh_stat(&h, "dram.refreshes"), 1);
	/* Idle refreshes are caught up when the channel is next used. */
	h.now = 1050;
	dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 0), false, 2);
	dh_run(&h, 0, false);
	CHECK_EQ(dh_stat(&h, "dram.refreshes"), 10); /* due at 100, 200, ..., 1000 */
	CHECK_EQ(h.done_at[2], 1050 + 11);             /* closed by refresh: a miss */
	CHECK_EQ(dh_stat(&h, "dram.row_misses"), 3);
	dh_fini(&h);
}

TEST(dram_per_bank_refresh_blocks_one_bank)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.refresh = DRAM_REFRESH_PER_BANK;
	h.cfg.dram.timing.tREFI = 800; /* bank i refreshed at (i+1)*100 */
	REQUIRE(dh_init(&h));
	h.now = 99;
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0); /* bank 0 due at 100 */
	dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 0), false, 1); /* bank 1 free */
	dh_run(&h, 0, false);
	CHECK_EQ(h.done_at[1], 99 + 2 + 11); /* ACT at 101 (tRRD) */
	/* bank 0: ACT at 99; its refresh falls due at 100, before the RD (103):
	 * refresh preempts, PRE at 99 + tRAS = 109, REF at 113 (tRP), busy for
	 * tRFCpb = 8, ACT again at 121, RD 125, data done 132 */
	CHECK_EQ(h.done_at[0], 132);
	CHECK_EQ(dh_stat(&h, "dram.refreshes"), 1);
	dh_fini(&h);
}

TEST(dram_non_integer_clock_ratio)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.tck_ps = 1500; /* 666.7 MHz DRAM under a 1 GHz core */
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	h.now = 1;
	dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 0), false, 1);
	dh_run(&h, 0, true);
	/* ACT at DRAM 0, data ends at DRAM 11 = 16.5 ns -> core cycle 17 */
	CHECK_EQ(h.done_at[0], 17);
	/* enqueued at 1 ns -> first DRAM cycle 1 (1.5 ns); ACT at tRRD = 2, RD at
	 * max(2 + tRCD, 4 + tCCD) = 8, data ends at DRAM 15 = 22.5 ns -> core 23 */
	CHECK_EQ(h.done_at[1], 23);
	CHECK_EQ(dh_stat(&h, "dram.cycles") >= 13, 1);
	dh_fini(&h);
}

TEST(dram_line_of_several_bursts)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.l2.line = 128; /* two 64 B bursts */
	h.cfg.dram.timing.tCCD = h.cfg.dram.timing.tCCD_L = 1;
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	dh_run(&h, 0, false);
	/* RD at 4 and 6 (bus), data ends 6 + tCL + tBL */
	CHECK_EQ(h.done_at[0], 13);
	CHECK_EQ(dh_stat(&h, "dram.data_cycles"), 4);
	dh_fini(&h);
}

TEST(dram_closed_page_auto_precharges)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.page_policy = DRAM_PAGE_CLOSED;
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 4), false, 1);
	dh_run(&h, 0, false);
	CHECK_EQ(h.done_at[0], 11);
	/* auto-PRE at tRAS = 10, ACT at max(14, tRC 14), RD 18 */
	CHECK_EQ(h.done_at[1], 14 + 11);
	CHECK_EQ(dh_stat(&h, "dram.row_hits"), 0);
	CHECK_EQ(dh_stat(&h, "dram.row_misses"), 2);
	CHECK_EQ(dh_stat(&h, "dram.precharges"), 2);
	dh_fini(&h);
}

TEST(dram_timeout_page_closes_idle_row)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.page_policy = DRAM_PAGE_TIMEOUT;
	h.cfg.dram.page_timeout = 50;
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	dh_run(&h, 30, true);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 4), false, 1); /* within the timeout: hit */
	dh_run(&h, 200, true);
	CHECK_EQ(dh_stat(&h, "dram.precharges"), 1); /* closed at RD 30 + 4 + 50 */
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 8), false, 2);
	dh_run(&h, 0, true);
	CHECK_EQ(dh_stat(&h, "dram.row_hits"), 1);
	CHECK_EQ(dh_stat(&h, "dram.row_misses"), 2);
	CHECK_EQ(h.done_at[2], 200 + 11);
	dh_fini(&h);
}

TEST(dram_config_rules_name_key)
{
	struct sim_cfg c;
	char *err = NULL;
	dh_cfg(&c);
	c.dram.timing.tRAS = 42;
	c.dram.timing.tRP = 18;
	c.dram.timing.tRC = 50;
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK_STR(err, "dram.timing.tRC: must be >= tRAS + tRP (42 + 18 = 60), got 50");
	free(err);
	err = NULL;
	dh_cfg(&c);
	strcpy(c.dram.mapping, "row:bank:col:ch");
	c.dram.channels = 2;
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK_CONTAINS(err, "dram.mapping: the lowest field must be col");
	free(err);
	err = NULL;
	dh_cfg(&c);
	strcpy(c.dram.mapping, "row:bank:chan:col");
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK_CONTAINS(err, "unknown field 'chan'");
	free(err);
	struct sim_cfg def;
	cfg_defaults(&def);
	err = NULL;
	CHECK_EQ(cfg_validate(&def, &err), 0);
	free(err);
}
