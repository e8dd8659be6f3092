/*
 * addrmap.h: DRAM address mapping: byte address -> channel, rank, bank, row,
 * column. The order of fields is configurable (dram.mapping, MSB first), a
 * field may be split into several pieces, counts need not be powers of two
 * (a piece is then a mixed-radix digit: e.g. 6 channels), the bank may be
 * XOR-hashed with the low row bits (dram.bank_xor), and page colouring
 * (dram.page_colour) puts channel/rank/bank just above the 4 KB page offset.
 *
 * Example: "row:bank:ch:col", 2 channels, 16 banks, 512 columns x 4 B:
 *
 *   63 ......... 16 15    12  11  10          2 1  0
 *   +--------------+--------+----+-------------+----+
 *   |     row      |  bank  | ch |    column   |byte|   byte = log2(bus_bytes)
 *   +--------------+--------+----+-------------+----+
 *
 * With dram.page_colour (row of 2 KB or more, 4 KB pages):
 *
 *   +-----+--------+------+------+----+---------------------+----+
 *   | row | col_hi | rank | bank | ch | col_lo (in page)    |byte|
 *   +-----+--------+------+------+----+---------------------+----+
 *                                     ^ bit 12
 *
 * Address bits above the top field wrap (the address is taken modulo the
 * capacity): callers keep addresses below addrmap_capacity() (the trace
 * reader refuses or, asked to, wraps them; the full-system model checks
 * the workload's address range against it).
 *
 * L2 sub-partitions (l2.banks_per_channel = N > 0; addrmap_set_partition):
 * as GPGPU-Sim's address decoder, an address belongs to one of channels x N
 * sub-partitions (L2 banks). Linear: sub-partition = channel x N + the low
 * log2(N) bits of its DRAM bank number. A partition indexing function
 * (l2.bank_hash) may then move it: xor folds the address bits above the
 * channel and sub-partition bits into the channel; ipoly replaces the index
 * by GPGPU-Sim's IPOLY hash of it and the higher bits. The DRAM channel is
 * always the sub-partition's (sub-partition / N), so an L2 bank only ever
 * talks to its own channel; bank, row and column stay the map's.
 */
#ifndef GPUSTEP_ADDRMAP_H
#define GPUSTEP_ADDRMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "dram_cfg.h"
#include "sim/util.h"

enum am_field { AM_CH, AM_RANK, AM_BANK, AM_ROW, AM_COL, AM__N };

#define ADDRMAP_MAX_PARTS 16
#define ADDRMAP_PAGE_BYTES 4096u

struct addrmap_part {
	uint8_t field;   /* enum am_field */
	uint8_t shift;   /* log2(radix) when pow2 */
	bool pow2;
	uint64_t radix;  /* number of values of this digit */
	uint64_t mult;   /* its weight in its field: the radices of the field's lower pieces */
};

struct addrmap {
	unsigned byte_bits;                          /* log2(bus_bytes), below every field */
	unsigned nparts;
	struct addrmap_part part[ADDRMAP_MAX_PARTS]; /* least significant first */
	uint64_t size[AM__N];                        /* channels, ranks, banks, rows, columns */
	bool bank_xor;
	/* L2 sub-partitions (addrmap_set_partition); nsub 0 = none. */
	unsigned nsub;     /* sub-partitions per channel (l2.banks_per_channel) */
	unsigned sub_bits; /* log2(nsub) */
	int hash;          /* enum bank_hash (sim/hier_cfg.h): partition indexing */
	unsigned chip_bit; /* lowest address bit of the channel digit (GPGPU-Sim's ADDR_CHIP_S) */
	unsigned sub_part; /* index in part[] of the lowest bank piece (its low sub_bits select the sub-partition) */
	/* addrmap_partition_addr without walking the digits (derived by
	 * addrmap_set_partition): the channel digit is part[ch_at], the digits
	 * below it are bits; the sub-partition bits sit in the digit sub_at
	 * above it, mid_radix the product of the digits in between. */
	bool pa_fast;
	unsigned ch_at, low_bits;
	uint64_t mid_radix, sub_radix;
	/* IPOLY by table: the hash is linear in the higher bits, so it is the
	 * XOR of one entry per byte of them (K <= 19 bits: three bytes). */
	uint8_t ipoly_tab[3][256];
};

struct dram_addr {
	uint32_t ch, rank, bank, row, col; /* bank within its rank */
};

/* Build from dram.* (mapping string, sizes, bank_xor, page_colour). Errors
 * name dram.mapping and the rule. */
int addrmap_init(struct addrmap *m, const struct dram_cfg *c, char **err);
void addrmap_decode(const struct addrmap *m, uint64_t addr, struct dram_addr *out);
/* Inverse of decode for addresses below the capacity (tests, trace tools). */
uint64_t addrmap_encode(const struct addrmap *m, const struct dram_addr *a);
/* Bytes the map covers: the product of its digits' radices x bus_bytes. */
uint64_t addrmap_capacity(const struct addrmap *m);
/* Columns (bus_bytes each) covered by the lowest column piece: consecutive
 * bytes that stay in one row = low_cols << byte_bits. */
uint64_t addrmap_low_cols(const struct addrmap *m);
/* L2 sub-partitions: nsub per channel (a power of two), hash = enum
 * bank_hash. Errors name l2.banks_per_channel / l2.bank_hash and the rule
 * (ipoly: GPGPU-Sim's equations exist for 16, 32 and 64 sub-partitions once
 * the channels are rounded up to a power of two). */
int addrmap_set_partition(struct addrmap *m, unsigned nsub, int hash, char **err);
/* The sub-partition (L2 bank, 0 .. channels x nsub - 1) of an address. */
unsigned addrmap_partition(const struct addrmap *m, uint64_t addr);
/* The same from the fields, whatever the map (the tests hold the shortcut to it). */
unsigned addrmap_partition_digits(const struct addrmap *m, uint64_t addr);
/* The DRAM channel of an address: addrmap_decode's ch, without the rest. */
unsigned addrmap_channel(const struct addrmap *m, uint64_t addr);
/* The address with the channel digit and the sub-partition bits removed:
 * what the L2 bank indexes its sets with (GPGPU-Sim's partition address). */
uint64_t addrmap_partition_addr(const struct addrmap *m, uint64_t addr);
/* GPGPU-Sim's IPOLY index hash (hashing.cc) for n = 16, 32 or 64: index
 * XOR (higher's low K bits) x^log2(n) mod P(x). Exposed for the tests. */
unsigned addrmap_ipoly(uint64_t higher, unsigned index, unsigned n);
/* addrmap_partition_addr digit by digit, whatever the map (the tests hold
 * the shortcut to it). */
uint64_t addrmap_partition_addr_digits(const struct addrmap *m, uint64_t addr);

/* "row[15:12] bank[11:8] ..." MSB first, one line. */
void addrmap_describe(const struct addrmap *m, struct strbuf *out);

#endif
