/*
 * test_fork.c: sim_fork (engine/machine/fork.h), the copy behind `whatif`.
 * A fork under the same configuration is the machine itself: the same state
 * hash at the fork and after any further run, however the original reached
 * the fork cycle, for every feature that allocates its own state; the
 * original is not touched. A key that only the configuration holds
 * (l2.hit_latency) forks and takes effect; a key that sizes the state
 * (l1.sets) is refused. MSHR counts: test_fork_mshr.c.
 */
#include <stdlib.h>
#include <string.h>

#include "machine/fork.h"
#include "sim/config.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

#define BODY "loop i 0 6; ld A[(tid*7 + i*129 + bx*33) % 4096] -> r1; alu 3 <- r1; st B[tid + i*64]; end"

static const char *const features[][6] = {
	{NULL},
	{"mem.model", "dram"},
	{"coherence.protocol", "moesi", "coherence.check_values", "true"},
	{"l2.frc.entries", "8"},
	{"rf.kind", "racetrack", "core.scheduler", "rmws"},
	{"reuse.profile", "true"},
	{"core.scheduler", "ccws"},
	{"l1i.enabled", "true", "l1i.sets", "1", "l1i.ways", "1"},
};

static bool start(struct tk *t, size_t f) { return tk_start_features(t, features[f], BODY); }

TEST(fork_same_config_is_the_machine)
{
	for (size_t f = 0; f < ARRAY_LEN(features); f++) {
		struct tk t, u;
		REQUIRE(start(&t, f));
		REQUIRE(start(&u, f));
		sim_step(t.s, 250);
		for (int i = 0; i < 250; i++) /* the same cycle reached one cycle at a time */
			sim_step(u.s, 1);
		uint64_t h = sim_state_hash(t.s);
		CHECK(sim_state_hash(u.s) == h);
		bool ok = false;
		char *err = NULL;
		struct sim *a = sim_fork(t.s, &t.cfg, &ok, &err), *b = sim_fork(u.s, &u.cfg, &ok, &err);
		REQUIRE(a && b && ok);
		CHECK(sim_state_hash(a) == h);
		CHECK(sim_state_hash(t.s) == h); /* the original is untouched */
		CHECK_EQ(sim_cycle(a), 250);
		sim_step(a, 400);
		sim_step(b, 400);
		sim_step(t.s, 400);
		CHECK(sim_state_hash(a) == sim_state_hash(t.s));
		CHECK(sim_state_hash(b) == sim_state_hash(t.s));
		CHECK(stats_counter_value(sim_stats_c(a), 0) == stats_counter_value(sim_stats_c(t.s), 0));
		if (sim_check_invariants(a, &err)) {
			CHECK_STR(err, "invariants hold on the fork");
			free(err);
		}
		sim_free(a);
		sim_free(b);
		tk_end(&t);
		tk_end(&u);
	}
}

TEST(fork_config_only_key_takes_effect_size_key_refused)
{
	struct tk t;
	REQUIRE(start(&t, 1));
	sim_step(t.s, 100);
	struct sim_cfg c = t.cfg;
	c.l2.hit_latency = t.cfg.l2.hit_latency + 50;
	bool ok = false;
	char *err = NULL;
	struct sim *b = sim_fork(t.s, &c, &ok, &err), *a = sim_fork(t.s, &t.cfg, &ok, &err);
	REQUIRE(a && b && ok);
	CHECK_EQ(sim_cfg(b)->l2.hit_latency, t.cfg.l2.hit_latency + 50);
	CHECK(sim_state_hash(a) == sim_state_hash(b)); /* same state, other rules */
	sim_step(a, 5000);
	sim_step(b, 5000);
	CHECK(sim_state_hash(a) != sim_state_hash(b));
	sim_free(a);
	sim_free(b);
	c = t.cfg;
	c.l1.sets = t.cfg.l1.sets * 2;
	ok = true;
	CHECK(sim_fork(t.s, &c, &ok, &err) == NULL);
	CHECK(!ok);
	CHECK_CONTAINS(err, "when the machine is built");
	free(err);
	tk_end(&t);
}
