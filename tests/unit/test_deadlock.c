/*
 * test_deadlock.c: the request-response deadlock of docs/POLICIES.md and its
 * fix (icnt.ack_channel, engine/mem/icnt.c). Locality bypassing whose bypassed
 * loads wait at the head of the L2 input queue (l1.bypass_at_l2 = queue) on
 * one SM with a 4-entry, 2-merge MSHR file and a 2-entry wait queue, with the
 * L2 invalidating L1 copies of its victims (l2.sharers = exact): waiting loads
 * fill the bank's input queue while every L2 MSHR entry waits for an
 * invalidation Ack. With the Acks behind the requests (`shared`) they never
 * arrive: the run ends because nothing can move again, although CTAs are
 * unfinished, and says so (sim_deadlock) instead of passing for a finished
 * kernel. On their own channel (`separate`, the default) the kernel finishes.
 */
#include <stdlib.h>
#include <string.h>

#include "mem/coh_eng.h"
#include "sim/config.h"
#include "debug/inspect.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "sim/stats.h"
#include "test.h"

#define BODY "ld A[tid / 64] -> r1; ld B[tid * 8] -> r2; alu 2 <- r1, r2; ld C[tid * 33] -> r3; st D[tid] <- r3"

struct outcome {
	bool stuck, flagged;
	uint64_t cycles, invs, acks, ack_pkts, stray, req_pkts, ack_occ_max, hash;
	char why[400];
};

static uint64_t occ_max(struct tk *t, const char *name)
{
	int id = stats_find(&t->s->stats, name);
	return id < 0 ? UINT64_MAX : stats_occ(&t->s->stats, (uint32_t)id)->max;
}

/* The repro machine (POLICIES.md) with the given bypass mode, channel and
 * sharer records, run until it finishes or stops. */
static void run(int bypass, int channel, int sharers, struct outcome *o)
{
	struct tk t;
	memset(o, 0, sizeof *o);
	tk_base_cfg(&t.cfg);
	t.cfg.l1.mshr_entries = 4;
	t.cfg.l1.mshr_merges = 2;
	t.cfg.l1.wait_queue = 2;
	t.cfg.l1.bypass = bypass;
	t.cfg.icnt.ack_channel = channel;
	t.cfg.l2.sharers = sharers;
	if (!tk_start(&t, 256, 4, BODY)) {
		test_fail(__FILE__, __LINE__, "tk_start");
		return;
	}
	CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
	o->stuck = t.s->st->ctas_done < t.s->nctas;
	o->flagged = sim_deadlock(t.s, o->why, sizeof o->why);
	o->cycles = sim_cycle(t.s);
	o->invs = tk_stat(&t, "l2.sharers.invs");
	o->acks = tk_stat(&t, "l2.sharers.l1_dropped");
	o->ack_pkts = tk_stat(&t, "icnt.ack_packets");
	o->stray = tk_stat(&t, "l2.sharers.stray_acks");
	o->req_pkts = tk_stat(&t, "icnt.req_packets");
	o->ack_occ_max = occ_max(&t, "icnt.ack.occupancy");
	o->hash = sim_state_hash(t.s);
	/* the debug invariants see a stuck run too: work left at the end */
	char *err = NULL;
	int inv = sim_check_invariants(t.s, &err);
	CHECK_EQ(inv != 0, o->stuck);
	free(err);
	sim_free(t.s);
	kernel_free(t.k);
}

TEST(sim_deadlock_reported_not_finished)
{
	struct outcome o;
	run(L1B_LOCALITY, ICNT_ACK_SHARED, L2SH_EXACT, &o);
	CHECK(o.stuck);
	CHECK(o.flagged);
	CHECK(strstr(o.why, "deadlocked at cycle") != NULL);
	CHECK(strstr(o.why, "CTAs have not finished") != NULL);
	CHECK(strstr(o.why, "icnt.ack_channel = shared") != NULL); /* the known cause, not "a gpustep bug" */
	CHECK(o.invs > o.ack_pkts);                                 /* an Ack never left */
	CHECK_EQ(o.ack_occ_max, 0);                                 /* the Acks' channel is unused */
}

TEST(ack_channel_separate_finishes_the_deadlock_case)
{
	struct outcome o;
	run(L1B_LOCALITY, ICNT_ACK_SEPARATE, L2SH_EXACT, &o);
	CHECK(!o.stuck);
	CHECK(!o.flagged); /* a finished run is not a deadlock */
	CHECK(o.invs > 0); /* the invalidations happened ... */
	CHECK_EQ(o.ack_pkts, o.invs); /* ... each answered by one Ack packet on the Acks' channel */
	CHECK(o.ack_occ_max >= 1);
	CHECK_EQ(o.stray, 0);
	CHECK(o.req_pkts > o.ack_pkts); /* icnt.req_packets counts the Acks too */
}

/* Without invalidations the channel carries nothing and changes nothing:
 * identical machines state for state. */
TEST(ack_channel_changes_nothing_without_acks)
{
	struct outcome a, b;
	run(L1B_LOCALITY, ICNT_ACK_SEPARATE, L2SH_OFF, &a);
	run(L1B_LOCALITY, ICNT_ACK_SHARED, L2SH_OFF, &b);
	CHECK(!a.stuck);
	CHECK_EQ(a.invs, 0);
	CHECK_EQ(a.ack_pkts, 0);
	CHECK_EQ(a.cycles, b.cycles);
	CHECK_EQ(a.hash, b.hash);
}

/* Without bypassing nothing waits at the L2's input queue, so both channels
 * finish; the Acks count the same on either. */
TEST(ack_channel_both_finish_without_bypassing)
{
	struct outcome a, b;
	run(L1B_NONE, ICNT_ACK_SEPARATE, L2SH_EXACT, &a);
	run(L1B_NONE, ICNT_ACK_SHARED, L2SH_EXACT, &b);
	CHECK(!a.stuck && !b.stuck);
	CHECK(!a.flagged && !b.flagged);
	CHECK_EQ(a.ack_pkts, a.invs);
	CHECK_EQ(b.ack_pkts, b.invs);
}

/* The Acks' own credits: with every credit of the bank's request input queue
 * taken (as by bypassed loads waiting there), an Ack still leaves the SM on
 * `separate`, not on `shared`. White box: one Ack at cycle 0. */
static bool ack_leaves_with_requests_full(int channel)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.icnt.ack_channel = channel;
	if (!tk_start(&t, 32, 1, "ld A[tid]")) {
		test_fail(__FILE__, __LINE__, "tk_start");
		return false;
	}
	struct sim *s = t.s;
	struct l2bank *b = &s->banks[0];
	uint32_t ri = req_alloc(&s->pool);
	struct req *r = &s->pool.r[ri];
	r->type = RQ_COH;
	r->flags = REQF_COH;
	r->coh_msg = CM_ACK;
	r->addr = 0x10000000;
	l1_send_down(s, &s->sms[0].l1, ri);
	struct mshr_info mi; /* what `info mshr` and the MSHR panel show (acks N) */
	CHECK(inspect_mshr(s, CACHE_L1, 0, &mi));
	CHECK_EQ(mi.ack_queue, channel == ICNT_ACK_SEPARATE ? 1 : 0);
	uint32_t saved = b->in_credits_used;
	b->in_credits_used = (uint32_t)s->cfg.l2.queue;
	icnt_tick(s);
	bool left = b->ackinq.n + b->inq.n == 1;
	CHECK_EQ(b->ack_credits_used, left ? 1u : 0u);
	CHECK(inspect_mshr(s, CACHE_L2, 0, &mi));
	CHECK_EQ(mi.ack_queue, left ? 1 : 0);
	b->in_credits_used = saved;
	sim_free(s);
	kernel_free(t.k);
	return left;
}

TEST(ack_channel_has_its_own_credits)
{
	CHECK(ack_leaves_with_requests_full(ICNT_ACK_SEPARATE));
	CHECK(!ack_leaves_with_requests_full(ICNT_ACK_SHARED));
}

/* Acks on their own channel: running in one go, cycle by cycle or in uneven
 * chunks gives the same machine (the Ack queues wake their units). */
TEST(ack_channel_step_vs_run)
{
	uint64_t hash[3], cycles[3];
	for (int mode = 0; mode < 3; mode++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.l1.mshr_entries = 4;
		t.cfg.l1.mshr_merges = 2;
		t.cfg.l1.wait_queue = 2;
		t.cfg.l1.bypass = L1B_LOCALITY;
		if (!tk_start(&t, 256, 4, BODY)) {
			test_fail(__FILE__, __LINE__, "tk_start");
			return;
		}
		tk_run_mode(t.s, mode);
		CHECK(tk_stat(&t, "icnt.ack_packets") > 0);
		hash[mode] = sim_state_hash(t.s);
		cycles[mode] = sim_cycle(t.s);
		tk_end(&t);
	}
	CHECK_EQ(cycles[0], cycles[1]);
	CHECK_EQ(cycles[0], cycles[2]);
	CHECK_EQ(hash[0], hash[1]);
	CHECK_EQ(hash[0], hash[2]);
}
