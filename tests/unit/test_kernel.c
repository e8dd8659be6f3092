/*
 * test_kernel.c: the kernel language (engine/kernel/kernel.c, kernel_exec.c) built
 * from struct kernel_src in C: dimensions and array placement, per-lane
 * addresses, loops, divergence masks, partial warps, the default register
 * rule, and every compile error (statement and column).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "test.h"

/* A source with arrays A, B, C (4-byte, len n) and the given body (NULL-terminated). */
static void mk(struct kernel_src *s, const char *grid, const char *block, int64_t n, ...)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "t");
	snprintf(s->grid[0], sizeof(s->grid[0]), "%s", grid);
	snprintf(s->block[0], sizeof(s->block[0]), "%s", block);
	s->nparams = 1;
	snprintf(s->params[0].name, KNAME_MAX, "n");
	s->params[0].value = n;
	s->narrays = 3;
	for (unsigned i = 0; i < 3; i++) {
		snprintf(s->arrays[i].name, KNAME_MAX, "%c", 'A' + i);
		s->arrays[i].elem = 4;
		snprintf(s->arrays[i].len, sizeof(s->arrays[i].len), "n");
	}
	va_list ap;
	va_start(ap, n);
	for (const char *b; (b = va_arg(ap, const char *)) != NULL;)
		snprintf(s->body[s->nbody++], sizeof(s->body[0]), "%s", b);
	va_end(ap);
}

static struct kernel *compile_ok(const struct kernel_src *s)
{
	char *err = NULL;
	struct kernel *k = kernel_compile(s, 1, &err);
	if (!k)
		test_fail(__FILE__, __LINE__, "compile failed: %s", err);
	free(err);
	return k;
}

/* The compile error message ("" if it compiled). */
static char errbuf[512];
static const char *compile_err(const struct kernel_src *s)
{
	char *err = NULL;
	struct kernel *k = kernel_compile(s, 1, &err);
	snprintf(errbuf, sizeof(errbuf), "%s", k ? "" : err ? err : "(no message)");
	kernel_free(k);
	free(err);
	return errbuf;
}

/* Run one warp to the end; returns instruction count, records ops/masks. */
static unsigned run_warp(const struct kernel *k, uint32_t cta, uint32_t warp, unsigned wsz, struct winst *log,
                         unsigned maxlog)
{
	struct kwarp w;
	struct winst in;
	unsigned n = 0;
	kernel_warp_start(k, &w, cta, warp, wsz);
	while (kernel_warp_next(k, &w, &in)) {
		if (n < maxlog)
			log[n] = in;
		n++;
		if (n > 100000)
			break;
	}
	CHECK_EQ(in.op, KOP_EXIT);
	CHECK(w.exited);
	return n;
}

TEST(kernel_vecadd_addresses)
{
	struct kernel_src s;
	mk(&s, "n/256", "256", 65536, "ld A[tid + bx*bdx]", "ld B[tid + bx*bdx]", "alu 4",
	   "st C[tid + bx*bdx]", NULL);
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	CHECK_EQ(kernel_ctas(k), 256);
	CHECK_EQ(kernel_threads_per_cta(k), 256);
	CHECK_EQ(kernel_nregs(k), 32);
	uint32_t g[3], b[3];
	kernel_grid(k, g, b);
	CHECK_EQ(g[0], 256);
	CHECK_EQ(g[1], 1);
	CHECK_EQ(b[0], 256);
	CHECK_EQ(b[2], 1);
	const char *name;
	uint64_t base, bytes, lo, hi;
	kernel_array(k, 1, &name, &base, &bytes);
	CHECK_STR(name, "B");
	CHECK_EQ(base, 0x10040000);
	CHECK_EQ(bytes, 65536 * 4);
	kernel_footprint(k, &lo, &hi);
	CHECK_EQ(lo, 0x10000000);
	CHECK_EQ(hi, 0x100C0000);

	struct kwarp w;
	struct winst in;
	kernel_warp_start(k, &w, 2, 1, 32);
	CHECK_EQ(w.full_mask, 0xffffffffull);
	REQUIRE(kernel_warp_next(k, &w, &in));
	CHECK_EQ(in.op, KOP_LD);
	CHECK_EQ(in.size, 4);
	CHECK_EQ(in.stmt, 0);
	CHECK_EQ(in.active, 0xffffffffull);
	for (unsigned i = 0; i < 32; i++)
		CHECK_EQ(in.addr[i], 0x10000000 + (2 * 256 + 32 + i) * 4);
	REQUIRE(kernel_warp_next(k, &w, &in));
	CHECK_EQ(in.op, KOP_LD);
	CHECK_EQ(in.addr[31], 0x10040000 + (2 * 256 + 32 + 31) * 4);
	REQUIRE(kernel_warp_next(k, &w, &in));
	CHECK_EQ(in.op, KOP_ALU);
	CHECK_EQ(in.alu_cycles, 4);
	REQUIRE(kernel_warp_next(k, &w, &in));
	CHECK_EQ(in.op, KOP_ST);
	CHECK_EQ(in.stmt, 3);
	CHECK_EQ(in.addr[0], 0x10080000 + (2 * 256 + 32) * 4);
	CHECK(!kernel_warp_next(k, &w, &in));
	CHECK_EQ(in.op, KOP_EXIT);
	CHECK_EQ(in.stmt, 4);
	CHECK(!kernel_warp_next(k, &w, &in)); /* stays exited */
	CHECK_EQ(in.op, KOP_EXIT);
	CHECK_STR(kernel_stmt_text(k, 0), "ld A[tid + bx*bdx]");
	CHECK_STR(kernel_stmt_text(k, 4), "exit");
	CHECK_EQ(kernel_nstmts(k), 4);
	kernel_free(k);
}

TEST(kernel_default_register_rule)
{
	struct kernel_src s;
	mk(&s, "1", "32", 64, "ld A[tid]", "ld B[tid]", "alu 4", "st C[tid]", "ldsh tid*4", "stsh tid*4",
	   "atom A[0]", "alu 1", "bar", NULL);
	s.nregs = 3; /* registers rotate over r1, r2 */
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	struct winst in[16];
	REQUIRE(run_warp(k, 0, 0, 32, in, 16) == 9);
	/* ld A -> r1 */
	CHECK_EQ(in[0].ndst, 1);
	CHECK_EQ(in[0].dst, 1);
	CHECK_EQ(in[0].nsrc, 0);
	/* ld B -> r2 */
	CHECK_EQ(in[1].dst, 2);
	/* alu <- r1, r2 -> r1 (k = 2 wraps with nregs = 3) */
	CHECK_EQ(in[2].nsrc, 2);
	CHECK_EQ(in[2].src[0], 1);
	CHECK_EQ(in[2].src[1], 2);
	CHECK_EQ(in[2].dst, 1);
	/* st <- r1 (the alu's result) */
	CHECK_EQ(in[3].ndst, 0);
	CHECK_EQ(in[3].nsrc, 1);
	CHECK_EQ(in[3].src[0], 1);
	/* ldsh -> r2, stsh <- r2, size 4, byte addresses */
	CHECK_EQ(in[4].op, KOP_LDSH);
	CHECK_EQ(in[4].dst, 2);
	CHECK_EQ(in[4].size, 4);
	CHECK_EQ(in[4].addr[3], 12);
	CHECK_EQ(in[5].op, KOP_STSH);
	CHECK_EQ(in[5].src[0], 2);
	/* atom <- r2, no destination */
	CHECK_EQ(in[6].op, KOP_ATOM);
	CHECK_EQ(in[6].ndst, 0);
	CHECK_EQ(in[6].src[0], 2);
	CHECK_EQ(in[6].addr[17], 0x10000000);
	/* alu <- r1, r2 (most recent second) -> r1 */
	CHECK_EQ(in[7].src[0], 1);
	CHECK_EQ(in[7].src[1], 2);
	CHECK_EQ(in[7].dst, 1);
	CHECK_EQ(in[8].op, KOP_BAR);
	CHECK_EQ(in[8].ndst + in[8].nsrc, 0);
	kernel_free(k);
}

TEST(kernel_explicit_registers)
{
	struct kernel_src s;
	mk(&s, "1", "32", 64, "st C[tid]", "ld A[tid] -> r5", "ld B[tid] <- r5", "alu 2 <- r7, r6, r5 -> r9",
	   "atom A[tid] -> r4 <- r9", "st C[tid] <- r4 # comment", "# a comment line", "", NULL);
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	struct winst in[8];
	REQUIRE(run_warp(k, 0, 0, 32, in, 8) == 6);
	CHECK_EQ(in[0].nsrc, 0); /* nothing written yet */
	CHECK_EQ(in[1].dst, 5);
	CHECK_EQ(in[2].nsrc, 1);
	CHECK_EQ(in[2].src[0], 5);
	CHECK_EQ(in[2].dst, 2); /* second register-writing statement: r(1 + 1) */
	CHECK_EQ(in[3].nsrc, 3);
	CHECK_EQ(in[3].src[2], 5);
	CHECK_EQ(in[3].dst, 9);
	CHECK_EQ(in[4].ndst, 1);
	CHECK_EQ(in[4].dst, 4);
	CHECK_EQ(in[4].src[0], 9);
	CHECK_EQ(in[5].src[0], 4);
	kernel_free(k);
}

static unsigned count_alu(const char *l1, const char *l2, const char *l3, const char *l4, const char *l5,
                          int64_t n)
{
	struct kernel_src s;
	mk(&s, "2", "32", n, l1, l2, l3, l4, l5, NULL);
	struct kernel *k = compile_ok(&s);
	if (!k)
		return 9999;
	struct winst log[1];
	unsigned c = run_warp(k, 0, 0, 32, log, 0);
	kernel_free(k);
	return c;
}

TEST(kernel_loop_trip_counts)
{
	CHECK_EQ(count_alu("loop i 0 5", "alu 1", "end", NULL, NULL, 64), 5);
	CHECK_EQ(count_alu("loop i 0 10 3", "alu 1", "end", NULL, NULL, 64), 4);
	CHECK_EQ(count_alu("loop i 5, 0, -2", "alu 1", "end", NULL, NULL, 64), 3);
	CHECK_EQ(count_alu("loop i 0 0", "alu 1", "end", "alu 1", NULL, 64), 1);
	CHECK_EQ(count_alu("loop i 7 3", "alu 1", "end", NULL, NULL, 64), 0);
	CHECK_EQ(count_alu("loop i 3 n", "alu 1", "end", NULL, NULL, 10), 7);
	CHECK_EQ(count_alu("loop i 0 (n-1) (n/2)", "alu 1", "end", NULL, NULL, 10), 2);
	CHECK_EQ(count_alu("loop i 5 0 -2", "alu 1", "end", NULL, NULL, 64), 3); /* spaces separate bounds */
	CHECK_EQ(count_alu("loop i n-1 -1 -1", "alu 1", "end", NULL, NULL, 10), 10);
	CHECK_EQ(count_alu("loop i 0, n - 1, min(2, n)", "alu 1", "end", NULL, NULL, 10), 5);
	CHECK_EQ(count_alu("loop i 0 ( n - 1 )", "alu 1", "end", NULL, NULL, 10), 9);
	CHECK_EQ(count_alu("loop i 0 3", "loop j i 3", "alu 1", "end", "end", 64), 6);
	CHECK_EQ(count_alu("loop i 0 10 bx", "alu 1", "end", NULL, NULL, 64), 0); /* run-time step 0 */
	/* No overflow past INT64_MAX. */
	CHECK_EQ(
	    count_alu("loop i 9223372036854775800 9223372036854775807 4", "alu 1", "end", NULL, NULL, 64), 2);
}

TEST(kernel_loop_variable_in_addresses)
{
	struct kernel_src s;
	mk(&s, "1", "32", 4096, "loop i 0 4", "loop j 0 2", "ld A[i*100 + j*10 + lane]", "end", "end", NULL);
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	struct winst in[8];
	REQUIRE(run_warp(k, 0, 0, 32, in, 8) == 8);
	for (unsigned t = 0; t < 8; t++) {
		CHECK_EQ(in[t].stmt, 2);
		CHECK_EQ(in[t].addr[5], 0x10000000 + ((t / 2) * 100 + (t % 2) * 10 + 5) * 4);
	}
	kernel_free(k);
}

TEST(kernel_nested_if_masks)
{
	struct kernel_src s;
	mk(&s, "1", "32", 64, "if lane < 16", "ld A[lane]", "if lane % 2 == 0", "ld A[lane]", "else",
	   "ld A[lane]", "end", "else", "ld A[lane]", "end", "ld A[lane]", NULL);
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	struct winst in[8];
	REQUIRE(run_warp(k, 0, 0, 32, in, 8) == 5);
	CHECK_EQ(in[0].active, 0x0000ffffull);
	CHECK_EQ(in[1].active, 0x00005555ull);
	CHECK_EQ(in[1].stmt, 3);
	CHECK_EQ(in[2].active, 0x0000aaaaull);
	CHECK_EQ(in[2].stmt, 5);
	CHECK_EQ(in[3].active, 0xffff0000ull);
	CHECK_EQ(in[3].stmt, 8);
	CHECK_EQ(in[3].addr[16], 0x10000000 + 16 * 4);
	CHECK_EQ(in[4].active, 0xffffffffull);
	kernel_free(k);
}

TEST(kernel_if_skips_when_no_lane_active)
{
	struct kernel_src s;
	/* No lane takes the then-part: straight to the else-part with every lane. */
	mk(&s, "1", "32", 64, "if lane > 100", "ld A[lane]", "else", "alu 2", "end", "alu 3", NULL);
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	struct winst in[4];
	REQUIRE(run_warp(k, 0, 0, 32, in, 4) == 2);
	CHECK_EQ(in[0].alu_cycles, 2);
	CHECK_EQ(in[0].active, 0xffffffffull);
	CHECK_EQ(in[1].alu_cycles, 3);
	kernel_free(k);
	/* Every lane takes it: the else-part is skipped. A loop inside an if. */
	mk(&s, "1", "32", 64, "if lane >= 0", "loop i 0 2", "alu 1", "end", "else", "alu 2", "end", NULL);
	k = compile_ok(&s);
	REQUIRE(k);
	REQUIRE(run_warp(k, 0, 0, 32, in, 4) == 2);
	CHECK_EQ(in[1].alu_cycles, 1);
	kernel_free(k);
	/* No else and no lane: the body is skipped entirely. */
	mk(&s, "1", "32", 64, "if tid == 1000", "alu 1", "if 1", "alu 1", "end", "end", "bar", NULL);
	k = compile_ok(&s);
	REQUIRE(k);
	REQUIRE(run_warp(k, 0, 0, 32, in, 4) == 1);
	CHECK_EQ(in[0].op, KOP_BAR);
	kernel_free(k);
}

TEST(kernel_divergent_loop_bounds_use_first_active_lane)
{
	struct kernel_src s;
	mk(&s, "1", "32", 64, "if lane >= 4", "loop i 0 lane", "alu 1", "end", "end", NULL);
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	struct winst in[8];
	CHECK_EQ(run_warp(k, 0, 0, 32, in, 8), 4); /* lane 4 decides */
	kernel_free(k);
}

TEST(kernel_partial_warps)
{
	struct kernel_src s;
	mk(&s, "1", "48", 64, "ld A[tid]", NULL);
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	struct kwarp w;
	struct winst in;
	kernel_warp_start(k, &w, 0, 1, 32);
	CHECK_EQ(w.full_mask, 0xffffull);
	REQUIRE(kernel_warp_next(k, &w, &in));
	CHECK_EQ(in.active, 0xffffull);
	CHECK_EQ(in.addr[15], 0x10000000 + 47 * 4);
	kernel_warp_start(k, &w, 0, 0, 64);
	CHECK_EQ(w.full_mask, 0xffffffffffffull);
	kernel_warp_start(k, &w, 0, 0, 32);
	CHECK_EQ(w.full_mask, 0xffffffffull);
	kernel_warp_start(k, &w, 0, 2, 32); /* no threads: exits at once */
	CHECK(!kernel_warp_next(k, &w, &in));
	CHECK_EQ(in.op, KOP_EXIT);
	kernel_free(k);
	mk(&s, "1", "64", 64, "ld A[tid]", NULL);
	k = compile_ok(&s);
	REQUIRE(k);
	kernel_warp_start(k, &w, 0, 0, 64);
	CHECK_EQ(w.full_mask, ~0ull);
	REQUIRE(kernel_warp_next(k, &w, &in));
	CHECK_EQ(in.addr[63], 0x10000000 + 63 * 4);
	kernel_free(k);
}

TEST(kernel_thread_and_block_coordinates)
{
	struct kernel_src s;
	mk(&s, "4", "16", 1 << 20, "ld A[tx + ty*1000 + tz*100000]", "ld A[bx + by*100 + bz*10000]",
	   "ld A[warp*1000 + lane]", "ld A[gdx*100 + gdy*10 + gdz]", NULL);
	snprintf(s.grid[1], sizeof(s.grid[1]), "3");
	snprintf(s.grid[2], sizeof(s.grid[2]), "2");
	snprintf(s.block[1], sizeof(s.block[1]), "8");
	snprintf(s.block[2], sizeof(s.block[2]), "2");
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	CHECK_EQ(kernel_ctas(k), 24);
	CHECK_EQ(kernel_threads_per_cta(k), 256);
	struct winst in[4];
	/* CTA 17: bx = 1, by = 1, bz = 1. Warp 5, lane 3: tid 163 -> tx 3, ty 2, tz 1. */
	REQUIRE(run_warp(k, 17, 5, 32, in, 4) == 4);
	CHECK_EQ(in[0].addr[3], 0x10000000 + (3 + 2 * 1000 + 100000) * 4);
	CHECK_EQ(in[1].addr[3], 0x10000000 + (1 + 100 + 10000) * 4);
	CHECK_EQ(in[2].addr[3], 0x10000000 + (5000 + 3) * 4);
	CHECK_EQ(in[3].addr[0], 0x10000000 + 432 * 4);
	kernel_free(k);
}

TEST(kernel_array_placement_and_params)
{
	struct kernel_src s;
	mk(&s, "1", "32", 1000, "ld C[tid]", NULL);
	snprintf(s.arrays[1].base, sizeof(s.arrays[1].base), "0x20000000 + n");
	s.arrays[2].elem = 8;
	CHECK_EQ(kernel_src_set_param(&s, "n", 5000, NULL), 0);
	char *err = NULL;
	CHECK_EQ(kernel_src_set_param(&s, "m", 1, &err), -1);
	CHECK_STR(err, "kernel t has no param 'm' (params: n)");
	free(err);
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	const char *name;
	uint64_t base, bytes, lo, hi;
	kernel_array(k, 0, &name, &base, &bytes);
	CHECK_EQ(base, 0x10000000);
	CHECK_EQ(bytes, 20000);
	kernel_array(k, 1, &name, &base, &bytes);
	CHECK_EQ(base, 0x20000000 + 5000);
	kernel_array(k, 2, &name, &base, &bytes); /* after B's end, page-aligned */
	CHECK_EQ(base, 0x20007000);               /* B ends at 0x20001388 + 20000 = 0x200061a8 */
	CHECK_EQ(bytes, 40000);
	kernel_footprint(k, &lo, &hi);
	CHECK_EQ(lo, 0x10000000);
	CHECK_EQ(hi, 0x20007000 + 40000);
	struct winst in[1];
	REQUIRE(run_warp(k, 0, 0, 32, in, 1) == 1);
	CHECK_EQ(in[0].size, 8);
	CHECK_EQ(in[0].addr[2], 0x20007000 + 16);
	CHECK_EQ(kernel_nparams(k), 1);
	int64_t v;
	kernel_param(k, 0, &name, &v);
	CHECK_STR(name, "n");
	CHECK_EQ(v, 5000);
	kernel_free(k);
}

TEST(kernel_hash_addresses_depend_on_seed)
{
	struct kernel_src s;
	mk(&s, "1", "32", 1024, "ld A[hash(tid) % n]", NULL);
	char *err = NULL;
	struct kernel *k1 = kernel_compile(&s, 1, &err), *k2 = kernel_compile(&s, 1, &err),
	              *k3 = kernel_compile(&s, 2, &err);
	REQUIRE(k1 && k2 && k3);
	struct winst a[1], b[1], c[1];
	run_warp(k1, 0, 0, 32, a, 1);
	run_warp(k2, 0, 0, 32, b, 1);
	run_warp(k3, 0, 0, 32, c, 1);
	unsigned same12 = 0, same13 = 0;
	for (unsigned i = 0; i < 32; i++) {
		CHECK(a[0].addr[i] >= 0x10000000 && a[0].addr[i] < 0x10000000 + 4096);
		same12 += a[0].addr[i] == b[0].addr[i];
		same13 += a[0].addr[i] == c[0].addr[i];
	}
	CHECK_EQ(same12, 32);
	CHECK(same13 < 8);
	kernel_free(k1);
	kernel_free(k2);
	kernel_free(k3);
}

#define BODY_ERR(expect, ...)                                                                                \
	do {                                                                                                 \
		struct kernel_src s_;                                                                        \
		mk(&s_, "1", "32", 64, __VA_ARGS__, NULL);                                                   \
		CHECK_STR(compile_err(&s_), expect);                                                         \
	} while (0)

TEST(kernel_errors_statements)
{
	BODY_ERR("kernel t, statement 2 (ld A[tid+]), column 10: expected an operand", "alu 1", "ld A[tid+]");
	BODY_ERR("kernel t, statement 1 (ld A[foo]), column 6: unknown identifier 'foo'", "ld A[foo]");
	BODY_ERR("kernel t, statement 1 (ld Q[tid]), column 4: unknown array 'Q'", "ld Q[tid]");
	BODY_ERR("kernel t, statement 1 (ld A(tid)), column 5: expected '[' after the array name",
	         "ld A(tid)");
	BODY_ERR("kernel t, statement 1 (ld A[tid), column 9: expected ']'", "ld A[tid");
	BODY_ERR(
	    "kernel t, statement 1 (load A[tid]), column 1: unknown statement 'load' (expected ld, st, atom, "
	    "ldsh, stsh, alu, bar, loop, if, else or end)",
	    "load A[tid]");
	BODY_ERR("kernel t, statement 1 (end), column 1: 'end' without an open loop or if", "end");
	BODY_ERR("kernel t, statement 1 (else), column 1: 'else' without an open if", "else");
	BODY_ERR("kernel t, statement 1 (loop i 0 4), column 1: this loop has no matching 'end'",
	         "loop i 0 4", "alu 1");
	BODY_ERR("kernel t, statement 2 (if tid < 3), column 1: this if has no matching 'end'", "alu 1",
	         "if tid < 3", "alu 1");
	BODY_ERR("kernel t, statement 3 (else), column 1: second 'else' for the if at statement 1", "if 1",
	         "else", "else", "end");
	BODY_ERR(
	    "kernel t, statement 3 (else), column 1: 'else' inside a loop opened at statement 2 (close the "
	    "loop first)",
	    "if 1", "loop i 0 2", "else");
	BODY_ERR("kernel t, statement 2 (end), column 1: the loop opened at statement 1 has an empty body",
	         "loop i 0 2", "end");
	BODY_ERR("kernel t, statement 1 (loop n 0 4), column 6: 'n' is already a param or an enclosing loop "
	         "variable",
	         "loop n 0 4", "alu 1", "end");
	BODY_ERR("kernel t, statement 2 (loop i 0 4), column 6: 'i' is already a param or an enclosing loop "
	         "variable",
	         "loop i 0 4", "loop i 0 4", "alu 1", "end", "end");
	BODY_ERR(
	    "kernel t, statement 1 (loop tid 0 4), column 6: 'tid' is a built-in name, not usable as a loop "
	    "variable",
	    "loop tid 0 4", "alu 1", "end");
	BODY_ERR("kernel t, statement 1 (loop i 0 4 n-n), column 12: loop step is 0", "loop i 0 4 n-n",
	         "alu 1", "end");
	BODY_ERR("kernel t, statement 1 (loop i 0), column 9: expected the loop bound TO (loop VAR FROM TO "
	         "[STEP])",
	         "loop i 0", "alu 1", "end");
	BODY_ERR("kernel t, statement 1 (loop i 0 4 1 2), column 14: too many loop bounds (loop VAR FROM TO "
	         "[STEP]; "
	         "put a bound with spaces in parentheses or separate the bounds with commas)",
	         "loop i 0 4 1 2", "alu 1", "end");
	BODY_ERR("kernel t, statement 4 (ld A[i]), column 6: unknown identifier 'i'", "loop i 0 4", "alu 1",
	         "end", "ld A[i]");
	BODY_ERR("kernel t, statement 1 (alu 0), column 5: alu cycles = 0, must be 1..65535", "alu 0");
	BODY_ERR("kernel t, statement 1 (alu tid), column 5: unknown identifier 'tid'", "alu tid");
	BODY_ERR(
	    "kernel t, statement 1 (bar now), column 5: unexpected text 'now' (expected '-> rD', '<- rS' or "
	    "the end)",
	    "bar now");
	BODY_ERR("kernel t, statement 1 (bar -> r1), column 5: this statement writes no register (no '->')",
	         "bar -> r1");
	BODY_ERR(
	    "kernel t, statement 1 (st A[tid] -> r1), column 11: this statement writes no register (no '->')",
	    "st A[tid] -> r1");
	BODY_ERR(
	    "kernel t, statement 1 (ld A[tid] -> r32), column 14: register r32 out of range (nregs = 32)",
	    "ld A[tid] -> r32");
	BODY_ERR("kernel t, statement 1 (ld A[tid] <- r1, x), column 18: expected a register (r0, r1, ...)",
	         "ld A[tid] <- r1, x");
	BODY_ERR("kernel t, statement 1 (ld A[tid] <- r1,r2,r3,r4), column 23: at most 3 source registers",
	         "ld A[tid] <- r1,r2,r3,r4");
	BODY_ERR("kernel t, statement 1 (if tid < 3 4), column 12: unexpected text after the condition",
	         "if tid < 3 4", "end");
	BODY_ERR("kernel t, statement 1 (ld A[tid] + 1), column 11: unexpected text '+ 1' (expected '-> rD', "
	         "'<- rS' or the end)",
	         "ld A[tid] + 1");
	BODY_ERR("kernel t, statement 9 (loop i8 0 2), column 1: loops and ifs nested deeper than 8",
	         "loop i0 0 2", "loop i1 0 2", "loop i2 0 2", "loop i3 0 2", "if 1", "loop i5 0 2",
	         "loop i6 0 2", "loop i7 0 2", "loop i8 0 2");
	BODY_ERR("kernel t, statement 1 (loop i 0 n - 1), column 14: too many loop bounds (loop VAR FROM TO "
	         "[STEP]; "
	         "put a bound with spaces in parentheses or separate the bounds with commas)",
	         "loop i 0 n - 1", "alu 1", "end");
	BODY_ERR("kernel t, statement 1 (loop i 0, n+), column 13: expected an operand", "loop i 0, n+",
	         "alu 1", "end");
	BODY_ERR("kernel t, statement 1 (loop i 0 n)), column 11: unexpected ')' in a loop bound",
	         "loop i 0 n)", "alu 1", "end");
	BODY_ERR("kernel t, statement 1 (= 3), column 1: expected a statement (ld, st, atom, ldsh, stsh, "
	         "alu, bar, "
	         "loop, if, else or end)",
	         "= 3");
}

TEST(kernel_errors_dimensions_and_arrays)
{
	struct kernel_src s;
	mk(&s, "n/256", "256", 100, "alu 1", NULL);
	CHECK_STR(compile_err(&s), "kernel t, grid x (n/256) = 0: must be 1..2^31 (check the params)");
	mk(&s, "n/", "256", 100, "alu 1", NULL);
	CHECK_STR(compile_err(&s), "kernel t, grid x (n/), column 3: expected an operand");
	mk(&s, "65536", "32", 100, "alu 1", NULL);
	snprintf(s.grid[1], sizeof(s.grid[1]), "65536");
	CHECK_STR(compile_err(&s), "kernel t: grid 65536x65536x1 has 4294967296 CTAs, at most 2^31");
	mk(&s, "1", "64", 100, "alu 1", NULL);
	snprintf(s.block[1], sizeof(s.block[1]), "32");
	CHECK_STR(compile_err(&s), "kernel t: block 64x32x1 has 2048 threads, at most 1024");
	mk(&s, "1", "2000", 100, "alu 1", NULL);
	CHECK_STR(compile_err(&s), "kernel t, block x (2000) = 2000: must be 1..1024");
	mk(&s, "1", "tid", 100, "alu 1", NULL);
	CHECK_STR(compile_err(&s), "kernel t, block x (tid), column 1: unknown identifier 'tid'");
	mk(&s, "1", "32 32", 100, "alu 1", NULL);
	CHECK_STR(compile_err(&s),
	          "kernel t, block x (32 32), column 4: unexpected '3' after the expression");
	mk(&s, "1", "32", 100, NULL);
	CHECK_STR(compile_err(&s), "kernel t: the body is empty");
	mk(&s, "1", "32", 100, "alu 1", NULL);
	s.nbody = KMAX_STMTS + 1;
	CHECK_STR(compile_err(&s), "kernel t: 257 statements, at most 256");
	mk(&s, "1", "32", 100, "alu 1", NULL);
	s.arrays[1].elem = 3;
	CHECK_STR(compile_err(&s), "kernel t, array B: elem = 3, must be 1, 2, 4, 8 or 16 bytes");
	mk(&s, "1", "32", 100, "alu 1", NULL);
	snprintf(s.arrays[2].len, sizeof(s.arrays[2].len), "n-100");
	CHECK_STR(compile_err(&s), "kernel t, array C: len (n-100) = 0, must be 1..2^40 bytes");
	mk(&s, "1", "32", 100, "alu 1", NULL);
	snprintf(s.arrays[2].len, sizeof(s.arrays[2].len), "n*");
	CHECK_STR(compile_err(&s), "kernel t, array C len (n*), column 3: expected an operand");
	mk(&s, "1", "32", 100, "alu 1", NULL);
	snprintf(s.arrays[2].name, KNAME_MAX, "A");
	CHECK_STR(compile_err(&s), "kernel t, array 'A': declared twice");
	mk(&s, "1", "32", 100, "alu 1", NULL);
	snprintf(s.params[0].name, KNAME_MAX, "warp");
	CHECK_STR(compile_err(&s), "kernel t, param 'warp': the name is reserved (built-in identifier)");
	mk(&s, "1", "32", 100, "alu 1", NULL);
	s.nregs = 1;
	CHECK_STR(compile_err(&s), "kernel t: nregs = 1, must be 2..255");
	/* Dimensions are visible to grid and array expressions. */
	mk(&s, "n/bdx", "64", 6400, "alu 1", NULL);
	snprintf(s.arrays[0].len, sizeof(s.arrays[0].len), "gdx*bdx");
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	CHECK_EQ(kernel_ctas(k), 100);
	kernel_free(k);
}

TEST(kernel_dynamic_destination_register)
{
	struct kernel_src s;
	mk(&s, "1", "32", 4096, "loop i 0 5", "ld A[lane + i*32] -> r(1 + i*3)", "end", "st B[tid]", NULL);
	s.nregs = 8;
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	struct winst in[8];
	REQUIRE(run_warp(k, 0, 0, 32, in, 8) == 6);
	static const unsigned want[5] = {1, 4, 7, 2, 5}; /* (1 + 3i) mod 8 */
	for (unsigned i = 0; i < 5; i++) {
		CHECK_EQ(in[i].ndst, 1);
		CHECK_EQ(in[i].dst, want[i]);
	}
	CHECK_EQ(in[5].nsrc, 0); /* r(EXPR) is invisible to the default rule */
	kernel_free(k);
	BODY_ERR(
	    "kernel t, statement 1 (ld A[tid] -> r(lane)), column 16: a register expression must be the same "
	    "for the whole warp (no tx, ty, tz, lane, tid)",
	    "ld A[tid] -> r(lane)");
	BODY_ERR(
	    "kernel t, statement 1 (ld A[tid] -> r(1), r2), column 18: unexpected text ', r2' (expected '-> "
	    "rD', '<- rS' or the end)",
	    "ld A[tid] -> r(1), r2");
}

/* Value loads: an array with init makes `ld` set each lane's val to the
 * contents of the element it loaded, and a later address may use val. */
TEST(kernel_value_load_chases_pointers)
{
	struct kernel_src s;
	/* A[i] = (i*5 + 3) % n: a permutation walk for odd multipliers and a power-of-two n */
	mk(&s, "1", "4", 64, "ld A[tid] -> r1", "loop j 0 6", "  ld A[val] -> r1 <- r1", "end",
	   "st B[val] <- r1", NULL);
	snprintf(s.arrays[0].init, sizeof(s.arrays[0].init), "(i*5 + 3) %% n");
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	struct winst log[16];
	unsigned n = run_warp(k, 0, 0, 32, log, 16);
	REQUIRE(n == 8);
	for (unsigned lane = 0; lane < 4; lane++) {
		int64_t idx = lane; /* the first load's element */
		CHECK_EQ(log[0].addr[lane], 0x10000000 + (uint64_t)idx * 4);
		for (unsigned j = 0; j < 6; j++) {
			idx = (idx * 5 + 3) % 64; /* the value the previous load returned */
			CHECK_EQ(log[1 + j].op, KOP_LD);
			CHECK_EQ(log[1 + j].addr[lane], 0x10000000 + (uint64_t)idx * 4);
			CHECK_EQ(log[1 + j].nsrc, 1);
			CHECK_EQ(log[1 + j].src[0], 1);
		}
		idx = (idx * 5 + 3) % 64;
		CHECK_EQ(log[7].op, KOP_ST);
		CHECK_EQ(log[7].addr[lane], 0x10001000 + (uint64_t)idx * 4);
	}
	kernel_free(k);
}

/* A load from an array without init leaves val alone; val starts at 0. */
TEST(kernel_value_load_only_from_init_arrays)
{
	struct kernel_src s;
	mk(&s, "1", "32", 64, "ld B[val + 7] <- r0", "ld A[lane + 1] -> r1", "ld C[tid] -> r2",
	   "ld B[val] <- r1", NULL);
	snprintf(s.arrays[0].init, sizeof(s.arrays[0].init), "i * 2");
	struct kernel *k = compile_ok(&s);
	REQUIRE(k);
	struct winst log[8];
	REQUIRE(run_warp(k, 0, 0, 32, log, 8) == 4);
	for (unsigned lane = 0; lane < 32; lane++) {
		CHECK_EQ(log[0].addr[lane], 0x10001000 + 7 * 4);
		CHECK_EQ(log[3].addr[lane], 0x10001000 + (lane + 1) * 2 * 4); /* C's load changed nothing */
	}
	kernel_free(k);
}

TEST(kernel_value_load_errors)
{
	struct kernel_src s;
	mk(&s, "1", "32", 64, "ld A[tid] -> r1", "ld A[val]", NULL);
	snprintf(s.arrays[0].init, sizeof(s.arrays[0].init), "i");
	CHECK_STR(compile_err(&s), "kernel t, statement 2 (ld A[val]), column 1: the address uses 'val': "
	                           "name the register the value load wrote (<- rN), so this statement waits "
	                           "until the value is back");
	mk(&s, "1", "32", 64, "ld A[tid] -> r1", "if val < 3", "ld A[0] <- r1", "end", NULL);
	CHECK(strstr(compile_err(&s), "statement 2 (if val < 3), column 1: 'val' may only be used") != NULL);
	mk(&s, "1", "32", 64, "ld A[tid]", NULL);
	snprintf(s.arrays[1].init, sizeof(s.arrays[1].init), "i + j");
	CHECK_STR(compile_err(&s), "kernel t, array B init (i + j), column 5: unknown identifier 'j'");
	mk(&s, "1", "32", 64, "ld A[tid]", NULL);
	snprintf(s.arrays[1].init, sizeof(s.arrays[1].init), "tid");
	CHECK_STR(compile_err(&s), "kernel t, array B init (tid), column 1: unknown identifier 'tid'");
	mk(&s, "1", "32", 64, "loop val 0 2", "ld A[tid]", "end", NULL);
	CHECK(strstr(compile_err(&s), "'val' is a built-in name") != NULL);
}
