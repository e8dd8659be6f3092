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

int addrmap_init(struct addrmap *m, const struct dram_cfg *c, char **err)
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

void addrmap_decode(const struct addrmap *m, uint64_t addr, struct dram_addr *out)
{
	uint64_t v[AM__N] = {0}, mult[AM__N] = {1, 1, 1, 1, 1};
	uint64_t a = addr >> m->byte_bits;
	for (unsigned i = 0; i < m->nparts; i++) {
		const struct addrmap_part *p = &m->part[i];
		uint64_t d;
		if (p->pow2) {
			d = a & (p->radix - 1);
			a >>= p->shift;
		} else {
			d = a % p->radix;
			a /= p->radix;
		}
		v[p->field] += d * mult[p->field];
		mult[p->field] *= p->radix;
	}
	if (m->bank_xor)
		v[AM_BANK] ^= v[AM_ROW] & (m->size[AM_BANK] - 1);
	out->ch = (uint32_t)v[AM_CH];
	out->rank = (uint32_t)v[AM_RANK];
	out->bank = (uint32_t)v[AM_BANK];
	out->row = (uint32_t)v[AM_ROW];
	out->col = (uint32_t)v[AM_COL];
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
