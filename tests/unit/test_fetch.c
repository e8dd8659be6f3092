/*
 * test_fetch.c: the instruction cache and fetch (l1i.enabled; engine/core/
 * fetch.c, engine/mem/l1i.c), with expectations derived from the config:
 *
 *   a cold L1I miss at cycle 0 fills at tk_miss_latency - 1 (a data miss's
 *   path without the coalescer -> L1 cycle: the fetch unit hands its miss
 *   straight to the miss queue), and the first instruction issues then;
 *   a hit's instructions are in the buffer l1i.hit_latency cycles later;
 *   a loop misses once per code line (inst_size bytes per statement);
 *   traces fetch at their lines' PCs; stepping, running and rewinding agree;
 *   an empty buffer is the `fetch` stall and `why warp` names the L1I miss.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/inspect.h"
#include "debug/snapshot.h"
#include "kernel/kernel.h"
#include "sim/event.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"
#include "trace/trace.h"

static void fetch_cfg(struct sim_cfg *c)
{
	tk_base_cfg(c);
	c->l1i.enabled = true;
}

TEST(fetch_off_by_default_registers_nothing)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	CHECK(!t.cfg.l1i.enabled);
	REQUIRE(tk_start(&t, 32, 1, "alu 1; alu 1"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(stats_find(sim_stats_c(t.s), "l1i.accesses") < 0);
	CHECK(stats_find(sim_stats_c(t.s), "core.stall.fetch") < 0);
	/* The first instruction issues at cycle 0: nothing is fetched. */
	const struct event *e = tk_event(&t, EV_WARP_ISSUE, 0);
	REQUIRE(e);
	CHECK_EQ(e->cycle, 0);
	tk_end(&t);
}

TEST(fetch_cold_miss_costs_the_data_round_trip)
{
	struct tk t;
	fetch_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 1, "alu 1; alu 1; alu 1"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	const struct event *m = tk_event(&t, EV_L1I_MISS, 0), *f = tk_event(&t, EV_L1I_FILL, 0);
	REQUIRE(m && f);
	CHECK_EQ(m->cycle, 0);
	CHECK_EQ(m->addr, L1I_CODE_BASE);
	uint64_t rt = tk_miss_latency(&t.cfg) - 1; /* no coalescer -> L1 cycle */
	CHECK_EQ(f->cycle, rt);
	const struct event *i0 = tk_event(&t, EV_WARP_ISSUE, 0), *i1 = tk_event(&t, EV_WARP_ISSUE, 1),
			   *i2 = tk_event(&t, EV_WARP_ISSUE, 2);
	REQUIRE(i0 && i1 && i2);
	CHECK_EQ(i0->cycle, rt);     /* the fill brings stmts 0 and 1 (core.ibuffer = 2) */
	CHECK_EQ(i1->cycle, rt + 1); /* alu 1 holds the warp one cycle */
	/* The buffer is empty after stmt 1: the fetch unit hits that cycle and
	 * the next instruction is there l1i.hit_latency cycles later. */
	CHECK_EQ(i2->cycle, rt + 1 + (uint64_t)t.cfg.l1i.hit_latency);
	CHECK_EQ(tk_stat(&t, "l1i.misses"), 1);
	CHECK_EQ(tk_stat(&t, "l1i.fills"), 1);
	CHECK_EQ(tk_stat(&t, "l2.misses"), 1);
	CHECK_EQ(tk_stat(&t, "core.stall.fetch"), rt + (uint64_t)t.cfg.l1i.hit_latency - 1);
	tk_end(&t);
}

TEST(fetch_ibuffer_size_sets_the_instructions_per_fetch)
{
	/* 6 one-cycle alus and the exit, one line: with a buffer of B the warp
	 * fetches ceil(7 / B) times, the first a miss. */
	for (int b = 1; b <= 4; b++) {
		struct tk t;
		fetch_cfg(&t.cfg);
		t.cfg.l1i.ibuffer = b;
		REQUIRE(tk_start(&t, 32, 1, "alu 1; alu 1; alu 1; alu 1; alu 1; alu 1"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		CHECK_EQ(tk_stat(&t, "l1i.accesses"), (uint64_t)(7 + b - 1) / (uint64_t)b);
		CHECK_EQ(tk_stat(&t, "l1i.misses"), 1);
		tk_end(&t);
	}
}

TEST(fetch_loop_misses_once_per_code_line)
{
	/* A loop body of 20 statements: the code spans lines; each is missed
	 * once, every later lookup of it hits. */
	char body[1024] = "loop i 0 5";
	for (int k = 0; k < 20; k++)
		strcat(body, "; alu 1");
	strcat(body, "; end");
	struct tk t;
	fetch_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 1, body));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	/* Statements 0 .. n-1 and the exit at n, inst_size bytes each. */
	uint64_t n = kernel_nstmts(t.k), isz = (uint64_t)t.cfg.l1i.inst_size, line = (uint64_t)t.cfg.l1.line;
	uint64_t lines = (n * isz) / line + 1;
	CHECK(lines >= 3);
	CHECK(lines <= (uint64_t)(t.cfg.l1i.sets * t.cfg.l1i.ways)); /* all fit */
	CHECK_EQ(tk_stat(&t, "l1i.misses"), lines);
	CHECK_EQ(tk_stat(&t, "l1i.fills"), lines);
	CHECK(tk_stat(&t, "l1i.hits") > 4 * lines);
	CHECK_EQ(tk_stat(&t, "l1i.hits") + tk_stat(&t, "l1i.misses"), tk_stat(&t, "l1i.accesses"));
	tk_end(&t);
	/* A one-line L1I thrashes between the lines of the loop: more misses. */
	fetch_cfg(&t.cfg);
	t.cfg.l1i.sets = 1;
	t.cfg.l1i.ways = 1;
	REQUIRE(tk_start(&t, 32, 1, body));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(tk_stat(&t, "l1i.misses") >= 5 * (lines - 1));
	tk_end(&t);
}

TEST(fetch_perfect_cache_always_hits)
{
	/* l1i.perfect (GPGPU-Sim's -gpgpu_perfect_inst_const_cache): the fetch
	 * at cycle 0 hits, the first instruction issues at hit_latency. */
	struct tk t;
	fetch_cfg(&t.cfg);
	t.cfg.l1i.perfect = true;
	REQUIRE(tk_start(&t, 64, 1, "loop i 0 3; alu 1; alu 1; alu 1; end"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1i.misses"), 0);
	CHECK_EQ(tk_stat(&t, "l1i.fills"), 0);
	CHECK(tk_stat(&t, "l1i.hits") > 0);
	CHECK_EQ(tk_stat(&t, "l1i.hits"), tk_stat(&t, "l1i.accesses"));
	CHECK_EQ(tk_stat(&t, "l2.accesses"), 0);
	const struct event *i0 = tk_event(&t, EV_WARP_ISSUE, 0);
	REQUIRE(i0);
	CHECK_EQ(i0->cycle, (uint64_t)t.cfg.l1i.hit_latency);
	tk_end(&t);
}

TEST(fetch_warps_merge_on_one_line)
{
	/* Four warps want line 0 at once: one fetch, three merges (MSHR
	 * merges 32), one fill for all four. */
	struct tk t;
	fetch_cfg(&t.cfg);
	t.cfg.l1i.fetch_width = 4;
	REQUIRE(tk_start(&t, 128, 1, "alu 1"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1i.fills"), 1);
	CHECK_EQ(tk_stat(&t, "l1i.mshr_merges"), 3);
	const struct event *f = tk_event(&t, EV_L1I_FILL, 0);
	REQUIRE(f);
	CHECK_EQ(f->a, 4);
	tk_end(&t);
	/* One merge slot: the other warps are refused, retry and hit after the fill. */
	fetch_cfg(&t.cfg);
	t.cfg.l1i.mshr_merges = 1;
	REQUIRE(tk_start(&t, 128, 1, "alu 1"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1i.fills"), 1);
	CHECK_EQ(tk_stat(&t, "l1i.mshr_merges"), 0);
	CHECK(tk_stat(&t, "l1i.reservation_fails") > 0);
	CHECK_EQ(tk_stat(&t, "l1i.misses"), 1);
	tk_end(&t);
}

TEST(fetch_width_limits_lookups_per_cycle)
{
	/* Four warps with empty buffers at cycle 0: core.fetch_width lookups
	 * per cycle, in slot order (round robin from slot 0). */
	for (int width = 1; width <= 4; width *= 2) {
		struct tk t;
		fetch_cfg(&t.cfg);
		t.cfg.l1i.fetch_width = width;
		REQUIRE(tk_start(&t, 128, 1, "alu 1"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		CHECK_EQ(tk_count(&t, EV_L1I_MISS), 4);
		for (unsigned k = 0; k < 4; k++) {
			const struct event *m = tk_event(&t, EV_L1I_MISS, k);
			REQUIRE(m);
			CHECK_EQ(m->warp, (int)k);
			CHECK_EQ(m->cycle, k / (unsigned)width);
		}
		tk_end(&t);
	}
}

TEST(fetch_stall_and_why_name_the_miss)
{
	struct tk t;
	fetch_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 1, "alu 1"));
	CHECK_EQ(sim_step(t.s, 10), SIM_STOP_LIMIT);
	struct warp_info wi;
	REQUIRE(inspect_warp(t.s, 0, 0, &wi));
	CHECK_EQ(wi.stall, STALL_FETCH);
	CHECK(strcmp(stall_reason_name(STALL_FETCH), "fetch") == 0);
	const struct event *st = tk_event(&t, EV_WARP_STALL, 0);
	REQUIRE(st);
	CHECK_EQ(st->a, STALL_FETCH);
	struct why_link l[8];
	int n = inspect_why_warp(t.s, 0, 0, l, 8);
	REQUIRE(n >= 3);
	CHECK(strstr(l[0].text, "has an empty instruction buffer") != NULL);
	CHECK(strstr(l[1].text, "L1I miss on code line") != NULL);
	CHECK(strstr(l[1].text, "MSHR entry 0") != NULL);
	/* and on to where the request is: the L2 (fixed memory) */
	CHECK(strstr(l[2].text, "L2 bank 0") != NULL || strstr(l[2].text, "crossbar") != NULL ||
	      strstr(l[2].text, "fixed-latency") != NULL);
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(tk_stat(&t, "core.stall.fetch") > 0);
	tk_end(&t);
}

static uint64_t run_hash(int mode, uint64_t *cycles, uint64_t *misses)
{
	struct tk t;
	fetch_cfg(&t.cfg);
	t.cfg.core.sms = 2;
	t.cfg.l2.banks = 2;
	t.cfg.mem.model = MEM_DRAM;
	t.cfg.l1i.sets = 1;
	t.cfg.l1i.ways = 2;
	t.cfg.l1i.mshr_entries = 1;
	t.cfg.l1i.mshr_merges = 2;
	char body[1024] = "loop i 0 4; ld A[tid + i*64] -> r1";
	for (int k = 0; k < 12; k++)
		strcat(body, k % 3 ? "; alu 2" : "; alu 1 <- r1");
	strcat(body, "; if lane < 16; alu 3; else; alu 1; end; end; st B[tid]");
	REQUIRE(tk_start(&t, 128, 6, body));
	events_log_all(sim_events(t.s), false);
	tk_run_mode(t.s, mode);
	uint64_t h = sim_state_hash(t.s);
	*cycles = sim_cycle(t.s);
	*misses = tk_stat(&t, "l1i.misses");
	tk_end(&t);
	return h;
}

TEST(fetch_step_run_identical)
{
	uint64_t h[3], c[3], m[3];
	for (int mode = 0; mode < 3; mode++)
		h[mode] = run_hash(mode, &c[mode], &m[mode]);
	CHECK(m[0] > 0);
	CHECK_EQ(c[0], c[1]);
	CHECK_EQ(c[0], c[2]);
	CHECK_EQ(m[0], m[1]);
	CHECK_EQ(m[0], m[2]);
	CHECK(h[0] == h[1]);
	CHECK(h[0] == h[2]);
}

TEST(fetch_rewind_equals_direct)
{
	struct tk a, b;
	fetch_cfg(&a.cfg);
	a.cfg.l1i.sets = 1;
	a.cfg.l1i.ways = 1;
	a.cfg.core.sms = 2;
	b.cfg = a.cfg;
	const char *body = "loop i 0 6; ld A[tid + i*32] -> r1; alu 1 <- r1; alu 2; alu 1; alu 1; alu 1; alu 1; alu 1; "
			   "alu 1; alu 1; end";
	REQUIRE(tk_start(&a, 96, 4, body));
	REQUIRE(tk_start(&b, 96, 4, body));
	sim_snapshots_enable(b.s, 16u << 20);
	sim_step(a.s, 400);
	uint64_t h400 = sim_state_hash(a.s);
	sim_step(b.s, 900);
	char *err = NULL;
	CHECK_EQ(sim_goto(b.s, 400, &err), 0);
	CHECK(sim_state_hash(b.s) == h400);
	sim_step(a.s, UINT64_MAX);
	sim_step(b.s, UINT64_MAX);
	CHECK_EQ(sim_cycle(a.s), sim_cycle(b.s));
	CHECK(sim_state_hash(a.s) == sim_state_hash(b.s));
	CHECK_EQ(tk_stat(&a, "l1i.misses"), tk_stat(&b, "l1i.misses"));
	free(err);
	tk_end(&a);
	tk_end(&b);
}

/* Traces fetch at their lines' PCs: two code lines (0x0.. and 0x100..),
 * each missed once by the one SM; every instruction carries its PC. */
TEST(fetch_trace_uses_line_pcs)
{
	const char *text = "-grid dim = (1,1,1)\n-block dim = (64,1,1)\n-nregs = 16\n"
			   "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
			   "0000 ffffffff 1 R2 IMAD.MOV.U32 2 R255 R255 0 0\n"
			   "0010 ffffffff 1 R3 IMAD.MOV.U32 2 R255 R255 0 0\n"
			   "0100 ffffffff 1 R4 IMAD.MOV.U32 2 R255 R255 0 0\n"
			   "0110 ffffffff 0 EXIT 0 0\n"
			   "warp = 1\ninsts = 2\n"
			   "0000 ffffffff 1 R2 IMAD.MOV.U32 2 R255 R255 0 0\n"
			   "0110 ffffffff 0 EXIT 0 0\n#END_TB\n";
	char *err = NULL;
	struct trace_kernel *k = trace_index(text, strlen(text), "t.traceg", &err);
	REQUIRE(k);
	struct sim_cfg cfg;
	fetch_cfg(&cfg);
	struct trace_view v;
	trace_view_init(&v, k, &cfg.trace);
	struct kwarp kw;
	struct winst in;
	trace_wl_ops.warp_start(&v, &kw, 0, 0, 32);
	static const uint64_t pcs[] = {0x0, 0x10, 0x100, 0x110};
	for (int i = 0; i < 4; i++) {
		memset(&in, 0, sizeof in);
		trace_wl_ops.warp_next(&v, &kw, &in);
		CHECK_EQ(in.pc, pcs[i]);
	}
	struct workload wl = {.name = "t", .ops = &trace_wl_ops, .impl = &v};
	struct sim *s = sim_new(&cfg, &wl, &err);
	REQUIRE(s);
	CHECK_EQ(sim_step(s, 100000), SIM_STOP_DONE);
	const struct stats *st = sim_stats_c(s);
	CHECK_EQ(stats_value(st, (uint32_t)stats_find(st, "l1i.fills")), 2);
	/* Warp 1 merges into warp 0's fetch of line 0, and after its jump to
	 * 0x110 (a flush: its buffer held 0x10) into the fetch of line 0x100. */
	CHECK_EQ(stats_value(st, (uint32_t)stats_find(st, "l1i.misses")), 4);
	CHECK_EQ(stats_value(st, (uint32_t)stats_find(st, "l1i.mshr_merges")), 2);
	CHECK(sim_check_invariants(s, &err) == 0);
	free(err);
	sim_free(s);
	trace_free(k);
}

/* With a coherence protocol l1i.enabled has no effect: no fetch, no l1i
 * stats, the first instruction issues at cycle 0, and the derived values
 * say so. */
TEST(fetch_off_under_coherence)
{
	struct tk t;
	fetch_cfg(&t.cfg);
	t.cfg.l2.coh.protocol = 1;
	CHECK(!l1i_active(&t.cfg));
	REQUIRE(tk_start(&t, 32, 1, "ld A[tid] -> r1; alu 1 <- r1"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(stats_find(sim_stats_c(t.s), "l1i.accesses") < 0);
	const struct event *e = tk_event(&t, EV_WARP_ISSUE, 0);
	REQUIRE(e);
	CHECK_EQ(e->cycle, 0);
	tk_end(&t);
	struct strbuf o;
	sb_init(&o);
	cfg_print_derived(&t.cfg, &o);
	CHECK(strstr(o.s, "l1i.enabled (in effect)    = false") != NULL);
	sb_fini(&o);
}

/* With a timed register file an issued instruction waits in operand
 * collection, still at the head of the instruction buffer; fetch must not
 * replace it (it did: the next instruction executed in its place, and a load
 * left a scoreboard bit nothing would clear). Every instruction runs once:
 * the same counts as without fetch, and every CTA finishes. */
TEST(fetch_with_a_timed_register_file_runs_every_instruction)
{
	const char *k = "loop i 0 8; ld A[tid + i*64] -> r1; alu 1 <- r1; ldsh tid*4 -> r2; alu 1 <- r2; end";
	for (int racetrack = 0; racetrack < 2; racetrack++) {
		uint64_t insts[2], lds[2];
		for (int fetch = 0; fetch < 2; fetch++) {
			struct tk t;
			fetch_cfg(&t.cfg);
			t.cfg.l1i.enabled = fetch;
			if (racetrack)
				t.cfg.rf.kind = RF_RACETRACK;
			else
				t.cfg.rf.sram_cycles = 1;
			CHECK_EQ(l1i_active(&t.cfg), fetch);
			REQUIRE(tk_start(&t, 64, 4, k));
			CHECK_EQ(sim_step(t.s, 10000000), SIM_STOP_DONE);
			if (fetch)
				CHECK(tk_stat(&t, "l1i.accesses") > 0);
			insts[fetch] = tk_stat(&t, "sim.thread_insts");
			lds[fetch] = tk_stat(&t, "core.ld_insts");
			tk_end(&t);
		}
		CHECK_EQ(insts[1], insts[0]);
		CHECK_EQ(lds[1], lds[0]);
		CHECK_EQ(lds[0], 4 * 2 * 8); /* 4 CTAs x 2 warps x 8 iterations */
	}
}

TEST(fetch_config_errors_name_the_key)
{
	struct sim_cfg c;
	fetch_cfg(&c);
	char *err = NULL;
	c.l1i.inst_size = 2 * c.l1.line;
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK(err && strstr(err, "core.inst_size"));
	free(err);
}

/* A warp busy with a shared-memory load is the shmem stall even when fetch
 * has already put its next instruction (an alu) in the buffer: the reason is
 * the instruction executed last, not the buffer head (it was, and with fetch
 * shared-memory latency was counted as alu). */
TEST(fetch_busy_warp_stalls_on_what_it_executed)
{
	uint64_t shmem[2], alu[2];
	for (int fetch = 0; fetch < 2; fetch++) {
		struct tk t;
		fetch_cfg(&t.cfg);
		t.cfg.l1i.enabled = fetch;
		REQUIRE(tk_start(&t, 32, 1, "ldsh tid*4 -> r1; alu 1; ldsh tid*4 -> r2; alu 1"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		shmem[fetch] = tk_stat(&t, "core.stall.shmem");
		alu[fetch] = tk_stat(&t, "core.stall.alu");
		tk_end(&t);
	}
	/* Two conflict-free ldsh, each holding the warp shmem_latency cycles. */
	struct sim_cfg c;
	fetch_cfg(&c);
	CHECK_EQ(shmem[0], 2 * (uint64_t)(c.core.shmem_latency - 1));
	CHECK_EQ(shmem[1], shmem[0]);
	CHECK_EQ(alu[1], alu[0]);
}
