/*
 * test_coh_values.c: coherence.check_values (engine/mem/coh_values.c) on small
 * racy kernels that touch every data path: four SMs sharing a few lines with
 * plain loads and stores, SI's glc/slc loads and stores, atomics at the L2,
 * tiny caches so L1 and L2 replacements (Puts, write-backs, invalidations
 * with data, fills from memory) are constant. No violation, many checks,
 * and every stat equal to the same run without checking.
 *
 * All three run with a 2 x 2 L2 per bank. SI used to need a larger one: with
 * the tiny one the checker found a real engine bug (docs/COHERENCE.md,
 * "Found with it"): one SM's write-throughs to a word reached the L2 out of
 * order when the first was NACKed and retried after the second. The L1 now
 * holds accesses behind its unacknowledged write-throughs of the line;
 * coh_values_si_wt_order_kept_through_nacks is that case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "simtest.h"
#include "test.h"

/* Racy on purpose: CTAs on different SMs store and load the same words. */
static const char plain[] = "loop i 0 6; ld A[(tid + i*32 + bx*16) % 512] -> r1; alu 1 <- r1; "
			    "st A[(tid*3 + i*64 + bx*32) % 512] <- r1; ld B[(tid + bx*8) % 256] -> r2; "
			    "atom C[(tid + i) % 64]; st B[(tid*5 + i + bx) % 256] <- r2; end";
static const char cops[] = "loop i 0 6; ld.glc A[(tid + i*32 + bx*16) % 512] -> r1; alu 1 <- r1; "
			   "st.glc A[(tid*3 + i*64 + bx*32) % 512] <- r1; ld.slc D[(tid + i*32) % 2048] -> r3; "
			   "ld B[(tid + bx*8) % 256] -> r2; atom C[(tid + i) % 64]; "
			   "st.slc B[(tid*5 + i + bx) % 256] <- r2; ld A[(tid + bx) % 512] -> r4; end";

static void small_machine(struct sim_cfg *c, const char *proto, bool values, int l2_sets)
{
	tk_base_cfg(c);
	c->core.sms = 4;
	c->l2.banks = 2;
	c->l1.sets = 2;
	c->l1.ways = 2;
	c->l2.sets = l2_sets;
	c->l2.ways = l2_sets;
	char *err = NULL;
	if (cfg_set_value(c, "coherence.protocol", proto, &err) ||
	    cfg_set_value(c, "coherence.check_values", values ? "true" : "false", &err)) {
		test_fail(__FILE__, __LINE__, "%s", err);
		free(err);
	}
}

static void racy(const char *proto, const char *body)
{
	struct tk o, v;
	int l2 = 2; /* 2 x 2 per bank */
	small_machine(&o.cfg, proto, false, l2);
	small_machine(&v.cfg, proto, true, l2);
	REQUIRE(tk_start(&o, 64, 8, body));
	REQUIRE(tk_start(&v, 64, 8, body));
	CHECK_EQ(sim_step(o.s, 10000000), SIM_STOP_DONE);
	enum sim_stop why = sim_step(v.s, 10000000);
	if (why != SIM_STOP_DONE)
		test_fail(__FILE__, __LINE__, "%s: %s", proto, sim_value_violation(v.s) ? sim_value_violation(v.s) : "not done");
	CHECK_EQ(tk_stat(&v, "coh.value_violations"), 0);
	CHECK(tk_stat(&v, "coh.value_checks") > 1000);
	if (l2 == 2)
		CHECK(tk_stat(&v, "l2.writebacks") > 0);
	CHECK(tk_stat(&v, "l1.evictions") > 0);
	CHECK(tk_stat(&v, "l1.atomics") > 0);
	CHECK_EQ(tk_stat(&v, "coh.errors"), 0);
	const struct stats *a = sim_stats_c(o.s), *b = sim_stats_c(v.s);
	CHECK_EQ(a->n + 3, b->n);
	for (uint32_t i = 0; i < a->n; i++) {
		int j = stats_find(b, a->defs[i].name);
		if (j < 0 || stats_value(a, i) != stats_value(b, (uint32_t)j))
			test_fail(__FILE__, __LINE__, "%s: %s differs with check_values", proto, a->defs[i].name);
	}
	tk_end(&o);
	tk_end(&v);
}

TEST(coh_values_racy_si) { racy("si", plain); }
TEST(coh_values_racy_nmoesi) { racy("nmoesi", plain); }
TEST(coh_values_racy_moesi) { racy("moesi", plain); }
TEST(coh_values_racy_si_glc_slc) { racy("si", cops); }

/* The engine bug above, found by the checker, now fixed: SI with a 2 x 2 L2
 * per bank NACKs write-throughs, and same-address order survives. */
TEST(coh_values_si_wt_order_kept_through_nacks)
{
	struct tk v;
	small_machine(&v.cfg, "si", true, 2);
	REQUIRE(tk_start(&v, 64, 8, plain));
	enum sim_stop why = sim_step(v.s, 10000000);
	if (why != SIM_STOP_DONE)
		test_fail(__FILE__, __LINE__, "%s", sim_value_violation(v.s) ? sim_value_violation(v.s) : "not done");
	CHECK_EQ(tk_stat(&v, "coh.value_violations"), 0);
	CHECK(tk_stat(&v, "l2.nacks") > 0);
	CHECK(tk_stat(&v, "coh.msgs.WT") > 0);
	sim_free(v.s);
	kernel_free(v.k);
}
