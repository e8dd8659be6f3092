/*
 * test_state_hash.c: sim_state_hash walks the arena's words in allocation
 * order and leaves out the pointer fields noted while the simulator was built
 * (arena_note_ptr). Every machine feature's pointer fields are noted (the
 * audit finds none missed); equal states hash alike in two instances; one
 * changed word changes the hash; a value that happens to look like an
 * address is hashed as the value it is (the old hash took it for a pointer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/config.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

#define BODY "loop i 0 6; ld A[(tid*7 + i*129 + bx*33) % 4096] -> r1; alu 3 <- r1; st B[tid + i*64]; end"

/* One override set per feature that allocates its own state. */
static const char *const features[][6] = {
	{NULL},
	{"mem.model", "dram"},
	{"mem.model", "dram", "dram.page_alloc", "temp", "dram.columns", "1024"},
	{"mem.model", "dram", "l2.dram_latency", "40"},
	{"mem.model", "dram", "dram.numa_nodes", "2", "dram.numa_latency", "30"}, /* the fabric heap and links */
	{"coherence.protocol", "moesi", "coherence.check_values", "true"},
	{"coherence.protocol", "nmoesi"},
	{"coherence.protocol", "si"},
	{"l2.frc.entries", "8"},
	{"l2.sharers", "exact"},
	{"rf.kind", "racetrack", "core.scheduler", "rmws"},
	{"reuse.profile", "true"},
	{"core.scheduler", "ccws"},
	{"core.scheduler", "vws"},
	{"core.scheduler", "tbas"},
	{"l1.bypass", "locality", "l1.bypass_duel", "true"},
	{"l1.write_policy", "write_back"},
	{"l1i.enabled", "true", "l1i.sets", "1", "l1i.ways", "1"}, /* fetch unit, L1I tags and MSHRs (thrashing) */
};

static bool start(struct tk *t, size_t f) { return tk_start_features(t, features[f], BODY); }

TEST(state_hash_every_pointer_field_noted)
{
	for (size_t f = 0; f < ARRAY_LEN(features); f++) {
		struct tk t;
		REQUIRE(start(&t, f));
		char *err = NULL;
		if (arena_check_ptrs(&t.s->arena, t.s, sizeof *t.s, &err)) {
			CHECK_STR(err, features[f][0] ? features[f][0] : "default config");
			free(err);
		}
		sim_step(t.s, 300);
		err = NULL;
		if (arena_check_ptrs(&t.s->arena, t.s, sizeof *t.s, &err)) { /* nothing stores one later */
			CHECK_STR(err, features[f][0] ? features[f][0] : "default config");
			free(err);
		}
		tk_end(&t);
	}
}

/* Two instances (different addresses) in the same state hash alike, with
 * every feature; one more cycle changes the hash. */
TEST(state_hash_equal_states_equal_hashes)
{
	for (size_t f = 0; f < ARRAY_LEN(features); f++) {
		struct tk a, b;
		REQUIRE(start(&a, f));
		REQUIRE(start(&b, f));
		CHECK(a.s != b.s && a.s->st != b.s->st);
		CHECK(sim_state_hash(a.s) == sim_state_hash(b.s));
		sim_step(a.s, 250);
		sim_step(b.s, 250);
		uint64_t h = sim_state_hash(a.s);
		CHECK(sim_state_hash(b.s) == h);
		sim_step(b.s, 1);
		CHECK(sim_state_hash(b.s) != h);
		tk_end(&a);
		tk_end(&b);
	}
}

/* Any one word of state changes the hash: a cache tag, a stat, a request's
 * field, the cycle. */
TEST(state_hash_one_field_changes_it)
{
	struct tk t;
	REQUIRE(start(&t, 0));
	sim_step(t.s, 200);
	uint64_t h = sim_state_hash(t.s);
	struct cline *cl = &t.s->sms[1].l1.c.l[3];
	cl->tag ^= 0x80;
	CHECK(sim_state_hash(t.s) != h);
	cl->tag ^= 0x80;
	CHECK(sim_state_hash(t.s) == h);
	t.s->pool.r[t.s->pool.cap - 1].addr++;
	CHECK(sim_state_hash(t.s) != h);
	t.s->pool.r[t.s->pool.cap - 1].addr--;
	t.s->st->now++;
	CHECK(sim_state_hash(t.s) != h);
	t.s->st->now--;
	CHECK(sim_state_hash(t.s) == h);
	tk_end(&t);
}

/* A counter whose value is an address inside its own simulator's arena (what
 * a large counter can be under valgrind, whose heap sits low): the old hash
 * took it for a pointer and rewrote it as an offset, so two instances in the
 * same state hashed apart. Now it is a value like any other. Pointer fields
 * themselves differ between the instances and do not count. */
TEST(state_hash_address_like_value_is_a_value)
{
	struct tk a, b;
	REQUIRE(start(&a, 0));
	REQUIRE(start(&b, 0));
	sim_step(a.s, 100);
	sim_step(b.s, 100);
	CHECK(a.s->sms[0].w != b.s->sms[0].w); /* pointer fields: different values, same state */
	uint64_t v = (uint64_t)(uintptr_t)a.s->sms[0].w;
	a.s->st->now += v;
	b.s->st->now += v;
	CHECK(sim_state_hash(a.s) == sim_state_hash(b.s));
	b.s->st->now++;
	CHECK(sim_state_hash(a.s) != sim_state_hash(b.s));
	b.s->st->now--;
	a.s->st->now -= v;
	b.s->st->now -= v;
	tk_end(&a);
	tk_end(&b);
}

/* The audit names what an un-noted word points into: the arena, the owner
 * (struct sim), the program image (code, tables). */
TEST(state_hash_audit_finds_unnoted_pointers)
{
	static const int table[4] = {1, 2, 3, 4};
	struct tk t;
	REQUIRE(start(&t, 0));
	uint64_t *w = &t.s->pool.r[t.s->pool.cap - 1].addr, keep = *w;
	const struct {
		uint64_t v;
		const char *what;
	} cases[] = {
		{(uint64_t)(uintptr_t)&t.s->sms[1], "into the arena"},
		{(uint64_t)(uintptr_t)&t.s->cfg, "into its owner"},
		{(uint64_t)(uintptr_t)&table[2], "into the program image"},
		{(uint64_t)(uintptr_t)&sim_state_hash, "into the program image"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		*w = cases[i].v;
		char *err = NULL;
		CHECK_EQ(arena_check_ptrs(&t.s->arena, t.s, sizeof *t.s, &err), -1);
		CHECK_CONTAINS(err ? err : "", cases[i].what);
		free(err);
	}
	*w = keep;
	char *err = NULL;
	CHECK_EQ(arena_check_ptrs(&t.s->arena, t.s, sizeof *t.s, &err), 0);
	free(err);
	tk_end(&t);
}
