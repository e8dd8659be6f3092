/*
 * test_coh_engine.c: the coherence protocols on the real engine (L1s,
 * crossbar, L2 directory): each protocol's key transitions read from the
 * event log (coh.transition a = from, b = to; coh.msg a = type), message
 * counts, the dir_locked NACK and its retry, and determinism (one step at a
 * time = one run).
 */
#include <string.h>

#include "coh/coh.h"
#include "sim/event.h"
#include "simtest.h"
#include "test.h"

static void coh_cfg(struct tk *t, unsigned proto, int sms)
{
	tk_base_cfg(&t->cfg);
	t->cfg.core.sms = sms;
	t->cfg.l2.coh.protocol = (int)proto;
}

/* Is there a coh.transition from -> to (sm < 0: any SM)? */
static bool saw(struct tk *t, int sm, unsigned from, unsigned to)
{
	for (unsigned i = 0; i < tk_count(t, EV_COH_TRANSITION); i++) {
		const struct event *e = tk_event(t, EV_COH_TRANSITION, i);
		if (e && e->a == from && e->b == to && (sm < 0 || e->sm == sm))
			return true;
	}
	return false;
}

TEST(coh_moesi_read_miss_alone_gets_exclusive)
{
	struct tk t;
	coh_cfg(&t, COH_MOESI, 1);
	REQUIRE(tk_start(&t, 32, 1, "ld A[lane] -> r1; alu 1 <- r1; ld A[lane] -> r2"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(saw(&t, 0, CS_I, CS_IS_D));
	CHECK(saw(&t, 0, CS_IS_D, CS_E));
	CHECK_EQ(tk_stat(&t, "coh.msgs.GetS"), 1);
	CHECK_EQ(tk_stat(&t, "coh.msgs.DataE"), 1);
	CHECK_EQ(tk_stat(&t, "coh.msgs.Unblock"), 1);
	CHECK_EQ(tk_stat(&t, "l1.hits"), 1); /* the second load hits E */
	tk_end(&t);
}

TEST(coh_moesi_second_reader_recalls_owner)
{
	struct tk t;
	coh_cfg(&t, COH_MOESI, 2);
	REQUIRE(tk_start(&t, 32, 2, "if bx == 1; alu 300; end; ld A[lane] -> r1"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(saw(&t, 0, CS_IS_D, CS_E));
	CHECK(saw(&t, 0, CS_E, CS_S)); /* recalled: E -> S */
	CHECK(saw(&t, 1, CS_IS_D, CS_S));
	CHECK_EQ(tk_stat(&t, "coh.msgs.Recall"), 1);
	CHECK_EQ(tk_stat(&t, "coh.msgs.DataS"), 1);
	tk_end(&t);
}

TEST(coh_moesi_write_hit_on_s_upgrades_and_invalidates)
{
	struct tk t;
	coh_cfg(&t, COH_MOESI, 2);
	/* both read (S, S), then block 0 writes: Upg, Inv to block 1's SM, DataX */
	REQUIRE(tk_start(&t, 32, 2, "if bx == 1; alu 300; end; ld A[lane] -> r1; alu 600 <- r1; if bx == 0; st A[lane] <- r1; end"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(saw(&t, 0, CS_S, CS_SM_D));
	CHECK(saw(&t, 0, CS_SM_D, CS_M));
	CHECK(saw(&t, 1, CS_S, CS_I));
	CHECK_EQ(tk_stat(&t, "coh.msgs.Upg"), 1);
	CHECK_EQ(tk_stat(&t, "coh.msgs.Inv"), 1);
	CHECK_EQ(tk_stat(&t, "coh.msgs.Ack"), 2); /* the recall (E -> S) and the Inv */
	CHECK_EQ(tk_stat(&t, "coh.msgs.DataX"), 1);
	tk_end(&t);
}

TEST(coh_moesi_write_miss_with_sharers_invalidates_them)
{
	struct tk t;
	coh_cfg(&t, COH_MOESI, 3);
	/* blocks 1 and 2 read, block 0 writes later: GetX, two Invs */
	REQUIRE(tk_start(&t, 32, 3, "if bx > 0; ld A[lane] -> r1; end; if bx == 0; alu 900; st A[lane] <- r1; end"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(saw(&t, 0, CS_I, CS_IM_D));
	CHECK(saw(&t, 0, CS_IM_D, CS_M));
	CHECK_EQ(tk_stat(&t, "coh.msgs.GetX"), 1);
	CHECK_EQ(tk_stat(&t, "coh.msgs.Inv"), 2);
	CHECK_EQ(tk_stat(&t, "coh.msgs.DataX"), 1);
	tk_end(&t);
}

TEST(coh_nmoesi_write_miss_with_sharers_keeps_them)
{
	struct tk t;
	coh_cfg(&t, COH_NMOESI, 3);
	REQUIRE(tk_start(&t, 32, 3, "if bx > 0; ld A[lane] -> r1; end; if bx == 0; alu 900; st A[lane] <- r1; end"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(saw(&t, 0, CS_I, CS_IN_D));
	CHECK(saw(&t, 0, CS_IN_D, CS_N));
	CHECK_EQ(tk_stat(&t, "coh.msgs.GetN"), 1);
	CHECK_EQ(tk_stat(&t, "coh.msgs.DataN"), 1);
	CHECK_EQ(tk_stat(&t, "coh.msgs.Inv"), 0); /* N: no invalidations */
	tk_end(&t);
}

TEST(coh_nmoesi_first_write_on_s_locks_with_upgn)
{
	struct tk t;
	coh_cfg(&t, COH_NMOESI, 2);
	REQUIRE(tk_start(&t, 32, 2, "if bx == 1; alu 300; end; ld A[lane] -> r1; alu 600 <- r1; if bx == 0; st A[lane] <- r1; end"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(saw(&t, 0, CS_S, CS_SN_D));
	CHECK(saw(&t, 0, CS_SN_D, CS_N));
	CHECK_EQ(tk_stat(&t, "coh.msgs.UpgN"), 1);
	CHECK_EQ(tk_stat(&t, "coh.msgs.Inv"), 0);
	tk_end(&t);
}

TEST(coh_dirty_eviction_sends_put)
{
	static const unsigned protos[] = {COH_MOESI, COH_NMOESI};
	static const char *const put[] = {"coh.msgs.PutM", "coh.msgs.PutN"};
	for (int p = 0; p < 2; p++) {
		struct tk t;
		coh_cfg(&t, protos[p], 1);
		t.cfg.l1.sets = 1;
		t.cfg.l1.ways = 2;
		REQUIRE(tk_start(&t, 32, 1, "st A[lane] <- r9; st A[lane + 32] <- r9; st A[lane + 64] <- r9"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		CHECK_EQ(tk_stat(&t, put[p]), 1);
		CHECK(saw(&t, 0, p ? CS_N : CS_M, CS_I));
		CHECK_EQ(tk_stat(&t, "l1.writebacks"), 1);
		tk_end(&t);
	}
}

/* Eviction notices are not lookups: a Put reaching the directory counts in
 * l2.coh_puts, never in l2.accesses or l2.hits (docs/COHERENCE.md). Three
 * streaming loads and three streaming stores through a 2-line L1: every
 * line is touched once, so nothing can hit in the L2. */
TEST(coh_puts_are_not_l2_hits)
{
	static const unsigned protos[] = {COH_MOESI, COH_NMOESI};
	for (int p = 0; p < 2; p++) {
		struct tk t;
		coh_cfg(&t, protos[p], 1);
		t.cfg.l1.sets = 1;
		t.cfg.l1.ways = 2;
		REQUIRE(tk_start(&t, 32, 1,
				 "ld A[lane] -> r1; ld A[lane + 32] -> r2; ld A[lane + 64] -> r3; "
				 "st B[lane] <- r9; st B[lane + 32] <- r9; st B[lane + 64] <- r9"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		uint64_t puts = tk_stat(&t, "coh.msgs.PutE") + tk_stat(&t, "coh.msgs.PutM") + tk_stat(&t, "coh.msgs.PutN");
		CHECK(puts >= 3); /* the 2-line L1 evicted at least three of its six lines */
		CHECK_EQ(tk_stat(&t, "l2.coh_puts"), puts);
		CHECK_EQ(tk_stat(&t, "l2.hits"), 0);
		CHECK_EQ(tk_stat(&t, "l2.accesses"), tk_stat(&t, "l2.misses"));
		tk_end(&t);
	}
}

TEST(coh_nack_on_locked_directory_is_retried)
{
	struct tk t;
	coh_cfg(&t, COH_MOESI, 2);
	/* both read at once: the first gets DataE and locks the entry until its
	 * Unblock; the second finds it locked */
	REQUIRE(tk_start(&t, 32, 2, "ld A[lane] -> r1"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(tk_stat(&t, "coh.nacks") >= 1);
	CHECK(tk_count(&t, EV_COH_NACK) >= 1);
	CHECK(tk_stat(&t, "coh.msgs.Nack") >= 1);
	CHECK(tk_stat(&t, "l1.retries") >= 1);
	const struct event *n = tk_event(&t, EV_COH_NACK, 0);
	REQUIRE(n);
	CHECK_EQ(n->a, CM_GETS);
	CHECK(saw(&t, -1, CS_IS_D, CS_S));
	tk_end(&t);
}

TEST(coh_si_write_through_no_allocate)
{
	struct tk t;
	coh_cfg(&t, COH_SI, 1);
	REQUIRE(tk_start(&t, 32, 1, "ld A[lane] -> r1; alu 1 <- r1; st A[lane] <- r1; st B[lane] <- r1"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(saw(&t, 0, CS_IS_D, CS_V));
	CHECK_EQ(tk_stat(&t, "coh.msgs.WT"), 2);
	CHECK_EQ(tk_stat(&t, "coh.msgs.WTAck"), 2);
	CHECK_EQ(tk_stat(&t, "coh.msgs.GetS"), 1); /* the store miss allocates nothing */
	CHECK_EQ(tk_stat(&t, "coh.msgs.Unblock"), 0);
	tk_end(&t);
}

TEST(coh_step_vs_run_deterministic)
{
	static const unsigned protos[] = {COH_SI, COH_NMOESI, COH_MOESI};
	for (int p = 0; p < 3; p++) {
		uint64_t hash[2], cyc[2], msgs[2];
		for (int mode = 0; mode < 2; mode++) {
			struct tk t;
			coh_cfg(&t, protos[p], 2);
			REQUIRE(tk_start(&t, 64, 4, "ld A[tid] -> r1; alu 3 <- r1; st A[tid + 7] <- r1; ld B[tid] -> r2; st B[tid] <- r2"));
			if (mode)
				while (sim_step(t.s, 1) != SIM_STOP_DONE && sim_cycle(t.s) < 200000)
					;
			else
				sim_step(t.s, 200000);
			hash[mode] = sim_state_hash(t.s);
			cyc[mode] = sim_cycle(t.s);
			msgs[mode] = tk_stat(&t, "coh.transitions");
			tk_end(&t);
		}
		CHECK_EQ(cyc[0], cyc[1]);
		CHECK_EQ(msgs[0], msgs[1]);
		CHECK_EQ(hash[0], hash[1]);
	}
}

/* The same with a small FRC (one L2 set of 2 ways, so victims with L1 copies
 * are swapped out of FRC entries and some misses fall back): one cycle at a
 * time, in chunks of 37, and in one go give the same machine. */
TEST(coh_frc_step_vs_run_deterministic)
{
	static const unsigned protos[] = {COH_SI, COH_NMOESI, COH_MOESI};
	for (int p = 0; p < 3; p++) {
		uint64_t hash[3], cyc[3], inv[3], lat[3];
		for (int mode = 0; mode < 3; mode++) {
			struct tk t;
			coh_cfg(&t, protos[p], 2);
			t.cfg.l2.sets = 1;
			t.cfg.l2.ways = 2;
			t.cfg.l2.frc.entries = 2;
			t.cfg.l2.frc.ways = 1;
			REQUIRE(tk_start(&t, 64, 4, "ld A[tid] -> r1; alu 3 <- r1; st A[tid + 7] <- r1; ld B[tid] -> r2; st B[tid] <- r2"));
			uint64_t chunk = mode == 0 ? 200000 : mode == 1 ? 1 : 37;
			while (sim_step(t.s, chunk) != SIM_STOP_DONE && sim_cycle(t.s) < 200000)
				;
			CHECK(sim_done(t.s));
			hash[mode] = sim_state_hash(t.s);
			cyc[mode] = sim_cycle(t.s);
			inv[mode] = tk_stat(&t, "frc.inv_victims");
			lat[mode] = tk_stat(&t, "l2.miss_lat.frc.total") + tk_stat(&t, "l2.miss_lat.conv.total");
			CHECK(tk_stat(&t, "frc.allocs") > 0);
			tk_end(&t);
		}
		CHECK(inv[0] > 0);
		for (int m = 1; m < 3; m++) {
			CHECK_EQ(cyc[0], cyc[m]);
			CHECK_EQ(inv[0], inv[m]);
			CHECK_EQ(lat[0], lat[m]);
			CHECK_EQ(hash[0], hash[m]);
		}
	}
}
