/*
 * lesson_expr.c: the values a lesson reads from the machine (docs/LESSONS.md,
 * "Values"). A value is an arithmetic expression over terms:
 *
 *   cycle            the current cycle
 *   event.FIELD      a field of the event the last run stopped at
 *   stat.NAME        any stat
 *   saved.NAME       a value an earlier step recorded ("record")
 *   cfg.PATH         a numeric config parameter (cfg.l1.line_bytes)
 *   param.NAME       a kernel parameter (param.n)
 *   NUMBER
 *
 * with + - * /, unary -, parentheses and abs(x), sign(x), min(a,b), max(a,b).
 * `${EXPR}` in a step's run commands, text and explanation is replaced by the
 * value (`${EXPR:x}` in hex), so a step can follow what the student's own
 * run found ("until rf.shift_done unit=${event.unit}").
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "lesson_int.h"
#include "session/session.h"
#include "sim/stats.h"

struct xp {
	const char *s;             /* cursor */
	struct session *ss;        /* NULL: check the syntax only */
	const struct lesson *l;
	char *why;
	size_t n;
	bool bad;
	int depth; /* nesting, bounded so a hostile file cannot exhaust the stack */
};

static double fail(struct xp *x, const char *fmt, const char *arg)
{
	if (!x->bad)
		snprintf(x->why, x->n, fmt, arg);
	x->bad = true;
	return 0;
}

static void skip(struct xp *x)
{
	while (isspace((unsigned char)*x->s))
		x->s++;
}

static bool name_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.'; }

static double term_value(struct xp *x, const char *name)
{
	if (!x->ss)
		return 0;
	if (strcmp(name, "cycle") == 0)
		return (double)sim_cycle(x->ss->sim);
	if (strncmp(name, "stat.", 5) == 0) {
		const struct stats *st = sim_stats_c(x->ss->sim);
		int id = stats_find(st, name + 5);
		if (id < 0)
			return fail(x, "no stat '%s' on this machine", name + 5);
		return stats_value(st, (uint32_t)id);
	}
	if (strncmp(name, "cfg.", 4) == 0) {
		const struct cfg_param *p = cfg_find(name + 4);
		if (!p)
			return fail(x, "no config parameter '%s'", name + 4);
		char v[CFG_STR_MAX], *end;
		cfg_format(&x->ss->cfg, p, v, sizeof v);
		double d = strtod(v, &end);
		if (end == v || *end)
			return fail(x, "config parameter '%s' is not a number", name + 4);
		return d;
	}
	if (strncmp(name, "param.", 6) == 0) {
		for (unsigned i = 0; i < x->ss->ksrc.nparams; i++)
			if (strcmp(x->ss->ksrc.params[i].name, name + 6) == 0)
				return (double)x->ss->ksrc.params[i].value;
		return fail(x, "the workload has no parameter '%s'", name + 6);
	}
	if (strncmp(name, "saved.", 6) == 0) {
		for (int i = 0; i < x->l->nsaved; i++)
			if (strcmp(x->l->saved[i].name, name + 6) == 0)
				return x->l->saved[i].v;
		return fail(x, "nothing recorded as '%s' yet (an earlier step records it)", name + 6);
	}
	const struct event *e = &x->ss->bps.stop_ev;
	if (x->ss->last_stop != SIM_STOP_BREAK || e->kind >= EV__COUNT)
		return fail(x, "the run did not stop at an event (needed for %s)", name);
	unsigned bit = event_field_resolve(e->kind, name + 6);
	if (!bit) {
		char m[96];
		snprintf(m, sizeof m, "%s has no field '%%s'", event_defs[e->kind].name);
		return fail(x, m, name + 6);
	}
	return (double)event_field_value(e, bit);
}

static double expr(struct xp *x);

static double factor_in(struct xp *x);

static double factor(struct xp *x)
{
	if (++x->depth > 64) {
		x->depth--;
		return fail(x, "nested too deeply at '%.20s'", x->s);
	}
	double v = factor_in(x);
	x->depth--;
	return v;
}

static double factor_in(struct xp *x)
{
	skip(x);
	if (*x->s == '-') {
		x->s++;
		return -factor(x);
	}
	if (*x->s == '(') {
		x->s++;
		double v = expr(x);
		skip(x);
		if (*x->s != ')')
			return fail(x, "missing ')' before '%s'", x->s);
		x->s++;
		return v;
	}
	if (isdigit((unsigned char)*x->s) || *x->s == '.') {
		char *end;
		double v = strtod(x->s, &end);
		x->s = end;
		return v;
	}
	char name[160];
	size_t k = 0;
	while (name_char(*x->s) && k + 1 < sizeof name)
		name[k++] = *x->s++;
	name[k] = 0;
	if (!k)
		return fail(x, "expected a value at '%s'", x->s);
	skip(x);
	static const char *const fns[] = {"abs", "sign", "min", "max"};
	for (int f = 0; f < 4; f++) {
		if (strcmp(name, fns[f]) != 0)
			continue;
		if (*x->s != '(')
			return fail(x, "%s needs '(' and its argument", name);
		x->s++;
		double a = expr(x), b = 0;
		skip(x);
		if (f >= 2) {
			if (*x->s != ',')
				return fail(x, "%s takes two arguments", name);
			x->s++;
			b = expr(x);
			skip(x);
		}
		if (*x->s != ')')
			return fail(x, "missing ')' after the arguments of %s", name);
		x->s++;
		switch (f) {
		case 0:
			return fabs(a);
		case 1:
			return (a > 0) - (a < 0);
		case 2:
			return a < b ? a : b;
		default:
			return a > b ? a : b;
		}
	}
	bool known = strcmp(name, "cycle") == 0 || (strncmp(name, "event.", 6) == 0 && name[6]) ||
		     (strncmp(name, "stat.", 5) == 0 && name[5]) || (strncmp(name, "saved.", 6) == 0 && name[6]) ||
		     (strncmp(name, "cfg.", 4) == 0 && name[4]) || (strncmp(name, "param.", 6) == 0 && name[6]);
	if (!known)
		return fail(x, "'%s' is not a value (cycle, event.FIELD, stat.NAME, saved.NAME, cfg.PATH, param.NAME, a number)",
			    name);
	return term_value(x, name);
}

static double term(struct xp *x)
{
	double v = factor(x);
	for (;;) {
		skip(x);
		char op = *x->s;
		if (op != '*' && op != '/')
			return v;
		x->s++;
		double r = factor(x);
		if (op == '*')
			v *= r;
		else if (x->ss && r == 0)
			return fail(x, "division by zero%s", "");
		else
			v = x->ss ? v / r : 0;
	}
}

static double expr(struct xp *x)
{
	double v = term(x);
	for (;;) {
		skip(x);
		char op = *x->s;
		if (op != '+' && op != '-')
			return v;
		x->s++;
		double r = term(x);
		v = op == '+' ? v + r : v - r;
	}
}

static int run(struct xp *x, double *v)
{
	double r = expr(x);
	skip(x);
	if (!x->bad && *x->s)
		fail(x, "unexpected '%s'", x->s);
	if (x->bad)
		return -1;
	*v = r;
	return 0;
}

int lesson_expr_check(const char *text, char *why, size_t n)
{
	struct xp x = {.s = text, .why = why, .n = n};
	double v;
	return run(&x, &v);
}

int lesson_expr_eval(struct session *ss, const struct lesson *l, const char *text, double *v, char *why, size_t n)
{
	struct xp x = {.s = text, .ss = ss, .l = l, .why = why, .n = n};
	return run(&x, v);
}

void lesson_format_value(double v, bool hex, char *buf, size_t n)
{
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		if (hex && v >= 0)
			snprintf(buf, n, "0x%llx", (unsigned long long)v);
		else
			snprintf(buf, n, "%lld", (long long)v);
	} else {
		snprintf(buf, n, "%.4g", v); /* 4 significant digits, as the panels show IPC */
	}
}

/* Walks the ${...} of text; with ss NULL only checks them. */
static char *interp(struct session *ss, const struct lesson *l, const char *text, char *why, size_t n)
{
	struct strbuf sb;
	sb_init(&sb);
	const char *p = text;
	for (;;) {
		const char *o = strstr(p, "${");
		if (!o) {
			sb_puts(&sb, p);
			break;
		}
		sb_printf(&sb, "%.*s", (int)(o - p), p);
		const char *c = strchr(o, '}');
		if (!c) {
			snprintf(why, n, "'${' without its '}' in '%s'", text);
			sb_fini(&sb);
			return NULL;
		}
		char inner[200];
		snprintf(inner, sizeof inner, "%.*s", (int)(c - o - 2), o + 2);
		size_t len = strlen(inner);
		bool hex = len > 2 && strcmp(inner + len - 2, ":x") == 0;
		if (hex)
			inner[len - 2] = 0;
		double v = 0;
		int rc = ss ? lesson_expr_eval(ss, l, inner, &v, why, n) : lesson_expr_check(inner, why, n);
		if (rc) {
			sb_fini(&sb);
			return NULL;
		}
		char num[40];
		lesson_format_value(v, hex, num, sizeof num);
		sb_puts(&sb, num);
		p = c + 1;
	}
	return sb.s;
}

char *lesson_interp(struct session *ss, const struct lesson *l, const char *text, char *why, size_t n)
{
	return interp(ss, l, text, why, n);
}

int lesson_interp_check(const char *text, char *why, size_t n)
{
	char *s = interp(NULL, NULL, text, why, n);
	free(s);
	return s ? 0 : -1;
}

void lesson_save(struct lesson *l, const char *name, double v)
{
	for (int i = 0; i < l->nsaved; i++)
		if (strcmp(l->saved[i].name, name) == 0) {
			l->saved[i].v = v;
			return;
		}
	if (l->nsaved == LESSON_MAX_SAVED)
		return; /* lesson_load refuses more names than fit */
	snprintf(l->saved[l->nsaved].name, sizeof l->saved[0].name, "%s", name);
	l->saved[l->nsaved++].v = v;
}

/* ---- claims and the numbers a step states ---- */

static const char *const claim_ops[] = {"==", "!=", "<=", ">=", "<", ">"};

/* Splits "EXPR OP EXPR" at its operator (outside parentheses): the index of
 * the operator in claim_ops, the sides into l and r; -1 if there is none. */
static int claim_split(const char *text, char *l, char *r, size_t n)
{
	int depth = 0;
	for (const char *c = text; *c; c++) {
		depth += (*c == '(') - (*c == ')');
		if (depth)
			continue;
		for (int k = 0; k < 6; k++) {
			size_t len = strlen(claim_ops[k]);
			if (strncmp(c, claim_ops[k], len) != 0)
				continue;
			snprintf(l, n, "%.*s", (int)(c - text), text);
			snprintf(r, n, "%s", c + len);
			return k;
		}
	}
	return -1;
}

int lesson_claims_parse(const cJSON *step, struct lstep *s, const char *where, char **err)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(step, "claims"), *it;
	if (!c)
		return 0;
	if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) > LESSON_MAX_CLAIMS) {
		*err = xasprintf("%s: \"claims\" is a list of at most %d conditions \"EXPR OP EXPR\"", where,
				 LESSON_MAX_CLAIMS);
		return -1;
	}
	cJSON_ArrayForEach(it, c)
	{
		char l[200], r[200], why[200] = "";
		int op = cJSON_IsString(it) ? claim_split(it->valuestring, l, r, sizeof l) : -1;
		if (op < 0 || lesson_expr_check(l, why, sizeof why) || lesson_expr_check(r, why, sizeof why)) {
			*err = xasprintf("%s: claims: '%s' must read \"EXPR OP EXPR\" (OP one of == != < <= > >=)%s%s", where,
					 cJSON_IsString(it) ? it->valuestring : "?", why[0] ? ": " : "", why);
			return -1;
		}
		s->claim[s->nclaim++] = xstrdup(it->valuestring);
	}
	return 0;
}

struct numset {
	double v[256];
	int n;
};

static void ns_add(struct numset *ns, double v)
{
	if (ns->n < (int)ARRAY_LEN(ns->v))
		ns->v[ns->n++] = v;
}

static bool ns_has(const struct numset *ns, double v)
{
	for (int i = 0; i < ns->n; i++)
		if (fabs(ns->v[i] - v) < 1e-9 * (fabs(v) > 1 ? fabs(v) : 1))
			return true;
	return false;
}

static bool num_start(const char *text, const char *c)
{
	return isdigit((unsigned char)*c) && (c == text || !(isalnum((unsigned char)c[-1]) || c[-1] == '_' || c[-1] == '.'));
}

/* Every number literal of text (commands, claims: all of them). */
static void ns_scan(struct numset *ns, const char *text)
{
	for (const char *c = text; text && *c; c++)
		if (num_start(text, c)) {
			char *end;
			ns_add(ns, strtod(c, &end));
			c = end - 1;
		}
}

/* The numbers of 10 or more that prose states, outside ${...} and `...`,
 * missing from ns, appended to msg. */
static int prose_numbers(struct numset *ns, const char *what, const char *text, int step, char *msg, size_t n)
{
	int bad = 0;
	for (const char *c = text; text && *c; c++) {
		if (c[0] == '$' && c[1] == '{') {
			const char *e = strchr(c, '}');
			if (!e)
				break;
			c = e;
			continue;
		}
		if (*c == '`') {
			const char *e = strchr(c + 1, '`');
			if (!e)
				break;
			c = e;
			continue;
		}
		if (!num_start(text, c))
			continue;
		const char *end = c;
		while (isdigit((unsigned char)*end))
			end++;
		if (*end == '.' && isdigit((unsigned char)end[1])) /* a decimal, not a full stop */
			for (end++; isdigit((unsigned char)*end);)
				end++;
		double v = strtod(c, NULL);
		bool word = isalpha((unsigned char)*end) || *end == '_'; /* "0x10", "2nd": not a stated number */
		if (!word && v >= 10 && !ns_has(ns, v)) {
			size_t k = strlen(msg);
			snprintf(msg + k, n - k, "%sstep %d states %.*s in its %s, which neither a claim, a check nor ${...} of "
				 "the step gives",
				 k ? "\n" : "", step, (int)(end - c), c, what);
			bad++;
			ns_add(ns, v); /* said once per step */
		}
		c = end - 1;
	}
	return bad;
}

int lesson_step_audit(struct session *ss, const struct lesson *l, const struct lstep *s, const double *answer,
		      char *msg, size_t n)
{
	int bad = 0, step = (int)(s - l->steps) + 1;
	struct numset ns = {.n = 0};
	msg[0] = 0;
	for (int i = 0; i < l->nsetup; i++)
		ns_scan(&ns, l->setup[i]);
	for (int i = 0; i < s->nrun; i++)
		ns_scan(&ns, s->run[i]);
	ns_scan(&ns, s->stat);
	for (int k = 0; k < s->nwhere; k++)
		ns_add(&ns, (double)s->where_val[k]);
	if (answer) {
		ns_add(&ns, *answer);
		ns_add(&ns, s->tolerance); /* "Within 3." */
	}
	for (int k = 0; k < s->nclaim; k++) {
		char lt[200], rt[200], why[200] = "";
		int op = claim_split(s->claim[k], lt, rt, sizeof lt);
		double a = 0, b = 0;
		ns_scan(&ns, s->claim[k]);
		bool ok = op >= 0 && !lesson_expr_eval(ss, l, lt, &a, why, sizeof why) &&
			  !lesson_expr_eval(ss, l, rt, &b, why, sizeof why);
		bool holds = ok && (op == 0   ? a == b
				    : op == 1 ? a != b
				    : op == 2 ? a <= b
				    : op == 3 ? a >= b
				    : op == 4 ? a < b
					      : a > b);
		if (holds) {
			ns_add(&ns, a);
			ns_add(&ns, b);
			continue;
		}
		size_t m = strlen(msg);
		char av[40], bv[40];
		lesson_format_value(a, false, av, sizeof av);
		lesson_format_value(b, false, bv, sizeof bv);
		if (ok)
			snprintf(msg + m, n - m, "%sstep %d claims %s, but the machine shows %s against %s", m ? "\n" : "", step,
				 s->claim[k], av, bv);
		else
			snprintf(msg + m, n - m, "%sstep %d claims %s, which cannot be read: %s", m ? "\n" : "", step,
				 s->claim[k], why);
		bad++;
	}
	bad += prose_numbers(&ns, "text", s->text, step, msg, n);
	bad += prose_numbers(&ns, "explanation", s->explain, step, msg, n);
	return bad;
}

/* "NAME" of a value the student reads: stat.X is shown as X. */
static void plain_name(const char *e, size_t len, char *buf, size_t n)
{
	while (len && *e == ' ')
		e++, len--;
	while (len && e[len - 1] == ' ')
		len--;
	if (len > 5 && strncmp(e, "stat.", 5) == 0)
		e += 5, len -= 5;
	snprintf(buf, n, "%.*s", (int)len, e);
}

void lesson_value_phrase(struct session *ss, const struct lesson *l, const char *spec, const char *shown,
			 bool right, char *buf, size_t n)
{
	/* sign(A - B): the two values and which way they went, in words. */
	size_t len = strlen(spec);
	const char *minus = strstr(spec, " - ");
	if (strncmp(spec, "sign(", 5) == 0 && len > 6 && spec[len - 1] == ')' && minus && !strstr(minus + 3, " - ")) {
		char a[96], b[96], ea[128], eb[128], why[160], va[48], vb[48];
		snprintf(ea, sizeof ea, "%.*s", (int)(minus - (spec + 5)), spec + 5);
		snprintf(eb, sizeof eb, "%.*s", (int)(spec + len - 1 - (minus + 3)), minus + 3);
		double x, y;
		if (lesson_expr_eval(ss, l, ea, &x, why, sizeof why) == 0 &&
		    lesson_expr_eval(ss, l, eb, &y, why, sizeof why) == 0) {
			plain_name(ea, strlen(ea), a, sizeof a);
			bool before = strncmp(eb, "saved.", 6) == 0;
			plain_name(before ? eb + 6 : eb, strlen(before ? eb + 6 : eb), b, sizeof b);
			lesson_format_value(x, false, va, sizeof va);
			lesson_format_value(y, false, vb, sizeof vb);
			const char *dir = x > y ? "higher than" : x < y ? "lower than" : "the same as";
			if (before)
				snprintf(buf, n, "%s is %s, %s the %s recorded earlier: %s", a, va, dir, vb, shown);
			else
				snprintf(buf, n, "%s is %s, %s %s (%s): %s", a, va, dir, b, vb, shown);
			return;
		}
	}
	snprintf(buf, n, right ? "%s is %s" : "the machine shows %s = %s", spec, shown);
}
