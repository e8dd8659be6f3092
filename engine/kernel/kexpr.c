/*
 * kexpr.c: expression compiler (precedence climbing straight to bytecode,
 * folding constants as it emits) and the vector VM. See kexpr.h for the
 * stack layout and the arithmetic rules.
 *
 * Precedence, loosest first (all binary operators are left-associative):
 *
 *   ||   &&   |   ^   &   == !=   < <= > >=   << >>   + -   * / %   unary - ~ !
 *
 * Primaries: integer literals (decimal, 0x hex, 0b binary), identifiers,
 * min(a,b), max(a,b), hash(x), parenthesised expressions.
 */
#include "kexpr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/util.h"

enum kop_code {
	OP_CONST,
	OP_UNI,
	OP_LANE,
	/* binary */
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_MOD,
	OP_SHL,
	OP_SHR,
	OP_AND,
	OP_OR,
	OP_XOR,
	OP_LT,
	OP_LE,
	OP_GT,
	OP_GE,
	OP_EQ,
	OP_NE,
	OP_LAND,
	OP_LOR,
	OP_MIN,
	OP_MAX,
	/* unary */
	OP_NEG,
	OP_NOT,
	OP_LNOT,
	OP_HASH,
};

/* ---- scalar semantics, shared by the folder and the VM ---------------- */

static inline int64_t wrap(uint64_t x)
{
	return (int64_t)x;
}

static inline int64_t k_div(int64_t x, int64_t y)
{
	if (y == 0)
		return 0;
	if (y == -1)
		return wrap(0 - (uint64_t)x); /* INT64_MIN / -1 wraps instead of trapping */
	return x / y;
}

static inline int64_t k_mod(int64_t x, int64_t y)
{
	return (y == 0 || y == -1) ? 0 : x % y;
}

static inline int64_t k_shr(int64_t x, int64_t y)
{
	unsigned s = (unsigned)y & 63;
	return x < 0 ? ~(int64_t)(~(uint64_t)x >> s) : (int64_t)((uint64_t)x >> s);
}

static inline int64_t k_hash(uint64_t key, int64_t x)
{
	return (int64_t)(mix64((uint64_t)x ^ key) >> 1);
}

static int64_t k_apply(const struct kexpr_code *c, unsigned op, int64_t x, int64_t y)
{
	switch (op) {
	case OP_ADD:
		return wrap((uint64_t)x + (uint64_t)y);
	case OP_SUB:
		return wrap((uint64_t)x - (uint64_t)y);
	case OP_MUL:
		return wrap((uint64_t)x * (uint64_t)y);
	case OP_DIV:
		return k_div(x, y);
	case OP_MOD:
		return k_mod(x, y);
	case OP_SHL:
		return wrap((uint64_t)x << ((unsigned)y & 63));
	case OP_SHR:
		return k_shr(x, y);
	case OP_AND:
		return x & y;
	case OP_OR:
		return x | y;
	case OP_XOR:
		return x ^ y;
	case OP_LT:
		return x < y;
	case OP_LE:
		return x <= y;
	case OP_GT:
		return x > y;
	case OP_GE:
		return x >= y;
	case OP_EQ:
		return x == y;
	case OP_NE:
		return x != y;
	case OP_LAND:
		return x && y;
	case OP_LOR:
		return x || y;
	case OP_MIN:
		return x < y ? x : y;
	case OP_MAX:
		return x > y ? x : y;
	case OP_NEG:
		return wrap(0 - (uint64_t)x);
	case OP_NOT:
		return ~x;
	case OP_LNOT:
		return !x;
	case OP_HASH:
		return k_hash(c->hash_key, x);
	}
	return 0;
}

/* ---- code buffer -------------------------------------------------------- */

void kexpr_code_init(struct kexpr_code *c, uint64_t seed)
{
	memset(c, 0, sizeof(*c));
	c->hash_key = mix64(seed);
}

void kexpr_code_fini(struct kexpr_code *c)
{
	free(c->ins);
	c->ins = NULL;
	c->n = c->cap = 0;
}

/* ---- compiler ----------------------------------------------------------- */

struct parser {
	struct kexpr_code *c;
	const char *s;
	size_t p;
	kexpr_resolve_fn resolve;
	void *ctx;
	struct kexpr_err *err;
	uint32_t start; /* first instruction of this expression */
	unsigned sp, maxsp;
	bool varying;
	bool failed;
};

static int fail(struct parser *ps, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct parser *ps, size_t at, const char *fmt, ...)
{
	if (ps->failed)
		return -1;
	ps->failed = true;
	ps->err->col = (unsigned)at + 1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static void skip_ws(struct parser *ps)
{
	while (ps->s[ps->p] == ' ' || ps->s[ps->p] == '\t')
		ps->p++;
}

static bool is_ident_start(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}
static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}
static bool is_ident_char(char ch)
{
	return is_ident_start(ch) || is_digit(ch);
}

static int emit(struct parser *ps, unsigned op, unsigned arg, int64_t imm, int delta)
{
	struct kexpr_code *c = ps->c;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->ins = xrealloc(c->ins, sizeof(*c->ins) * c->cap);
	}
	c->ins[c->n++] = (struct kins){.op = (uint8_t)op, .arg = (uint8_t)arg, .imm = imm};
	ps->sp = (unsigned)((int)ps->sp + delta);
	if (ps->sp > ps->maxsp)
		ps->maxsp = ps->sp;
	if (ps->sp > KEXPR_STACK)
		return fail(ps, ps->p, "expression too deeply nested (needs more than %d stack slots)",
		            KEXPR_STACK);
	return 0;
}

static bool last_is_const(const struct parser *ps, unsigned back)
{
	return ps->c->n >= ps->start + back && ps->c->ins[ps->c->n - back].op == OP_CONST;
}

/* Emit an operator, folding it if its operands are constants just emitted. */
static int emit_op(struct parser *ps, unsigned op, unsigned nargs)
{
	struct kexpr_code *c = ps->c;
	if (nargs == 2 && last_is_const(ps, 1) && last_is_const(ps, 2)) {
		int64_t v = k_apply(c, op, c->ins[c->n - 2].imm, c->ins[c->n - 1].imm);
		c->n--;
		c->ins[c->n - 1].imm = v;
		ps->sp--;
		return 0;
	}
	if (nargs == 1 && last_is_const(ps, 1)) {
		c->ins[c->n - 1].imm = k_apply(c, op, c->ins[c->n - 1].imm, 0);
		return 0;
	}
	return emit(ps, op, 0, 0, nargs == 2 ? -1 : 0);
}

static int parse_binary(struct parser *ps, int min_prec);

static int parse_number(struct parser *ps)
{
	size_t at = ps->p;
	const char *s = ps->s;
	unsigned base = 10;
	if (s[at] == '0' && (s[at + 1] == 'x' || s[at + 1] == 'X')) {
		base = 16;
		ps->p += 2;
	} else if (s[at] == '0' && (s[at + 1] == 'b' || s[at + 1] == 'B')) {
		base = 2;
		ps->p += 2;
	}
	uint64_t v = 0;
	size_t ndig = 0;
	for (;; ps->p++, ndig++) {
		char ch = s[ps->p];
		unsigned d;
		if (is_digit(ch))
			d = (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			d = (unsigned)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			d = (unsigned)(ch - 'A' + 10);
		else if (is_ident_char(ch))
			d = 99;
		else
			break;
		if (d >= base)
			return fail(ps, ps->p, "bad digit '%c' in integer literal", ch);
		if (v > (UINT64_MAX - d) / base)
			return fail(ps, at, "integer literal out of range");
		v = v * base + d;
	}
	if (ndig == 0)
		return fail(ps, at, "integer literal has no digits");
	if (base == 10 && v > (uint64_t)INT64_MAX)
		return fail(ps, at, "integer literal out of range");
	return emit(ps, OP_CONST, 0, (int64_t)v, +1);
}

static int expect(struct parser *ps, char ch, const char *what)
{
	skip_ws(ps);
	if (ps->s[ps->p] != ch)
		return fail(ps, ps->p, "expected %s", what);
	ps->p++;
	return 0;
}

static int parse_call(struct parser *ps, size_t at, unsigned op, unsigned nargs, const char *name)
{
	if (expect(ps, '(', "'(' after function name"))
		return -1;
	for (unsigned i = 0; i < nargs; i++) {
		if (i && expect(ps, ',', nargs == 2 ? "',' (this function takes 2 arguments)" : "','"))
			return -1;
		if (parse_binary(ps, 1))
			return -1;
	}
	skip_ws(ps);
	if (ps->s[ps->p] == ',')
		return fail(ps, ps->p, "%s() takes %u argument%s", name, nargs, nargs == 1 ? "" : "s");
	if (expect(ps, ')', "')'"))
		return -1;
	(void)at;
	return emit_op(ps, op, nargs);
}

static int parse_primary(struct parser *ps)
{
	skip_ws(ps);
	size_t at = ps->p;
	char ch = ps->s[at];
	if (ch == '(') {
		ps->p++;
		if (parse_binary(ps, 1))
			return -1;
		return expect(ps, ')', "')'");
	}
	if (ch == '-' || ch == '~' || ch == '!') {
		ps->p++;
		if (parse_primary(ps))
			return -1;
		return emit_op(ps, ch == '-' ? OP_NEG : ch == '~' ? OP_NOT : OP_LNOT, 1);
	}
	if (is_digit(ch))
		return parse_number(ps);
	if (!is_ident_start(ch)) {
		if (ch == '\0' || ch == ']' || ch == ')' || ch == ',' || ch == '#')
			return fail(ps, at, "expected an operand");
		return fail(ps, at, "unexpected character '%c'", ch);
	}
	while (is_ident_char(ps->s[ps->p]))
		ps->p++;
	size_t len = ps->p - at;
	const char *name = ps->s + at;
	if (len == 3 && !memcmp(name, "min", 3))
		return parse_call(ps, at, OP_MIN, 2, "min");
	if (len == 3 && !memcmp(name, "max", 3))
		return parse_call(ps, at, OP_MAX, 2, "max");
	if (len == 4 && !memcmp(name, "hash", 4))
		return parse_call(ps, at, OP_HASH, 1, "hash");
	struct kexpr_sym sym;
	if (!ps->resolve || ps->resolve(ps->ctx, name, len, &sym) != 0)
		return fail(ps, at, "unknown identifier '%.*s'", (int)len, name);
	switch (sym.kind) {
	case KSYM_CONST:
		return emit(ps, OP_CONST, 0, sym.value, +1);
	case KSYM_UNI:
		return emit(ps, OP_UNI, (unsigned)sym.value, 0, +1);
	case KSYM_LANE:
		ps->varying = true;
		return emit(ps, OP_LANE, (unsigned)sym.value, 0, +1);
	}
	return fail(ps, at, "internal: bad symbol kind");
}

/* Binary operator at s[p]: returns its precedence (0 = none) and length. */
static int binop_at(const char *s, size_t p, unsigned *op, size_t *len)
{
	char a = s[p], b = a ? s[p + 1] : '\0';
	*len = 2;
	if (a == '|' && b == '|')
		return *op = OP_LOR, 1;
	if (a == '&' && b == '&')
		return *op = OP_LAND, 2;
	if (a == '=' && b == '=')
		return *op = OP_EQ, 6;
	if (a == '!' && b == '=')
		return *op = OP_NE, 6;
	if (a == '<' && b == '<')
		return *op = OP_SHL, 8;
	if (a == '>' && b == '>')
		return *op = OP_SHR, 8;
	if (a == '<' && b == '=')
		return *op = OP_LE, 7;
	if (a == '>' && b == '=')
		return *op = OP_GE, 7;
	if (a == '-' && b == '>')
		return 0; /* "-> rD" annotation, not minus */
	if (a == '<' && b == '-') {
		/* "<- rS" annotation unless it is "a < -b" */
		size_t q = p + 2;
		while (s[q] == ' ' || s[q] == '\t')
			q++;
		if ((s[q] == 'r' || s[q] == 'R') && is_digit(s[q + 1]))
			return 0;
	}
	*len = 1;
	switch (a) {
	case '|':
		return *op = OP_OR, 3;
	case '^':
		return *op = OP_XOR, 4;
	case '&':
		return *op = OP_AND, 5;
	case '<':
		return *op = OP_LT, 7;
	case '>':
		return *op = OP_GT, 7;
	case '+':
		return *op = OP_ADD, 9;
	case '-':
		return *op = OP_SUB, 9;
	case '*':
		return *op = OP_MUL, 10;
	case '/':
		return *op = OP_DIV, 10;
	case '%':
		return *op = OP_MOD, 10;
	}
	return 0;
}

static int parse_binary(struct parser *ps, int min_prec)
{
	if (parse_primary(ps))
		return -1;
	for (;;) {
		size_t save = ps->p;
		skip_ws(ps);
		unsigned op;
		size_t len;
		int prec = binop_at(ps->s, ps->p, &op, &len);
		if (prec == 0 || prec < min_prec) {
			ps->p = save;
			return 0;
		}
		ps->p += len;
		if (parse_binary(ps, prec + 1))
			return -1;
		if (emit_op(ps, op, 2))
			return -1;
	}
}

int kexpr_compile(struct kexpr_code *c, const char *text, size_t *pos, kexpr_resolve_fn resolve, void *ctx,
                  struct kexpr *out, struct kexpr_err *err)
{
	struct parser ps = {
	    .c = c, .s = text, .p = *pos, .resolve = resolve, .ctx = ctx, .err = err, .start = c->n};
	if (parse_binary(&ps, 1)) {
		c->n = ps.start;
		return -1;
	}
	skip_ws(&ps);
	uint32_t len = c->n - ps.start;
	if (len > UINT16_MAX) {
		c->n = ps.start;
		return fail(&ps, *pos, "expression too long");
	}
	*out = (struct kexpr){
	    .off = ps.start, .len = (uint16_t)len, .depth = (uint8_t)ps.maxsp, .varying = ps.varying};
	if (len == 1 && c->ins[ps.start].op == OP_CONST) {
		out->is_const = true;
		out->value = c->ins[ps.start].imm;
	}
	*pos = ps.p;
	return 0;
}

/* ---- vector VM ---------------------------------------------------------- */

/* x op y over the top two slots; x is the lower slot and receives the result. */
#define VBIN(EXPR)                                                                                           \
	do {                                                                                                 \
		sp--;                                                                                        \
		int64_t *A = st->v[sp - 1];                                                                  \
		const int64_t *B = st->v[sp];                                                                \
		if (st->uni[sp - 1] && st->uni[sp]) {                                                        \
			int64_t x = A[0], y = B[0];                                                          \
			A[0] = (EXPR);                                                                       \
		} else if (st->uni[sp]) {                                                                    \
			const int64_t y = B[0];                                                              \
			for (unsigned i = lo; i < hi; i++) {                                                 \
				int64_t x = A[i];                                                            \
				A[i] = (EXPR);                                                               \
			}                                                                                    \
		} else if (st->uni[sp - 1]) {                                                                \
			const int64_t x = A[0];                                                              \
			for (unsigned i = lo; i < hi; i++) {                                                 \
				int64_t y = B[i];                                                            \
				A[i] = (EXPR);                                                               \
			}                                                                                    \
			st->uni[sp - 1] = false;                                                             \
		} else {                                                                                     \
			for (unsigned i = lo; i < hi; i++) {                                                 \
				int64_t x = A[i], y = B[i];                                                  \
				A[i] = (EXPR);                                                               \
			}                                                                                    \
		}                                                                                            \
	} while (0)

#define VUN(EXPR)                                                                                            \
	do {                                                                                                 \
		int64_t *A = st->v[sp - 1];                                                                  \
		if (st->uni[sp - 1]) {                                                                       \
			int64_t x = A[0];                                                                    \
			A[0] = (EXPR);                                                                       \
		} else {                                                                                     \
			for (unsigned i = lo; i < hi; i++) {                                                 \
				int64_t x = A[i];                                                            \
				A[i] = (EXPR);                                                               \
			}                                                                                    \
		}                                                                                            \
	} while (0)

/* The VM's operators, X(opcode, lane expression of x [and y]), for the
 * cases of kexpr_eval's one switch (one dispatch per instruction, the loops
 * over the lanes inside each case). OP_DIV and OP_MOD are not here: they try
 * pow2_divisor first. */
#define VM_BINARY_OPS(X)                                                                                     \
	X(OP_ADD, wrap((uint64_t)x + (uint64_t)y))                                                           \
	X(OP_SUB, wrap((uint64_t)x - (uint64_t)y))                                                           \
	X(OP_MUL, wrap((uint64_t)x * (uint64_t)y))                                                           \
	X(OP_SHL, wrap((uint64_t)x << ((unsigned)y & 63)))                                                   \
	X(OP_SHR, k_shr(x, y))                                                                               \
	X(OP_AND, x & y)                                                                                     \
	X(OP_OR, x | y)                                                                                      \
	X(OP_XOR, x ^ y)                                                                                     \
	X(OP_LT, x < y)                                                                                      \
	X(OP_LE, x <= y)                                                                                     \
	X(OP_GT, x > y)                                                                                      \
	X(OP_GE, x >= y)                                                                                     \
	X(OP_EQ, x == y)                                                                                     \
	X(OP_NE, x != y)                                                                                     \
	X(OP_LAND, x && y)                                                                                   \
	X(OP_LOR, x || y)                                                                                    \
	X(OP_MIN, x < y ? x : y)                                                                             \
	X(OP_MAX, x > y ? x : y)

#define VM_UNARY_OPS(X)                                                                                      \
	X(OP_NEG, wrap(0 - (uint64_t)x))                                                                     \
	X(OP_NOT, ~x)                                                                                        \
	X(OP_LNOT, !x)                                                                                       \
	X(OP_HASH, k_hash(key, x))

#define VM_BINARY_CASE(OP, EXPR)                                                                             \
	case OP:                                                                                             \
		VBIN(EXPR);                                                                                  \
		break;
#define VM_UNARY_CASE(OP, EXPR)                                                                              \
	case OP:                                                                                             \
		VUN(EXPR);                                                                                   \
		break;

static void push_lane(int64_t *dst, unsigned which, const struct kexpr_env *env, unsigned lo, unsigned hi)
{
	switch (which) {
	case KL_TX:
		for (unsigned i = lo; i < hi; i++)
			dst[i] = env->tx[i];
		break;
	case KL_TY:
		for (unsigned i = lo; i < hi; i++)
			dst[i] = env->ty[i];
		break;
	case KL_TZ:
		for (unsigned i = lo; i < hi; i++)
			dst[i] = env->tz[i];
		break;
	case KL_LANE:
		for (unsigned i = lo; i < hi; i++)
			dst[i] = i;
		break;
	case KL_VAL:
		for (unsigned i = lo; i < hi; i++)
			dst[i] = env->val[i];
		break;
	case KL_IDX:
		for (unsigned i = lo; i < hi; i++)
			dst[i] = env->idx[i];
		break;
	default:
		for (unsigned i = lo; i < hi; i++)
			dst[i] = env->tid0 + i;
		break;
	}
}

/*
 * x / 2^s and x % 2^s for a varying x and a uniform power-of-two divisor (the
 * common `hash(i) % n`), without a hardware divide per lane; same truncating
 * semantics as k_div/k_mod. Returns false if the fast path does not apply.
 */
static bool pow2_divisor(struct kexpr_stack *st, unsigned sp, unsigned lo, unsigned hi, bool mod)
{
	if (st->uni[sp - 2] || !st->uni[sp - 1])
		return false;
	int64_t y = st->v[sp - 1][0];
	if (y <= 0 || (y & (y - 1)))
		return false;
	unsigned s = (unsigned)__builtin_ctzll((uint64_t)y);
	int64_t *A = st->v[sp - 2];
	const uint64_t m = (uint64_t)y - 1;
	for (unsigned i = lo; i < hi; i++) {
		int64_t x = A[i];
		int64_t q = k_shr(wrap((uint64_t)x + ((uint64_t)k_shr(x, 63) & m)), s);
		A[i] = mod ? wrap((uint64_t)x - ((uint64_t)q << s)) : q;
	}
	return true;
}

const int64_t *kexpr_eval(const struct kexpr_code *c, const struct kexpr *e, const struct kexpr_env *env,
                          unsigned lo, unsigned hi, struct kexpr_stack *st, bool *uniform)
{
	const struct kins *ip = c->ins + e->off, *end = ip + e->len;
	const uint64_t key = c->hash_key;
	unsigned sp = 0;
	for (; ip < end; ip++) {
		switch (ip->op) {
		case OP_CONST:
			st->v[sp][0] = ip->imm;
			st->uni[sp++] = true;
			break;
		case OP_UNI:
			st->v[sp][0] = env->uni[ip->arg];
			st->uni[sp++] = true;
			break;
		case OP_LANE:
			push_lane(st->v[sp], ip->arg, env, lo, hi);
			st->uni[sp++] = false;
			break;
		case OP_DIV:
			if (pow2_divisor(st, sp, lo, hi, false))
				sp--;
			else
				VBIN(k_div(x, y));
			break;
		case OP_MOD:
			if (pow2_divisor(st, sp, lo, hi, true))
				sp--;
			else
				VBIN(k_mod(x, y));
			break;
			/* every other operator: a case each, from the tables above */
			VM_BINARY_OPS(VM_BINARY_CASE)
			VM_UNARY_OPS(VM_UNARY_CASE)
		}
	}
	*uniform = st->uni[0];
	return st->v[0];
}

int64_t kexpr_eval1(const struct kexpr_code *c, const struct kexpr *e, const struct kexpr_env *env,
                    unsigned lane)
{
	if (e->is_const)
		return e->value;
	struct kexpr_stack st;
	bool uni;
	const int64_t *r = kexpr_eval(c, e, env, lane, lane + 1, &st, &uni);
	return uni ? r[0] : r[lane];
}
