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
};

struct addrmap {
	unsigned byte_bits;                          /* log2(bus_bytes), below every field */
	unsigned nparts;
	struct addrmap_part part[ADDRMAP_MAX_PARTS]; /* least significant first */
	uint64_t size[AM__N];                        /* channels, ranks, banks, rows, columns */
	bool bank_xor;
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
/* "row[15:12] bank[11:8] ..." MSB first, one line. */
void addrmap_describe(const struct addrmap *m, struct strbuf *out);

#endif
