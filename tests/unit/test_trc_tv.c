/*
 * test_trc_tv.c: the note's micro-benchmark vectors run through `.trc` text
 * and the model (engine/reuse/trc.h, engine/reuse/rdmodel.h), Fermi 16 KB L1.
 *
 *   TV8  stride check (Figure 7 style): exact, every cell of the table.
 *   TV9  MSHR micro-benchmark (Figure 8): NOT reproducible by the model. The
 *        warp queue delays a warp after every instruction that misses until
 *        its data has arrived (t + max latency + 1), so a warp never has more
 *        than one instruction's lines in flight: with one line per load the
 *        6-per-warp cap never binds, and with at most 64 warps the 64-entry
 *        table never fills. The latency steps at the 7th, 13th, ... load that
 *        the paper measured need a warp issuing loads back to back; the test
 *        pins down the model's behaviour instead (caps 6 and 1 give identical
 *        results, no cancels).
 *   TV11 MSHR relevance (Figure 3), qualitative: against fair round robin
 *        (no latency, unlimited MSHRs) the full model's miss rate is lower
 *        for 256 and 512 threads, as the paper says. It is also lower at 128
 *        threads, where the paper has it higher: there round robin keeps one
 *        line per thread only if the 128 lines spread over the sets, but
 *        lines 4 KB apart share few sets under the Fermi hash, so round robin
 *        misses on every access (1.0). 64 threads: equal (1/32, compulsory only).
 *        1024 threads is left out for time (0.18 vs 1.0, measured).
 */
#include <stdlib.h>
#include <string.h>

#include "reuse/rdmodel.h"
#include "test.h"
#include "reuse/trc.h"
#include "sim/util.h"

static double model_miss_rate(const struct strbuf *sb, const struct rdm_cfg *c, uint64_t *cancels)
{
	char *err = NULL;
	struct trc *t = trc_parse(sb->s, sb->len, "tv.trc", &err);
	CHECK(t != NULL);
	if (!t) {
		free(err);
		return -1;
	}
	struct rdm_trace *r = trc_rdm_trace(t, c);
	struct rdm_result *res = xmalloc(sizeof *res);
	rdm_run(c, r, res);
	double mr = rdm_miss_rate(res);
	if (cancels)
		*cancels = res->cancels;
	free(res);
	rdm_trace_free(r);
	trc_free(t);
	return mr;
}

TEST(trc_tv8_stride_check_exact)
{
	/* largest n (of 4 .. 512) with a 50 % miss rate, per log2 stride 7 .. 20 */
	static const unsigned max50[14] = {128, 128, 128, 128, 128, 64, 128, 64, 32, 16, 16, 8, 8, 4};
	struct rdm_cfg c;
	rdm_cfg_fermi(&c, false);
	for (unsigned e = 7; e <= 20; e++)
		for (unsigned n = 4; n <= 512; n *= 2) {
			struct strbuf sb;
			sb_init(&sb);
			sb_printf(&sb, "blocksize: 32 1 1\n"); /* one warp; only thread 0 loads */
			for (int loop = 0; loop < 2; loop++)
				for (unsigned i = 0; i < n; i++)
					sb_printf(&sb, "0 0 %llu 4\n", (unsigned long long)i << e);
			double mr = model_miss_rate(&sb, &c, NULL);
			double want = n <= max50[e - 7] ? 0.5 : 1.0;
			if (mr != want)
				CHECK_NEAR(mr, want, 0.0); /* names the failing cell via the values */
			sb_fini(&sb);
		}
}

TEST(trc_tv9_mshr_benchmark_not_reproducible_model_behaviour)
{
	for (unsigned warps = 1; warps <= 17; warps += 4) {
		struct strbuf sb;
		sb_init(&sb);
		sb_printf(&sb, "blocksize: %u 1 1\n", warps * 32);
		for (unsigned i = 0; i < 20; i++) /* lane 0 of warp w: 4096 * (w + i * warps) */
			for (unsigned w = 0; w < warps; w++)
				sb_printf(&sb, "%u 0 %u 4\n", w * 32, 4096 * (w + i * warps));
		struct rdm_cfg c;
		rdm_cfg_fermi(&c, false);
		uint64_t cancels6, cancels1;
		double mr6 = model_miss_rate(&sb, &c, &cancels6);
		c.mshr_per_warp = 1;
		double mr1 = model_miss_rate(&sb, &c, &cancels1);
		CHECK_EQ(cancels6, 0);
		CHECK_EQ(cancels1, 0); /* one line in flight per warp: even a cap of 1 never refuses */
		CHECK_NEAR(mr6, mr1, 0.0);
		CHECK_NEAR(mr6, 1.0, 0.0); /* every load is a distinct line */
		sb_fini(&sb);
	}
}

TEST(trc_tv11_mshr_relevance_qualitative)
{
	static const struct {
		unsigned h;
		int sign; /* full model vs round robin: -1 lower, 0 equal */
	} cases[] = {{64, 0}, {128, -1}, {256, -1}, {512, -1}};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		unsigned h = cases[k].h;
		struct strbuf sb;
		sb_init(&sb);
		sb_printf(&sb, "blocksize: %u 1 1\n", h);
		for (unsigned j = 0; j < 1024; j++) /* thread t reads row t of a 1024-int-wide matrix */
			for (unsigned t = 0; t < h; t++)
				sb_printf(&sb, "%u 0 %llu 4\n", t, 4ull * ((unsigned long long)t * 1024 + j));
		struct rdm_cfg full, rr;
		rdm_cfg_fermi(&full, false);
		rr = full;
		rr.policy = RDM_ROUND_ROBIN;
		rr.lat_min = rr.lat_sigma = 0;
		rr.mshr = rr.mshr_per_warp = 0;
		double a = model_miss_rate(&sb, &full, NULL), b = model_miss_rate(&sb, &rr, NULL);
		if (cases[k].sign == 0) {
			CHECK_NEAR(a, 1.0 / 32, 1e-9);
			CHECK_NEAR(b, 1.0 / 32, 1e-9);
		} else {
			CHECK(a < b);
			CHECK_NEAR(b, 1.0, 1e-9);
		}
		sb_fini(&sb);
	}
}
