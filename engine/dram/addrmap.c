/*
 * addrmap.c: DRAM address mapping (see addrmap.h for the picture).
 *
 * A mapping is a list of digits, least significant first. Decoding divides
 * the address (above the byte-in-bus bits) by each digit's radix in turn and
 * adds the remainder to its field; pieces of the same field combine with the
 * lower piece as the less significant part. Power-of-two radices use shifts.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "addrmap.h"
#include "sim/hier_cfg.h"

static const char *const field_names[AM__N] = {"ch", "rank", "bank", "row", "col"};

static int field_by_name(const char *s, size_t n)
{
	static const struct {
		const char *name;
		int f;
	} alias[] = {{"ch", AM_CH},     {"channel", AM_CH}, {"rank", AM_RANK}, {"bank", AM_BANK},
		     {"row", AM_ROW},   {"col", AM_COL},    {"column", AM_COL}};
	for (size_t i = 0; i < ARRAY_LEN(alias); i++)
		if (strlen(alias[i].name) == n && !strncmp(alias[i].name, s, n))
			return alias[i].f;
	return -1;
}

static void set_part(struct addrmap_part *p, unsigned f, uint64_t radix)
{
	p->field = (uint8_t)f;
	p->radix = radix;
	p->pow2 = is_pow2(radix);
	p->shift = p->pow2 ? (uint8_t)log2u(radix) : 0;
}

static int parse_mapping(struct addrmap *m, const char *spec, char **err)
{
	/* Parsed MSB first into tmp, then reversed. width 0 = "the rest". */
	struct {
		int f;
		unsigned bits;
	} tmp[ADDRMAP_MAX_PARTS];
	unsigned n = 0;
	const char *s = spec;
	while (*s) {
		const char *e = s;
		while (*e && *e != ':' && *e != '[')
			e++;
		int f = field_by_name(s, (size_t)(e - s));
		if (f < 0)
			return set_err(err, "dram.mapping: unknown field '%.*s' in \"%s\" (expected row, rank, bank, ch, col)",
				       (int)(e - s), s, spec);
		unsigned bits = 0;
		if (*e == '[') {
			char *end;
			long v = strtol(e + 1, &end, 10);
			if (end == e + 1 || *end != ']' || v < 1 || v > 40)
				return set_err(err, "dram.mapping: expected a bit count like col[4] in \"%s\"", spec);
			bits = (unsigned)v;
			e = end + 1;
		}
		if (n == ADDRMAP_MAX_PARTS)
			return set_err(err, "dram.mapping: more than %d pieces in \"%s\"", ADDRMAP_MAX_PARTS, spec);
		tmp[n].f = f;
		tmp[n].bits = bits;
		n++;
		if (*e == ':')
			e++;
		else if (*e)
			return set_err(err, "dram.mapping: expected ':' after a field in \"%s\"", spec);
		s = e;
	}
	for (unsigned f = 0; f < AM__N; f++) {
		uint64_t fixed = 1;
		unsigned fbits = 0;
		int rest = -1, count = 0;
		for (unsigned i = 0; i < n; i++) {
			if (tmp[i].f != (int)f)
				continue;
			count++;
			fbits += tmp[i].bits;
			if (fbits > 40) /* more than any field's size (< 2^25); keeps the shifts defined */
				return set_err(err, "dram.mapping: the pieces of '%s' have %u bits in \"%s\", more than its %" PRIu64 " values",
					       field_names[f], fbits, spec, m->size[f]);
			if (tmp[i].bits)
				fixed <<= tmp[i].bits;
			else if (rest >= 0)
				return set_err(err, "dram.mapping: field '%s' appears twice without a bit count in \"%s\"",
					       field_names[f], spec);
			else
				rest = (int)i;
		}
		if (!count && m->size[f] > 1)
			return set_err(err, "dram.mapping: field '%s' missing from \"%s\" (%" PRIu64 " values to map)",
				       field_names[f], spec, m->size[f]);
		if (count && (m->size[f] % fixed || (rest < 0 && fixed != m->size[f])))
			return set_err(err, "dram.mapping: the pieces of '%s' cover %" PRIu64 " values, expected %" PRIu64,
				       field_names[f], fixed, m->size[f]);
		if (rest >= 0)
			tmp[rest].bits = 0; /* radix filled below */
	}
	m->nparts = 0;
	for (unsigned i = n; i-- > 0;) {
		uint64_t radix;
		if (tmp[i].bits) {
			radix = (uint64_t)1 << tmp[i].bits;
		} else {
			uint64_t fixed = 1;
			for (unsigned j = 0; j < n; j++)
				if (tmp[j].f == tmp[i].f && tmp[j].bits)
					fixed <<= tmp[j].bits;
			radix = m->size[tmp[i].f] / fixed;
		}
		if (radix > 1)
			set_part(&m->part[m->nparts++], (unsigned)tmp[i].f, radix);
	}
	return 0;
}

/* Each piece's weight in its field. */
static void set_mults(struct addrmap *m)
{
	uint64_t mult[AM__N] = {1, 1, 1, 1, 1};
	for (unsigned i = 0; i < m->nparts; i++) {
		struct addrmap_part *p = &m->part[i];
		p->mult = mult[p->field];
		mult[p->field] *= p->radix;
	}
}

static int init_digits(struct addrmap *m, const struct dram_cfg *c, char **err);

int addrmap_init(struct addrmap *m, const struct dram_cfg *c, char **err)
{
	int rc = init_digits(m, c, err);
	if (!rc)
		set_mults(m);
	return rc;
}

static int init_digits(struct addrmap *m, const struct dram_cfg *c, char **err)
{
	memset(m, 0, sizeof *m);
	m->size[AM_CH] = (uint64_t)c->channels;
	m->size[AM_RANK] = (uint64_t)c->ranks;
	m->size[AM_BANK] = (uint64_t)c->banks;
	m->size[AM_ROW] = (uint64_t)c->rows;
	m->size[AM_COL] = (uint64_t)c->columns;
	m->bank_xor = c->bank_xor;
	if (!is_pow2((uint64_t)c->bus_bytes))
		return set_err(err, "dram.bus_bytes: must be a power of two, got %d", c->bus_bytes);
	m->byte_bits = log2u((uint64_t)c->bus_bytes);
	if (c->bank_xor && !is_pow2((uint64_t)c->banks))
		return set_err(err, "dram.bank_xor: needs a power-of-two dram.banks, got %d", c->banks);
	if (!c->page_colour)
		return parse_mapping(m, c->mapping, err);

	uint64_t page_cols = ADDRMAP_PAGE_BYTES / (uint64_t)c->bus_bytes;
	if ((uint64_t)c->columns < page_cols || c->columns % (int)page_cols)
		return set_err(err,
			       "dram.page_colour: a row must hold whole 4 KB pages (columns x bus_bytes = %d B), so the colour bits fit above the page offset",
			       c->columns * c->bus_bytes);
	unsigned k = 0;
	set_part(&m->part[k++], AM_COL, page_cols);
	if (c->channels > 1)
		set_part(&m->part[k++], AM_CH, (uint64_t)c->channels);
	if (c->banks > 1)
		set_part(&m->part[k++], AM_BANK, (uint64_t)c->banks);
	if (c->ranks > 1)
		set_part(&m->part[k++], AM_RANK, (uint64_t)c->ranks);
	if ((uint64_t)c->columns > page_cols)
		set_part(&m->part[k++], AM_COL, (uint64_t)c->columns / page_cols);
	if (c->rows > 1)
		set_part(&m->part[k++], AM_ROW, (uint64_t)c->rows);
	m->nparts = k;
	return 0;
}

/* Digit i of the address (above the bus word), least significant first;
 * *rest = what lies above the top digit. */
static uint64_t digit(const struct addrmap_part *p, uint64_t *a)
{
	uint64_t d;
	if (p->pow2) {
		d = *a & (p->radix - 1);
		*a >>= p->shift;
	} else {
		d = *a % p->radix;
		*a /= p->radix;
	}
	return d;
}

/* The fields as the map's digits give them (no bank XOR). */
static void fields(const struct addrmap *m, uint64_t addr, uint64_t v[AM__N])
{
	uint64_t a = addr >> m->byte_bits;
	for (unsigned f = 0; f < AM__N; f++)
		v[f] = 0;
	for (unsigned i = 0; i < m->nparts; i++) {
		const struct addrmap_part *p = &m->part[i];
		v[p->field] += digit(p, &a) * p->mult;
	}
}

static unsigned partition_of(const struct addrmap *m, uint64_t addr, const uint64_t v[AM__N]);

void addrmap_decode(const struct addrmap *m, uint64_t addr, struct dram_addr *out)
{
	uint64_t v[AM__N];
	fields(m, addr, v);
	if (m->nsub) /* from the fields as the map gives them, before the bank XOR */
		v[AM_CH] = partition_of(m, addr, v) >> m->sub_bits;
	if (m->bank_xor)
		v[AM_BANK] ^= v[AM_ROW] & (m->size[AM_BANK] - 1);
	out->ch = (uint32_t)v[AM_CH];
	out->rank = (uint32_t)v[AM_RANK];
	out->bank = (uint32_t)v[AM_BANK];
	out->row = (uint32_t)v[AM_ROW];
	out->col = (uint32_t)v[AM_COL];
}

/* The polynomial of degree log2(n) GPGPU-Sim's IPOLY equations reduce by,
 * and how many of the higher bits they read (hashing.cc, ipoly_hash_function:
 * each equation of its table is one coefficient of (higher mod 2^K) x
 * x^log2(n) mod P(x), XOR the index's bit; checked term by term against the
 * table, and in tests/unit/test_subpart.c on vectors computed by hand). */
static const struct {
	unsigned n, poly, k;
} ipoly_tab[] = {{16, 0x13, 13}, {32, 0x25, 15}, {64, 0x43, 19}};

unsigned addrmap_ipoly(uint64_t higher, unsigned index, unsigned n)
{
	for (size_t i = 0; i < ARRAY_LEN(ipoly_tab); i++) {
		if (ipoly_tab[i].n != n)
			continue;
		unsigned deg = log2u(n);
		uint64_t x = (higher & (((uint64_t)1 << ipoly_tab[i].k) - 1)) << deg;
		while (x >> deg) /* long division, highest set bit first */
			x ^= (uint64_t)ipoly_tab[i].poly << (63u - (unsigned)__builtin_clzll(x) - deg);
		return (index ^ (unsigned)x) & (n - 1);
	}
	return index; /* not reached: addrmap_set_partition checks n */
}

static unsigned next_pow2(unsigned n)
{
	unsigned p = 1;
	while (p < n)
		p <<= 1;
	return p;
}

int addrmap_set_partition(struct addrmap *m, unsigned nsub, int hash, char **err)
{
	uint64_t nch = m->size[AM_CH];
	if (!nsub || !is_pow2(nsub))
		return set_err(err, "l2.banks_per_channel: must be a power of two (GPGPU-Sim's sub-partition bits), got %u",
			       nsub);
	if (nsub > m->size[AM_BANK])
		return set_err(err, "l2.banks_per_channel: %u sub-partitions need as many DRAM banks (their low bank bits "
				    "select them), dram.banks is %" PRIu64,
			       nsub, m->size[AM_BANK]);
	if (hash == BANKH_XOR && !is_pow2(nch))
		return set_err(err, "l2.bank_hash: xor with sub-partitions needs a power-of-two dram.channels, got %" PRIu64,
			       nch);
	if (hash == BANKH_IPOLY) {
		unsigned n = next_pow2((unsigned)nch) * nsub;
		if (n != 16 && n != 32 && n != 64)
			return set_err(err,
				       "l2.bank_hash: ipoly with sub-partitions hashes over dram.channels rounded up to a power "
				       "of two x l2.banks_per_channel = %u, and GPGPU-Sim's IPOLY exists for 16, 32 and 64 only",
				       n);
	}
	/* The channel digit's position and the lowest bank piece. */
	unsigned pos = m->byte_bits, nch_parts = 0;
	int ch_at = -1, bank_at = -1;
	bool pow2_below = true;
	for (unsigned i = 0; i < m->nparts; i++) {
		const struct addrmap_part *p = &m->part[i];
		if (p->field == AM_CH) {
			nch_parts++;
			if (ch_at < 0 && pow2_below)
				m->chip_bit = pos;
			if (ch_at < 0)
				ch_at = (int)i;
		}
		if (p->field == AM_BANK && bank_at < 0)
			bank_at = (int)i;
		if (!p->pow2)
			pow2_below = false;
		else
			pos += p->shift;
	}
	if (nch > 1 && nch_parts != 1)
		return set_err(err, "l2.banks_per_channel: dram.mapping must hold the channel in one piece, got %u", nch_parts);
	if (nch > 1) {
		/* the digits below the channel must be powers of two: it starts at a bit */
		for (int i = 0; i < ch_at; i++)
			if (!m->part[i].pow2)
				return set_err(err, "l2.banks_per_channel: the fields below the channel in dram.mapping must "
						    "have power-of-two sizes (the channel starts at an address bit)");
	} else if (hash != BANKH_LINEAR) {
		return set_err(err, "l2.bank_hash: %s with sub-partitions needs more than one DRAM channel",
			       hash == BANKH_XOR ? "xor" : "ipoly");
	}
	if (nsub > 1 && (bank_at < 0 || !m->part[bank_at].pow2 || m->part[bank_at].radix < nsub))
		return set_err(err, "l2.banks_per_channel: the lowest bank piece of dram.mapping must have a power-of-two "
				    "size of at least %u (its low bits select the sub-partition)",
			       nsub);
	m->nsub = nsub;
	m->sub_bits = log2u(nsub);
	m->hash = hash;
	m->sub_part = bank_at < 0 ? 0 : (unsigned)bank_at;
	/* the shortcut of addrmap_partition_addr: one channel digit above bits,
	 * the sub-partition bits (if any) in a digit above it */
	m->pa_fast = nch > 1 && (nsub == 1 || bank_at > ch_at);
	if (m->pa_fast) {
		m->ch_at = (unsigned)ch_at;
		m->low_bits = m->chip_bit - m->byte_bits;
		m->mid_radix = m->sub_radix = 1;
		if (nsub > 1) {
			for (int i = ch_at + 1; i < bank_at; i++)
				m->mid_radix *= m->part[i].radix;
			m->sub_radix = m->part[bank_at].radix;
		}
	}
	if (hash == BANKH_IPOLY) {
		unsigned n = next_pow2((unsigned)nch) * nsub;
		for (unsigned j = 0; j < 3; j++)
			for (unsigned b = 0; b < 256; b++)
				m->ipoly_tab[j][b] = (uint8_t)addrmap_ipoly((uint64_t)b << (8 * j), 0, n);
	}
	return 0;
}

static unsigned partition_mix(const struct addrmap *m, uint64_t chip, uint64_t sub, uint64_t above);

/* The shortcut's geometry (addrmap_partition_addr): the channel digit is
 * the one above the low bits, the sub-partition bits the low bits of the
 * digit mid_radix above it (the lowest bank piece: weight 1 in its field). */
unsigned addrmap_partition(const struct addrmap *m, uint64_t addr)
{
	if (!m->pa_fast)
		return addrmap_partition_digits(m, addr);
	uint64_t nch = m->part[m->ch_at].radix, a = (addr >> m->byte_bits) >> m->low_bits;
	uint64_t above = a / nch, sub = above / m->mid_radix % m->sub_radix & (m->nsub - 1);
	return partition_mix(m, a % nch, sub, above);
}

unsigned addrmap_partition_digits(const struct addrmap *m, uint64_t addr)
{
	uint64_t v[AM__N];
	fields(m, addr, v);
	return partition_of(m, addr, v);
}

unsigned addrmap_channel(const struct addrmap *m, uint64_t addr)
{
	if (m->nsub)
		return addrmap_partition(m, addr) >> m->sub_bits;
	uint64_t v[AM__N];
	fields(m, addr, v);
	return (unsigned)v[AM_CH];
}

/* v: the address's fields (fields(), no bank XOR). */
static unsigned partition_of(const struct addrmap *m, uint64_t addr, const uint64_t v[AM__N])
{
	/* what lies above the channel digit, as GPGPU-Sim reads it: with a
	 * power-of-two channel count, the bits above the channel and the
	 * sub-partition bits; otherwise the quotient by the channel count */
	return partition_mix(m, v[AM_CH], v[AM_BANK] & (m->nsub - 1), (addr >> m->chip_bit) / m->size[AM_CH]);
}

/* The sub-partition of channel digit chip, sub-partition bits sub, and
 * `above` the channel digit. */
static unsigned partition_mix(const struct addrmap *m, uint64_t chip, uint64_t sub, uint64_t above)
{
	uint64_t nch = m->size[AM_CH];
	if (m->hash == BANKH_XOR) {
		chip ^= (above >> m->sub_bits) & (nch - 1);
	} else if (m->hash == BANKH_IPOLY) {
		uint64_t h = is_pow2(nch) ? above >> m->sub_bits : above;
		unsigned idx = (unsigned)(chip * m->nsub + sub) ^ m->ipoly_tab[0][h & 255] ^ m->ipoly_tab[1][(h >> 8) & 255] ^
			       m->ipoly_tab[2][(h >> 16) & 255];
		return idx % (unsigned)(nch * m->nsub);
	}
	return (unsigned)(chip * m->nsub + sub);
}

/* The channel digit and the sub-partition bits taken out of the mixed-radix
 * number, as addrmap_partition_addr_digits does digit by digit:
 *   a = top | sub digit | mid digits | channel | low bits   (least significant right) */
uint64_t addrmap_partition_addr(const struct addrmap *m, uint64_t addr)
{
	if (!m->pa_fast)
		return addrmap_partition_addr_digits(m, addr);
	uint64_t a = addr >> m->byte_bits, lo = a & (((uint64_t)1 << m->low_bits) - 1);
	uint64_t q = (a >> m->low_bits) / m->part[m->ch_at].radix;
	if (m->nsub > 1) {
		uint64_t mid = q % m->mid_radix, q2 = q / m->mid_radix;
		uint64_t sd = q2 % m->sub_radix, top = q2 / m->sub_radix;
		q = mid + m->mid_radix * ((sd >> m->sub_bits) + (m->sub_radix >> m->sub_bits) * top);
	}
	return (lo | q << m->low_bits) << m->byte_bits | (addr & (((uint64_t)1 << m->byte_bits) - 1));
}

uint64_t addrmap_partition_addr_digits(const struct addrmap *m, uint64_t addr)
{
	uint64_t a = addr >> m->byte_bits, res = 0, mult = 1;
	for (unsigned i = 0; i < m->nparts; i++) {
		const struct addrmap_part *p = &m->part[i];
		uint64_t d = digit(p, &a), radix = p->radix;
		if (p->field == AM_CH)
			continue;
		if (i == m->sub_part && p->field == AM_BANK) {
			d >>= m->sub_bits;
			radix >>= m->sub_bits;
		}
		res += d * mult;
		mult *= radix;
	}
	res += a * mult; /* above the map: kept, so no two addresses alias */
	return res << m->byte_bits | (addr & (((uint64_t)1 << m->byte_bits) - 1));
}

uint64_t addrmap_encode(const struct addrmap *m, const struct dram_addr *x)
{
	uint64_t v[AM__N] = {x->ch, x->rank, x->bank, x->row, x->col};
	if (m->bank_xor)
		v[AM_BANK] ^= v[AM_ROW] & (m->size[AM_BANK] - 1);
	uint64_t a = 0;
	/* Most significant digit first: a = a * radix + digit. */
	uint64_t div[AM__N] = {1, 1, 1, 1, 1};
	for (unsigned i = 0; i < m->nparts; i++)
		div[m->part[i].field] *= m->part[i].radix;
	for (unsigned i = m->nparts; i-- > 0;) {
		const struct addrmap_part *p = &m->part[i];
		div[p->field] /= p->radix;
		uint64_t d = (v[p->field] / div[p->field]) % p->radix;
		a = a * p->radix + d;
	}
	return a << m->byte_bits;
}

uint64_t addrmap_capacity(const struct addrmap *m)
{
	uint64_t c = 1;
	for (unsigned i = 0; i < m->nparts; i++)
		c *= m->part[i].radix;
	return c << m->byte_bits;
}

uint64_t addrmap_low_cols(const struct addrmap *m)
{
	if (!m->nparts)
		return 1;
	return m->part[0].field == AM_COL ? m->part[0].radix : 1;
}

void addrmap_describe(const struct addrmap *m, struct strbuf *out)
{
	/* Bit positions are exact while every lower digit is a power of two. */
	unsigned lo[ADDRMAP_MAX_PARTS];
	bool exact[ADDRMAP_MAX_PARTS];
	unsigned pos = m->byte_bits;
	bool ok = true;
	for (unsigned i = 0; i < m->nparts; i++) {
		lo[i] = pos;
		exact[i] = ok && m->part[i].pow2;
		ok = exact[i];
		pos += m->part[i].pow2 ? m->part[i].shift : 0;
	}
	for (unsigned i = m->nparts; i-- > 0;) {
		const struct addrmap_part *p = &m->part[i];
		if (exact[i])
			sb_printf(out, "%s[%u:%u] ", field_names[p->field], lo[i] + p->shift - 1, lo[i]);
		else
			sb_printf(out, "%s(x%" PRIu64 ") ", field_names[p->field], p->radix);
	}
	if (m->byte_bits)
		sb_printf(out, "byte[%u:0]", m->byte_bits - 1);
}
