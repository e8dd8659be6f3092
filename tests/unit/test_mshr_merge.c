/*
 * test_mshr_merge.c: the MSHR merge limit (l1.mshr.merges = M: an entry
 * holds at most M requests, the allocating one included) and the L1's merge
 * counter, with expectations derived from M and the warp count only.
 *
 * W warps of one CTA load the same line (each lane indexes its lane number),
 * one warp a cycle (LRR), all before the first fill (W < the 100-cycle miss
 * latency): warp 0 allocates, warps 1..M-1 merge (merge event a = 2..M), the
 * other W-M find the entry's slots taken (l1.mshr_full, reason "merge") and
 * wait; the fill completes exactly M requests (l1.fill a = M), all M at the
 * same cycle.
 */
#include "sim/event.h"
#include "mem/mshr.h"
#include "simtest.h"
#include "test.h"

TEST(mshr_can_merge_up_to_the_limit)
{
	struct arena a;
	arena_init(&a);
	struct mshr m;
	for (uint32_t merges = 1; merges <= 5; merges++) {
		mshr_init(&m, &a, 2);
		uint32_t e = mshr_alloc(&m, 0x1000, 1, 0);
		REQUIRE(e != REQ_NIL);
		m.e[e].merged = 1; /* the allocating request */
		uint32_t held = 1;
		while (mshr_can_merge(&m, e, merges) && held < 100)
			m.e[e].merged = (uint16_t)++held;
		CHECK_EQ(held, merges);
	}
	arena_fini(&a);
}

/* A fresh file (mshr_init): every bucket empty, every entry free with no
 * waiters, and entries handed out 0, 1, ..., n-1, then none; a released
 * entry is the next one handed out (the free list is LIFO). Sizes around
 * the bucket count's powers of two, one entry and the L1 default. */
TEST(mshr_init_fresh_file)
{
	static const uint32_t sizes[] = {1, 2, 3, 7, 8, 9, 192, 512};
	for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
		uint32_t n = sizes[z];
		struct arena a;
		arena_init(&a);
		struct mshr m;
		mshr_init(&m, &a, n);
		CHECK_EQ(m.n, n);
		CHECK_EQ(m.used, 0);
		CHECK(m.nbuckets >= 2 * n && (m.nbuckets & (m.nbuckets - 1)) == 0);
		bool empty = true, free_ok = true;
		for (uint32_t b = 0; b < m.nbuckets; b++)
			empty &= m.bucket[b] == REQ_NIL;
		for (uint32_t i = 0; i < n; i++)
			free_ok &= m.e[i].state == ME_FREE && m.e[i].wait.head == REQ_NIL && m.e[i].wait.tail == REQ_NIL;
		CHECK(empty);
		CHECK(free_ok);
		for (uint32_t i = 0; i < n; i++) {
			CHECK_EQ(mshr_find(&m, 0x40 * (uint64_t)i, 1), REQ_NIL);
			CHECK_EQ(mshr_alloc(&m, 0x40 * (uint64_t)i, 1, i), i);
		}
		CHECK_EQ(mshr_alloc(&m, 0xdead00, 1, 0), REQ_NIL);
		CHECK_EQ(m.used, n);
		for (uint32_t i = 0; i < n; i++)
			CHECK_EQ(mshr_find(&m, 0x40 * (uint64_t)i, 1), i);
		uint32_t r = n / 2;
		mshr_release(&m, r);
		CHECK_EQ(mshr_find(&m, 0x40 * (uint64_t)r, 1), REQ_NIL);
		CHECK_EQ(mshr_alloc(&m, 0xbeef00, 1, 0), r);
		CHECK_EQ(mshr_alloc(&m, 0xbeef80, 1, 0), REQ_NIL);
		arena_fini(&a);
	}
}

static void merge_limit_case(unsigned M, unsigned W)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l1.mshr_merges = (int)M;
	REQUIRE(tk_start(&t, 32 * W, 1, "ld A[lane]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	unsigned merged_now = M < W ? M : W;
	CHECK_EQ(tk_stat(&t, "l1.mshr_merges"), merged_now - 1);
	CHECK_EQ(tk_count(&t, EV_L1_MSHR_MERGE), merged_now - 1);
	for (unsigned i = 0; i + 1 < merged_now; i++) {
		const struct event *e = tk_event(&t, EV_L1_MSHR_MERGE, i);
		REQUIRE(e);
		CHECK_EQ(e->a, i + 2); /* requests attached after this merge */
		CHECK_EQ(e->warp, (int)i + 1);
	}
	const struct event *f = tk_event(&t, EV_L1_FILL, 0);
	REQUIRE(f);
	CHECK_EQ(f->a, merged_now); /* the first fill completes the allocating request and every merge */
	CHECK_EQ(tk_stat(&t, "l1.mshr_full"), W - merged_now);
	/* The merged warps all get their data at the fill. */
	for (unsigned i = 0; i < merged_now; i++) {
		const struct event *r = tk_event(&t, EV_MEM_REPLY, i);
		REQUIRE(r);
		CHECK_EQ(r->cycle, f->cycle);
	}
	tk_end(&t);
}

TEST(l1_mshr_merge_limit_and_counter)
{
	merge_limit_case(1, 4); /* no merging at all */
	merge_limit_case(2, 4);
	merge_limit_case(3, 8);
	merge_limit_case(8, 8); /* exactly the limit: nobody waits */
	merge_limit_case(8, 5);
}
