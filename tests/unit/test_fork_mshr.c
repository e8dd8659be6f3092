/*
 * test_fork_mshr.c: MSHR entry counts and merge slots as limits a fork may
 * change mid-run (engine/machine/fork.h, engine/mem/mshr.h).
 *
 * The files are allocated at their capacity (l1.mshr.capacity, by default
 * l1.mshr.entries); the counts are read from the configuration on every
 * allocation. So:
 *   - a fork at cycle 0 with a changed count is the from-start run with that
 *     count (the larger allocation changes nothing but the room);
 *   - a fork at cycle C is the machine whose count is changed in place at C,
 *     and the machine built from the changed configuration (capacity kept)
 *     that loads the state exported at C (sim_state_export);
 *   - a lower count keeps the entries in flight and allocates none until
 *     fewer than the count are in use;
 *   - a count above the capacity is refused, naming the capacity key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/snapshot.h"
#include "machine/fork.h"
#include "sim/config.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

/* A gather over many lines from 2 SMs: both MSHR files run full. */
#define BODY "loop i 0 6; ld A[(tid*7 + i*129 + bx*33) % 4096] -> r1; alu 3 <- r1; st B[tid + i*64]; end"

static const char *const base_kv[][6] = {
    {NULL},
    {"mem.model", "dram"},
};

static void run_end(struct sim *s)
{
	while (!sim_done(s))
		sim_step(s, 100000);
}

/* Every stat and every event count the same. */
static void check_same_run(const struct sim *a, const struct sim *b, const char *what)
{
	CHECK_EQ(sim_cycle(a), sim_cycle(b));
	const struct stats *sa = sim_stats_c(a), *sb = sim_stats_c(b);
	REQUIRE(stats_count(sa) == stats_count(sb));
	int bad = 0;
	for (uint32_t i = 0; i < stats_count(sa) && bad < 3; i++) {
		double va = stats_value(sa, i), vb = stats_value(sb, i);
		if (va != vb) {
			test_fail(__FILE__, __LINE__, "%s: %s %g vs %g", what, stats_def(sa, i)->name, va,
			          vb);
			bad++;
		}
	}
	CHECK(a->ev.total == b->ev.total);
	CHECK(memcmp(a->ev.counts, b->ev.counts, sizeof a->ev.counts) == 0);
}

static bool differs(const struct sim *a, const struct sim *b)
{
	if (sim_cycle(a) != sim_cycle(b))
		return true;
	for (uint32_t i = 0; i < stats_count(sim_stats_c(a)); i++)
		if (stats_value(sim_stats_c(a), i) != stats_value(sim_stats_c(b), i))
			return true;
	return false;
}

struct change {
	const char *key;
	int *(*field)(struct sim_cfg *);
	int (*to)(const struct sim_cfg *); /* the new value, from the old configuration */
};

static int *l1_entries(struct sim_cfg *c)
{
	return &c->l1.mshr_entries;
}
static int *l2_entries(struct sim_cfg *c)
{
	return &c->l2.mshr_entries;
}
static int *l1_merges(struct sim_cfg *c)
{
	return &c->l1.mshr_merges;
}
static int *l2_merges(struct sim_cfg *c)
{
	return &c->l2.mshr_merges;
}
static int quarter_l1(const struct sim_cfg *c)
{
	return c->l1.mshr_entries / 4 ? c->l1.mshr_entries / 4 : 1;
}
static int quarter_l2(const struct sim_cfg *c)
{
	return c->l2.mshr_entries / 4 ? c->l2.mshr_entries / 4 : 1;
}
static int one(const struct sim_cfg *c)
{
	(void)c;
	return 1;
}

static const struct change changes[] = {
    {"l1.mshr.entries", l1_entries, quarter_l1},
    {"l2.mshr.entries", l2_entries, quarter_l2},
    {"l1.mshr.merges", l1_merges, one},
    {"l2.mshr.merges", l2_merges, one},
};

/* A fork at cycle 0 with the change runs as a machine built with it. */
TEST(fork_mshr_limit_at_cycle_0_is_the_from_start_run)
{
	for (size_t f = 0; f < ARRAY_LEN(base_kv); f++)
		for (size_t k = 0; k < ARRAY_LEN(changes); k++) {
			struct tk t;
			REQUIRE(tk_start_features(&t, base_kv[f], BODY));
			struct sim_cfg c = t.cfg;
			*changes[k].field(&c) = changes[k].to(&t.cfg);
			REQUIRE(*changes[k].field(&c) < *changes[k].field(&t.cfg));
			bool ok = false;
			char *err = NULL;
			struct sim *fork = sim_fork(t.s, &c, &ok, &err);
			if (!fork) {
				test_fail(__FILE__, __LINE__, "%s: %s", changes[k].key, err ? err : "?");
				free(err);
				tk_end(&t);
				continue;
			}
			CHECK_EQ(*changes[k].field((struct sim_cfg *)sim_cfg(fork)), *changes[k].field(&c));
			struct sim *fresh = sim_new(&c, &t.wl, &err);
			REQUIRE(fresh);
			events_log_all(sim_events(fresh), true);
			run_end(fork);
			run_end(fresh);
			run_end(t.s);
			check_same_run(fork, fresh, changes[k].key);
			CHECK(differs(fork, t.s)); /* the change matters on this workload */
			if (sim_check_invariants(fork, &err)) {
				CHECK_STR(err, "invariants hold on the fork");
				free(err);
			}
			sim_free(fork);
			sim_free(fresh);
			tk_end(&t);
		}
}

/* Most entries in use over the L1s (l2: the banks) at this cycle. */
static uint32_t most_used(const struct sim *s, bool l2)
{
	uint32_t u = 0;
	int n = l2 ? s->cfg.l2.banks : s->cfg.core.sms;
	for (int i = 0; i < n; i++) {
		uint32_t x = l2 ? s->banks[i].m.used : s->sms[i].l1.m.used;
		u = x > u ? x : u;
	}
	return u;
}

/* The first cycle at which some file holds at least `need` entries. */
static bool run_until_used(struct sim *s, bool l2, uint32_t need)
{
	while (!sim_done(s) && most_used(s, l2) < need)
		sim_step(s, 1);
	return !sim_done(s);
}

/* Forked at a cycle C where a file holds more entries than the new count:
 * every entry in flight stays, none is allocated while the count is reached
 * (each cycle: used afterwards <= max(used before, count)), and the run is
 * the machine changed in place at C and the changed machine loading C's
 * exported state. */
static void mid_run(bool l2)
{
	struct tk t;
	REQUIRE(tk_start_features(&t, base_kv[1], BODY));
	sim_snapshots_enable(t.s, (size_t)64 << 20); /* sim_state_export needs the base snapshot */
	int entries = l2 ? t.cfg.l2.mshr_entries : t.cfg.l1.mshr_entries;
	/* Fork where the run first holds its most entries in one file. */
	struct tk p;
	REQUIRE(tk_start_features(&p, base_kv[1], BODY));
	uint32_t peak = 0;
	while (!sim_done(p.s)) {
		sim_step(p.s, 1);
		peak = most_used(p.s, l2) > peak ? most_used(p.s, l2) : peak;
	}
	tk_end(&p);
	REQUIRE(peak >= 2 && peak <= (uint32_t)entries);
	REQUIRE(run_until_used(t.s, l2, peak));
	uint64_t c_fork = sim_cycle(t.s);
	uint32_t held = most_used(t.s, l2);
	int k = (int)held / 2;
	REQUIRE(held > (uint32_t)k);
	struct sim_cfg c = t.cfg;
	*(l2 ? &c.l2.mshr_entries : &c.l1.mshr_entries) = k;
	bool ok = false;
	char *err = NULL;
	struct sim *fork = sim_fork(t.s, &c, &ok, &err);
	REQUIRE(fork && ok);
	CHECK_EQ(most_used(fork, l2), held); /* the entries in flight are kept */
	CHECK(sim_state_hash(fork) == sim_state_hash(t.s));

	/* The reference built from the changed configuration, its capacity kept. */
	struct sim_cfg ci = c;
	*(l2 ? &ci.l2.mshr_capacity : &ci.l1.mshr_capacity) = entries;
	struct sim *imp = sim_new(&ci, &t.wl, &err);
	REQUIRE(imp);
	events_log_all(sim_events(imp), true);
	unsigned char *blob = NULL;
	size_t len = 0;
	REQUIRE(sim_state_export(t.s, &blob, &len, &err) == 0);
	REQUIRE(sim_state_import(imp, blob, len, &err) == 0);
	free(blob);
	CHECK_EQ(sim_cycle(imp), c_fork);

	/* The reference changed in place: the count is the configuration's. */
	*(l2 ? &t.s->cfg.l2.mshr_entries : &t.s->cfg.l1.mshr_entries) = k;

	int n = l2 ? t.cfg.l2.banks : t.cfg.core.sms;
	bool fell = false, grew = false;
	while (!sim_done(fork)) {
		uint32_t before[64];
		REQUIRE(n <= 64);
		for (int i = 0; i < n; i++)
			before[i] = l2 ? fork->banks[i].m.used : fork->sms[i].l1.m.used;
		sim_step(fork, 1);
		for (int i = 0; i < n; i++) {
			uint32_t after = l2 ? fork->banks[i].m.used : fork->sms[i].l1.m.used;
			uint32_t cap = before[i] > (uint32_t)k ? before[i] : (uint32_t)k;
			if (after > cap) {
				test_fail(__FILE__, __LINE__,
				          "cycle %llu unit %d: %u entries after %u, count %d",
				          (unsigned long long)sim_cycle(fork), i, after, before[i], k);
				grew = true;
			}
			fell |= after < (uint32_t)k;
		}
		if (grew)
			break;
	}
	CHECK(fell); /* the count was reached from below again: allocation went on */
	run_end(fork);
	run_end(imp);
	run_end(t.s);
	check_same_run(fork, t.s, "changed in place");
	check_same_run(fork, imp, "imported");
	CHECK(sim_state_hash(fork) == sim_state_hash(t.s));
	CHECK(sim_state_hash(fork) == sim_state_hash(imp));

	/* ... and differs from going on unchanged. */
	struct tk u;
	REQUIRE(tk_start_features(&u, base_kv[1], BODY));
	run_end(u.s);
	CHECK(differs(fork, u.s));
	tk_end(&u);
	sim_free(fork);
	sim_free(imp);
	tk_end(&t);
}

TEST(fork_l1_mshr_lower_mid_run_keeps_entries_and_is_the_change_at_c)
{
	mid_run(false);
}
TEST(fork_l2_mshr_lower_mid_run_keeps_entries_and_is_the_change_at_c)
{
	mid_run(true);
}

/* Above the capacity: refused, naming the capacity key; with the capacity
 * raised at the start, raising the count up to it forks and is the from-start
 * run; the capacity itself cannot change mid-run. */
TEST(fork_mshr_raise_up_to_the_capacity)
{
	struct tk t;
	REQUIRE(tk_start_features(&t, base_kv[0], BODY));
	sim_step(t.s, 50);
	struct sim_cfg c = t.cfg;
	c.l1.mshr_entries = t.cfg.l1.mshr_entries + 1;
	bool ok = true;
	char *err = NULL;
	CHECK(sim_fork(t.s, &c, &ok, &err) == NULL);
	CHECK(!ok);
	char want[64];
	snprintf(want, sizeof want, "l1.mshr.capacity=%d", c.l1.mshr_entries);
	CHECK_CONTAINS(err, want);
	free(err);
	err = NULL;
	c = t.cfg;
	c.l2.mshr_entries = t.cfg.l2.mshr_entries * 2;
	ok = true;
	CHECK(sim_fork(t.s, &c, &ok, &err) == NULL);
	CHECK(!ok);
	CHECK_CONTAINS(err, "l2.mshr.capacity=");
	free(err);
	err = NULL;
	tk_end(&t);

	/* Built with room for twice the entries. */
	const char *kv[6] = {"l1.mshr.capacity", "16", "l2.mshr.capacity", "16", NULL, NULL};
	REQUIRE(tk_start_features(&t, kv, BODY));
	REQUIRE(t.cfg.l1.mshr_entries * 2 == 16 && t.cfg.l2.mshr_entries * 2 == 16);
	c = t.cfg;
	c.l1.mshr_entries = 16;
	c.l2.mshr_entries = 16;
	ok = false;
	struct sim *fork = sim_fork(t.s, &c, &ok, &err);
	REQUIRE(fork && ok);
	struct sim_cfg plain = c; /* the from-start machine, allocated at the count */
	plain.l1.mshr_capacity = plain.l2.mshr_capacity = 0;
	struct sim *fresh = sim_new(&plain, &t.wl, &err);
	REQUIRE(fresh);
	events_log_all(sim_events(fresh), true);
	run_end(fork);
	run_end(fresh);
	run_end(t.s);
	check_same_run(fork, fresh, "raised");
	CHECK(differs(fork, t.s));
	sim_free(fork);
	sim_free(fresh);

	c = t.cfg;
	c.l1.mshr_capacity = 32;
	ok = true;
	CHECK(sim_fork(t.s, &c, &ok, &err) == NULL);
	CHECK(!ok);
	CHECK_CONTAINS(err, "when the machine is built");
	free(err);
	tk_end(&t);
}

/* The capacity changes nothing but the room: a whole run with a larger
 * allocation is the run without it. */
TEST(mshr_capacity_alone_changes_nothing)
{
	struct tk a, b;
	const char *kv[6] = {"mem.model", "dram", "l1.mshr.capacity", "64", "l2.mshr.capacity", "40"};
	REQUIRE(tk_start_features(&a, base_kv[1], BODY));
	REQUIRE(tk_start_features(&b, kv, BODY));
	CHECK(arena_bytes(&b.s->arena) > arena_bytes(&a.s->arena));
	run_end(a.s);
	run_end(b.s);
	check_same_run(a.s, b.s, "capacity");
	tk_end(&a);
	tk_end(&b);
}
