/*
 * test_ccws.c: Cache-Conscious Wavefront Scheduling (ccws.h): a lost-locality
 * hit raises the warp's score by the formula's amount and the score decays
 * one point a cycle; the cutoff holds back the loads of the lowest-ranked
 * warps and releases them as the score decays (cycle-exact); with nothing
 * lost the schedule is GTO's; run / step / chunks / rewind give one state.
 */
#include <stdlib.h>
#include <string.h>

#include "debug/inspect.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "debug/snapshot.h"
#include "test.h"

static void ccws_cfg(struct sim_cfg *c)
{
	tk_base_cfg(c);
	c->core.scheduler = SCHED_CCWS;
}

static int lls(struct tk *t, int slot)
{
	struct ccws_warp_info wi;
	if (!inspect_ccws_warp(t->s, 0, slot, &wi) || !wi.live)
		return -1;
	return wi.lls;
}

/* One warp, a one-line L1: ld X misses; ld Y waits for X's fill, then
 * replaces X (X enters warp 0's VTA); ld X misses again and finds X in the
 * VTA: lost locality. Three instructions issued, one live warp (C = 100):
 * the increment is floor(1 x K x 100 / 3). */
static void vta_hit_case(int kcap, int want, int rate)
{
	struct tk t;
	ccws_cfg(&t.cfg);
	t.cfg.l1.sets = 1;
	t.cfg.l1.ways = 1;
	t.cfg.core.ccws_kcap = kcap;
	t.cfg.core.ccws_decay = rate;
	REQUIRE(tk_start(&t, 32, 1, "ld A[lane] -> r1; ld A[64 + lane] -> r2; ld A[lane] -> r3; alu 1 <- r3; alu 400"));
	CHECK_EQ(lls(&t, 0), -1); /* before the CTA launches */
	while (!sim_done(t.s) && tk_stat(&t, "ccws.lost_locality") == 0) {
		sim_step(t.s, 1);
		if (tk_stat(&t, "ccws.lost_locality") == 0)
			CHECK(lls(&t, 0) == -1 || lls(&t, 0) == 100); /* the base score until then */
	}
	REQUIRE(tk_stat(&t, "ccws.lost_locality") == 1);
	struct warp_info w;
	REQUIRE(inspect_warp(t.s, 0, 0, &w));
	CHECK_EQ(w.insts, 3);
	CHECK_EQ(tk_stat(&t, "ccws.vta_inserts"), 1);
	struct ccws_warp_info cw;
	REQUIRE(inspect_ccws_warp(t.s, 0, 0, &cw));
	CHECK_EQ(cw.hits, 1);
	CHECK_EQ(cw.vta_used, 1);
	CHECK(!cw.throttled); /* the only warp: always admitted */
	/* The hit set the score to `want` in the cycle just simulated, which
	 * also took its decay point (ccws.h). */
	CHECK_EQ(cw.lls, want - rate);
	/* `rate` points a cycle down to the base (the warp waits on r3, then runs alu 400). */
	sim_step(t.s, 10);
	CHECK_EQ(lls(&t, 0), want - 11 * rate);
	int left = want - 11 * rate - 100, steps = (left + rate - 1) / rate;
	sim_step(t.s, (uint64_t)(steps - 1));
	CHECK_EQ(lls(&t, 0), 100 + left - (steps - 1) * rate);
	CHECK(lls(&t, 0) > 100);
	sim_step(t.s, 1);
	CHECK_EQ(lls(&t, 0), 100);
	sim_step(t.s, 5);
	CHECK_EQ(lls(&t, 0), 100);
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "ccws.lost_locality"), 1);
	CHECK_EQ(tk_stat(&t, "ccws.throttle_changes"), 0);
	tk_end(&t);
}

TEST(ccws_vta_hit_raises_lls)
{
	vta_hit_case(0, 100 + 1 * 8 * 100 / 3, 1); /* no cap: 366 */
	vta_hit_case(8, 1 * 8 * 100 / 3, 1);       /* capped at max(B, 1 x 8 x 100 / 3) = 266 */
	vta_hit_case(0, 100 + 1 * 8 * 100 / 3, 7); /* core.ccws_decay = 7: 7 points a cycle */
}

/* Four warps (one CTA) on one SM; each runs `alu 30` then a load. Right
 * after launch a lost-locality hit is injected for warp 0 through the L1
 * hooks (a line it allocated is replaced, then it misses on it); the
 * `alu 400` keeps every warp live (the cutoff counts live warps). With
 * K_throttle = 1, no cap, one hit and one instruction issued, warp 0's LLS
 * becomes 100 + 1 x 1 x 400 / 1 = 500 >= C = 400: it alone is admitted and
 * warps 1-3 may not issue their loads. Decay admits warp 1 after 101 cycles
 * (399 + 100), warp 2 after 201, warp 3 after 301 (older first among equal
 * scores). */
/* How many of the four warps are admitted dt cycles after the hit. */
static int admitted_at(int rate, int dt)
{
	int sum = 500 - rate * dt < 100 ? 100 : 500 - rate * dt, adm = 1;
	while (adm < 4 && sum < 400) {
		sum += 100;
		adm++;
	}
	return adm;
}

static void cutoff_case(int rate)
{
	struct tk t;
	ccws_cfg(&t.cfg);
	t.cfg.core.ccws_decay = rate;
	t.cfg.core.scheduler = SCHED_CCWS;
	t.cfg.core.ccws_kthrottle = 1;
	t.cfg.core.ccws_kcap = 0;
	REQUIRE(tk_start(&t, 128, 1, "alu 30; ld A[tid] -> r1; alu 1 <- r1; alu 400"));
	while (t.s->st->ctas_dispatched < 1)
		sim_step(t.s, 1);
	struct sm *sm = &t.s->sms[0];
	uint64_t insts = 0;
	for (int i = 0; i < 4; i++)
		insts += sm->w[i].insts;
	CHECK_EQ(insts, 1); /* warp 0 issued its alu in the launch cycle */
	uint64_t T = sim_cycle(t.s);
	/* Warp 0 allocated X in (set 0, way 0); the L1 replaces it; warp 0 misses on X. */
	const uint64_t X = 0x40000;
	struct cline *cl = cache_line(&sm->l1.c, 0, 0);
	struct cline saved = *cl;
	cl->valid = 1;
	cl->tag = X;
	ccws_on_fill(t.s, sm, 0, 0, 0);
	ccws_on_evict(t.s, sm, 0, 0);
	*cl = saved;
	CHECK(ccws_vta_has(t.s, sm, 0, X + 4));
	CHECK(!ccws_vta_has(t.s, sm, 1, X));
	ccws_on_load_miss(t.s, sm, 0, X + 4);
	CHECK_EQ(lls(&t, 0), 500);
	CHECK_EQ(lls(&t, 1), 100);
	/* The rule on warp 0's score max(100, 500 - rate x t) and three warps
	 * at 100: admitted while the running sum is below C = 400. The mask
	 * shrinks 3, 2, 1, 0 warps at the cycles it gives (T, T+101, T+201,
	 * T+301 at one point a cycle). */
	uint64_t at[4] = {0};
	int nat = 0;
	long held_sum = 0, thr_cyc = 0, adm_sum = 0;
	for (int dt = 0, prev = -1; dt < 1000; dt++) {
		int adm = admitted_at(rate, dt);
		if (4 - adm != prev && nat < 4)
			at[nat++] = (uint64_t)dt;
		prev = 4 - adm;
		held_sum += 4 - adm;
		thr_cyc += adm < 4;
	}
	REQUIRE(nat == 4);
	for (int dt = 0; dt < (int)at[3]; dt++)
		adm_sum += admitted_at(rate, dt);
	/* Warps allowed to load, per cycle: all 4 from the launch to T, then
	 * 1, 2, 3 until the last release (at one point a cycle 101 + 2 x 100
	 * + 3 x 100); the stat has counted that once the release is evaluated. */
	uint64_t L = sm->w[0].launch_cycle;
	while (sim_cycle(t.s) <= T + at[3])
		sim_step(t.s, 1);
	CHECK_EQ(tk_stat(&t, "ccws.admitted_warp_cycles"), 4 * (T - L) + (uint64_t)adm_sum);
	if (rate == 1)
		CHECK_EQ(adm_sum, 1 * 101 + 2 * 100 + 3 * 100);
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	REQUIRE(tk_count(&t, EV_CCWS_THROTTLE) == 4);
	static const uint64_t mask[4] = {0xe, 0xc, 0x8, 0};
	for (unsigned k = 0; k < 4; k++) {
		const struct event *e = tk_event(&t, EV_CCWS_THROTTLE, k);
		REQUIRE(e);
		CHECK_EQ(e->cycle, T + at[k]);
		CHECK_EQ(e->a, 3 - (int)k);
		CHECK_EQ((uint64_t)e->b, mask[k]);
	}
	CHECK_EQ(tk_stat(&t, "ccws.throttle_changes"), 4);
	/* Held warp-cycles, from the same schedule (at one point a cycle: 3
	 * warps for 101 cycles, 2 for 100, 1 for 100; one or more for 301). */
	CHECK_EQ(tk_stat(&t, "ccws.held_warp_cycles"), (uint64_t)held_sum);
	CHECK_EQ(tk_stat(&t, "ccws.throttled_cycles"), (uint64_t)thr_cyc);
	if (rate == 1) {
		CHECK_EQ(held_sum, 3 * 101 + 2 * 100 + 1 * 100);
		CHECK_EQ(at[3], 301);
	}
	/* Each warp's load reached the L1 only once the warp was admitted;
	 * warp 0 (never held back) long before. */
	for (int w = 0; w < 4; w++) {
		const struct event *e = NULL;
		for (unsigned n = 0; (e = tk_event(&t, EV_L1_ACCESS, n)) && e->warp != w; n++)
			;
		REQUIRE(e);
		if (w == 0)
			CHECK(e->cycle < T + 40);
		else
			CHECK(e->cycle >= T + at[w] && e->cycle < T + at[w] + 10);
	}
	CHECK_EQ(tk_stat(&t, "sim.warp_insts"), 4 * 5); /* exit included */
	/* The SM is empty now. A warp launched 1000 cycles later (as the next
	 * kernel's would be) starts a new interval: the empty stretch counts
	 * as neither held nor admitted. */
	REQUIRE(sm->nwarps_active == 0);
	uint64_t held0 = tk_stat(&t, "ccws.held_warp_cycles"), adm0 = tk_stat(&t, "ccws.admitted_warp_cycles");
	sm->ccws->adm = sm->ccws->thr = 0x3; /* as a last evaluation with warps about to exit leaves them */
	t.s->st->now += 1000;
	ccws_on_launch(t.s, sm, 0);
	ccws_eval(t.s, sm);
	CHECK_EQ(tk_stat(&t, "ccws.held_warp_cycles"), held0);
	CHECK_EQ(tk_stat(&t, "ccws.admitted_warp_cycles"), adm0);
	tk_end(&t);
}

TEST(ccws_cutoff_throttles_lowest_ranked_loads)
{
	cutoff_case(1);
	cutoff_case(3); /* core.ccws_decay = 3 */
}

/* A working set that fits: 2 lines read by every warp, an 8 x 4 L1. No line
 * a warp owns is replaced, so no VTA entry, no lost locality, no throttle:
 * the same issue sequence, cycles and hits as GTO. */
static void tiny_run(int sched, uint64_t *cycles, uint64_t *hits, uint64_t *issues, uint64_t *sig)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.sms = 2;
	t.cfg.core.scheduler = sched;
	REQUIRE(tk_start(&t, 64, 6, "loop i 0 8; ld A[(i % 2)*32 + lane] -> r1; alu 2 <- r1; end"));
	CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
	*cycles = sim_cycle(t.s);
	*hits = tk_stat(&t, "l1.hits");
	*issues = tk_count(&t, EV_WARP_ISSUE);
	uint64_t h = 0;
	const struct event *e;
	for (unsigned n = 0; (e = tk_event(&t, EV_WARP_ISSUE, n)); n++)
		h = h * 1000003 + e->cycle * 131 + (uint64_t)e->sm * 17 + (uint64_t)e->warp;
	*sig = h;
	if (sched == SCHED_CCWS) {
		CHECK_EQ(tk_stat(&t, "ccws.vta_inserts"), 0);
		CHECK_EQ(tk_stat(&t, "ccws.lost_locality"), 0);
		CHECK_EQ(tk_count(&t, EV_CCWS_THROTTLE), 0);
	}
	tk_end(&t);
}

TEST(ccws_tiny_working_set_equals_gto)
{
	uint64_t c[2], h[2], n[2], sig[2];
	tiny_run(SCHED_GTO, &c[0], &h[0], &n[0], &sig[0]);
	tiny_run(SCHED_CCWS, &c[1], &h[1], &n[1], &sig[1]);
	CHECK_EQ(n[0], 6 * 2 * (8 * 2 + 1));
	CHECK_EQ(n[0], n[1]);
	CHECK_EQ(c[0], c[1]);
	CHECK_EQ(h[0], h[1]);
	CHECK(sig[0] == sig[1]);
}

/* Eight warps per SM stream over 8 lines each, repeatedly, through a 32-line
 * L1: intra-warp locality is lost and the cutoff holds warps back. */
static const char *const thrash = "loop i 0 6; loop j 0 8; ld A[bx*512 + (tid/32)*256 + j*32 + (tid%32)] -> r1; "
				  "alu 1 <- r1; end; end";

static void thrash_cfg(struct sim_cfg *c)
{
	ccws_cfg(c);
	c->core.sms = 2;
	c->mem.model = MEM_DRAM;
}

TEST(ccws_thrashing_kernel_throttles)
{
	struct tk t;
	thrash_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 64, 8, thrash));
	CHECK_EQ(sim_step(t.s, 10000000), SIM_STOP_DONE);
	CHECK(tk_stat(&t, "ccws.vta_inserts") > 0);
	CHECK(tk_stat(&t, "ccws.lost_locality") > 0);
	CHECK(tk_stat(&t, "ccws.throttle_changes") > 0);
	CHECK_EQ(tk_stat(&t, "sim.warp_insts"), 8 * 2 * (6 * 8 * 2 + 1));
	tk_end(&t);
}

TEST(ccws_determinism_run_step_chunks_rewind)
{
	uint64_t hash[3], cycles[3], changes[3];
	for (int mode = 0; mode < 3; mode++) {
		struct tk t;
		thrash_cfg(&t.cfg);
		REQUIRE(tk_start(&t, 64, 8, thrash));
		events_log_all(sim_events(t.s), false);
		tk_run_mode(t.s, mode);
		hash[mode] = sim_state_hash(t.s);
		cycles[mode] = sim_cycle(t.s);
		changes[mode] = tk_stat(&t, "ccws.throttle_changes");
		tk_end(&t);
	}
	CHECK(changes[0] > 0);
	for (int m = 1; m < 3; m++) {
		CHECK_EQ(cycles[0], cycles[m]);
		CHECK_EQ(changes[0], changes[m]);
		CHECK(hash[0] == hash[m]);
	}
	/* Rewound: run to the end with snapshots, go back to points along the
	 * way, compare with a straight run stopped there, then finish again. */
	struct tk a, b;
	thrash_cfg(&a.cfg);
	thrash_cfg(&b.cfg);
	REQUIRE(tk_start(&a, 64, 8, thrash));
	REQUIRE(tk_start(&b, 64, 8, thrash));
	events_log_all(sim_events(a.s), false);
	events_log_all(sim_events(b.s), false);
	sim_snapshots_enable(b.s, 64u << 20);
	sim_step(b.s, UINT64_MAX);
	CHECK(sim_state_hash(b.s) == hash[0]);
	char *err = NULL;
	uint64_t at[] = {cycles[0] / 5, cycles[0] / 3, cycles[0] / 2 + 7};
	for (unsigned i = 0; i < 3; i++) {
		sim_step(a.s, at[i] - sim_cycle(a.s));
		CHECK_EQ(sim_goto(b.s, at[i], &err), 0);
		CHECK_EQ(sim_cycle(b.s), at[i]);
		CHECK(sim_state_hash(a.s) == sim_state_hash(b.s));
	}
	sim_step(b.s, UINT64_MAX);
	CHECK(sim_state_hash(b.s) == hash[0]);
	free(err);
	tk_end(&a);
	tk_end(&b);
}

/* Two schedulers per SM (core.schedulers = 2): each runs GTO on its own
 * warps under the SM's one cutoff; run and step agree. */
TEST(ccws_two_schedulers_share_the_cutoff)
{
	uint64_t hash[2], cycles[2], changes[2];
	for (int mode = 0; mode < 2; mode++) {
		struct tk t;
		thrash_cfg(&t.cfg);
		t.cfg.core.schedulers = 2;
		REQUIRE(tk_start(&t, 64, 8, thrash));
		events_log_all(sim_events(t.s), false);
		tk_run_mode(t.s, mode);
		hash[mode] = sim_state_hash(t.s);
		cycles[mode] = sim_cycle(t.s);
		changes[mode] = tk_stat(&t, "ccws.throttle_changes");
		CHECK_EQ(tk_stat(&t, "sim.warp_insts"), 8 * 2 * (6 * 8 * 2 + 1));
		tk_end(&t);
	}
	CHECK(changes[0] > 0);
	CHECK_EQ(changes[0], changes[1]);
	CHECK_EQ(cycles[0], cycles[1]);
	CHECK(hash[0] == hash[1]);
}

/* The lost-locality test is made on true misses only: a load that merges
 * into an MSHR entry already fetching its line (inflight) is not a VTA
 * probe, a load that misses is; a bypassed load and a hit are neither. The
 * accesses are fired at the L1's probe point as l1.c does. */
TEST(ccws_only_true_misses_probe_the_vta)
{
	struct tk t;
	ccws_cfg(&t.cfg);
	t.cfg.core.ccws_kcap = 0;
	REQUIRE(tk_start(&t, 128, 1, "alu 30; ld A[tid] -> r1; alu 1 <- r1; alu 400"));
	while (t.s->st->ctas_dispatched < 1)
		sim_step(t.s, 1);
	struct sm *sm = &t.s->sms[0];
	const uint64_t X = 0x40000;
	struct cline *cl = cache_line(&sm->l1.c, 0, 0);
	struct cline saved = *cl;
	cl->valid = 1;
	cl->tag = X;
	ccws_on_fill(t.s, sm, 0, 0, 0);
	ccws_on_evict(t.s, sm, 0, 0);
	*cl = saved;
	REQUIRE(ccws_vta_has(t.s, sm, 0, X));
	struct probe_access a = {.sm = sm, .unit = 0, .from_sm = 0, .warp = 0, .addr = X, .op = PRB_LOAD};
	a.inflight = true; /* merged into the pending miss */
	probe_fire(&t.s->probes, t.s, PP_L1_ACCESS, &a);
	a.inflight = false;
	a.hit = true;
	probe_fire(&t.s->probes, t.s, PP_L1_ACCESS, &a);
	a.hit = false;
	a.bypassed = true;
	probe_fire(&t.s->probes, t.s, PP_L1_ACCESS, &a);
	CHECK_EQ(tk_stat(&t, "ccws.lost_locality"), 0);
	CHECK_EQ(lls(&t, 0), 100);
	a.bypassed = false; /* a plain miss: one hit, one instruction issued, C = 4 x 100 */
	probe_fire(&t.s->probes, t.s, PP_L1_ACCESS, &a);
	CHECK_EQ(tk_stat(&t, "ccws.lost_locality"), 1);
	CHECK_EQ(lls(&t, 0), 100 + 1 * t.cfg.core.ccws_kthrottle * 400 / 1);
	tk_end(&t);
}

/* The cutoff rule on scores set by hand: live warps by score, highest
 * first, are admitted while the running sum is below C = live x B; the
 * warp that reaches C is admitted, every later one is held. Scores 250,
 * 100, 100, 100 (sum 550 >= 400 at the third warp): warp 3, the youngest
 * base warp, alone is held. Scores 400, 100, 100, 100: warp 0 reaches C
 * alone, 1-3 held. All at base: nobody held. */
TEST(ccws_cutoff_holds_exactly_the_warps_past_it)
{
	struct tk t;
	ccws_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 128, 1, "alu 30; ld A[tid] -> r1; alu 1 <- r1; alu 400"));
	while (t.s->st->ctas_dispatched < 1)
		sim_step(t.s, 1);
	struct sm *sm = &t.s->sms[0];
	struct ccws_sm *c = sm->ccws;
	const int B = t.cfg.core.ccws_base_score;
	static const int sc[3][4] = {{250, 100, 100, 100}, {400, 100, 100, 100}, {100, 100, 100, 100}};
	static const uint64_t held[3] = {0x8, 0xe, 0};
	for (int k = 0; k < 3; k++) {
		for (int w = 0; w < 4; w++) {
			c->score[w] = sc[k][w] * B / 100;
			c->score_at[w] = sim_cycle(t.s);
		}
		ccws_eval(t.s, sm);
		CHECK_EQ(c->cutoff, 4 * B);
		CHECK_EQ(c->thr, held[k]);
	}
	tk_end(&t);
}
