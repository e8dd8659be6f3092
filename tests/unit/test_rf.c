/*
 * test_rf.c: the register file model (regfile.h) and RMWS (rmws.h): the
 * thesis's exact toy cases (notes 002 §5.2 items 1-3, item 3 with two
 * schedulers on the engine), cycle-exact operand
 * timing derived from the RF clock, the write buffer's outcomes, the default
 * being timing-neutral, and step-vs-run determinism.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rftest.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

/* tk_start with a register count (simtest's kernels use the default 32). */
bool rf_start(struct tk *t, unsigned threads, unsigned ctas, unsigned nregs, const char *body)
{
	struct kernel_src *k = &t->src;
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof k->name, "t");
	snprintf(k->grid[0], sizeof k->grid[0], "%u", ctas);
	snprintf(k->block[0], sizeof k->block[0], "%u", threads);
	snprintf(k->grid[1], sizeof k->grid[1], "1");
	snprintf(k->grid[2], sizeof k->grid[2], "1");
	snprintf(k->block[1], sizeof k->block[1], "1");
	snprintf(k->block[2], sizeof k->block[2], "1");
	k->narrays = 1;
	snprintf(k->arrays[0].name, sizeof k->arrays[0].name, "A");
	k->arrays[0].elem = 4;
	snprintf(k->arrays[0].len, sizeof k->arrays[0].len, "65536");
	k->nregs = nregs;
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", body);
	for (char *tok = strtok(buf, ";"); tok; tok = strtok(NULL, ";")) {
		while (*tok == ' ')
			tok++;
		snprintf(k->body[k->nbody++], sizeof k->body[0], "%s", tok);
	}
	char *err = NULL;
	t->k = kernel_compile(k, t->cfg.seed, &err);
	if (!t->k) {
		test_fail(__FILE__, __LINE__, "kernel: %s", err);
		free(err);
		return false;
	}
	t->wl = (struct workload){.name = "t", .kernel = t->k};
	t->s = sim_new(&t->cfg, &t->wl, &err);
	if (!t->s) {
		test_fail(__FILE__, __LINE__, "sim_new: %s", err);
		free(err);
		return false;
	}
	events_log_all(sim_events(t->s), true);
	return true;
}

/* The Fig. 7 machine: 2 banks, 16-bit tracks with 2 ports (segment 8). */
void fig7_cfg(struct sim_cfg *c, int remap)
{
	tk_base_cfg(c);
	c->core.warps_per_sm = 2;
	c->core.active_pool = 1;
	c->rf.kind = RF_RACETRACK;
	c->rf.banks = 2;
	c->rf.entries = 16;
	c->rf.ports = 2;
	c->rf.remap = remap;
	c->rf.wb_entries = 0;
}

/* Item 1 (Figs. 7b and 8): the arithmetic of the min-search, then RMWS
 * itself: banks 0 and 1 both projected at BML 4; W0 reads R0 (bank 0, BML 2)
 * and R5 (bank 1, BML 2), W1 reads R2 (BML 5) and R1 (BML 4): W0 scores 2,
 * W1 scores 1, W1 issues. */
TEST(rf_toy_fig8_rmws_arithmetic)
{
	CHECK_EQ(rmws_bml_pp(2, 8), 0xE0);
	CHECK_EQ(rmws_bml_pp(4, 8), 0xF8);
	CHECK_EQ(rmws_bml_pp(2, 8) ^ rmws_bml_pp(4, 8), 0x18);
	CHECK_EQ(rmws_norm_dist(rmws_bml_pp(2, 8), rmws_bml_pp(4, 8)), 0x03);
	CHECK_EQ(rmws_norm_dist(rmws_bml_pp(4, 8), rmws_bml_pp(4, 8)), 0); /* W1R1 */
	uint64_t w0 = rmws_norm_dist(rmws_bml_pp(2, 8), rmws_bml_pp(4, 8)) |
		      rmws_norm_dist(rmws_bml_pp(2, 8), rmws_bml_pp(4, 8));
	uint64_t w1 = rmws_norm_dist(rmws_bml_pp(5, 8), rmws_bml_pp(4, 8)) |
		      rmws_norm_dist(rmws_bml_pp(4, 8), rmws_bml_pp(4, 8));
	CHECK_EQ(w0, 0x3);
	CHECK_EQ(w1, 0x1);
	uint64_t arr[2] = {w0, w1};
	CHECK_EQ(rmws_column_scan(arr, 2), 1);

	struct tk t;
	fig7_cfg(&t.cfg, RF_REMAP_EQ3_3);
	t.cfg.core.scheduler = SCHED_RMWS;
	REQUIRE(rf_start(&t, 64, 1, 8, "alu 1 <- r0, r5 -> r7"));
	const struct sim *s = t.s;
	CHECK_EQ(rf_bml_of(s, 0, 0), 2); /* the thesis's BML(W0R0) */
	CHECK_EQ(rf_bml_of(s, 1, 2), 5);
	CHECK_EQ(rf_bml_of(s, 1, 4), 4);
	CHECK_EQ(rf_bml_of(s, 0, 5), 2);
	CHECK_EQ(rf_bml_of(s, 1, 1), 4);
	struct sm *sm = &t.s->sms[0];
	REQUIRE(sm->rf != NULL);
	sm->rf->bank[0].tail = sm->rf->bank[1].tail = 4;
	struct winst i0 = {.op = KOP_ALU, .nsrc = 2, .src = {0, 5}, .ndst = 1, .dst = 7};
	struct winst i1 = {.op = KOP_ALU, .nsrc = 2, .src = {2, 1}, .ndst = 1, .dst = 7};
	sm->w[0].ib = i0;
	sm->w[1].ib = i1;
	CHECK_EQ(rf_score(s, sm, 0, &i0), 2);
	CHECK_EQ(rf_score(s, sm, 1, &i1), 1);
	/* even with GTO's greedy preference for W0 (the last issued warp) */
	CHECK_EQ(rmws_pick(s, sm, 3, 0), 1);
	unsigned sc;
	int second, gto;
	rmws_explain(s, sm, 3, 0, 1, &sc, &second, &gto);
	CHECK_EQ(sc, 1);
	CHECK_EQ(second, 0);
	CHECK_EQ(gto, 0);
	tk_end(&t);
}

/* Item 2 (Fig. 7): the sequence W1R2, W1R6, W0R0 (all in bank 0) spans 8
 * rows of the top port's segment with the original mapping and 4 with the
 * remapping (the thesis's "max shift distance 8 -> 4"); the shifts walked
 * from W1R2 are 2 + 7 = 9 and 0 + 3 = 3. */
static void seq_span(int remap, unsigned *span, unsigned *walk)
{
	struct tk t;
	fig7_cfg(&t.cfg, remap);
	if (!rf_start(&t, 64, 1, 8, "alu 1"))
		return;
	static const int seq[3][2] = {{1, 2}, {1, 6}, {0, 0}};
	unsigned lo = 99, hi = 0, prev = 0;
	*walk = 0;
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(rf_bank_of(t.s, seq[i][0], (unsigned)seq[i][1]), 0);
		unsigned row = rf_row_of(t.s, seq[i][0], (unsigned)seq[i][1]);
		if (remap == RF_REMAP_CONTIGUOUS)
			CHECK(row < 8); /* all under the top port; remapped, W1R6 sits in segment 1 */
		unsigned b = rf_bml_of(t.s, seq[i][0], (unsigned)seq[i][1]);
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
		if (i)
			*walk += b > prev ? b - prev : prev - b;
		prev = b;
	}
	*span = hi - lo + 1;
	tk_end(&t);
}

TEST(rf_toy_fig7_remapping)
{
	unsigned span, walk;
	seq_span(RF_REMAP_CONTIGUOUS, &span, &walk);
	CHECK_EQ(span, 8);
	CHECK_EQ(walk, 9);
	seq_span(RF_REMAP_EQ3_3, &span, &walk);
	CHECK_EQ(span, 4);
	CHECK_EQ(walk, 3);
}

/* Item 3 (Fig. 10), on the engine: two RMWS schedulers (core.schedulers 2)
 * on the Fig. 7 machine (2 banks, segment 8, eq3_3), 4 warps: scheduler 0
 * owns W0 and W2, scheduler 1 W1 and W3. Each warp's one instruction reads
 * one register of bank 0: R1 = W0r2 (BML 1), R2 = W2r0 (BML 4), R3 = W1r2
 * (BML 3), R4 = W3r0 (BML 6); bank 0 starts at BML 2. The thesis gives no
 * BMLs (notes 002 §2.7); these are ours, chosen to tell its story.
 * Figure cycle 1 = core cycle 0: both schedulers score against BML 2 and
 * pick locally, S0 R1 (score 1, R2 scores 2), S1 R3 (1, R4 4); their reads go
 * up (R3) and down (R1): rf.schedule_hazard. Requests of one cycle enter the
 * queues in rotating scheduler order ((cycle + 1) mod S first, our choice,
 * docs/REGFILE.md), so R3 is queued first and the bank walks 2 -> 3 -> 1 =
 * 3 steps; S0 issuing R2 instead would walk 2 -> 3 -> 4 = 2: R1 was only the
 * local optimum. Figure cycle 2 = core cycle 1: the projected bank BML is
 * R1's (1), and S1 takes R4 scored against it (|6 - 1| = 5, against R3's BML
 * it would be 3). With warp-register remapping (rf.warp_reg_remap) each
 * scheduler's warps live in their own bank: no hazard, and the walk of the
 * local picks is the global minimum. */
static unsigned dist(unsigned a, unsigned b) { return a > b ? a - b : b - a; }

static const char *fig10_body = "if warp < 2; alu 1 <- r2 -> r1; else; alu 1 <- r0 -> r1; end";

static bool fig10_start(struct tk *t, bool remap)
{
	fig7_cfg(&t->cfg, RF_REMAP_EQ3_3);
	t->cfg.core.warps_per_sm = 4;
	t->cfg.core.schedulers = 2;
	t->cfg.core.scheduler = SCHED_RMWS;
	t->cfg.rf.warp_reg_remap = remap;
	char *err = NULL;
	if (cfg_validate(&t->cfg, &err)) {
		test_fail(__FILE__, __LINE__, "config: %s", err);
		free(err);
		return false;
	}
	if (!rf_start(t, 128, 1, 8, fig10_body))
		return false;
	struct sm *sm = &t->s->sms[0];
	for (int b = 0; b < 2; b++) /* the figure's starting port position */
		sm->rf->bank[b].loc = sm->rf->bank[b].tail = 2;
	return true;
}

/* The n-th event of a kind at a cycle (NULL if none). */
static const struct event *ev_at(struct tk *t, unsigned kind, uint64_t cycle, unsigned n)
{
	for (unsigned i = 0;; i++) {
		const struct event *e = tk_event(t, kind, i);
		if (!e || e->cycle > cycle)
			return NULL;
		if (e->cycle == cycle && n-- == 0)
			return e;
	}
}

TEST(rf_toy_fig10_schedule_hazard)
{
	struct tk t;
	REQUIRE(fig10_start(&t, false));
	const struct sim *s = t.s;
	unsigned r1 = rf_bml_of(s, 0, 2), r2 = rf_bml_of(s, 2, 0), r3 = rf_bml_of(s, 1, 2), r4 = rf_bml_of(s, 3, 0);
	CHECK_EQ(r1, 1);
	CHECK_EQ(r2, 4);
	CHECK_EQ(r3, 3);
	CHECK_EQ(r4, 6);
	for (int w = 0; w < 4; w++)
		CHECK_EQ(rf_bank_of(s, w, w < 2 ? 2 : 0), 0); /* one shared bank */
	CHECK_EQ(sim_step(t.s, 1), SIM_STOP_LIMIT);
	/* figure cycle 1: local picks */
	const struct event *p0 = ev_at(&t, EV_RF_RMWS_PICK, 0, 0), *p1 = ev_at(&t, EV_RF_RMWS_PICK, 0, 1);
	REQUIRE(p0 && p1);
	CHECK_EQ(p0->warp, 0); /* scheduler 0: R1, not R2 */
	CHECK_EQ(p0->a, 1);
	CHECK_EQ(p0->b, 2); /* runner-up W2 (R2) */
	CHECK_EQ(p1->warp, 1); /* scheduler 1: R3 */
	CHECK_EQ(p1->a, 1);
	const struct event *i0 = ev_at(&t, EV_WARP_ISSUE, 0, 0), *i1 = ev_at(&t, EV_WARP_ISSUE, 0, 1);
	REQUIRE(i0 && i1);
	CHECK_EQ(i0->warp, 1); /* (0 + 1) mod 2: scheduler 1 queues first */
	CHECK_EQ(i1->warp, 0);
	CHECK(ev_at(&t, EV_WARP_ISSUE, 0, 2) == NULL);
	const struct event *h = ev_at(&t, EV_RF_SCHED_HAZARD, 0, 0);
	REQUIRE(h);
	CHECK_EQ(h->unit, 0);
	CHECK_EQ(h->warp, 0);
	CHECK_EQ(h->a, 2); /* both scored against BML 2 */
	CHECK_EQ(h->b, r1);
	CHECK_EQ(tk_stat(&t, "rf.schedule_hazards"), 1);
	struct sm *sm = &t.s->sms[0];
	CHECK_EQ(sm->rf->bank[0].tail, r1); /* the bank BML is represented by R1's */
	unsigned walked = dist(2, r3) + dist(r3, r1), with_r2 = dist(2, r3) + dist(r3, r2);
	CHECK_EQ(walked, 3);
	CHECK_EQ(with_r2, 2); /* R2 was the global choice */
	/* figure cycle 2 */
	CHECK_EQ(sim_step(t.s, 1), SIM_STOP_LIMIT);
	const struct event *q0 = ev_at(&t, EV_RF_RMWS_PICK, 1, 0), *q1 = ev_at(&t, EV_RF_RMWS_PICK, 1, 1);
	REQUIRE(q0 && q1);
	CHECK_EQ(q1->warp, 3); /* R4 */
	CHECK_EQ(q1->a, dist(r4, r1)); /* scored against R1's BML */
	CHECK_EQ(q1->a, 5);
	CHECK_EQ(q0->warp, 2);
	CHECK_EQ(tk_stat(&t, "rf.schedule_hazards"), 1); /* both move up from 1: no hazard */
	CHECK_EQ(sim_step(t.s, 1000), SIM_STOP_DONE);
	/* the shifts bank 0 actually made in cycle 0: 2 -> 3, 3 -> 1 */
	uint64_t sh = 0;
	for (unsigned i = 0; tk_event(&t, EV_RF_SHIFT_DONE, i); i++) {
		const struct event *e = tk_event(&t, EV_RF_SHIFT_DONE, i);
		if (e->unit == 0 && (e->warp == 0 || e->warp == 1))
			sh += (uint64_t)e->b;
	}
	CHECK_EQ(sh, walked);
	CHECK_EQ(tk_stat(&t, "core.sched0.insts"), 4); /* W0, W2: alu + exit each */
	CHECK_EQ(tk_stat(&t, "core.sched1.insts"), 4);
	tk_end(&t);

	/* warp-register remapping: scheduler 0's warps in bank 0, scheduler 1's in bank 1 */
	REQUIRE(fig10_start(&t, true));
	s = t.s;
	for (int w = 0; w < 4; w++)
		for (unsigned r = 0; r < 8; r++)
			CHECK_EQ(rf_bank_of(s, w, r), (unsigned)(w % 2));
	unsigned b1 = rf_bml_of(s, 0, 2), b2 = rf_bml_of(s, 2, 0), b3 = rf_bml_of(s, 1, 2), b4 = rf_bml_of(s, 3, 0);
	CHECK_EQ(sim_step(t.s, 1), SIM_STOP_LIMIT);
	p0 = ev_at(&t, EV_RF_RMWS_PICK, 0, 0);
	p1 = ev_at(&t, EV_RF_RMWS_PICK, 0, 1);
	REQUIRE(p0 && p1);
	CHECK_EQ(tk_stat(&t, "rf.schedule_hazards"), 0);
	CHECK(ev_at(&t, EV_RF_SCHED_HAZARD, 0, 0) == NULL);
	/* each bank walks only for its own scheduler: the local picks minimise the sum */
	unsigned c0 = dist(2, p0->warp == 0 ? b1 : b2), c1 = dist(2, p1->warp == 1 ? b3 : b4);
	unsigned opt = 99;
	for (int a = 0; a < 2; a++)
		for (int b = 0; b < 2; b++)
			if (dist(2, a ? b2 : b1) + dist(2, b ? b4 : b3) < opt)
				opt = dist(2, a ? b2 : b1) + dist(2, b ? b4 : b3);
	CHECK_EQ(c0 + c1, opt);
	CHECK_EQ(sim_step(t.s, 1000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "rf.schedule_hazards"), 0);
	tk_end(&t);
}

/* Operand timing, derived from the clocks: core 1000 MHz, RF 2000 MHz, one
 * warp, contiguous map (W0's registers at rows 0..3 of each bank), ports at
 * BML 0. `alu 1 <- r6 -> r1`: r6 is bank 0 row 3: 3 shift + 1 read = RF
 * cycles [0, 4) -> executes at core cycle 2, busy until 3; the write of r1
 * (bank 1, BML 0) takes 2 RF cycles without a shift; exit issues at 3. */
TEST(rf_operand_timing_exact)
{
	for (int kind = 0; kind < 2; kind++) {
		struct tk t;
		fig7_cfg(&t.cfg, RF_REMAP_CONTIGUOUS);
		t.cfg.core.warps_per_sm = 1;
		t.cfg.core.clock_mhz = 1000;
		t.cfg.rf.kind = kind ? RF_RACETRACK : RF_SRAM;
		REQUIRE(rf_start(&t, 32, 1, 8, "alu 1 <- r6 -> r1"));
		CHECK_EQ(sim_step(t.s, 100), SIM_STOP_DONE);
		const struct event *d = tk_event(&t, EV_WARP_DONE, 0);
		REQUIRE(d);
		CHECK_EQ(d->cycle, kind ? 3 : 1);
		CHECK_EQ(tk_stat(&t, "rf.reads"), 1);
		CHECK_EQ(tk_stat(&t, "rf.writes"), 1);
		if (kind) {
			CHECK_EQ(tk_stat(&t, "rf.shifts"), 1);
			CHECK_EQ(tk_stat(&t, "rf.shift_cycles"), 3);
			const struct event *a = tk_event(&t, EV_RF_SHIFT_START, 0), *b = tk_event(&t, EV_RF_SHIFT_DONE, 0);
			REQUIRE(a && b);
			CHECK_EQ(a->cycle, 0);
			CHECK_EQ(a->a, 0);
			CHECK_EQ(a->b, 3);
			CHECK_EQ(b->cycle, 1); /* RF cycle 3 lies in core cycle 1 */
			CHECK_EQ(tk_stat(&t, "core.stall.rf"), 1); /* cycle 1; at 2 it executes */
			/* energy: 59.34 + 50.49 pJ + 3 x 1.8 pJ */
			CHECK_EQ(tk_stat(&t, "rf.energy.read") + tk_stat(&t, "rf.energy.write") +
					 tk_stat(&t, "rf.energy.shift"),
				 59340 + 50490 + 5400);
		} else {
			CHECK_EQ(tk_stat(&t, "rf.energy.read"), 103880);
		}
		tk_end(&t);
	}
}

/* A non-integer clock ratio (1400 / 1000) converts exactly. */
TEST(rf_clock_conversion_exact)
{
	struct tk t;
	fig7_cfg(&t.cfg, RF_REMAP_CONTIGUOUS);
	t.cfg.core.clock_mhz = 1000;
	t.cfg.rf.clock_mhz = 1400;
	REQUIRE(rf_start(&t, 32, 1, 8, "alu 1"));
	for (uint64_t c = 0; c < 5000; c++) {
		uint64_t r = rf_time_of_core(t.s, c); /* ceil(c * 1.4) */
		CHECK_EQ(r, (c * 1400 + 999) / 1000);
		CHECK_EQ(rf_core_containing(t.s, r), c);
		CHECK_EQ(rf_core_ready(t.s, r), (r * 1000 + 1399) / 1400); /* c, or c + 1 when RF cycle r starts inside c */
	}
	tk_end(&t);
}

/* Write buffer: `alu -> r1` then `alu <- r1 -> r1` reads r1 from the buffer
 * (RAW) and voids the first write (WAW); at the end the second write stays
 * buffered (no bank write at all). Overflow: 2 ways per bank, three
 * destinations in one bank, none at a port. */
TEST(rf_write_buffer_outcomes)
{
	struct tk t;
	fig7_cfg(&t.cfg, RF_REMAP_CONTIGUOUS);
	t.cfg.core.warps_per_sm = 1;
	t.cfg.rf.wb_entries = 4; /* 2 ways per bank */
	REQUIRE(rf_start(&t, 32, 1, 8, "alu 1 <- r0 -> r2; alu 1 <- r2 -> r2"));
	CHECK_EQ(sim_step(t.s, 100), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "rf.wb.reads"), 1);
	CHECK_EQ(tk_stat(&t, "rf.wb.voided"), 1);
	CHECK_EQ(tk_stat(&t, "rf.reads"), 1);  /* r0 only */
	CHECK_EQ(tk_stat(&t, "rf.writes"), 0); /* r2 never left the buffer */
	tk_end(&t);

	/* r2, r4, r6 live in bank 0 at rows 1, 2, 3; the ports stay at 0. */
	fig7_cfg(&t.cfg, RF_REMAP_CONTIGUOUS);
	t.cfg.core.warps_per_sm = 1;
	t.cfg.rf.wb_entries = 4;
	REQUIRE(rf_start(&t, 32, 1, 8, "alu 1 <- r1 -> r2; alu 1 <- r1 -> r4; alu 1 <- r1 -> r6"));
	CHECK_EQ(sim_step(t.s, 100), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "rf.wb.allocs"), 3);
	CHECK_EQ(tk_stat(&t, "rf.wb.overflow"), 1);
	const struct event *e = tk_event(&t, EV_RF_WB_DRAIN, 0);
	REQUIRE(e);
	CHECK_EQ(e->a, 2); /* the oldest with data */
	CHECK_EQ(e->b, 2); /* forced */
	CHECK_EQ(tk_stat(&t, "rf.shift_cycles"), 1);
	tk_end(&t);

	/* Direct: the result's register is at a port of an idle bank (r0 at
	 * BML 0, bank 0 idle at 0). */
	fig7_cfg(&t.cfg, RF_REMAP_CONTIGUOUS);
	t.cfg.core.warps_per_sm = 1;
	t.cfg.rf.wb_entries = 4;
	REQUIRE(rf_start(&t, 32, 1, 8, "alu 1 <- r1 -> r0"));
	CHECK_EQ(sim_step(t.s, 100), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "rf.wb.direct"), 1);
	CHECK_EQ(tk_stat(&t, "rf.writes"), 1);
	tk_end(&t);
}

/* WAW voiding at the newer writer's issue (rf.write_buffer.void = issue,
 * the thesis's "erased by a later issued instruction"). Bank 0 of the Fig. 7
 * machine has 2 ways; r2, r4, r6 sit in it at BMLs 1, 2, 3 (contiguous, one
 * warp), the ports stay at BML 0. r2 and r4 are buffered; the load reads its
 * address r2 from the buffer (RAW) and will overwrite r2, so at its issue the
 * old r2 is dead: `issue` frees its way there, and r6 (arriving long before
 * the load's data) takes it. The load's r2 then finds both ways full and
 * forces the oldest (r4) out: 1 void, 1 overflow, 1 bank write (r4: BML 0 ->
 * 2, 2 shift cycles). `arrival` keeps the dead r2 until the load's data comes:
 * r6 forces it out (the dead value is written: 0 -> 1, 1 shift cycle), which
 * leaves bank 0 at r2's BML, so the load's r2 is written directly: 0 voids,
 * 3 entries, 1 overflow, 1 direct, 2 bank writes, 1 shift cycle. */
TEST(rf_write_buffer_void_at_issue)
{
	for (int mode = 0; mode < 2; mode++) {
		struct tk t;
		fig7_cfg(&t.cfg, RF_REMAP_CONTIGUOUS);
		t.cfg.core.warps_per_sm = 1;
		t.cfg.rf.wb_entries = 4;
		t.cfg.rf.wb_void = mode ? RF_VOID_AT_ARRIVAL : RF_VOID_AT_ISSUE;
		REQUIRE(rf_start(&t, 32, 1, 8,
				 "alu 1 <- r1 -> r2; alu 1 <- r1 -> r4; ld A[tid] -> r2 <- r2; alu 1 <- r1 -> r6"));
		CHECK_EQ(rf_bml_of(t.s, 0, 2), 1);
		CHECK_EQ(rf_bml_of(t.s, 0, 4), 2);
		CHECK_EQ(rf_bml_of(t.s, 0, 6), 3);
		CHECK_EQ(sim_step(t.s, 10000), SIM_STOP_DONE);
		CHECK_EQ(tk_stat(&t, "rf.wb.reads"), 1);
		CHECK_EQ(tk_stat(&t, "rf.wb.allocs"), mode ? 3 : 4);
		CHECK_EQ(tk_stat(&t, "rf.wb.voided"), mode ? 0 : 1);
		CHECK_EQ(tk_stat(&t, "rf.wb.overflow"), 1);
		CHECK_EQ(tk_stat(&t, "rf.wb.direct"), mode ? 1 : 0);
		CHECK_EQ(tk_stat(&t, "rf.writes"), mode ? 2 : 1);
		CHECK_EQ(tk_stat(&t, "rf.shift_cycles"), mode ? 1 : 2);
		const struct event *v = tk_event(&t, EV_RF_WB_VOID, 0);
		if (!mode) {
			REQUIRE(v);
			CHECK_EQ(v->a, 2);
			const struct event *ld = tk_event(&t, EV_WARP_ISSUE, 2);
			REQUIRE(ld);
			CHECK_EQ(v->cycle, ld->cycle); /* voided in the load's issue cycle */
		} else {
			CHECK(v == NULL);
		}
		const struct event *d = tk_event(&t, EV_RF_WB_DRAIN, 0);
		REQUIRE(d);
		CHECK_EQ(d->a, mode ? 2 : 4); /* the first register forced out */
		tk_end(&t);
	}
}

/* Piggyback: a buffered result waits until another request brings its BML
 * under a port: r2 (bank 0, BML 4, segment 0) is buffered while bank 0 sits
 * at BML 0; the next instruction reads r6 (bank 0, BML 4, segment 1), and r2
 * is written right behind that read without a shift. */
TEST(rf_write_buffer_piggyback)
{
	struct tk t;
	fig7_cfg(&t.cfg, RF_REMAP_EQ3_3);
	t.cfg.core.warps_per_sm = 1;
	t.cfg.rf.wb_entries = 4;
	/* eq3_3, 1 warp, 8 regs, 2 banks, 2 ports: nrb 4, nrps 2, offset 3:
	 * r0 BML 3 (row 3), r2 BML 4 (row 4), r4 BML 3 (row 11), r6 BML 4 (row 12). */
	REQUIRE(rf_start(&t, 32, 1, 8, "alu 1 <- r1 -> r2; alu 1 <- r6 -> r3"));
	CHECK_EQ(rf_bml_of(t.s, 0, 2), 4);
	CHECK_EQ(rf_bml_of(t.s, 0, 6), 4);
	CHECK_EQ(sim_step(t.s, 100), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "rf.wb.piggyback"), 1);
	tk_end(&t);
}

/* The default (sram, free operand path) changes no timing: same cycles and
 * state-independent stats as before the model existed, and a racetrack run
 * with RMWS and the write buffer is identical stepped or run. */
TEST(rf_step_vs_run_racetrack_rmws)
{
	const char *body = "loop i 0 6; ld A[(tid*7 + i*129) % 4096] -> r(1 + i % 4); alu 3 <- r1, r2 -> r5; "
			   "alu 2 <- r5, r3 -> r6; st A[tid + i*64] <- r6; end";
	uint64_t hash[3], cycles[3], st[3];
	for (int mode = 0; mode < 3; mode++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.sms = 2;
		t.cfg.l2.banks = 2;
		t.cfg.rf.kind = RF_RACETRACK;
		t.cfg.core.scheduler = SCHED_RMWS;
		t.cfg.rf.banks = 4;
		REQUIRE(rf_start(&t, 128, 6, 12, body));
		events_log_all(sim_events(t.s), false);
		tk_run_mode(t.s, mode);
		hash[mode] = sim_state_hash(t.s);
		cycles[mode] = sim_cycle(t.s);
		st[mode] = tk_stat(&t, "rf.shift_cycles") * 1000003 + tk_stat(&t, "rf.wb.piggyback") * 7 +
			   tk_stat(&t, "core.stall.rf") + tk_stat(&t, "rf.energy.total");
		CHECK(tk_stat(&t, "rf.shifts") > 0);
		tk_end(&t);
	}
	CHECK_EQ(cycles[0], cycles[1]);
	CHECK_EQ(cycles[0], cycles[2]);
	CHECK_EQ(st[0], st[1]);
	CHECK_EQ(st[0], st[2]);
	CHECK(hash[0] == hash[1]);
	CHECK(hash[0] == hash[2]);
}

/* eq3_3 overflows when warps x registers per segment exceed the segment:
 * the fallback is balanced, with a warning and rf.remap_fallback = 1. */
TEST(rf_remap_overflow_fallback)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.rf.kind = RF_RACETRACK;
	t.cfg.core.warps_per_sm = 32;
	t.cfg.core.threads_per_sm = 1024;
	REQUIRE(rf_start(&t, 256, 1, 15, "alu 1 <- r1 -> r2")); /* CP: 15 regs, 32 warps */
	CHECK(strstr(t.s->rfm->warning, "balanced") != NULL);
	CHECK_EQ(t.s->rfm->remap_used, RF_REMAP_BALANCED);
	for (int w = 0; w < 32; w++)
		CHECK(rf_bml_of(t.s, w, 1) < 16);
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "rf.remap_fallback"), 1);
	tk_end(&t);
}

/* rf.write_buffer.claim = issue (the thesis's WBIT logging): both ways of
 * bank 0 are taken by loads still in flight, so `alu -> r6` (bank 0) cannot
 * issue (rf.wb_full, stall rf) until the first load's data arrives; then the
 * oldest entry with data is forced out and the alu issues. */
TEST(rf_write_buffer_issue_claim_blocks)
{
	struct tk t;
	fig7_cfg(&t.cfg, RF_REMAP_CONTIGUOUS);
	t.cfg.core.warps_per_sm = 1;
	t.cfg.rf.wb_entries = 4;
	t.cfg.rf.wb_claim = RF_WB_AT_ISSUE;
	REQUIRE(rf_start(&t, 32, 1, 8, "ld A[tid] -> r2; ld A[tid + 4096] -> r4; alu 1 <- r1 -> r6"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK(tk_count(&t, EV_RF_WB_FULL) >= 1);
	CHECK_EQ(tk_stat(&t, "rf.wb.overflow"), 1);
	const struct event *reply = tk_event(&t, EV_MEM_REPLY, 0), *alu = tk_event(&t, EV_WARP_ISSUE, 2);
	REQUIRE(reply && alu);
	CHECK(alu->cycle >= reply->cycle);
	CHECK(tk_stat(&t, "core.stall.rf") >= 50);
	tk_end(&t);
}

/* rf.rmws_pick names the pick, its score, the runner-up and GTO's choice. */
TEST(rf_rmws_pick_event)
{
	struct tk t;
	fig7_cfg(&t.cfg, RF_REMAP_EQ3_3);
	t.cfg.core.scheduler = SCHED_RMWS;
	REQUIRE(rf_start(&t, 64, 1, 8, "alu 1 <- r0, r5 -> r7; alu 1 <- r2, r1 -> r6"));
	CHECK_EQ(sim_step(t.s, 1000), SIM_STOP_DONE);
	const struct event *e = tk_event(&t, EV_RF_RMWS_PICK, 0);
	REQUIRE(e);
	CHECK_EQ(e->cycle, 0);
	CHECK(e->warp == 0 || e->warp == 1);
	CHECK(e->b == 1 - e->warp); /* two ready warps: the other is the runner-up */
	CHECK(tk_stat(&t, "sim.warp_insts") == 6);
	tk_end(&t);
}

/* Events of a kind on one SM: count, and the sum of |b - a| (shift distance
 * for rf.shift_start: a = from, b = to). */
static uint64_t ev_on_sm(struct tk *t, unsigned kind, int sm, uint64_t *dist)
{
	uint64_t n = 0;
	for (unsigned i = 0;; i++) {
		const struct event *e = tk_event(t, kind, i);
		if (!e)
			return n;
		if (e->sm != sm)
			continue;
		n++;
		if (dist)
			*dist += (uint64_t)(e->b > e->a ? e->b - e->a : e->a - e->b);
	}
}

static uint64_t sm_rf(struct tk *t, int sm, const char *what)
{
	char name[48];
	snprintf(name, sizeof name, "sm%d.rf.%s", sm, what);
	return tk_stat(t, name);
}

/* Per-SM counters (smN.rf.*) on a 2-SM racetrack run without a write buffer:
 * 3 CTAs of 2 warps, so the SMs hold different warp counts. Each warp reads
 * r1, r2, r3, r5 (4 bank reads) and writes r3, r5 (2 bank writes); the store
 * reads r5 after its write and waits for memory, so every request has been
 * served (and its events emitted) when the run ends. Reads and
 * writes per SM follow from its rf.warp_done events; shifts, shift cycles and
 * conflicts from its rf.shift_start and rf.bank_conflict events. The SMs sum
 * to rf.*, and the invariant check notices when they do not. */
TEST(rf_per_sm_counters_match_events)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.sms = 2;
	t.cfg.l2.banks = 2;
	t.cfg.rf.kind = RF_RACETRACK;
	t.cfg.rf.banks = 4;
	t.cfg.rf.wb_entries = 0;
	t.cfg.rf.shift_cycles = 2;
	REQUIRE(rf_start(&t, 64, 3, 8, "alu 1 <- r1, r2 -> r3; alu 1 <- r3 -> r5; st A[tid] <- r5"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	uint64_t sum[5] = {0}, warps[2];
	for (int sm = 0; sm < 2; sm++) {
		warps[sm] = ev_on_sm(&t, EV_WARP_DONE, sm, NULL);
		uint64_t dist = 0, shifts = ev_on_sm(&t, EV_RF_SHIFT_START, sm, &dist);
		CHECK_EQ(sm_rf(&t, sm, "reads"), 4 * warps[sm]);
		for (int b = 0; b < 4; b++) {
			struct rf_bank_info bi;
			CHECK(inspect_rf_bank(t.s, sm, b, &bi) && bi.queued == 0);
		}
		CHECK_EQ(sm_rf(&t, sm, "writes"), 2 * warps[sm]);
		CHECK_EQ(sm_rf(&t, sm, "shifts"), shifts);
		CHECK_EQ(sm_rf(&t, sm, "shift_cycles"), 2 * dist);
		CHECK_EQ(sm_rf(&t, sm, "bank_conflicts"), ev_on_sm(&t, EV_RF_BANK_CONFLICT, sm, NULL));
		sum[0] += sm_rf(&t, sm, "reads");
		sum[1] += sm_rf(&t, sm, "writes");
		sum[2] += sm_rf(&t, sm, "shifts");
		sum[3] += sm_rf(&t, sm, "shift_cycles");
		sum[4] += sm_rf(&t, sm, "bank_conflicts");
	}
	CHECK_EQ(warps[0] + warps[1], 6);
	CHECK(warps[0] != warps[1]); /* the SMs' counts differ */
	CHECK(sm_rf(&t, 0, "shifts") != sm_rf(&t, 1, "shifts"));
	CHECK(sum[2] > 0);
	CHECK_EQ(sum[0], tk_stat(&t, "rf.reads"));
	CHECK_EQ(sum[1], tk_stat(&t, "rf.writes"));
	CHECK_EQ(sum[2], tk_stat(&t, "rf.shifts"));
	CHECK_EQ(sum[3], tk_stat(&t, "rf.shift_cycles"));
	CHECK_EQ(sum[4], tk_stat(&t, "rf.bank_conflicts"));
	CHECK(stats_find(sim_stats_c(t.s), "sm0.rf.wb.reads") < 0); /* no write buffer, no wb counters */
	struct rf_info fi;
	REQUIRE(inspect_rf(t.s, 1, &fi));
	CHECK(fi.per_sm);
	CHECK_EQ(fi.sm.reads, sm_rf(&t, 1, "reads"));
	CHECK_EQ(fi.sm.shift_cycles, sm_rf(&t, 1, "shift_cycles"));
	CHECK_EQ(fi.all.reads, tk_stat(&t, "rf.reads"));
	char *err = NULL;
	CHECK_EQ(sim_check_invariants(t.s, &err), 0);
	free(err);
	err = NULL;
	/* One SM's count out of step with rf.shift_cycles: the check names it. */
	stat_inc(&t.s->stats, t.s->rfm->sm_id[1].shift_cycles);
	CHECK(sim_check_invariants(t.s, &err) != 0);
	CHECK(err && strstr(err, "sm*.rf.shift_cycles sum to") != NULL);
	free(err);
	t.s->stats.vals[t.s->stats.defs[t.s->rfm->sm_id[1].shift_cycles].slot]--; /* back in step for tk_end */
	tk_end(&t);
}

/* With the write buffer, its per-SM counters sum to rf.wb.* too (invariant
 * checked every cycle by the stepped run), and both SMs used it. */
TEST(rf_per_sm_write_buffer_counters_sum)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.sms = 2;
	t.cfg.l2.banks = 2;
	t.cfg.rf.kind = RF_RACETRACK;
	t.cfg.rf.banks = 4;
	t.cfg.rf.wb_entries = 8;
	REQUIRE(rf_start(&t, 128, 3, 12, "loop i 0 4; ld A[tid + i*64] -> r(1 + i % 4); alu 3 <- r1, r2 -> r5; "
					 "alu 2 <- r5, r3 -> r6; st A[tid + i*64] <- r6; end"));
	events_log_all(sim_events(t.s), false);
	char *err = NULL;
	while (sim_step(t.s, 1) != SIM_STOP_DONE) {
		if (sim_check_invariants(t.s, &err)) {
			test_fail(__FILE__, __LINE__, "cycle %llu: %s", (unsigned long long)sim_cycle(t.s), err);
			free(err);
			break;
		}
	}
	static const char *const wb[] = {"allocs", "reads", "voided", "direct", "piggyback", "overflow"};
	for (int k = 0; k < 6; k++) {
		char name[32], w[32];
		snprintf(name, sizeof name, "rf.wb.%s", wb[k]);
		snprintf(w, sizeof w, "wb.%s", wb[k]);
		CHECK_EQ(sm_rf(&t, 0, w) + sm_rf(&t, 1, w), tk_stat(&t, name));
	}
	CHECK(sm_rf(&t, 0, "wb.allocs") > 0 && sm_rf(&t, 1, "wb.allocs") > 0);
	tk_end(&t);
}

/* The default free SRAM operand path registers no per-SM rf counters (the
 * stats list and golden outputs stay as they were); a timed SRAM one
 * registers reads, writes and conflicts but no shifts. */
TEST(rf_per_sm_counters_only_when_timed)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.sms = 2;
	REQUIRE(rf_start(&t, 64, 2, 8, "alu 1 <- r1 -> r2"));
	const struct stats *st = sim_stats_c(t.s);
	for (uint32_t i = 0; i < stats_count(st); i++) {
		const char *n = st->defs[i].name;
		CHECK(strncmp(n, "sm", 2) != 0 || !strstr(n, ".rf."));
	}
	CHECK(stats_find(st, "sm0.insts") >= 0); /* the loop did see per-SM stats */
	struct rf_info fi;
	REQUIRE(inspect_rf(t.s, 0, &fi));
	CHECK(!fi.per_sm);
	CHECK_EQ(sim_step(t.s, 1000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "rf.reads"), 4);
	tk_end(&t);

	tk_base_cfg(&t.cfg);
	t.cfg.core.sms = 2;
	t.cfg.rf.sram_cycles = 1;
	REQUIRE(rf_start(&t, 64, 2, 8, "alu 1 <- r1 -> r2"));
	CHECK_EQ(sim_step(t.s, 1000), SIM_STOP_DONE);
	CHECK_EQ(sm_rf(&t, 0, "reads") + sm_rf(&t, 1, "reads"), 4);
	CHECK_EQ(sm_rf(&t, 0, "writes"), 2);
	CHECK(stats_find(sim_stats_c(t.s), "sm0.rf.bank_conflicts") >= 0);
	CHECK(stats_find(sim_stats_c(t.s), "sm0.rf.shifts") < 0);
	tk_end(&t);
}

/* rf.warp_shift (GPGPU-Sim's bank_warp_shift): register r of warp w lives in
 * bank (r + w) mod banks instead of r mod banks, so the same register of
 * consecutive warps falls in different banks. */
TEST(rf_warp_shift_moves_banks)
{
	for (int shift = 0; shift < 2; shift++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.rf.kind = RF_RACETRACK;
		t.cfg.rf.warp_shift = shift;
		t.cfg.core.warps_per_sm = 8;
		REQUIRE(rf_start(&t, 256, 1, 24, "alu 1 <- r1 -> r2"));
		int banks = t.cfg.rf.banks;
		for (int w = 0; w < 8; w++)
			for (unsigned r = 0; r < 24; r++)
				CHECK_EQ(rf_bank_of(t.s, w, r), (r + (shift ? (unsigned)w : 0)) % (unsigned)banks);
		tk_end(&t);
	}
}

/* rf.warp_shift on a whole run: 8 warps that all read r1 queue every read at
 * bank 1 without the shift, so each read after the first of a cycle waits;
 * with it, warp w's r1 is in bank 1 + w and the reads spread. */
TEST(rf_warp_shift_spreads_conflicts)
{
	uint64_t conflicts[2];
	for (int shift = 0; shift < 2; shift++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.rf.kind = RF_RACETRACK;
		t.cfg.rf.warp_shift = shift;
		t.cfg.core.warps_per_sm = 8;
		REQUIRE(rf_start(&t, 256, 1, 24, "alu 1 <- r1 -> r2; alu 1 <- r1 -> r3; alu 1 <- r1 -> r4"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		conflicts[shift] = tk_stat(&t, "rf.bank_conflicts");
		tk_end(&t);
	}
	CHECK(conflicts[0] > 0);
	CHECK(conflicts[1] < conflicts[0]);
}

/* rf.rmws_score: the thesis's score counts reads only, so a load (it reads
 * no register here) scores 0 whatever its destination; `accesses` adds the
 * destination's distance. Fig. 7 machine, both banks projected at BML 4:
 * W0's load writes R0 (BML 2, distance 2); W1's ALU reads R1 (BML 4,
 * distance 0) and writes R3 (BML 5, distance 1). With reads only both score
 * 0 and GTO's preference for W0 (last issued) decides; with accesses W0
 * scores 2, W1 scores 1 and W1 issues. */
TEST(rf_rmws_score_accesses_counts_the_destination)
{
	for (int mode = RF_SCORE_READS; mode <= RF_SCORE_ACCESSES; mode++) {
		struct tk t;
		fig7_cfg(&t.cfg, RF_REMAP_EQ3_3);
		t.cfg.core.scheduler = SCHED_RMWS;
		t.cfg.rf.rmws_score = mode;
		REQUIRE(rf_start(&t, 64, 1, 8, "alu 1 <- r1 -> r3"));
		const struct sim *s = t.s;
		CHECK_EQ(rf_bml_of(s, 0, 0), 2);
		CHECK_EQ(rf_bml_of(s, 1, 1), 4);
		CHECK_EQ(rf_bml_of(s, 1, 3), 5);
		struct sm *sm = &t.s->sms[0];
		REQUIRE(sm->rf != NULL);
		sm->rf->bank[0].tail = sm->rf->bank[1].tail = 4;
		struct winst i0 = {.op = KOP_LD, .nsrc = 0, .ndst = 1, .dst = 0};
		struct winst i1 = {.op = KOP_ALU, .nsrc = 1, .src = {1}, .ndst = 1, .dst = 3};
		sm->w[0].ib = i0;
		sm->w[1].ib = i1;
		CHECK_EQ(rf_score(s, sm, 0, &i0), mode == RF_SCORE_READS ? 0u : 2u);
		CHECK_EQ(rf_score(s, sm, 1, &i1), mode == RF_SCORE_READS ? 0u : 1u);
		CHECK_EQ(rmws_pick(s, sm, 3, 0), mode == RF_SCORE_READS ? 0 : 1);
		tk_end(&t);
	}
}
