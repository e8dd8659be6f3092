/*
 * test_idle.c: sim_tick visits only busy SMs and L2 banks (the activity bits
 * of struct sim, sim_int.h). Between cycles a unit's bit is set exactly when
 * it has work (sim_check_invariants compares them); units that never get
 * work are never visited; the bits follow the state through rewinding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"
#include "simtest.h"
#include "debug/snapshot.h"
#include "test.h"

#define BODY "ld A[tid * 33] -> r1; alu 2 <- r1; st B[tid * 17] <- r1; ld C[tid] -> r2; st D[tid] <- r2"

/* 8 SMs, 4 banks, one CTA of one warp: the work lives on SM 0 and the banks
 * its lines map to. `set` is a "name=value" configuration setting or NULL. */
static bool start(struct tk *t, const char *set)
{
	tk_base_cfg(&t->cfg);
	t->cfg.core.sms = 8;
	t->cfg.l2.banks = 4;
	if (set) {
		char name[64], *err = NULL;
		const char *eq = strchr(set, '=');
		snprintf(name, sizeof name, "%.*s", (int)(eq - set), set);
		if (cfg_set_value(&t->cfg, name, eq + 1, &err)) {
			test_fail(__FILE__, __LINE__, "%s: %s", set, err ? err : "?");
			free(err);
			return false;
		}
	}
	return tk_start(t, 32, 1, BODY);
}

static int nbits(const uint64_t *bm, int n)
{
	int c = 0;
	for (int i = 0; i < n; i++)
		c += sim_act_has(bm, i);
	return c;
}

TEST(idle_bits_follow_work_every_cycle)
{
	static const char *const sets[] = {NULL, "mem.model=dram", "coherence.protocol=moesi", "l2.frc.entries=8",
					   "rf.kind=racetrack"};
	for (unsigned v = 0; v < ARRAY_LEN(sets); v++) {
		struct tk t;
		REQUIRE(start(&t, sets[v]));
		struct sim *s = t.s;
		int max_banks = 0;
		bool other_sm = false, bad = false;
		while (sim_step(s, 1) != SIM_STOP_DONE && sim_cycle(s) < 100000 && !bad) {
			char *err = NULL;
			if (sim_check_invariants(s, &err)) {
				test_fail(__FILE__, __LINE__, "%s, cycle %llu: %s", sets[v] ? sets[v] : "default",
					  (unsigned long long)sim_cycle(s), err ? err : "?");
				free(err);
				bad = true;
			}
			for (int i = 1; i < 8; i++)
				other_sm |= sim_act_has(s->act_sm, i);
			int nb = nbits(s->act_l2, 4);
			max_banks = nb > max_banks ? nb : max_banks;
		}
		CHECK(sim_done(s));
		CHECK(!other_sm); /* SMs 1..7 never had work */
		CHECK(max_banks >= 1);
		CHECK_EQ(nbits(s->act_sm, 8), 0); /* all idle at the end */
		CHECK_EQ(nbits(s->act_l2, 4), 0);
		tk_end(&t);
	}
}

/* The check can fail: a bit set on an idle unit, or cleared on a busy one. */
TEST(idle_bits_checked_against_units)
{
	struct tk t;
	REQUIRE(start(&t, NULL));
	struct sim *s = t.s;
	char *err = NULL;
	sim_step(s, 20); /* the warp is running, its loads in flight */
	REQUIRE(sim_check_invariants(s, &err) == 0);
	s->act_sm[0] |= 1ull << 5;
	CHECK(sim_check_invariants(s, &err) != 0);
	CHECK(err && strstr(err, "sm5") && strstr(err, "activity bit is set"));
	free(err);
	err = NULL;
	s->act_sm[0] &= ~(1ull << 5);
	s->act_sm[0] &= ~1ull; /* SM 0 has the warp */
	CHECK(sim_check_invariants(s, &err) != 0);
	CHECK(err && strstr(err, "sm0") && strstr(err, "activity bit is clear"));
	free(err);
	s->act_sm[0] |= 1ull;
	tk_end(&t);
}

/* Rewinding restores the bits with the rest of the arena: stepping back to a
 * cycle gives the same bits (and state) as getting there forwards. */
TEST(idle_bits_rewind)
{
	struct tk a, b;
	REQUIRE(start(&a, "mem.model=dram"));
	REQUIRE(start(&b, "mem.model=dram"));
	sim_snapshots_enable(b.s, 64u << 20);
	sim_step(a.s, 150);
	uint64_t sm_a = a.s->act_sm[0], l2_a = a.s->act_l2[0], h = sim_state_hash(a.s);
	CHECK(sm_a != 0);
	sim_step(b.s, 100000);
	REQUIRE(sim_done(b.s));
	CHECK_EQ(b.s->act_sm[0], 0);
	char *err = NULL;
	REQUIRE(sim_goto(b.s, 150, &err) == 0);
	CHECK_EQ(b.s->act_sm[0], sm_a);
	CHECK_EQ(b.s->act_l2[0], l2_a);
	CHECK(sim_state_hash(b.s) == h);
	tk_end(&a);
	tk_end(&b);
}
