/*
 * test_multikernel.c: kernels of a trace list run back to back in one
 * simulator (sim.h wl_ops.nkernels, trace.h trace_multi). Fixture
 * tests/traces/b2b/ (gen_traces.py): kernel 1 copies A -> C with 4 CTAs of
 * 64 threads, kernel 2 copies C -> D with 2 CTAs of 128 threads and 1 KB of
 * shared memory, so kernel 2 re-reads the 8 lines kernel 1 wrote.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "debug/snapshot.h"
#include "simtest.h"
#include "test.h"
#include "trace/trace.h"

struct b2b {
	char *text[2];
	struct trace_kernel *k[2];
	struct trace_view v[2];
	uint32_t first[3], soff[3];
	struct trace_multi m;
	struct trace_view one; /* a single kernel, the old way */
	struct workload wl;
	struct sim *s;
	struct sim_cfg cfg;
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	*len = fread(b, 1, (size_t)n, f);
	fclose(f);
	return b;
}

static bool b2b_load(struct b2b *t)
{
	memset(t, 0, sizeof *t);
	cfg_defaults(&t->cfg);
	for (int i = 0; i < 2; i++) {
		char path[64], *err = NULL;
		size_t len;
		snprintf(path, sizeof path, "tests/traces/b2b/kernel-%d.traceg", i + 1);
		t->text[i] = slurp(path, &len);
		if (!t->text[i])
			return false;
		t->k[i] = trace_index(t->text[i], len, path, &err);
		if (!t->k[i]) {
			fprintf(stderr, "%s\n", err);
			free(err);
			return false;
		}
	}
	return true;
}

/* Build the sim: both kernels back to back (only < 0) or kernel `only` alone. */
static struct sim *b2b_sim(struct b2b *t, int only, char **err)
{
	if (only < 0) {
		const struct trace_kernel *ks[2] = {t->k[0], t->k[1]};
		trace_multi_init(&t->m, t->v, t->first, t->soff, ks, 2, &t->cfg.trace);
		t->wl = (struct workload){.name = "b2b", .ops = &trace_multi_wl_ops, .impl = &t->m};
	} else {
		trace_view_init(&t->one, t->k[only], &t->cfg.trace);
		t->wl = (struct workload){.name = "one", .ops = &trace_wl_ops, .impl = &t->one};
	}
	t->s = sim_new(&t->cfg, &t->wl, err);
	if (t->s)
		events_log_all(sim_events(t->s), true);
	return t->s;
}

static void b2b_free(struct b2b *t)
{
	sim_free(t->s);
	t->s = NULL;
	for (int i = 0; i < 2; i++) {
		trace_free(t->k[i]);
		free(t->text[i]);
	}
}

static uint64_t stat(const struct sim *s, const char *name)
{
	const struct stats *st = sim_stats_c(s);
	int id = stats_find(st, name);
	return id < 0 ? UINT64_MAX : (uint64_t)stats_value(st, (uint32_t)id);
}

static void run_to_end(struct sim *s)
{
	while (!sim_done(s))
		sim_step(s, UINT64_MAX);
}

TEST(multikernel_shares_caches_and_waits_at_the_boundary)
{
	struct b2b t;
	REQUIRE(b2b_load(&t));
	char *err = NULL;
	uint64_t alone_l2_hits = 0, alone_reads = 0;
	for (int k = 0; k < 2; k++) {
		REQUIRE(b2b_sim(&t, k, &err));
		run_to_end(t.s);
		alone_l2_hits += stat(t.s, "l2.hits");
		alone_reads += stat(t.s, "mem.reads");
		CHECK_EQ(stat(t.s, "sim.kernels"), UINT64_MAX); /* one kernel: no new stats */
		sim_free(t.s);
		t.s = NULL;
	}
	CHECK_EQ(alone_l2_hits, 0);  /* cold caches: every line is a miss */
	CHECK_EQ(alone_reads, 16);   /* A's 8 lines, then C's 8 lines again */
	REQUIRE(b2b_sim(&t, -1, &err));
	run_to_end(t.s);
	CHECK(sim_check_invariants(t.s, &err) == 0);
	CHECK_EQ(stat(t.s, "sim.kernels"), 2);
	CHECK_EQ(stat(t.s, "sim.warp_insts"), 48); /* 8 warps x 3 lines in each kernel */
	CHECK_EQ(stat(t.s, "core.ld_insts"), 16);
	CHECK_EQ(stat(t.s, "l2.hits"), 8);   /* kernel 2 reads the 8 C lines kernel 1 left in the L2 */
	CHECK_EQ(stat(t.s, "mem.reads"), 8); /* only A comes from memory */
	uint64_t k0 = stat(t.s, "kernel0.cycles"), k1 = stat(t.s, "kernel1.cycles");
	CHECK(k0 > 0 && k1 > 0 && k0 + k1 <= sim_cycle(t.s));

	/* Event log: kernel.start 0 at cycle 0; kernel 2's CTAs (4, 5) launch at
	 * or after kernel.start 1, which is at or after the last cta.done of 0-3. */
	const struct events *ev = sim_events_c(t.s);
	uint64_t total = events_logged(ev), avail = total < ev->cap ? total : ev->cap;
	REQUIRE(total == avail); /* nothing dropped */
	uint64_t last_done_k0 = 0, first_launch_k1 = UINT64_MAX, start1 = UINT64_MAX;
	int starts = 0, launches = 0;
	for (uint64_t i = avail; i-- > 0;) {
		const struct event *e = events_recent(ev, i);
		if (e->kind == EV_KERNEL_START) {
			CHECK_EQ(e->a, starts);
			if (starts == 0)
				CHECK_EQ(e->cycle, 0);
			else
				start1 = e->cycle;
			starts++;
		} else if (e->kind == EV_CTA_DONE && e->a < 4 && e->cycle > last_done_k0) {
			last_done_k0 = e->cycle;
		} else if (e->kind == EV_CTA_LAUNCH) {
			CHECK_EQ(e->a, launches); /* global CTA ids in order */
			launches++;
			if (e->a >= 4 && e->cycle < first_launch_k1)
				first_launch_k1 = e->cycle;
			if (e->a < 4)
				CHECK(start1 == UINT64_MAX); /* kernel 1's CTAs before kernel 2 began */
		}
	}
	CHECK_EQ(starts, 2);
	CHECK_EQ(launches, 6);
	CHECK(last_done_k0 > 0);
	CHECK(start1 >= last_done_k0);
	CHECK(first_launch_k1 >= start1);
	CHECK_EQ(k0, last_done_k0);
	/* Both SMs of the teaching machine hold kernel 2's 4-warp CTAs at once. */
	CHECK_EQ(first_launch_k1, start1);
	free(err);
	b2b_free(&t);
}

TEST(multikernel_a_kernel_that_does_not_fit_is_named)
{
	struct b2b t;
	REQUIRE(b2b_load(&t));
	t.cfg.core.shmem_per_sm = 512; /* kernel 1 needs none, kernel 2 1 KB */
	char *err = NULL;
	CHECK(b2b_sim(&t, -1, &err) == NULL);
	CHECK_CONTAINS(err, "kernel 2 of 2: a CTA of 128 threads (4 warps, 1024 B shared memory) does not fit");
	free(err);
	b2b_free(&t);
}

TEST(multikernel_step_chunks_and_run_agree)
{
	uint64_t hash[3], cycles[3], hits[3];
	for (int mode = 0; mode < 3; mode++) {
		struct b2b t;
		REQUIRE(b2b_load(&t));
		t.cfg.mem.model = MEM_DRAM;
		if (mode == 2)
			t.cfg.core.cta_dispatch = CTA_SERIAL;
		char *err = NULL;
		REQUIRE(b2b_sim(&t, -1, &err));
		tk_run_mode(t.s, mode);
		CHECK(sim_check_invariants(t.s, &err) == 0);
		hash[mode] = sim_state_hash(t.s);
		cycles[mode] = sim_cycle(t.s);
		hits[mode] = stat(t.s, "l2.hits") * 1000003 + stat(t.s, "kernel1.cycles");
		free(err);
		b2b_free(&t);
	}
	CHECK_EQ(cycles[0], cycles[1]);
	CHECK_EQ(hits[0], hits[1]);
	CHECK(hash[0] == hash[1]);
	/* serial dispatch, stepped in chunks: still both kernels, the same L2 hits */
	CHECK_EQ(hits[2] / 1000003, hits[0] / 1000003);
}

TEST(multikernel_serial_dispatch_chunks_equal_run)
{
	uint64_t hash[2], cycles[2];
	for (int mode = 0; mode < 2; mode++) {
		struct b2b t;
		REQUIRE(b2b_load(&t));
		t.cfg.core.cta_dispatch = CTA_SERIAL;
		char *err = NULL;
		REQUIRE(b2b_sim(&t, -1, &err));
		uint64_t k = 1;
		while (!sim_done(t.s)) {
			sim_step(t.s, mode == 0 ? UINT64_MAX : k);
			k = k % 11 + 1;
		}
		hash[mode] = sim_state_hash(t.s);
		cycles[mode] = sim_cycle(t.s);
		CHECK_EQ(stat(t.s, "l2.hits"), 8);
		free(err);
		b2b_free(&t);
	}
	CHECK_EQ(cycles[0], cycles[1]);
	CHECK(hash[0] == hash[1]);
}

TEST(multikernel_rewind_across_the_boundary_is_exact)
{
	struct b2b a, b;
	REQUIRE(b2b_load(&a));
	REQUIRE(b2b_load(&b));
	char *err = NULL;
	REQUIRE(b2b_sim(&a, -1, &err));
	REQUIRE(b2b_sim(&b, -1, &err));
	sim_snapshots_enable(b.s, 64u << 20);
	/* Where is the boundary? Run a to the end once on a third sim. */
	struct b2b c;
	REQUIRE(b2b_load(&c));
	REQUIRE(b2b_sim(&c, -1, &err));
	run_to_end(c.s);
	uint64_t boundary = stat(c.s, "kernel0.cycles"), end = sim_cycle(c.s), end_hash = sim_state_hash(c.s);
	b2b_free(&c);
	REQUIRE(boundary > 4 && boundary + 4 < end);
	/* b runs past the boundary to the end, then rewinds to just before it,
	 * to it, and just after it: each state equals a straight run's. */
	run_to_end(b.s);
	CHECK(sim_state_hash(b.s) == end_hash);
	uint64_t at[] = {boundary - 3, boundary, boundary + 1, boundary + 3};
	for (unsigned i = 0; i < 4; i++) {
		sim_step(a.s, at[i] - sim_cycle(a.s));
		CHECK_EQ(sim_goto(b.s, at[i], &err), 0);
		CHECK_EQ(sim_cycle(b.s), at[i]);
		CHECK(sim_state_hash(a.s) == sim_state_hash(b.s));
		/* go back behind the boundary each time: the kernel index is restored */
		CHECK_EQ(sim_goto(b.s, 1, &err), 0);
		CHECK_EQ(sim_goto(b.s, at[i], &err), 0);
		CHECK(sim_state_hash(a.s) == sim_state_hash(b.s));
	}
	run_to_end(a.s);
	run_to_end(b.s);
	CHECK(sim_state_hash(a.s) == end_hash);
	CHECK(sim_state_hash(b.s) == end_hash);
	CHECK_EQ(stat(b.s, "l2.hits"), 8);
	CHECK_EQ(stat(b.s, "kernel0.cycles"), boundary);
	free(err);
	b2b_free(&a);
	b2b_free(&b);
}

/* mem.kernel_end also decides the hand-over between kernels. With an FRC on
 * a one-line L2 bank and fetch_on_write, kernel 1's dirty victims are still
 * being written to DRAM (dram.done) after its last CTA finished:
 * `drained` starts kernel 2 only once they are done, `ctas` at once. */
TEST(multikernel_kernel_end_decides_the_hand_over)
{
	uint64_t start[2], done[2], cycles[2];
	int writes_between[2];
	for (int m = 0; m < 2; m++) {
		struct b2b t;
		REQUIRE(b2b_load(&t));
		t.cfg.l2.frc.entries = 8;
		t.cfg.l2.write_fetch = L2W_FETCH_ON_WRITE;
		t.cfg.l2.sets = 1;
		t.cfg.l2.ways = 1;
		t.cfg.mem.kernel_end = m ? MEMKE_CTAS : MEMKE_DRAINED;
		char *err = NULL;
		REQUIRE(b2b_sim(&t, -1, &err));
		run_to_end(t.s);
		CHECK(sim_check_invariants(t.s, &err) == 0);
		const struct events *ev = sim_events_c(t.s);
		uint64_t total = events_logged(ev), avail = total < ev->cap ? total : ev->cap;
		REQUIRE(total == avail);
		start[m] = UINT64_MAX;
		done[m] = 0;
		for (uint64_t i = avail; i-- > 0;) {
			const struct event *e = events_recent(ev, i);
			if (e->kind == EV_KERNEL_START && e->a == 1)
				start[m] = e->cycle;
			else if (e->kind == EV_CTA_DONE && e->a < 4 && e->cycle > done[m])
				done[m] = e->cycle;
		}
		writes_between[m] = 0;
		for (uint64_t i = avail; i-- > 0;) {
			const struct event *e = events_recent(ev, i);
			if (e->kind == EV_DRAM_DONE && e->cycle > done[m] && e->cycle < start[m])
				writes_between[m]++;
		}
		cycles[m] = stat(t.s, "sim.cycles");
		CHECK_EQ(stat(t.s, "kernel0.cycles"), done[m]); /* to the last CTA in both modes */
		free(err);
		b2b_free(&t);
	}
	CHECK_EQ(done[0], done[1]); /* kernel 1 runs the same way */
	CHECK(start[1] <= done[1] + 1); /* ctas: kernel 2 starts at kernel 1's last CTA */
	CHECK(writes_between[0] > 0);  /* drained: kernel 1's write-backs finished in DRAM first */
	CHECK_EQ(writes_between[1], 0);
	CHECK(start[0] > start[1]);
	CHECK(cycles[0] > cycles[1]);
}
