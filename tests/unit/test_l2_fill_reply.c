/*
 * test_l2_fill_reply.c: l2.fill_reply. With `pipeline` (the default) the replies
 * a fill answers pass the L2's pipeline like a hit, so an L2 miss costs an L2
 * hit plus the memory's latency; with `at_once` (the model before 2026-11-25) a miss skips the hit
 * latency and, on a preset whose l2.hit_latency exceeds its memory latency
 * (gtx480), answers sooner than a hit. One SM, no L1, one L2 bank, fixed
 * 100-cycle memory (tk_base_cfg); expectations come from the config.
 */
#include "sim/config.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

/* Latency of one warp-wide load that misses in the L2 and, on a second run,
 * the latency of the load that follows it to the same line (an L2 hit). */
static void miss_and_hit(int mode, uint64_t hit_lat, uint64_t *miss, uint64_t *hit)
{
	uint64_t total[2] = {0, 0};
	for (int k = 0; k < 2; k++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.l1.enabled = false;
		t.cfg.l2.hit_latency = (int)hit_lat;
		t.cfg.l2.fill_reply = mode;
		REQUIRE(tk_start(&t, 32, 1, k ? "ld A[lane] -> r1; ld A[lane] -> r2 <- r1" : "ld A[lane] -> r1"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		total[k] = tk_stat(&t, "core.mem_latency_total");
		tk_end(&t);
	}
	*miss = total[0];
	*hit = total[1] - total[0];
}

TEST(l2_fill_reply_pipeline_miss_costs_hit_plus_memory)
{
	struct sim_cfg c;
	tk_base_cfg(&c);
	uint64_t mem = (uint64_t)c.mem.latency;
	/* an L2 slower than its memory, as gtx480's 120-cycle ROP latency */
	for (uint64_t hl = 20; hl <= 2 * mem; hl += mem - 20) {
		uint64_t miss, hit, miss0, hit0;
		miss_and_hit(L2FR_PIPELINE, hl, &miss, &hit);
		miss_and_hit(L2FR_AT_ONCE, hl, &miss0, &hit0);
		CHECK_EQ(hit, hit0); /* hits do not change */
		CHECK(hit >= hl);
		CHECK(miss >= hit + mem); /* a miss: the hit's path plus memory */
		CHECK_EQ(miss - miss0, hl); /* what pipeline adds is the hit latency, once */
		if (hl > mem)
			CHECK(miss0 < hit0); /* the inversion at_once allowed */
	}
}
