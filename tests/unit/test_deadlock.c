/*
 * test_deadlock.c: a run that ends because nothing can ever move again,
 * although CTAs are unfinished, says so (sim_deadlock) instead of passing
 * for a finished kernel. The stuck case is a real model deadlock found on
 * 2026-11-25: locality bypassing on one SM with a 4-entry, 2-merge MSHR file
 * and a 2-entry wait queue (tests/unit/test_fastpath.c's machine). When that
 * deadlock is fixed the run finishes and the test checks the other branch;
 * replace the case then with whatever stays stuck.
 */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "sim_int.h"
#include "simtest.h"
#include "test.h"

#define BODY "ld A[tid / 64] -> r1; ld B[tid * 8] -> r2; alu 2 <- r1, r2; ld C[tid * 33] -> r3; st D[tid] <- r3"

static void run(bool locality, bool *stuck, bool *flagged, char *why, size_t n)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l1.mshr_entries = 4;
	t.cfg.l1.mshr_merges = 2;
	t.cfg.l1.wait_queue = 2;
	t.cfg.l1.bypass = locality ? L1B_LOCALITY : L1B_NONE;
	*stuck = *flagged = false;
	if (!tk_start(&t, 256, 4, BODY)) {
		test_fail(__FILE__, __LINE__, "tk_start");
		return;
	}
	CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
	*stuck = t.s->st->ctas_done < t.s->nctas;
	*flagged = sim_deadlock(t.s, why, n);
	/* the debug invariants see a stuck run too: work left at the end */
	char *err = NULL;
	int inv = sim_check_invariants(t.s, &err);
	CHECK_EQ(inv != 0, *stuck);
	free(err);
	sim_free(t.s);
	kernel_free(t.k);
}

TEST(sim_deadlock_reported_not_finished)
{
	char why[320] = "";
	bool stuck, flagged;
	run(false, &stuck, &flagged, why, sizeof why);
	CHECK(!stuck);
	CHECK(!flagged); /* a finished run is not a deadlock */
	run(true, &stuck, &flagged, why, sizeof why);
	CHECK_EQ(flagged, stuck);
	if (stuck) {
		CHECK(strstr(why, "deadlocked at cycle") != NULL);
		CHECK(strstr(why, "CTAs have not finished") != NULL);
	}
}
