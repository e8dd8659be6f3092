/*
 * test_cop.c: per-instruction cache operators (glc / slc in the kernel
 * language, .CG in traces): exact L1/L2 counts against the plain access, the
 * L2 left unallocated by slc, SI and the refusal by MOESI/NMOESI, parse
 * errors. The MemcpyHtoD fill (sim_l2_prefill) is at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coh/coh.h"
#include "debug/inspect.h"
#include "simtest.h"
#include "test.h"
#include "trace/trace.h"

#define A0 0x10000000ull /* A[0] */

/* Valid L2 lines holding addr's line (all banks, sets, ways). */
static int l2_copies(struct tk *t, uint64_t addr)
{
	int n = 0;
	for (int b = 0; b < t->cfg.l2.banks; b++)
		for (int set = 0; set < t->cfg.l2.sets; set++)
			for (int w = 0; w < t->cfg.l2.ways; w++) {
				struct line_info li;
				if (inspect_cache_line(t->s, CACHE_L2, b, set, w, &li) && li.valid && li.addr == addr)
					n++;
			}
	return n;
}

static int l1_valid_lines(struct tk *t)
{
	int n = 0;
	for (int set = 0; set < t->cfg.l1.sets; set++)
		for (int w = 0; w < t->cfg.l1.ways; w++) {
			struct line_info li;
			if (inspect_cache_line(t->s, CACHE_L1, 0, set, w, &li) && li.valid)
				n++;
		}
	return n;
}

/* One warp reads one line twice (the second load waits for the first). */
TEST(cop_glc_vs_plain_load_counts)
{
	for (int glc = 0; glc < 2; glc++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		REQUIRE(tk_start(&t, 32, 1,
				 glc ? "ld.glc A[tid] -> r1; alu 1 <- r1; ld.glc A[tid] -> r2; alu 1 <- r2"
				     : "ld A[tid] -> r1; alu 1 <- r1; ld A[tid] -> r2; alu 1 <- r2"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		if (glc) { /* no L1 lookup: both loads reach the L2, the second hits there */
			CHECK_EQ(tk_stat(&t, "l1.accesses"), 0);
			CHECK_EQ(tk_stat(&t, "l1.bypasses_cop"), 2);
			CHECK_EQ(tk_stat(&t, "sm0.l1.bypasses_cop"), 2);
			CHECK_EQ(tk_stat(&t, "l2.accesses"), 2);
			CHECK_EQ(tk_stat(&t, "l2.hits"), 1);
			CHECK_EQ(tk_stat(&t, "l2.misses"), 1);
			CHECK_EQ(l1_valid_lines(&t), 0);
		} else { /* the second load hits in the L1 */
			CHECK_EQ(tk_stat(&t, "l1.accesses"), 2);
			CHECK_EQ(tk_stat(&t, "l1.hits"), 1);
			CHECK_EQ(tk_stat(&t, "l1.misses"), 1);
			CHECK_EQ(tk_stat(&t, "l1.bypasses_cop"), 0);
			CHECK_EQ(tk_stat(&t, "l2.accesses"), 1);
			CHECK_EQ(tk_stat(&t, "l2.misses"), 1);
			CHECK_EQ(l1_valid_lines(&t), 1);
		}
		CHECK_EQ(tk_stat(&t, "l2.fills"), 1);
		CHECK_EQ(tk_stat(&t, "mem.reads"), 1);
		CHECK_EQ(l2_copies(&t, A0), 1);
		tk_end(&t);
	}
}

/* slc streams through the L2: fetched, answered, never allocated; a later
 * plain load misses in the L2 and allocates. */
TEST(cop_slc_leaves_the_l2_unallocated)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 1, "ld.slc A[tid] -> r1; alu 1 <- r1; ld.slc A[tid] -> r2; alu 1 <- r2"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.accesses"), 0);
	CHECK_EQ(tk_stat(&t, "l1.bypasses_cop"), 2);
	CHECK_EQ(tk_stat(&t, "l2.accesses"), 2);
	CHECK_EQ(tk_stat(&t, "l2.misses"), 2);
	CHECK_EQ(tk_stat(&t, "l2.slc_streamed"), 2);
	CHECK_EQ(tk_stat(&t, "l2.fills"), 0);
	CHECK_EQ(tk_stat(&t, "mem.reads"), 2);
	CHECK_EQ(l2_copies(&t, A0), 0);
	tk_end(&t);

	tk_base_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 1, "ld.slc A[tid] -> r1; alu 1 <- r1; ld A[tid] -> r2; alu 1 <- r2; ld A[tid] -> r3"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l2.accesses"), 2);
	CHECK_EQ(tk_stat(&t, "l2.misses"), 2);
	CHECK_EQ(tk_stat(&t, "l2.slc_streamed"), 1);
	CHECK_EQ(tk_stat(&t, "l2.fills"), 1);
	CHECK_EQ(tk_stat(&t, "l1.accesses"), 2);
	CHECK_EQ(tk_stat(&t, "l1.hits"), 1);
	CHECK_EQ(l2_copies(&t, A0), 1);
	tk_end(&t);

	/* st.slc on a miss writes around: the sectors go to memory, no line */
	tk_base_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 1, "st.slc A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l2.slc_streamed"), 1);
	CHECK_EQ(tk_stat(&t, "mem.writes"), 1);
	CHECK_EQ(l2_copies(&t, A0), 0);
	tk_end(&t);
}

/* Many warps streaming one array with slc while others read it plainly:
 * merges into streamed fetches, invariants at the end. */
TEST(cop_slc_mixed_with_plain_loads)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.sms = 2;
	t.cfg.l2.banks = 2;
	REQUIRE(tk_start(&t, 128, 8,
			 "loop i 0 8; if warp % 2 == 0; ld.slc A[(tid + i*128) % 1024] -> r1; else; "
			 "ld A[(tid + i*128) % 1024] -> r1; end; st.glc B[tid + bx*128] <- r1; end"));
	CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
	CHECK(tk_stat(&t, "l2.slc_streamed") > 0);
	CHECK_EQ(tk_stat(&t, "l1.hits") + tk_stat(&t, "l1.misses"), tk_stat(&t, "l1.accesses"));
	tk_end(&t);
}

/* st.glc under write_back: no write-allocate, the L1 keeps nothing. */
TEST(cop_glc_store_write_back_no_allocate)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l1.write_policy = L1W_WRITE_BACK;
	REQUIRE(tk_start(&t, 32, 1, "st.glc A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.writes"), 1);
	CHECK_EQ(tk_stat(&t, "l2.accesses"), 1);
	CHECK_EQ(l1_valid_lines(&t), 0);
	tk_end(&t);
	tk_base_cfg(&t.cfg);
	t.cfg.l1.write_policy = L1W_WRITE_BACK;
	REQUIRE(tk_start(&t, 32, 1, "st A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(l1_valid_lines(&t), 1);
	tk_end(&t);
}

/* SI: a glc load is the thesis's GLC (no L1 copy); MOESI/NMOESI refuse. */
TEST(cop_coherence_si_and_refusals)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l2.coh.protocol = COH_SI;
	REQUIRE(tk_start(&t, 64, 4,
			 "ld A[tid] -> r1; alu 1 <- r1; ld.glc A[tid] -> r2; st A[tid] <- r2; ld.slc B[tid] -> r3; "
			 "st.glc A[tid] <- r3; ld.glc A[tid] -> r4"));
	CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.bypasses_cop"), 3 * 8);
	CHECK_EQ(tk_stat(&t, "coh.errors"), 0);
	tk_end(&t);

	for (int p = COH_NMOESI; p <= COH_MOESI; p++) {
		struct sim_cfg c;
		tk_base_cfg(&c);
		c.l2.coh.protocol = p;
		struct kernel_src src = {0};
		snprintf(src.name, sizeof src.name, "k");
		snprintf(src.grid[0], 8, "1");
		snprintf(src.block[0], 8, "32");
		src.narrays = 1;
		snprintf(src.arrays[0].name, sizeof src.arrays[0].name, "A");
		src.arrays[0].elem = 4;
		snprintf(src.arrays[0].len, 8, "64");
		src.nbody = 1;
		snprintf(src.body[0], sizeof src.body[0], "ld.glc A[tid]");
		char *err = NULL;
		struct kernel *k = kernel_compile(&src, 1, &err);
		REQUIRE(k);
		struct workload wl = {.name = "k", .kernel = k};
		struct sim *s = sim_new(&c, &wl, &err);
		CHECK(s == NULL);
		CHECK(err && strstr(err, p == COH_MOESI ? "coherence.protocol=moesi" : "coherence.protocol=nmoesi"));
		free(err);
		kernel_free(k);
	}
}

TEST(cop_parse_errors)
{
	static const struct {
		const char *body, *want;
	} cases[] = {
		{"ld.foo A[tid]", "statement 1 (ld.foo A[tid]), column 4: unknown cache operator 'foo' (expected glc or slc)"},
		{"atom.slc A[tid]", "atom.slc is not supported"},
		{"ld. A[tid]", "unknown cache operator ''"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct kernel_src src = {0};
		snprintf(src.name, sizeof src.name, "k");
		snprintf(src.grid[0], 8, "1");
		snprintf(src.block[0], 8, "32");
		src.narrays = 1;
		snprintf(src.arrays[0].name, sizeof src.arrays[0].name, "A");
		src.arrays[0].elem = 4;
		snprintf(src.arrays[0].len, 8, "64");
		src.nbody = 1;
		snprintf(src.body[0], sizeof src.body[0], "%s", cases[i].body);
		char *err = NULL;
		struct kernel *k = kernel_compile(&src, 1, &err);
		CHECK(k == NULL);
		CHECK(err && strstr(err, cases[i].want));
		if (err && !strstr(err, cases[i].want))
			fprintf(stderr, "    got: %s\n", err);
		free(err);
		kernel_free(k);
	}
}

/* A .CG load in a trace bypasses the L1; the same line without .CG does not. */
TEST(cop_trace_cg_bypasses_l1)
{
	for (int cg = 0; cg < 2; cg++) {
		char t[1024];
		snprintf(t, sizeof t,
			 "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-nregs = 16\n"
			 "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
			 "0000 ffffffff 1 R2 LDG.E%s 1 R4 4 1 0x10000000 4 0\n"
			 "0010 ffffffff 1 R3 IADD3 1 R2 0\n"
			 "0020 ffffffff 1 R5 LDG.E%s 1 R3 4 1 0x10000000 4 0\n"
			 "0030 ffffffff 0 EXIT 0 0\n#END_TB\n",
			 cg ? ".CG" : "", cg ? ".CG" : "");
		char *err = NULL;
		struct trace_kernel *k = trace_index(t, strlen(t), "t.traceg", &err);
		REQUIRE(k);
		struct sim_cfg cfg;
		tk_base_cfg(&cfg);
		struct trace_view v;
		trace_view_init(&v, k, &cfg.trace);
		struct workload wl = {.name = "t", .ops = &trace_wl_ops, .impl = &v};
		struct sim *s = sim_new(&cfg, &wl, &err);
		REQUIRE(s);
		CHECK_EQ(sim_step(s, 1000000), SIM_STOP_DONE);
		const struct stats *st = sim_stats_c(s);
		uint64_t l1a = stats_value(st, (uint32_t)stats_find(st, "l1.accesses"));
		uint64_t byp = stats_value(st, (uint32_t)stats_find(st, "l1.bypasses_cop"));
		uint64_t l2a = stats_value(st, (uint32_t)stats_find(st, "l2.accesses"));
		CHECK_EQ(l1a, cg ? 0 : 2);
		CHECK_EQ(byp, cg ? 2 : 0);
		CHECK_EQ(l2a, cg ? 2 : 1);
		CHECK(sim_check_invariants(s, &err) == 0);
		sim_free(s);
		/* MOESI refuses the .CG trace at load */
		cfg.l2.coh.protocol = COH_MOESI;
		s = sim_new(&cfg, &wl, &err);
		CHECK((s == NULL) == (cg == 1));
		if (s)
			sim_free(s);
		free(err);
		trace_free(k);
	}
}
