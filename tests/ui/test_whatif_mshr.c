/*
 * test_whatif_mshr.c: issue 39's Done-when example, `break l2.miss`,
 * `continue`, `whatif l1.mshr.entries=2 --to-end`, `info`, as batch mode runs
 * it (fx_run). The L1 MSHR count is a limit a fork may lower mid-run
 * (engine/machine/fork.h), so the whatif runs instead of being refused.
 *
 * The reference does not fork: two machines built afresh are stepped to the
 * stop's cycle (each then has the stopped machine's state hash), one gets
 * the lower count in its configuration in place, and both run to the end
 * logging every event. Where the whatif says they part is the first pair of
 * events that differs; the end cycles are the two machines'; the stepped
 * machine keeps its cycle and state hash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evlog.h"
#include "sesstest.h"
#include "sim/sim_int.h"
#include "test.h"
#include "tui/commands.h"


TEST(whatif_fewer_l1_mshrs_mid_run_done_when)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	int k = 2;
	REQUIRE(f.ss.cfg.l1.mshr_entries > k);
	CHECK_EQ(fx_run(&f, "break l2.miss"), CMD_OK);
	fx_run(&f, "continue");
	uint64_t c = sim_cycle(f.ss.sim), h = sim_state_hash(f.ss.sim);
	REQUIRE(c > 0);

	char *err = NULL;
	struct sim *a = sim_new(&f.ss.cfg, &f.ss.wl, &err), *b = sim_new(&f.ss.cfg, &f.ss.wl, &err);
	REQUIRE(a && b);
	events_log_all(sim_events(a), true);
	events_log_all(sim_events(b), true);
	sim_step(a, c);
	sim_step(b, c);
	REQUIRE(sim_cycle(a) == c && sim_cycle(b) == c);
	b->cfg.l1.mshr_entries = k; /* the change, applied at the stop */
	struct evlog la, lb;
	evlog_run(a, UINT64_MAX, &la);
	evlog_run(b, UINT64_MAX, &lb);
	size_t n = la.n < lb.n ? la.n : lb.n, i = 0;
	while (i < n && evlog_same(&la.v[i], &lb.v[i]))
		i++;
	REQUIRE(i < n);
	uint64_t part = la.v[i].cycle < lb.v[i].cycle ? la.v[i].cycle : lb.v[i].cycle;
	CHECK(part >= c);
	CHECK_EQ(lb.v[i].kind, event_find("l1.mshr_full"));

	char cmd[96], want[640], t[480];
	snprintf(cmd, sizeof cmd, "whatif l1.mshr.entries=%d --to-end", k);
	CHECK_EQ(fx_run(&f, cmd), CMD_OK);
	const char *o = f.cap.out.s;
	snprintf(want, sizeof want, "where they part: cycle %llu (", (unsigned long long)part);
	CHECK_CONTAINS(o, want);
	event_format(&la.v[i], t, sizeof t);
	snprintf(want, sizeof want, "  A: %s", t);
	CHECK_CONTAINS(o, want);
	event_format(&lb.v[i], t, sizeof t);
	snprintf(want, sizeof want, "  B: %s", t);
	CHECK_CONTAINS(o, want);
	snprintf(want, sizeof want, "A: finished at cycle %llu", (unsigned long long)sim_cycle(a));
	CHECK_CONTAINS(o, want);
	snprintf(want, sizeof want, "B: finished at cycle %llu", (unsigned long long)sim_cycle(b));
	CHECK_CONTAINS(o, want);
	CHECK(sim_cycle(a) != sim_cycle(b));
	CHECK_CONTAINS(o, "what moved (");
	CHECK_CONTAINS(o, "l1.mshr_full");
	CHECK_CONTAINS(o, "stall mix (SM-cycles without an issue):");

	/* The stepped machine: the stop's cycle, the same state. */
	CHECK_EQ(fx_run(&f, "info"), CMD_OK);
	snprintf(want, sizeof want, "cycle     %llu (stopped)", (unsigned long long)c);
	CHECK_CONTAINS(f.cap.out.s, want);
	CHECK_EQ(sim_cycle(f.ss.sim), c);
	CHECK(sim_state_hash(f.ss.sim) == h);
	free(la.v);
	free(lb.v);
	sim_free(a);
	sim_free(b);
	fx_fini(&f);
}
