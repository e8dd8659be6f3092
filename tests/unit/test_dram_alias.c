/*
 * test_dram_alias.c: the full-system model never lets two different lines
 * share a DRAM location (issue 20) for workloads that know their address
 * ranges: Accel-Sim traces (global and local space) and .trc traces. The
 * map takes addresses modulo the capacity, so distinct lines alias exactly
 * when they lie a multiple of the capacity apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/config.h"
#include "dram/dram.h"
#include "sim/sim.h"
#include "test.h"
#include "trace/trace.h"
#include "reuse/trc.h"

static uint64_t cap_of(const struct sim_cfg *c)
{
	return (uint64_t)c->dram.channels * (uint64_t)c->dram.ranks * (uint64_t)c->dram.banks * (uint64_t)c->dram.rows *
	       (uint64_t)c->dram.columns * (uint64_t)c->dram.bus_bytes;
}

static int check(const struct sim_cfg *c, const struct wl_range *in, unsigned n, char **err)
{
	struct wl_range r[8];
	memcpy(r, in, n * sizeof *r);
	free(*err);
	*err = NULL;
	return dram_check_ranges(c, "workload w", r, n, err);
}

TEST(dram_alias_ranges_exact)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	c.mem.model = MEM_DRAM;
	uint64_t cap = cap_of(&c), L = (uint64_t)c.l2.line;
	char *err = NULL;
	/* one range: exactly the capacity fits; one line more aliases its first line */
	struct wl_range one[] = {{0x10000000, 0x10000000 + cap - 1, "a.trc", "global"}};
	CHECK_EQ(check(&c, one, 1, &err), 0);
	one[0].last += 1; /* widened to the next whole line */
	CHECK_EQ(check(&c, one, 1, &err), -1);
	CHECK_CONTAINS(err, "workload w: a.trc global 0x10000000..");
	CHECK_CONTAINS(err, "more than the DRAM capacity");
	CHECK_CONTAINS(err, "raise dram.rows or dram.channels");
	/* two ranges exactly one capacity apart share the location of their first lines */
	struct wl_range two[] = {{cap + 8, cap + 8, "t", "local"}, {0, 63, "t", "global"}};
	CHECK_EQ(check(&c, two, 2, &err), -1);
	char want[128];
	snprintf(want, sizeof want, "the lines at 0x0 (t global 0x0..0x%llx) and 0x%llx (t local", (unsigned long long)(L - 1),
		 (unsigned long long)cap);
	CHECK_CONTAINS(err, want);
	CHECK_CONTAINS(err, "1 x the DRAM capacity apart");
	/* one line further on: the span exceeds the capacity but no two lines alias */
	two[0] = (struct wl_range){cap + L, cap + 2 * L - 1, "t", "local"};
	CHECK_EQ(check(&c, two, 2, &err), 0);
	/* high virtual addresses: global near 0x7f.., local at 2^47, offsets apart */
	uint64_t g = 0x7f0000000000ull;
	struct wl_range hi[] = {{g, g + 4 * L - 1, "k", "global"}, {TRACE_LOCAL_REGION + 4 * L, TRACE_LOCAL_REGION + 8 * L - 1, "k", "local"}};
	CHECK_EQ(check(&c, hi, 2, &err), 0);
	hi[1].lo = TRACE_LOCAL_REGION + 3 * L; /* 2^47 - 0x7f.. is a multiple of the power-of-two capacity */
	CHECK_EQ(check(&c, hi, 2, &err), -1);
	CHECK_CONTAINS(err, "two lines would share a DRAM location");
	/* empty ranges and the top of the address space */
	struct wl_range e[] = {{5, 4, "t", "local"}, {UINT64_MAX - 3, UINT64_MAX, "t", "global"}};
	CHECK_EQ(check(&c, e, 2, &err), 0);
	e[0] = (struct wl_range){0, 0, "t", "global"};
	CHECK_EQ(check(&c, e, 2, &err), 0);
	e[0] = (struct wl_range){UINT64_MAX - cap - 3, UINT64_MAX - cap, "t", "local"}; /* one capacity below */
	CHECK_EQ(check(&c, e, 2, &err), -1);
	CHECK_CONTAINS(err, "1 x the DRAM capacity apart");
	free(err);
}

/* A .trc workload on a small DRAM: refused when two lines alias, accepted
 * on a DRAM that holds it, and never checked with fixed-latency memory. */
TEST(dram_alias_trc_workload)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	c.mem.model = MEM_DRAM;
	c.dram.rows = 2;
	uint64_t cap = cap_of(&c);
	char text[256], *err = NULL;
	snprintf(text, sizeof text, "blocksize: 32 1 1\n0 0 4096 4\n1 0 %llu 4\n", (unsigned long long)(cap + 4096));
	struct trc *t = trc_parse(text, strlen(text), "two.trc", &err);
	REQUIRE(t);
	struct workload wl = {.name = "two.trc", .ops = &trc_wl_ops, .impl = t};
	struct sim *s = sim_new(&c, &wl, &err);
	CHECK(s == NULL);
	CHECK_CONTAINS(err, "workload two.trc: two.trc global 0x1000..");
	CHECK_CONTAINS(err, "two lines would share a DRAM location");
	free(err);
	err = NULL;
	c.dram.rows = 4; /* twice the capacity: the two lines are apart */
	s = sim_new(&c, &wl, &err);
	REQUIRE(s);
	CHECK_EQ(sim_step(s, 1000000), SIM_STOP_DONE);
	sim_free(s);
	c.dram.rows = 2;
	c.mem.model = MEM_FIXED;
	s = sim_new(&c, &wl, &err);
	REQUIRE(s);
	sim_free(s);
	trc_free(t);
}

/* An Accel-Sim trace: global loads at high virtual addresses and local
 * stores (placed per thread at TRACE_LOCAL_REGION) give two ranges; a global
 * line one capacity above another is refused, a DRAM twice as large runs. */
TEST(dram_alias_traceg_workload)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	c.mem.model = MEM_DRAM;
	c.dram.rows = 2;
	uint64_t cap = cap_of(&c), g = 0x7f0000001000ull;
	char text[1024], *err = NULL;
	snprintf(text, sizeof text,
		 "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-nregs = 16\n"
		 "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
		 "0000 ffffffff 1 R2 LDG.E 1 R4 4 1 0x%llx 4\n"
		 "0010 ffffffff 1 R3 LDG.E 1 R4 4 1 0x%llx 4\n"
		 "0020 ffffffff 0 STL 1 R3 4 1 0x10 0\n"
		 "0030 ffffffff 0 EXIT 0 0\n#END_TB\n",
		 (unsigned long long)g, (unsigned long long)(g + cap));
	struct trace_kernel *k = trace_index(text, strlen(text), "k.traceg", &err);
	REQUIRE(k);
	const struct trace_info *in = trace_get_info(k);
	CHECK_EQ(in->glob_lo, g);
	CHECK_EQ(in->glob_last, g + cap + 31 * 4 + 3);
	CHECK_EQ(in->local_lo, TRACE_LOCAL_REGION + 4 * 32 * 4); /* offset 16: word 4 of 32 threads */
	struct trace_view v;
	trace_view_init(&v, k, &c.trace);
	struct workload wl = {.name = "k.traceg", .ops = &trace_wl_ops, .impl = &v};
	struct sim *s = sim_new(&c, &wl, &err);
	CHECK(s == NULL);
	CHECK_CONTAINS(err, "workload k.traceg: k.traceg global 0x7f0000001000..");
	CHECK_CONTAINS(err, "more than the DRAM capacity");
	free(err);
	err = NULL;
	c.dram.rows = 4;
	s = sim_new(&c, &wl, &err);
	REQUIRE(s);
	CHECK_EQ(sim_step(s, 1000000), SIM_STOP_DONE);
	sim_free(s);
	trace_free(k);
}
