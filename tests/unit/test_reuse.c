/*
 * test_reuse.c: the reuse-distance profiler. The paper's Table 1 / Figure 1
 * (note TV1), a brute-force O(n^2) stack-distance reference on random traces
 * (set view and fully associative view, including the bounded-memory paths:
 * window compaction, dropping the oldest line, the ">= cap" bins), and the
 * profiler inside the simulator: a fully associative LRU L1 with ample MSHRs
 * hits exactly where the profiler's distance is < ways, the histogram and
 * class counters add up to the lookups, events and breakpoints, determinism.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "kernel/kernel.h"
#include "reuse/reuse.h"
#include "debug/bp.h"
#include "sim/sim.h"

static struct rd_cache *new_cache(struct arena *a, uint32_t sets, uint32_t ways, uint64_t base, uint64_t lines)
{
	struct rd_cache *c = ARENA_NEW(a, struct rd_cache, 1);
	rd_cache_init(c, a, sets, ways, base, lines);
	return c;
}

/* TV1: x[0] x[5] x[3] x[9] x[3] x[3] x[5], 4 elements per line, FA LRU of 2 lines. */
TEST(reuse_tv1_table1_figure1)
{
	static const uint64_t addr[7] = {0, 5, 3, 9, 3, 3, 5};
	static const int64_t dline[7] = {-1, -1, 1, -1, 1, 0, 2};
	static const int64_t daddr[7] = {-1, -1, -1, -1, 1, 0, 2};
	struct arena a;
	arena_init(&a);
	struct rd_cache *c = new_cache(&a, 1, 2, 0, 16);
	struct rd_cache *ca = new_cache(&a, 1, 2, 0, 16);
	for (int i = 0; i < 7; i++) {
		struct rd_result r, ra;
		/* hit as an LRU cache of 2 lines decides it: d < 2 */
		rd_cache_access(c, addr[i] / 4, 0, dline[i] >= 0 && dline[i] < 2, false, &r);
		CHECK_EQ(r.d_set, dline[i]);
		CHECK_EQ(r.d_fa, dline[i]);
		rd_cache_access(ca, addr[i], 0, daddr[i] >= 0 && daddr[i] < 2, false, &ra);
		CHECK_EQ(ra.d_set, daddr[i]);
	}
	/* Figure 1: {0:1, 1:2, 2:1, inf:3} */
	CHECK_EQ(c->hist[0], 1);
	CHECK_EQ(c->hist[1], 2);
	CHECK_EQ(c->hist[2], 1);
	CHECK_EQ(c->hist[c->dcap + RB_INF_COMP], 3);
	CHECK_EQ(c->cls[RC_COMPULSORY], 3);
	CHECK_EQ(c->cls[RC_CAPACITY], 1);
	CHECK_EQ(c->cls[RC_HIT], 3);
	CHECK_EQ(c->cls[RC_ASSOC] + c->cls[RC_LATENCY] + c->cls[RC_OTHER], 0);
	/* address granularity [derived]: {0:1, 1:1, 2:1, inf:4} */
	CHECK_EQ(ca->hist[0], 1);
	CHECK_EQ(ca->hist[1], 1);
	CHECK_EQ(ca->hist[2], 1);
	CHECK_EQ(ca->hist[ca->dcap + RB_INF_COMP], 4);
	arena_fini(&a);
}

/* Distinct lines (in `set`, or all when set < 0) strictly between the last
 * access to trace[i] and i; -1 if none. */
static int64_t brute(const uint64_t *trace, const uint32_t *sets, int i, bool per_set)
{
	int j = i - 1;
	while (j >= 0 && trace[j] != trace[i])
		j--;
	if (j < 0)
		return REUSE_INF;
	int64_t d = 0;
	for (int k = j + 1; k < i; k++) {
		if (per_set && sets[k] != sets[i])
			continue;
		bool dup = false;
		for (int m = j + 1; m < k && !dup; m++)
			dup = trace[m] == trace[k];
		d += !dup;
	}
	return d;
}

static void property_run(uint32_t S, uint32_t W, uint32_t nlines, int n, uint64_t seed, bool skewed)
{
	struct arena a;
	arena_init(&a);
	struct rd_cache *c = new_cache(&a, S, W, 1000, 3 * (uint64_t)nlines);
	uint64_t *trace = xmalloc(sizeof(uint64_t) * (size_t)n);
	uint32_t *sets = xmalloc(sizeof(uint32_t) * (size_t)n);
	struct rng rng;
	rng_seed(&rng, seed);
	for (int i = 0; i < n; i++) {
		/* skewed: a hot subset plus a cold tail, so short and long distances both occur */
		uint64_t x = skewed && rng_below(&rng, 4) ? rng_below(&rng, nlines / 8 + 1) : rng_below(&rng, nlines);
		trace[i] = x * 3 + 1000;
		sets[i] = (uint32_t)(mix64(trace[i]) % S);
	}
	int bad = 0;
	for (int i = 0; i < n; i++) {
		struct rd_result r;
		rd_cache_access(c, trace[i], sets[i], false, false, &r);
		int64_t ds = brute(trace, sets, i, true), dfa = brute(trace, sets, i, false);
		int64_t es = ds == REUSE_INF ? REUSE_INF : ds < (int64_t)c->dcap ? ds : (int64_t)c->dcap;
		int64_t ef = dfa == REUSE_INF ? REUSE_INF : dfa < (int64_t)c->kcap ? dfa : (int64_t)c->kcap;
		if ((r.d_set != es || r.d_fa != ef) && bad < 5) {
			test_fail(__FILE__, __LINE__, "S=%u W=%u access %d line %llu: set %lld (want %lld), fa %lld (want %lld)",
				  S, W, i, (unsigned long long)trace[i], (long long)r.d_set, (long long)es,
				  (long long)r.d_fa, (long long)ef);
			bad++;
		}
		unsigned want = ds == REUSE_INF ? RC_COMPULSORY
			      : ef >= (int64_t)c->lines ? RC_CAPACITY
			      : es >= (int64_t)W ? RC_ASSOC
						 : RC_OTHER;
		if (r.cls != want && bad < 5) {
			test_fail(__FILE__, __LINE__, "access %d: class %s, want %s", i, reuse_class_name(r.cls),
				  reuse_class_name(want));
			bad++;
		}
	}
	uint64_t sum = 0;
	for (uint32_t b = 0; b < c->dcap + RB__EXTRA; b++)
		sum += c->hist[b];
	CHECK_EQ(sum, (uint64_t)n);
	CHECK_EQ(c->approx, 0);
	free(trace);
	free(sets);
	arena_fini(&a);
}

TEST(reuse_matches_bruteforce_random_traces)
{
	/* Tiny caches: K = 4N is small, so dropping and compaction happen constantly. */
	property_run(1, 2, 40, 3000, 1, false);
	property_run(2, 2, 64, 3000, 2, true);
	property_run(4, 3, 200, 3000, 3, true);
	property_run(1, 16, 100, 2500, 4, true);
	property_run(8, 4, 500, 2500, 5, true);
}

/* Lines outside the declared footprint share folded seen bits: never a
 * false "never seen", possibly a false "seen" (counted in approx). */
TEST(reuse_seen_bits_fold_outside_footprint)
{
	struct arena a;
	arena_init(&a);
	struct rd_cache *c = new_cache(&a, 1, 4, 0, 8); /* 64 bits */
	struct rd_result r;
	for (uint64_t x = 0; x < 8; x++) {
		rd_cache_access(c, x, 0, false, false, &r);
		CHECK_EQ(r.d_set, REUSE_INF);
	}
	CHECK_EQ(c->approx, 0);
	uint64_t comp = 0;
	for (uint64_t x = 1000; x < 1200; x++) {
		rd_cache_access(c, x, 0, false, false, &r);
		comp += r.cls == RC_COMPULSORY;
	}
	CHECK_EQ(c->approx, 200);
	CHECK(comp < 200 && comp > 0); /* 200 lines into 64 bits: some look seen */
	rd_cache_access(c, 1000, 0, false, false, &r); /* really seen: never called new */
	CHECK(r.cls != RC_COMPULSORY);
	arena_fini(&a);
}

/* ---- inside the simulator ------------------------------------------------ */
struct tk {
	struct kernel_src src;
	struct kernel *k;
	struct workload wl;
	struct sim *s;
	struct sim_cfg cfg;
};

static void kernel_of(struct kernel_src *k, unsigned threads, unsigned ctas, const char *body)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof k->name, "t");
	snprintf(k->grid[0], sizeof k->grid[0], "%u", ctas);
	snprintf(k->grid[1], sizeof k->grid[1], "1");
	snprintf(k->grid[2], sizeof k->grid[2], "1");
	snprintf(k->block[0], sizeof k->block[0], "%u", threads);
	snprintf(k->block[1], sizeof k->block[1], "1");
	snprintf(k->block[2], sizeof k->block[2], "1");
	k->narrays = 2;
	snprintf(k->arrays[0].name, sizeof k->arrays[0].name, "A");
	snprintf(k->arrays[1].name, sizeof k->arrays[1].name, "B");
	for (unsigned i = 0; i < 2; i++) {
		k->arrays[i].elem = 4;
		snprintf(k->arrays[i].len, sizeof k->arrays[i].len, "65536");
	}
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", body);
	for (char *tok = strtok(buf, ";"); tok; tok = strtok(NULL, ";")) {
		while (*tok == ' ')
			tok++;
		snprintf(k->body[k->nbody++], sizeof k->body[0], "%s", tok);
	}
}

static bool tk_start(struct tk *t, unsigned threads, unsigned ctas, const char *body)
{
	char *err = NULL;
	kernel_of(&t->src, threads, ctas, body);
	t->k = kernel_compile(&t->src, t->cfg.seed, &err);
	if (!t->k) {
		test_fail(__FILE__, __LINE__, "kernel: %s", err);
		free(err);
		return false;
	}
	t->wl = (struct workload){.name = "t", .kernel = t->k};
	t->s = sim_new(&t->cfg, &t->wl, &err);
	if (!t->s) {
		test_fail(__FILE__, __LINE__, "sim_new: %s", err);
		free(err);
		kernel_free(t->k);
		return false;
	}
	return true;
}

static void tk_end(struct tk *t)
{
	sim_free(t->s);
	kernel_free(t->k);
}

static uint64_t stat(const struct sim *s, const char *name)
{
	int id = stats_find(sim_stats_c(s), name);
	if (id < 0) {
		test_fail(__FILE__, __LINE__, "no stat %s", name);
		return 0;
	}
	return stats_counter_value(sim_stats_c(s), (uint32_t)id);
}

static uint64_t hist_sum(const struct sim *s, const char *name, uint32_t from, uint32_t to)
{
	int id = stats_find(sim_stats_c(s), name);
	if (id < 0) {
		test_fail(__FILE__, __LINE__, "no stat %s", name);
		return 0;
	}
	const uint64_t *h = stats_hist_counts(sim_stats_c(s), (uint32_t)id);
	uint64_t n = 0;
	for (uint32_t i = from; i < to && i < stats_def(sim_stats_c(s), (uint32_t)id)->nbuckets; i++)
		n += h[i];
	return n;
}

static const char *const classes[] = {"compulsory", "capacity", "associativity", "latency", "other"};

/* Histogram + inf (compulsory, latency) = lookups; hits + classes = lookups. */
static void check_sums(const struct sim *s, const char *cache, const char *stat_prefix)
{
	char n[96];
	uint64_t acc, hits, miss = 0;
	snprintf(n, sizeof n, "%s.accesses", stat_prefix);
	acc = stat(s, n);
	snprintf(n, sizeof n, "%s.hits", stat_prefix);
	hits = stat(s, n);
	for (unsigned i = 0; i < ARRAY_LEN(classes); i++) {
		snprintf(n, sizeof n, "%s.miss.%s", stat_prefix, classes[i]);
		miss += stat(s, n);
	}
	CHECK_EQ(hits + miss, acc);
	snprintf(n, sizeof n, "reuse.%s.hist", cache);
	uint64_t h = hist_sum(s, n, 0, 100000);
	snprintf(n, sizeof n, "%s.miss.compulsory", stat_prefix);
	uint64_t comp = stat(s, n);
	snprintf(n, sizeof n, "%s.miss.latency", stat_prefix);
	CHECK_EQ(h + comp + stat(s, n), acc);
}

static void fa_cfg(struct sim_cfg *c, int sets, int ways)
{
	cfg_defaults(c);
	c->core.sms = 1;
	c->l2.banks = 1;
	c->mem.model = MEM_FIXED;
	c->mem.latency = 60;
	c->l1.sets = sets;
	c->l1.ways = ways;
	c->l1.repl = 0; /* lru */
	c->l1.mshr_entries = 256;
	c->l1.mshr_merges = 64;
	c->l1.wait_queue = 64;
	c->l1.miss_queue = 256;
}

/* A fully associative LRU L1 with ample MSHRs hits exactly where the profiler
 * says d < ways (a miss with d < ways is an in-flight line: binned inf-latency). */
TEST(reuse_fa_lru_l1_hits_where_distance_below_ways)
{
	struct tk t;
	fa_cfg(&t.cfg, 1, 64);
	t.cfg.l2.sharers = L2SH_OFF; /* L1 replacement alone: no L2-driven invalidations */
	REQUIRE(tk_start(&t, 64, 4,
			 "loop i 0 24; ld A[(hash(tid + i * 7) % 96) * 32 + tid % 4] -> r1; alu 2 <- r1; end"));
	sim_step(t.s, UINT64_MAX);
	REQUIRE(sim_done(t.s));
	uint64_t hits = stat(t.s, "sm0.l1.hits");
	CHECK(hits > 100);
	CHECK(stat(t.s, "sm0.l1.miss.capacity") > 0);
	CHECK(stat(t.s, "sm0.l1.miss.latency") > 0);
	CHECK_EQ(hist_sum(t.s, "reuse.sm0.l1.hist", 0, 64), hits);
	CHECK_EQ(stat(t.s, "sm0.l1.miss.other"), 0);
	CHECK_EQ(stat(t.s, "sm0.l1.miss.associativity"), 0); /* one set: FA and set view agree */
	CHECK_EQ(stat(t.s, "sm0.l1.reservation_fails"), 0);
	CHECK_EQ(stat(t.s, "sm0.l1.mshr_full"), 0);
	const struct rd_cache *c = reuse_cache(t.s, 0, 0);
	REQUIRE(c);
	CHECK_EQ(c->hits_far, 0);
	check_sums(t.s, "sm0.l1", "sm0.l1");
	check_sums(t.s, "l2.bank0", "l2.bank0");
	tk_end(&t);
}

/* Set associative: associativity misses appear, and the set view still predicts every hit. */
TEST(reuse_set_assoc_lru_classes)
{
	struct tk t;
	fa_cfg(&t.cfg, 16, 4);
	/* 2 KB stride: every line of a loop iteration maps to one set */
	REQUIRE(tk_start(&t, 32, 2, "loop j 0 3; loop i 0 6; ld A[i * 512 + (tid % 2) * 32 + bx * 64] -> r1; alu 1 <- r1; end; end"));
	sim_step(t.s, UINT64_MAX);
	REQUIRE(sim_done(t.s));
	CHECK(stat(t.s, "sm0.l1.miss.associativity") > 0);
	CHECK_EQ(stat(t.s, "sm0.l1.miss.other"), 0);
	CHECK_EQ(hist_sum(t.s, "reuse.sm0.l1.hist", 0, 4), stat(t.s, "sm0.l1.hits"));
	check_sums(t.s, "sm0.l1", "sm0.l1");
	check_sums(t.s, "l1", "l1");
	check_sums(t.s, "l2", "l2");
	tk_end(&t);
}

/* Default machine, a kernel with stores and two levels: the sums hold everywhere. */
TEST(reuse_sums_teaching_machine)
{
	struct tk t;
	cfg_defaults(&t.cfg);
	REQUIRE(tk_start(&t, 128, 8, "loop i 0 4; ld A[(tid*7 + i*129) % 4096] -> r1; alu 3 <- r1; st B[tid + i*64]; end"));
	sim_step(t.s, UINT64_MAX);
	REQUIRE(sim_done(t.s));
	check_sums(t.s, "sm0.l1", "sm0.l1");
	check_sums(t.s, "sm1.l1", "sm1.l1");
	check_sums(t.s, "l1", "l1");
	check_sums(t.s, "l2.bank1", "l2.bank1");
	check_sums(t.s, "l2", "l2");
	tk_end(&t);
}

TEST(reuse_break_on_class_stops_with_the_access)
{
	struct tk t;
	fa_cfg(&t.cfg, 16, 4);
	REQUIRE(tk_start(&t, 32, 1, "loop j 0 2; loop i 0 6; ld A[i * 512] -> r1; alu 1 <- r1; end; end"));
	struct bp_set bps;
	bp_init(&bps, sim_stats(t.s));
	char *err = NULL;
	int id = bp_add_break(&bps, "reuse.class b=3 sm=0 unit=-1", 128, &err);
	REQUIRE(id > 0);
	sim_set_bps(t.s, &bps);
	enum sim_stop why = sim_step(t.s, UINT64_MAX);
	CHECK_EQ(why, SIM_STOP_BREAK);
	CHECK_EQ(bps.stop_ev.kind, EV_REUSE_CLASS);
	CHECK_EQ(bps.stop_ev.b, RC_ASSOC);
	CHECK(bps.stop_ev.a >= 4); /* beyond the 4 ways */
	const struct rd_cache *c = reuse_cache(t.s, 0, 0);
	CHECK_EQ(c->last_cls, RC_ASSOC);
	CHECK_EQ(c->cls[RC_ASSOC], 1);
	CHECK_EQ(c->last_line * 128, bps.stop_ev.addr);
	sim_set_bps(t.s, NULL);
	bp_fini(&bps);
	tk_end(&t);
}

/* Stepping in odd chunks gives the same profile as one run. */
TEST(reuse_step_vs_run_same_profile)
{
	uint64_t h[2][32];
	for (int mode = 0; mode < 2; mode++) {
		struct tk t;
		cfg_defaults(&t.cfg);
		REQUIRE(tk_start(&t, 128, 6, "loop i 0 4; ld A[(tid*7 + i*129) % 4096] -> r1; alu 3 <- r1; end"));
		if (mode == 0) {
			sim_step(t.s, UINT64_MAX);
		} else {
			uint64_t k = 1;
			while (!sim_done(t.s)) {
				sim_step(t.s, k);
				k = k % 37 + 1;
			}
		}
		const struct rd_cache *c = reuse_cache(t.s, 0, 0);
		REQUIRE(c && c->dcap + RB__EXTRA <= 32);
		memset(h[mode], 0, sizeof h[mode]);
		for (uint32_t i = 0; i < c->dcap + RB__EXTRA; i++)
			h[mode][i] = c->hist[i];
		tk_end(&t);
	}
	CHECK(memcmp(h[0], h[1], sizeof h[0]) == 0);
}
