/*
 * test_dram.c: cycle-exact DRAM timing, derived from the parameters in
 * test_dram_harness.h (1:1 clocks, tCL 5, tCWL 3, tRCD 4, tRP 4, tRAS 10,
 * tRC 14, tRRD 2, tFAW 12, tCCD 4, tBL 2, tWR 3, tWTR 2, tRTP 2, tRTW 6,
 * tRTRS 1), and the fields of the dram.* events.
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

/* ---- rules the cases above do not bind ------------------------------------
 * Each test runs the same requests twice, the rule's parameter at the
 * harness value and raised, so the expected cycles show the rule binding. */

/* Two writes to different rows of one bank (writes only: drained at once).
 * WR at tRCD = 4, data ends 4 + tCWL + tBL = 9; PRE waits for
 * max(tRAS = 10, 9 + tWR); then tRP + tRCD + tCWL + tBL. */
static uint64_t twr_case(uint32_t twr)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.timing.tWR = twr;
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), true, 0);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 2, 0), true, 1);
	dh_run(&h, 0, false);
	CHECK_EQ(h.done_at[0], 4 + 3 + 2);
	uint64_t t = h.done_at[1];
	dh_fini(&h);
	return t;
}

TEST(dram_twr_delays_precharge_after_write)
{
	CHECK_EQ(twr_case(3), (9 + 3) + 4 + 4 + 3 + 2); /* 9 + tWR = 12 > tRAS */
	CHECK_EQ(twr_case(8), (9 + 8) + 4 + 4 + 3 + 2);
	CHECK_EQ(twr_case(1), 10 + 4 + 4 + 3 + 2); /* 9 + 1 < tRAS: tRAS binds */
}

/* A read then a conflicting read, tRAS short (= tRCD) so only tRTP holds
 * the PRE: RD at 4, PRE at 4 + tRTP, then tRP + tRCD + tCL + tBL. */
static uint64_t trtp_case(uint32_t trtp)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.timing.tRAS = 4;
	h.cfg.dram.timing.tRC = 8;
	h.cfg.dram.timing.tRTP = trtp;
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 2, 0), false, 1);
	dh_run(&h, 0, false);
	CHECK_EQ(h.done_at[0], 11);
	uint64_t t = h.done_at[1];
	dh_fini(&h);
	return t;
}

TEST(dram_trtp_delays_precharge_after_read)
{
	CHECK_EQ(trtp_case(2), (4 + 2) + 4 + 4 + 5 + 2);
	CHECK_EQ(trtp_case(9), (4 + 9) + 4 + 4 + 5 + 2);
}

/* Closed page: ACT 0, RD 4, auto-precharge at tRAS = 10 (no command slot);
 * the next ACT of the bank waits for max(10 + tRP, 0 + tRC). */
static uint64_t trc_case(uint32_t trc)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.timing.tRC = trc;
	h.cfg.dram.page_policy = DRAM_PAGE_CLOSED;
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 4), false, 1); /* same row: closed page makes it a miss */
	dh_run(&h, 0, false);
	CHECK_EQ(dh_stat(&h, "dram.row_misses"), 2);
	uint64_t t = h.done_at[1];
	dh_fini(&h);
	return t;
}

TEST(dram_trc_spaces_activates_of_a_bank)
{
	CHECK_EQ(trc_case(14), 14 + 4 + 5 + 2); /* tRAS + tRP = tRC */
	CHECK_EQ(trc_case(20), 20 + 4 + 5 + 2);
}

/* One request to each of n banks (tFAW off): ACT k at k x tRRD, its RD tRCD
 * later, data tCL + tBL after that (tCCD 4 <= tRRD keeps the column
 * commands apart). */
TEST(dram_trrd_spaces_activates_of_a_rank)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.timing.tRRD = h.cfg.dram.timing.tRRD_L = 5;
	h.cfg.dram.timing.tFAW = 0;
	REQUIRE(dh_init(&h));
	for (unsigned b = 0; b < 3; b++)
		dram_enqueue(h.d, dh_addr(&h, 0, b, 1, 0), false, b);
	dh_run(&h, 0, false);
	for (unsigned b = 0; b < 3; b++)
		CHECK_EQ(h.done_at[b], 5 * b + 4 + 5 + 2);
	dh_fini(&h);
}

/* Bank groups (bank b in group b mod 2): tCCD 1 between groups, tCCD_L 6
 * within one; tRRD 1. ACT b0 at 0, ACT of the other bank at 1, RD b0 at 4
 * (data 9..11). The other bank's RD: in the same group at 4 + tCCD_L = 10;
 * in the other group at max(1 + tRCD, 4 + tCCD, data bus 11 - tCL) = 6. */
static uint64_t ccdl_case(unsigned other_bank)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.bank_groups = 2;
	h.cfg.dram.timing.tCCD = 1;
	h.cfg.dram.timing.tCCD_L = 6;
	h.cfg.dram.timing.tRRD = h.cfg.dram.timing.tRRD_L = 1;
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	dram_enqueue(h.d, dh_addr(&h, 0, other_bank, 1, 0), false, 1);
	dh_run(&h, 0, false);
	CHECK_EQ(h.done_at[0], 11);
	uint64_t t = h.done_at[1];
	dh_fini(&h);
	return t;
}

TEST(dram_tccd_l_within_a_bank_group)
{
	CHECK_EQ(ccdl_case(2), 10 + 5 + 2); /* same group */
	CHECK_EQ(ccdl_case(1), 6 + 5 + 2);  /* other group */
}

/* Two ranks, one read each (tCCD 1): RD r0 at 4, data 9..11. The rank-1
 * read (ACT at 1, tRRD is per rank) may issue at 5 but its data must start
 * tRTRS after the bus frees: RD at max(5, 11 + tRTRS - tCL). */
static uint64_t trtrs_case(uint32_t trtrs, unsigned rank)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.ranks = 2;
	h.cfg.dram.timing.tCCD = h.cfg.dram.timing.tCCD_L = 1;
	h.cfg.dram.timing.tRTRS = trtrs;
	strcpy(h.cfg.dram.mapping, "row:rank:bank:ch:col");
	REQUIRE(dh_init(&h));
	struct dram_addr a = {.rank = 0, .bank = 0, .row = 1};
	struct dram_addr b = {.rank = rank, .bank = rank ? 0 : 1, .row = 1};
	dram_enqueue(h.d, addrmap_encode(&h.map, &a), false, 0);
	dram_enqueue(h.d, addrmap_encode(&h.map, &b), false, 1);
	dh_run(&h, 0, false);
	CHECK_EQ(h.done_at[0], 11);
	uint64_t t = h.done_at[1];
	dh_fini(&h);
	return t;
}

TEST(dram_trtrs_on_a_rank_switch)
{
	CHECK_EQ(trtrs_case(1, 1), (11 + 1 - 5) + 5 + 2);
	CHECK_EQ(trtrs_case(3, 1), (11 + 3 - 5) + 5 + 2);
	/* Same rank, other bank: no tRTRS; ACT at tRRD = 2, RD at 2 + tRCD = 6
	 * (the data bus frees at 11 = 6 + tCL) */
	CHECK_EQ(trtrs_case(3, 0), 6 + 5 + 2);
}

/* Write drain: three writes and two reads, all row hits after one ACT of
 * bank 0, enqueued together (writes first). */
static void drain_case(struct dh *h, int high, int low)
{
	dh_cfg(&h->cfg);
	h->cfg.dram.write_high = high;
	h->cfg.dram.write_low = low;
	REQUIRE(dh_init(h));
	for (unsigned i = 0; i < 3; i++)
		dram_enqueue(h->d, dh_addr(h, 0, 0, 1, 4 * i), true, i);
	for (unsigned i = 0; i < 2; i++)
		dram_enqueue(h->d, dh_addr(h, 0, 0, 1, 16 + 4 * i), false, 3 + i);
	dh_run(h, 0, false);
}

TEST(dram_write_drain_watermarks)
{
	struct dh h;
	/* 3 writes < write_high 4 while reads wait: reads first. ACT 0, RD 4
	 * and 8 (tCCD), then the writes: WR at 8 + tRTW = 14, 18, 22 (tCCD),
	 * data done tCWL + tBL later. */
	drain_case(&h, 4, 1);
	CHECK_EQ(h.done_at[3], 4 + 7);
	CHECK_EQ(h.done_at[4], 8 + 7);
	CHECK_EQ(h.done_at[0], 14 + 5);
	CHECK_EQ(h.done_at[1], 18 + 5);
	CHECK_EQ(h.done_at[2], 22 + 5);
	dh_fini(&h);
	/* 3 writes reach write_high 3: drain until write_low 1 is left. WR at
	 * 4, 8 (data ends 13); the reads at 13 + tWTR = 15 and 19; the last
	 * write when no read waits, at 19 + tRTW = 25. */
	drain_case(&h, 3, 1);
	CHECK_EQ(h.done_at[0], 4 + 5);
	CHECK_EQ(h.done_at[1], 8 + 5);
	CHECK_EQ(h.done_at[3], 15 + 7);
	CHECK_EQ(h.done_at[4], 19 + 7);
	CHECK_EQ(h.done_at[2], 25 + 5);
	dh_fini(&h);
	/* write_low 0: the drain takes every write first (WR 4, 8, 12, data
	 * ends 17), reads at 17 + tWTR = 19 and 23. */
	drain_case(&h, 3, 0);
	CHECK_EQ(h.done_at[2], 12 + 5);
	CHECK_EQ(h.done_at[3], 19 + 7);
	CHECK_EQ(h.done_at[4], 23 + 7);
	dh_fini(&h);
}

/* ---- event fields ------------------------------------------------------- */

struct ev_want {
	unsigned kind;
	int ch, bank, row;
	int64_t a; /* checked for row_conflict (open_row) */
};

TEST(dram_events_carry_channel_bank_row)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.channels = 2;
	h.cfg.dram.read_queue = 2;
	REQUIRE(dh_init(&h));
	events_log_all(&h.ev, true);
	dram_enqueue(h.d, dh_addr(&h, 1, 5, 7, 0), false, 0);
	dram_enqueue(h.d, dh_addr(&h, 1, 5, 9, 0), false, 1);
	dram_enqueue(h.d, dh_addr(&h, 1, 5, 9, 4), true, 2);
	uint64_t full = dh_addr(&h, 1, 6, 11, 0);
	CHECK(!dram_can_accept(h.d, full, false));
	dram_note_full(h.d, full, false);
	dh_run(&h, 0, false);
	/* Read mode first: miss row 7; conflict row 9 (row 7 open), PRE row 7,
	 * ACT row 9; then the write drains as a hit on row 9. */
	static const struct ev_want want[] = {
		{EV_DRAM_QUEUE_FULL, 1, 6, 11, 0}, {EV_DRAM_ROW_MISS, 1, 5, 7, 0},     {EV_DRAM_ACT, 1, 5, 7, 0},
		{EV_DRAM_RD, 1, 5, 7, 0},          {EV_DRAM_ROW_CONFLICT, 1, 5, 9, 7}, {EV_DRAM_PRE, 1, 5, 7, 0},
		{EV_DRAM_ACT, 1, 5, 9, 0},         {EV_DRAM_RD, 1, 5, 9, 0},           {EV_DRAM_ROW_HIT, 1, 5, 9, 0},
		{EV_DRAM_WR, 1, 5, 9, 0},
	};
	size_t k = 0;
	uint64_t n = events_logged(&h.ev);
	for (uint64_t i = n; i-- > 0;) { /* oldest first */
		const struct event *e = events_recent(&h.ev, i);
		REQUIRE(e);
		if (e->kind == EV_DRAM_ENQUEUE || e->kind == EV_DRAM_DONE)
			continue;
		REQUIRE(k < ARRAY_LEN(want));
		const struct ev_want *w = &want[k++];
		if (e->kind != w->kind || e->ch != w->ch || e->bank != w->bank || e->row != w->row ||
		    (w->kind == EV_DRAM_ROW_CONFLICT && e->a != w->a))
			test_fail(__FILE__, __LINE__, "event %zu: %s ch=%d bank=%d row=%d a=%lld, want %s ch=%d bank=%d row=%d",
				  k - 1, event_defs[e->kind].name, e->ch, e->bank, e->row, (long long)e->a,
				  event_defs[w->kind].name, w->ch, w->bank, w->row);
	}
	CHECK_EQ(k, ARRAY_LEN(want));
	dh_fini(&h);

	/* REF (of a busy channel: idle ones catch up without events): per bank
	 * it names its bank, all-bank bank = -1. Both first fall due at 100. */
	for (int mode = 0; mode < 2; mode++) {
		dh_cfg(&h.cfg);
		h.cfg.dram.channels = 2;
		h.cfg.dram.refresh = mode ? DRAM_REFRESH_ALL_BANK : DRAM_REFRESH_PER_BANK;
		h.cfg.dram.timing.tREFI = mode ? 100 : 800; /* per bank: bank i at (i+1) x 100 */
		REQUIRE(dh_init(&h));
		events_log_all(&h.ev, true);
		h.now = 99;
		dram_enqueue(h.d, dh_addr(&h, 1, 0, 2, 0), false, 0);
		dh_run(&h, 0, false);
		unsigned refs = 0;
		for (uint64_t i = events_logged(&h.ev); i-- > 0;) {
			const struct event *e = events_recent(&h.ev, i);
			if (e->kind != EV_DRAM_REF)
				continue;
			CHECK_EQ(e->ch, 1);
			CHECK_EQ(e->bank, mode ? -1 : 0); /* per bank: bank 0 due at 100 */
			refs++;
		}
		CHECK_EQ(refs, 1);
		dh_fini(&h);
	}
}
