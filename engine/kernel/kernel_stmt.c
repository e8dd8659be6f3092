/*
 * kernel_stmt.c: compiles the body of a kernel, one statement at a time in
 * program order, with a stack of open loop/if statements that pairs each
 * `else`/`end` with its opener, and the default register rule applied as
 * statements are met.
 *
 * Default register rule (when a statement has no `-> rD` / `<- rS`):
 *   - ld, ldsh and alu write a register: the k-th such statement in program
 *     order (k from 0, annotated ones included) writes r(1 + k mod (nregs-1)),
 *     so r0 is never written by default;
 *   - alu reads the last two registers written before it (program order);
 *   - st, stsh and atom read the last register written before them;
 *   - atom writes no register unless annotated (`atom H[i] -> r5` models an
 *     atomic whose old value is used);
 *   - ld and ldsh read no register unless annotated (`<- r1` models a load
 *     whose address depends on an earlier load, e.g. pointer chasing);
 *   - `-> r(EXPR)` picks the destination when the statement runs (EXPR mod
 *     nregs, warp-uniform), so `ld A[i] -> r(1 + i)` in a loop behaves like
 *     an unrolled loop whose loads do not wait for each other (the core's
 *     scoreboard stalls on writes to a pending register). Such a statement
 *     is not counted by the rule above and later defaults ignore it.
 * So `ld A; ld B; alu 4; st C` is r1 = A; r2 = B; r3 = r1 op r2; C = r3: the
 * store waits for the alu, which waits for both loads.
 *
 * Errors name the kernel, the statement (1-based) with its text, and the
 * 1-based column: "kernel vecadd, statement 3 (ld A[tid+]), column 10:
 * expected an operand".
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernel_int.h"
#include "sim/util.h"

/* ---- statements ------------------------------------------------------- */

struct sp { /* statement parser */
	struct cc *cc;
	const char *s;
	size_t p;
	unsigned idx; /* 0-based statement index */
};

static int serr(struct sp *sp, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int serr(struct sp *sp, size_t at, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return set_err(sp->cc->err, "kernel %s, statement %u (%s), column %zu: %s", sp->cc->kname,
	               sp->idx + 1, sp->s, at + 1, msg);
}

static void ws(struct sp *sp)
{
	while (sp->s[sp->p] == ' ' || sp->s[sp->p] == '\t')
		sp->p++;
}

/* Identifier at the cursor: its length (0 if none), cursor moved past it. */
static size_t ident(struct sp *sp)
{
	size_t at = sp->p;
	char ch = sp->s[at];
	if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'))
		return 0;
	while ((ch = sp->s[sp->p]),
	       (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || (ch >= '0' && ch <= '9'))
		sp->p++;
	return sp->p - at;
}

static int expr(struct sp *sp, struct kexpr *e)
{
	struct kexpr_err ee = {0};
	ws(sp);
	if (kexpr_compile(&sp->cc->k->code, sp->s, &sp->p, kernel_resolve, sp->cc, e, &ee))
		return serr(sp, ee.col - 1, "%s", ee.msg);
	return 0;
}

static bool at_end(const struct sp *sp)
{
	return sp->s[sp->p] == '\0' || sp->s[sp->p] == '#';
}

static int reg(struct sp *sp, uint8_t *r)
{
	ws(sp);
	size_t at = sp->p;
	if (sp->s[at] != 'r' && sp->s[at] != 'R')
		return serr(sp, at, "expected a register (r0, r1, ...)");
	sp->p++;
	unsigned v = 0;
	if (sp->s[sp->p] < '0' || sp->s[sp->p] > '9')
		return serr(sp, at, "expected a register (r0, r1, ...)");
	while (sp->s[sp->p] >= '0' && sp->s[sp->p] <= '9' && v < 100000)
		v = v * 10 + (unsigned)(sp->s[sp->p++] - '0');
	if (v >= sp->cc->k->nregs)
		return serr(sp, at, "register r%u out of range (nregs = %u)", v, sp->cc->k->nregs);
	*r = (uint8_t)v;
	return 0;
}

/* Optional `-> rD` and `<- rA, rB, rC`, then the end of the statement. */
static int annotations(struct sp *sp, struct kstmt *st, bool *has_dst, bool *has_src, bool dst_ok,
                       bool src_ok)
{
	for (;;) {
		ws(sp);
		size_t at = sp->p;
		if (at_end(sp))
			return 0;
		if (sp->s[at] == '-' && sp->s[at + 1] == '>') {
			if (!dst_ok)
				return serr(sp, at, "this statement writes no register (no '->')");
			if (*has_dst)
				return serr(sp, at, "'->' given twice");
			sp->p += 2;
			ws(sp);
			if ((sp->s[sp->p] == 'r' || sp->s[sp->p] == 'R') && sp->s[sp->p + 1] == '(') {
				/* r(EXPR): chosen per execution, e.g. r(1 + i) to "unroll" a loop */
				size_t open = sp->p + 1;
				sp->p += 2;
				if (expr(sp, &st->dst_e))
					return -1;
				if (st->dst_e.varying)
					return serr(sp, open + 1,
					            "a register expression must be the same for the whole "
					            "warp (no tx, ty, tz, lane, tid)");
				ws(sp);
				if (sp->s[sp->p] != ')')
					return serr(sp, sp->p, "expected ')'");
				sp->p++;
				st->dst_dyn = true;
			} else if (reg(sp, &st->dst)) {
				return -1;
			}
			st->ndst = 1;
			*has_dst = true;
		} else if (sp->s[at] == '<' && sp->s[at + 1] == '-') {
			if (!src_ok)
				return serr(sp, at, "this statement reads no register (no '<-')");
			if (*has_src)
				return serr(sp, at, "'<-' given twice");
			sp->p += 2;
			*has_src = true;
			for (;;) {
				if (st->nsrc == 3)
					return serr(sp, sp->p, "at most 3 source registers");
				if (reg(sp, &st->src[st->nsrc]))
					return -1;
				st->nsrc++;
				ws(sp);
				if (sp->s[sp->p] != ',')
					break;
				sp->p++;
			}
		} else {
			return serr(sp, at, "unexpected text '%s' (expected '-> rD', '<- rS' or the end)",
			            sp->s + at);
		}
	}
}

/* Register state for the default rule. */
struct regs {
	unsigned k;      /* register-writing statements so far */
	unsigned nlast;  /* how many of last[] are valid */
	uint8_t last[2]; /* last[0] = most recent destination */
};

static void apply_reg_rule(struct kernel *k, struct regs *rs, struct kstmt *st, bool has_dst, bool has_src)
{
	bool writes = st->kind == KS_LD || st->kind == KS_LDSH || st->kind == KS_ALU || has_dst;
	if (!has_src) {
		if (st->kind == KS_ALU) {
			for (unsigned i = rs->nlast; i-- > 0;)
				st->src[st->nsrc++] = rs->last[i];
		} else if ((st->kind == KS_ST || st->kind == KS_STSH || st->kind == KS_ATOM) && rs->nlast) {
			st->src[st->nsrc++] = rs->last[0];
		}
	}
	if (!writes || st->dst_dyn) /* r(EXPR) is not a register the rule can name */
		return;
	if (!has_dst) {
		st->dst = (uint8_t)(1 + rs->k % (k->nregs - 1));
		st->ndst = 1;
	}
	rs->k++;
	rs->last[1] = rs->last[0];
	rs->last[0] = st->dst;
	rs->nlast = MIN(rs->nlast + 1, 2u);
}

static int array_ref(struct sp *sp, struct kstmt *st)
{
	const struct kernel *k = sp->cc->k;
	ws(sp);
	size_t at = sp->p, len = ident(sp);
	if (!len)
		return serr(sp, at, "expected an array name");
	unsigned a;
	for (a = 0; a < k->narrays; a++)
		if (kernel_name_eq(k->arrays[a].name, sp->s + at, len))
			break;
	if (a == k->narrays)
		return serr(sp, at, "unknown array '%.*s'", (int)len, sp->s + at);
	st->base = k->arrays[a].base;
	st->elem = k->arrays[a].elem;
	st->vload = st->kind == KS_LD && k->arrays[a].has_init ? (uint8_t)(a + 1) : 0;
	st->size = (uint8_t)k->arrays[a].elem;
	ws(sp);
	if (sp->s[sp->p] != '[')
		return serr(sp, sp->p, "expected '[' after the array name");
	sp->p++;
	if (expr(sp, &st->e))
		return -1;
	ws(sp);
	if (sp->s[sp->p] != ']')
		return serr(sp, sp->p, "expected ']'");
	sp->p++;
	return 0;
}

/* `.glc` / `.slc` right after ld / st / atom (the cursor is on the '.'). */
static int cache_op(struct sp *sp, struct kstmt *st)
{
	size_t at = ++sp->p, len = ident(sp);
	const char *t = sp->s + at;
	if (len == 3 && kernel_name_eq("glc", t, len))
		st->cop = KCOP_GLC;
	else if (len == 3 && kernel_name_eq("slc", t, len))
		st->cop = KCOP_SLC;
	else
		return serr(sp, at, "unknown cache operator '%.*s' (expected glc or slc)", (int)len, t);
	if (st->kind == KS_ATOM && st->cop == KCOP_SLC)
		return serr(sp, at,
		            "atom.slc is not supported: atomics execute in the L2, which must hold the line "
		            "(use atom or atom.glc)");
	return 0;
}

/* `alu.UNIT` (the cursor is on the '.'): the execution unit, enum kunit. */
static int alu_unit(struct sp *sp, struct kstmt *st)
{
	size_t at = ++sp->p, len = ident(sp);
	const char *t = sp->s + at;
	int u = kunit_find(t, len);
	if (u < 0)
		return serr(sp, at, "unknown unit '%.*s' (expected sp, int, dp, sfu, tensor or branch)", (int)len, t);
	st->unit = (uint8_t)u;
	return 0;
}

static int loop_header(struct sp *sp, struct kstmt *st)
{
	struct cc *cc = sp->cc;
	ws(sp);
	size_t at = sp->p, len = ident(sp);
	if (!len)
		return serr(sp, at, "expected a loop variable name");
	const char *name = sp->s + at;
	struct kexpr_sym sym;
	if (len >= KNAME_MAX)
		return serr(sp, at, "loop variable name too long");
	if (kernel_reserved(name, len))
		return serr(sp, at, "'%.*s' is a built-in name, not usable as a loop variable", (int)len,
		            name);
	if (kernel_resolve(cc, name, len, &sym) == 0)
		return serr(sp, at, "'%.*s' is already a param or an enclosing loop variable", (int)len,
		            name);
	/* Split FROM TO [STEP] at top-level commas if there are any, else at spaces. */
	size_t off[4], plen[4], nparts = 0, p = sp->p, depth = 0;
	bool commas = false;
	for (size_t q = p; sp->s[q] && sp->s[q] != '#'; q++) {
		depth += sp->s[q] == '(';
		depth -= depth && sp->s[q] == ')';
		commas |= !depth && sp->s[q] == ',';
	}
	for (;;) {
		while (sp->s[p] == ' ' || sp->s[p] == '\t')
			p++;
		if (!sp->s[p] || sp->s[p] == '#')
			break;
		if (nparts == 3)
			return serr(
			    sp, p,
			    "too many loop bounds (loop VAR FROM TO [STEP]; put a bound with spaces in "
			    "parentheses or separate the bounds with commas)");
		off[nparts] = p;
		for (depth = 0; sp->s[p] && sp->s[p] != '#'; p++) {
			char ch = sp->s[p];
			if (!depth && (commas ? ch == ',' : (ch == ' ' || ch == '\t')))
				break;
			depth += ch == '(';
			depth -= depth && ch == ')';
		}
		plen[nparts] = p - off[nparts];
		while (plen[nparts] && (sp->s[off[nparts] + plen[nparts] - 1] == ' ' ||
		                        sp->s[off[nparts] + plen[nparts] - 1] == '\t'))
			plen[nparts]--;
		nparts++;
		if (sp->s[p] == ',' && commas)
			p++;
	}
	sp->p = p;
	if (nparts < 2)
		return serr(sp, p, "expected the loop bound TO (loop VAR FROM TO [STEP])");
	struct kexpr *parts[3] = {&st->e, &st->to, &st->step};
	st->step = (struct kexpr){.is_const = true, .value = 1};
	for (size_t i = 0; i < nparts; i++) {
		char buf[128];
		size_t pos = 0;
		struct kexpr_err ee = {0};
		snprintf(buf, sizeof(buf), "%.*s", (int)plen[i], sp->s + off[i]);
		if (kexpr_compile(&cc->k->code, buf, &pos, kernel_resolve, cc, parts[i], &ee))
			return serr(sp, off[i] + ee.col - 1, "%s", ee.msg);
		if (buf[pos])
			return serr(sp, off[i] + pos, "unexpected '%c' in a loop bound", buf[pos]);
	}
	if (st->step.is_const && st->step.value == 0)
		return serr(sp, off[2], "loop step is 0");
	memcpy(cc->open[cc->depth].var, name, len);
	cc->open[cc->depth].var[len] = '\0';
	return 0;
}

/* `alu N`: N is a constant (params and dimensions only), 1..65535. */
static int alu_cycles(struct sp *sp, struct kstmt *st)
{
	struct cc *cc = sp->cc;
	struct kexpr e;
	ws(sp);
	size_t at = sp->p;
	enum scope save = cc->scope;
	cc->scope = SC_DIMS;
	int rc = expr(sp, &e);
	cc->scope = save;
	if (rc)
		return -1;
	if (e.value < 1 || e.value > 65535)
		return serr(sp, at, "alu cycles = %lld, must be 1..65535", (long long)e.value);
	cc->k->code.n = e.off; /* folded constant: drop its code */
	st->alu_cycles = (uint16_t)e.value;
	return 0;
}

/* `loop ...` or `if COND` at statement pc: its header, and a new open level. */
static int open_ctl(struct sp *sp, struct kstmt *st, size_t kw_at, uint16_t pc)
{
	struct cc *cc = sp->cc;
	if (cc->depth == KMAX_DEPTH)
		return serr(sp, kw_at, "loops and ifs nested deeper than %d", KMAX_DEPTH);
	if (st->kind == KS_LOOP ? loop_header(sp, st) : expr(sp, &st->e))
		return -1;
	ws(sp);
	if (!at_end(sp))
		return serr(sp, sp->p, "unexpected text after the condition");
	st->depth = (uint8_t)cc->depth;
	cc->open[cc->depth].pc = pc;
	cc->open[cc->depth].is_loop = st->kind == KS_LOOP;
	cc->open[cc->depth].has_else = false;
	cc->depth++;
	return 0;
}

/* `else` or `end` (kw) at statement pc: links it with the open loop or if;
 * `end` closes the level (an end_if when an if is open). */
static int close_ctl(struct sp *sp, struct kstmt *st, const char *kw, size_t kw_at, uint16_t pc)
{
	struct cc *cc = sp->cc;
	struct kernel *k = cc->k;
	ws(sp);
	if (!at_end(sp))
		return serr(sp, sp->p, "unexpected text after '%s'", kw);
	bool is_else = st->kind == KS_ELSE;
	if (cc->depth == 0)
		return serr(sp, kw_at, "'%s' without an open %s", kw, is_else ? "if" : "loop or if");
	struct open_ctl *o = &cc->open[cc->depth - 1];
	struct kstmt *opener = &k->st[o->pc];
	st->depth = (uint8_t)(cc->depth - 1);
	if (is_else) {
		if (o->is_loop)
			return serr(sp, kw_at, "'else' inside a loop opened at statement %u (close the loop first)",
				    o->pc + 1);
		if (o->has_else)
			return serr(sp, kw_at, "second 'else' for the if at statement %u", o->pc + 1);
		o->has_else = true;
		opener->else_pc = pc;
		st->match = o->pc;
		return 0;
	}
	st->kind = o->is_loop ? KS_END_LOOP : KS_END_IF;
	st->match = o->pc;
	opener->match = pc;
	if (o->has_else)
		k->st[opener->else_pc].match = pc;
	if (o->is_loop) {
		bool produces = false;
		for (unsigned j = o->pc + 1u; j < pc; j++)
			produces |= k->st[j].kind >= KS_LD && k->st[j].kind <= KS_BAR;
		if (!produces)
			return serr(sp, kw_at, "the loop opened at statement %u has an empty body", o->pc + 1);
	}
	cc->depth--;
	return 0;
}

static int compile_stmt(struct sp *sp, struct regs *rs)
{
	struct cc *cc = sp->cc;
	struct kernel *k = cc->k;
	struct kstmt *st = &k->st[sp->idx];
	bool has_dst = false, has_src = false;
	uint16_t pc = (uint16_t)sp->idx;
	ws(sp);
	size_t kw_at = sp->p, kwlen = ident(sp);
	const char *kw = sp->s + kw_at;
	st->else_pc = KNO_PC;
	cc->used_val = false;
	if (kwlen == 0) {
		if (!at_end(sp))
			return serr(sp, kw_at,
			            "expected a statement (ld, st, atom, ldsh, stsh, alu, bar, loop, if, "
			            "else or end)");
		st->kind = KS_NOP;
		return 0;
	}
	static const struct {
		const char *kw;
		uint8_t kind, op;
	} kws[] = {
	    {"ld", KS_LD, KOP_LD},       {"st", KS_ST, KOP_ST},       {"atom", KS_ATOM, KOP_ATOM},
	    {"ldsh", KS_LDSH, KOP_LDSH}, {"stsh", KS_STSH, KOP_STSH}, {"alu", KS_ALU, KOP_ALU},
	    {"bar", KS_BAR, KOP_BAR},    {"loop", KS_LOOP, 0},        {"if", KS_IF, 0},
	    {"else", KS_ELSE, 0},        {"end", KS_END_LOOP, 0},
	};
	unsigned i;
	for (i = 0; i < ARRAY_LEN(kws); i++)
		if (kernel_name_eq(kws[i].kw, kw, kwlen))
			break;
	if (i == ARRAY_LEN(kws))
		return serr(sp, kw_at,
		            "unknown statement '%.*s' (expected ld, st, atom, ldsh, stsh, alu, bar, loop, "
		            "if, else or end)",
		            (int)kwlen, kw);
	st->kind = kws[i].kind;
	st->op = kws[i].op;
	switch (st->kind) {
	case KS_LD:
	case KS_ST:
	case KS_ATOM:
		if (sp->s[sp->p] == '.' && cache_op(sp, st))
			return -1;
		if (array_ref(sp, st) || annotations(sp, st, &has_dst, &has_src, st->kind != KS_ST, true))
			return -1;
		break;
	case KS_LDSH:
	case KS_STSH:
		st->size = 4;
		st->elem = 1; /* byte offset into shared memory */
		if (expr(sp, &st->e) || annotations(sp, st, &has_dst, &has_src, st->kind == KS_LDSH, true))
			return -1;
		break;
	case KS_ALU:
		if (sp->s[sp->p] == '.' && alu_unit(sp, st))
			return -1;
		if (alu_cycles(sp, st) || annotations(sp, st, &has_dst, &has_src, true, true))
			return -1;
		break;
	case KS_BAR:
		if (annotations(sp, st, &has_dst, &has_src, false, false))
			return -1;
		break;
	case KS_LOOP:
	case KS_IF:
		if (open_ctl(sp, st, kw_at, pc))
			return -1;
		if (cc->used_val)
			return serr(sp, kw_at,
			            "'val' may only be used in the address of a memory statement (a %s on "
			            "loaded data would need a register the scoreboard could wait on)",
			            st->kind == KS_LOOP ? "loop" : "branch");
		return 0;
	case KS_ELSE:
	case KS_END_LOOP:
		return close_ctl(sp, st, kws[i].kw, kw_at, pc);
	}
	if (cc->used_val && !has_src)
		return serr(sp, kw_at,
		            "the address uses 'val': name the register the value load wrote (<- rN), "
		            "so this statement waits until the value is back");
	apply_reg_rule(k, rs, st, has_dst, has_src);
	return 0;
}

int kstmt_compile_body(struct cc *cc, const struct kernel_src *src)
{
	struct kernel *k = cc->k;
	struct regs rs = {0};
	if (src->nbody == 0)
		return set_err(cc->err, "kernel %s: the body is empty", cc->kname);
	if (src->nbody > KMAX_STMTS)
		return set_err(cc->err, "kernel %s: %u statements, at most %d", cc->kname, src->nbody,
		               KMAX_STMTS);
	cc->scope = SC_BODY;
	for (unsigned i = 0; i < src->nbody; i++) {
		snprintf(k->text[i], sizeof(k->text[i]), "%.*s", (int)sizeof(src->body[i]) - 1, src->body[i]);
		struct sp sp = {.cc = cc, .s = k->text[i], .idx = i};
		k->nstmts = i + 1;
		if (compile_stmt(&sp, &rs))
			return -1;
	}
	if (cc->depth) {
		const struct open_ctl *o = &cc->open[cc->depth - 1];
		return set_err(cc->err,
		               "kernel %s, statement %u (%s), column 1: this %s has no matching 'end'",
		               cc->kname, o->pc + 1, k->text[o->pc], o->is_loop ? "loop" : "if");
	}
	return 0;
}
