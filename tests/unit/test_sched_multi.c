/*
 * test_sched_multi.c: several warp schedulers per SM (core.schedulers):
 * the slot partition, up to one issue per scheduler per cycle for every
 * policy, VWS's and TBAS's per-SM sets honoured by every scheduler, config
 * refusals, warp-register remapping's bank
 * subsets (rf.warp_reg_remap) and determinism (run = step = chunks).
 * The Fig. 10 schedule-hazard toy case is in test_rf.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/tbas.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

/* Independent ALU work: every warp could issue every cycle. */
static const char *alu_body = "loop i 0 6; alu 1 -> r(1 + i); end";

static uint64_t run_alu(int policy, int nsched, bool check_events)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.warps_per_sm = 8;
	t.cfg.core.scheduler = policy;
	t.cfg.core.schedulers = nsched;
	t.cfg.core.active_pool = 2;
	char *err = NULL;
	if (cfg_validate(&t.cfg, &err)) {
		test_fail(__FILE__, __LINE__, "config: %s", err);
		free(err);
		return 0;
	}
	if (!tk_start(&t, 256, 1, alu_body))
		return 0;
	CHECK_EQ(sim_step(t.s, 10000), SIM_STOP_DONE);
	uint64_t insts = tk_stat(&t, "sim.warp_insts");
	CHECK_EQ(insts, 8 * 7);
	if (nsched > 1) {
		uint64_t sum = 0;
		for (int k = 0; k < nsched; k++) {
			char name[32];
			snprintf(name, sizeof name, "core.sched%d.insts", k);
			uint64_t v = tk_stat(&t, name);
			CHECK_EQ(v, (uint64_t)(8 / nsched) * 7); /* its 8/S warps, 6 alu + exit each */
			sum += v;
		}
		CHECK_EQ(sum, insts);
	}
	if (check_events) {
		/* per cycle: at most one issue per scheduler, so at most S per SM */
		uint64_t cyc = UINT64_MAX;
		unsigned seen = 0, per = 0, maxper = 0;
		for (unsigned i = 0;; i++) {
			const struct event *e = tk_event(&t, EV_WARP_ISSUE, i);
			if (!e)
				break;
			if (e->cycle != cyc) {
				cyc = e->cycle;
				seen = 0;
				per = 0;
			}
			unsigned bit = 1u << (e->warp % nsched);
			CHECK(!(seen & bit));
			seen |= bit;
			per++;
			maxper = per > maxper ? per : maxper;
		}
		CHECK_EQ(maxper, (unsigned)nsched); /* the schedulers do issue together */
	}
	uint64_t cycles = sim_cycle(t.s);
	tk_end(&t);
	return cycles;
}

TEST(sched_multi_issue_per_scheduler_every_policy)
{
	static const int pol[] = {SCHED_LRR, SCHED_GTO, SCHED_TWO_LEVEL, SCHED_RMWS};
	for (unsigned p = 0; p < sizeof pol / sizeof pol[0]; p++) {
		uint64_t c1 = run_alu(pol[p], 1, true), c2 = run_alu(pol[p], 2, true), c4 = run_alu(pol[p], 4, true);
		/* 56 instructions: ~56 cycles with one issue per cycle, half with two, a quarter with four */
		CHECK(c1 >= 56);
		CHECK(c2 * 10 <= c1 * 6);
		CHECK(c4 * 10 <= c2 * 6);
	}
}

/* two_level keeps one pool of core.active_pool warps per scheduler. */
TEST(sched_multi_two_level_pool_per_scheduler)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.warps_per_sm = 8;
	t.cfg.core.scheduler = SCHED_TWO_LEVEL;
	t.cfg.core.schedulers = 2;
	t.cfg.core.active_pool = 1;
	REQUIRE(tk_start(&t, 256, 1, "ld A[tid] -> r1; alu 1 <- r1 -> r2"));
	CHECK_EQ(sim_step(t.s, 3), SIM_STOP_LIMIT);
	const struct sm *sm = &t.s->sms[0];
	int in[2] = {0, 0};
	for (int i = 0; i < 8; i++)
		in[i % 2] += sm->w[i].state == WSL_ACTIVE && sm->w[i].in_pool;
	CHECK_EQ(in[0], 1);
	CHECK_EQ(in[1], 1);
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "sim.warp_insts"), 8 * 3);
	tk_end(&t);
}

static char *cfg_err(void (*set)(struct sim_cfg *))
{
	struct sim_cfg c;
	cfg_defaults(&c);
	set(&c);
	char *err = NULL;
	if (cfg_validate(&c, &err) == 0)
		return NULL;
	return err;
}
static void set_s3(struct sim_cfg *c) { c->core.schedulers = 3; }
static void set_vws2(struct sim_cfg *c)
{
	c->core.schedulers = 2;
	c->core.scheduler = SCHED_VWS;
}
static void set_tbas4(struct sim_cfg *c)
{
	c->core.schedulers = 4;
	c->core.scheduler = SCHED_TBAS;
}
static void set_remap_banks(struct sim_cfg *c)
{
	c->core.schedulers = 4;
	c->rf.banks = 6;
	c->rf.wb_entries = 12;
	c->rf.warp_reg_remap = true;
}
static void set_ok(struct sim_cfg *c)
{
	c->core.schedulers = 4;
	c->core.scheduler = SCHED_RMWS;
	c->rf.warp_reg_remap = true;
}

TEST(sched_multi_config_refusals)
{
	char *e;
	CHECK_STR(e = cfg_err(set_s3), "core.schedulers: must be 1, 2 or 4, got 3");
	free(e);
	CHECK(cfg_err(set_vws2) == NULL); /* one set per SM, each scheduler issues from its warps in it */
	CHECK(cfg_err(set_tbas4) == NULL);
	CHECK_STR(e = cfg_err(set_remap_banks), "rf.warp_reg_remap: rf.banks (6) must be a multiple of core.schedulers (4)");
	free(e);
	CHECK(cfg_err(set_ok) == NULL);
}

/* rf.warp_reg_remap: with 16 banks and 4 schedulers each scheduler's warps
 * use 4 private banks; interleave spreads a warp over them (reg mod 4),
 * one_bank puts all of a warp's registers in one bank, consecutive warps of
 * a scheduler in consecutive banks. Without it, every warp uses all 16. */
TEST(rf_warp_reg_remap_bank_subsets)
{
	for (int spread = -1; spread < 2; spread++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.warps_per_sm = 16;
		t.cfg.core.threads_per_sm = 512;
		t.cfg.core.schedulers = 4;
		t.cfg.rf.kind = RF_RACETRACK;
		t.cfg.rf.warp_reg_remap = spread >= 0;
		t.cfg.rf.warp_reg_spread = spread < 0 ? 0 : spread;
		REQUIRE(tk_start(&t, 512, 1, "alu 1"));
		const struct sim *s = t.s;
		for (int w = 0; w < 16; w++) {
			int k = w % 4;
			uint32_t used = 0;
			for (unsigned r = 0; r < 32; r++) {
				unsigned b = rf_bank_of(s, w, r);
				used |= 1u << b;
				if (spread == 0)
					CHECK_EQ(b, (unsigned)(4 * k) + r % 4);
				if (spread == 1)
					CHECK_EQ(b, (unsigned)(4 * k + (w / 4) % 4));
				if (spread < 0)
					CHECK_EQ(b, r % 16);
			}
			CHECK_EQ(__builtin_popcount(used), spread < 0 ? 16 : spread == 0 ? 4 : 1);
		}
		/* every (bank, row) holds at most one warp register */
		for (int w = 0; w < 16; w++)
			for (unsigned r = 0; r < 32; r++)
				for (int v = 0; v <= w; v++)
					for (unsigned q = 0; q < 32; q++)
						if ((v < w || q < r) && rf_bank_of(s, w, r) == rf_bank_of(s, v, q) &&
						    rf_row_of(s, w, r) == rf_row_of(s, v, q)) {
							CHECK(false);
							q = 32;
							v = w + 1;
							r = 32;
						}
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		tk_end(&t);
	}
}

/* Dual/Quad RMWS on racetrack: identical results run in one go, per cycle
 * and in chunks; without warp-register remapping the schedulers collide on
 * banks (rf.schedule_hazards > 0), with it they never do. */
TEST(sched_multi_rmws_step_vs_run_and_hazards)
{
	const char *body = "loop i 0 6; ld A[(tid*7 + i*129) % 4096] -> r(1 + i % 4); alu 3 <- r1, r2 -> r5; "
			   "alu 2 <- r5, r3 -> r6; alu 1 <- r6, r2, r4 -> r7; st A[tid + i*64] <- r7; end";
	for (int ns = 2; ns <= 4; ns += 2)
		for (int remap = 0; remap < 2; remap++) {
			uint64_t hash[3], cycles[3], hz[3];
			for (int mode = 0; mode < 3; mode++) {
				struct tk t;
				tk_base_cfg(&t.cfg);
				t.cfg.core.sms = 2;
				t.cfg.l2.banks = 2;
				t.cfg.core.warps_per_sm = 16;
				t.cfg.core.threads_per_sm = 1024;
				t.cfg.core.schedulers = ns;
				t.cfg.core.scheduler = SCHED_RMWS;
				t.cfg.rf.kind = RF_RACETRACK;
				t.cfg.rf.warp_reg_remap = remap;
				REQUIRE(tk_start(&t, 256, 8, body));
				events_log_all(sim_events(t.s), false);
				tk_run_mode(t.s, mode);
				hash[mode] = sim_state_hash(t.s);
				cycles[mode] = sim_cycle(t.s);
				hz[mode] = tk_stat(&t, "rf.schedule_hazards");
				CHECK_EQ(tk_stat(&t, "sim.warp_insts"), 8 * 8 * (6 * 5 + 1));
				tk_end(&t);
			}
			CHECK_EQ(cycles[0], cycles[1]);
			CHECK_EQ(cycles[0], cycles[2]);
			CHECK_EQ(hz[0], hz[1]);
			CHECK_EQ(hz[0], hz[2]);
			CHECK(hash[0] == hash[1]);
			CHECK(hash[0] == hash[2]);
			if (remap)
				CHECK_EQ(hz[0], 0);
			else
				CHECK(hz[0] > 0);
		}
}

/* VWS and TBAS with several schedulers: one set per SM (VWS's window, TBAS's
 * running set); each scheduler issues only its own warps inside it, the
 * schedulers issue together, and the kernel completes. Checked cycle by
 * cycle: a warp that issued was in the set the cycle's picks saw (VWS:
 * sm->vws_mask; TBAS: the running set before or after the cycle, since a
 * launch or an exit in the cycle may change it). */
static void set_policy_run(int policy, int nsched)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.warps_per_sm = 8;
	t.cfg.core.scheduler = policy;
	t.cfg.core.schedulers = nsched;
	t.cfg.core.vws_nact = 4;     /* the window: the 4 oldest warps */
	t.cfg.core.tbas_running = 2; /* the running set: 2 warps of one batch */
	char *err = NULL;
	if (cfg_validate(&t.cfg, &err)) {
		test_fail(__FILE__, __LINE__, "config: %s", err);
		free(err);
		return;
	}
	/* the load stalls the set's warps, so greedy-then-oldest would pick a
	 * younger warp outside it if the set were not honoured */
	REQUIRE(tk_start(&t, 128, 2, "ld A[tid + bx*bdx] -> r1; alu 1 <- r1 -> r2; alu 1 -> r3; alu 1 -> r4"));
	const struct sm *sm = &t.s->sms[0];
	unsigned maxper = 0, n_issued = 0, outside = 0, sched_seen = 0;
	for (int guard = 0; guard < 10000 && !sim_done(t.s); guard++) {
		uint64_t pre = policy == SCHED_TBAS ? tbas_running_mask(t.s, sm) : 0;
		uint64_t before = tk_count(&t, EV_WARP_ISSUE), now = sim_cycle(t.s);
		sim_step(t.s, 1);
		uint64_t set = policy == SCHED_TBAS ? pre | tbas_running_mask(t.s, sm) : sm->vws_mask;
		if (policy == SCHED_TBAS) { /* the running set: at most tbas_running warps of one batch (CTA) */
			uint64_t run = tbas_running_mask(t.s, sm);
			CHECK(__builtin_popcountll(run) <= 2);
			int cta = -1;
			for (uint64_t m = run; m; m &= m - 1) {
				const struct warp *w = &sm->w[__builtin_ctzll(m)];
				int c = w->cta_slot >= 0 ? (int)sm->cta[w->cta_slot].cta : -2;
				CHECK(cta < 0 || c == cta);
				cta = c;
			}
		}
		unsigned per = 0;
		for (uint64_t i = before, after = tk_count(&t, EV_WARP_ISSUE); i < after; i++) {
			const struct event *e = tk_event(&t, EV_WARP_ISSUE, (unsigned)i); /* oldest first */
			REQUIRE(e && e->cycle == now);
			per++;
			n_issued++;
			sched_seen |= 1u << (e->warp % nsched);
			outside += !(set >> e->warp & 1);
		}
		maxper = per > maxper ? per : maxper;
	}
	CHECK(sim_done(t.s));
	CHECK_EQ(tk_stat(&t, "sim.warp_insts"), 8 * 5);
	CHECK_EQ(n_issued, 8 * 5);
	CHECK_EQ(outside, 0);
	CHECK_EQ(sched_seen, (1u << nsched) - 1); /* every scheduler issued */
	unsigned width = policy == SCHED_VWS ? 4 : 2;
	CHECK_EQ(maxper, (unsigned)nsched < width ? (unsigned)nsched : width); /* the schedulers issue together, within the set */
	for (int k = 0; nsched > 1 && k < nsched; k++) {
		char name[32];
		snprintf(name, sizeof name, "core.sched%d.insts", k);
		CHECK_EQ(tk_stat(&t, name), (uint64_t)(8 / nsched) * 5);
	}
	tk_end(&t);
}

TEST(sched_multi_vws_tbas_sets_per_sm)
{
	for (int S = 1; S <= 4; S *= 2) {
		set_policy_run(SCHED_VWS, S);
		set_policy_run(SCHED_TBAS, S);
	}
}

/* sched_mask (sched.c, a shifted bit pattern): scheduler k's slots are
 * exactly those with slot mod schedulers = k, below warps_per_sm, for every
 * scheduler count and warp count. */
TEST(sched_multi_mask_is_the_slot_partition)
{
	static struct sim s; /* only s.cfg is read */
	for (int S = 1; S <= 4; S *= 2)
		for (int n = 1; n <= 64; n++) {
			s.cfg.core.schedulers = S;
			s.cfg.core.warps_per_sm = n;
			uint64_t all = 0;
			for (int k = 0; k < S; k++) {
				uint64_t m = sched_mask(&s, k), want = 0;
				for (int i = k; i < n; i += S)
					want |= 1ull << i;
				if (m != want) {
					test_fail(__FILE__, __LINE__, "schedulers %d, %d warps, scheduler %d: %#llx, want %#llx", S,
						  n, k, (unsigned long long)m, (unsigned long long)want);
					return;
				}
				CHECK_EQ(all & m, 0);
				all |= m;
			}
		}
}
