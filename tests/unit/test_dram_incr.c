/*
 * test_dram_incr.c: the DRAM controller's incremental state (issue 41) is
 * kept in step with what it is derived from. Each test drives a random mix
 * of reads and writes over few banks and rows (hits, misses, conflicts,
 * write drains) under several controller settings, one core cycle at a time,
 * and after every cycle recomputes the derived state from scratch:
 *
 *   bank want cache (struct dram_bank want_*): the command, request and
 *   bank-side earliest cycle must equal a fresh bank_want() (dram_want_check);
 *   the core cycle of the next channel step (struct dram next_core): the
 *   minimum over the active channels (dram_next_check).
 *
 * A missed invalidation (a command to a bank, a read/write mode change, a
 * refresh falling due) leaves a stale entry that the check reports.
 */
#include <stdio.h>

#include "dram/dram_int.h"
#include "test_dram_harness.h"

struct incr_case {
	const char *name;
	void (*tweak)(struct sim_cfg *c);
};

static void t_none(struct sim_cfg *c) { (void)c; }
static void t_fcfs(struct sim_cfg *c) { c->dram.scheduler = DRAM_SCHED_FCFS; }
static void t_cap(struct sim_cfg *c) { c->dram.row_hit_cap = 2; }
static void t_closed(struct sim_cfg *c) { c->dram.page_policy = DRAM_PAGE_CLOSED; }
static void t_timeout(struct sim_cfg *c)
{
	c->dram.page_policy = DRAM_PAGE_TIMEOUT;
	c->dram.page_timeout = 6;
}
static void t_ref_all(struct sim_cfg *c) { c->dram.refresh = DRAM_REFRESH_ALL_BANK; }
static void t_ref_bank(struct sim_cfg *c) { c->dram.refresh = DRAM_REFRESH_PER_BANK; }
static void t_drain(struct sim_cfg *c)
{
	c->dram.write_high = 6;
	c->dram.write_low = 2;
}
static void t_full_idle(struct sim_cfg *c)
{
	c->dram.write_drain = DRAM_DRAIN_FULL_OR_IDLE;
	c->dram.write_queue = 8;
	c->dram.write_high = 8;
	c->dram.write_low = 3;
}
static void t_per_bank(struct sim_cfg *c)
{
	c->dram.queue_model = DRAM_QUEUE_PER_BANK;
	c->dram.cmd_queue = 3;
	c->dram.write_drain = DRAM_DRAIN_FULL_OR_IDLE;
	c->dram.write_low = 3;
}
static void t_dual(struct sim_cfg *c) { c->dram.dual_cmd = true; }
static void t_bursts(struct sim_cfg *c) /* a line takes 4 column commands */
{
	c->l2.line = 256;
	c->l1.line = 256;
}

static void t_dual_cap(struct sim_cfg *c)
{
	c->dram.dual_cmd = true;
	c->dram.row_hit_cap = 2;
}
static void t_dual_per_bank(struct sim_cfg *c)
{
	t_per_bank(c);
	c->dram.dual_cmd = true;
	c->dram.row_hit_cap = 3;
	c->dram.refresh = DRAM_REFRESH_PER_BANK;
}
static void t_dual_closed(struct sim_cfg *c)
{
	c->dram.dual_cmd = true;
	c->dram.page_policy = DRAM_PAGE_CLOSED;
	c->dram.refresh = DRAM_REFRESH_ALL_BANK;
}

static const struct incr_case cases[] = {
	{"frfcfs", t_none},        {"fcfs", t_fcfs},          {"row_hit_cap", t_cap},       {"closed", t_closed},
	{"timeout", t_timeout},    {"refresh all", t_ref_all}, {"refresh per bank", t_ref_bank},
	{"write drain", t_drain},  {"full_or_idle", t_full_idle}, {"per_bank", t_per_bank}, {"dual_cmd", t_dual},
	{"4 bursts a line", t_bursts}, {"dual_cmd + row_hit_cap", t_dual_cap}, {"dual_cmd per_bank", t_dual_per_bank},
	{"dual_cmd closed", t_dual_closed},
};

/* xorshift: the traffic is the same on every run */
static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 11);
}

/* Runs case k with n requests; returns the first cycle the derived state
 * disagreed (and where), 0 when it never did. */
static uint64_t run_case(const struct incr_case *k, uint32_t n, int *bank_out, bool exhaustive, uint64_t *done)
{
	struct dh h;
	dh_cfg(&h.cfg);
	k->tweak(&h.cfg);
	if (!dh_init(&h))
		return 1;
	dram_set_exhaustive(h.d, exhaustive);
	uint64_t seed = 0x9e3779b97f4a7c15ull, bad = 0;
	uint32_t i = 0;
	uint64_t next_addr = 0;
	bool next_w = false;
	bool have = false;
	while (h.now < 200000) {
		dh_pop(&h);
		for (;;) {
			if (!have && i < n) {
				uint32_t r = rnd(&seed);
				/* 3 banks x 3 rows x 4 columns: many hits, misses and conflicts */
				next_addr = dh_addr(&h, 0, r % 3, (r >> 4) % 3, ((r >> 8) % 4) * 8);
				next_w = (r >> 12) % 4 == 0;
				have = true;
			}
			if (!have || !dram_can_accept(h.d, next_addr, next_w) || (rnd(&seed) % 4 == 0))
				break;
			dram_enqueue(h.d, next_addr, next_w, i++);
			have = false;
		}
		int b = dram_want_check(h.d);
		if (!dram_next_check(h.d)) {
			*bank_out = -1; /* the channels' next step */
			bad = h.now ? h.now : 1;
			break;
		}
		if (b >= 0) {
			*bank_out = b;
			bad = h.now ? h.now : 1;
			break;
		}
		if (i == n && !have && dram_idle(h.d))
			break;
		h.now++;
	}
	CHECK(i == n);
	CHECK(dram_idle(h.d));
	for (uint32_t j = 0; j < n && j < H_MAX_TAGS; j++)
		done[j] = h.done_at[j];
	done[n] = dh_stat(&h, "dram.activates") << 32 | dh_stat(&h, "dram.precharges");
	dh_fini(&h);
	return bad;
}

TEST(dram_incremental_state_follows_the_controller)
{
	for (size_t k = 0; k < ARRAY_LEN(cases); k++) {
		int bank = -1;
		uint64_t done[401];
		uint64_t at = run_case(&cases[k], 400, &bank, false, done);
		if (at)
			test_fail(__FILE__, __LINE__, "%s: %s%d is stale at cycle %llu", cases[k].name,
				  bank < 0 ? "next_core (channel step due) " : "the cached want of bank ", bank,
				  (unsigned long long)at);
	}
}

/* dual_cmd skips the second scan of a cycle when no command of the other
 * kind was legal before the first issued (dram_sched.c
 * second_scan_may_issue). With tRTP = 0 a read's own bank may precharge in
 * the read's cycle: the shortcut must not apply. Bank 0 has row 1 open long
 * past tRAS; B (row 1, a hit) and C (row 2) arrive at T0. B's RD issues at
 * T0 and, on two buses, C's PRE in the same cycle: C's data ends at
 * T0 + tRP + tRCD + tCL + tBL; on one bus a cycle later. */
TEST(dram_dual_cmd_precharge_beside_the_read_at_trtp_0)
{
	for (int dual = 0; dual < 2; dual++) {
		struct dh h;
		dh_cfg(&h.cfg);
		h.cfg.dram.dual_cmd = dual;
		h.cfg.dram.timing.tRTP = 0;
		REQUIRE(dh_init(&h));
		const struct dram_timing *t = &h.cfg.dram.timing;
		uint64_t tbl = (uint64_t)(h.cfg.dram.burst / h.cfg.dram.data_rate), t0 = 4 * (uint64_t)t->tRC;
		dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0); /* opens row 1 */
		dh_run(&h, t0, true);
		CHECK_EQ(h.ndone, 1);
		dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 8), false, 1); /* B */
		dram_enqueue(h.d, dh_addr(&h, 0, 0, 2, 0), false, 2); /* C */
		dh_run(&h, 0, true);
		CHECK_EQ(h.done_at[1], t0 + (uint64_t)t->tCL + tbl);
		CHECK_EQ(h.done_at[2], t0 + (dual ? 0 : 1) + (uint64_t)t->tRP + (uint64_t)t->tRCD + (uint64_t)t->tCL + tbl);
		dh_fini(&h);
	}
}

/* The shortcuts (the want cache, the scan's pruning, the second scan of
 * dual_cmd skipped when nothing of the other kind was legal) against the
 * exhaustive scheduler: the same traffic completes every request in the
 * same cycle, with as many ACTs and PREs. */
TEST(dram_shortcuts_match_the_exhaustive_scheduler)
{
	for (size_t k = 0; k < ARRAY_LEN(cases); k++) {
		int bank = -1;
		static uint64_t fast[1201], slow[1201];
		run_case(&cases[k], 1200, &bank, false, fast);
		run_case(&cases[k], 1200, &bank, true, slow);
		for (uint32_t j = 0; j <= 1200; j++)
			if (fast[j] != slow[j]) {
				test_fail(__FILE__, __LINE__, "%s: %s %u: %llu with the shortcuts, %llu without", cases[k].name,
					  j < 1200 ? "request" : "ACT<<32|PRE", j, (unsigned long long)fast[j],
					  (unsigned long long)slow[j]);
				break;
			}
	}
}
