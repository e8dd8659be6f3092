/*
 * test_pool_wait.c: an L1 eviction that must send something (a write-back
 * L1's dirty victim, a coherence Put) while the request pool has no free slot
 * waits and retries (l1.pool_waits) instead of dropping it: a run whose pool
 * is held empty for a while writes back exactly what an unhindered run does.
 */
#include <stdlib.h>
#include <string.h>

#include "coh/coh.h"
#include "debug/inspect.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

/* Dirty lines (or, with a protocol, copies in M/O/N) left in SM 0's L1. */
static uint64_t l1_dirty_lines(struct tk *t)
{
	uint64_t n = 0;
	for (int set = 0; set < t->cfg.l1.sets; set++)
		for (int w = 0; w < t->cfg.l1.ways; w++) {
			struct line_info li;
			if (inspect_cache_line(t->s, CACHE_L1, 0, set, w, &li) && li.valid && li.dirty)
				n++;
		}
	return n;
}

/* Run to the end; with starve, from the cycle every store has issued (the
 * coalescer's own requests are sized into the pool, not what this tests),
 * take every free request slot each cycle for 600 cycles, then give them
 * back. */
static void run(struct tk *t, bool starve)
{
	struct req_pool *p = &t->s->pool;
	uint32_t *held = calloc(p->cap, sizeof *held), nheld = 0;
	if (starve) {
		while (tk_stat(t, "core.st_insts") < 32 && !sim_done(t->s))
			sim_step(t->s, 1);
		for (int c = 0; c < 600 && !sim_done(t->s); c++) {
			uint32_t i;
			while ((i = req_alloc(p)) != REQ_NIL)
				held[nheld++] = i;
			sim_step(t->s, 1);
		}
		while (nheld)
			req_free(p, held[--nheld]);
	}
	free(held);
	CHECK_EQ(sim_step(t->s, 10000000), SIM_STOP_DONE);
}

#define STORES "st A[tid]; st B[tid]; st C[tid]; st D[tid]"

static void small_l1(struct tk *t)
{
	tk_base_cfg(&t->cfg);
	t->cfg.l1.sets = 4;
	t->cfg.l1.ways = 2;
}

/* 8 warps each store four lines: 32 dirty lines through an 8-line
 * write-back L1. */
TEST(l1_writeback_waits_for_a_request_slot)
{
	uint64_t wb[2], waits[2];
	for (int starve = 0; starve < 2; starve++) {
		struct tk t;
		small_l1(&t);
		t.cfg.l1.write_policy = L1W_WRITE_BACK;
		REQUIRE(tk_start(&t, 256, 1, STORES));
		run(&t, starve);
		CHECK_EQ(tk_stat(&t, "l1.writes"), 32);
		wb[starve] = tk_stat(&t, "l1.writebacks");
		waits[starve] = tk_stat(&t, "l1.pool_waits");
		CHECK_EQ(wb[starve] + l1_dirty_lines(&t), 32); /* every stored line: written back or still here */
		tk_end(&t);
	}
	CHECK_EQ(waits[0], 0);
	CHECK(waits[1] > 0);
	CHECK_EQ(wb[1], wb[0]);
}

/* MOESI: stores leave M copies; replacing one sends PutM, which waits the
 * same way. Every line reaches the L2 (PutM data) or stays in the L1. */
TEST(coh_put_waits_for_a_request_slot)
{
	uint64_t puts[2], waits[2];
	for (int starve = 0; starve < 2; starve++) {
		struct tk t;
		small_l1(&t);
		t.cfg.l2.coh.protocol = COH_MOESI;
		REQUIRE(tk_start(&t, 256, 1, STORES));
		run(&t, starve);
		CHECK_EQ(tk_stat(&t, "l1.writes"), 32);
		puts[starve] = tk_stat(&t, "coh.msgs.PutM");
		waits[starve] = tk_stat(&t, "l1.pool_waits");
		CHECK_EQ(puts[starve] + l1_dirty_lines(&t), 32);
		CHECK_EQ(tk_stat(&t, "coh.errors"), 0);
		tk_end(&t);
	}
	CHECK_EQ(waits[0], 0);
	CHECK(waits[1] > 0);
	CHECK_EQ(puts[1], puts[0]);
}

/* The pool hands out slots in index order until one is freed, then the last
 * freed first (LIFO), and only then the next never-used slot; slots never
 * handed out stay all-zero (snapshots skip zero blocks, and they are never
 * touched, so a pool sized for 256 in-flight instructions costs no memory
 * until used). */
TEST(pool_order_and_untouched_slots)
{
	struct arena a;
	arena_init(&a);
	struct req_pool p;
	req_pool_init(&p, &a, 8);
	CHECK_EQ(req_alloc(&p), 0);
	CHECK_EQ(req_alloc(&p), 1);
	CHECK_EQ(req_alloc(&p), 2);
	req_free(&p, 0);
	req_free(&p, 2);
	CHECK_EQ(req_alloc(&p), 2); /* LIFO */
	CHECK_EQ(req_alloc(&p), 0);
	CHECK_EQ(req_alloc(&p), 3); /* then the first never used */
	CHECK_EQ(p.high_water, 4);
	static const struct req zero;
	for (uint32_t i = 4; i < p.cap; i++)
		CHECK(memcmp(&p.r[i], &zero, sizeof zero) == 0);
	for (uint32_t i = 4; i < 8; i++)
		CHECK_EQ(req_alloc(&p), i);
	CHECK_EQ(req_alloc(&p), REQ_NIL); /* exhausted */
	CHECK_EQ(p.used, 8);
	req_free(&p, 5);
	CHECK_EQ(req_alloc(&p), 5);
	arena_fini(&a);
}
