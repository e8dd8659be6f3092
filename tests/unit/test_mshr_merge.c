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
