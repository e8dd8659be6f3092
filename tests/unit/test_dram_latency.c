/*
 * test_dram_latency.c: l2.dram_latency, the fixed latency stage between the
 * L2 and the DRAM controller (GPGPU-Sim's -dram_latency; l2.c). An isolated
 * L2 miss costs exactly the configured latency more (DRAM and core on one
 * clock, so no DRAM-clock rounding), as does the miss split's dram part;
 * the stage's stats count it; with 0 the stage and its stats do not exist;
 * a burst that fills the DRAM's queue waits at the stage's exit (blocked);
 * stepping, chunks and one go agree, and rewinding restores the stage.
 */
#include <stdlib.h>

#include "debug/snapshot.h"
#include "sim/config.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

#define BURST "loop i 0 6; ld A[(tid*7 + i*129 + bx*33) % 4096] -> r1; alu 3 <- r1; st B[tid + i*64]; end"

/* One SM, no L1 (every load reaches the L2), the DRAM model on the core's
 * clock. */
static void dram_cfg(struct sim_cfg *c, int lat)
{
	tk_base_cfg(c);
	c->mem.model = MEM_DRAM;
	c->core.clock_mhz = 1000;
	c->dram.tck_ps = 1000;
	c->l1.enabled = false;
	c->l2.dram_latency = lat;
}

static bool stat_exists(struct tk *t, const char *name) { return stats_find(sim_stats_c(t->s), name) >= 0; }

/* One warp-wide load of one line: one L2 miss, one DRAM read. */
TEST(l2_dram_latency_adds_exactly_its_cycles_to_an_isolated_miss)
{
	static const int lats[] = {0, 1, 37, 100, 250};
	uint64_t base_total = 0, base_dram = 0, base_cycles = 0;
	for (unsigned i = 0; i < ARRAY_LEN(lats); i++) {
		struct tk t;
		dram_cfg(&t.cfg, lats[i]);
		REQUIRE(tk_start(&t, 32, 1, "ld A[lane] -> r1"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		uint64_t total = tk_stat(&t, "core.mem_latency_total"), dram = tk_stat(&t, "l2.miss_lat.conv.dram");
		CHECK_EQ(tk_stat(&t, "mem.reads"), 1);
		if (lats[i] == 0) {
			base_total = total;
			base_dram = dram;
			base_cycles = sim_cycle(t.s);
			CHECK(!stat_exists(&t, "l2.dram_stage.requests")); /* no stage: today's machine */
		} else {
			uint64_t L = (uint64_t)lats[i];
			CHECK_EQ(total, base_total + L);
			CHECK_EQ(dram, base_dram + L); /* the stage counts as memory time, not contention */
			CHECK_EQ(sim_cycle(t.s), base_cycles + L);
			CHECK_EQ(tk_stat(&t, "l2.dram_stage.requests"), 1);
			CHECK_EQ(tk_stat(&t, "l2.dram_stage.cycles"), L);
			CHECK_EQ(tk_stat(&t, "l2.dram_stage.blocked"), 0);
		}
		tk_end(&t);
	}
}

/* The stage delays requests on their way in, not replies: the DRAM takes
 * the read exactly L cycles after the L2 handed it over without the stage. */
TEST(l2_dram_latency_delays_the_dram_enqueue_by_exactly_its_cycles)
{
	uint64_t at[2], own[2];
	for (int k = 0; k < 2; k++) {
		struct tk t;
		dram_cfg(&t.cfg, k ? 64 : 0);
		REQUIRE(tk_start(&t, 32, 1, "ld A[lane] -> r1"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		const struct event *e = tk_event(&t, EV_DRAM_ENQUEUE, 0), *d = tk_event(&t, EV_DRAM_DONE, 0);
		REQUIRE(e && d);
		at[k] = e->cycle;
		own[k] = d->cycle - e->cycle; /* the DRAM's own latency */
		tk_end(&t);
	}
	CHECK_EQ(at[1], at[0] + 64);
	CHECK_EQ(own[1], own[0]);
}

/* Many misses at once into a 2-entry DRAM read queue: requests wait at the
 * stage's exit (blocked > 0), every request the L2 handed over passes it,
 * and each spends at least the latency there. */
TEST(l2_dram_latency_burst_waits_for_dram_room)
{
	struct tk t;
	dram_cfg(&t.cfg, 40);
	t.cfg.core.sms = 2;
	t.cfg.l2.banks = 2;
	t.cfg.dram.read_queue = 2;
	t.cfg.dram.write_queue = 4;
	t.cfg.dram.write_high = 3;
	t.cfg.dram.write_low = 1;
	REQUIRE(tk_start(&t, 128, 6, BURST));
	CHECK_EQ(sim_step(t.s, 10000000), SIM_STOP_DONE);
	uint64_t n = tk_stat(&t, "l2.dram_stage.requests");
	CHECK_EQ(n, tk_stat(&t, "mem.reads") + tk_stat(&t, "mem.writes"));
	CHECK(n > 20);
	CHECK(tk_stat(&t, "l2.dram_stage.blocked") > 0);
	CHECK_EQ(tk_stat(&t, "l2.dram_stage.cycles"), 40 * n + tk_stat(&t, "l2.dram_stage.blocked"));
	tk_end(&t);
}

/* Skip-ahead knows the stage's next ready cycle: one go, one cycle at a
 * time and uneven chunks end in the same state. */
TEST(l2_dram_latency_step_equals_run)
{
	uint64_t h[3], c[3], blocked[3];
	for (int mode = 0; mode < 3; mode++) {
		struct tk t;
		dram_cfg(&t.cfg, 90);
		t.cfg.core.sms = 2;
		t.cfg.l2.banks = 2;
		t.cfg.dram.read_queue = 4;
		REQUIRE(tk_start(&t, 128, 6, BURST));
		tk_run_mode(t.s, mode);
		CHECK(sim_done(t.s));
		h[mode] = sim_state_hash(t.s);
		c[mode] = sim_cycle(t.s);
		blocked[mode] = tk_stat(&t, "l2.dram_stage.blocked");
		tk_end(&t);
	}
	CHECK_EQ(c[1], c[0]);
	CHECK_EQ(c[2], c[0]);
	CHECK_EQ(blocked[1], blocked[0]);
	CHECK(h[1] == h[0]);
	CHECK(h[2] == h[0]);
}

/* Rewinding to a cycle with requests in the stage restores them: the state
 * equals a straight run's, and so does the rest of the run. */
TEST(l2_dram_latency_rewind_restores_the_stage)
{
	struct tk a, b;
	for (int k = 0; k < 2; k++) {
		struct tk *t = k ? &b : &a;
		dram_cfg(&t->cfg, 120);
		t->cfg.core.sms = 2;
		t->cfg.l2.banks = 2;
		REQUIRE(tk_start(t, 128, 6, BURST));
	}
	sim_snapshots_enable(b.s, 64u << 20);
	sim_snapshots_set_max_gap(b.s, 64);
	/* the first cycle at which the stage holds requests, plus a little */
	uint64_t at = 0;
	while (!sim_done(a.s) && !(a.s->banks[0].dlatq.n + a.s->banks[1].dlatq.n))
		sim_step(a.s, 1);
	sim_step(a.s, 30);
	at = sim_cycle(a.s);
	uint32_t in_stage = a.s->banks[0].dlatq.n + a.s->banks[1].dlatq.n;
	CHECK(in_stage > 0);
	uint64_t h = sim_state_hash(a.s);
	sim_step(b.s, at + 500);
	char *err = NULL;
	CHECK_EQ(sim_goto(b.s, at, &err), 0);
	free(err);
	CHECK_EQ(b.s->banks[0].dlatq.n + b.s->banks[1].dlatq.n, in_stage);
	CHECK(sim_state_hash(b.s) == h);
	sim_step(a.s, UINT64_MAX);
	sim_step(b.s, UINT64_MAX);
	CHECK_EQ(sim_cycle(a.s), sim_cycle(b.s));
	CHECK(sim_state_hash(a.s) == sim_state_hash(b.s));
	tk_end(&a);
	tk_end(&b);
}

/* The key: documented range, and no stage under the fixed-latency model. */
TEST(l2_dram_latency_config)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	CHECK_EQ(c.l2.dram_latency, 0);
	char *err = NULL;
	CHECK(cfg_set_value(&c, "l2.dram_latency", "-1", &err) != 0);
	CHECK_CONTAINS(err, "l2.dram_latency");
	free(err);
	uint64_t total[2];
	for (int k = 0; k < 2; k++) {
		struct tk t;
		tk_base_cfg(&t.cfg); /* fixed-latency memory */
		t.cfg.l2.dram_latency = k ? 50 : 0;
		REQUIRE(tk_start(&t, 32, 1, "ld A[lane] -> r1"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		CHECK(!stat_exists(&t, "l2.dram_stage.requests"));
		total[k] = tk_stat(&t, "core.mem_latency_total");
		tk_end(&t);
	}
	CHECK_EQ(total[1], total[0]);
}

/* l2.sector_mem: a sectored L2's fetch moves only its sectors at the DRAM.
 * Each lane of one warp reads one word of its own line (word 0 of line
 * lane): 32 sector misses of one sector each. With the option each read
 * is one sector's bursts; without it every read is the whole line's. The
 * bursts per sector and per line come from the DRAM's bus width and burst
 * length (dram.bus_bytes x dram.burst bytes per column command). */
TEST(l2_sector_mem_reads_only_the_missing_sectors)
{
	for (int sm = 0; sm < 2; sm++) {
		struct tk t;
		dram_cfg(&t.cfg, 0);
		t.cfg.l2.sector = 32;
		t.cfg.l1.sector = 32;
		t.cfg.l2.sector_mem = sm;
		int atom = t.cfg.dram.bus_bytes * t.cfg.dram.burst;
		uint64_t per_line = (uint64_t)(t.cfg.l2.line > atom ? t.cfg.l2.line / atom : 1);
		uint64_t per_sector = (uint64_t)(t.cfg.l2.sector > atom ? t.cfg.l2.sector / atom : 1);
		REQUIRE(per_line > per_sector); /* the test needs a line of several bursts */
		REQUIRE(tk_start(&t, 32, 1, "ld A[lane*32] -> r1"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		uint64_t reads = tk_stat(&t, "dram.reads");
		CHECK_EQ(reads, 32);
		uint64_t tbl = (uint64_t)(t.cfg.dram.burst / t.cfg.dram.data_rate);
		CHECK_EQ(tk_stat(&t, "dram.data_cycles"), reads * (sm ? per_sector : per_line) * tbl);
		CHECK_EQ(tk_stat(&t, "mem.bytes"), 32 * (uint64_t)t.cfg.l2.sector);
		tk_end(&t);
	}
}
