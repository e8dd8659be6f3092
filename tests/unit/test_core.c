/*
 * test_core.c: cycle-exact tests of the core and cache hierarchy with the
 * fixed-latency memory, derived from the configuration (one request's path:
 * L1 queue 1 cycle, miss queue 1, crossbar ceil(flits/port_flits) + latency
 * each way, L2 to memory queue 1, memory latency), plus coalescing counts,
 * invariants and determinism.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtest.h"
#include "test.h"

TEST(core_single_miss_fixed_memory)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 1, "ld A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.accesses"), 1);
	CHECK_EQ(tk_stat(&t, "l1.misses"), 1);
	CHECK_EQ(tk_stat(&t, "l2.misses"), 1);
	CHECK_EQ(tk_stat(&t, "mem.reads"), 1);
	const struct event *r = tk_event(&t, EV_MEM_REPLY, 0);
	REQUIRE(r);
	CHECK_EQ(r->a, tk_miss_latency(&t.cfg));
	CHECK_EQ(r->cycle, tk_miss_latency(&t.cfg)); /* issued at cycle 0 */
	tk_end(&t);
}

TEST(core_single_l1_hit)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	/* The alu reads the first load's register, so the second load issues
	 * after the fill and hits. */
	REQUIRE(tk_start(&t, 32, 1, "ld A[tid] -> r1; alu 1 <- r1; ld A[tid] -> r2"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.accesses"), 2);
	CHECK_EQ(tk_stat(&t, "l1.hits"), 1);
	const struct event *r = tk_event(&t, EV_MEM_REPLY, 1);
	REQUIRE(r);
	CHECK_EQ(r->a, 1 + t.cfg.l1.hit_latency);
	/* fill at L, alu issues at L and holds the warp 1 cycle, load at L+1 */
	CHECK_EQ(r->cycle, tk_miss_latency(&t.cfg) + 1 + 1 + (uint64_t)t.cfg.l1.hit_latency);
	tk_end(&t);
}

TEST(core_mshr_merge_allocates_nothing)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	/* Two warps load the same line (lane indexes it). */
	REQUIRE(tk_start(&t, 64, 1, "ld A[lane]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.accesses"), 2);
	CHECK_EQ(tk_stat(&t, "l1.misses"), 2);
	CHECK_EQ(tk_stat(&t, "l1.mshr_merges"), 1);
	CHECK_EQ(tk_stat(&t, "l2.accesses"), 1);
	const struct stats *S = sim_stats_c(t.s);
	const struct stat_occ *o = stats_occ(S, (uint32_t)stats_find(S, "sm0.l1.mshr.occupancy"));
	CHECK_EQ(o->max, 1);
	/* Both warps get their data the same cycle. */
	const struct event *a = tk_event(&t, EV_MEM_REPLY, 0), *b = tk_event(&t, EV_MEM_REPLY, 1);
	REQUIRE(a && b);
	CHECK_EQ(a->cycle, b->cycle);
	CHECK_EQ(a->a, tk_miss_latency(&t.cfg));
	tk_end(&t);
}

TEST(core_mshr_full_goes_to_wait_queue)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l1.mshr_entries = 1;
	/* Two warps, two different lines. */
	REQUIRE(tk_start(&t, 64, 1, "ld A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.mshr_full"), 1);
	const struct event *f = tk_event(&t, EV_L1_MSHR_FULL, 0);
	REQUIRE(f);
	CHECK_EQ(f->cycle, 2); /* warp 1 issued at 1, looked up at 2 */
	const struct event *b = tk_event(&t, EV_MEM_REPLY, 1);
	REQUIRE(b);
	/* The waiting request is looked up the cycle the first fill frees the entry
	 * (cycle L), then takes the miss path minus its first cycle. */
	uint64_t L = tk_miss_latency(&t.cfg);
	CHECK_EQ(b->cycle, L + (L - 1));
	tk_end(&t);
}

TEST(core_l2_nack_and_retry)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l2.mshr_entries = 1;
	t.cfg.l1.retry_delay = 8;
	REQUIRE(tk_start(&t, 64, 1, "ld A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	const struct event *n = tk_event(&t, EV_L2_NACK, 0);
	REQUIRE(n);
	CHECK_EQ(n->a, 0); /* mshr_full */
	/* Second fetch: L1 at 2, crossbar at 3, arrives 3 + 1 + latency. */
	CHECK_EQ(n->cycle, 3 + 1 + (uint64_t)t.cfg.icnt.latency);
	const struct event *r = tk_event(&t, EV_L1_RETRY, 0);
	REQUIRE(r);
	/* The NACK leaves the same cycle: 1 flit + latency back, then the retry delay. */
	CHECK_EQ(r->cycle, n->cycle + 1 + (uint64_t)t.cfg.icnt.latency + (uint64_t)t.cfg.l1.retry_delay);
	CHECK(tk_stat(&t, "l2.nacks") >= 1);
	CHECK_EQ(tk_stat(&t, "l1.retries"), tk_stat(&t, "l2.nacks"));
	CHECK_EQ(tk_stat(&t, "mem.reads"), 2);
	tk_end(&t);
}

/* l2.evict_order: overlap hands W's fetch to memory right behind X's
 * write-back; serial (the thesis's order) sends it only when memory has
 * completed the write, so X stays transient mem cycles longer. */
static void transient_line_blocks_request(int order, uint64_t want_nacks)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l2.sets = 1;
	t.cfg.l2.ways = 2;
	t.cfg.mem.queue = 1;
	t.cfg.l1.enabled = false;
	t.cfg.l1.retry_delay = 8;
	t.cfg.l2.evict_order = order;
	/* Y's data reply leaving hit_latency after its fill would share the
	 * bank's reply link with a NACK; this test is about the eviction order
	 * (test_l2_fill_reply.c covers l2.fill_reply). */
	t.cfg.l2.fill_reply = L2FR_AT_ONCE;
	/* Warp 0: dirty X in the L2, then misses on Y (memory busy 100 cycles) and
	 * W (victim X is dirty: its write-back waits for memory, X transient).
	 * Warp 1 reads X meanwhile and is refused until the eviction is done. */
	REQUIRE(tk_start(&t, 64, 1,
			 "if warp == 0; st A[lane]; ld B[lane] -> r1; ld C[lane] -> r2; else; alu 40; ld A[lane] -> r3; end"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	const uint64_t lat = (uint64_t)t.cfg.icnt.latency, fb = (uint64_t)t.cfg.icnt.flit_bytes;
	const uint64_t mem = (uint64_t)t.cfg.mem.latency, D = (uint64_t)t.cfg.l1.retry_delay;
	const uint64_t line_flits = 1 + (uint64_t)t.cfg.l2.line / fb; /* header + 128 B of data */
	/* The store (issued at 0) enters the crossbar at 2 and holds the request
	 * port line_flits cycles; Y and W (issued at 2 and 3) follow it flit by flit. */
	const uint64_t t_st = 2 + line_flits + lat, tY = t_st + 1, tW = t_st + 2;
	const struct event *e = tk_event(&t, EV_L2_TRANSIENT, 0);
	REQUIRE(e);
	CHECK_EQ(e->cycle, tY); /* Y takes the empty way 1 */
	CHECK_EQ(e->a, 1);
	e = tk_event(&t, EV_L2_TRANSIENT, 1);
	REQUIRE(e);
	CHECK_EQ(e->cycle, tW); /* W's victim is dirty X in way 0 */
	CHECK_EQ(e->a, 0);
	const uint64_t addr_x = e->addr;
	e = tk_event(&t, EV_L2_WRITEBACK, 0);
	REQUIRE(e);
	CHECK_EQ(e->cycle, tW);
	CHECK_EQ(e->addr, addr_x);
	CHECK_EQ(tk_count(&t, EV_L2_WRITEBACK), 1);
	/* Warp 1 issues at 1 + 40 (alu), its read of X reaches the L2 3 + lat later
	 * and is refused: X is transient. */
	const uint64_t t_ld1 = 1 + 40, tN = t_ld1 + 3 + lat;
	const struct event *n = tk_event(&t, EV_L2_NACK, 0);
	REQUIRE(n);
	CHECK_EQ(n->cycle, tN);
	CHECK_EQ(n->a, 1); /* transient */
	CHECK_EQ(n->addr, addr_x);
	/* The write-back is handed to memory when Y's fetch (sent at tY + 1) comes
	 * back and (serial) completes mem cycles later; until then every retry
	 * (NACK back 1 + lat, retry_delay, miss queue 1, 1 flit + lat) is refused
	 * again. */
	const uint64_t handover = tY + 1 + mem, period = (1 + lat + D) + (2 + lat);
	const uint64_t evicted = handover + (order == L2EV_SERIAL ? mem : 0);
	uint64_t t_miss = tN, nacks = 0;
	while (t_miss < evicted) {
		n = tk_event(&t, EV_L2_NACK, (unsigned)nacks);
		REQUIRE(n);
		CHECK_EQ(n->cycle, t_miss);
		CHECK_EQ(n->a, 1);
		t_miss += period;
		nacks++;
	}
	CHECK_EQ(nacks, want_nacks);
	CHECK_EQ(tk_stat(&t, "l2.nacks"), nacks);
	CHECK_EQ(tk_stat(&t, "l2.transient_blocks"), nacks);
	CHECK_EQ(tk_stat(&t, "l1.retries"), nacks);
	e = tk_event(&t, EV_L2_FILL, 0);
	REQUIRE(e);
	CHECK_EQ(e->cycle, handover); /* Y */
	/* The next retry misses: X's old way now holds W, so X takes Y's way. */
	e = tk_event(&t, EV_L2_TRANSIENT, 2);
	REQUIRE(e);
	CHECK_EQ(e->cycle, t_miss);
	CHECK_EQ(e->a, 1);
	/* One request at a time in memory: write-back, W, then X (either order). */
	e = tk_event(&t, EV_L2_FILL, 2);
	REQUIRE(e);
	CHECK_EQ(e->addr, addr_x);
	CHECK_EQ(e->cycle, handover + 3 * mem);
	const struct event *r = tk_event(&t, EV_MEM_REPLY, 2);
	REQUIRE(r);
	CHECK_EQ(r->warp, 1);
	CHECK_EQ(r->cycle, handover + 3 * mem + line_flits + lat);
	CHECK_EQ(r->a, r->cycle - t_ld1);
	CHECK_EQ(tk_stat(&t, "l2.writebacks"), 1);
	tk_end(&t);
}

TEST(core_transient_line_blocks_request) { transient_line_blocks_request(L2EV_OVERLAP, 4); }

TEST(core_transient_line_serial_eviction) { transient_line_blocks_request(L2EV_SERIAL, 9); }

static uint64_t l1_accesses_for(int coal, int sector, const char *body)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.coalescer = coal;
	t.cfg.l1.sector = sector;
	t.cfg.l2.sector = sector;
	if (!tk_start(&t, 32, 1, body))
		return 0;
	sim_step(t.s, 1000000);
	uint64_t n = tk_stat(&t, "l1.accesses");
	tk_end(&t);
	return n;
}

TEST(coalesce_vecadd_fermi_one_volta_four)
{
	CHECK_EQ(l1_accesses_for(COAL_FERMI, 0, "ld A[tid]"), 1);
	CHECK_EQ(l1_accesses_for(COAL_VOLTA, 32, "ld A[tid]"), 4);
	/* A broadcast: one line on Fermi, one sector per 8-lane group on Volta. */
	CHECK_EQ(l1_accesses_for(COAL_FERMI, 0, "ld A[0]"), 1);
	CHECK_EQ(l1_accesses_for(COAL_VOLTA, 32, "ld A[0]"), 4);
}

/* core.coalesce_group: the lanes coalesced together (notes 001 RC-3). A
 * broadcast makes one sector request per group: 32 / group of them; a unit
 * stride (4 sectors in one line) makes 4 whatever the group, as long as a
 * group covers at least one sector (8 lanes x 4 B); group 4 splits each
 * sector between two groups: 8. */
static uint64_t volta_group_accesses(int group, const char *body)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.coalescer = COAL_VOLTA;
	t.cfg.core.coalesce_group = group;
	t.cfg.l1.sector = t.cfg.l2.sector = 32;
	if (!tk_start(&t, 32, 1, body))
		return 0;
	sim_step(t.s, 1000000);
	uint64_t n = tk_stat(&t, "l1.accesses");
	tk_end(&t);
	return n;
}

TEST(coalesce_volta_group_size)
{
	for (int g = 1; g <= 32; g *= 2) {
		CHECK_EQ(volta_group_accesses(g, "ld A[0]"), (uint64_t)(32 / g));
		CHECK_EQ(volta_group_accesses(g, "ld A[tid]"), (uint64_t)(g >= 8 ? 4 : 32 / g));
	}
}

TEST(coalesce_strided_grows_with_stride)
{
	static const struct {
		const char *body;
		uint64_t fermi, volta;
	} c[] = {
		{"ld A[tid]", 1, 4},       {"ld A[tid*2]", 2, 8},    {"ld A[tid*4]", 4, 16},
		{"ld A[tid*8]", 8, 32},    {"ld A[tid*32]", 32, 32},
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		CHECK_EQ(l1_accesses_for(COAL_FERMI, 0, c[i].body), c[i].fermi);
		CHECK_EQ(l1_accesses_for(COAL_VOLTA, 32, c[i].body), c[i].volta);
	}
}

/* Same run in one go, one cycle at a time, and in uneven chunks, with the
 * memory buffer freed in program order and on completion (3 entries, so it
 * fills and its slots are reused out of order). */
TEST(core_determinism_step_vs_run)
{
	const char *body = "loop i 0 4; ld A[(tid*7 + i*129) % 4096] -> r1; alu 3 <- r1; st B[tid + i*64]; end";
	for (int rel = MEMREL_IN_ORDER; rel <= MEMREL_COMPLETION; rel++) {
		uint64_t hash[3], cycles[3], hits[3];
		for (int mode = 0; mode < 3; mode++) {
			struct tk t;
			tk_base_cfg(&t.cfg);
			t.cfg.core.sms = 2;
			t.cfg.l2.banks = 2;
			t.cfg.mem.model = MEM_DRAM;
			t.cfg.core.mem_inflight = 3;
			t.cfg.core.mem_release = rel;
			REQUIRE(tk_start(&t, 128, 6, body));
			events_log_all(sim_events(t.s), false);
			tk_run_mode(t.s, mode);
			hash[mode] = sim_state_hash(t.s);
			cycles[mode] = sim_cycle(t.s);
			hits[mode] = tk_stat(&t, "l1.hits") * 1000003 + tk_stat(&t, "core.stall.scoreboard");
			CHECK(tk_stat(&t, "core.stall.mem") + tk_stat(&t, "core.stall.mshr_full") > 0); /* it filled */
			tk_end(&t);
		}
		CHECK_EQ(cycles[0], cycles[1]);
		CHECK_EQ(cycles[0], cycles[2]);
		CHECK_EQ(hits[0], hits[1]);
		CHECK_EQ(hits[0], hits[2]);
		CHECK(hash[0] == hash[1]);
		CHECK(hash[0] == hash[2]);
	}
}

/* Invariants hold after every single cycle, not only at the end: a few small
 * kernels stepped one cycle at a time with the check after each. */
TEST(core_invariants_every_cycle)
{
	static const char *const bodies[] = {
		"ld A[tid]; alu 2; st B[tid]",
		"loop i 0 3; ld A[(tid*33 + i*97) % 2048] -> r1; atom C[lane % 4]; end",
		"if lane < 8; ld A[tid*8]; else; st B[tid]; end; bar; ldsh tid*4",
	};
	for (size_t b = 0; b < sizeof bodies / sizeof bodies[0]; b++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.sms = 2;
		t.cfg.l2.banks = 2;
		t.cfg.mem.model = MEM_DRAM;
		t.cfg.l1.mshr_entries = 2;
		t.cfg.l2.mshr_entries = 2;
		REQUIRE(tk_start(&t, 64, 4, bodies[b]));
		events_log_all(sim_events(t.s), false);
		char *err = NULL;
		uint64_t n = 0;
		while (!sim_done(t.s) && n++ < 200000) {
			sim_step(t.s, 1);
			if (sim_check_invariants(t.s, &err)) {
				test_fail(__FILE__, __LINE__, "kernel %zu, cycle %llu: %s", b,
					  (unsigned long long)sim_cycle(t.s), err);
				free(err);
				break;
			}
		}
		CHECK(sim_done(t.s));
		tk_end(&t);
	}
}

/* Shared-memory bank conflicts (32 banks of 4-byte words): the busiest bank
 * sets the passes; lanes reading the same word share a pass (broadcast).
 * tid*4: one word per bank, 1 pass. tid*8: lanes l and l+16 meet in bank
 * 2l mod 32, 2 passes. tid*128: every lane in bank 0, 32 passes. 0: one word,
 * 1 pass. (tid%8)*128: 8 distinct words in bank 0, 8 passes. */
TEST(core_shmem_bank_conflict_passes)
{
	static const struct {
		const char *expr;
		unsigned passes;
	} cases[] = {{"tid*4", 1}, {"tid*8", 2}, {"tid*128", 32}, {"0", 1}, {"(tid%8)*128", 8}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		char body[64];
		snprintf(body, sizeof body, "ldsh %s", cases[i].expr);
		REQUIRE(tk_start(&t, 32, 1, body));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		CHECK_EQ(tk_stat(&t, "core.shmem_insts"), 1);
		CHECK_EQ(tk_stat(&t, "core.shmem_conflict_passes"), cases[i].passes - 1);
		const struct event *e = tk_event(&t, EV_SHMEM_CONFLICT, 0);
		if (cases[i].passes > 1) {
			REQUIRE(e);
			CHECK_EQ(e->a, cases[i].passes);
		} else {
			CHECK(e == NULL);
		}
		tk_end(&t);
	}
}
