/*
 * test_livelock.c: refresh that leaves no room for an access (dram_cfg.c's
 * rule, tREFI > tRFC + 2 x one access) is refused by validation; the
 * livelock detector's run is in tests/ui/test_livelock.c (it needs the
 * teaching machine and a built-in kernel).
 */
#include <stdlib.h>
#include <string.h>

#include "dram/dram.h"
#include "sim/config.h"
#include "simtest.h"
#include "test.h"

static void dram_cfg_of(struct sim_cfg *c, int trfc, int trefi)
{
	tk_base_cfg(c);
	c->mem.model = MEM_DRAM;
	c->dram.refresh = DRAM_REFRESH_ALL_BANK;
	c->dram.timing.tRFC = trfc;
	c->dram.timing.tREFI = trefi;
}

TEST(refresh_without_room_is_refused)
{
	struct sim_cfg c;
	dram_cfg_of(&c, 590, 620);
	int acc = dram_access_cycles(&c);
	CHECK(acc >= c.dram.timing.tRAS + c.dram.timing.tRP); /* at least ACT..PRE..closed */
	char *err = NULL;
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK(err && strstr(err, "dram.timing.tREFI: refresh must leave room for an access"));
	free(err);
	/* the boundary, derived from the access time */
	err = NULL;
	c.dram.timing.tREFI = 590 + 2 * acc;
	CHECK(cfg_validate(&c, &err) != 0);
	free(err);
	err = NULL;
	c.dram.timing.tREFI = 590 + 2 * acc + 1;
	CHECK_EQ(cfg_validate(&c, &err), 0);
	free(err);
	/* per-bank refresh: the same rule with tRFCpb */
	err = NULL;
	c.dram.refresh = DRAM_REFRESH_PER_BANK;
	c.dram.timing.tRFCpb = 590;
	c.dram.timing.tREFI = 620;
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK(err && strstr(err, "tRFCpb + 2 x one access"));
	free(err);
}
