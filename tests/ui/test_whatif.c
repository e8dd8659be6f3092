/*
 * test_whatif.c: `whatif` (tui/cmd_whatif.c) through cmd_exec on a real
 * session. Where the two runs part is checked against a reference built here
 * from the two full event logs (both machines stepped one cycle at a time,
 * every event kept, the first pair that differs in any field); the machine
 * being stepped keeps its state hash; the same whatif prints the same text
 * twice; a key that sizes the machine is refused with --from-start offered; a
 * change to the value already set reports "identical".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/fork.h"
#include "evlog.h"
#include "sesstest.h"
#include "test.h"
#include "tui/commands.h"

struct parting {
	uint64_t cycle;
	char a[512], b[512];
	unsigned bkind;
};

static bool first_difference(const struct evlog *a, const struct evlog *b, struct parting *p)
{
	size_t n = a->n < b->n ? a->n : b->n;
	for (size_t i = 0; i < n; i++)
		if (!evlog_same(&a->v[i], &b->v[i])) {
			p->cycle = a->v[i].cycle < b->v[i].cycle ? a->v[i].cycle : b->v[i].cycle;
			char t[480];
			event_format(&a->v[i], t, sizeof t);
			snprintf(p->a, sizeof p->a, "  A: %s", t);
			event_format(&b->v[i], t, sizeof t);
			snprintf(p->b, sizeof p->b, "  B: %s", t);
			p->bkind = b->v[i].kind;
			return true;
		}
	return false;
}

static void check_parting(struct fx *f, const struct parting *p)
{
	char line[96];
	snprintf(line, sizeof line, "where they part: cycle %llu (", (unsigned long long)p->cycle);
	CHECK_CONTAINS(f->cap.out.s, line);
	CHECK_CONTAINS(f->cap.out.s, p->a);
	CHECK_CONTAINS(f->cap.out.s, p->b);
}

/* From cycle 0 with fewer L1 MSHRs than vecadd keeps busy: B parts at its
 * first l1.mshr_full, where the two full logs first differ. */
TEST(whatif_from_start_parts_at_the_first_mshr_full)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	int k = f.ss.cfg.l1.mshr_entries / 4;
	REQUIRE(k >= 1);
	struct sim_cfg cb = f.ss.cfg;
	cb.l1.mshr_entries = k;
	char *err = NULL;
	struct sim *a = sim_new(&f.ss.cfg, &f.ss.wl, &err), *b = sim_new(&cb, &f.ss.wl, &err);
	REQUIRE(a && b);
	struct evlog la, lb;
	evlog_run(a, UINT64_MAX, &la);
	evlog_run(b, UINT64_MAX, &lb);
	struct parting p;
	REQUIRE(first_difference(&la, &lb, &p));
	CHECK_EQ(p.bkind, event_find("l1.mshr_full"));
	/* ... and it is B's first l1.mshr_full. */
	size_t first = 0;
	while (first < lb.n && lb.v[first].kind != (uint16_t)event_find("l1.mshr_full"))
		first++;
	REQUIRE(first < lb.n);
	CHECK_EQ(lb.v[first].cycle, p.cycle);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "whatif l1.mshr.entries=%d --from-start --to-end", k);
	CHECK_EQ(fx_run(&f, cmd), CMD_OK);
	check_parting(&f, &p);
	char fin[96];
	snprintf(fin, sizeof fin, "B: finished at cycle %llu", (unsigned long long)sim_cycle(b));
	CHECK_CONTAINS(f.cap.out.s, fin);
	CHECK_CONTAINS(f.cap.out.s, "l1.mshr_full");
	CHECK_CONTAINS(f.cap.out.s, "stall mix");
	CHECK_CONTAINS(f.cap.out.s, "verdict: B ");
	free(la.v);
	free(lb.v);
	sim_free(a);
	sim_free(b);
	fx_fini(&f);
}

/* With more MSHRs than vecadd uses, B never hits mshr_full: the runs part
 * where A first reports it, which may be a warp.stall that differs from B's
 * in its reason alone (every field counts). */
TEST(whatif_from_start_more_mshrs_parts_where_a_first_throttles)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	struct sim_cfg cb = f.ss.cfg;
	cb.l1.mshr_entries = f.ss.cfg.l1.mshr_entries * 2;
	char *err = NULL;
	struct sim *a = sim_new(&f.ss.cfg, &f.ss.wl, &err), *b = sim_new(&cb, &f.ss.wl, &err);
	REQUIRE(a && b);
	struct evlog la, lb;
	evlog_run(a, UINT64_MAX, &la);
	evlog_run(b, UINT64_MAX, &lb);
	struct parting p;
	REQUIRE(first_difference(&la, &lb, &p));
	char cmd[128];
	snprintf(cmd, sizeof cmd, "whatif l1.mshr.entries=%d --from-start --to-end", cb.l1.mshr_entries);
	CHECK_EQ(fx_run(&f, cmd), CMD_OK);
	check_parting(&f, &p);
	CHECK(test_contains(p.a, "mshr_full"));
	free(la.v);
	free(lb.v);
	sim_free(a);
	sim_free(b);
	fx_fini(&f);
}

/* Mid-run at a breakpoint stop, a key only the configuration holds: the
 * parting is where logs of the two machines from the stop first differ, and
 * the stepped machine is where it was. */
TEST(whatif_mid_run_parts_where_the_logs_differ_and_leaves_the_machine)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "break l2.miss");
	fx_run(&f, "continue");
	uint64_t c = sim_cycle(f.ss.sim), h = sim_state_hash(f.ss.sim);
	REQUIRE(c > 0);
	int lat = f.ss.cfg.l2.hit_latency + 30;
	struct sim_cfg cb = f.ss.cfg;
	cb.l2.hit_latency = lat;
	bool ok;
	char *err = NULL;
	struct sim *a = sim_fork(f.ss.sim, &f.ss.cfg, &ok, &err), *b = sim_fork(f.ss.sim, &cb, &ok, &err);
	REQUIRE(a && b);
	struct evlog la, lb;
	evlog_run(a, UINT64_MAX, &la);
	evlog_run(b, UINT64_MAX, &lb);
	struct parting p;
	REQUIRE(first_difference(&la, &lb, &p));
	CHECK(p.cycle >= c);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "whatif l2.hit_latency=%d --to-end", lat);
	CHECK_EQ(fx_run(&f, cmd), CMD_OK);
	check_parting(&f, &p);
	char fin[96];
	snprintf(fin, sizeof fin, "A: finished at cycle %llu", (unsigned long long)sim_cycle(a));
	CHECK_CONTAINS(f.cap.out.s, fin);
	snprintf(fin, sizeof fin, "B: finished at cycle %llu", (unsigned long long)sim_cycle(b));
	CHECK_CONTAINS(f.cap.out.s, fin);
	CHECK_CONTAINS(f.cap.out.s, "why ");
	/* The machine the user steps is unchanged, by every measure. */
	CHECK_EQ(sim_cycle(f.ss.sim), c);
	CHECK(sim_state_hash(f.ss.sim) == h);
	fx_run(&f, "whatif l1.mshr.entries=2 --from-start --cycles 300");
	CHECK(sim_state_hash(f.ss.sim) == h);
	/* ... and goes on as it would have: the same end as the fork A. */
	fx_run(&f, "delete");
	fx_run(&f, "continue");
	CHECK_EQ(sim_cycle(f.ss.sim), sim_cycle(a));
	free(la.v);
	free(lb.v);
	sim_free(a);
	sim_free(b);
	fx_fini(&f);
}

TEST(whatif_same_text_twice)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "step 40");
	const char *cmds[] = {"whatif core.scheduler=lrr --cycles 3000", "whatif l1.mshr.entries=3 --from-start --until warp.done sm=1"};
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
		CHECK_EQ(fx_run(&f, cmds[i]), CMD_OK);
		char *first = strdup(f.cap.out.s);
		CHECK_EQ(fx_run(&f, cmds[i]), CMD_OK);
		CHECK_STR(f.cap.out.s, first);
		CHECK_CONTAINS(first, "where they part");
		free(first);
	}
	fx_fini(&f);
}

TEST(whatif_refuses_a_size_key_mid_run_and_offers_from_start)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "step 20");
	char cmd[96];
	/* More L1 MSHRs than the file was built with (fork.h: fewer may change). */
	snprintf(cmd, sizeof cmd, "whatif l1.mshr.entries=%d", f.ss.cfg.l1.mshr_entries * 2);
	CHECK_EQ(fx_run(&f, cmd), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "l1.mshr.entries cannot change mid-run");
	CHECK_CONTAINS(f.cap.err.s, "l1.mshr.capacity=");
	CHECK_CONTAINS(f.cap.err.s, "--from-start");
	/* With a key that may change, only the size key is named. */
	snprintf(cmd, sizeof cmd, "whatif l2.hit_latency=50 l1.mshr.entries=%d", f.ss.cfg.l1.mshr_entries * 2);
	CHECK_EQ(fx_run(&f, cmd), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, ": l1.mshr.entries cannot");
	fx_fini(&f);
}

/* Setting what is already set changes nothing; a change whose effect lies
 * after the span neither. */
TEST(whatif_no_effect_is_identical)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "step 10");
	char cmd[96];
	snprintf(cmd, sizeof cmd, "whatif l2.hit_latency=%d --to-end", f.ss.cfg.l2.hit_latency);
	CHECK_EQ(fx_run(&f, cmd), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "identical: no event differs");
	snprintf(cmd, sizeof cmd, "whatif l2.hit_latency=%d --to-end", f.ss.cfg.l2.hit_latency + 1);
	CHECK_EQ(fx_run(&f, cmd), CMD_OK);
	CHECK(!test_contains(f.cap.out.s, "identical"));
	fx_fini(&f);
}

TEST(whatif_bad_input_is_named)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	static const char *const bad[][2] = {
		{"whatif", "what change?"},
		{"whatif l2.hit_latency", "is not KEY=VALUE"},
		{"whatif l2.nosuch=3", "l2.nosuch"},
		{"whatif l2.hit_latency=abc", "l2.hit_latency"},
		{"whatif l2.hit_latency=9 --cycles 0", "--cycles"},
		{"whatif l2.hit_latency=9 --until", "--until needs an event"},
		{"whatif l2.hit_latency=9 --until no.such", "no.such"},
		{"whatif l2.hit_latency=9 --cycles 5 --to-end", "one of"},
		{"whatif l2.hit_latency=9 --fast", "unknown option '--fast'"},
		{"whatif param.n=5", "kernel parameters"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CHECK_EQ(fx_run(&f, bad[i][0]), CMD_ERR);
		if (!test_contains(f.cap.err.s, bad[i][1]))
			test_fail(__FILE__, __LINE__, "'%s': \"%s\" lacks \"%s\"", bad[i][0], f.cap.err.s, bad[i][1]);
	}
	fx_run(&f, "continue");
	REQUIRE(sim_done(f.ss.sim));
	CHECK_EQ(fx_run(&f, "whatif l2.hit_latency=9"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "finished");
	fx_fini(&f);
}

static uint64_t parting_cycle(const char *out)
{
	const char *p = strstr(out, "where they part: cycle ");
	return p ? strtoull(p + strlen("where they part: cycle "), NULL, 10) : 0;
}

/* `whatif show` puts `info sm` of both sides side by side just after the
 * parting cycle: A's column is what the stepped machine says there (after
 * `whatif go a`), and neither command before `go` moves the machine. */
TEST(whatif_show_is_info_on_both_sides_and_go_a_goes_there)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "break l2.miss");
	fx_run(&f, "continue");
	uint64_t c = sim_cycle(f.ss.sim), h = sim_state_hash(f.ss.sim);
	char cmd[96];
	snprintf(cmd, sizeof cmd, "whatif l2.hit_latency=%d --to-end", f.ss.cfg.l2.hit_latency + 30);
	CHECK_EQ(fx_run(&f, cmd), CMD_OK);
	uint64_t p = parting_cycle(f.cap.out.s);
	REQUIRE(p > c);
	CHECK_EQ(fx_run(&f, "whatif show"), CMD_OK);
	char *show = strdup(f.cap.out.s);
	char head[96];
	snprintf(head, sizeof head, "`info sm 0` just after cycle %llu", (unsigned long long)p);
	CHECK_CONTAINS(show, head);
	CHECK(!test_contains(show, "\n0 lines differ"));
	CHECK_EQ(fx_run(&f, "whatif show mshr"), CMD_OK);
	/* MSHR lines are too wide for two columns in 80: one column, a differing
	 * line as A's then B's (two columns wrapped into each other there). */
	CHECK(!test_contains(f.cap.out.s, "A (as is)"));
	CHECK(test_contains(f.cap.out.s, "\nA ") && test_contains(f.cap.out.s, "\nB "));
	CHECK_EQ(fx_run(&f, "whatif show nope"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "whatif go b"), CMD_ERR); /* mid-run: B is not reachable from cycle 0 */
	CHECK_CONTAINS(f.cap.err.s, "--from-start");
	CHECK(sim_state_hash(f.ss.sim) == h);
	CHECK_EQ(fx_run(&f, "whatif go a"), CMD_RUN);
	CHECK_EQ(sim_cycle(f.ss.sim), p + 1);
	CHECK_EQ(fx_run(&f, "info sm 0"), CMD_OK);
	/* Every line of A's column starts as the stepped machine's. */
	const char *l = f.cap.out.s;
	int n = 0;
	while (l && *l) {
		char line[48];
		size_t k = strcspn(l, "\n");
		snprintf(line, sizeof line, "%.*s", (int)(k < 40 ? k : 40), l);
		if (!test_contains(show, line))
			test_fail(__FILE__, __LINE__, "A's column lacks '%s'", line);
		n++;
		l = l[k] ? l + k + 1 : l + k;
	}
	CHECK(n > 2);
	CHECK_EQ(fx_run(&f, "whatif show"), CMD_ERR); /* the machine moved */
	CHECK_CONTAINS(f.cap.err.s, "moved since");
	free(show);
	fx_fini(&f);
}

/* After a --from-start whatif, `whatif go b` rebuilds the stepped machine
 * with B's change and takes it just past the parting cycle. */
TEST(whatif_go_b_from_start_becomes_b)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "step 30");
	int k = f.ss.cfg.l1.mshr_entries / 4;
	char cmd[96];
	snprintf(cmd, sizeof cmd, "whatif l1.mshr.entries=%d --from-start --cycles 200", k);
	CHECK_EQ(fx_run(&f, cmd), CMD_OK);
	uint64_t p = parting_cycle(f.cap.out.s);
	CHECK_EQ(fx_run(&f, "whatif go b") & CMD_RUN, CMD_RUN);
	CHECK_EQ(f.ss.cfg.l1.mshr_entries, k);
	CHECK_EQ(sim_cycle(f.ss.sim), p + 1);
	CHECK(stats_value(sim_stats_c(f.ss.sim), (uint32_t)stats_find(sim_stats_c(f.ss.sim), "l1.mshr_full")) >= 1);
	fx_fini(&f);
}
