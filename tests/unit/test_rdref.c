/*
 * test_rdref.c: `--semantics reference` (engine/reuse/rdref.h) against gpustep's
 * own semantics (rdmodel.h), one hand-derived trace per difference listed
 * in rdref.h (warp retention, MSHR rule, same-step order, lane groups,
 * reporting of lines in flight, d == ways in the reference's printout),
 * and the three bugs of issue 21: the model's last histogram bin,
 * negative ablation terms, the profiler's seen record on .trc traces.
 * The bucket-for-bucket comparison with the reference implementation
 * itself is tests/e2e/cli_model_ref.sh (figures measured with it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reuse/rdref.h"
#include "reuse/reuse.h"
#include "simtest.h"
#include "test.h"
#include "reuse/trc.h"
#include "sim/util.h"

/* One 128 B line per id; warp size 32, 1 set of `ways` (modulo), hit 0,
 * miss `lat`, MSHRs `mshr` (0 = unlimited), 8 blocks / 1536 threads. */
static void cfg1(struct rdm_cfg *c, uint32_t ways, uint32_t lat, uint32_t mshr)
{
	*c = (struct rdm_cfg){.line = 128, .sets = 1, .ways = ways, .set_fn = RDM_MODULO, .mshr = mshr,
			      .lat_min = lat, .clip = true, .policy = RDM_WARP_QUEUE, .warp_size = 32,
			      .max_blocks = 8, .max_threads = 1536, .seed = 1};
}

static struct trc *parse(const char *text)
{
	char *err = NULL;
	struct trc *t = trc_parse(text, strlen(text), "t.trc", &err);
	if (!t)
		fprintf(stderr, "%s\n", err);
	free(err);
	return t;
}

/* Both semantics on the same trace text. */
static void both(const char *text, const struct rdm_cfg *c, struct rdm_result *g, struct rdm_result *r)
{
	struct trc *t = parse(text);
	REQUIRE(t != NULL);
	struct rdm_trace *gt = trc_rdm_trace(t, c);
	rdm_run(c, gt, g);
	struct rdr_input *in = rdr_input_from_trc(t, c);
	rdr_run(c, in, r);
	rdm_trace_free(gt);
	rdr_input_free(in);
	trc_free(t);
}

static struct rdm_result *res(void) { return xmalloc(sizeof(struct rdm_result)); }

/* 1. Two active sets of one warp (one block each: max_blocks 1), both load
 * line 0. The reference keeps warp 0 until its data arrived (t 0 + 100,
 * back in the pool after step 100, found done at 101), so warp 1 hits at
 * 102; gpustep retires warp 0 at its last load and warp 1 misses at step 1
 * on the line in flight. */
TEST(rdref_warp_stays_until_its_data_arrives)
{
	static const char text[] = "blocksize: 32 1 1\n0 0 0 4\n32 0 0 4\n";
	struct rdm_cfg c;
	cfg1(&c, 4, 100, 0);
	c.max_blocks = 1;
	struct rdm_result *g = res(), *r = res();
	both(text, &c, g, r);
	CHECK_EQ(r->accesses, 2);
	CHECK_EQ(r->d[1], 0);
	CHECK_EQ(r->t_issue[1], 102);
	CHECK_EQ(r->cls[RDM_HIT], 1);
	CHECK_EQ(g->accesses, 2);
	CHECK_EQ(g->cls[RDM_LATENCY], 1);
	CHECK_EQ(g->t_issue[1], 1);
	CHECK_EQ(g->hist[g->nbins + RDM_BIN_FLY], 1);
	free(g);
	free(r);
}

/* 2. One MSHR. Warp 0: lanes 0, 1 load lines 0 and 1 (both issue: only
 * lane 0 is checked, against 0 pending). Warp 1: lane 0 loads line 0,
 * already in flight. The reference has no merge exemption: warp 1 is
 * refused at steps 1 .. 100 (the count is taken before the arrivals of
 * step 100), issues at 101 and hits; gpustep merges it at step 1. */
TEST(rdref_mshr_lane0_no_merge_exemption)
{
	static const char text[] = "blocksize: 64 1 1\n0 0 0 4\n1 0 128 4\n32 0 0 4\n";
	struct rdm_cfg c;
	cfg1(&c, 4, 100, 1);
	struct rdm_result *g = res(), *r = res();
	both(text, &c, g, r);
	CHECK_EQ(r->accesses, 3);
	CHECK_EQ(r->cancels, 100);
	CHECK_EQ(r->t_issue[2], 101);
	CHECK_EQ(r->d[2], 1); /* lines 0 then 1 arrived at 100: line 1 on top */
	CHECK_EQ(r->cls_of[2], RDM_HIT);
	CHECK_EQ(g->cancels, 0);
	CHECK_EQ(g->t_issue[2], 1);
	CHECK_EQ(g->cls_of[2], RDM_LATENCY);
	free(g);
	free(r);
}

/* 3. Same step, same set: a hit and a miss's arrival. Miss latency 2,
 * three one-thread blocks. t0 w0 line Y (miss, arrives 2), t1 w1 line X
 * (arrives 3), t2 w2 line Z (arrives 4); t3 w0 hits Y while X arrives:
 * the reference applies the hit first (X ends on top), gpustep in issue
 * order (Y on top); t4 w0 loads Y again: d 1 against d 0. */
TEST(rdref_same_step_hits_before_misses)
{
	static const char text[] = "blocksize: 1 1 1\n0 0 0 4\n0 0 0 4\n0 0 0 4\n1 0 128 4\n2 0 256 4\n";
	struct rdm_cfg c;
	cfg1(&c, 4, 2, 0);
	struct rdm_result *g = res(), *r = res();
	both(text, &c, g, r);
	/* record order: Y X Z Y Y in both */
	CHECK_EQ(r->t_issue[3], 3);
	CHECK_EQ(r->t_issue[4], 4);
	CHECK_EQ(g->t_issue[3], 3);
	CHECK_EQ(g->t_issue[4], 4);
	CHECK_EQ(r->d[3], 0);
	CHECK_EQ(g->d[3], 0);
	CHECK_EQ(r->d[4], 1);
	CHECK_EQ(g->d[4], 0);
	free(g);
	free(r);
}

/* 4. 8-byte loads issue as two half-warps with the cache updated between
 * them. Load 1 (4 B): lanes 0-15 line A, 16-31 line B (stack B, A once
 * arrived). Load 2 (8 B): lanes 0-15 A, 16-31 B. Reference: A d 1, A to
 * the top, then B d 1; gpustep looks both up first: A d 1, B d 0. */
TEST(rdref_half_warps_see_each_other)
{
	struct strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "blocksize: 32 1 1\n");
	for (int l = 0; l < 32; l++)
		sb_printf(&sb, "%d 0 %d 4\n%d 0 %d 8\n", l, l < 16 ? 4 * l : 128 + 4 * l, l, l < 16 ? 8 * l : 128 + 8 * (l - 16));
	struct rdm_cfg c;
	cfg1(&c, 4, 100, 0);
	struct rdm_result *g = res(), *r = res();
	both(sb.s, &c, g, r);
	sb_fini(&sb);
	CHECK_EQ(r->accesses, 4);
	CHECK_EQ(g->accesses, 4);
	CHECK_EQ(r->d[2], 1);
	CHECK_EQ(r->d[3], 1);
	CHECK_EQ(g->d[2], 1);
	CHECK_EQ(g->d[3], 0);
	free(g);
	free(r);
}

/* 5. A miss to a line in flight: the reference files it by its old
 * distance (here inf: never arrived) and counts it as a miss; gpustep has
 * the in-flight bin. And the reference's printout counts d == ways as a
 * hit: one set of 1 way, one thread loads A, B, A (d 1 == ways: a miss in
 * the run, a hit in the printout). */
TEST(rdref_reporting_in_flight_and_d_equal_ways)
{
	static const char fly[] = "blocksize: 64 1 1\n0 0 0 4\n32 0 0 4\n";
	struct rdm_cfg c;
	cfg1(&c, 4, 100, 0);
	struct rdm_result *g = res(), *r = res();
	both(fly, &c, g, r);
	CHECK_EQ(r->hist[r->nbins + RDM_BIN_NEVER], 2);
	CHECK_EQ(r->hist[r->nbins + RDM_BIN_FLY], 0);
	CHECK_EQ(r->cls[RDM_LATENCY], 1); /* still classified, for the JSON */
	CHECK_EQ(g->hist[g->nbins + RDM_BIN_NEVER], 1);
	CHECK_EQ(g->hist[g->nbins + RDM_BIN_FLY], 1);
	CHECK_NEAR(rdm_miss_rate(g), 0.5, 1e-12); /* gpustep: latency misses left out */

	static const char aba[] = "blocksize: 1 1 1\n0 0 0 4\n0 0 128 4\n0 0 0 4\n";
	cfg1(&c, 1, 100, 0);
	struct trc *t = parse(aba);
	REQUIRE(t != NULL);
	struct rdr_input *in = rdr_input_from_trc(t, &c);
	rdr_run(&c, in, r);
	CHECK_EQ(r->d[2], 1);
	CHECK_EQ(r->cls[RDM_HIT], 0); /* the run: d >= ways misses */
	struct rdm_ablation ab;
	struct rdr_report rp;
	rdr_ablation(&c, in, &ab, &rp);
	CHECK_EQ(ab.miss[0], 3);
	CHECK_EQ(rp.misses, 2);
	CHECK_EQ(rp.hits, 1);
	CHECK_EQ(rp.accesses, 3);
	rdr_input_free(in);
	trc_free(t);
	free(g);
	free(r);
}

/* Coalescing groups follow each lane's own size; lanes 0 and 16 of an
 * 8-byte load are the first of their half-warps and both issue. */
TEST(rdref_coalescing_groups)
{
	struct strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "blocksize: 32 1 1\n");
	for (int l = 0; l < 32; l++)
		sb_printf(&sb, "%d 0 %d 8\n%d 0 %d 4\n%d 0 %d 16\n", l, 4 * l, l, 4 * l, l, 4 * l);
	struct trc *t = parse(sb.s);
	sb_fini(&sb);
	REQUIRE(t != NULL);
	struct rdm_cfg c;
	cfg1(&c, 4, 100, 0);
	struct rdr_input *in = rdr_input_from_trc(t, &c);
	struct rdm_result *r = res();
	rdr_run(&c, in, r);
	CHECK_EQ(r->accesses, 2 + 1 + 4); /* all 32 lanes in line 0: one request per group */
	CHECK_EQ(rdr_input_threads(in), 32);
	rdr_input_free(in);
	trc_free(t);
	free(r);
}

/* Bug 1: lines that fall out of the model's D-deep stack were counted as
 * never seen. One set of 1 way (4 bins, a stack 4 deep): one thread loads
 * lines 0 .. 5, then 0 again: d = 5 >= 4. */
TEST(rdmodel_last_bin_is_filled)
{
	static const char text[] = "blocksize: 1 1 1\n0 0 0 4\n0 0 128 4\n0 0 256 4\n0 0 384 4\n0 0 512 4\n"
				   "0 0 640 4\n0 0 0 4\n";
	struct rdm_cfg c;
	cfg1(&c, 1, 100, 0);
	struct rdm_result *g = res(), *r = res();
	both(text, &c, g, r);
	CHECK_EQ(g->nbins, 4);
	CHECK_EQ(g->hist[g->nbins + RDM_BIN_OVER], 1);
	CHECK_EQ(g->hist[g->nbins + RDM_BIN_NEVER], 6);
	CHECK_EQ(g->hist[g->nbins + RDM_BIN_NEVER], g->cls[RDM_COMPULSORY]);
	CHECK_EQ(r->hist[r->nbins + RDM_BIN_OVER], 1);
	CHECK_EQ(r->hist[r->nbins + RDM_BIN_NEVER], 6);
	free(g);
	free(r);
}

/* gather.trc of tools/rd_traces.sh, generated here with an exact integer
 * LCG instead of awk's: y[t] = x[idx[t]] twice over 256 KB, 6144 threads. */
static char *gather_text(void)
{
	struct strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "blocksize: 192 1 1\n");
	uint64_t s = 12345;
	for (int t = 0; t < 6144; t++) {
		s = (s * 1103515245u + 12345u) % 2147483648u;
		uint64_t i = (s / 65536) % 65536;
		sb_printf(&sb, "%d 0 %d 4\n%d 0 %llu 4\n%d 0 %llu 4\n%d 1 %d 4\n", t, 2097152 + 4 * t, t,
			  (unsigned long long)(1048576 + 4 * i), t, (unsigned long long)(1048576 + 4 * i), t,
			  3145728 + 4 * t);
	}
	return sb.s;
}

/* Bug 1 on a workload: never seen == compulsory exactly, the last bin is
 * used, every access in exactly one bin. */
TEST(rdmodel_never_seen_is_compulsory_on_gather)
{
	char *text = gather_text();
	struct trc *t = parse(text);
	free(text);
	REQUIRE(t != NULL);
	struct rdm_cfg c;
	rdm_cfg_fermi(&c, false);
	c.lat_sigma = 0;
	c.mshr_per_warp = 0;
	c.thread_cap = 0;
	struct rdm_trace *gt = trc_rdm_trace(t, &c);
	struct rdm_result *g = res();
	rdm_run(&c, gt, g);
	CHECK_EQ(g->hist[g->nbins + RDM_BIN_NEVER], g->cls[RDM_COMPULSORY]);
	CHECK(g->hist[g->nbins + RDM_BIN_OVER] > 0);
	uint64_t sum = 0;
	for (uint32_t b = 0; b < g->nbins + RDM__BIN_EXTRA; b++)
		sum += g->hist[b];
	CHECK_EQ(sum, g->accesses);
	/* Bug 2: the ablation's terms are never negative and sum to the misses */
	struct rdm_ablation ab;
	rdm_ablation(&c, gt, &ab);
	CHECK(ab.raw_mshr < 0); /* this workload: unlimited MSHRs miss more */
	CHECK(ab.mshr >= 0 && ab.capacity >= 0 && ab.associativity >= 0 && ab.latency >= 0 && ab.compulsory >= 0);
	CHECK_EQ(ab.compulsory + ab.capacity + ab.associativity + ab.latency + ab.mshr, (int64_t)ab.miss[0]);
	CHECK(ab.adjusted & RDM_T_MSHR);
	free(g);
	rdm_trace_free(gt);
	trc_free(t);
}

/* Bug 2, the arithmetic: clamped terms, reduced in the order mshr,
 * latency, associativity when their sum passes the misses. */
TEST(rdmodel_breakdown_clamps_and_sums)
{
	struct rdm_ablation o = {.miss = {100, 90, 0, 130}, .inf = {70, 0, 20, 0}};
	rdm_breakdown(&o);
	CHECK_EQ(o.compulsory, 20);
	CHECK_EQ(o.raw_latency, 50);
	CHECK_EQ(o.raw_associativity, 10);
	CHECK_EQ(o.raw_mshr, -30);
	CHECK_EQ(o.mshr, 0);
	CHECK_EQ(o.capacity, 20);
	CHECK_EQ(o.compulsory + o.capacity + o.associativity + o.latency + o.mshr, 100);
	CHECK_EQ(o.adjusted, RDM_T_MSHR);
	struct rdm_ablation p = {.miss = {100, 40, 0, 80}, .inf = {90, 0, 10, 0}}; /* 10 + 80 + 60 + 20 = 170 */
	rdm_breakdown(&p);
	CHECK_EQ(p.raw_capacity, -70);
	CHECK_EQ(p.capacity, 0);
	CHECK_EQ(p.mshr, 0);    /* 20 taken */
	CHECK_EQ(p.latency, 30); /* 50 taken */
	CHECK_EQ(p.associativity, 60);
	CHECK_EQ(p.compulsory + p.capacity + p.associativity + p.latency + p.mshr, 100);
	CHECK_EQ(p.adjusted, (unsigned)(RDM_T_MSHR | RDM_T_LATENCY | RDM_T_CAPACITY));
	/* the reference's own printout moves the term the other way */
	struct rdr_report rp;
	uint64_t gt[4] = {100, 40, 0, 80}, inf[4] = {90, 0, 10, 0};
	rdr_ref_report(gt, inf, 0, &rp);
	CHECK_EQ(rp.capacity, 0);
	CHECK_EQ(rp.mshr, 20);         /* not larger than the 70 missing */
	CHECK_EQ(rp.latency, 80 + 70); /* so latency grows by them */
}

/* Bug 3: the profiler on a .trc trace: every thread loads its own line
 * twice; the first lookup of each line is compulsory, exactly. Lines
 * 128 B apart (a range: bits over it) and 2^28 B apart (a sparse range:
 * the sorted list). */
static void profile_first_touches(uint64_t stride)
{
	struct strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "blocksize: 256 1 1\n");
	for (int t = 0; t < 768; t++)
		sb_printf(&sb, "%d 0 %llu 4\n%d 0 %llu 4\n", t, (unsigned long long)(4096 + t * stride), t,
			  (unsigned long long)(4096 + t * stride));
	struct trc *t = parse(sb.s);
	sb_fini(&sb);
	REQUIRE(t != NULL);
	struct sim_cfg cfg;
	tk_base_cfg(&cfg);
	struct workload wl = {.name = "first", .ops = &trc_wl_ops, .impl = t};
	char *err = NULL;
	struct sim *s = sim_new(&cfg, &wl, &err);
	REQUIRE(s != NULL);
	sim_step(s, UINT64_MAX);
	const struct stats *st = sim_stats_c(s);
#define V(n) stats_value(st, (uint32_t)stats_find(st, n))
	CHECK_EQ(V("l1.miss.compulsory"), 768);
	CHECK_EQ(V("l2.miss.compulsory"), 768);
	CHECK_EQ(V("l1.accesses"), 1536);
#undef V
	for (int kind = 0; kind < 2; kind++) /* no lookup fell back to a shared (hashed) bit */
		for (int u = 0; reuse_cache(s, kind, u); u++)
			CHECK_EQ(reuse_cache(s, kind, u)->approx, 0);
	sim_free(s);
	trc_free(t);
}

TEST(reuse_trc_compulsory_exact)
{
	profile_first_touches(128);
	profile_first_touches(1ull << 28);
}
