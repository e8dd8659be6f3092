/*
 * test_l2_wait.c: l2.when_busy (l2_wait.c). An L1 request the L2 bank
 * cannot take now waits at the head of the bank's input queue (queue, as
 * GPGPU-Sim's L2) or is refused and re-sent (nack, Multi2Sim/FRC thesis).
 * Expected counts follow from the parameters: one L2 MSHR entry and N
 * misses to N different lines of the one bank.
 */
#include <string.h>

#include "sim/config.h"
#include "debug/inspect.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

enum { NLOADS = 4 };

/* One warp, NLOADS loads (or stores) to NLOADS lines; one L2 MSHR entry. */
static void run_four(struct tk *t, int when_busy, int write_fetch, bool stores)
{
	tk_base_cfg(&t->cfg);
	t->cfg.l2.mshr_entries = 1;
	t->cfg.l2.when_busy = when_busy;
	t->cfg.l2.write_fetch = write_fetch;
	const char *ld = "ld A[0] -> r1; ld B[0] -> r2; ld C[0] -> r3; ld D[0] -> r4; alu 1 <- r1, r2; alu 1 <- r3, r4";
	const char *st = "st A[0] <- r1; st B[0] <- r1; st C[0] <- r1; st D[0] <- r1";
	REQUIRE(tk_start(t, 32, 1, stores ? st : ld));
	CHECK_EQ(sim_step(t->s, 100000), SIM_STOP_DONE);
}

/* Loads' fetches (RQ_FETCH from the L1 MSHRs). queue: the first takes the
 * one MSHR entry, each of the other three waits at the head until the fill
 * before it frees the entry: no NACK, no retry, one request packet per
 * load, three waits. nack: the bank refuses the three, the L1 re-sends each
 * refusal after l1.retry_delay, and every re-send is one more packet. */
TEST(l2_wait_fetch_waits_at_head_instead_of_nack)
{
	for (int mode = 0; mode < 2; mode++) {
		struct tk t;
		run_four(&t, mode ? L2WB_QUEUE : L2WB_NACK, L2W_LAZY_FETCH, false);
		uint64_t nacks = tk_stat(&t, "l1.nacks");
		CHECK_EQ(tk_stat(&t, "l2.misses"), NLOADS + nacks); /* a refused lookup is a miss too */
		CHECK_EQ(tk_stat(&t, "icnt.req_packets"), NLOADS + nacks);
		CHECK_EQ(tk_stat(&t, "l1.retries"), nacks);
		CHECK_EQ(tk_stat(&t, "l2.nacks"), nacks);
		CHECK_EQ(tk_stat(&t, "l2.bypass_waits"), 0);
		if (mode) {
			CHECK_EQ(nacks, 0);
			CHECK_EQ(tk_stat(&t, "l2.head_waits"), NLOADS - 1);
		} else {
			CHECK(nacks >= NLOADS - 1);
			CHECK_EQ(tk_stat(&t, "l2.head_waits"), 0);
		}
		tk_end(&t);
	}
}

/* Stores follow the same rule where the L2 refuses them: a fetch_on_write
 * miss needs an MSHR entry (three wait, none refused); a lazy_fetch miss
 * allocates without one and is never refused here (no waits). */
TEST(l2_wait_stores_wait_only_where_refused)
{
	for (int wf = 0; wf < 2; wf++) {
		struct tk t;
		run_four(&t, L2WB_QUEUE, wf ? L2W_FETCH_ON_WRITE : L2W_LAZY_FETCH, true);
		CHECK_EQ(tk_stat(&t, "l1.nacks"), 0);
		CHECK_EQ(tk_stat(&t, "l2.head_waits"), wf ? NLOADS - 1 : 0);
		tk_end(&t);
	}
}

/* With an FRC the bank keeps refusing (l2_wait.c): queue has no effect. */
TEST(l2_wait_no_effect_with_frc)
{
	struct tk a, b;
	tk_base_cfg(&a.cfg);
	a.cfg.l2.frc.entries = 1;
	a.cfg.l2.frc.ways = 1;
	a.cfg.l2.mshr_entries = 1;
	b.cfg = a.cfg;
	b.cfg.l2.when_busy = L2WB_QUEUE;
	const char *body = "ld A[0] -> r1; ld B[0] -> r2; ld C[0] -> r3; ld D[0] -> r4; alu 1 <- r1, r2; alu 1 <- r3, r4";
	REQUIRE(tk_start(&a, 32, 1, body));
	REQUIRE(tk_start(&b, 32, 1, body));
	CHECK_EQ(sim_step(a.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(sim_step(b.s, 100000), SIM_STOP_DONE);
	CHECK(tk_stat(&a, "l1.nacks") > 0); /* the FRC path does refuse here */
	CHECK_EQ(tk_stat(&b, "l2.head_waits"), 0);
	CHECK_EQ(tk_stat(&b, "l1.nacks"), tk_stat(&a, "l1.nacks"));
	CHECK(sim_state_hash(a.s) == sim_state_hash(b.s));
	tk_end(&a);
	tk_end(&b);
}

static bool chain_says(const struct why_link *l, int n, const char *text)
{
	for (int i = 0; i < n; i++)
		if (strstr(l[i].text, text))
			return true;
	return false;
}

/* While a fetch waits at the head for the one MSHR entry, `why` on the bank
 * and on the lines of the waiting fetch and of the one behind it say so,
 * and the MSHR panel's data names the reason. B's and C's pages follow A's
 * 256 KB (tk_start's arrays). */
TEST(l2_wait_shown_by_why_and_panel)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l2.mshr_entries = 1;
	t.cfg.l2.when_busy = L2WB_QUEUE;
	REQUIRE(tk_start(&t, 32, 1, "ld A[0] -> r1; ld B[0] -> r2; ld C[0] -> r3; ld D[0] -> r4; alu 1 <- r1, r2; alu 1 <- r3, r4"));
	while (tk_stat(&t, "l2.head_waits") == 0 && !sim_done(t.s))
		sim_step(t.s, 1);
	REQUIRE(tk_stat(&t, "l2.head_waits") == 1);
	struct mshr_info mi;
	REQUIRE(inspect_mshr(t.s, CACHE_L2, 0, &mi));
	CHECK_EQ(mi.head_wait, NACK_MSHR_FULL);
	struct why_link l[16];
	int n = inspect_why_l2_bank(t.s, 0, l, 16);
	CHECK(chain_says(l, n, "head of the input queue waits there for an MSHR entry (1 of 1 used)"));
	n = inspect_why_line(t.s, 0x10040000ull, 0, l, 16); /* B[0]: the second load, at the head */
	CHECK(chain_says(l, n, "at the head (of 3), waits there for an MSHR entry (1 of 1 used) instead of a NACK"));
	n = inspect_why_line(t.s, 0x10080000ull, 0, l, 16); /* C[0]: behind it */
	CHECK(chain_says(l, n, "position 2 of 3, behind the head, which waits for an MSHR entry"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	REQUIRE(inspect_mshr(t.s, CACHE_L2, 0, &mi));
	CHECK_EQ(mi.head_wait, -1);
	tk_end(&t);
}
