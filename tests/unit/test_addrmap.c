/*
 * test_addrmap.c: DRAM address mapping: field order, split fields, non
 * power-of-two channel counts, bank XOR, page colouring, error messages.
 */
#include <stdlib.h>
#include <string.h>

#include "dram/addrmap.h"
#include "sim/config.h"
#include "test.h"

static void base(struct dram_cfg *c)
{
	struct sim_cfg s;
	cfg_defaults(&s);
	*c = s.dram;
	c->channels = 2;
	c->banks = 16;
	c->rows = 4096;
	c->columns = 512;
	c->bus_bytes = 4;
	strcpy(c->mapping, "row:bank:ch:col");
}

TEST(addrmap_field_order)
{
	struct dram_cfg c;
	struct addrmap m;
	struct dram_addr a;
	char *err = NULL;
	base(&c);
	REQUIRE(addrmap_init(&m, &c, &err) == 0);
	/* byte[1:0] col[10:2] ch[11] bank[15:12] row above */
	addrmap_decode(&m, (5u << 16) | (9u << 12) | (1u << 11) | (100u << 2) | 3, &a);
	CHECK_EQ(a.row, 5);
	CHECK_EQ(a.bank, 9);
	CHECK_EQ(a.ch, 1);
	CHECK_EQ(a.col, 100);
	struct strbuf sb;
	sb_init(&sb);
	addrmap_describe(&m, &sb);
	CHECK_STR(sb.s, "row[27:16] bank[15:12] ch[11:11] col[10:2] byte[1:0]");
	sb_fini(&sb);
}

TEST(addrmap_roundtrip_split_non_pow2)
{
	/* GPGPU-Sim GTX480-like: 6 channels at bit 8, split bank and column. */
	struct dram_cfg c;
	struct addrmap m;
	char *err = NULL;
	base(&c);
	c.channels = 6;
	c.bus_bytes = 8;
	strcpy(c.mapping, "row:bank[3]:col[4]:bank[1]:ch:col[5]");
	REQUIRE(addrmap_init(&m, &c, &err) == 0);
	for (uint32_t i = 0; i < 5000; i++) {
		struct dram_addr x = {.ch = i % 6, .rank = 0, .bank = (i * 7) % 16, .row = (i * 131) % 4096, .col = (i * 37) % 512}, y;
		uint64_t a = addrmap_encode(&m, &x);
		addrmap_decode(&m, a, &y);
		CHECK(x.ch == y.ch && x.bank == y.bank && x.row == y.row && x.col == y.col);
	}
	struct dram_addr y;
	addrmap_decode(&m, 0x100, &y); /* bit 8: first channel digit */
	CHECK_EQ(y.ch, 1);
	addrmap_decode(&m, 0xff, &y);
	CHECK_EQ(y.ch, 0);
	CHECK_EQ(y.col, 31);
}

TEST(addrmap_bank_xor_and_colour)
{
	struct dram_cfg c;
	struct addrmap m;
	struct dram_addr y;
	char *err = NULL;
	base(&c);
	c.bank_xor = true;
	REQUIRE(addrmap_init(&m, &c, &err) == 0);
	/* same raw bank bits, consecutive rows: different banks */
	addrmap_decode(&m, 1u << 16, &y);
	CHECK_EQ(y.bank, 1);
	addrmap_decode(&m, 2u << 16, &y);
	CHECK_EQ(y.bank, 2);
	struct dram_addr x = {.ch = 1, .bank = 5, .row = 77, .col = 3};
	addrmap_decode(&m, addrmap_encode(&m, &x), &y);
	CHECK(y.bank == 5 && y.row == 77 && y.ch == 1 && y.col == 3);

	base(&c);
	c.columns = 2048; /* 8 KB rows */
	c.page_colour = true;
	REQUIRE(addrmap_init(&m, &c, &err) == 0);
	/* 4 KB page: bits 0..11 stay inside one bank and row */
	addrmap_decode(&m, 0x0fff, &y);
	CHECK(y.ch == 0 && y.bank == 0 && y.row == 0);
	addrmap_decode(&m, 0x1000, &y);
	CHECK_EQ(y.ch, 1);
	addrmap_decode(&m, 0x2000, &y);
	CHECK(y.ch == 0 && y.bank == 1);

	base(&c);
	c.columns = 256; /* 1 KB rows cannot hold a 4 KB page */
	c.page_colour = true;
	CHECK(addrmap_init(&m, &c, &err) != 0);
	CHECK_CONTAINS(err, "dram.page_colour");
	free(err);
}

TEST(addrmap_errors)
{
	struct dram_cfg c;
	struct addrmap m;
	char *err = NULL;
	base(&c);
	strcpy(c.mapping, "row:ch:col");
	CHECK(addrmap_init(&m, &c, &err) != 0);
	CHECK_CONTAINS(err, "field 'bank' missing");
	free(err);
	err = NULL;
	strcpy(c.mapping, "row:bank[3]:ch:col");
	CHECK(addrmap_init(&m, &c, &err) != 0);
	CHECK_CONTAINS(err, "pieces of 'bank' cover 8 values, expected 16");
	free(err);
	err = NULL;
	strcpy(c.mapping, "row:bank:ch:col[x]");
	CHECK(addrmap_init(&m, &c, &err) != 0);
	CHECK_CONTAINS(err, "bit count");
	free(err);
}
