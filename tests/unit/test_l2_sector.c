/*
 * test_l2_sector.c: a present L2 line whose missing sectors are being
 * fetched (a sector miss) is never chosen as a victim until that fill.
 * Found by coherence.check_values: a lazy_fetch write miss took such a line,
 * the fill then re-tagged it back, and the write's dirty sector stayed on
 * the wrong tag (the write was lost).
 *
 * One L2 set of two 128-byte ways, 32-byte sectors, lazy_fetch, fixed
 * 100-cycle memory. Warp 0:
 *   st A[0]   (L2 cycle 8) write miss: allocate A, sector 0 valid + dirty
 *   st B[0]   (cycle 10) write miss: allocate B in the other way; A is LRU
 *   ld A[8]   (cycle 11) sector miss on A (byte 32): fetch sector 1
 * Warp 1, after alu 20:
 *   st C[0]   (cycle 29) write miss while A's fetch is out (fill at 112):
 *             the victim must be B (written back), not A
 */
#include "debug/inspect.h"
#include "simtest.h"
#include "test.h"

#define A0 0x10000000ull
#define B0 0x10040000ull
#define C0 0x10080000ull

static int find_line(struct tk *t, uint64_t addr, struct line_info *li)
{
	for (int w = 0; w < 2; w++)
		if (inspect_cache_line(t->s, CACHE_L2, 0, 0, w, li) && li->valid && li->addr == addr)
			return w;
	return -1;
}

TEST(l2_sector_fetch_keeps_its_line)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l2.sets = 1;
	t.cfg.l2.ways = 2;
	t.cfg.l2.sector = 32;
	t.cfg.l1.sector = 32;
	t.cfg.l2.write_fetch = L2W_LAZY_FETCH;
	REQUIRE(tk_start(&t, 64, 1, "if warp == 0; st A[0]; st B[0]; ld A[8] -> r1; alu 1 <- r1; else; alu 20; st C[0]; end"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	struct line_info a, c;
	REQUIRE(find_line(&t, A0, &a) >= 0);
	CHECK_EQ(a.sector_valid, 0x3); /* its own write and the fetched sector */
	CHECK_EQ(a.sector_dirty, 0x1);
	REQUIRE(find_line(&t, C0, &c) >= 0);
	CHECK_EQ(c.sector_valid, 0x1);
	CHECK_EQ(c.sector_dirty, 0x1); /* C's write is kept */
	CHECK(find_line(&t, B0, &c) < 0);
	CHECK_EQ(tk_stat(&t, "l2.writebacks"), 1); /* B, the victim */
	tk_end(&t);
}
