/*
 * test_vws_iwl.c: the IWL estimator's arithmetic (Eq. 4.1 and 4.4 to 4.6),
 * fed staged warp completions: a steady input converges to the equation's
 * exact window, and a completion with no L1 access averages in as RRDegr 0
 * instead of restarting the averages.
 */
#include "debug/inspect.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

/* On tk_base_cfg (plus the caller's changes): one SM, 128 L1 blocks (32 sets x 4 ways), 48 warp slots; 64 CTAs of one
 * warp, so N_pred = ceil(0.1 x 64) = 7. */
static bool iwl_start(struct tk *t)
{
	t->cfg.core.scheduler = SCHED_VWS;
	t->cfg.core.warps_per_sm = 48;
	t->cfg.l1.sets = 32;
	t->cfg.l1.ways = 4;
	return tk_start(t, 32, 64, "ld A[bx*32 + lane] -> r1; alu 1 <- r1");
}

/* Warp slot 0 completes with `miss` AMT-filtered misses and `acc` accesses. */
static void complete(struct tk *t, unsigned miss, unsigned acc)
{
	struct sm *sm = &t->s->sms[0];
	sm->w[0].vws_miss = (uint16_t)miss;
	sm->w[0].vws_acc = (uint16_t)acc;
	vws_on_warp_done(t->s, sm, 0);
}

static int nact(struct tk *t)
{
	struct vws_info v;
	if (!inspect_vws(t->s, 0, &v))
		return -1;
	return v.nact;
}

/* The vws_thrash pattern: every warp misses its 8 lines once and reads them
 * 8 times (WS 8, RRDegr 8), so Eq. 4.6 gives ceil(4 x 128 / 64) = 8. One
 * earlier warp with RRDegr 7 starts RRDegr below 8; the average must reach
 * 8, not stay one unit in the last place below it (which made the ceil 9
 * for the rest of the kernel). */
TEST(vws_iwl_steady_input_gives_the_exact_window)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	REQUIRE(iwl_start(&t));
	REQUIRE(vws_npred(t.s) == 7);
	complete(&t, 8, 56);
	for (int k = 0; k < 6; k++)
		complete(&t, 8, 64);
	struct vws_info v;
	REQUIRE(inspect_vws(t.s, 0, &v));
	CHECK(v.post); /* 7 completions = N_pred */
	for (int k = 0; k < 40; k++)
		complete(&t, 8, 64);
	CHECK_EQ(nact(&t), 4 * 128 / (8 * 8));
	REQUIRE(inspect_vws(t.s, 0, &v));
	CHECK_EQ(v.ws_x256, 8 * 256);
	CHECK_EQ(v.rr_x256, 8 * 256);
	/* From above (RRDegr 16 first) it converges to the same window. */
	tk_end(&t);
	tk_base_cfg(&t.cfg);
	REQUIRE(iwl_start(&t));
	complete(&t, 8, 128);
	for (int k = 0; k < 46; k++)
		complete(&t, 8, 64);
	CHECK_EQ(nact(&t), 8);
	tk_end(&t);
}

/* A warp that made no L1 access has RRDegr_new = 0 / 1 = 0 (WS guarded to 1):
 * it averages in like any value. With alpha = 3 % N_pred = ceil(0.03 x 64) =
 * 2: such a warp first, then one with WS 8 and RRDegr 8, gives WS = (1 + 8) /
 * 2 = 4.5, RRDegr = (0 + 8) / 2 = 4, N_act = ceil(512 / 18) = 29. (Taking
 * RRDegr 0 for "no estimate yet" restarted it at 8: N_act 15.) */
TEST(vws_iwl_zero_access_warp_averages_in)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.vws_alpha_pct = 3;
	REQUIRE(iwl_start(&t));
	REQUIRE(vws_npred(t.s) == 2);
	complete(&t, 0, 0);
	CHECK_EQ(nact(&t), 48); /* sampling */
	complete(&t, 8, 64);
	CHECK_EQ(nact(&t), 29);
	tk_end(&t);
}

/* smN.vws.sampling_end is the cycle of the SM's N_pred-th warp completion
 * (the thesis's end of sampling), and stays 0 with a fixed window. */
TEST(vws_iwl_sampling_end_stat)
{
	for (int fixed = 0; fixed < 2; fixed++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.vws_nact = fixed ? 4 : 0;
		REQUIRE(iwl_start(&t));
		CHECK_EQ(sim_step(t.s, 10000000), SIM_STOP_DONE);
		const struct event *e = tk_event(&t, EV_WARP_DONE, vws_npred(t.s) - 1);
		REQUIRE(e);
		CHECK_EQ(tk_stat(&t, "sm0.vws.sampling_end"), fixed ? 0 : e->cycle);
		CHECK(fixed || e->cycle > 0);
		tk_end(&t);
	}
}
