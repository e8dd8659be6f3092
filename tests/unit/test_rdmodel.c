/*
 * test_rdmodel.c: the analytical model against the note's test vectors:
 * TV2 (round robin, no latency), TV3 (fixed latency 2, rule A), TV4 and
 * TV4-clip (hit 0 / miss 2), TV5 (1 MSHR, cancel, rule B) and TV5-A, TV6
 * (Fermi set hash), TV7 (associativity probe, every row of the note's
 * table), TV10 (warp queue with delays), plus the ablation sums
 * and a built-in kernel run.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "reuse/rdmodel.h"
#include "sim/util.h"

/* TV2-TV5 kernel: thread t loads x[2t], then x[2t+1]; 4 elements per line. */
static struct rdm_trace *toy(const int *tids, int n)
{
	struct rdm_trace *t = rdm_trace_new();
	for (int i = 0; i < n; i++) {
		rdm_trace_warp(t, 0);
		for (int k = 0; k < 2; k++) {
			rdm_trace_inst(t);
			rdm_trace_line(t, (uint64_t)(2 * tids[i] + k) / 4);
		}
	}
	return t;
}

static void toy_cfg(struct rdm_cfg *c, uint32_t hit, uint32_t miss, bool clip, bool rule_b, int policy)
{
	*c = (struct rdm_cfg){.line = 4, .sets = 1, .ways = 2, .set_fn = RDM_MODULO, .lat_hit = hit,
			      .lat_min = miss, .clip = clip, .rule_b = rule_b, .policy = policy, .warp_size = 1,
			      .max_blocks = 8, .max_threads = 1536, .thread_cap = 8192, .seed = 1};
}

static void expect(const struct rdm_result *r, int n, const int *d, const int *cls, const int *eff)
{
	CHECK_EQ(r->ntrace, n);
	for (int i = 0; i < n && i < (int)r->ntrace; i++) {
		CHECK_EQ(r->d[i], d[i]);
		if (cls)
			CHECK_EQ(r->cls_of[i], cls[i]);
		if (eff)
			CHECK_EQ(r->effect[i], eff[i]);
	}
}

enum { H = RDM_HIT, C = RDM_COMPULSORY, L = RDM_LATENCY };
static const int four[4] = {0, 1, 2, 3};

TEST(rdmodel_tv2_round_robin_no_latency)
{
	struct rdm_cfg c;
	toy_cfg(&c, 0, 0, false, false, RDM_ROUND_ROBIN);
	struct rdm_trace *t = toy(four, 4);
	struct rdm_result *r = xmalloc(sizeof(*r));
	rdm_run(&c, t, r);
	static const int d[8] = {-1, 0, -1, 0, 1, 0, 1, 0};
	expect(r, 8, d, NULL, NULL);
	CHECK_EQ(r->cls[H], 6); /* [derived] 2 misses, 6 hits */
	free(r);
	rdm_trace_free(t);
}

TEST(rdmodel_tv3_fixed_latency_rule_a)
{
	struct rdm_cfg c;
	toy_cfg(&c, 2, 2, false, false, RDM_ROUND_ROBIN);
	struct rdm_trace *t = toy(four, 4);
	struct rdm_result *r = xmalloc(sizeof(*r));
	rdm_run(&c, t, r);
	static const int d[8] = {-1, -1, -1, -1, 0, 1, 0, 1};
	static const int cls[8] = {C, L, C, L, H, H, H, H};
	static const int eff[8] = {2, 3, 4, 5, 6, 7, 8, 9};
	expect(r, 8, d, cls, eff);
	/* rule B does not match the paper's table: 1, 1, 1, 1 */
	c.rule_b = true;
	rdm_run(&c, t, r);
	CHECK_EQ(r->d[4], 1);
	CHECK_EQ(r->d[6], 1);
	free(r);
	rdm_trace_free(t);
}

TEST(rdmodel_tv4_hit0_miss2_with_and_without_clipping)
{
	struct rdm_cfg c;
	toy_cfg(&c, 0, 2, false, false, RDM_ROUND_ROBIN);
	struct rdm_trace *t = toy(four, 4);
	struct rdm_result *r = xmalloc(sizeof(*r));
	rdm_run(&c, t, r);
	static const int d[8] = {-1, -1, -1, -1, 0, 0, 1, 0};
	static const int cls[8] = {C, L, C, L, H, H, H, H};
	static const int eff[8] = {2, 3, 4, 5, 4, 5, 6, 7};
	expect(r, 8, d, cls, eff);
	CHECK(rdm_miss_rate(r) == 2.0 / 8.0);
	c.clip = true; /* TV4-clip */
	rdm_run(&c, t, r);
	static const int effc[8] = {2, 2, 4, 4, 4, 5, 6, 7};
	expect(r, 8, d, cls, effc);
	free(r);
	rdm_trace_free(t);
}

TEST(rdmodel_tv5_one_mshr_cancel_rule_b)
{
	static const int tids[2] = {0, 2};
	struct rdm_cfg c;
	toy_cfg(&c, 0, 2, false, true, RDM_ROUND_ROBIN);
	c.mshr = 1;
	struct rdm_trace *t = toy(tids, 2);
	struct rdm_result *r = xmalloc(sizeof(*r));
	rdm_run(&c, t, r);
	/* issued t0 (line 0), t1 cancelled, t2 hit, t3 miss, t4 merge */
	static const int d[4] = {-1, 0, -1, -1};
	static const int cls[4] = {C, H, C, L};
	static const int eff[4] = {2, 2, 5, 6};
	expect(r, 4, d, cls, eff);
	CHECK_EQ(r->cancels, 1);
	CHECK_EQ(r->t_issue[1], 2);
	CHECK_EQ(r->t_issue[3], 4);
	/* TV5-A: rule A makes t2 a latency miss merged into line 0's entry (effect 4, 2 clipped) */
	c.rule_b = false;
	rdm_run(&c, t, r);
	CHECK_EQ(r->d[1], -1);
	CHECK_EQ(r->cls_of[1], L);
	CHECK_EQ(r->effect[1], 4);
	c.clip = true;
	rdm_run(&c, t, r);
	CHECK_EQ(r->effect[1], 2);
	free(r);
	rdm_trace_free(t);
}

TEST(rdmodel_tv6_fermi_hash)
{
	static const struct {
		uint64_t addr;
		uint32_t s16, s48;
	} v[] = {
		{0x0, 0, 0},        {0x80, 1, 1},      {0x100, 2, 2},      {0x1000, 0, 32},      {0x1080, 1, 33},
		{0x2000, 1, 1},     {0x2080, 0, 0},    {0x4000, 2, 2},     {0x8000, 4, 4},       {0x10000, 0, 0},
		{0x20000, 8, 8},    {0x80000, 16, 16}, {0xABC80, 4, 36},   {0x12345680, 15, 47},
	};
	struct rdm_cfg c16, c48;
	rdm_cfg_fermi(&c16, false);
	rdm_cfg_fermi(&c48, true);
	for (size_t i = 0; i < ARRAY_LEN(v); i++) {
		CHECK_EQ(rdm_set_of(&c16, v[i].addr / 128), v[i].s16);
		CHECK_EQ(rdm_set_of(&c48, v[i].addr / 128), v[i].s48);
	}
	/* a contiguous 16 KB fill: 4 lines per set (16 KB), 2 per set (48 KB) */
	uint32_t n16[32] = {0}, n48[64] = {0};
	for (uint64_t l = 0; l < 128; l++) {
		n16[rdm_set_of(&c16, l)]++;
		n48[rdm_set_of(&c48, l)]++;
	}
	for (int s = 0; s < 32; s++)
		CHECK_EQ(n16[s], 4);
	for (int s = 0; s < 64; s++)
		CHECK_EQ(n48[s], 2);
}

TEST(rdmodel_tv10_warp_queue_delays)
{
	struct rdm_cfg c;
	toy_cfg(&c, 0, 2, true, false, RDM_WARP_QUEUE);
	struct rdm_trace *t = toy(four, 4);
	struct rdm_result *r = xmalloc(sizeof(*r));
	rdm_run(&c, t, r);
	static const int d[8] = {-1, -1, -1, -1, 0, 0, 1, 0};
	static const int cls[8] = {C, L, C, L, H, H, H, H};
	static const int eff[8] = {2, 2, 4, 4, 4, 5, 6, 7};
	expect(r, 8, d, cls, eff);
	for (int i = 0; i < 8; i++)
		CHECK_EQ(r->t_issue[i], i);
	free(r);
	rdm_trace_free(t);
}

/* [derived] Latencies far beyond the model's first timing-wheel span, MSHR
 * refusals over a long wait, and idle steps. Hit 999, miss 1000; w0 loads
 * A, A, C, w1 loads B, D. One MSHR: w0 misses A at 0 (ready 1001); w1 is
 * refused at 1..1000 (A's entry frees at the end of 1000); at 1001 w1 (back
 * in the queue first) misses B (ready 2002); at 1002 w0 hits A (a hit does
 * not delay the warp); w0 is refused at 1003..2001; at 2002 w0 misses C;
 * w1 is refused at 2003..3002 and misses D at 3003. Unlimited MSHRs: A at
 * 0, B at 1, nothing to issue at 2..1000 (999 idle steps), A hits at 1001,
 * C at 1002, D at 1003. */
TEST(rdmodel_long_latency_cancels_idle)
{
	struct rdm_cfg c;
	toy_cfg(&c, 999, 1000, false, false, RDM_WARP_QUEUE);
	c.mshr = 1;
	struct rdm_trace *t = rdm_trace_new();
	static const uint64_t w0[3] = {0, 0, 2}, w1[2] = {1, 3}; /* lines A=0 B=1 C=2 D=3 */
	rdm_trace_warp(t, 0);
	for (int i = 0; i < 3; i++) {
		rdm_trace_inst(t);
		rdm_trace_line(t, w0[i]);
	}
	rdm_trace_warp(t, 0);
	for (int i = 0; i < 2; i++) {
		rdm_trace_inst(t);
		rdm_trace_line(t, w1[i]);
	}
	struct rdm_result *r = xmalloc(sizeof(*r));
	rdm_run(&c, t, r);
	static const int d[5] = {-1, -1, 0, -1, -1};
	static const int cls[5] = {C, C, H, C, C};
	static const int eff[5] = {1000, 2001, 2001, 3002, 4003};
	static const int issue[5] = {0, 1001, 1002, 2002, 3003};
	expect(r, 5, d, cls, eff);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(r->t_issue[i], issue[i]);
	CHECK_EQ(r->cancels, 1000 + 999 + 1000);
	CHECK_EQ(r->idle_steps, 0);
	CHECK_EQ(r->steps, 3004);
	c.mshr = 0;
	rdm_run(&c, t, r);
	static const int eff0[5] = {1000, 1001, 2000, 2002, 2003};
	static const int issue0[5] = {0, 1, 1001, 1002, 1003};
	expect(r, 5, d, cls, eff0);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(r->t_issue[i], issue0[i]);
	CHECK_EQ(r->cancels, 0);
	CHECK_EQ(r->idle_steps, 999);
	CHECK_EQ(r->steps, 1004);
	free(r);
	rdm_trace_free(t);
}

/* TV7 [derived]: the associativity probe: a 16 KB fill, one line in set 2, the
 * fill again: exactly the 4 lines of that set miss in the second sweep (no latency). */
/* TV7 (Figure 5, 16 KB, LRU): fill lines 0..127 (stage 1, warps 0..3 per
 * iteration touch lines 4i..4i+3 in turn), thread 0 loads int mem[sv]
 * (stage 2), sweep again (stage 3). The stage-3 misses are the fill's lines
 * in sv's set: every row of the note's table, plus no stage-2 load and an
 * sv inside the fill (0 misses). */
static void tv7_row(long sv, int set, const uint64_t *lines, int nmiss)
{
	struct rdm_cfg c;
	rdm_cfg_fermi(&c, false);
	c.lat_min = c.lat_sigma = 0;
	c.mshr = 0;
	c.mshr_per_warp = 0;
	struct rdm_trace *t = rdm_trace_new();
	rdm_trace_warp(t, 0);
	uint64_t svline = sv >= 0 ? (uint64_t)sv * 4 / 128 : 0;
	bool outside = sv >= 0 && svline >= 128;
	if (sv >= 0)
		CHECK_EQ(rdm_set_of(&c, svline), (uint32_t)set);
	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t l = 0; l < 128; l++) {
			rdm_trace_inst(t);
			rdm_trace_line(t, l);
		}
		if (pass == 0 && sv >= 0) {
			rdm_trace_inst(t);
			rdm_trace_line(t, svline);
		}
	}
	struct rdm_result *r = xmalloc(sizeof(*r));
	rdm_run(&c, t, r);
	uint32_t first3 = sv >= 0 ? 129 : 128; /* first stage-3 access */
	CHECK_EQ(r->accesses, first3 + 128);
	CHECK_EQ(r->cls[RDM_COMPULSORY], outside ? 129u : 128u);
	CHECK_EQ(r->accesses - r->cls[RDM_HIT] - r->cls[RDM_COMPULSORY], (uint64_t)nmiss);
	/* 129 distinct lines: a 128-line FA LRU cache would miss all of the
	 * second sweep, so by the shadow-stack rule these are capacity misses */
	CHECK_EQ(r->cls[RDM_CAPACITY], (uint64_t)nmiss);
	int found = 0, missed = 0;
	for (uint32_t i = first3; i < r->ntrace; i++)
		if (r->cls_of[i] != RDM_HIT) {
			missed++;
			for (int k = 0; k < nmiss; k++)
				found += (i - first3) == lines[k];
			CHECK_EQ(rdm_set_of(&c, i - first3), (uint32_t)set);
		}
	CHECK_EQ(missed, nmiss);
	CHECK_EQ(found, nmiss);
	free(r);
	rdm_trace_free(t);
}

TEST(rdmodel_tv7_associativity_probe)
{
	static const struct {
		long sv;
		int set;
		uint64_t lines[4];
	} rows[] = {
		{4096, 2, {2, 34, 67, 99}},   {4128, 3, {3, 35, 66, 98}},  {5000, 30, {30, 62, 95, 127}},
		{8192, 4, {4, 36, 69, 101}},  {65536, 0, {0, 32, 65, 97}},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		tv7_row(rows[i].sv, rows[i].set, rows[i].lines, 4);
	tv7_row(-1, 0, NULL, 0);  /* no stage-2 load */
	tv7_row(100, 3, NULL, 0); /* sv < 4096: a line of the fill (line 3, set 3) */
}

TEST(rdmodel_ablation_and_seeded_latency)
{
	struct rdm_cfg c;
	rdm_cfg_fermi(&c, false);
	struct rdm_trace *t = rdm_trace_new();
	struct rng g;
	rng_seed(&g, 5);
	for (int w = 0; w < 48; w++) {
		rdm_trace_warp(t, (uint32_t)w / 16);
		for (int i = 0; i < 20; i++) {
			rdm_trace_inst(t);
			rdm_trace_line(t, rng_below(&g, 400));
			rdm_trace_line(t, (uint64_t)w * 7 + (uint64_t)i);
		}
	}
	struct rdm_result *a = xmalloc(sizeof(*a)), *b = xmalloc(sizeof(*b));
	rdm_run(&c, t, a);
	rdm_run(&c, t, b);
	CHECK_EQ(a->accesses, 48 * 20 * 2);
	CHECK(memcmp(a, b, sizeof(*a)) == 0); /* seeded: reproducible */
	uint64_t sum = 0;
	for (int k = 0; k < RDM__CLASSES; k++)
		sum += a->cls[k];
	CHECK_EQ(sum, a->accesses);
	struct rdm_ablation ab;
	rdm_ablation(&c, t, &ab);
	CHECK_EQ(ab.accesses, a->accesses);
	CHECK(ab.compulsory > 0 && ab.compulsory <= 400 + 48 * 27);
	CHECK(ab.miss_rate > 0 && ab.miss_rate <= 1);
	free(a);
	free(b);
	rdm_trace_free(t);
}

/* --threads: the first thread_cap threads in whole blocks, at least one
 * block; 0 = every block of the workload. */
TEST(rdmodel_thread_cap_blocks)
{
	struct rdm_cfg c;
	rdm_cfg_fermi(&c, false);
	CHECK_EQ(rdm_blocks_modelled(&c, 256, 1000), 32u); /* 8192 / 256 */
	CHECK_EQ(rdm_blocks_modelled(&c, 256, 10), 10u);
	CHECK_EQ(rdm_blocks_modelled(&c, 1024, 100), 8u);
	c.thread_cap = 100;
	CHECK_EQ(rdm_blocks_modelled(&c, 256, 1000), 1u); /* never less than one block */
	c.thread_cap = 0;
	CHECK_EQ(rdm_blocks_modelled(&c, 256, 100000), 100000u);
}
