/*
 * test_vws.c: the Versatile Warp Scheduler's toy cases (notes 002 §5.2
 * items 4 and 5), the estimator's N_pred, and step-vs-run determinism.
 */
#include "inspect.h"
#include "simtest.h"
#include "test.h"

/* Item 4 (Fig. 22): 2 CTAs x 2 warps on one SM; both warps of a CTA read the
 * CTA's two segments M0 and M1; the L1 holds two segments; N_act = 2.
 * IntraCL activates both warps of one CTA (no thrashing); spreading the two
 * active warps over the CTAs needs four segments in two lines and thrashes. */
static uint64_t intracl_hits(bool intracl)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.scheduler = SCHED_VWS;
	t.cfg.core.vws_nact = 2;
	t.cfg.core.vws_intracl = intracl;
	t.cfg.l1.sets = 1;
	t.cfg.l1.ways = 2;
	if (!tk_start(&t, 64, 2, "loop i 0 8; ld A[bx*64 + (i % 2)*32 + lane] -> r1; alu 1 <- r1; end"))
		return 0;
	CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
	uint64_t h = tk_stat(&t, "l1.hits") + tk_stat(&t, "l1.mshr_merges");
	CHECK_EQ(tk_stat(&t, "l1.accesses"), 32);
	tk_end(&t);
	return h;
}

TEST(vws_intracl_toy_fig22)
{
	uint64_t same = intracl_hits(true), cross = intracl_hits(false);
	/* Same CTA: 2 compulsory misses per CTA, every other access reuses. */
	CHECK_EQ(same, 32 - 4);
	/* Cross CTA: the four segments evict each other: (nearly) no reuse. */
	CHECK(cross <= 8);
	CHECK(same > cross);
}

/* Item 5 (Fig. 23): 4 CTAs on 2 SMs, consecutive CTAs (0,1) and (2,3) share a
 * block. Interleaved dispatch mirrors the blocks in both L1s: 4 compulsory
 * misses; serial dispatch: 2 compulsory misses and 2 inter-CTA reuses. */
static void intercl_counts(int sched, uint64_t *compulsory, uint64_t *reuse)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.sms = 2;
	t.cfg.core.scheduler = sched;
	t.cfg.core.cta_dispatch = CTA_ROUND_ROBIN;
	if (!tk_start(&t, 32, 4, "ld A[(bx/2)*32 + lane] -> r1"))
		return;
	CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
	*reuse = tk_stat(&t, "l1.hits") + tk_stat(&t, "l1.mshr_merges");
	*compulsory = tk_stat(&t, "l1.accesses") - *reuse;
	for (unsigned k = 0; sched == SCHED_VWS && k < 4; k++) {
		const struct event *e = tk_event(&t, EV_CTA_LAUNCH, k);
		REQUIRE(e);
		CHECK_EQ(e->sm, e->a / 2); /* serial: CTAs 0,1 on SM 0 and 2,3 on SM 1 */
	}
	tk_end(&t);
}

TEST(vws_intercl_toy_fig23)
{
	uint64_t c, r;
	intercl_counts(SCHED_GTO, &c, &r);
	CHECK_EQ(c, 4);
	CHECK_EQ(r, 0);
	intercl_counts(SCHED_VWS, &c, &r);
	CHECK_EQ(c, 2);
	CHECK_EQ(r, 2);
}

TEST(vws_npred_and_throttle)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.scheduler = SCHED_VWS;
	t.cfg.l1.sets = 4;
	/* 32 CTAs x 64 threads on 1 SM: 64 warps, alpha 10 % -> N_pred 7. */
	REQUIRE(tk_start(&t, 64, 32, "loop i 0 8; ld A[bx*4096 + i*64 + tid] -> r1; alu 1 <- r1; end"));
	struct vws_info v;
	REQUIRE(inspect_vws(t.s, 0, &v));
	CHECK_EQ(v.npred, 7);
	CHECK(!v.post);
	CHECK_EQ(v.nact, 8); /* sampling: every warp slot */
	CHECK_EQ(sim_step(t.s, 10000000), SIM_STOP_DONE);
	REQUIRE(inspect_vws(t.s, 0, &v));
	CHECK(v.post);
	/* Each warp streams 8 blocks once: WS 8, RRDegr 1 -> N_act = ceil(4 x 16 / 8) = 8. */
	CHECK_EQ(v.ws_x256, 8 * 256);
	CHECK_EQ(v.rr_x256, 256);
	CHECK_EQ(v.nact, 8);
	tk_end(&t);
}

TEST(vws_determinism_step_vs_run)
{
	const char *body = "loop i 0 6; ld A[(tid*7 + i*129) % 4096] -> r1; ld B[bx*32 + lane] -> r2; alu 3 <- r1; end";
	uint64_t hash[2], cycles[2];
	for (int mode = 0; mode < 2; mode++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.sms = 2;
		t.cfg.core.scheduler = SCHED_VWS;
		t.cfg.mem.model = MEM_DRAM;
		REQUIRE(tk_start(&t, 128, 12, body));
		events_log_all(sim_events(t.s), false);
		if (mode == 0)
			sim_step(t.s, UINT64_MAX);
		else
			while (!sim_done(t.s))
				sim_step(t.s, 1);
		hash[mode] = sim_state_hash(t.s);
		cycles[mode] = sim_cycle(t.s);
		tk_end(&t);
	}
	CHECK_EQ(cycles[0], cycles[1]);
	CHECK(hash[0] == hash[1]);
}
