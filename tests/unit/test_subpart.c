/*
 * test_subpart.c: L2 sub-partitions per DRAM channel (l2.banks_per_channel)
 * and GPGPU-Sim's partition indexing functions (l2.bank_hash with
 * sub-partitions; engine/dram/addrmap.c addrmap_partition).
 *
 * GPGPU-Sim's address decoder (addrdec.cc), as a formula. The channel digit
 * starts at bit S (dramid@S; S = 8 in every tested config), C channels, N
 * sub-partitions per channel:
 *   chip  = (addr >> S) mod C, q = (addr >> S) / C  (for a power-of-two C,
 *           the bits S .. S+log2(C)-1 and the bits above them)
 *   bank  = the DRAM bank bits of the rest of the address (q and the bits
 *           below S, by the mapping's B letters); with the tested configs'
 *           mappings the lowest bank bit is q's bit 0
 *   sub   = chip x N + (bank mod N)                         linear (0)
 *   xor   : chip ^= (addr >> (S + log2 C + log2 N)) mod C   then as linear (1)
 *   ipoly : h = addr >> (S + log2 C + log2 N) for a power-of-two C, else q;
 *           sub = IPOLY_M(h, chip x N + bank mod N), M = nextpow2(C) x N,
 *           then mod C x N when C is not a power of two              (2)
 *   the DRAM channel is sub / N.
 * IPOLY_M(h, i) (hashing.cc) is, term by term, i XOR ((h mod 2^K) x^m mod
 * P(x)) over GF(2), m = log2 M: M = 16: P = x^4+x+1, K = 13; M = 32:
 * P = x^5+x^2+1, K = 15; M = 64: P = x^6+x+1, K = 19. The vectors below
 * are worked from these by hand; the reductions used:
 *   mod x^6+x+1: x^6 = x+1 (3), x^7 = x^2+x (6), x^8 = x^3+x^2 (12),
 *     x^10 = x^5+x^4 (48), x^12 = (x+1)^2 = x^2+1 (5),
 *     x^24 = (x^2+1)^2 = x^4+1 (17)
 *   mod x^4+x+1: x^4 = x+1 (3), x^5 = x^2+x (6), x^8 = (x+1)^2 = x^2+1 (5)
 *   mod x^5+x^2+1: x^5 = x^2+1 (5), x^6 = x^3+x (10), x^10 = (x^2+1)^2 =
 *     x^4+1 (17)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram/addrmap.h"
#include "mem/coh_eng.h"
#include "mem/frc.h"
#include "sim/event.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

/* A DRAM map of C channels at bit 8 under a GPGPU-Sim-style mapping. */
static void map_of(struct addrmap *m, int channels, int bus, const char *mapping, unsigned nsub, int hash)
{
	struct sim_cfg s;
	cfg_defaults(&s);
	struct dram_cfg c = s.dram;
	c.channels = channels;
	c.banks = 16;
	c.rows = 4096;
	c.columns = bus == 16 ? 128 : 512;
	c.bus_bytes = bus;
	c.bank_xor = false;
	c.page_colour = false;
	snprintf(c.mapping, sizeof c.mapping, "%s", mapping);
	char *err = NULL;
	if (addrmap_init(m, &c, &err) || addrmap_set_partition(m, nsub, hash, &err)) {
		test_fail(__FILE__, __LINE__, "%s", err ? err : "?");
		free(err);
	}
}

/* SM2_GTX480: 6 channels x 2, linear, "...BBBCCCCB.CCSSSSSS" = this mapping
 * with 8 B bus words. c = addr >> 8: chip = c mod 6, sub bit = (c / 6) & 1. */
#define GTX480_MAP "row:bank[3]:col[4]:bank[1]:ch:col[5]"
/* SM7_QV100 / SM7_TITANV: "...RBBBCCCB.CCCSSSSS", 16 B bus words. */
#define VOLTA_MAP "row:bank[3]:col[3]:bank[1]:ch:col[4]"

TEST(subpart_linear_gtx480_vectors)
{
	struct addrmap m;
	map_of(&m, 6, 8, GTX480_MAP, 2, BANKH_LINEAR);
	static const struct {
		uint64_t addr;
		unsigned sub;
	} v[] = {
		{0x000, 0},  /* c 0: chip 0, q 0 */
		{0x1ff, 2},  /* c 1: chip 1, q 0 -> 2 */
		{0x500, 10}, /* c 5: chip 5 -> 10 */
		{0x600, 1},  /* c 6: chip 0, q 1 -> 1 */
		{0xb80, 11}, /* c 11: chip 5, q 1 -> 11 */
		{0xc00, 0},  /* c 12: chip 0, q 2 -> 0 */
		{0x1234, 1}, /* c 18: chip 0, q 3 -> 1 */
	};
	for (size_t i = 0; i < ARRAY_LEN(v); i++) {
		unsigned got = addrmap_partition(&m, v[i].addr);
		if (got != v[i].sub)
			test_fail(__FILE__, __LINE__, "0x%llx -> sub-partition %u, want %u", (unsigned long long)v[i].addr,
				  got, v[i].sub);
		struct dram_addr x;
		addrmap_decode(&m, v[i].addr, &x);
		CHECK_EQ(x.ch, v[i].sub / 2);
	}
	/* The partition address: the k-th 256 B chunk of a sub-partition is its
	 * k-th local chunk (channel digit and sub-partition bit removed). */
	for (unsigned p = 0; p < 12; p++) {
		uint64_t k = 0;
		for (uint64_t c = 0; c < 12 * 64; c++) {
			if (addrmap_partition(&m, c << 8) != p)
				continue;
			CHECK_EQ(addrmap_partition_addr(&m, (c << 8) | 0x45), (k << 8) | 0x45);
			k++;
		}
		CHECK_EQ(k, 64);
	}
}

/* SM6_TITANX / SM75_RTX2060 / SM86_RTX3070: "...RBBBCCCC.BCCSSSSS", its
 * lowest bank bit 7 below the channel: the two 128 B lines of a 256 B
 * chunk go to the two sub-partitions of one channel. With 6 channels:
 * sub-partition = (c mod 6) x 2 + bit 7, c = addr >> 8. */
#define TITANX_MAP "row:bank[3]:col[4]:ch:bank[1]:col[5]" /* 4 B bus words */

TEST(subpart_linear_bank_bit_below_channel)
{
	struct addrmap m;
	map_of(&m, 6, 4, TITANX_MAP, 2, BANKH_LINEAR);
	CHECK_EQ(addrmap_partition(&m, 0x000), 0);
	CHECK_EQ(addrmap_partition(&m, 0x080), 1);
	CHECK_EQ(addrmap_partition(&m, 0x180), 3);
	CHECK_EQ(addrmap_partition(&m, 0x680), 1); /* c 6: chip 0 */
	/* the k-th line of a sub-partition is its k-th local line */
	for (unsigned p = 0; p < 12; p++) {
		uint64_t k = 0;
		for (uint64_t l = 0; l < 12 * 64; l++) {
			if (addrmap_partition(&m, l << 7) != p)
				continue;
			CHECK_EQ(addrmap_partition_addr(&m, (l << 7) | 0x23), (k << 7) | 0x23);
			k++;
		}
		CHECK_EQ(k, 64);
	}
}

TEST(subpart_ipoly_equations)
{
	/* single higher bits: index 0 XOR x^(m+j) mod P */
	CHECK_EQ(addrmap_ipoly(1, 0, 64), 3);
	CHECK_EQ(addrmap_ipoly(2, 0, 64), 6);
	CHECK_EQ(addrmap_ipoly(4, 0, 64), 12);
	CHECK_EQ(addrmap_ipoly(1u << 6, 0, 64), 5);
	CHECK_EQ(addrmap_ipoly(1u << 18, 0, 64), 17);
	CHECK_EQ(addrmap_ipoly(1u << 19, 0, 64), 0); /* K = 19: bit 19 unread */
	CHECK_EQ(addrmap_ipoly(3, 5, 64), 5 ^ 3 ^ 6);
	CHECK_EQ(addrmap_ipoly(1, 0, 16), 3);
	CHECK_EQ(addrmap_ipoly(2, 0, 16), 6);
	CHECK_EQ(addrmap_ipoly(1u << 4, 0, 16), 5);
	CHECK_EQ(addrmap_ipoly(1u << 13, 9, 16), 9); /* K = 13 */
	CHECK_EQ(addrmap_ipoly(1, 0, 32), 5);
	CHECK_EQ(addrmap_ipoly(2, 0, 32), 10);
	CHECK_EQ(addrmap_ipoly(1u << 5, 0, 32), 17);
	CHECK_EQ(addrmap_ipoly(1u << 15, 7, 32), 7); /* K = 15 */
}

/* SM7_QV100: 32 channels x 2, IPOLY over 64: chip = addr bits 8..12, sub
 * bit = addr bit 13, h = addr >> 14. */
TEST(subpart_ipoly_qv100_vectors)
{
	struct addrmap m;
	map_of(&m, 32, 16, VOLTA_MAP, 2, BANKH_IPOLY);
	static const struct {
		uint64_t addr;
		unsigned sub;
	} v[] = {
		{0x100, 2},          /* chip 1, h 0: index 2 */
		{0x2000, 1},         /* chip 0, sub bit 1: index 1 */
		{0x4000, 3},         /* h 1: 0 ^ x^6 = 3 */
		{0x8000, 6},         /* h 2: x^7 = 6 */
		{0x4100, 1},         /* index 2, h 1: 2 ^ 3 */
		{0x1f00, 62},        /* chip 31: index 62 */
		{0x100000000, 17},   /* h = 2^18: x^24 = 17 */
		{0x200000000, 0},    /* h = 2^19: beyond K, as GPGPU-Sim */
		{0x200004000, 3},    /* h = 2^19 + 1: only the 1 counts */
	};
	for (size_t i = 0; i < ARRAY_LEN(v); i++) {
		unsigned got = addrmap_partition(&m, v[i].addr);
		if (got != v[i].sub)
			test_fail(__FILE__, __LINE__, "0x%llx -> sub-partition %u, want %u", (unsigned long long)v[i].addr,
				  got, v[i].sub);
		struct dram_addr x;
		addrmap_decode(&m, v[i].addr, &x);
		CHECK_EQ(x.ch, v[i].sub / 2);
	}
}

/* SM7_TITANV: 24 channels x 2, IPOLY over 32 x 2 = 64, then mod 48.
 * c = addr >> 8: chip = c mod 24, q = c / 24 (its bit 0 the sub bit), h = q. */
TEST(subpart_ipoly_titanv_vectors)
{
	struct addrmap m;
	map_of(&m, 24, 16, VOLTA_MAP, 2, BANKH_IPOLY);
	static const struct {
		uint64_t c;
		unsigned sub;
	} v[] = {
		{1, 2},    /* chip 1, q 0: 2 */
		{23, 46},  /* chip 23, q 0: 46 */
		{24, 2},   /* chip 0, q 1: index 1, h 1: 1 ^ 3 = 2 */
		{47, 44},  /* chip 23, q 1: 47 ^ 3 */
		{48, 6},   /* chip 0, q 2: 0 ^ 6 */
		{384, 0},  /* chip 0, q 16: 0 ^ x^10 = 48, mod 48 = 0 */
		{385, 2},  /* chip 1, q 16: 2 ^ 48 = 50, mod 48 = 2 */
		{392, 32}, /* chip 8, q 16: 16 ^ 48 = 32 (< 48: no wrap) */
	};
	for (size_t i = 0; i < ARRAY_LEN(v); i++) {
		unsigned got = addrmap_partition(&m, v[i].c << 8 | 0x7f);
		if (got != v[i].sub)
			test_fail(__FILE__, __LINE__, "chunk %llu -> sub-partition %u, want %u", (unsigned long long)v[i].c,
				  got, v[i].sub);
	}
}

/* The sub-partition bit of a 24-channel IPOLY map cancels out: h = q holds
 * the bank bit q & 1 that the index holds too, and bit 0 of x^6 mod P is 1,
 * so bit 0 of the result is bit 0 of (h - its bit 0) x^6 mod P: q's bits 5,
 * 6, 10, 12, 15, 16, 17, 18 XORed (the a[] terms of GPGPU-Sim's new_index[0]
 * other than a[0]). Within an aligned block of 32 q values (32 x 24 chunks
 * of 256 B = 192 KiB) every line goes to a sub-partition of one parity, and
 * 48 is even, so the wrap keeps it: 24 of the 48 sub-partitions. */
TEST(subpart_ipoly_24_channels_parity_per_block)
{
	struct addrmap m;
	map_of(&m, 24, 16, VOLTA_MAP, 2, BANKH_IPOLY);
	for (uint64_t blk = 0; blk < 64; blk++) {
		unsigned q0 = (unsigned)blk * 32, want = 0;
		for (unsigned b = 5; b < 19; b++)
			if ((b == 5 || b == 6 || b == 10 || b == 12 || b >= 15) && (q0 >> b & 1))
				want ^= 1;
		unsigned seen[48] = {0}, n = 0;
		for (uint64_t c = (uint64_t)q0 * 24; c < (uint64_t)(q0 + 32) * 24; c++) {
			unsigned p = addrmap_partition(&m, c << 8);
			CHECK_EQ(p & 1, want);
			n += !seen[p]++;
		}
		CHECK_EQ(n, 24);
	}
}

/* xor: 4 channels x 2 at bit 8 (sub bit 10): chip ^= (addr >> 11) mod 4. */
TEST(subpart_xor_vectors)
{
	struct addrmap m;
	map_of(&m, 4, 16, VOLTA_MAP, 2, BANKH_XOR);
	CHECK_EQ(addrmap_partition(&m, 0x100), 2); /* chip 1 */
	CHECK_EQ(addrmap_partition(&m, 0x400), 1); /* sub bit */
	CHECK_EQ(addrmap_partition(&m, 0x800), 2); /* chip 0 ^ 1 */
	CHECK_EQ(addrmap_partition(&m, 0xc00), 3); /* chip 0 ^ 1, sub 1 */
	CHECK_EQ(addrmap_partition(&m, 0x1300), 2); /* chip 3 ^ (0x1300 >> 11 = 2) = 1, sub 0 */
}

/* Consecutive lines reach every sub-partition: evenly for 32 x 2 (IPOLY is
 * a bijection on each aligned 16 KiB), every one of the 48 for 24 x 2 (the
 * mod 48 gives the first 16 twice the share: GPGPU-Sim's own imbalance),
 * and all 12 evenly with GTX480's linear map. */
TEST(subpart_consecutive_lines_spread)
{
	static const struct {
		int ch;
		int bus;
		const char *map;
		int hash;
	} cf[] = {{32, 16, VOLTA_MAP, BANKH_IPOLY}, {24, 16, VOLTA_MAP, BANKH_IPOLY}, {6, 8, GTX480_MAP, BANKH_LINEAR}};
	for (size_t k = 0; k < ARRAY_LEN(cf); k++) {
		struct addrmap m;
		map_of(&m, cf[k].ch, cf[k].bus, cf[k].map, 2, cf[k].hash);
		unsigned n = (unsigned)cf[k].ch * 2, per[64] = {0};
		unsigned lines = 48 * 64 * 16;
		for (uint64_t l = 0; l < lines; l++)
			per[addrmap_partition(&m, 0x7f0000000000ull + l * 128)]++;
		unsigned lo = ~0u, hi = 0;
		for (unsigned p = 0; p < n; p++) {
			lo = per[p] < lo ? per[p] : lo;
			hi = per[p] > hi ? per[p] : hi;
		}
		if (cf[k].ch == 24) {
			CHECK(lo > 0);
			unsigned first = 0, rest = 0;
			for (unsigned p = 0; p < n; p++)
				*(p < 16 ? &first : &rest) += per[p];
			/* 2/64 vs 1/64 each: the first 16 get half the lines */
			CHECK(first * 10 > lines * 4 && first * 10 < lines * 6);
		} else {
			CHECK_EQ(lo, lines / n);
			CHECK_EQ(hi, lines / n);
		}
	}
}

TEST(subpart_errors)
{
	struct sim_cfg s;
	cfg_defaults(&s);
	struct dram_cfg c = s.dram;
	c.channels = 12;
	c.banks = 16;
	c.bus_bytes = 16;
	c.columns = 128;
	c.bank_xor = false;
	snprintf(c.mapping, sizeof c.mapping, "%s", VOLTA_MAP);
	struct addrmap m;
	char *err = NULL;
	REQUIRE(addrmap_init(&m, &c, &err) == 0);
	/* 12 channels -> 16 x 2 = 32: fine; x 8 = 128: no equations */
	CHECK(addrmap_set_partition(&m, 2, BANKH_IPOLY, &err) == 0);
	REQUIRE(addrmap_init(&m, &c, &err) == 0);
	CHECK(addrmap_set_partition(&m, 8, BANKH_IPOLY, &err) != 0);
	CHECK(err && strstr(err, "16, 32 and 64"));
	free(err);
	err = NULL;
	CHECK(addrmap_set_partition(&m, 3, BANKH_LINEAR, &err) != 0);
	CHECK(err && strstr(err, "power of two"));
	free(err);
	err = NULL;
	CHECK(addrmap_set_partition(&m, 2, BANKH_XOR, &err) != 0);
	CHECK(err && strstr(err, "dram.channels"));
	free(err);
	err = NULL;
	/* the channel in two pieces */
	snprintf(c.mapping, sizeof c.mapping, "row:bank:ch[2]:col[3]:ch:col[4]");
	c.channels = 8;
	REQUIRE(addrmap_init(&m, &c, &err) == 0);
	CHECK(addrmap_set_partition(&m, 2, BANKH_LINEAR, &err) != 0);
	CHECK(err && strstr(err, "one piece"));
	free(err);
	/* config: l2.banks must be channels x N */
	s.dram.channels = 6;
	s.l2.banks = 6;
	s.l2.banks_per_channel = 2;
	err = NULL;
	CHECK(cfg_validate(&s, &err) != 0);
	CHECK(err && strstr(err, "l2.banks"));
	free(err);
	s.l2.banks_per_channel = 3;
	s.l2.banks = 18;
	err = NULL;
	CHECK(cfg_validate(&s, &err) != 0);
	CHECK(err && strstr(err, "l2.banks_per_channel: must be a power of two"));
	free(err);
}

/* The whole machine: every L2 access goes to the sub-partition of its
 * address, which indexes its sets with the partition address, and every
 * DRAM request goes to that sub-partition's channel. */
TEST(subpart_bank_and_channel_agree)
{
	static const struct {
		const char *hash, *ch, *bus, *cols, *map, *banks;
	} mc[] = {{"linear", "6", "8", "512", GTX480_MAP, "12"},
		  {"linear", "6", "4", "512", TITANX_MAP, "12"},
		  {"ipoly", "24", "16", "128", VOLTA_MAP, "48"}};
	for (int h = 0; h < 3; h++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		char *err = NULL;
		struct {
			const char *k, *v;
		} set[] = {{"mem.model", "dram"},
			   {"dram.channels", mc[h].ch},
			   {"dram.banks", "16"},
			   {"dram.bus_bytes", mc[h].bus},
			   {"dram.columns", mc[h].cols},
			   {"dram.bank_xor", "false"},
			   {"dram.mapping", mc[h].map},
			   {"l2.banks", mc[h].banks},
			   {"l2.banks_per_channel", "2"},
			   {"l2.bank_hash", mc[h].hash}};
		for (size_t i = 0; i < ARRAY_LEN(set); i++)
			if (cfg_set_value(&t.cfg, set[i].k, set[i].v, &err)) {
				test_fail(__FILE__, __LINE__, "%s", err);
				free(err);
				err = NULL;
			}
		REQUIRE(tk_start(&t, 128, 4, "ld A[(bx*bdx+tx)*224]")); /* 7 lines apart */
		CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
		uint64_t na = tk_count(&t, EV_L2_ACCESS), nd = tk_count(&t, EV_DRAM_ENQUEUE);
		CHECK(na > 100);
		CHECK(nd > 100);
		unsigned used[48] = {0}, nused = 0;
		for (unsigned i = 0; i < na; i++) {
			const struct event *e = tk_event(&t, EV_L2_ACCESS, i);
			REQUIRE(e);
			unsigned want = addrmap_partition(&t.s->part, e->addr);
			CHECK_EQ(e->unit, (int)want);
			nused += !used[want]++;
			/* the bank indexes its sets with the partition address */
			const struct l2bank *b = &t.s->banks[want];
			CHECK_EQ(l2_bank_set(t.s, b, e->addr), cache_set(&b->c, addrmap_partition_addr(&t.s->part, e->addr)));
		}
		if (h < 2)
			CHECK_EQ(nused, (unsigned)t.cfg.l2.banks);
		else /* 512 lines over 48 sub-partitions hashed: most of them */
			CHECK(nused > 36);
		for (unsigned i = 0; i < nd; i++) {
			const struct event *e = tk_event(&t, EV_DRAM_ENQUEUE, i);
			REQUIRE(e);
			CHECK_EQ(e->ch, (int)(addrmap_partition(&t.s->part, e->addr) / 2));
		}
		tk_end(&t);
	}
}

/* The shortcuts (issue 41) against the digit-by-digit definitions, on random
 * addresses (within and beyond the capacity) of maps with the sub-partition
 * digit above the channel (shortcut), below it (digit walk), one or several
 * pieces between them, 1 to 4 sub-partitions per channel, every hash:
 * addrmap_partition_addr against addrmap_partition_addr_digits, and the
 * IPOLY table against addrmap_ipoly; addrmap_partition against
 * addrmap_partition_digits, addrmap_channel against addrmap_decode. */
TEST(subpart_shortcuts_match_the_digits)
{
	static const struct {
		int ch, bus;
		const char *map;
		unsigned nsub;
		int hash;
	} v[] = {
		{24, 16, VOLTA_MAP, 2, BANKH_IPOLY},
		{32, 16, VOLTA_MAP, 2, BANKH_IPOLY},
		{16, 16, VOLTA_MAP, 1, BANKH_IPOLY},
		{6, 4, GTX480_MAP, 2, BANKH_LINEAR},
		{6, 4, TITANX_MAP, 2, BANKH_LINEAR},
		{8, 4, "row:bank[2]:col[4]:bank[2]:ch:col[5]", 4, BANKH_XOR},
		{12, 4, "row:bank[2]:col[2]:bank[2]:col[2]:ch:col[5]", 4, BANKH_LINEAR},
		{8, 4, "row:bank[2]:col[2]:bank[2]:col[2]:ch:col[5]", 2, BANKH_XOR},
		{6, 4, "row:bank[3]:col[4]:bank[1]:ch:col[5]", 1, BANKH_LINEAR},
	};
	uint64_t s = 0x243f6a8885a308d3ull;
	for (size_t i = 0; i < ARRAY_LEN(v); i++) {
		struct addrmap m;
		map_of(&m, v[i].ch, v[i].bus, v[i].map, v[i].nsub, v[i].hash);
		for (unsigned k = 0; k < 20000; k++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			uint64_t a = k & 1 ? s : s & ((1ull << 34) - 1);
			uint64_t got = addrmap_partition_addr(&m, a), want = addrmap_partition_addr_digits(&m, a);
			if (got != want) {
				test_fail(__FILE__, __LINE__, "map %zu: partition address of 0x%llx: 0x%llx, digit by digit 0x%llx", i,
					  (unsigned long long)a, (unsigned long long)got, (unsigned long long)want);
				break;
			}
			unsigned gp = addrmap_partition(&m, a), wp = addrmap_partition_digits(&m, a);
			struct dram_addr x;
			addrmap_decode(&m, a, &x);
			if (gp != wp || addrmap_channel(&m, a) != x.ch) {
				test_fail(__FILE__, __LINE__, "map %zu: 0x%llx: sub-partition %u, from the fields %u; channel %u, decoded %u",
					  i, (unsigned long long)a, gp, wp, addrmap_channel(&m, a), x.ch);
				break;
			}
			if (v[i].hash != BANKH_IPOLY)
				continue;
			unsigned n = (v[i].ch <= 16 ? 16 : v[i].ch <= 32 ? 32 : 64) * v[i].nsub;
			unsigned t = m.ipoly_tab[0][s & 255] ^ m.ipoly_tab[1][s >> 8 & 255] ^ m.ipoly_tab[2][s >> 16 & 255];
			if (t != addrmap_ipoly(s, 0, n)) {
				test_fail(__FILE__, __LINE__, "map %zu: IPOLY table of 0x%llx: %u, addrmap_ipoly %u", i,
					  (unsigned long long)s, t, addrmap_ipoly(s, 0, n));
				break;
			}
		}
	}
}

/* l2_bank_set remembers each bank's last answer (struct sim l2_set_memo):
 * asked again, for the same address, another one, or one remembered by
 * another bank, it gives the set the index function gives. */
TEST(subpart_bank_set_memo_answers_each_address)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	char *err = NULL;
	if (cfg_set_value(&t.cfg, "l2.banks", "2", &err) || cfg_set_value(&t.cfg, "l2.index", "ipoly", &err)) {
		test_fail(__FILE__, __LINE__, "%s", err ? err : "?");
		free(err);
		return;
	}
	REQUIRE(tk_start(&t, 32, 1, "ld A[tid]"));
	const struct sim *s = t.s;
	static const uint64_t addr[] = {0x1000, 0x1000, 0x2080, 0x1000, 0x7f3c0, 0x2080, 0x2080, 0x123400};
	int distinct = 0, prev = -1;
	for (unsigned k = 0; k < 3 * ARRAY_LEN(addr); k++) {
		const struct l2bank *b = &s->banks[k % 3 == 1];
		uint64_t a = addr[k % ARRAY_LEN(addr)];
		int want = cache_set(&b->c, l2_local_addr(s, a));
		CHECK_EQ(l2_bank_set(s, b, a), want);
		distinct += prev >= 0 && want != prev;
		prev = want;
	}
	CHECK(distinct > 3); /* the addresses do fall in different sets */
	tk_end(&t);
}
