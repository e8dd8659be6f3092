/*
 * test_option_effects.c: options no other test set, each with an
 * expectation that changes with the option.
 *
 * l2.bank_hash (engine/mem/icnt.c icnt_bank_of): with 4 banks and 256 B
 * interleaving, chunk c = addr / 256 goes to bank
 *   linear  c mod 4
 *   xor     the 2-bit digits of c XORed together
 *   ipoly   c(x) mod x^2 + x + 1 (GF(2) polynomials)
 * and a stream whose stride is banks x interleave (1 KiB) lands on one bank
 * with linear and on all four, evenly, with xor and ipoly.
 *
 * coherence.value_words (engine/mem/coh_values.c): the value store is an open
 * hash table of P = the power of two >= 4W/3 + 1 slots kept at most 3/4
 * full, so it tracks 3P/4 distinct words (>= W); one word more stops the run
 * with "Value store full".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/event.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

static void four_banks(struct sim_cfg *c, const char *hash)
{
	tk_base_cfg(c);
	c->l2.banks = 4;
	c->l2.interleave = 256;
	char *err = NULL;
	if (cfg_set_value(c, "l2.bank_hash", hash, &err)) {
		test_fail(__FILE__, __LINE__, "%s", err);
		free(err);
	}
}

TEST(l2_bank_hash_functions)
{
	/* chunk: linear, xor, ipoly */
	static const unsigned want[][4] = {
		{0, 0, 0, 0}, {1, 1, 1, 1}, {3, 3, 3, 3},
		{4, 0, 1, 3},  /* x^2 = x + 1 */
		{6, 2, 3, 1},  /* 0b0110: digits 01 ^ 10 = 11; x^2 + x = 1 */
		{16, 0, 1, 2}, /* x^4 = x^2 * x^2 = (x+1)^2 = x^2 + 1 = x */
		{0x1b, 3, 3 ^ 2 ^ 1, 0}, /* x^4 + x^3 + x + 1 with x^4 = x, x^3 = x^2 + x = 1: 0 */
	};
	const char *names[] = {"linear", "xor", "ipoly"};
	for (int h = 0; h < 3; h++) {
		struct tk t;
		four_banks(&t.cfg, names[h]);
		REQUIRE(tk_start(&t, 32, 1, "ld A[tid]"));
		for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
			uint64_t addr = (uint64_t)want[i][0] * 256 + 17;
			unsigned got = icnt_bank_of(t.s, addr);
			if (got != want[i][h + 1])
				test_fail(__FILE__, __LINE__, "%s: chunk %u -> bank %u, want %u", names[h], want[i][0], got,
					  want[i][h + 1]);
		}
		tk_end(&t);
	}
}

/* One warp loads 32 lines 1 KiB apart: every L2 access goes to the bank the
 * hash names, and the banks used are 1 (linear) or all 4, 8 lines each. */
TEST(l2_bank_hash_spreads_a_bank_stride)
{
	const char *names[] = {"linear", "xor", "ipoly"};
	for (int h = 0; h < 3; h++) {
		struct tk t;
		four_banks(&t.cfg, names[h]);
		REQUIRE(tk_start(&t, 32, 1, "ld A[tid*256]"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		unsigned per[4] = {0};
		uint64_t n = tk_count(&t, EV_L2_ACCESS);
		CHECK_EQ(n, 32);
		for (unsigned i = 0; i < n; i++) {
			const struct event *e = tk_event(&t, EV_L2_ACCESS, i);
			REQUIRE(e);
			CHECK_EQ(e->unit, (int)icnt_bank_of(t.s, e->addr));
			per[e->unit & 3]++;
		}
		unsigned used = 0;
		for (int b = 0; b < 4; b++)
			used += per[b] > 0;
		if (h == 0) {
			CHECK_EQ(used, 1);
		} else {
			CHECK_EQ(used, 4);
			for (int b = 0; b < 4; b++)
				CHECK_EQ(per[b], 8);
		}
		tk_end(&t);
	}
}

static unsigned capacity(unsigned w)
{
	uint64_t need = (uint64_t)w * 4 / 3 + 1, p = 1;
	while (p < need)
		p <<= 1;
	return (unsigned)(p * 3 / 4);
}

/* N threads of one SM store one distinct word each. */
static enum sim_stop store_words(unsigned value_words, unsigned n, uint64_t *tracked, char *why, size_t whyn)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	char *err = NULL, v[32];
	snprintf(v, sizeof v, "%u", value_words);
	if (cfg_set_value(&t.cfg, "coherence.protocol", "si", &err) ||
	    cfg_set_value(&t.cfg, "coherence.check_values", "true", &err) ||
	    cfg_set_value(&t.cfg, "coherence.value_words", v, &err)) {
		test_fail(__FILE__, __LINE__, "%s", err);
		free(err);
		return SIM_STOP_DONE;
	}
	if (!tk_start(&t, n, 1, "st A[tid]"))
		return SIM_STOP_DONE;
	enum sim_stop r = sim_step(t.s, 1000000);
	*tracked = tk_stat(&t, "coh.value_words");
	const char *msg = sim_value_violation(t.s);
	snprintf(why, whyn, "%s", msg ? msg : "");
	if (msg) { /* the invariant check would report the full store again */
		sim_free(t.s);
		kernel_free(t.k);
	} else
		tk_end(&t);
	return r;
}

TEST(coherence_value_words_sizes_the_value_store)
{
	unsigned ws[] = {16, 32, 100};
	for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) {
		unsigned cap = capacity(ws[i]);
		CHECK(cap >= ws[i]);
		uint64_t tracked;
		char why[256];
		CHECK_EQ(store_words(ws[i], cap, &tracked, why, sizeof why), SIM_STOP_DONE);
		CHECK_EQ(tracked, cap);
		enum sim_stop r = store_words(ws[i], cap + 1, &tracked, why, sizeof why);
		CHECK(r != SIM_STOP_DONE);
		CHECK_EQ(tracked, cap);
		CHECK_CONTAINS(why, "the value store is full");
		CHECK_CONTAINS(why, "raise coherence.value_words");
	}
}
