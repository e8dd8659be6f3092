/*
 * dram_trace.c: DRAM-level trace reader and batch runner (see dram_trace.h).
 *
 * The reader keeps one look-ahead record; the file is read with getline()
 * line by line, so a 1 M-line trace costs a few hundred bytes of memory.
 */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "addrmap.h"
#include "dram_trace.h"

struct dram_trace {
	FILE *f;
	char *path;
	char *buf;
	size_t cap;
	struct dram_trace_parser p;
	uint64_t count, wrapped;
	struct dram_trace_cursor cur;
	bool have;          /* look-ahead valid */
	bool eof;
	struct dram_trace_rec head;
};

const char *dram_trace_format_name(enum dram_trace_fmt f) { return f == DTF_DRAMSIM ? "dramsim" : "ramulator"; }

/* One token of s[0..n): skips blanks, returns its start and length (0 = none). */
static const char *tok(const char **s, const char *end, size_t *len)
{
	const char *p = *s;
	while (p < end && isspace((unsigned char)*p))
		p++;
	const char *start = p;
	while (p < end && !isspace((unsigned char)*p))
		p++;
	*len = (size_t)(p - start);
	*s = p;
	return *len ? start : NULL;
}

static bool word_is(const char *w, size_t n, const char *s) { return strlen(s) == n && !strncasecmp(w, s, n); }

/* 0 read, 1 write, -1 neither. */
static int kind_word(const char *w, size_t n)
{
	if (!w)
		return -1;
	static const char *const rd[] = {"READ", "RD", "R", "LD", "P_MEM_RD"}, *const wr[] = {"WRITE", "WR", "W", "ST", "P_MEM_WR"};
	for (size_t i = 0; i < ARRAY_LEN(rd); i++)
		if (word_is(w, n, rd[i]))
			return 0;
	for (size_t i = 0; i < ARRAY_LEN(wr); i++)
		if (word_is(w, n, wr[i]))
			return 1;
	return -1;
}

/* Hex with an optional 0x, as DRAMSim3 (std::hex) and Ramulator read it. */
static bool parse_hex(const char *w, size_t n, uint64_t *v)
{
	if (n > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X'))
		w += 2, n -= 2;
	if (!n)
		return false;
	while (n > 1 && w[0] == '0')
		w++, n--;
	if (n > 16)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)w[i], d = isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
		if (d < 0)
			return false;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return true;
}

/* Decimal, at most DRAM_TRACE_MAX_CYCLE. 0 ok, -1 not a number, -2 too large. */
static int parse_cycle(const char *w, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)w[i]))
			return -1;
		if (x > DRAM_TRACE_MAX_CYCLE)
			return -2;
		x = x * 10 + (uint64_t)(w[i] - '0');
	}
	if (x > DRAM_TRACE_MAX_CYCLE)
		return -2;
	*v = x;
	return 0;
}

static const char *expect_text(const struct dram_trace_parser *p)
{
	if (p->fmt == DTF_DRAMSIM)
		return "expected \"ADDR READ|WRITE CYCLE\" (DRAMSim format: hex address, decimal cycle)";
	return p->sub ? "expected \"ADDR R|W\" (Ramulator format: hex address)"
		      : "expected \"LD ADDR\" or \"ST ADDR\" (Ramulator format: hex address)";
}

void dram_trace_parser_init(struct dram_trace_parser *p, const struct sim_cfg *cfg)
{
	memset(p, 0, sizeof *p);
	if (cfg) {
		struct addrmap m;
		char *e = NULL;
		if (!addrmap_init(&m, &cfg->dram, &e))
			p->capacity = addrmap_capacity(&m);
		free(e);
		p->wrap = cfg->dram.trace_wrap;
	}
}

#define SHOWN 60 /* characters of a bad line quoted in a message */

static int bad(char **err, const char *s, size_t n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int bad(char **err, const char *s, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *m = xvasprintf(fmt, ap);
	va_end(ap);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	set_err(err, "%s, got \"%.*s\"", m, (int)(n < SHOWN ? n : SHOWN), s);
	free(m);
	return -1;
}

static int parse(struct dram_trace_parser *p, const char *s, size_t n, struct dram_trace_rec *r, char **err)
{
	const char *nul = memchr(s, 0, n);
	if (nul)
		return set_err(err, "NUL byte at column %zu (not a text trace)", (size_t)(nul - s) + 1);
	const char *q = s, *end = s + n;
	size_t la, lb, lc, lx;
	const char *a = tok(&q, end, &la);
	if (!a || a[0] == '#')
		return 0;
	const char *b = tok(&q, end, &lb), *c = tok(&q, end, &lc), *x = tok(&q, end, &lx);
	if (!p->detected) {
		if (c) {
			p->fmt = DTF_DRAMSIM;
		} else if (b && (word_is(a, la, "LD") || word_is(a, la, "ST"))) {
			p->fmt = DTF_RAMULATOR, p->sub = 0;
		} else if (b && (word_is(b, lb, "R") || word_is(b, lb, "W"))) {
			p->fmt = DTF_RAMULATOR, p->sub = 1;
		} else if (b && kind_word(b, lb) >= 0) {
			return bad(err, s, n, "a DRAMSim line needs a cycle: expected \"ADDR %.*s CYCLE\"", (int)lb, b);
		} else {
			return bad(err, s, n,
				   "unknown trace format: expected \"ADDR READ|WRITE CYCLE\" (DRAMSim), \"LD|ST ADDR\" or \"ADDR R|W\" (Ramulator)");
		}
		p->detected = true;
	}
	memset(r, 0, sizeof *r);
	const char *aw;
	size_t al;
	int k;
	if (p->fmt == DTF_DRAMSIM) {
		k = kind_word(b, lb);
		if (x || !c || k < 0)
			return bad(err, s, n, "%s", expect_text(p));
		aw = a, al = la;
		int rc = parse_cycle(c, lc, &r->cycle);
		if (rc == -1)
			return bad(err, s, n, "expected a decimal cycle in the third column");
		if (rc == -2)
			return bad(err, s, n, "cycle above %" PRIu64 " (2^48), the largest the model represents",
				   DRAM_TRACE_MAX_CYCLE);
		if (r->cycle < p->last_cycle)
			return set_err(err, "expected a cycle >= %" PRIu64 " (cycles must not decrease), got %" PRIu64,
				       p->last_cycle, r->cycle);
		p->last_cycle = r->cycle;
	} else if (!p->sub) {
		k = kind_word(a, la);
		if (c || !b || (!word_is(a, la, "LD") && !word_is(a, la, "ST")))
			return bad(err, s, n, "%s", expect_text(p));
		aw = b, al = lb;
	} else {
		k = b && (word_is(b, lb, "R") || word_is(b, lb, "W")) ? kind_word(b, lb) : -1;
		if (c || k < 0)
			return bad(err, s, n, "%s", expect_text(p));
		aw = a, al = la;
	}
	r->is_write = k;
	if (!parse_hex(aw, al, &r->addr))
		return bad(err, s, n, "expected a hex address (e.g. 0x7f3a40 or 7f3a40)");
	if (p->capacity && r->addr >= p->capacity) {
		if (!p->wrap)
			return bad(err, s, n,
				   "address 0x%" PRIx64 " is beyond the DRAM capacity (0x%" PRIx64 " bytes); set dram.trace_wrap=true to wrap addresses modulo the capacity",
				   r->addr, p->capacity);
		r->addr %= p->capacity;
		p->wrapped++;
	}
	return 1;
}

/* "line N: " + the message of parse() (the file reader puts "path:N: " instead). */
static int parse_at(struct dram_trace_parser *p, const char *s, size_t n, struct dram_trace_rec *r, char **err)
{
	p->line++;
	return parse(p, s, n, r, err);
}

int dram_trace_parse(struct dram_trace_parser *p, const char *s, size_t n, struct dram_trace_rec *r, char **err)
{
	char *e = NULL;
	int rc = parse_at(p, s, n, r, &e);
	if (rc < 0) {
		set_err(err, "line %lu: %s", p->line, e);
		free(e);
	}
	return rc;
}

int dram_trace_check_mem(const char *buf, size_t len, const struct sim_cfg *cfg, uint64_t *count, char **err)
{
	struct dram_trace_parser p;
	dram_trace_parser_init(&p, cfg);
	uint64_t n = 0;
	const char *s = buf, *end = buf + len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t l = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
		struct dram_trace_rec r;
		int rc = dram_trace_parse(&p, s, l, &r, err);
		if (rc < 0)
			return -1;
		n += (uint64_t)rc;
		s += l;
	}
	if (!n)
		return set_err(err, "no requests (expected lines \"ADDR READ|WRITE CYCLE\" or \"LD|ST ADDR\"; the input has only blank or '#' lines)");
	if (count)
		*count = n;
	return 0;
}

struct dram_trace *dram_trace_open(const char *path, const struct sim_cfg *cfg, char **err)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		set_err(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct dram_trace *t = xcalloc(1, sizeof *t);
	t->f = f;
	t->path = xstrdup(path);
	dram_trace_parser_init(&t->p, cfg);
	ssize_t n;
	while ((n = getline(&t->buf, &t->cap, f)) >= 0) {
		struct dram_trace_rec r;
		char *e = NULL;
		int rc = parse_at(&t->p, t->buf, (size_t)n, &r, &e);
		if (rc < 0) {
			set_err(err, "%s:%lu: %s", path, t->p.line, e);
			free(e);
			dram_trace_close(t);
			return NULL;
		}
		t->count += (uint64_t)rc;
	}
	if (ferror(f)) {
		set_err(err, "%s: read error", path);
		dram_trace_close(t);
		return NULL;
	}
	if (!t->count) {
		set_err(err, "%s: no requests (expected lines \"ADDR READ|WRITE CYCLE\" or \"LD|ST ADDR\"; "
			     "the file has only blank or '#' lines)", path);
		dram_trace_close(t);
		return NULL;
	}
	rewind(f);
	/* the second pass re-reads with the format fixed and the checks done */
	enum dram_trace_fmt fmt = t->p.fmt;
	int sub = t->p.sub;
	uint64_t wrapped = t->p.wrapped;
	dram_trace_parser_init(&t->p, cfg);
	t->p.fmt = fmt, t->p.sub = sub, t->p.detected = true;
	t->wrapped = wrapped;
	return t;
}

void dram_trace_close(struct dram_trace *t)
{
	if (!t)
		return;
	if (t->f)
		fclose(t->f);
	free(t->buf);
	free(t->path);
	free(t);
}

enum dram_trace_fmt dram_trace_format(const struct dram_trace *t) { return t->p.fmt; }
uint64_t dram_trace_count(const struct dram_trace *t) { return t->count; }

int dram_trace_next(struct dram_trace *t, struct dram_trace_rec *r)
{
	ssize_t n;
	while ((n = getline(&t->buf, &t->cap, t->f)) >= 0) {
		char *e = NULL;
		int rc = parse_at(&t->p, t->buf, (size_t)n, r, &e);
		free(e); /* rc < 0 only if the file changed since it was checked */
		if (rc)
			return rc > 0;
	}
	return 0;
}

static bool look(struct dram_trace *t)
{
	if (!t->have && !t->eof) {
		if (dram_trace_next(t, &t->head))
			t->have = true;
		else
			t->eof = true;
	}
	return t->have;
}

static bool dram_trace_exhausted(const struct dram_trace *t) { return !t->have && t->eof; }

/* Feed record r (the next of the trace) if it is due and its queue has room:
 * true = enqueued; false = stop, *due = when to try again. */
static bool feed_one(struct dram_trace_cursor *c, const struct dram_trace_rec *r, struct dram *d, uint64_t now,
		     uint64_t mask, uint64_t *due)
{
	uint64_t at = dram_trace_due(d, r->cycle);
	if (at > now) {
		*due = at;
		return false;
	}
	uint64_t a = r->addr & mask;
	if (!dram_can_accept(d, a, r->is_write)) {
		if (!c->full_noted)
			dram_note_full(d, a, r->is_write);
		c->full_noted = 1;
		*due = UINT64_MAX; /* a completion frees the slot: dram_next_event */
		return false;
	}
	dram_enqueue(d, a, r->is_write, (uint32_t)c->issued);
	c->issued++;
	c->full_noted = 0;
	return true;
}

static uint64_t line_mask(uint32_t line) { return ~(uint64_t)(line ? line - 1 : 0); }

/* Feed the requests due by `now` into d while its queues accept (the batch
 * runner below; the TUI uses dram_reqs_feed). Returns the earliest cycle >
 * now at which feeding could make progress (UINT64_MAX when the trace is
 * exhausted or the head waits for a queue slot, which a dram completion
 * frees). */
static uint64_t dram_trace_feed(struct dram_trace *t, struct dram *d, uint64_t now, uint32_t line)
{
	uint64_t mask = line_mask(line), due = UINT64_MAX;
	while (look(t)) {
		if (!feed_one(&t->cur, &t->head, d, now, mask, &due))
			return due;
		t->have = false;
	}
	return UINT64_MAX;
}

struct dram_reqs *dram_trace_load(const char *path, const struct sim_cfg *cfg, char **err)
{
	struct dram_trace *t = dram_trace_open(path, cfg, err);
	if (!t)
		return NULL;
	struct dram_reqs *q = xcalloc(1, sizeof *q);
	q->fmt = t->p.fmt;
	q->wrapped = t->wrapped;
	q->r = xmalloc((size_t)t->count * sizeof *q->r);
	while (q->n < t->count && dram_trace_next(t, &q->r[q->n]))
		q->n++;
	if (q->n != t->count) { /* the file changed under us */
		set_err(err, "%s: read %" PRIu64 " of %" PRIu64 " requests (the file changed while it was read)", path,
			q->n, t->count);
		dram_trace_close(t);
		dram_reqs_free(q);
		return NULL;
	}
	dram_trace_close(t);
	return q;
}

void dram_reqs_free(struct dram_reqs *q)
{
	if (!q)
		return;
	free(q->r);
	free(q);
}

uint64_t dram_reqs_feed(const struct dram_reqs *q, struct dram_trace_cursor *c, struct dram *d, uint64_t now,
			uint32_t line)
{
	uint64_t mask = line_mask(line), due = UINT64_MAX;
	while (c->issued < q->n)
		if (!feed_one(c, &q->r[c->issued], d, now, mask, &due))
			return due;
	return UINT64_MAX;
}

struct dram_trace_run *dram_trace_run(const struct sim_cfg *cfg, const char *path, char **err)
{
	if (cfg_validate(cfg, err))
		return NULL;
	struct dram_trace *t = dram_trace_open(path, cfg, err);
	if (!t)
		return NULL;
	struct dram_trace_run *r = xcalloc(1, sizeof *r);
	arena_init(&r->arena);
	stats_init(&r->stats, &r->now);
	events_init(&r->events, &r->arena, 1024, &r->now);
	r->dram = dram_new(&r->arena, cfg, &r->stats, &r->events, &r->now, err);
	if (!r->dram) {
		dram_trace_close(t);
		dram_trace_run_free(r);
		return NULL;
	}
	stats_freeze(&r->stats, &r->arena);
	r->format = t->p.fmt;
	r->wrapped = t->wrapped;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	uint32_t line = (uint32_t)(cfg->l2.line > 0 ? cfg->l2.line : 128);
	for (;;) {
		uint32_t tag;
		bool w;
		while (dram_pop_done(r->dram, &tag, &w)) {
			r->requests++;
			if (w)
				r->writes++;
			else
				r->reads++;
		}
		uint64_t due = dram_trace_feed(t, r->dram, r->now, line);
		if (dram_trace_exhausted(t) && dram_idle(r->dram))
			break;
		uint64_t next = dram_next_event(r->dram);
		if (due < next)
			next = due;
		if (next == UINT64_MAX) /* cannot happen: something is pending */
			break;
		r->now = next;
	}
	dram_tick(r->dram);
	/* Count cycles simulated (0 .. the cycle of the last completion), as
	 * sim.cycles does when the TUI or a batch script runs the same trace. */
	r->now++;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	dram_trace_close(t);
	return r;
}

void dram_trace_run_free(struct dram_trace_run *r)
{
	if (!r)
		return;
	stats_fini(&r->stats);
	arena_fini(&r->arena);
	free(r);
}

static double val(const struct stats *s, const char *name)
{
	int id = stats_find(s, name);
	return id < 0 ? 0.0 : stats_value(s, (uint32_t)id);
}

void dram_trace_summary(const struct dram_trace_run *r, struct strbuf *o)
{
	const struct stats *s = &r->stats;
	double req = val(s, "dram.requests");
	double pct = req > 0 ? 100.0 / req : 0.0;
	sb_printf(o, "dram-trace (%s): %" PRIu64 " requests (%" PRIu64 " reads, %" PRIu64 " writes) in %" PRIu64 " core cycles\n",
		  dram_trace_format_name(r->format), r->requests, r->reads, r->writes, r->now);
	sb_printf(o, "  row buffer: %.1f%% hits, %.1f%% misses, %.1f%% conflicts (%.0f activates, %.0f refreshes)\n",
		  val(s, "dram.row_hits") * pct, val(s, "dram.row_misses") * pct, val(s, "dram.row_conflicts") * pct,
		  val(s, "dram.activates"), val(s, "dram.refreshes"));
	sb_printf(o, "  latency (core cycles): read mean %.1f, write mean %.1f\n", val(s, "dram.read_latency_mean"),
		  val(s, "dram.write_latency_mean"));
	sb_printf(o, "  data bus utilisation %.1f%%, bank-level parallelism %.2f, queue full %.0f times\n",
		  100.0 * val(s, "dram.bus_util"), val(s, "dram.blp"), val(s, "dram.queue_full"));
	if (r->wrapped)
		sb_printf(o, "  %" PRIu64 " addresses at or above the DRAM capacity wrapped modulo it (dram.trace_wrap)\n",
			  r->wrapped);
	sb_printf(o, "  simulated in %.3f s (%.0f requests/s)\n", r->seconds,
		  r->seconds > 0 ? (double)r->requests / r->seconds : 0.0);
}
