/*
 * test_vws.c: the Versatile Warp Scheduler's toy cases (notes 002 §5.2
 * items 4 and 5), the estimator's N_pred, and step-vs-run determinism.
 */
#include "debug/inspect.h"
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
static void intercl_counts(int sched, int dispatch, uint64_t *compulsory, uint64_t *reuse)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.sms = 2;
	t.cfg.core.scheduler = sched;
	t.cfg.core.cta_dispatch = dispatch;
	if (!tk_start(&t, 32, 4, "ld A[(bx/2)*32 + lane] -> r1"))
		return;
	CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
	*reuse = tk_stat(&t, "l1.hits") + tk_stat(&t, "l1.mshr_merges");
	*compulsory = tk_stat(&t, "l1.accesses") - *reuse;
	for (unsigned k = 0; k < 4; k++) {
		const struct event *e = tk_event(&t, EV_CTA_LAUNCH, k);
		REQUIRE(e);
		/* serial: CTAs 0,1 on SM 0 and 2,3 on SM 1; round robin alternates */
		CHECK_EQ(e->sm, dispatch == CTA_SERIAL ? e->a / 2 : e->a % 2);
	}
	CHECK_EQ(tk_stat(&t, "core.cta_dispatch_serial"), dispatch == CTA_SERIAL);
	tk_end(&t);
}

/* core.cta_dispatch is the one dispatch knob: VWS (InterCL on) with round
 * robin dispatch mirrors the blocks like GTO; serial dispatch gives the
 * inter-CTA reuse to either scheduler. */
TEST(vws_intercl_toy_fig23)
{
	uint64_t c, r;
	intercl_counts(SCHED_GTO, CTA_ROUND_ROBIN, &c, &r);
	CHECK_EQ(c, 4);
	CHECK_EQ(r, 0);
	intercl_counts(SCHED_VWS, CTA_ROUND_ROBIN, &c, &r);
	CHECK_EQ(c, 4);
	CHECK_EQ(r, 0);
	intercl_counts(SCHED_VWS, CTA_SERIAL, &c, &r);
	CHECK_EQ(c, 2);
	CHECK_EQ(r, 2);
	intercl_counts(SCHED_GTO, CTA_SERIAL, &c, &r);
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

/* core.vws_beta scales Eq. 4.6: the same streaming warps (WS 8, RRDegr 1,
 * 16 L1 blocks) give N_act = ceil(beta x 16 / 8) = 2 beta, clamped to the 8
 * slots; the window stat falls from 8 once the window closes. */
TEST(vws_beta_sets_the_window)
{
	for (int beta = 1; beta <= 4; beta *= 2) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.scheduler = SCHED_VWS;
		t.cfg.l1.sets = 4;
		t.cfg.core.vws_beta = beta;
		REQUIRE(tk_start(&t, 64, 32, "loop i 0 8; ld A[bx*4096 + i*64 + tid] -> r1; alu 1 <- r1; end"));
		CHECK_EQ(sim_step(t.s, 10000000), SIM_STOP_DONE);
		struct vws_info v;
		REQUIRE(inspect_vws(t.s, 0, &v));
		CHECK_EQ(v.nact, 2 * beta > 8 ? 8 : 2 * beta);
		int id = stats_find(sim_stats(t.s), "sm0.vws.window");
		REQUIRE(id >= 0);
		const struct stat_occ *o = stats_occ(sim_stats(t.s), (uint32_t)id);
		CHECK_EQ(o->cur, (uint64_t)v.nact);
		CHECK_EQ(o->max, 8);
		CHECK_EQ(tk_stat(&t, "vws.window_changes"), beta < 4 ? 1 : 0);
		tk_end(&t);
	}
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

/* ---- InterCL's two-level pool (vws.h) ------------------------------------ */

#include <stdio.h>
#include <string.h>

#include "sim/sim_int.h"

/* 4 CTAs x 2 warps on one SM (CTA k in slots 2k, 2k+1), IWL off (the window
 * is every warp), level 1 of 2 warps. */
static void pool_cfg(struct sim_cfg *c)
{
	tk_base_cfg(c);
	c->core.scheduler = SCHED_VWS;
	c->core.vws_iwl = false;
	c->core.vws_level1 = 2;
	c->core.warps_per_sm = 8;
	c->core.ctas_per_sm = 8;
}

static const char *why_of(struct tk *t, int slot)
{
	struct vws_warp_info wi;
	if (!inspect_vws_warp(t->s, 0, slot, &wi))
		return "?";
	return wi.level == 1 ? wi.why : "L2";
}

/* Put the pool in a given state: level-1 slots, slots whose next instruction
 * waits on a load (r1 pending), level-1 warps that stalled this cycle; then
 * run the demotion and promotion step and return the new level-1 mask. */
static uint64_t pool_step(struct sm *sm, struct sim *s, uint64_t level1, uint64_t waiting)
{
	for (int i = 0; i < 8; i++) {
		struct warp *w = &sm->w[i];
		w->in_pool = level1 >> i & 1;
		w->at_barrier = 0;
		w->ib_valid = 1;
		w->ibh.nsrc = 1;
		w->ibh.src[0] = 1;
		w->ibh.ndst = 0;
		memset(w->pend, 0, sizeof w->pend);
		if (waiting >> i & 1)
			w->pend[0] = 1ull << 1;
	}
	sm->vws->want_demote = waiting & level1;
	vws_refill(s, sm);
	uint64_t m = 0;
	for (int i = 0; i < 8; i++)
		m |= (uint64_t)sm->w[i].in_pool << i;
	return m;
}

TEST(vws_intercl_promotion_order)
{
	struct tk t;
	pool_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 64, 4, "alu 50; ld A[bx*64 + tid] -> r1; alu 1 <- r1"));
	while (t.s->st->ctas_dispatched < 4)
		sim_step(t.s, 1);
	struct sm *sm = &t.s->sms[0];
	for (int i = 0; i < 8; i++) {
		struct warp_info wi;
		REQUIRE(inspect_warp(t.s, 0, i, &wi));
		CHECK_EQ(wi.cta, i / 2);
	}
	struct warp saved[8];
	memcpy(saved, sm->w, sizeof saved);

	/* Same CTA first: CTA 2's slot 4 stalls; its sibling 5 is ready, CTA 1
	 * (predecessor) and CTA 3 (successor) too. */
	CHECK_EQ(pool_step(sm, t.s, 0x10, 0x10), 0x24);
	CHECK_STR(why_of(&t, 5), "same");
	CHECK_STR(why_of(&t, 2), "pred"); /* then the predecessor CTA */
	/* Predecessor before successor: both CTA 2 warps stall. */
	CHECK_EQ(pool_step(sm, t.s, 0x30, 0x30), 0x0c);
	CHECK_STR(why_of(&t, 2), "pred");
	CHECK_STR(why_of(&t, 3), "same");
	/* Successor when there is no predecessor: CTA 0 stalls. */
	CHECK_EQ(pool_step(sm, t.s, 0x03, 0x03), 0x0c);
	CHECK_STR(why_of(&t, 2), "succ");
	CHECK_STR(why_of(&t, 3), "same");
	/* Successor before an unrelated CTA: CTA 1 stalls, CTA 0 waits too. */
	CHECK_EQ(pool_step(sm, t.s, 0x0c, 0x0f), 0x30);
	CHECK_STR(why_of(&t, 4), "succ");
	/* Oldest when no CTA is related: CTA 3 stalls, CTA 2 waits. */
	CHECK_EQ(pool_step(sm, t.s, 0xc0, 0xf0), 0x03);
	CHECK_STR(why_of(&t, 0), "old");
	CHECK_STR(why_of(&t, 1), "same");
	/* Nobody could come in: the stalled warps stay in level 1. */
	CHECK_EQ(pool_step(sm, t.s, 0x03, 0xff), 0x03);
	/* Level 1 empty: the oldest ready warps, one CTA. */
	CHECK_EQ(pool_step(sm, t.s, 0x00, 0x03), 0x0c);
	CHECK_STR(why_of(&t, 2), "old");
	CHECK_STR(why_of(&t, 3), "same");
	/* A warp at a barrier is demoted and not promoted; CTA 1 keeps slot 3
	 * in level 1, CTA 0 waits on loads: the successor CTA 2 comes in. */
	sm->w[2].at_barrier = 1;
	sm->vws->want_demote = 0x04;
	vws_refill(t.s, sm);
	CHECK(!sm->w[2].in_pool);
	CHECK(sm->w[3].in_pool);
	CHECK_STR(why_of(&t, 4), "succ");
	CHECK_EQ(tk_stat(&t, "vws.demotions") >= 9, 1);

	memcpy(sm->w, saved, sizeof saved);
	tk_end(&t);
}

/* A whole run: each warp loads once and uses the value. Level 1 starts with
 * CTA 0; when its warps wait on their loads, CTA 1 (successor) comes in,
 * then CTA 2 and CTA 3; a warp comes back only once its load returned. */
TEST(vws_intercl_run_sequence)
{
	struct tk t;
	pool_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 64, 4, "ld A[bx*64 + tid] -> r1; alu 1 <- r1"));
	int seq[32], nseq = 0;
	char why[32][8];
	uint64_t last_at[8] = {0};
	bool was1[8] = {false};
	while (!sim_done(t.s)) {
		sim_step(t.s, 1);
		struct vws_info v;
		REQUIRE(inspect_vws(t.s, 0, &v));
		CHECK(v.level1 <= 2);
		for (int i = 0; i < 8; i++) {
			struct vws_warp_info wi;
			REQUIRE(inspect_vws_warp(t.s, 0, i, &wi));
			bool is1 = wi.level == 1;
			if (is1 && (!was1[i] || wi.promoted_at != last_at[i]) && nseq < 32) {
				struct warp_info w;
				REQUIRE(inspect_warp(t.s, 0, i, &w));
				/* never promoted while its next instruction waits on a load */
				CHECK(!(w.state == WS_STALLED && w.stall == STALL_SCOREBOARD && wi.promoted_at + 1 == sim_cycle(t.s)));
				seq[nseq] = i;
				snprintf(why[nseq], sizeof why[nseq], "%s", wi.why);
				nseq++;
				last_at[i] = wi.promoted_at;
			}
			was1[i] = is1;
		}
	}
	REQUIRE(nseq >= 8);
	static const char *const want_why[8] = {"old", "same", "succ", "same", "succ", "same", "succ", "same"};
	for (int k = 0; k < 8; k++) {
		CHECK_EQ(seq[k], k);
		CHECK_STR(why[k], want_why[k]);
	}
	uint64_t prom = tk_stat(&t, "vws.promote_same_cta") + tk_stat(&t, "vws.promote_pred_cta") +
			tk_stat(&t, "vws.promote_succ_cta") + tk_stat(&t, "vws.promote_oldest");
	CHECK_EQ(prom, (uint64_t)nseq);
	CHECK(tk_stat(&t, "vws.demotions") >= 6);
	CHECK_EQ(tk_stat(&t, "sim.warp_insts"), 8 * 3);
	tk_end(&t);
}

/* Step-vs-chunks-vs-run with the two-level pool working: 16 warps per SM,
 * level 1 of 4, the estimator on, two SMs over DRAM. */
TEST(vws_intercl_determinism)
{
	const char *body = "loop i 0 6; ld A[(tid*7 + i*129) % 4096] -> r1; ld B[bx*32 + lane] -> r2; alu 3 <- r1; "
			   "bar; alu 1 <- r2; end";
	uint64_t hash[3], cycles[3], prom[3];
	for (int mode = 0; mode < 3; mode++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.sms = 2;
		t.cfg.core.scheduler = SCHED_VWS;
		t.cfg.core.warps_per_sm = 16;
		t.cfg.core.ctas_per_sm = 8;
		t.cfg.core.threads_per_sm = 512;
		t.cfg.core.vws_level1 = 4;
		t.cfg.mem.model = MEM_DRAM;
		REQUIRE(tk_start(&t, 64, 24, body));
		events_log_all(sim_events(t.s), false);
		if (mode == 0)
			sim_step(t.s, UINT64_MAX);
		else
			while (!sim_done(t.s))
				sim_step(t.s, mode == 1 ? 1 : 37);
		hash[mode] = sim_state_hash(t.s);
		cycles[mode] = sim_cycle(t.s);
		prom[mode] = tk_stat(&t, "vws.promote_same_cta") + tk_stat(&t, "vws.promote_pred_cta") +
			     tk_stat(&t, "vws.promote_succ_cta") + tk_stat(&t, "vws.promote_oldest");
		CHECK(tk_stat(&t, "vws.demotions") > 0);
		tk_end(&t);
	}
	CHECK(prom[0] > 24);
	for (int m = 1; m < 3; m++) {
		CHECK_EQ(cycles[0], cycles[m]);
		CHECK_EQ(prom[0], prom[m]);
		CHECK(hash[0] == hash[m]);
	}
}
