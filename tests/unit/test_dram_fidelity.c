/*
 * test_dram_fidelity.c: the DRAM rules that make gpustep agree with DRAMSim3
 * on matched configs (the FR-FCFS row-hit cap, tRCDWR, tPPD, t32AW), the
 * bounds of the clock arithmetic, and the checks on bad input (trace lines,
 * mapping widths). Expectations are derived from the harness timing
 * (test_dram_harness.h: 1:1 clocks, tCL 5, tRCD 4, tRP 4, tRAS 10, tRC 14,
 * tCCD 4, tBL 2, tRTP 2).
 */
#include <stdio.h>

#include "dram/dram_trace.h"
#include "test_dram_harness.h"

#define T(h) (&(h)->cfg.dram.timing)
#define TBL(h) ((uint64_t)((h)->cfg.dram.burst / (h)->cfg.dram.data_rate))

/* After the cap, a conflicting head may precharge, but hits that are ready
 * before the PRE is legal still issue (DRAMSim3: the cap permits the PRE, it
 * never idles a bank with ready hits). Bank 0: A(row 1) B(row 2) C D E(row 1),
 * cap 1. */
TEST(dram_row_hit_cap_serves_hits_until_pre_is_legal)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.row_hit_cap = 1;
	REQUIRE(dh_init(&h));
	const struct dram_timing *t = T(&h);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);  /* A */
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 2, 0), false, 1);  /* B: conflict, older than C..E */
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 4), false, 2);  /* C */
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 8), false, 3);  /* D */
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 12), false, 4); /* E */
	dh_run(&h, 0, false);
	uint64_t cl_bl = (uint64_t)t->tCL + TBL(&h);
	uint64_t rd_a = (uint64_t)t->tRCD;                 /* ACT at 0 */
	uint64_t rd_c = rd_a + (uint64_t)t->tCCD;          /* cap reached, but C is ready before tRAS */
	uint64_t pre = (uint64_t)t->tRAS;                  /* PRE legal at tRAS (> C + tRTP) */
	REQUIRE(rd_c < pre && rd_c + (uint64_t)t->tRTP <= pre && rd_c + (uint64_t)t->tCCD > pre);
	uint64_t act_b = pre + (uint64_t)t->tRP;           /* = tRC here */
	uint64_t rd_b = act_b + (uint64_t)t->tRCD;
	CHECK_EQ(h.done_at[0], rd_a + cl_bl);
	CHECK_EQ(h.done_at[2], rd_c + cl_bl);
	CHECK_EQ(h.done_at[1], rd_b + cl_bl);
	/* Row 2 has served its one request: D (head, row 1) may precharge at
	 * ACT(B) + tRAS, then ACT, RD D, RD E a tCCD later. */
	uint64_t act_d = act_b + (uint64_t)t->tRAS + (uint64_t)t->tRP;
	CHECK_EQ(h.done_at[3], act_d + (uint64_t)t->tRCD + cl_bl);
	CHECK_EQ(h.done_at[4], act_d + (uint64_t)t->tRCD + (uint64_t)t->tCCD + cl_bl);
	CHECK_EQ(dh_stat(&h, "dram.activates"), 3);
	CHECK_EQ(dh_stat(&h, "dram.row_hits"), 2); /* C, E */
	dh_fini(&h);
}

/* The cap still bounds starvation: once the PRE is legal it wins over hits
 * (it is the oldest command of the bank). */
TEST(dram_row_hit_cap_precharges_when_legal)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.row_hit_cap = 2;
	REQUIRE(dh_init(&h));
	const struct dram_timing *t = T(&h);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 2, 0), false, 1);
	for (unsigned i = 0; i < 6; i++)
		dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 4 + 4 * i), false, 2 + i);
	dh_run(&h, 0, false);
	/* hits at tRCD, +tCCD (cap 2 reached at 8), then PRE at tRAS = 10
	 * before the hit ready at 12: B at tRAS + tRP + tRCD. */
	uint64_t cl_bl = (uint64_t)t->tCL + TBL(&h);
	CHECK_EQ(h.done_at[1], (uint64_t)(t->tRAS + t->tRP + t->tRCD) + cl_bl);
	unsigned before = 0;
	for (unsigned i = 0; i < 6; i++)
		before += h.done_at[2 + i] < h.done_at[1];
	CHECK_EQ(before, 1);
	dh_fini(&h);
}

/* Two interleaved streams in different rows of one bank. FR-FCFS (cap 4)
 * drains at least 1.5x faster than FCFS, and no faster than the timing
 * allows: one column command per max(tCCD, tBL), and the bank's activates
 * at least tRC apart. */
static uint64_t two_streams(int sched, uint64_t *acts)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.scheduler = sched;
	h.cfg.dram.row_hit_cap = 4;
	if (!dh_init(&h))
		return 0;
	enum { N = 64 };
	struct dh_req r[2 * N];
	for (unsigned i = 0; i < N; i++) {
		r[2 * i] = (struct dh_req){dh_addr(&h, 0, 0, 1, (4 * i) % 128), false};
		r[2 * i + 1] = (struct dh_req){dh_addr(&h, 0, 0, 2, (4 * i) % 128), false};
	}
	dh_feed(&h, r, 2 * N, true);
	*acts = dh_stat(&h, "dram.activates");
	uint64_t end = h.now;
	dh_fini(&h);
	return end;
}

TEST(dram_two_streams_frfcfs_vs_fcfs_and_bound)
{
	uint64_t acts_fr, acts_fc;
	uint64_t fr = two_streams(DRAM_SCHED_FRFCFS, &acts_fr), fc = two_streams(DRAM_SCHED_FCFS, &acts_fc);
	struct dh h;
	dh_cfg(&h.cfg);
	const struct dram_timing *t = T(&h);
	uint64_t n = 128, col = (uint64_t)(t->tCCD > (int)TBL(&h) ? t->tCCD : (int)TBL(&h));
	CHECK(fr > 0 && fc > 0);
	CHECK(fc * 2 >= fr * 3); /* >= 1.5x */
	CHECK_EQ(acts_fc, n);    /* FCFS: every request opens its row */
	/* the bound: the last data of n column commands, and tRC between ACTs */
	uint64_t by_bus = (uint64_t)t->tRCD + (n - 1) * col + (uint64_t)t->tCL + TBL(&h);
	uint64_t by_act = (acts_fr - 1) * (uint64_t)t->tRC + (uint64_t)(t->tRCD + t->tCL) + TBL(&h);
	CHECK(fr >= by_bus);
	CHECK(fr >= by_act);
	CHECK(acts_fr >= n / 4); /* cap 4: at most 4 requests per activation while the other row waits */
	printf("    two streams: frfcfs %llu cycles (%llu ACT), fcfs %llu (%llu ACT), bounds %llu / %llu\n",
	       (unsigned long long)fr, (unsigned long long)acts_fr, (unsigned long long)fc, (unsigned long long)acts_fc,
	       (unsigned long long)by_bus, (unsigned long long)by_act);
}

/* FR-FCFS puts column commands before row commands among those ready in one
 * cycle (FCFS takes the oldest). Bank 0 keeps row 1 open after A; then, in
 * one cycle, B (bank 1, needs ACT, older) and C (bank 0, row 1: a hit) come.
 * The command bus takes one command per cycle, so C's RD goes first under
 * FR-FCFS (data at now + tCL + tBL) and one cycle later under FCFS. */
static uint64_t hit_beside_older_act(int sched, uint64_t *t0)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.scheduler = sched;
	if (!dh_init(&h))
		return 0;
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	dh_run(&h, 0, false);
	h.now += (uint64_t)T(&h)->tRAS; /* every spacing rule satisfied */
	*t0 = h.now;
	dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 0), false, 1);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 4), false, 2);
	dh_run(&h, 0, false);
	uint64_t c = h.done_at[2];
	dh_fini(&h);
	return c;
}

TEST(dram_frfcfs_column_before_older_row_command)
{
	struct dh h;
	dh_cfg(&h.cfg);
	uint64_t lat = (uint64_t)T(&h)->tCL + TBL(&h), t_fr = 0, t_fc = 0;
	uint64_t fr = hit_beside_older_act(DRAM_SCHED_FRFCFS, &t_fr);
	uint64_t fc = hit_beside_older_act(DRAM_SCHED_FCFS, &t_fc);
	CHECK_EQ(fr, t_fr + lat);
	CHECK(fc > t_fc + lat);
}

/* ---- bad input ------------------------------------------------------------ */

static int check(const char *text, struct sim_cfg *c, char **err)
{
	uint64_t n = 0;
	free(*err);
	*err = NULL;
	return dram_trace_check_mem(text, strlen(text), c, &n, err);
}

TEST(dram_trace_rejects_what_the_model_cannot_represent)
{
	char *err = NULL;
	/* issue 25: a cycle near 2^64 aborted on an assertion in dram_tick */
	CHECK(check("0x0 READ 0\n0x80 READ 12303978297164269197\n", NULL, &err) < 0);
	CHECK_CONTAINS(err, "line 2: cycle above");
	CHECK(check("0x0 READ 0\n0x80 READ 18446744073709551615\n", NULL, &err) < 0);
	CHECK_CONTAINS(err, "line 2:");
	CHECK(check("0x0 READ 281474976710656\n", NULL, &err) == 0); /* 2^48 itself is fine */
	CHECK(check("0x0 READ 281474976710657\n", NULL, &err) < 0);
	CHECK(check("0x0 READ 99999999999999999999999\n", NULL, &err) < 0);
	CHECK_CONTAINS(err, "line 1: cycle above");
	free(err);
}

TEST(dram_trace_parses_as_dramsim3_and_ramulator)
{
	char *err = NULL;
	struct dram_trace_parser p;
	struct dram_trace_rec r;
	dram_trace_parser_init(&p, NULL);
	/* addresses are hex with or without 0x (DRAMSim3 reads std::hex) */
	CHECK_EQ(dram_trace_parse(&p, "4000 READ 0\n", 12, &r, &err), 1);
	CHECK_EQ(r.addr, 0x4000);
	CHECK_EQ(dram_trace_parse(&p, "0100 WRITE 3", 12, &r, &err), 1);
	CHECK_EQ(r.addr, 0x100);
	CHECK(r.is_write && r.cycle == 3);
	CHECK_EQ(dram_trace_parse(&p, "0X7fA0 P_MEM_RD 3", 17, &r, &err), 1);
	CHECK_EQ(r.addr, 0x7fa0);
	CHECK_EQ(dram_trace_parse(&p, "# c\n", 4, &r, &err), 0);
	CHECK_EQ(dram_trace_parse(&p, "0x40 READ 2\n", 12, &r, &err), -1); /* decreasing */
	CHECK_CONTAINS(err, "line 5: expected a cycle >= 3");
	free(err);
	err = NULL;
	/* a first line without a cycle no longer silently means Ramulator */
	CHECK(check("0x0 READ\n0x40 READ\n", NULL, &err) < 0);
	CHECK_CONTAINS(err, "line 1: a DRAMSim line needs a cycle");
	CHECK(check("0x0 R\n0x40 W\n", NULL, &err) == 0);
	CHECK(check("LD 40\nST 0x80\n", NULL, &err) == 0);
	CHECK(check("LD 0x40\nLD 0x40 7\n", NULL, &err) < 0);
	CHECK_CONTAINS(err, "line 2: expected \"LD ADDR\"");
	CHECK(check("0x0 READ 0\n0xzz READ 1\n", NULL, &err) < 0);
	CHECK_CONTAINS(err, "line 2: expected a hex address");
	CHECK(check("0x0 READ 0\n0x11112222333344445 READ 1\n", NULL, &err) < 0); /* 17 digits */
	CHECK_CONTAINS(err, "line 2: expected a hex address");
	CHECK(check("FETCH 0x0 0 1\n", NULL, &err) < 0);
	CHECK_CONTAINS(err, "line 1:");
	/* NUL bytes are not "only blank lines" */
	static const char nul[] = "0x0 READ 0\n\0\0\0\n";
	free(err);
	err = NULL;
	uint64_t n;
	CHECK(dram_trace_check_mem(nul, sizeof nul - 1, NULL, &n, &err) < 0);
	CHECK_CONTAINS(err, "line 2: NUL byte");
	CHECK(check("\n# x\n", NULL, &err) < 0);
	CHECK_CONTAINS(err, "no requests");
	free(err);
}

TEST(dram_trace_address_range_rejected_or_wrapped)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	/* teaching DRAM: 1 ch x 16 banks x 4096 rows x 2 KB = 128 MiB */
	CHECK(check("0x7ffffc0 READ 0\n", &c, &err) == 0);
	CHECK(check("0x0 READ 0\n0x8000000 READ 1\n", &c, &err) < 0);
	CHECK_CONTAINS(err, "line 2: address 0x8000000 is beyond the DRAM capacity (0x8000000 bytes); set dram.trace_wrap=true");
	c.dram.trace_wrap = true;
	struct dram_trace_parser p;
	struct dram_trace_rec r;
	dram_trace_parser_init(&p, &c);
	CHECK_EQ(dram_trace_parse(&p, "0x10000040 READ 0", 17, &r, &err), 1);
	CHECK_EQ(r.addr, 0x40);
	CHECK_EQ(p.wrapped, 1);
	free(err);
}

TEST(dram_mapping_wider_than_the_address_is_a_config_error)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	snprintf(c.dram.mapping, sizeof c.dram.mapping, "row:rank:bank:ch:col[40]:col[40]");
	CHECK(cfg_validate(&c, &err) != 0); /* was SIGFPE (issue 25) */
	CHECK_CONTAINS(err, "dram.mapping: the pieces of 'col' have 80 bits");
	free(err);
	err = NULL;
	snprintf(c.dram.mapping, sizeof c.dram.mapping, "row:bank:ch:col[33]");
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK_CONTAINS(err, "dram.mapping");
	free(err);
}

/* The clock conversion is exact and saturates instead of wrapping: a read
 * enqueued at a core cycle near the trace limit completes after it. */
TEST(dram_clock_arithmetic_far_from_zero)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.core.clock_mhz = 1400; /* 1000 ps tCK: 1.4 core cycles per DRAM cycle */
	REQUIRE(dh_init(&h));
	h.now = DRAM_TRACE_MAX_CYCLE;
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	dh_run(&h, 0, true);
	/* tRCD + tCL + tBL = 11 DRAM cycles = 15.4 core cycles, plus at most one
	 * DRAM cycle of alignment */
	CHECK(h.done_at[0] > DRAM_TRACE_MAX_CYCLE);
	CHECK(h.done_at[0] - DRAM_TRACE_MAX_CYCLE >= 16 && h.done_at[0] - DRAM_TRACE_MAX_CYCLE <= 18);
	dh_fini(&h);
}

/* ---- timing keys ------------------------------------------------------------ */

TEST(dram_trcdwr_separates_act_from_write)
{
	for (int rcdwr = 0; rcdwr <= 7; rcdwr += 7) {
		struct dh h;
		dh_cfg(&h.cfg);
		T(&h)->tRCDWR = rcdwr;
		REQUIRE(dh_init(&h));
		const struct dram_timing *t = T(&h);
		dram_enqueue(h.d, dh_addr(&h, 0, 2, 3, 0), true, 0);
		dh_run(&h, 0, false);
		/* the write waits tRCDWR (tRCD when 0) after its ACT */
		uint64_t rcd_wr = (uint64_t)(rcdwr ? rcdwr : t->tRCD);
		CHECK_EQ(h.done_at[0], rcd_wr + (uint64_t)t->tCWL + TBL(&h));
		dh_fini(&h);
	}
}

TEST(dram_tppd_spaces_precharges_of_a_rank)
{
	for (int ppd = 0; ppd <= 5; ppd += 5) {
		struct dh h;
		dh_cfg(&h.cfg);
		T(&h)->tPPD = ppd;
		REQUIRE(dh_init(&h));
		const struct dram_timing *t = T(&h);
		dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
		dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 0), false, 1);
		dh_run(&h, 40, false); /* both rows open, every rule settled */
		dram_enqueue(h.d, dh_addr(&h, 0, 0, 2, 0), false, 2);
		dram_enqueue(h.d, dh_addr(&h, 0, 1, 2, 0), false, 3);
		dh_run(&h, 0, false);
		/* PRE bank 0 at 40, PRE bank 1 one command slot later or tPPD later */
		uint64_t pre1 = 40 + (uint64_t)(ppd > 1 ? ppd : 1);
		uint64_t rest = (uint64_t)(t->tRP + t->tRCD + t->tCL) + TBL(&h);
		CHECK_EQ(h.done_at[2], 40 + rest);
		uint64_t want = pre1 + rest, bus = 40 + rest + (uint64_t)t->tCCD; /* or tCCD behind bank 0 */
		CHECK_EQ(h.done_at[3], want > bus ? want : bus);
		if (ppd)
			CHECK_EQ(h.done_at[3], pre1 + rest);
		dh_fini(&h);
	}
}

TEST(dram_t32aw_limits_activates_in_the_window)
{
	uint64_t acts[2];
	for (int k = 0; k < 2; k++) {
		struct dh h;
		dh_cfg(&h.cfg);
		T(&h)->tFAW = 0;
		T(&h)->tCCD = 2;
		T(&h)->tCCD_L = 2;
		T(&h)->t32AW = k ? 100 : 0;
		h.cfg.dram.page_policy = DRAM_PAGE_CLOSED;
		h.cfg.dram.read_queue = 64;
		REQUIRE(dh_init(&h));
		/* every request a new row, banks in turn: ACT-bound */
		for (unsigned i = 0; i < 64; i++)
			dram_enqueue(h.d, dh_addr(&h, 0, i % 8, 1 + i / 8, 0), false, i);
		dh_run(&h, 100, false); /* DRAM cycles 0..99 */
		acts[k] = dh_stat(&h, "dram.activates");
		dh_fini(&h);
	}
	CHECK(acts[0] > 32); /* the test is ACT-bound without the window */
	CHECK_EQ(acts[1], 32);
}

TEST(dram_read_latency_mean_dram_counts_dram_cycles)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.core.clock_mhz = 500; /* one core cycle = two DRAM cycles */
	REQUIRE(dh_init(&h));
	const struct dram_timing *t = T(&h);
	h.now = 7;
	dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 0), false, 0);
	dh_run(&h, 0, true);
	uint64_t miss = (uint64_t)(t->tRCD + t->tCL) + TBL(&h); /* 11 DRAM cycles */
	CHECK_NEAR(dh_value(&h, "dram.read_latency_mean_dram"), (double)miss, 1e-9);
	CHECK_NEAR(dh_value(&h, "dram.read_latency_mean"), (double)((miss + 1) / 2), 1e-9); /* 5.5 rounded up */
	dh_fini(&h);
}

/* ---- write drain ------------------------------------------------------------ */

static uint64_t first_write_done(int drain, unsigned writes)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.write_drain = drain;
	h.cfg.dram.write_queue = 8;
	h.cfg.dram.write_high = 8;
	h.cfg.dram.write_low = 2;
	if (!dh_init(&h))
		return 0;
	for (unsigned i = 0; i < writes; i++)
		dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 4 * i), true, i);
	dh_run(&h, 0, true);
	uint64_t d = h.done_at[0];
	dh_fini(&h);
	return d;
}

TEST(dram_write_drain_full_or_idle)
{
	struct dh h;
	dh_cfg(&h.cfg);
	const struct dram_timing *t = T(&h);
	uint64_t wr = (uint64_t)(t->tRCD + t->tCWL) + TBL(&h); /* ACT, WR, data */
	/* watermark: no read waits, so writes issue at once */
	CHECK_EQ(first_write_done(DRAM_DRAIN_WATERMARK, 2), wr);
	/* full_or_idle: more than write_low writes and no read: at once */
	CHECK_EQ(first_write_done(DRAM_DRAIN_FULL_OR_IDLE, 3), wr);
	/* write_low or fewer: held until no request arrived for tRC */
	CHECK_EQ(first_write_done(DRAM_DRAIN_FULL_OR_IDLE, 2), (uint64_t)t->tRC + wr);
}

/* ---- DRAMSim3 .ini ---------------------------------------------------------- */

#include "dram/dram_ini.h"

static const char ini_gddr[] = "; a small GDDR5-like part (test values)\n"
			       "[dram_structure]\nprotocol = GDDR5\nbankgroups = 4\nbanks_per_group = 4\n"
			       "rows = 4096\ncolumns = 64\ndevice_width = 32\nBL = 8\nbankgroup_enable = false\n"
			       "[timing]\ntCK = 0.5\nCL = 20\nCWL = 6\ntRCDRD = 20\ntRCDWR = 16\ntRP = 20\ntRAS = 45\n"
			       "tRRD_S = 8\ntRRD_L = 9\ntFAW = 32\nt32AW = 300\ntPPD = 3\ntWR = 20\ntRTRS = 1 ; bus\n"
			       "tXS = 90\n"
			       "[system]\nchannel_size = 512\nchannels = 2\nbus_width = 64\naddress_mapping = rochrababgco\n"
			       "trans_queue_size = 16\n[power]\nVDD = 1.5\n";

TEST(dram_ini_maps_dramsim3_keys)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	struct strbuf notes;
	sb_init(&notes);
	char *err = NULL;
	REQUIRE(dram_ini_apply(&c, ini_gddr, sizeof ini_gddr - 1, "t.ini", &notes, &err) == 0);
	const struct dram_cfg *d = &c.dram;
	CHECK_EQ(d->channels, 2);
	CHECK_EQ(d->banks, 16);
	CHECK_EQ(d->bank_groups, 1);            /* bankgroup_enable = false */
	CHECK_EQ(d->columns, 64 * 8);           /* GDDR: columns x BL */
	CHECK_EQ(d->bus_bytes, 8);
	CHECK_EQ(d->data_rate, 4);              /* GDDR5: BL / 4 cycles per burst */
	CHECK_EQ(d->tck_ps, 500);
	/* rank: 4096 rows x 2 KB pages x 16 banks x 2 devices = 256 MB; 512 MB channel */
	CHECK_EQ(d->ranks, 2);
	CHECK_EQ(d->timing.tRC, 45 + 20);       /* DRAMSim3: tRAS + tRP */
	CHECK_EQ(d->timing.tRCD, 20);
	CHECK_EQ(d->timing.tRCDWR, 16);
	CHECK_EQ(d->timing.tRTW, 20 + 2 - 6 + 1); /* CL + burst cycles - CWL + tRTRS */
	CHECK_EQ(d->timing.tRRD_L, 8);          /* no bank groups: the _S value */
	CHECK_EQ(d->timing.t32AW, 300);
	CHECK_EQ(d->timing.tPPD, 3);
	CHECK_EQ(d->timing.tRTP, 5);            /* absent: DRAMSim3's default */
	CHECK_EQ(d->read_queue, 16);
	CHECK_EQ(d->row_hit_cap, 4);
	CHECK_EQ(d->write_drain, DRAM_DRAIN_FULL_OR_IDLE);
	CHECK_EQ(d->trace_cycles, DRAM_TRACE_DRAM);
	CHECK_STR(d->mapping, "row:ch:rank:bank:col"); /* co lowest: one piece with the burst bits */
	c.l2.line = c.l1.line = 64; /* one DRAMSim3 request (bus_width / 8 x BL), as trace mode sets it */
	CHECK(cfg_validate(&c, &err) == 0);
	if (err)
		printf("    %s\n", err);
	CHECK_CONTAINS(notes.s, "[timing] tXS");
	CHECK_CONTAINS(notes.s, "[power] VDD");
	CHECK(!strstr(notes.s, "tRCDRD"));
	sb_fini(&notes);
	free(err);
}

TEST(dram_ini_protocol_rules_and_errors)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	static const char ddr4[] = "[dram_structure]\nprotocol = DDR4\n[timing]\nAL = 2\nCL = 16\ntRCD = 16\nt32AW = 300\ntPPD = 4\n";
	REQUIRE(dram_ini_apply(&c, ddr4, sizeof ddr4 - 1, "d.ini", NULL, &err) == 0);
	CHECK_EQ(c.dram.timing.t32AW, 0); /* GDDR only */
	CHECK_EQ(c.dram.timing.tPPD, 0);  /* GDDR and LPDDR4 only */
	CHECK_EQ(c.dram.timing.tCL, 18);  /* AL + CL */
	CHECK_EQ(c.dram.timing.tRCD, 14); /* tRCD - AL: the read is posted */
	CHECK_EQ(c.dram.timing.tRCDWR, 0);
	/* co not lowest: the burst's column bits stay below every field */
	static const char mid[] = "[system]\naddress_mapping = rocochrabgba\nbus_width = 64\n";
	REQUIRE(dram_ini_apply(&c, mid, sizeof mid - 1, "m.ini", NULL, &err) == 0);
	CHECK_STR(c.dram.mapping, "row:col[7]:bank[1]:bank[1]:col[3]"); /* one rank: no rank bits */
	static const char bad1[] = "[timing]\nCL = fast\n";
	CHECK(dram_ini_apply(&c, bad1, sizeof bad1 - 1, "b.ini", NULL, &err) < 0);
	CHECK_CONTAINS(err, "b.ini:2: [timing] CL: expected an integer");
	free(err);
	err = NULL;
	static const char bad2[] = "[system]\naddress_mapping = rochrababg\n";
	CHECK(dram_ini_apply(&c, bad2, sizeof bad2 - 1, "b.ini", NULL, &err) < 0);
	CHECK_CONTAINS(err, "b.ini:2: [system] address_mapping");
	free(err);
	err = NULL;
	static const char bad3[] = "[dram_structure]\nprotocol = HMC\n";
	CHECK(dram_ini_apply(&c, bad3, sizeof bad3 - 1, "b.ini", NULL, &err) < 0);
	CHECK_CONTAINS(err, "b.ini:2: [dram_structure] protocol");
	free(err);
	err = NULL;
	static const char bad4[] = "[timing]\ntRAS = 5\n"; /* tRAS < tRCD: the usual rule, naming the key */
	CHECK(dram_ini_apply(&c, bad4, sizeof bad4 - 1, "b.ini", NULL, &err) == 0);
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK_CONTAINS(err, "dram.timing.tRAS");
	free(err);
	err = NULL;
	static const char bad5[] = "tCK = 1\n";
	CHECK(dram_ini_apply(&c, bad5, sizeof bad5 - 1, "b.ini", NULL, &err) < 0);
	CHECK_CONTAINS(err, "b.ini:1: key 'tCK' before any [section]");
	free(err);
}

/* ---- per_bank queue model ----------------------------------------------------- */

/* A request reaches its bank's command queue in the DRAM cycle after its
 * arrival (after that cycle's command) and can get a command from the next
 * one: DRAMSim3's AddTransaction / ScheduleTransaction / GetCommandToIssue. */
TEST(dram_per_bank_pipeline)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.queue_model = DRAM_QUEUE_PER_BANK;
	REQUIRE(dh_init(&h));
	const struct dram_timing *t = T(&h);
	dram_enqueue(h.d, dh_addr(&h, 0, 3, 7, 0), false, 0);
	dh_run(&h, 0, false);
	CHECK_EQ(h.done_at[0], 2 + (uint64_t)(t->tRCD + t->tCL) + TBL(&h));
	dh_fini(&h);
}

/* The transaction-queue slot frees when the request moves on, not when its
 * data returns: a read queue of 2 takes a third read two cycles later. */
TEST(dram_per_bank_slot_frees_on_move)
{
	for (int pb = 0; pb < 2; pb++) {
		struct dh h;
		dh_cfg(&h.cfg);
		h.cfg.dram.queue_model = pb ? DRAM_QUEUE_PER_BANK : DRAM_QUEUE_CHANNEL;
		h.cfg.dram.read_queue = 2;
		REQUIRE(dh_init(&h));
		uint64_t a0 = dh_addr(&h, 0, 0, 1, 0), a1 = dh_addr(&h, 0, 1, 1, 0);
		dram_enqueue(h.d, a0, false, 0);
		dram_enqueue(h.d, a1, false, 1);
		CHECK(!dram_can_accept(h.d, a0, false));
		dh_run(&h, 3, false); /* moves at cycles 1 and 2 */
		CHECK_EQ(dram_can_accept(h.d, a0, false), pb == 1);
		dh_fini(&h);
	}
}

/* The command-queue depth bounds what FR-FCFS sees: two interleaved streams
 * to one bank with 2-deep command queues serve fewer hits per activation
 * than with 16-deep ones, and the row-hit cap (4) still bounds the run. */
static uint64_t per_bank_acts(int cmdq, bool skip, uint64_t *end)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.queue_model = DRAM_QUEUE_PER_BANK;
	h.cfg.dram.cmd_queue = cmdq;
	h.cfg.dram.row_hit_cap = 4;
	if (!dh_init(&h))
		return 0;
	enum { N = 64 };
	struct dh_req r[2 * N];
	for (unsigned i = 0; i < N; i++) {
		r[2 * i] = (struct dh_req){dh_addr(&h, 0, 0, 1, (4 * i) % 128), false};
		r[2 * i + 1] = (struct dh_req){dh_addr(&h, 0, 0, 2, (4 * i) % 128), i % 3 == 0};
	}
	dh_feed(&h, r, 2 * N, skip);
	uint64_t a = dh_stat(&h, "dram.activates");
	*end = h.now;
	dh_fini(&h);
	return a;
}

TEST(dram_per_bank_cmd_queue_depth)
{
	uint64_t e2, e16, e2s;
	uint64_t a2 = per_bank_acts(2, false, &e2), a16 = per_bank_acts(16, false, &e16);
	CHECK(a2 > a16);
	CHECK(e2 > e16);
	CHECK(a16 >= 2 * 64 / 16); /* at least one ACT per 16 requests: no more fit a queue */
	/* skipping to dram_next_event is exact under per_bank too */
	CHECK_EQ(per_bank_acts(2, true, &e2s), a2);
	CHECK_EQ(e2s, e2);
}

/* The full-system model keeps distinct lines apart while the workload spans
 * at most the capacity (the map takes addresses modulo it). */
TEST(dram_check_span_against_capacity)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	uint64_t cap = (uint64_t)c.dram.channels * (uint64_t)c.dram.ranks * (uint64_t)c.dram.banks *
		       (uint64_t)c.dram.rows * (uint64_t)c.dram.columns * (uint64_t)c.dram.bus_bytes;
	CHECK_EQ(dram_check_span(&c, "w", 0x10000000, 0x10000000 + cap, &err), 0);
	CHECK_EQ(dram_check_span(&c, "w", 0x10000000, 0x10000000 + cap + 64, &err), -1);
	CHECK_CONTAINS(err, "w: addresses 0x10000000..");
	CHECK_CONTAINS(err, "more than the DRAM capacity");
	free(err);
}

/* A refresh that fell due while the channel idled is replayed as it would
 * have issued: its precharges one command slot and tPPD apart (DRAMSim3
 * precharges the open banks of a rank 5 cycles apart on GDDR5). */
TEST(dram_idle_refresh_replays_tppd)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.refresh = DRAM_REFRESH_ALL_BANK;
	T(&h)->tREFI = 100;
	T(&h)->tRFC = 20;
	T(&h)->tPPD = 5;
	REQUIRE(dh_init(&h));
	const struct dram_timing *t = T(&h);
	for (unsigned b = 0; b < 4; b++)
		dram_enqueue(h.d, dh_addr(&h, 0, b, 1, 0), false, b);
	dh_run(&h, 0, true); /* four rows open, the channel idles before cycle 100 */
	REQUIRE(h.now < (uint64_t)t->tREFI);
	h.now = 120;
	dram_enqueue(h.d, dh_addr(&h, 0, 4, 1, 0), false, 4);
	dh_run(&h, 0, true);
	uint64_t last_pre = (uint64_t)t->tREFI + 3 * (uint64_t)t->tPPD;
	uint64_t act = last_pre + (uint64_t)(t->tRP + t->tRFC);
	CHECK_EQ(h.done_at[4], act + (uint64_t)(t->tRCD + t->tCL) + TBL(&h));
	dh_fini(&h);
}

/* per_bank + full_or_idle: more than write_low writes start a drain only
 * while every command queue is empty (DRAMSim3's QueueEmpty), not merely
 * while no read waits. */
TEST(dram_per_bank_drain_waits_for_empty_command_queues)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.queue_model = DRAM_QUEUE_PER_BANK;
	h.cfg.dram.write_drain = DRAM_DRAIN_FULL_OR_IDLE;
	h.cfg.dram.write_queue = 8;
	h.cfg.dram.write_high = 8;
	h.cfg.dram.write_low = 2;
	REQUIRE(dh_init(&h));
	const struct dram_timing *t = T(&h);
	for (unsigned i = 0; i < 3; i++) /* a drain of 3 moves them by cycle 3 */
		dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 4 * i), true, i);
	dh_run(&h, 4, false);
	for (unsigned i = 0; i < 3; i++) /* 3 > write_low, no read: but bank 0's queue is busy */
		dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 4 * i), true, 3 + i);
	dh_run(&h, 0, false);
	uint64_t tail = (uint64_t)t->tCWL + TBL(&h);
	uint64_t last_wr0 = h.done_at[2] - tail; /* bank 0's command queue empties here */
	/* then: mode switch and move at +1, ACT at +2, WR tRCD later */
	CHECK_EQ(h.done_at[3], last_wr0 + 2 + (uint64_t)t->tRCD + tail);
	dh_fini(&h);
}

TEST(dram_per_bank_queue_bound_is_a_config_error)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	c.dram.queue_model = DRAM_QUEUE_PER_BANK;
	c.dram.cmd_queue = 256;
	c.dram.banks = 64; /* 16384 entries: the most a channel may hold */
	CHECK(cfg_validate(&c, &err) == 0 || !strstr(err, "dram.cmd_queue"));
	free(err);
	err = NULL;
	c.dram.ranks = 2;
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK_CONTAINS(err, "dram.cmd_queue: per_bank keeps cmd_queue x banks x ranks <= 16384");
	free(err);
}
