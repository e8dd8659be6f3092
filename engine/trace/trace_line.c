/*
 * trace_line.c: one Accel-Sim .traceg instruction line, token by token (the
 * indexer in trace.c and the replay in trace_replay.c read lines through
 * trace_parse_head and trace_parse_inst).
 *
 * Instruction line (tracer version >= 3; "[L]" only with -enable lineinfo = 1):
 *
 *   [L] PC MASK NDST [Rd] OPCODE NSRC [Rs ...] WIDTH [MODE ADDRESSES] [IMM ...]
 *
 *   MODE 0  list:        one hex address per active lane
 *   MODE 1  base+stride: hex base, decimal stride; k-th active lane = base + k*stride
 *   MODE 2  base+deltas: hex base, then one decimal delta per further active
 *                        lane, each relative to the previous active lane
 *
 * Tokens after the addresses (the immediate of tracer 4+, two of version 6)
 * are ignored. Lanes are bit i of MASK (the tracer prints active & predicate).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "trace_int.h"
#include "sim/util.h"

/* ---- tokens ------------------------------------------------------------ */

static bool tok_start(struct cur *c)
{
	while (c->p < c->e && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
	return c->p < c->e;
}

static bool is_end(const struct cur *c) { return c->p >= c->e || *c->p == ' ' || *c->p == '\t' || *c->p == '\r'; }

static bool fail(struct cur *c, const char *what)
{
	c->what = what;
	c->at = c->p;
	return false;
}

/* A token read fine but its value is out of range: point at the token. */
static bool fail_tok(struct cur *c, const char *start, const char *what)
{
	c->p = start;
	tok_start(c);
	return fail(c, what);
}

static bool get_hex(struct cur *c, uint64_t *v, const char *what)
{
	if (!tok_start(c))
		return fail(c, what);
	const char *s = c->p;
	if (c->e - c->p > 2 && c->p[0] == '0' && (c->p[1] == 'x' || c->p[1] == 'X'))
		c->p += 2;
	uint64_t x = 0;
	int n = 0;
	for (; c->p < c->e; c->p++, n++) {
		unsigned char ch = (unsigned char)*c->p;
		unsigned d = 99u;
		if (ch >= '0' && ch <= '9')
			d = ch - 48u;
		else if (ch >= 'a' && ch <= 'f')
			d = ch - 87u;
		else if (ch >= 'A' && ch <= 'F')
			d = ch - 55u;
		if (d == 99u)
			break;
		x = x << 4 | d;
	}
	if (n == 0 || n > 16 || !is_end(c)) {
		c->p = s;
		return fail(c, what);
	}
	*v = x;
	return true;
}

static bool get_dec(struct cur *c, int64_t *v, bool sign_ok, const char *what)
{
	if (!tok_start(c))
		return fail(c, what);
	const char *s = c->p;
	bool neg = false;
	if (sign_ok && (*c->p == '-' || *c->p == '+'))
		neg = *c->p++ == '-';
	uint64_t x = 0;
	int n = 0;
	for (; c->p < c->e && *c->p >= '0' && *c->p <= '9'; c->p++, n++)
		x = x * 10 + (uint64_t)(*c->p - '0');
	if (n == 0 || n > 19 || !is_end(c)) {
		c->p = s;
		return fail(c, what);
	}
	*v = neg ? -(int64_t)x : (int64_t)x;
	return true;
}

static bool get_reg(struct cur *c, unsigned *r, const char *what)
{
	if (!tok_start(c) || *c->p != 'R')
		return fail(c, what);
	const char *s = c->p++;
	unsigned x = 0;
	int n = 0;
	for (; c->p < c->e && *c->p >= '0' && *c->p <= '9' && n < 4; c->p++, n++)
		x = x * 10 + (unsigned)(*c->p - '0');
	if (n == 0 || x > 255 || !is_end(c)) {
		c->p = s;
		return fail(c, what);
	}
	*r = x;
	return true;
}

bool trace_parse_head(struct cur *c, int lineinfo, uint64_t *pc, uint32_t *mask)
{
	int64_t v;
	uint64_t u;
	if (lineinfo && !get_dec(c, &v, false, "a source line number"))
		return false;
	if (!get_hex(c, pc, "a hex PC") || !get_hex(c, &u, "a hex active mask"))
		return false;
	*mask = (uint32_t)u;
	return true;
}

/* Parse one instruction line [p, e). */
/* NDST [Rd ...]: the first register other than RZ (255) is the destination. */
static bool get_dsts(struct cur *c, struct tline *t)
{
	int64_t v;
	const char *ts = c->p;
	if (!get_dec(c, &v, false, "the destination register count"))
		return false;
	if (v > 2)
		return fail_tok(c, ts, "a destination register count of 0, 1 or 2");
	t->ndst = 0;
	t->dst = 0; /* copied into the arena (hashed) even when ndst == 0 */
	for (int64_t i = 0; i < v; i++) {
		unsigned r;
		if (!get_reg(c, &r, "a destination register (R0..R255)"))
			return false;
		if (t->ndst == 0 && r != 255) {
			t->dst = r;
			t->ndst = 1;
		}
	}
	return true;
}

static bool get_opcode(struct cur *c, struct tline *t)
{
	if (!tok_start(c) || (*c->p < 'A' || *c->p > 'Z'))
		return fail(c, "an opcode (upper-case SASS mnemonic)");
	t->op = c->p;
	while (!is_end(c)) {
		/* SASS mnemonics are letters, digits, '.' and '_'; anything else
		 * (a NUL byte, say) is not an opcode to look up. */
		unsigned char ch = (unsigned char)*c->p;
		if (!(ch >= 'A' && ch <= 'Z') && !(ch >= 'a' && ch <= 'z') && !(ch >= '0' && ch <= '9') && ch != '.' &&
		    ch != '_')
			return fail_tok(c, t->op, "an opcode (upper-case SASS mnemonic)");
		c->p++;
	}
	t->oplen = (size_t)(c->p - t->op);
	return true;
}

/* NSRC [Rs ...]: up to three distinct registers other than RZ are kept. */
static bool get_srcs(struct cur *c, struct tline *t)
{
	int64_t v;
	const char *ts = c->p;
	if (!get_dec(c, &v, false, "the source register count"))
		return false;
	if (v > 8)
		return fail_tok(c, ts, "a source register count of 0 to 8");
	t->nsrc = 0;
	for (int64_t i = 0; i < v; i++) {
		unsigned r;
		if (!get_reg(c, &r, "a source register (R0..R255)"))
			return false;
		bool dup = r == 255;
		for (unsigned k = 0; k < t->nsrc; k++)
			dup |= t->src[k] == r;
		if (!dup && t->nsrc < 3)
			t->src[t->nsrc++] = r;
	}
	return true;
}

/* MODE ADDRESSES of a memory instruction: one address per active lane. */
static bool get_addrs(struct cur *c, struct tline *t)
{
	int64_t v;
	const char *ts = c->p;
	if (!get_dec(c, &v, false, "an address mode (0 list, 1 base+stride, 2 base+deltas)"))
		return false;
	if (v > 2)
		return fail_tok(c, ts, "an address mode of 0 (list), 1 (base+stride) or 2 (base+deltas)");
	t->mode = (unsigned)v;
	uint32_t m = t->mask;
	if (t->mode == 0) {
		for (unsigned l = 0; l < TLANES; l++)
			if (m >> l & 1 && !get_hex(c, &t->addr[l], "one hex address per active lane (address mode 0)"))
				return false;
	} else if (t->mode == 1) {
		uint64_t base;
		if (!get_hex(c, &base, "a hex base address (address mode 1)") ||
		    !get_dec(c, &v, true, "a decimal stride (address mode 1)"))
			return false;
		uint64_t a = base;
		for (unsigned l = 0; l < TLANES; l++)
			if (m >> l & 1) {
				t->addr[l] = a;
				a += (uint64_t)v;
			}
	} else {
		uint64_t a;
		if (!get_hex(c, &a, "a hex base address (address mode 2)"))
			return false;
		bool first = true;
		for (unsigned l = 0; l < TLANES; l++) {
			if (!(m >> l & 1))
				continue;
			if (!first) {
				if (!get_dec(c, &v, true, "one decimal delta per active lane after the first (address mode 2)"))
					return false;
				a += (uint64_t)v;
			}
			t->addr[l] = a;
			first = false;
		}
	}
	return true;
}

bool trace_parse_inst(struct cur *c, int lineinfo, struct tline *t)
{
	int64_t v;
	uint64_t u;
	if (lineinfo && !get_dec(c, &v, false, "a source line number (-enable lineinfo = 1)"))
		return false;
	if (!get_hex(c, &t->pc, "a hex PC"))
		return false;
	const char *ms = c->p;
	if (!get_hex(c, &u, "a hex active mask of at most 32 lanes"))
		return false;
	if (u > 0xffffffffu)
		return fail_tok(c, ms, "a hex active mask of at most 32 lanes");
	t->mask = (uint32_t)u;
	if (!get_dsts(c, t) || !get_opcode(c, t) || !get_srcs(c, t))
		return false;
	const char *ts = c->p;
	if (!get_dec(c, &v, false, "the memory width in bytes (0 = not a memory instruction)"))
		return false;
	if (v > 4096)
		return fail_tok(c, ts, "a memory width of 0 to 4096 bytes");
	t->width = (unsigned)v;
	t->mode = 0;
	return t->width == 0 || get_addrs(c, t);
}
