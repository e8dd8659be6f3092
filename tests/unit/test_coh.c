/*
 * test_coh.c: the coherence protocol tables (engine/coh_*.c) through the
 * table-driven controllers of coh_ctl.c: each protocol's key transitions
 * scripted on a 4-L1 system with fixed delays (read miss, write hit on S,
 * write miss with sharers, eviction of a dirty line, NACK on a locked
 * directory), then 10^6 random accesses per protocol with zero violations,
 * and deliberately broken table entries that the tester must catch; atomics
 * (run at the L2: the read value is the latest there), scripted and with
 * deliberately broken atomic behaviours the tester must catch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coh/coh_stress.h"
#include "test.h"

static struct cs_sys *mk(const struct coh_proto *p)
{
	struct cs_cfg c;
	cs_default_cfg(&c, p);
	c.net_min = c.net_max = 2; /* scripted: fixed delays */
	c.l2_lines = 8;
	return cs_new(&c);
}

static void go(struct cs_sys *s, unsigned l1, unsigned line, bool store)
{
	REQUIRE(cs_access(s, l1, line, 0, store));
	REQUIRE(cs_run(s, 10000));
	REQUIRE(cs_stats(s)->ok);
}

static unsigned dstate(struct cs_sys *s, unsigned line, int *owner, uint64_t *sh)
{
	unsigned ds = 99;
	bool locked = false;
	if (!cs_dir(s, line, &ds, owner, sh, &locked))
		return 99;
	return locked ? 98 : ds;
}

TEST(coh_tables_have_no_duplicate_rows)
{
	for (unsigned id = COH_SI; id < COH__COUNT; id++) {
		const struct coh_proto *p = coh_proto_get(id);
		for (unsigned i = 0; i < p->nl1; i++)
			CHECK_EQ(coh_l1_lookup(p, p->l1[i].state, p->l1[i].ev), (int)i);
		for (unsigned i = 0; i < p->ndir; i++)
			CHECK_EQ(coh_dir_lookup(p, p->dir[i].dstate, p->dir[i].msg), (int)i);
	}
	CHECK(coh_proto_find("nmoesi") == &coh_nmoesi_proto);
	CHECK(coh_proto_find("none") == NULL);
}

TEST(coh_moesi_key_transitions)
{
	struct cs_sys *s = mk(&coh_moesi_proto);
	int own;
	uint64_t sh;
	/* read miss, no other copy: exclusive */
	go(s, 0, 0, false);
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_E);
	CHECK_EQ(dstate(s, 0, &own, &sh), DS_X);
	CHECK_EQ(own, 0);
	/* a second reader recalls the clean owner: both S */
	go(s, 1, 0, false);
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_S);
	CHECK_EQ(cs_l1_state(s, 1, 0), CS_S);
	CHECK_EQ(cs_stats(s)->msgs[CM_RECALL], 1);
	/* write hit on S: upgrade, the other sharer is invalidated */
	go(s, 0, 0, true);
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_M);
	CHECK_EQ(cs_l1_state(s, 1, 0), CS_I);
	CHECK_EQ(cs_stats(s)->msgs[CM_UPG], 1);
	CHECK_EQ(cs_stats(s)->msgs[CM_INV], 1);
	CHECK_EQ(dstate(s, 0, &own, &sh), DS_X);
	CHECK_EQ(own, 0);
	/* read of the M line by another L1: owner keeps it in O */
	go(s, 2, 0, false);
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_O);
	CHECK_EQ(cs_l1_state(s, 2, 0), CS_S);
	CHECK_EQ(dstate(s, 0, &own, &sh), DS_O);
	/* write miss with sharers: owner and sharer invalidated, data from the owner */
	go(s, 3, 0, true);
	CHECK_EQ(cs_l1_state(s, 3, 0), CS_M);
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_I);
	CHECK_EQ(cs_l1_state(s, 2, 0), CS_I);
	CHECK_EQ(cs_stats(s)->msgs[CM_GETX], 1);
	/* eviction of a dirty line: PutM, the directory forgets the owner */
	uint64_t putm = cs_stats(s)->msgs[CM_PUTM];
	CHECK(cs_l1_evict(s, 3, 0));
	CHECK_EQ(cs_l1_state(s, 3, 0), CS_MI_A);
	REQUIRE(cs_run(s, 10000));
	CHECK_EQ(cs_l1_state(s, 3, 0), CS_I);
	CHECK_EQ(cs_stats(s)->msgs[CM_PUTM], putm + 1);
	CHECK_EQ(dstate(s, 0, &own, &sh), DS_I);
	/* the written value survives an L2 replacement (the load checks it) */
	CHECK(cs_l2_evict(s, 0));
	go(s, 1, 0, false);
	CHECK(cs_stats(s)->ok);
	cs_free(s);
}

TEST(coh_moesi_nack_on_locked_directory)
{
	struct cs_sys *s = mk(&coh_moesi_proto);
	REQUIRE(cs_access(s, 0, 1, 0, true)); /* GetX: memory fetch, then DataX, locked until Unblock */
	cs_step(s, 5);
	REQUIRE(cs_access(s, 1, 1, 0, false)); /* finds the entry locked */
	REQUIRE(cs_run(s, 10000));
	CHECK(cs_stats(s)->ok);
	CHECK(cs_stats(s)->nacks >= 1);
	CHECK(cs_stats(s)->msgs[CM_NACK] >= 1);
	CHECK_EQ(cs_l1_state(s, 0, 1), CS_O);
	CHECK_EQ(cs_l1_state(s, 1, 1), CS_S);
	cs_free(s);
}

TEST(coh_nmoesi_key_transitions)
{
	struct cs_sys *s = mk(&coh_nmoesi_proto);
	int own;
	uint64_t sh;
	go(s, 0, 0, false);
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_E);
	go(s, 1, 0, false);
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_S);
	CHECK_EQ(cs_l1_state(s, 1, 0), CS_S);
	/* write hit on S: N, the other copy is NOT invalidated; the directory was locked for it */
	go(s, 0, 0, true);
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_N);
	CHECK_EQ(cs_l1_state(s, 1, 0), CS_S);
	CHECK_EQ(cs_stats(s)->msgs[CM_UPGN], 1);
	CHECK_EQ(cs_stats(s)->msgs[CM_INV], 0);
	CHECK_EQ(cs_stats(s)->msgs[CM_UNBLOCK], 2); /* E grant, N grant */
	CHECK_EQ(dstate(s, 0, &own, &sh), DS_N);
	/* write miss with sharers: another N copy, still no invalidation */
	go(s, 2, 0, true);
	CHECK_EQ(cs_l1_state(s, 2, 0), CS_N);
	CHECK_EQ(cs_l1_state(s, 1, 0), CS_S);
	CHECK_EQ(cs_stats(s)->msgs[CM_GETN], 1);
	CHECK_EQ(cs_stats(s)->msgs[CM_INV], 0);
	/* eviction of a dirty N line: PutN merges its dirty words */
	CHECK(cs_l1_evict(s, 0, 0));
	REQUIRE(cs_run(s, 10000));
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_I);
	CHECK_EQ(cs_stats(s)->msgs[CM_PUTN], 1);
	/* L2 replacement: N copy invalidated with its data (AckD), S copy acked */
	CHECK(cs_l2_evict(s, 0));
	REQUIRE(cs_run(s, 10000));
	CHECK_EQ(cs_l1_state(s, 2, 0), CS_I);
	CHECK_EQ(cs_l1_state(s, 1, 0), CS_I);
	CHECK(cs_stats(s)->msgs[CM_ACKD] >= 1);
	CHECK(cs_stats(s)->ok);
	/* NACK on a locked directory: a GetN holds the lock until its Unblock */
	REQUIRE(cs_access(s, 3, 2, 0, true));
	cs_step(s, 5);
	REQUIRE(cs_access(s, 1, 2, 0, false));
	REQUIRE(cs_run(s, 10000));
	CHECK(cs_stats(s)->nacks >= 1);
	CHECK_EQ(cs_l1_state(s, 3, 2), CS_N);
	CHECK_EQ(cs_l1_state(s, 1, 2), CS_S);
	CHECK(cs_stats(s)->ok);
	cs_free(s);
}

TEST(coh_si_key_transitions)
{
	struct cs_sys *s = mk(&coh_si_proto);
	int own;
	uint64_t sh;
	go(s, 0, 0, false);
	go(s, 1, 0, false);
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_V);
	CHECK_EQ(cs_l1_state(s, 1, 0), CS_V);
	CHECK_EQ(dstate(s, 0, &own, &sh), DS_S);
	CHECK_EQ(sh, 3);
	/* write hit: update and write through; no directory update, no invalidation */
	go(s, 0, 0, true);
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_V);
	CHECK_EQ(cs_l1_state(s, 1, 0), CS_V);
	CHECK_EQ(cs_stats(s)->msgs[CM_WT], 1);
	CHECK_EQ(cs_stats(s)->msgs[CM_INV], 0);
	/* write miss with sharers: no write-allocate, readers keep their copies */
	go(s, 2, 0, true);
	CHECK_EQ(cs_l1_state(s, 2, 0), CS_I);
	CHECK_EQ(cs_l1_state(s, 1, 0), CS_V);
	CHECK_EQ(cs_stats(s)->msgs[CM_WT], 2);
	/* replacing the dirty L2 line invalidates the readers (no acks) */
	CHECK(cs_l2_evict(s, 0));
	REQUIRE(cs_run(s, 10000));
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_I);
	CHECK_EQ(cs_l1_state(s, 1, 0), CS_I);
	CHECK_EQ(cs_stats(s)->msgs[CM_INV], 2);
	CHECK_EQ(cs_stats(s)->msgs[CM_ACK], 0);
	go(s, 2, 0, false); /* reads its own write back from memory (checked) */
	/* NACK while the L2 line is being fetched */
	REQUIRE(cs_access(s, 0, 3, 0, false));
	cs_step(s, 5);
	REQUIRE(cs_access(s, 1, 3, 0, false));
	REQUIRE(cs_run(s, 10000));
	CHECK(cs_stats(s)->nacks >= 1);
	CHECK(cs_stats(s)->ok);
	cs_free(s);
}

static void stress(const struct coh_proto *p, uint64_t n, uint64_t seed)
{
	struct cs_cfg c;
	cs_default_cfg(&c, p);
	c.accesses = n;
	c.seed = seed;
	struct cs_result r;
	cs_stress(&c, &r);
	if (!r.ok)
		fprintf(stderr, "%s: cycle %llu line %d L1 %d: %s\n", p->name, (unsigned long long)r.cycle, r.line, r.l1,
			r.why);
	CHECK(r.ok);
	CHECK_EQ(r.accesses, n);
	CHECK(r.atomics > n / 20); /* 10 % of the accesses by default */
}

TEST(coh_stress_si_1m) { stress(&coh_si_proto, 1000000, 11); }
TEST(coh_stress_nmoesi_1m) { stress(&coh_nmoesi_proto, 1000000, 12); }
TEST(coh_stress_moesi_1m) { stress(&coh_moesi_proto, 1000000, 13); }

/* A copy of a protocol with one L1 row changed. */
struct broken {
	struct coh_l1_row rows[64];
	struct coh_proto p;
};

static void breaks(const struct coh_proto *base, unsigned st, unsigned ev, unsigned next, uint32_t act, struct broken *b)
{
	memcpy(b->rows, base->l1, base->nl1 * sizeof b->rows[0]);
	b->p = *base;
	b->p.l1 = b->rows;
	int i = coh_l1_lookup(base, st, ev);
	REQUIRE(i >= 0);
	b->rows[i].next = (uint8_t)next;
	b->rows[i].act = act;
}

static bool fails(const struct coh_proto *p)
{
	struct cs_cfg c;
	cs_default_cfg(&c, p);
	c.accesses = 200000;
	struct cs_result r;
	cs_stress(&c, &r);
	if (getenv("COH_VERBOSE"))
		fprintf(stderr, "  broken %s: %s\n", p->name, r.ok ? "not caught" : r.why);
	return !r.ok && r.why[0];
}

TEST(coh_stress_catches_broken_tables)
{
	struct broken b;
	/* MOESI: an S copy acks an invalidation but keeps its data */
	breaks(&coh_moesi_proto, CS_S, CE_INV, CS_S, A_ACK, &b);
	CHECK(fails(&b.p));
	/* MOESI: E -> M without marking the word dirty (the write is lost on eviction) */
	breaks(&coh_moesi_proto, CS_E, CE_STORE, CS_M, A_HIT, &b);
	CHECK(fails(&b.p));
	/* NMOESI: an N line evicted as if clean (its dirty words never merge) */
	breaks(&coh_nmoesi_proto, CS_N, CE_REPLACE, CS_MI_A, A_PUTE, &b);
	CHECK(fails(&b.p));
	/* SI: a store hit that forgets to write through */
	breaks(&coh_si_proto, CS_V, CE_STORE, CS_V, A_HIT, &b);
	CHECK(fails(&b.p));
}

/* ---- atomics in the tester ------------------------------------------------ */

static uint32_t atomic(struct cs_sys *s, unsigned l1, unsigned line, unsigned word, uint32_t *wrote)
{
	REQUIRE(cs_atomic(s, l1, line, word));
	REQUIRE(cs_run(s, 10000));
	REQUIRE(cs_stats(s)->ok);
	return cs_atomic_read(s, l1, wrote);
}

#define STORER(v) ((v) & 31) /* make_value: the L1 that wrote a value */

/* An atomic runs at the L2 after every copy is gone: it reads the dirty word
 * of another L1's copy (merged by the invalidation), the next atomic reads
 * the first one's value, and the copies are invalidated. */
static void atomic_reads_latest(const struct coh_proto *p)
{
	struct cs_sys *s = mk(p);
	uint32_t w1, w2;
	CHECK_EQ(atomic(s, 1, 0, 0, &w1), 0u); /* nothing written yet: the initial 0 */
	CHECK_EQ(atomic(s, 2, 0, 0, &w2), w1); /* the previous atomic's value */
	go(s, 3, 0, false);                    /* a reader's copy (checked: w2 under moesi) */
	go(s, 0, 0, true);                     /* sm0's store: M / N / write-through */
	uint32_t r = atomic(s, 1, 0, 0, NULL);
	CHECK(r != 0 && r != w1 && r != w2);
	CHECK_EQ(STORER(r), 0u); /* sm0's value, merged from its dirty copy (or its WT) */
	CHECK_EQ(cs_l1_state(s, 0, 0), CS_I);
	CHECK_EQ(cs_l1_state(s, 3, 0), CS_I);
	int own;
	uint64_t sh;
	unsigned ds = dstate(s, 0, &own, &sh);
	CHECK(ds != 98); /* not locked */
	CHECK_EQ(own, -1);
	CHECK_EQ(cs_stats(s)->atomics, 4u - 1u);
	/* the atomic's requester gives its own dirty copy back first */
	go(s, 2, 1, true);
	r = atomic(s, 2, 1, 0, &w1);
	CHECK_EQ(STORER(r), 2u);
	CHECK(r != w1);
	CHECK_EQ(cs_l1_state(s, 2, 1), CS_I);
	go(s, 0, 1, false); /* moesi: must read the atomic's value (w1) */
	CHECK(cs_stats(s)->ok);
	cs_free(s);
}

TEST(coh_atomic_reads_latest_at_l2_moesi) { atomic_reads_latest(&coh_moesi_proto); }
TEST(coh_atomic_reads_latest_at_l2_nmoesi) { atomic_reads_latest(&coh_nmoesi_proto); }
TEST(coh_atomic_reads_latest_at_l2_si) { atomic_reads_latest(&coh_si_proto); }

static bool bug_fails(const struct coh_proto *p, unsigned bug)
{
	struct cs_cfg c;
	cs_default_cfg(&c, p);
	c.accesses = 200000;
	c.bug = bug;
	struct cs_result r;
	cs_stress(&c, &r);
	if (getenv("COH_VERBOSE"))
		fprintf(stderr, "  %s bug %u: %s\n", p->name, bug, r.ok ? "not caught" : r.why);
	return !r.ok && strstr(r.why, "atomic on word");
}

/* The atomic rule can fail: an atomic that skips the invalidation misses a
 * dirty copy's words (moesi, nmoesi; si's copies are never dirty); one that
 * reads memory instead of the L2 line misses every write not yet written
 * back (all three). */
TEST(coh_stress_catches_broken_atomics)
{
	CHECK(bug_fails(&coh_moesi_proto, CS_BUG_ATOM_NO_INV));
	CHECK(bug_fails(&coh_nmoesi_proto, CS_BUG_ATOM_NO_INV));
	CHECK(bug_fails(&coh_si_proto, CS_BUG_ATOM_READS_MEM));
	CHECK(bug_fails(&coh_nmoesi_proto, CS_BUG_ATOM_READS_MEM));
	CHECK(bug_fails(&coh_moesi_proto, CS_BUG_ATOM_READS_MEM));
}

/* ---- kernel boundaries in the tester -------------------------------------- */

/* Kernel 1: sm1 reads line 0, then sm0 writes word 0. Under the relaxed
 * protocols sm1's copy is stale in kernel 1 (allowed); after the boundary
 * (release, acquire) kernel 2's load on sm1 reads sm0's value. */
static void kernel_boundary_publishes(const struct coh_proto *p)
{
	struct cs_sys *s = mk(p);
	go(s, 1, 0, false);
	go(s, 0, 0, true);
	go(s, 1, 0, false);
	uint32_t before = cs_load_read(s, 1);
	REQUIRE(cs_kernel_boundary(s));
	REQUIRE(cs_stats(s)->ok);
	go(s, 1, 0, false); /* checked by the tester too: the value at the release */
	uint32_t after = cs_load_read(s, 1);
	CHECK(after != 0);
	CHECK_EQ(STORER(after), 0u);
	if (p == &coh_moesi_proto) { /* coherent: nothing to do at the boundary */
		CHECK_EQ(before, after);
		CHECK_EQ(cs_stats(s)->kb_writebacks, 0u);
		CHECK_EQ(cs_stats(s)->kb_invalidations, 0u);
	} else { /* stale in kernel 1, fresh in kernel 2 */
		CHECK_EQ(before, 0u);
		CHECK(cs_stats(s)->kb_invalidations >= 1); /* sm1's S/V copy */
	}
	if (p == &coh_nmoesi_proto) {
		CHECK_EQ(cs_stats(s)->kb_writebacks, 1u); /* sm0's N line merged back */
		CHECK_EQ(cs_l1_state(s, 0, 0), CS_I);
	}
	CHECK_EQ(cs_stats(s)->kernels, 1u);
	CHECK(cs_stats(s)->ok);
	cs_free(s);
}

TEST(coh_stress_kernel_boundary_si) { kernel_boundary_publishes(&coh_si_proto); }
TEST(coh_stress_kernel_boundary_nmoesi) { kernel_boundary_publishes(&coh_nmoesi_proto); }
TEST(coh_stress_kernel_boundary_moesi_unaffected) { kernel_boundary_publishes(&coh_moesi_proto); }

static bool kb_bug_fails(const struct coh_proto *p, unsigned bug, const char *why)
{
	struct cs_cfg c;
	cs_default_cfg(&c, p);
	c.accesses = 200000;
	c.bug = bug;
	struct cs_result r;
	cs_stress(&c, &r);
	if (getenv("COH_VERBOSE"))
		fprintf(stderr, "  %s bug %u: %s\n", p->name, bug, r.ok ? "not caught" : r.why);
	return !r.ok && strstr(r.why, why);
}

/* The kernel-boundary rule can fail: without the acquire, stale S/V copies
 * survive into the next kernel; without the release, N words stay unmerged. */
TEST(coh_stress_catches_broken_kernel_boundaries)
{
	CHECK(kb_bug_fails(&coh_si_proto, CS_BUG_NO_ACQUIRE, "after a kernel boundary"));
	CHECK(kb_bug_fails(&coh_nmoesi_proto, CS_BUG_NO_ACQUIRE, "after a kernel boundary"));
	CHECK(kb_bug_fails(&coh_nmoesi_proto, CS_BUG_NO_RELEASE, "kernel boundary"));
	/* with a boundary every 1000 accesses, the stress runs cross many */
	struct cs_cfg c;
	cs_default_cfg(&c, &coh_nmoesi_proto);
	c.accesses = 50000;
	struct cs_result r;
	cs_stress(&c, &r);
	CHECK(r.ok);
	CHECK_EQ(r.kernels, 49u);
	CHECK(r.kb_writebacks > 0 && r.kb_invalidations > 0);
}
