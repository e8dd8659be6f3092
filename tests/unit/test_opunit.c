/*
 * test_opunit.c: execution units with a latency and an initiation interval
 * (core.op_model = units; engine/core/opunit.c), the `alu.UNIT` statement,
 * and the SASS opcode -> unit table (trace_unit). Expectations come from
 * the core.op_* parameters: a dependent instruction issues exactly the
 * latency after its producer, an independent one on a busy unit exactly the
 * initiation interval after the one before, `alu N` spaces by N intervals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/inspect.h"
#include "kernel/kernel.h"
#include "sim/evcode.h"
#include "sim/sim.h"
#include "simtest.h"
#include "test.h"
#include "trace/trace.h"

static void units_cfg(struct sim_cfg *c)
{
	tk_base_cfg(c);
	c->core.op_model = OPM_UNITS;
	c->core.op_latency[KU_SFU] = 13;
	c->core.op_initiation[KU_SFU] = 5;
	c->core.op_latency[KU_INT] = 3;
	c->core.op_initiation[KU_INT] = 1;
	c->core.op_latency[KU_SP] = 4;
	c->core.op_initiation[KU_SP] = 2;
	c->core.op_latency[KU_DP] = 9;
	c->core.op_initiation[KU_DP] = 7;
	for (int u = 0; u < KU__COUNT; u++)
		c->core.op_units[u] = 1;
}

/* Cycle of the first issue of statement `stmt` by warp slot `warp` (sm 0). */
static uint64_t issue_at(struct tk *t, int warp, unsigned stmt)
{
	uint64_t best = UINT64_MAX;
	for (unsigned n = 0;; n++) {
		const struct event *e = tk_event(t, EV_WARP_ISSUE, n);
		if (!e)
			break;
		if (e->sm == 0 && e->warp == warp && (unsigned)e->a == stmt && e->cycle < best)
			best = e->cycle;
	}
	return best;
}

static void run_all(struct tk *t)
{
	while (!sim_done(t->s))
		sim_step(t->s, UINT64_MAX);
}

/* A reader of an ALU result issues `latency` cycles after its producer. */
TEST(opunit_dependent_instruction_waits_the_latency)
{
	struct tk t;
	units_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 1, "alu.sfu 1 <- r0 -> r1; alu.int 1 <- r1 -> r2; alu.sp 1 <- r2 -> r3; st A[tid] <- r3"));
	run_all(&t);
	uint64_t a = issue_at(&t, 0, 0), b = issue_at(&t, 0, 1), c = issue_at(&t, 0, 2), d = issue_at(&t, 0, 3);
	CHECK_EQ(b - a, (uint64_t)t.cfg.core.op_latency[KU_SFU]);
	CHECK_EQ(c - b, (uint64_t)t.cfg.core.op_latency[KU_INT]);
	CHECK_EQ(d - c, (uint64_t)t.cfg.core.op_latency[KU_SP]); /* a store waits for its data too */
	CHECK_EQ(tk_stat(&t, "core.op.sfu.insts"), 1);
	CHECK_EQ(tk_stat(&t, "core.op.int.insts"), 1);
	CHECK_EQ(tk_stat(&t, "core.op.sp.insts"), 1);
	CHECK(tk_stat(&t, "core.stall.alu") > 0);
	tk_end(&t);
}

/* Independent instructions of two warps on one unit: the second enters an
 * initiation interval after the first; with two units, back to back. */
TEST(opunit_initiation_interval_spaces_a_shared_unit)
{
	for (int units = 1; units <= 2; units++) {
		struct tk t;
		units_cfg(&t.cfg);
		t.cfg.core.op_units[KU_SFU] = units;
		REQUIRE(tk_start(&t, 32, 2, "alu.sfu 1 <- r0 -> r1; alu.sfu 1 <- r0 -> r2"));
		run_all(&t);
		uint64_t ii = (uint64_t)t.cfg.core.op_initiation[KU_SFU];
		uint64_t w0 = issue_at(&t, 0, 0), w1 = issue_at(&t, 1, 0);
		if (units == 1) {
			CHECK_EQ(w1 - w0, ii);
			CHECK_EQ(issue_at(&t, 0, 1) - w1, ii); /* warp 0's second waits behind warp 1's */
		} else {
			CHECK_EQ(w1 - w0, 1); /* LRR: the next cycle */
		}
		CHECK_EQ(tk_stat(&t, "core.op.sfu.insts"), 4);
		tk_end(&t);
	}
}

/* `alu.sp N` is N instructions' worth: its unit is busy N intervals and its
 * result is ready (N - 1) intervals plus the latency after it entered. */
TEST(opunit_alu_n_is_n_initiations)
{
	struct tk t;
	units_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 2, "alu.sp 3 <- r0 -> r1; alu.int 1 <- r1 -> r2"));
	run_all(&t);
	uint64_t ii = (uint64_t)t.cfg.core.op_initiation[KU_SP], lat = (uint64_t)t.cfg.core.op_latency[KU_SP];
	uint64_t a = issue_at(&t, 0, 0);
	CHECK_EQ(issue_at(&t, 0, 1) - a, 2 * ii + lat);
	CHECK_EQ(issue_at(&t, 1, 0) - a, 3 * ii); /* warp 1's group enters after warp 0's */
	tk_end(&t);
}

/* A class with no units runs on its fallback (dp on sfu) with its own timing. */
TEST(opunit_class_without_units_runs_on_its_fallback)
{
	struct tk t;
	units_cfg(&t.cfg);
	t.cfg.core.op_units[KU_DP] = 0;
	REQUIRE(tk_start(&t, 32, 2, "alu.dp 1 <- r0 -> r1; alu.sfu 1 <- r0 -> r2"));
	run_all(&t);
	/* warp 0's dp holds the sfu unit one dp interval: its own sfu
	 * instruction, independent, waits for it, and so does warp 1's dp */
	uint64_t ii = (uint64_t)t.cfg.core.op_initiation[KU_DP];
	CHECK_EQ(issue_at(&t, 1, 0) - issue_at(&t, 0, 0), ii);
	CHECK_EQ(issue_at(&t, 0, 1) - issue_at(&t, 0, 0), 2 * ii);
	CHECK_EQ(tk_stat(&t, "core.op.dp.insts"), 2);
	tk_end(&t);
}

static void two_each(struct core_cfg *c)
{
	for (int u = 0; u < KU__COUNT; u++)
		c->op_units[u] = 2;
}

/* Sub-core units: 2 schedulers and 2 sfu units, one CTA of 3 warps. Warps 0
 * and 1 (schedulers 0 and 1) issue together; warp 2 (scheduler 0) waits for
 * unit 0 with sub-core units, and for the first free unit when they are
 * shared, the same cycle here as both were taken at once. With one
 * scheduler and shared units, warp 1 takes unit 1 the next cycle. */
TEST(opunit_sub_core_splits_units_among_schedulers)
{
	for (int sub = 0; sub < 2; sub++) {
		struct tk t;
		units_cfg(&t.cfg);
		t.cfg.core.schedulers = 2;
		two_each(&t.cfg.core);
		t.cfg.core.op_sub_core = sub;
		REQUIRE(tk_start(&t, 96, 1, "alu.sfu 1 <- r0 -> r1"));
		run_all(&t);
		uint64_t w0 = issue_at(&t, 0, 0), w1 = issue_at(&t, 1, 0), w2 = issue_at(&t, 2, 0);
		CHECK_EQ(w1, w0);
		CHECK_EQ(w2 - w0, (uint64_t)t.cfg.core.op_initiation[KU_SFU]);
		tk_end(&t);
	}
	struct tk t;
	units_cfg(&t.cfg);
	t.cfg.core.op_units[KU_SFU] = 2;
	REQUIRE(tk_start(&t, 96, 1, "alu.sfu 1 <- r0 -> r1"));
	run_all(&t);
	CHECK_EQ(issue_at(&t, 1, 0) - issue_at(&t, 0, 0), 1);
	CHECK_EQ(issue_at(&t, 2, 0) - issue_at(&t, 0, 0), (uint64_t)t.cfg.core.op_initiation[KU_SFU]);
	tk_end(&t);
}

/* Sub-core units where the unit is not shared: 4 warps, 2 schedulers, 2
 * units. Scheduler 1's warps (1, 3) never wait for scheduler 0's unit. */
TEST(opunit_sub_core_scheduler_keeps_its_own_unit)
{
	struct tk t;
	units_cfg(&t.cfg);
	t.cfg.core.schedulers = 2;
	two_each(&t.cfg.core);
	t.cfg.core.op_sub_core = true;
	REQUIRE(tk_start(&t, 128, 1, "alu.sfu 3 <- r0 -> r1"));
	run_all(&t);
	uint64_t ii = (uint64_t)t.cfg.core.op_initiation[KU_SFU];
	CHECK_EQ(issue_at(&t, 2, 0) - issue_at(&t, 0, 0), 3 * ii);
	CHECK_EQ(issue_at(&t, 3, 0) - issue_at(&t, 1, 0), 3 * ii);
	CHECK_EQ(issue_at(&t, 1, 0), issue_at(&t, 0, 0));
	tk_end(&t);
}

/* Only warps 0 and 2 (both scheduler 0) use the sfu: with sub-core units
 * warp 2 waits for unit 0 although unit 1 is idle; shared, it takes unit 1. */
TEST(opunit_sub_core_idle_unit_of_another_scheduler_is_not_used)
{
	uint64_t gap[2];
	for (int sub = 0; sub < 2; sub++) {
		struct tk t;
		units_cfg(&t.cfg);
		t.cfg.core.schedulers = 2;
		two_each(&t.cfg.core);
		t.cfg.core.op_sub_core = sub;
		REQUIRE(tk_start(&t, 96, 1, "if warp == 1; alu.int 1 <- r0 -> r2; else; alu.sfu 3 <- r0 -> r1; end"));
		run_all(&t);
		uint64_t w0 = UINT64_MAX, w2 = UINT64_MAX;
		for (unsigned st = 0; st < 8; st++) {
			if (issue_at(&t, 0, st) < w0)
				w0 = issue_at(&t, 0, st);
			if (issue_at(&t, 2, st) < w2)
				w2 = issue_at(&t, 2, st);
		}
		gap[sub] = w2 - w0;
		tk_end(&t);
	}
	CHECK_EQ(gap[0], 1);
	CHECK_EQ(gap[1], 3 * (uint64_t)5); /* alu.sfu 3 at initiation 5 */
}

/* Sub-core with fewer units than schedulers: scheduler s uses unit s mod
 * units, so with one sfu unit warps 0 and 1 (two schedulers) share it. */
TEST(opunit_sub_core_fewer_units_than_schedulers_share)
{
	struct tk t;
	units_cfg(&t.cfg);
	t.cfg.core.schedulers = 2;
	t.cfg.core.op_sub_core = true;
	REQUIRE(tk_start(&t, 64, 1, "alu.sfu 1 <- r0 -> r1"));
	run_all(&t);
	uint64_t a = issue_at(&t, 0, 0), b = issue_at(&t, 1, 0); /* either scheduler may go first */
	CHECK_EQ(a > b ? a - b : b - a, (uint64_t)t.cfg.core.op_initiation[KU_SFU]);
	tk_end(&t);
}

/* The default keeps today's timing: alu.UNIT N is alu N, and no unit stat exists. */
TEST(opunit_warp_busy_default_ignores_the_unit)
{
	uint64_t cyc[2], alu[2];
	const char *bodies[2] = {"ld A[tid] -> r1; alu 5 <- r1 -> r2; st B[tid] <- r2",
				 "ld A[tid] -> r1; alu.sfu 5 <- r1 -> r2; st B[tid] <- r2"};
	for (int i = 0; i < 2; i++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		REQUIRE(tk_start(&t, 64, 2, bodies[i]));
		run_all(&t);
		cyc[i] = sim_cycle(t.s);
		alu[i] = tk_stat(&t, "core.stall.alu");
		CHECK(stats_find(sim_stats_c(t.s), "core.op.sfu.insts") < 0);
		tk_end(&t);
	}
	CHECK_EQ(cyc[1], cyc[0]);
	CHECK_EQ(alu[1], alu[0]);
}

TEST(opunit_unknown_unit_is_named)
{
	struct kernel_src src;
	memset(&src, 0, sizeof src);
	snprintf(src.name, sizeof src.name, "u");
	snprintf(src.grid[0], sizeof src.grid[0], "1");
	snprintf(src.block[0], sizeof src.block[0], "32");
	for (int d = 1; d < 3; d++) {
		snprintf(src.grid[d], sizeof src.grid[d], "1");
		snprintf(src.block[d], sizeof src.block[d], "1");
	}
	src.nbody = 1;
	snprintf(src.body[0], sizeof src.body[0], "alu.fpu 3");
	char *err = NULL;
	struct kernel *k = kernel_compile(&src, 1, &err);
	CHECK(k == NULL);
	CHECK(err && strstr(err, "unknown unit 'fpu'") && strstr(err, "column 5"));
	free(err);
	kernel_free(k);
}

static unsigned unit_of(const char *op)
{
	unsigned size, flags, cls = trace_classify(op, strlen(op), &size, &flags);
	return trace_unit(op, strlen(op), cls);
}

/* Accel-Sim's tables: fp32/fp16 on sp, integer and everything else ALU on
 * int, MUFU on sfu, fp64 on dp, MMA on tensor, control flow on branch. */
TEST(opunit_sass_opcodes_map_to_units)
{
	CHECK_EQ(unit_of("FFMA"), KU_SP);
	CHECK_EQ(unit_of("FADD.FTZ"), KU_SP);
	CHECK_EQ(unit_of("HFMA2.MMA"), KU_SP);
	CHECK_EQ(unit_of("RRO.EX2"), KU_SP);
	CHECK_EQ(unit_of("IMAD.MOV.U32"), KU_INT);
	CHECK_EQ(unit_of("LOP3.LUT"), KU_INT);
	CHECK_EQ(unit_of("F2I.TRUNC"), KU_INT);
	CHECK_EQ(unit_of("S2R"), KU_INT);
	CHECK_EQ(unit_of("NOP"), KU_INT);
	CHECK_EQ(unit_of("MUFU.RSQ"), KU_SFU);
	CHECK_EQ(unit_of("DFMA"), KU_DP);
	CHECK_EQ(unit_of("HMMA.884.F32.F32"), KU_TENSOR);
	CHECK_EQ(unit_of("BRA"), KU_BRANCH);
	CHECK_EQ(unit_of("BSYNC"), KU_BRANCH);
	CHECK_EQ(unit_of("FOOBAR"), KU_INT);
}

/* why warp names the unit and the cycle it frees, or the register and the
 * cycle it is written. */
TEST(opunit_why_names_the_unit_and_the_register)
{
	struct tk t;
	units_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 2, "alu.sfu 1 <- r0 -> r1; alu.int 1 <- r1 -> r2"));
	bool saw_unit = false, saw_reg = false;
	while (!sim_done(t.s) && !(saw_unit && saw_reg)) {
		sim_step(t.s, 1);
		struct why_link l[8];
		for (int w = 0; w < 2; w++) {
			int n = inspect_why_warp(t.s, 0, w, l, 8);
			for (int i = 0; i < n; i++) {
				if (strstr(l[i].text, "its sfu unit is busy"))
					saw_unit = i + 1 < n && strstr(l[i + 1].text, "enters at cycle");
				if (strstr(l[i].text, "waits for r1, an ALU result"))
					saw_reg = i + 1 < n && strstr(l[i + 1].text, "r1 is written at cycle");
			}
		}
	}
	CHECK(saw_unit);
	CHECK(saw_reg);
	tk_end(&t);
}

/* Stepping, chunks and one go agree with units on, two schedulers and a
 * mixed kernel. */
TEST(opunit_step_equals_run)
{
	uint64_t h[3], c[3];
	for (int mode = 0; mode < 3; mode++) {
		struct tk t;
		units_cfg(&t.cfg);
		t.cfg.core.schedulers = 2;
		two_each(&t.cfg.core);
		t.cfg.core.op_sub_core = true;
		REQUIRE(tk_start(&t, 128, 3,
				 "ld A[bx*bdx + tid] -> r1; alu.sfu 2 <- r1 -> r2; alu.dp 1 <- r2 -> r3; alu 2 <- r3 -> r4; "
				 "st B[bx*bdx + tid] <- r4"));
		tk_run_mode(t.s, mode);
		h[mode] = sim_state_hash(t.s);
		c[mode] = sim_cycle(t.s);
		tk_end(&t);
	}
	CHECK_EQ(c[1], c[0]);
	CHECK_EQ(c[2], c[0]);
	CHECK(h[1] == h[0] && h[2] == h[0]);
}
