/*
 * test_kernels_builtin.c: every built-in kernel in configs/workloads/ loads
 * (load/loader.c), compiles (engine/kernel/kernel.c) and runs: the first and last
 * CTA's warps run to their exit, every global address stays inside the
 * kernel's array footprint and every shared address inside its shmem.
 * Lives under tests/ui/ because it needs the JSON loader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "load/loader.h"
#include "test.h"
#include "sim/util.h"

static const char *const expected[] = {
    "bfs_like",       "gather_random",   "histogram",       "matmul_naive", "matmul_tiled",
    "rd_assoc_probe", "rd_mshr_probe",   "reduction",       "saxpy",        "stencil2d",
    "strided",        "transpose_naive", "transpose_tiled", "vecadd",       "l2_set_burst",
    "shared_write",   "vws_thrash",      "l2_victim_churn", "pow2_stride",  "pointer_chase",
    "stream",         "smem_conflict",   "coalesce_ladder", "kmn_like",
};

/* Runs every warp of CTA `cta`; returns the number of instructions, or -1 after a failed check. */
static long run_cta(const char *name, const struct kernel *k, uint32_t cta)
{
	uint64_t lo, hi;
	kernel_footprint(k, &lo, &hi);
	unsigned warps = (kernel_threads_per_cta(k) + 31) / 32;
	long n = 0;
	for (unsigned wi = 0; wi < warps; wi++) {
		struct kwarp w;
		struct winst in;
		kernel_warp_start(k, &w, cta, wi, 32);
		while (kernel_warp_next(k, &w, &in)) {
			if (++n > 10000000) {
				test_fail(__FILE__, __LINE__, "%s: CTA %u warp %u does not terminate", name,
				          cta, wi);
				return -1;
			}
			if (!kop_is_mem(in.op))
				continue;
			for (unsigned l = 0; l < 32; l++) {
				if (!((in.active >> l) & 1))
					continue;
				uint64_t a = in.addr[l];
				bool ok = kop_is_global(in.op) ? a >= lo && a + in.size <= hi
				                               : a + in.size <= kernel_shmem_bytes(k);
				if (!ok) {
					test_fail(
					    __FILE__, __LINE__,
					    "%s: CTA %u warp %u lane %u: %s address 0x%llx out of range",
					    name, cta, wi, l, kernel_stmt_text(k, in.stmt),
					    (unsigned long long)a);
					return -1;
				}
			}
		}
		CHECK_EQ(in.op, KOP_EXIT);
	}
	return n;
}

TEST(builtin_kernels_compile_and_run)
{
	size_t n = 0;
	char **names = loader_names(LOADER_KERNELS, &n);
	REQUIRE(names);
	CHECK_EQ(n, ARRAY_LEN(expected));
	for (size_t i = 0; i < ARRAY_LEN(expected); i++) {
		bool found = false;
		for (size_t j = 0; j < n; j++)
			found |= strcmp(names[j], expected[i]) == 0;
		if (!found)
			test_fail(__FILE__, __LINE__, "built-in kernel %s is missing", expected[i]);
	}
	for (size_t j = 0; j < n; j++) {
		struct kernel_src src;
		char *err = NULL;
		if (loader_load_kernel(names[j], &src, &err)) {
			test_fail(__FILE__, __LINE__, "%s: %s", names[j], err);
			free(err);
			continue;
		}
		CHECK_STR(src.name, names[j]);
		struct kernel *k = kernel_compile(&src, 1, &err);
		if (!k) {
			test_fail(__FILE__, __LINE__, "%s: %s", names[j], err);
			free(err);
			continue;
		}
		CHECK(strlen(kernel_desc(k)) > 20);
		char *desc = loader_description(LOADER_KERNELS, names[j]);
		CHECK_STR(desc, kernel_desc(k));
		free(desc);
		CHECK(kernel_ctas(k) >= 1);
		CHECK(run_cta(names[j], k, 0) > 0);
		if (kernel_ctas(k) > 1)
			CHECK(run_cta(names[j], k, kernel_ctas(k) - 1) > 0);
		kernel_free(k);
	}
	loader_names_free(names);
}

/* Params scale the built-ins: the probes follow the paper's addresses. */
TEST(builtin_kernels_probe_addresses)
{
	struct kernel_src src;
	char *err = NULL;
	REQUIRE(loader_load_kernel("rd_mshr_probe", &src, &err) == 0);
	REQUIRE(loader_kernel_set_param(&src, "warps", "3", &err) == 0);
	struct kernel *k = kernel_compile(&src, 1, &err);
	REQUIRE(k);
	uint64_t lo, hi;
	kernel_footprint(k, &lo, &hi);
	/* Warp w, load i: byte address 4096 * (w + i * NUMWARPS) from the array base. */
	struct kwarp w;
	struct winst in;
	kernel_warp_start(k, &w, 0, 2, 32);
	for (unsigned i = 0; i < 12; i++) {
		REQUIRE(kernel_warp_next(k, &w, &in));
		CHECK_EQ(in.active, 1);
		CHECK_EQ(in.addr[0] - lo, 4096ull * (2 + i * 3));
		CHECK_EQ(in.dst, 1 + i);
	}
	CHECK(!kernel_warp_next(k, &w, &in));
	kernel_free(k);

	REQUIRE(loader_load_kernel("rd_assoc_probe", &src, &err) == 0);
	k = kernel_compile(&src, 1, &err);
	REQUIRE(k);
	kernel_footprint(k, &lo, &hi);
	CHECK_EQ(hi - lo, 4097 * 4); /* the 16 KB sweep plus element sv */
	kernel_warp_start(k, &w, 0, 0, 32);
	unsigned loads = 0, probe = 0;
	while (kernel_warp_next(k, &w, &in))
		if (in.op == KOP_LD) {
			loads++;
			if (in.active == 1) {
				probe++;
				CHECK_EQ(in.addr[0] - lo, 4096 * 4); /* mem[sv], sv = 4096 ints = 0x4000 */
			}
		}
	CHECK_EQ(loads, 65);
	CHECK_EQ(probe, 1);
	kernel_free(k);
}
