/*
 * test_core_features.c: the core and L1/L2 options one at a time on the
 * fixed-latency machine of simtest.h (one SM, one L2 bank, LRR, latencies
 * from the config as in test_core.c): SIMD width, the vector memory buffer
 * (size, program-order release, non-blocking stores), the SI coalescer, the
 * per-warp MSHR limit, reservation fails, FIFO and random replacement, the
 * IPOLY set index, set_all_transient, and the per-warp compute / memory-stall
 * cycles and crossbar occupancy stats. Cycle-exact where the model is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/inspect.h"
#include "simtest.h"
#include "test.h"

/* Cycle of the n-th warp.issue of warp w. */
static uint64_t issue_cycle(struct tk *t, int w, unsigned n)
{
	for (unsigned i = 0;; i++) {
		const struct event *e = tk_event(t, EV_WARP_ISSUE, i);
		if (!e)
			return UINT64_MAX;
		if (e->warp == w && n-- == 0)
			return e->cycle;
	}
}

/* A request packet's crossbar time: ceil(flits / port_flits) + latency. */
static uint64_t xbar(const struct sim_cfg *c, uint64_t flits)
{
	uint64_t pf = (uint64_t)c->icnt.port_flits;
	return (flits + pf - 1) / pf + (uint64_t)c->icnt.latency;
}

/* A 64-wide wavefront on 16 lanes: every instruction holds the warp 4 cycles,
 * `alu N` 4N; on 64 lanes 1 and N. */
TEST(feat_simd16_wave64_takes_four_cycles)
{
	for (int simd = 16; simd <= 64; simd *= 4) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.warp_size = 64;
		t.cfg.core.simd_width = simd;
		REQUIRE(tk_start(&t, 64, 1, "alu 1; alu 2"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		uint64_t k = 64 / (uint64_t)simd;
		CHECK_EQ(issue_cycle(&t, 0, 0), 0);
		CHECK_EQ(issue_cycle(&t, 0, 1), k);         /* alu 2 */
		CHECK_EQ(issue_cycle(&t, 0, 2), k + 2 * k); /* exit */
		tk_end(&t);
	}
}

/* core.mem_inflight = 1: the second load waits for the first's data (the
 * entry frees the cycle its last request returns), and issues then. */
TEST(feat_mem_inflight_one_serialises)
{
	for (int m = 1; m <= 2; m++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.mem_inflight = m;
		REQUIRE(tk_start(&t, 32, 1, "ld A[tid] -> r1; ld C[tid] -> r3"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		uint64_t L = tk_miss_latency(&t.cfg);
		CHECK_EQ(issue_cycle(&t, 0, 1), m == 1 ? L : 1);
		const struct event *r = tk_event(&t, EV_MEM_REPLY, 1);
		REQUIRE(r);
		/* m = 1: the same path again. m = 2: one cycle behind the first,
		 * and its reply waits for the first's to leave the reply link. */
		uint64_t rep_ser = xbar(&t.cfg, 1 + (uint64_t)t.cfg.l2.line / (uint64_t)t.cfg.icnt.flit_bytes) -
				   (uint64_t)t.cfg.icnt.latency;
		CHECK_EQ(r->cycle, m == 1 ? 2 * L : L + rep_ser);
		if (m == 1)
			CHECK(tk_stat(&t, "core.stall.mem") >= L - 1);
		tk_end(&t);
	}
}

/* With two entries the store's entry completes when its ack comes back (long
 * before the load's data). core.mem_release = in_order: the third memory
 * instruction still waits for the load's entry; completion (GPGPU-Sim's LD/ST
 * unit): it takes the store's entry the cycle the ack arrives. */
TEST(feat_mem_inflight_release_order)
{
	for (int rel = MEMREL_IN_ORDER; rel <= MEMREL_COMPLETION; rel++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.mem_inflight = 2;
		t.cfg.core.mem_release = rel;
		REQUIRE(tk_start(&t, 32, 1, "ld A[tid] -> r1; st B[tid] <- r2; ld C[tid] -> r3"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		const struct sim_cfg *c = &t.cfg;
		uint64_t L = tk_miss_latency(c), st_flits = 1 + (uint64_t)c->l1.line / (uint64_t)c->icnt.flit_bytes;
		CHECK_EQ(issue_cycle(&t, 0, 1), 1); /* st */
		/* st: L1 at 2, crossbar at 3, L2 write, 1-flit ack back. */
		uint64_t ack = 3 + xbar(c, st_flits) + (uint64_t)c->l2.hit_latency + xbar(c, 1);
		CHECK(ack < L);
		CHECK_EQ(issue_cycle(&t, 0, 2), rel == MEMREL_IN_ORDER ? L : ack);
		/* in_order: the store's entry waited from its ack to the load's data */
		CHECK_EQ(tk_stat(&t, "core.mem_release_wait"), rel == MEMREL_IN_ORDER ? L - ack : 0);
		tk_end(&t);
	}
}

/* completion: entries are no longer in ring order, so `why` must find the
 * oldest by issue cycle. The store (entry 0) frees first, the third memory
 * instruction reuses entry 0, and the fourth waits on a full buffer whose
 * oldest instruction is the load in entry 1. */
TEST(feat_mem_release_completion_why_names_oldest)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.mem_inflight = 2;
	t.cfg.core.mem_release = MEMREL_COMPLETION;
	REQUIRE(tk_start(&t, 32, 1, "st B[tid] <- r2; ld A[tid] -> r1; ld C[tid] -> r3; ld D[tid] -> r4"));
	const struct sim_cfg *c = &t.cfg;
	uint64_t st_flits = 1 + (uint64_t)c->l1.line / (uint64_t)c->icnt.flit_bytes;
	uint64_t ack = 2 + xbar(c, st_flits) + (uint64_t)c->l2.hit_latency + xbar(c, 1);
	sim_step(t.s, ack + 3);
	CHECK_EQ(issue_cycle(&t, 0, 2), ack); /* ld C took the store's entry */
	CHECK_EQ(issue_cycle(&t, 0, 3), UINT64_MAX);
	struct why_link l[16];
	int n = inspect_why_warp(t.s, 0, 0, l, 16);
	bool found = false;
	for (int i = 0; i < n; i++)
		if (strstr(l[i].text, "oldest in the buffer: load into r1 by warp 0 issued at cycle 1 (memory buffer entry 1)"))
			found = true;
	CHECK(found);
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	tk_end(&t);
}

/* Non-blocking stores free their entry once the L1 took every request (cycle
 * 1), blocking ones when the L2's ack returns. */
TEST(feat_nonblocking_stores_free_entry_earlier)
{
	for (int nbs = 0; nbs <= 1; nbs++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.mem_inflight = 1;
		t.cfg.core.nonblocking_stores = nbs;
		REQUIRE(tk_start(&t, 32, 1, "st B[tid] <- r2; ld C[tid] -> r3"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		const struct sim_cfg *c = &t.cfg;
		uint64_t st_flits = 1 + (uint64_t)c->l1.line / (uint64_t)c->icnt.flit_bytes;
		uint64_t ack = 2 + xbar(c, st_flits) + (uint64_t)c->l2.hit_latency + xbar(c, 1);
		CHECK_EQ(issue_cycle(&t, 0, 1), nbs ? 1 : ack);
		tk_end(&t);
	}
}

/* AMD SI coalescer, 64-wide wavefront, 64 B lines: one request per 16-lane
 * subwavefront per 64 B block it touches. */
TEST(feat_si_coalescer_per_subwavefront)
{
	static const struct {
		const char *body;
		int64_t reqs;
	} c[] = {
		{"ld A[tid]", 4},     /* 16 lanes x 4 B = one block each */
		{"ld A[tid*2]", 8},   /* 128 B per subwavefront: 2 blocks */
		{"ld A[0]", 4},       /* one block, but once per subwavefront */
		{"ld A[tid*16]", 64}, /* every lane its own block */
		{"st B[tid]", 4},
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.warp_size = 64;
		t.cfg.core.coalescer = COAL_SI;
		t.cfg.l1.line = 64;
		t.cfg.l2.line = 64;
		REQUIRE(tk_start(&t, 64, 1, c[i].body));
		CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
		const struct event *e = tk_event(&t, EV_COALESCE, 0);
		REQUIRE(e);
		CHECK_EQ(e->a, c[i].reqs);
		CHECK_EQ(e->b, 64);
		CHECK_EQ(tk_stat(&t, "l1.accesses"), (uint64_t)c[i].reqs);
		tk_end(&t);
	}
}

/* l1.mshr.per_warp = 1: the warp's second miss goes to the wait queue with
 * reason per_warp (2), and takes the miss path when the first fill frees the
 * entry. */
TEST(feat_mshr_per_warp_limit)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l1.mshr_per_warp = 1;
	REQUIRE(tk_start(&t, 32, 1, "ld A[tid] -> r1; ld B[tid] -> r2"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	uint64_t L = tk_miss_latency(&t.cfg);
	CHECK_EQ(tk_stat(&t, "l1.mshr_full"), 1);
	const struct event *f = tk_event(&t, EV_L1_MSHR_FULL, 0);
	REQUIRE(f);
	CHECK_EQ(f->cycle, 2); /* issued at 1 */
	CHECK_EQ(f->a, 2);     /* per_warp */
	const struct event *m = tk_event(&t, EV_L1_MISS, 1);
	REQUIRE(m);
	CHECK_EQ(m->cycle, L);
	const struct event *r = tk_event(&t, EV_MEM_REPLY, 1);
	REQUIRE(r);
	CHECK_EQ(r->cycle, L + (L - 1));
	/* Without the limit both miss at once. */
	struct tk u;
	tk_base_cfg(&u.cfg);
	REQUIRE(tk_start(&u, 32, 1, "ld A[tid] -> r1; ld B[tid] -> r2"));
	CHECK_EQ(sim_step(u.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&u, "l1.mshr_full"), 0);
	tk_end(&u);
	tk_end(&t);
}

/* One set of one way: warp 1's miss finds the only way reserved for warp 0's
 * fill; it counts one reservation fail (once per request, not per retry) and
 * misses the cycle the fill frees the way. */
TEST(feat_reservation_fail_one_way)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l1.sets = 1;
	t.cfg.l1.ways = 1;
	REQUIRE(tk_start(&t, 64, 1, "ld A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	uint64_t L = tk_miss_latency(&t.cfg);
	CHECK_EQ(tk_stat(&t, "l1.reservation_fails"), 1);
	const struct event *m = tk_event(&t, EV_L1_MISS, 1);
	REQUIRE(m);
	CHECK_EQ(m->warp, 1);
	CHECK_EQ(m->cycle, L);
	const struct event *ev = tk_event(&t, EV_L1_EVICT, 0);
	REQUIRE(ev);
	CHECK_EQ(ev->cycle, L);
	tk_end(&t);
	/* Two ways: no fail. */
	tk_base_cfg(&t.cfg);
	t.cfg.l1.sets = 1;
	t.cfg.l1.ways = 2;
	REQUIRE(tk_start(&t, 64, 1, "ld A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.reservation_fails"), 0);
	tk_end(&t);
}

static uint64_t l1_hits_repl(int repl, uint64_t seed, const char *body)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l1.sets = 1;
	t.cfg.l1.ways = 2;
	t.cfg.l1.repl = repl;
	t.cfg.seed = seed;
	if (!tk_start(&t, 32, 1, body))
		return UINT64_MAX;
	sim_step(t.s, 10000000);
	uint64_t h = tk_stat(&t, "l1.hits");
	tk_end(&t);
	return h;
}

/* One set, two ways, one access at a time (each load waits for the last).
 * X Y X Z X: LRU keeps X (touched by its hit) and evicts Y for Z: 2 hits;
 * FIFO evicts X, the oldest fill: 1 hit. A cycle over 3 lines never hits
 * under LRU or FIFO; random replacement keeps a line now and then. */
TEST(feat_replacement_fifo_random)
{
	const char *xyxzx = "ld A[lane] -> r1; ld A[lane + 32] -> r1 <- r1; ld A[lane] -> r1 <- r1;"
			    " ld A[lane + 64] -> r1 <- r1; ld A[lane] -> r1 <- r1";
	CHECK_EQ(l1_hits_repl(REPL_LRU, 1, xyxzx), 2);
	CHECK_EQ(l1_hits_repl(REPL_FIFO, 1, xyxzx), 1);
	const char *cyc = "loop i 0 60; ld A[lane + (i % 3) * 32] -> r1 <- r1; end";
	CHECK_EQ(l1_hits_repl(REPL_LRU, 1, cyc), 0);
	CHECK_EQ(l1_hits_repl(REPL_FIFO, 1, cyc), 0);
	uint64_t r1 = l1_hits_repl(REPL_RANDOM, 1, cyc), r2 = l1_hits_repl(REPL_RANDOM, 2, cyc);
	CHECK(r1 > 0 && r1 < 60);
	CHECK(r2 > 0 && r2 < 60);
	CHECK_EQ(l1_hits_repl(REPL_RANDOM, 1, cyc), r1); /* same seed, same victims */
}

/* IPOLY: 16 lines one set-stride apart (16 sets x 128 B) all fall in set 0
 * with the linear index and in 16 different sets with IPOLY (multiplying by
 * x^4 modulo an irreducible polynomial is one-to-one). */
TEST(feat_ipoly_index_spreads_set_stride)
{
	for (int idx = IDX_LINEAR; idx <= IDX_IPOLY; idx += IDX_IPOLY - IDX_LINEAR) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.l1.sets = 16;
		t.cfg.l1.ways = 2;
		t.cfg.l1.index = idx;
		t.cfg.l1.mshr_entries = 16;
		t.cfg.l2.sharers = L2SH_OFF; /* the lines share an L2 set: its replacements would invalidate them */
		/* 16 lanes, each 16 * 128 B = 512 elements apart; twice. */
		REQUIRE(tk_start(&t, 16, 1, "ld A[lane * 512] -> r1; ld A[lane * 512] -> r2 <- r1"));
		CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
		unsigned used = 0;
		for (unsigned i = 0; i < 16; i++) {
			const struct event *e = tk_event(&t, EV_L1_ACCESS, i);
			REQUIRE(e);
			CHECK(e->set >= 0 && e->set < 16);
			used |= 1u << e->set;
		}
		if (idx == IDX_LINEAR) {
			CHECK_EQ(used, 1u);
			CHECK(tk_stat(&t, "l1.hits") < 16);
		} else {
			CHECK_EQ(used, 0xffffu);
			CHECK_EQ(tk_stat(&t, "l1.hits"), 16); /* the second pass hits every line */
		}
		tk_end(&t);
	}
}

/* An L2 of one set and one way: warp 0's miss makes the way transient; warp
 * 1's miss to another line (L1 at 2, crossbar at 3) finds every way
 * transient: event l2.set_all_transient and a NACK (reason 2) each time it
 * retries, until the fill; the next retry misses normally. */
TEST(feat_l2_set_all_transient_event)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l2.sets = 1;
	t.cfg.l2.ways = 1;
	t.cfg.l1.retry_delay = 8;
	REQUIRE(tk_start(&t, 64, 1, "ld A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	const struct sim_cfg *c = &t.cfg;
	uint64_t lat = (uint64_t)c->icnt.latency, fill = 2 + xbar(c, 1) + 1 + (uint64_t)c->mem.latency;
	uint64_t t0 = 3 + xbar(c, 1), period = (1 + lat + (uint64_t)c->l1.retry_delay) + (2 + lat);
	unsigned k = 0;
	for (uint64_t at = t0; at < fill; at += period, k++) {
		const struct event *e = tk_event(&t, EV_L2_SET_ALL_TRANSIENT, k), *n = tk_event(&t, EV_L2_NACK, k);
		REQUIRE(e && n);
		CHECK_EQ(e->cycle, at);
		CHECK_EQ(n->cycle, at);
		CHECK_EQ(n->a, 2); /* set_all_transient */
		CHECK_EQ(e->addr, n->addr);
	}
	CHECK_EQ(k, 6);
	CHECK_EQ(tk_count(&t, EV_L2_SET_ALL_TRANSIENT), k);
	CHECK_EQ(tk_stat(&t, "l2.set_all_transient"), k);
	CHECK_EQ(tk_stat(&t, "l2.nacks"), k);
	const struct event *m = tk_event(&t, EV_L2_TRANSIENT, 1); /* the way, now holding warp 0's line */
	REQUIRE(m);
	CHECK_EQ(m->cycle, t0 + k * period);
	CHECK_EQ(tk_count(&t, EV_L2_TRANSIENT), 2);
	tk_end(&t);
}

/* Per-warp cycles: ld at 0, the alu waits for r1 (memory stall 1..L-1),
 * issues at L, exit at L+1. With `alu 3` first: 2 cycles of ALU stall
 * (other), the load at 3. compute = cycles from launch to exit - memory stall. */
TEST(feat_warp_compute_vs_mem_stall_cycles)
{
	static const struct {
		const char *body;
		uint64_t lead; /* cycles before the load */
	} c[] = {{"ld A[tid] -> r1; alu 1 <- r1", 0}, {"alu 3; ld A[tid] -> r1; alu 1 <- r1", 3}};
	for (size_t i = 0; i < 2; i++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		REQUIRE(tk_start(&t, 32, 1, c[i].body));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		uint64_t L = tk_miss_latency(&t.cfg), lead = c[i].lead;
		CHECK_EQ(tk_stat(&t, "core.warp_mem_stall_cycles"), L - 1);
		CHECK_EQ(tk_stat(&t, "core.warp_other_stall_cycles"), lead ? lead - 1 : 0);
		CHECK_EQ(tk_stat(&t, "core.warp_compute_cycles"), (lead + L + 2) - (L - 1));
		tk_end(&t);
	}
}

/* Crossbar credits: the load's request holds an L2 input-queue credit from
 * its send (cycle 2) to its lookup, 1 flit + latency; the reply holds an SM
 * reply-queue credit for its 1 + 128/32 flits + latency. */
TEST(feat_icnt_occupancy_per_direction)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 1, "ld A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	const struct stats *S = sim_stats_c(t.s);
	int rq = stats_find(S, "icnt.req.occupancy"), rp = stats_find(S, "icnt.reply.occupancy");
	REQUIRE(rq >= 0 && rp >= 0);
	const struct stat_occ *o = stats_occ(S, (uint32_t)rq);
	CHECK_EQ(o->max, 1);
	CHECK_EQ(o->cur, 0);
	CHECK_EQ(o->integral, xbar(&t.cfg, 1));
	CHECK_EQ(o->capacity, (uint64_t)t.cfg.l2.queue);
	o = stats_occ(S, (uint32_t)rp);
	CHECK_EQ(o->max, 1);
	CHECK_EQ(o->integral, xbar(&t.cfg, 1 + (uint64_t)t.cfg.l2.line / (uint64_t)t.cfg.icnt.flit_bytes));
	CHECK_EQ(o->capacity, (uint64_t)t.cfg.icnt.queue);
	tk_end(&t);
	/* Eight warps on eight lines, issued one a cycle: a request enters the
	 * crossbar every cycle and each holds its credit 1 flit + latency, so
	 * that many are in the crossbar at once. */
	tk_base_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 256, 1, "ld A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	S = sim_stats_c(t.s);
	o = stats_occ(S, (uint32_t)stats_find(S, "icnt.req.occupancy"));
	CHECK_EQ(o->max, xbar(&t.cfg, 1));
	CHECK_EQ(o->integral, 8 * xbar(&t.cfg, 1));
	CHECK_EQ(o->cur, 0);
	CHECK_EQ(tk_stat(&t, "icnt.req_packets"), 8);
	tk_end(&t);
}
