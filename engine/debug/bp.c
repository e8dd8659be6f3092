/*
 * bp.c: breakpoint and watchpoint parsing and matching (see bp.h).
 *
 * Matching happens in two places:
 *   - bp_on_event(): called by ev_emit() for watched kinds; event breakpoints
 *     (kind + field filters + optional stat condition) and address
 *     watchpoints (every kind where the line moves, bp_watch_addr_kind()).
 *   Hits ignore_from..ignore_to count without stopping (`ignore`).
 *   - bp_poll(): called by the sim loop after a cycle when bp_has_polled();
 *     cycle breakpoints and edge-triggered stat watchpoints.
 * The first match of a cycle sets stop/stop_id/stop_ev/stop_reason; the sim
 * loop ends the step at the end of that cycle.
 */
#include "bp.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOK 32

/* The event kinds `watch ADDR` stops at (the line moves). */
static bool bp_watch_addr_kind(unsigned kind);

static const char *const op_names[] = {"==", "!=", "<", "<=", ">", ">=", "changes"};

const char *bp_op_name(enum bp_op op) { return (unsigned)op < ARRAY_LEN(op_names) ? op_names[op] : "?"; }

void bp_init(struct bp_set *b, struct stats *stats)
{
	memset(b, 0, sizeof(*b));
	b->next_id = 1;
	b->stats = stats;
	b->stop_ev.kind = EV__COUNT;
}

void bp_fini(struct bp_set *b)
{
	free(b->v);
	memset(b, 0, sizeof(*b));
}

static unsigned distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return 1000;
	unsigned d[64][64];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned x = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			x = MIN(x, d[i - 1][j] + 1);
			x = MIN(x, d[i][j - 1] + 1);
			d[i][j] = x;
		}
	return d[la][lb];
}

static const char *suggest_event(const char *name)
{
	const char *best = NULL;
	unsigned bd = 4;
	for (unsigned i = 0; i < EV__COUNT; i++) {
		unsigned d = distance(name, event_defs[i].name);
		if (d < bd) {
			bd = d;
			best = event_defs[i].name;
		}
	}
	return best;
}

static const char *suggest_stat(const struct stats *s, const char *name)
{
	const char *best = NULL;
	unsigned bd = 4;
	size_t nl = strlen(name);
	/* A per-unit stat named by its suffix ("l1.mshr.occupancy" for sm0.l1.mshr.occupancy). */
	for (uint32_t i = 0; s && i < s->n; i++) {
		size_t l = strlen(s->defs[i].name);
		if (l > nl && s->defs[i].name[l - nl - 1] == '.' && strcmp(s->defs[i].name + l - nl, name) == 0)
			return s->defs[i].name;
	}
	for (uint32_t i = 0; s && i < s->n; i++) {
		unsigned d = distance(name, s->defs[i].name);
		if (d < bd) {
			bd = d;
			best = s->defs[i].name;
		}
	}
	return best;
}

/* Split a copy of args into whitespace-separated tokens. */
static int tokenize(char *buf, char **tok)
{
	int n = 0;
	for (char *p = strtok(buf, " \t\r\n"); p && n < MAX_TOK; p = strtok(NULL, " \t\r\n"))
		tok[n++] = p;
	return n;
}

static int parse_i64(const char *t, int64_t *out)
{
	char *end;
	errno = 0;
	if (!*t)
		return -1;
	if (t[0] == '-') {
		long long v = strtoll(t, &end, 0);
		if (*end || errno)
			return -1;
		*out = v;
	} else {
		unsigned long long v = strtoull(t, &end, 0);
		if (*end || errno || t[0] == '+')
			return -1;
		*out = (int64_t)v;
	}
	return 0;
}

/* Reads an operator at *p, advancing past it. */
static int parse_op(const char **p, enum bp_op *op)
{
	const char *s = *p;
	static const struct {
		const char *t;
		enum bp_op op;
	} ops[] = {{"==", BP_EQ}, {"!=", BP_NE}, {"<=", BP_LE}, {">=", BP_GE},
		   {"<", BP_LT},  {">", BP_GT},  {"=", BP_EQ}};
	for (size_t i = 0; i < ARRAY_LEN(ops); i++) {
		size_t n = strlen(ops[i].t);
		if (strncmp(s, ops[i].t, n) == 0) {
			*op = ops[i].op;
			*p = s + n;
			return 0;
		}
	}
	return -1;
}

static bool cmp(double a, enum bp_op op, double b)
{
	switch (op) {
	case BP_EQ:
		return a == b;
	case BP_NE:
		return a != b;
	case BP_LT:
		return a < b;
	case BP_LE:
		return a <= b;
	case BP_GT:
		return a > b;
	case BP_GE:
		return a >= b;
	case BP_CHANGED: /* polled against the last value, never compared */
		return false;
	}
	return false;
}

static bool cmp_i(int64_t a, enum bp_op op, int64_t b)
{
	switch (op) {
	case BP_EQ:
		return a == b;
	case BP_NE:
		return a != b;
	case BP_LT:
		return a < b;
	case BP_LE:
		return a <= b;
	case BP_GT:
		return a > b;
	case BP_GE:
		return a >= b;
	case BP_CHANGED: /* polled against the last value, never compared */
		return false;
	}
	return false;
}

static double bp_stat_value(const struct stats *s, uint32_t id)
{
	if (s->defs[id].kind == STAT_OCC)
		return (double)stats_counter_value(s, id);
	return stats_value(s, id);
}

/* "STAT OP VALUE" spread over tokens (spaces optional). */
static int parse_cond(struct bp_set *b, struct bp *bp, char **tok, int n, char **err)
{
	char buf[256] = "";
	for (int i = 0; i < n; i++)
		if (strlen(buf) + strlen(tok[i]) + 1 < sizeof buf)
			strcat(buf, tok[i]);
	const char *p = buf;
	size_t nl = strcspn(p, "<>=!");
	if (nl == 0 || nl >= sizeof bp->stat_name)
		return set_err(err, "expected STAT OP VALUE, e.g. 'l1.mshr.occupancy >= 32'");
	memcpy(bp->stat_name, p, nl);
	bp->stat_name[nl] = 0;
	p += nl;
	if (parse_op(&p, &bp->cop))
		return set_err(err, "expected an operator (== != < <= > >=) after '%s'", bp->stat_name);
	char *end;
	if (!*p)
		return set_err(err, "missing value after '%s %s'", bp->stat_name, bp_op_name(bp->cop));
	bp->cval = strtod(p, &end);
	if (*end)
		return set_err(err, "bad number '%s' in condition", p);
	if (!b->stats)
		return set_err(err, "no simulator: stats are not available");
	int id = stats_find(b->stats, bp->stat_name);
	if (id < 0) {
		const char *s = suggest_stat(b->stats, bp->stat_name);
		if (s)
			return set_err(err, "unknown stat '%s' (did you mean %s?)", bp->stat_name, s);
		return set_err(err, "unknown stat '%s' (see list stats)", bp->stat_name);
	}
	bp->stat = (uint32_t)id;
	bp->has_cond = true;
	return 0;
}

/* `watch STAT`: a change watch on a stat, compared against its value now. */
static int watch_change(struct bp_set *b, struct bp *bp, const char *name, char **err)
{
	if (strlen(name) >= sizeof bp->stat_name)
		return set_err(err, "stat name too long: '%s'", name);
	if (!b->stats)
		return set_err(err, "no simulator: stats are not available");
	int id = stats_find(b->stats, name);
	if (id < 0) {
		const char *sg = suggest_stat(b->stats, name);
		if (sg)
			return set_err(err, "unknown stat '%s' (did you mean %s?)", name, sg);
		return set_err(err, "unknown stat '%s' (see list stats; an address is decimal or 0x hex)", name);
	}
	snprintf(bp->stat_name, sizeof bp->stat_name, "%s", name);
	bp->stat = (uint32_t)id;
	bp->has_cond = true;
	bp->cop = BP_CHANGED;
	bp->cval = bp_stat_value(b->stats, bp->stat);
	return 0;
}

/* The limit is checked when a breakpoint is added, so what a session holds
 * can always be saved and loaded again. */
static int bp_full(const struct bp_set *b, char **err)
{
	if (b->n < BP_MAX)
		return 0;
	return set_err(err, "too many breakpoints and watchpoints (at most %d); delete some first", BP_MAX);
}

static struct bp *bp_push(struct bp_set *b, const struct bp *nb)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 8;
		b->v = xrealloc(b->v, sizeof(*b->v) * b->cap);
	}
	struct bp *p = &b->v[b->n++];
	*p = *nb;
	p->id = b->next_id++;
	p->enabled = true;
	return p;
}

static void set_text(struct bp *bp, const char *cmd, const char *args)
{
	while (isspace((unsigned char)*args))
		args++;
	snprintf(bp->text, sizeof bp->text, "%s %s", cmd, args);
	size_t n = strlen(bp->text);
	while (n && isspace((unsigned char)bp->text[n - 1]))
		bp->text[--n] = 0;
}

static int add_event_bp(struct bp_set *b, const char *cmd, const char *args, uint64_t line_bytes, bool temp,
			char **err)
{
	char buf[512];
	char *tok[MAX_TOK];
	snprintf(buf, sizeof buf, "%s", args ? args : "");
	int n = tokenize(buf, tok);
	struct bp nb;
	memset(&nb, 0, sizeof nb);
	nb.temporary = temp;
	nb.line_bytes = line_bytes ? line_bytes : 1;
	if (n == 0)
		return set_err(err, "usage: %s EVENT [field=value ...] [if STAT OP VALUE] | %s cycle N", cmd, cmd);
	if (strcmp(tok[0], "cycle") == 0) {
		int64_t c;
		if (n != 2 || parse_i64(tok[1], &c) || c < 0)
			return set_err(err, "usage: %s cycle N (N a cycle number)", cmd);
		nb.type = BP_CYCLE;
		nb.cycle = (uint64_t)c;
	} else {
		int k = event_find(tok[0]);
		if (k < 0) {
			const char *s = suggest_event(tok[0]);
			if (s)
				return set_err(err, "unknown event '%s' (did you mean %s?)", tok[0], s);
			return set_err(err, "unknown event '%s' (see list events)", tok[0]);
		}
		nb.type = BP_EVENT;
		nb.kind = (unsigned)k;
		int i = 1;
		for (; i < n && strcmp(tok[i], "if") != 0; i++) {
			const char *p = tok[i];
			char fname[32];
			size_t fl = strcspn(p, "<>=!");
			if (fl == 0 || fl >= sizeof fname || !p[fl])
				return set_err(err, "expected field=value, got '%s'", p);
			memcpy(fname, p, fl);
			fname[fl] = 0;
			unsigned bit = event_field_resolve((unsigned)k, fname);
			if (!bit) {
				char list[160];
				event_field_list((unsigned)k, list, sizeof list);
				return set_err(err, "unknown field '%s' for %s (fields: %s)", fname, tok[0], list);
			}
			if (nb.nf == BP_MAX_FILTERS)
				return set_err(err, "too many filters (at most %d)", BP_MAX_FILTERS);
			struct bp_filter *f = &nb.f[nb.nf];
			p += fl;
			if (parse_op(&p, &f->op))
				return set_err(err, "bad operator in '%s'", tok[i]);
			if (parse_i64(p, &f->value) && event_field_code((unsigned)k, bit, p, &f->value)) {
				char codes[256];
				event_field_codes((unsigned)k, bit, codes, sizeof codes);
				if (codes[0])
					return set_err(err, "bad value '%s' for %s (a number, or one of: %s)", p, fname,
						       codes);
				return set_err(err, "bad value '%s' for %s (decimal or 0x hex)", p, fname);
			}
			f->field = bit;
			nb.nf++;
		}
		if (i < n) {
			if (i + 1 >= n)
				return set_err(err, "missing condition after 'if'");
			if (parse_cond(b, &nb, tok + i + 1, n - i - 1, err))
				return -1;
		}
	}
	set_text(&nb, cmd, args);
	if (bp_full(b, err))
		return -1;
	return bp_push(b, &nb)->id;
}

int bp_add_break(struct bp_set *b, const char *args, uint64_t line_bytes, char **err)
{
	return add_event_bp(b, "break", args, line_bytes, false, err);
}

int bp_add_until(struct bp_set *b, const char *args, uint64_t line_bytes, char **err)
{
	return add_event_bp(b, "until", args, line_bytes, true, err);
}

int bp_add_tbreak(struct bp_set *b, const char *args, uint64_t line_bytes, char **err)
{
	return add_event_bp(b, "tbreak", args, line_bytes, true, err);
}

int bp_set_ignore(struct bp_set *b, int id, uint64_t count, char **err)
{
	struct bp *p = bp_get(b, id);
	if (!p)
		return set_err(err, "no breakpoint number %d (see info break)", id);
	p->ignore_from = p->hits + 1;
	p->ignore_to = p->hits + count;
	return 0;
}

int bp_set_condition(struct bp_set *b, int id, const char *cond, char **err)
{
	struct bp *p = bp_get(b, id);
	if (!p)
		return set_err(err, "no breakpoint number %d (see info break)", id);
	if (p->type != BP_EVENT)
		return set_err(err, "%d is a %s; conditions apply to event breakpoints (break EVENT ... if STAT OP VALUE)",
			       id, p->type == BP_CYCLE ? "cycle breakpoint" : "watchpoint");
	struct bp nb = *p;
	while (cond && isspace((unsigned char)*cond))
		cond++;
	nb.has_cond = false;
	if (cond && *cond) {
		char buf[256];
		char *tok[MAX_TOK];
		snprintf(buf, sizeof buf, "%s", cond);
		int n = tokenize(buf, tok);
		if (parse_cond(b, &nb, tok, n, err))
			return -1;
	}
	/* The text drops its old `if ...` and takes the new one. */
	char *at = strstr(nb.text, " if ");
	if (at)
		*at = 0;
	if (nb.has_cond) {
		size_t len = strlen(nb.text);
		snprintf(nb.text + len, sizeof nb.text - len, " if %s", cond);
	}
	*p = nb;
	return 0;
}

int bp_add_watch(struct bp_set *b, const char *args, uint64_t line_bytes, char **err)
{
	char buf[512];
	char *tok[MAX_TOK];
	snprintf(buf, sizeof buf, "%s", args ? args : "");
	int n = tokenize(buf, tok);
	if (n == 0)
		return set_err(err, "usage: watch ADDR | watch STAT OP VALUE");
	struct bp nb;
	memset(&nb, 0, sizeof nb);
	nb.line_bytes = line_bytes ? line_bytes : 1;
	int64_t addr;
	if (n == 1 && !strpbrk(tok[0], "<>=!") && parse_i64(tok[0], &addr) == 0) {
		if (addr < 0)
			return set_err(err, "bad address '%s'", tok[0]);
		nb.type = BP_WATCH_ADDR;
		nb.line_addr = (uint64_t)addr / nb.line_bytes * nb.line_bytes;
	} else if (n == 1 && isdigit((unsigned char)tok[0][0])) {
		return set_err(err, "bad address '%s' (decimal or 0x hex)", tok[0]);
	} else if (n == 1 && !strpbrk(tok[0], "<>=!")) {
		nb.type = BP_WATCH_STAT; /* gdb's `watch EXPR`: stop when the value changes */
		if (watch_change(b, &nb, tok[0], err))
			return -1;
	} else {
		nb.type = BP_WATCH_STAT;
		if (parse_cond(b, &nb, tok, n, err))
			return -1;
		nb.was_true = cmp(bp_stat_value(b->stats, nb.stat), nb.cop, nb.cval);
	}
	set_text(&nb, "watch", args);
	if (bp_full(b, err))
		return -1;
	return bp_push(b, &nb)->id;
}

int bp_delete(struct bp_set *b, int id)
{
	int removed = 0;
	unsigned j = 0;
	for (unsigned i = 0; i < b->n; i++) {
		if (id < 0 || b->v[i].id == id)
			removed++;
		else
			b->v[j++] = b->v[i];
	}
	b->n = j;
	return removed;
}

struct bp *bp_get(struct bp_set *b, int id)
{
	for (unsigned i = 0; i < b->n; i++)
		if (b->v[i].id == id)
			return &b->v[i];
	return NULL;
}

int bp_enable(struct bp_set *b, int id, bool on)
{
	struct bp *p = bp_get(b, id);
	if (!p)
		return -1;
	p->enabled = on;
	if (on && p->type == BP_WATCH_STAT && b->stats) {
		if (p->cop == BP_CHANGED)
			p->cval = bp_stat_value(b->stats, p->stat);
		else
			p->was_true = cmp(bp_stat_value(b->stats, p->stat), p->cop, p->cval);
	}
	return 0;
}

void bp_resync_changes(struct bp_set *b)
{
	for (unsigned i = 0; i < b->n && b->stats; i++)
		if (b->v[i].type == BP_WATCH_STAT && b->v[i].cop == BP_CHANGED)
			b->v[i].cval = bp_stat_value(b->stats, b->v[i].stat);
}

int bp_rebind(struct bp_set *b, struct stats *stats)
{
	int lost = 0;
	b->stats = stats;
	for (unsigned i = 0; i < b->n; i++) {
		struct bp *p = &b->v[i];
		if (!p->has_cond)
			continue;
		int id = stats ? stats_find(stats, p->stat_name) : -1;
		if (id < 0) {
			p->enabled = false;
			lost++;
			continue;
		}
		p->stat = (uint32_t)id;
		if (p->type == BP_WATCH_STAT && p->cop == BP_CHANGED)
			p->cval = bp_stat_value(stats, p->stat);
		else if (p->type == BP_WATCH_STAT)
			p->was_true = cmp(bp_stat_value(stats, p->stat), p->cop, p->cval);
	}
	return lost;
}

static inline void mask_set(uint64_t *m, unsigned k) { m[k >> 6] |= 1ull << (k & 63); }

void bp_watch_mask(const struct bp_set *b, uint64_t *mask)
{
	for (unsigned i = 0; i < b->n; i++) {
		const struct bp *p = &b->v[i];
		if (!p->enabled)
			continue;
		if (p->type == BP_EVENT)
			mask_set(mask, p->kind);
		else if (p->type == BP_WATCH_ADDR) {
			for (unsigned k = 0; k < EV__COUNT; k++)
				if (bp_watch_addr_kind(k))
					mask_set(mask, k);
		}
	}
}

/* Where a line moves: into a cache (access, fill), out of it (eviction,
 * write-back), through the DRAM (enqueue, done) and back to a warp (reply). */
static bool bp_watch_addr_kind(unsigned kind)
{
	switch (kind) {
	case EV_L1_ACCESS:
	case EV_L1_FILL:
	case EV_L1_EVICT:
	case EV_L2_ACCESS:
	case EV_L2_FILL:
	case EV_L2_WRITEBACK:
	case EV_FRC_FILL:
	case EV_DRAM_ENQUEUE:
	case EV_DRAM_DONE:
	case EV_MEM_REPLY:
		return true;
	default:
		return false;
	}
}

static bool event_matches(const struct bp_set *b, const struct bp *p, const struct event *e)
{
	if (p->type == BP_WATCH_ADDR) {
		if (!bp_watch_addr_kind(e->kind))
			return false;
		return e->addr / p->line_bytes * p->line_bytes == p->line_addr;
	}
	if (p->type != BP_EVENT || p->kind != e->kind)
		return false;
	for (unsigned i = 0; i < p->nf; i++) {
		const struct bp_filter *f = &p->f[i];
		if (f->field == EVF_ADDR) {
			/* Addresses compare by line: addr=0x1004 matches the line at 0x1000. */
			uint64_t lb = p->line_bytes;
			int64_t ea = (int64_t)(e->addr / lb * lb), fa = (int64_t)((uint64_t)f->value / lb * lb);
			if (!cmp_i(ea, f->op, fa))
				return false;
		} else if (!cmp_i(event_field_value(e, f->field), f->op, f->value)) {
			return false;
		}
	}
	if (p->has_cond && !cmp(bp_stat_value(b->stats, p->stat), p->cop, p->cval))
		return false;
	return true;
}

static void fire(struct bp_set *b, const struct bp *p, const struct event *e, uint64_t cycle)
{
	b->stop = true;
	b->stop_id = p->id;
	char what[160];
	if (e) {
		b->stop_ev = *e;
		event_format_fields(e, what, sizeof what);
	} else {
		memset(&b->stop_ev, 0, sizeof b->stop_ev);
		b->stop_ev.kind = EV__COUNT;
		b->stop_ev.cycle = cycle;
		if (p->type == BP_CYCLE)
			snprintf(what, sizeof what, "cycle %" PRIu64, p->cycle);
		else if (p->cop == BP_CHANGED)
			snprintf(what, sizeof what, "%s changed from %g to %g", p->stat_name, p->changed_from, p->cval);
		else
			snprintf(what, sizeof what, "%s %s %g (now %g)", p->stat_name, bp_op_name(p->cop), p->cval,
				 bp_stat_value(b->stats, p->stat));
	}
	const char *label = p->temporary                                            ? "Temporary breakpoint"
			    : (p->type == BP_WATCH_ADDR || p->type == BP_WATCH_STAT) ? "Watchpoint"
										     : "Breakpoint";
	/* "at cycle N" is where the machine is now (sim.cycles, the status bar,
	 * `goto N`); an event happened during the cycle before, which is the
	 * cycle the event log shows, so that one is named too. */
	if (e)
		snprintf(b->stop_reason, sizeof b->stop_reason, "%s %d, %s at cycle %" PRIu64 " (logged in cycle %" PRIu64 ")",
			 label, p->id, what, cycle + 1, cycle);
	else
		snprintf(b->stop_reason, sizeof b->stop_reason, "%s %d, %s at cycle %" PRIu64, label, p->id, what,
			 cycle);
}

static bool ignored(const struct bp *p) { return p->hits >= p->ignore_from && p->hits <= p->ignore_to; }

static void drop_fired_temporaries(struct bp_set *b)
{
	unsigned j = 0;
	for (unsigned i = 0; i < b->n; i++)
		if (!(b->v[i].temporary && b->v[i].hits && !ignored(&b->v[i])))
			b->v[j++] = b->v[i];
	b->n = j;
}

/* A watched line moving again in the cycle that already stopped: the stop
 * report names it too ("; also l2.fill, mem.reply"), one stop per cycle. */
static void watch_also(struct bp_set *b, const struct event *e)
{
	const struct bp *p = bp_get(b, b->stop_id);
	if (!p || p->type != BP_WATCH_ADDR || b->stop_ev.kind >= EV__COUNT || e->cycle != b->stop_ev.cycle ||
	    !event_matches(b, p, e))
		return;
	size_t len = strlen(b->stop_reason);
	const char *name = event_defs[e->kind].name;
	const char *also = strstr(b->stop_reason, "; also ");
	if (also && strstr(also, name))
		return; /* named already */
	snprintf(b->stop_reason + len, sizeof b->stop_reason - len, "%s%s", also ? ", " : "; also ", name);
}

void bp_on_event(struct bp_set *b, const struct event *e)
{
	if (b->stop) {
		watch_also(b, e);
		return; /* the first stop of a cycle wins */
	}
	bool temp = false;
	for (unsigned i = 0; i < b->n; i++) {
		struct bp *p = &b->v[i];
		if (!p->enabled || !event_matches(b, p, e))
			continue;
		p->hits++;
		if (ignored(p))
			continue; /* `ignore`: counted, no stop */
		temp |= p->temporary;
		fire(b, p, e, e->cycle);
		break;
	}
	if (temp)
		drop_fired_temporaries(b);
}

bool bp_has_polled(const struct bp_set *b)
{
	for (unsigned i = 0; i < b->n; i++)
		if (b->v[i].enabled && (b->v[i].type == BP_CYCLE || b->v[i].type == BP_WATCH_STAT))
			return true;
	return false;
}

void bp_poll(struct bp_set *b, uint64_t cycle)
{
	bool temp = false;
	for (unsigned i = 0; i < b->n; i++) {
		struct bp *p = &b->v[i];
		if (!p->enabled)
			continue;
		bool hit = false;
		if (p->type == BP_CYCLE) {
			hit = cycle == p->cycle;
		} else if (p->type == BP_WATCH_STAT && b->stats && p->cop == BP_CHANGED) {
			double v = bp_stat_value(b->stats, p->stat);
			hit = v != p->cval;
			p->changed_from = p->cval;
			p->cval = v;
		} else if (p->type == BP_WATCH_STAT && b->stats) {
			bool now = cmp(bp_stat_value(b->stats, p->stat), p->cop, p->cval);
			hit = now && !p->was_true;
			p->was_true = now;
		}
		if (!hit)
			continue;
		p->hits++;
		if (ignored(p))
			continue;
		temp |= p->temporary;
		if (!b->stop)
			fire(b, p, NULL, cycle);
	}
	if (temp)
		drop_fired_temporaries(b);
}

uint64_t bp_next_cycle(const struct bp_set *b, uint64_t now)
{
	uint64_t best = UINT64_MAX;
	for (unsigned i = 0; i < b->n; i++)
		if (b->v[i].enabled && b->v[i].type == BP_CYCLE && b->v[i].cycle > now && b->v[i].cycle < best)
			best = b->v[i].cycle;
	return best;
}

void bp_clear_stop(struct bp_set *b)
{
	b->stop = false;
	b->stop_id = 0;
	b->stop_reason[0] = 0;
	memset(&b->stop_ev, 0, sizeof b->stop_ev);
	b->stop_ev.kind = EV__COUNT;
}
