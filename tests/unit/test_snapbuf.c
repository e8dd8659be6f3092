/*
 * test_snapbuf.c: the large buffers of snapshots (xmap_zeroed, util.h) and
 * the whole-state copies made into them. A whole copy skips the spans that
 * are all zero in the arena (the buffer is zero there already), so its bytes
 * must be arena_save's; a large one must be a 2 MB aligned mapping (the
 * point of it: one fault per huge page, docs/PERFORMANCE.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/snapshot.h"
#include "kernel/kernel.h"
#include "sim/config.h"
#include "sim/sim.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

TEST(xmap_zeroed_large_is_an_aligned_mapping_small_is_heap)
{
	size_t n = 5 * XMAP_MIN / 2 + 3, ml = 1;
	unsigned char *p = xmap_zeroed(n, &ml);
	REQUIRE(p);
#if defined(__linux__)
	/* Linux has anonymous mappings: the buffer is one, whole 2 MB units. */
	CHECK(ml >= n);
	CHECK_EQ(ml % XMAP_MIN, 0);
	CHECK_EQ((uintptr_t)p % XMAP_MIN, 0);
#endif
	CHECK(all_zero(p, n));
	p[0] = 1;
	p[n - 1] = 2;
	xmap_free(p, ml);
	ml = 1;
	unsigned char *q = xmap_zeroed(100, &ml);
	CHECK_EQ(ml, 0); /* below XMAP_MIN: calloc, freed with free() by xmap_free */
	CHECK(all_zero(q, 100));
	xmap_free(q, ml);
}

/* The base snapshot of a machine whose state is several MB (mostly the
 * never-used request slots, all zero): its bytes are the arena's at cycle 0,
 * it lives in a 2 MB aligned mapping, and rewinding to cycle 0 after a run
 * brings back that state exactly. */
TEST(snapshot_base_whole_copy_is_arena_save_in_a_mapping)
{
	struct kernel *k = tk_snap_kernel("snapbuf", 24);
	REQUIRE(k);
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	REQUIRE(cfg_set_value(&c, "core.sms", "32", &err) == 0);
	struct workload wl = {.kernel = k};
	snprintf(wl.name, sizeof wl.name, "snapbuf");
	struct sim *s = sim_new(&c, &wl, &err);
	REQUIRE(s);
	size_t n = arena_bytes(&s->arena);
	if (n < XMAP_MIN)
		test_fail(__FILE__, __LINE__, "state of %zu bytes: too small for the test", n);
	unsigned char *want = xmalloc(n);
	arena_save(&s->arena, want);
	uint64_t h0 = sim_state_hash(s);
	sim_snapshots_enable(s, 256u << 20);
	size_t bl = 0;
	const unsigned char *base = snapshot_base(s, &bl);
	REQUIRE(base);
	CHECK_EQ(bl, n);
	CHECK(memcmp(base, want, n) == 0);
	/* Zero spans were skipped, not absent: the state has some. */
	size_t zero_spans = 0;
	for (size_t off = 0; off + 4096 <= n; off += 4096)
		zero_spans += all_zero(want + off, 4096);
	CHECK(zero_spans > 0);
#if defined(__linux__)
	CHECK_EQ((uintptr_t)base % XMAP_MIN, 0);
#endif
	sim_step(s, 5000);
	CHECK(sim_state_hash(s) != h0);
	CHECK_EQ(sim_goto(s, 0, &err), 0);
	CHECK(sim_state_hash(s) == h0);
	unsigned char *got = xmalloc(n);
	arena_save(&s->arena, got);
	CHECK(memcmp(got, want, n) == 0);
	free(got);
	free(want);
	free(err);
	sim_free(s);
	kernel_free(k);
}
