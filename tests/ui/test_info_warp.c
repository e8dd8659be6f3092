/*
 * test_info_warp.c: `info warp` shows the warp's cycles since launch split
 * into compute and memory stall, consistent with each other, with the run's
 * aggregate stats once every warp has exited.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sesstest.h"
#include "test.h"

static bool parse_cycles(const char *out, unsigned long long *res, unsigned long long *comp, unsigned long long *other,
			 unsigned long long *mem)
{
	const char *p = strstr(out, "cycles ");
	return p && sscanf(p, "cycles %llu since launch: compute %llu (other stalls %llu), memory stall %llu", res, comp,
			   other, mem) == 4;
}

TEST(info_warp_compute_and_memory_stall)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	CHECK_EQ(fx_run(&f, "step 300"), CMD_RUN);
	CHECK_EQ(fx_run(&f, "info warp 0"), CMD_OK);
	unsigned long long res, comp, other, mem;
	REQUIRE(parse_cycles(f.cap.out.s, &res, &comp, &other, &mem));
	CHECK_EQ(comp + mem, res);
	CHECK(other <= comp);
	CHECK(mem > 0); /* vecadd's warps wait for their loads */
	CHECK(res <= 300);
	/* A few cycles later the same warp has lived that much longer. */
	CHECK_EQ(fx_run(&f, "step 7"), CMD_RUN);
	CHECK_EQ(fx_run(&f, "info warp 0"), CMD_OK);
	unsigned long long res2, comp2, other2, mem2;
	REQUIRE(parse_cycles(f.cap.out.s, &res2, &comp2, &other2, &mem2));
	if (res2 > res) { /* the same warp (not relaunched in between) */
		CHECK_EQ(res2, res + 7);
		CHECK(mem2 >= mem);
	}
	/* The aggregates add up over finished warps. */
	CHECK_EQ(fx_run(&f, "continue"), CMD_RUN);
	CHECK_EQ(fx_run(&f, "print core.warp_compute_cycles"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "core.warp_compute_cycles = ");
	CHECK_EQ(fx_run(&f, "print core.warp_mem_stall_cycles"), CMD_OK);
	unsigned long long v = 0;
	CHECK(sscanf(f.cap.out.s, "core.warp_mem_stall_cycles = %llu", &v) == 1 && v > 0);
	fx_fini(&f);
}

/* `info sm` lines up its columns past CTA 9 (before: "cta 15.0  stalled"
 * one column right of "cta 0.0  stalled"): gtx480 runs CTAs 0 and 15 on SM 0. */
TEST(info_sm_columns_line_up)
{
	struct fx f;
	fx_init_wl(&f, "matmul_naive");
	CHECK_EQ(fx_run(&f, "load gtx480"), CMD_RESET);
	CHECK_EQ(fx_run(&f, "step 300"), CMD_RUN);
	CHECK_EQ(fx_run(&f, "info sm 0"), CMD_OK);
	const char *s = f.cap.out.s;
	long insts_col = -1, next_col = -1;
	int lines = 0, two_digit_cta = 0;
	for (const char *l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *e = strchr(l, '\n');
		const char *i = strstr(l, "insts "), *n = strstr(l, "next: ");
		if (!i || !n || (e && i > e))
			continue;
		if (strstr(l, "cta 15.") && strstr(l, "cta 15.") < e)
			two_digit_cta++;
		if (insts_col < 0)
			insts_col = i - l, next_col = n - l;
		CHECK_EQ(i - l, insts_col);
		CHECK_EQ(n - l, next_col);
		lines++;
	}
	CHECK(lines >= 16);
	CHECK(two_digit_cta >= 1);
	fx_fini(&f);
}
