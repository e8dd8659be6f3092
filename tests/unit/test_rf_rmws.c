/*
 * test_rf_rmws.c: RMWS's ranking of instructions with nothing to score
 * (rf.rmws_no_reads) and the read part of the arbitrator waits
 * (rf.read_wait_cycles); the machines are test_rf.c's (rftest.h).
 */
#include "rftest.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

/* rf.rmws_no_reads: an instruction with no register to score (here a bar)
 * scores 0, the Fig. 8 OR over no operands, and under `zero` beats W1's
 * read of R1 (bank 1, BML 4, bank projected at 2: distance 2) although W1
 * issued last; under `last` it ranks after W1, and between two such
 * instructions the tie-break (GTO: last issued) decides. The score itself
 * (explain, the rf.rmws_score stat) stays 0. */
TEST(rf_rmws_no_reads_ranks_unscored_instructions)
{
	for (int mode = RF_NOREAD_ZERO; mode <= RF_NOREAD_LAST; mode++) {
		struct tk t;
		fig7_cfg(&t.cfg, RF_REMAP_EQ3_3);
		t.cfg.core.scheduler = SCHED_RMWS;
		t.cfg.rf.rmws_no_reads = mode;
		REQUIRE(rf_start(&t, 64, 1, 8, "alu 1 <- r1 -> r3"));
		const struct sim *s = t.s;
		struct sm *sm = &t.s->sms[0];
		REQUIRE(sm->rf != NULL);
		sm->rf->bank[0].tail = sm->rf->bank[1].tail = 2;
		struct winst bar = {.op = KOP_BAR}, rd = {.op = KOP_ALU, .nsrc = 1, .src = {1}, .ndst = 1, .dst = 3};
		int n;
		CHECK_EQ(rf_score_n(s, sm, 0, &bar, &n), 0u);
		CHECK_EQ(n, 0);
		CHECK_EQ(rf_score_n(s, sm, 1, &rd, &n), 2u);
		CHECK_EQ(n, 1);
		sm->w[0].ib = bar;
		sm->w[1].ib = rd;
		int pick = rmws_pick(s, sm, 3, 1);
		CHECK_EQ(pick, mode == RF_NOREAD_ZERO ? 0 : 1);
		unsigned sc;
		int second, gto;
		rmws_explain(s, sm, 3, 1, pick, &sc, &second, &gto);
		CHECK_EQ(sc, mode == RF_NOREAD_ZERO ? 0u : 2u);
		CHECK_EQ(second, mode == RF_NOREAD_ZERO ? 1 : 0);
		sm->w[1].ib = bar;
		CHECK_EQ(rmws_pick(s, sm, 3, 1), 1);
		tk_end(&t);
	}
}

/* rf.read_wait_cycles, derived: core 1000 MHz, RF 2000 MHz, one warp,
 * contiguous map, ports at BML 0. `alu 1 <- r0, r6 -> r1` queues both reads
 * at bank 0 in RF cycle 0: r0 (row 0) is read in [0, 1), r6 (row 3) waits 1
 * RF cycle, shifts 3 and is read in [4, 5). The write of r1 (bank 1, idle)
 * waits for nothing: every wait is a read's, 1 RF cycle. With two warps the
 * writes of the results queue too, so the reads' part is smaller. */
TEST(rf_read_wait_cycles_are_the_reads_part)
{
	struct tk t;
	fig7_cfg(&t.cfg, RF_REMAP_CONTIGUOUS);
	t.cfg.core.warps_per_sm = 1;
	t.cfg.core.clock_mhz = 1000;
	REQUIRE(rf_start(&t, 32, 1, 8, "alu 1 <- r0, r6 -> r1"));
	CHECK_EQ(sim_step(t.s, 100), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "rf.read_wait_cycles"), 1);
	CHECK_EQ(tk_stat(&t, "rf.wait_cycles"), 1);
	tk_end(&t);

	fig7_cfg(&t.cfg, RF_REMAP_CONTIGUOUS);
	REQUIRE(rf_start(&t, 64, 1, 8, "alu 1 <- r1 -> r0; alu 1 <- r0, r6 -> r2; alu 1 <- r2, r4 -> r6"));
	CHECK_EQ(sim_step(t.s, 1000), SIM_STOP_DONE);
	uint64_t rd = tk_stat(&t, "rf.read_wait_cycles"), all = tk_stat(&t, "rf.wait_cycles");
	CHECK(rd > 0);
	CHECK(rd < all);
	tk_end(&t);
}
