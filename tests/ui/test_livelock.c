/*
 * test_livelock.c: a machine whose refresh leaves no room for an access
 * (the teaching + gather_random, tRFC = 590, tREFI = 620) stops
 * with the livelock report (dram_livelock, sim_deadlock) within a few
 * refresh intervals instead of refreshing forever; just past the validation
 * rule the same run finishes and is not flagged. Validation refuses such a
 * config (sim_new, session_init), so the machine is built with a valid tRFC
 * and the DRAM's own copy of it is changed afterwards: the detector is the
 * backstop for whatever slips past the rule.
 */
#include <stdlib.h>
#include <string.h>

#include "dram/dram.h"
#include "dram/dram_int.h"
#include "sim/sim_int.h"
#include "session/session.h"
#include "sim/config.h"
#include "test.h"

static void run(int trfc, int trefi, bool *done, bool *flagged, uint64_t *cycles, char *why, size_t n)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	c.dram.refresh = DRAM_REFRESH_ALL_BANK;
	c.dram.timing.tREFI = trefi;
	c.dram.timing.tRFC = 100; /* valid for the build ... */
	struct session ss;
	char *err = NULL;
	int rc = session_init(&ss, &c, "", "gather_random", 1, &err);
	if (rc)
		test_fail(__FILE__, __LINE__, "session_init: %s", err);
	free(err);
	REQUIRE(rc == 0);
	ss.sim->dram->t.RFC = (dcyc)trfc; /* ... then what the run uses */
	session_start_run(&ss, RUN_CYCLES, 5000000); /* a bound, should the detector fail */
	session_run_all(&ss);
	*cycles = sim_cycle(ss.sim);
	*flagged = sim_deadlock(ss.sim, why, n);
	*done = sim_done(ss.sim) && !*flagged;
	session_fini(&ss);
}

TEST(refresh_livelock_is_reported)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	c.dram.timing.tRFC = 590;
	c.dram.timing.tREFI = 620;
	char *err = NULL;
	CHECK(cfg_validate(&c, &err) != 0); /* what gpustep refuses with exit 2 */
	free(err);
	bool done = true, flagged = false;
	uint64_t cycles = 0;
	char why[600] = "";
	run(590, 620, &done, &flagged, &cycles, why, sizeof why);
	CHECK(!done);
	CHECK(flagged);
	CHECK(strstr(why, "the DRAM livelocked at cycle") != NULL);
	CHECK(strstr(why, "tREFI > tRFC + 2 x one access") != NULL);
	/* the detector fires after 16 intervals without a served request: well
	 * before 40 intervals (core cycles: the DRAM clock may differ) */
	uint64_t refi_core = (uint64_t)(620.0 * c.dram.tck_ps * c.core.clock_mhz / 1e6) + 1;
	CHECK(cycles < 40 * refi_core);

	run(590, 590 + 2 * dram_access_cycles(&c) + 1, &done, &flagged, &cycles, why, sizeof why);
	CHECK(done);
	CHECK(!flagged);
}
