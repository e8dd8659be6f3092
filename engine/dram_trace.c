/*
 * dram_trace.c: DRAM-level trace reader and batch runner (see dram_trace.h).
 *
 * The reader keeps one look-ahead record; the file is read with getline()
 * line by line, so a 1 M-line trace costs a few hundred bytes of memory.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "dram_trace.h"

struct dram_trace {
	FILE *f;
	char *path;
	char *buf;
	size_t cap;
	unsigned long line;
	enum dram_trace_fmt fmt;
	int sub;            /* Ramulator: 0 = LD/ST, 1 = "0xADDR R|W" */
	uint64_t count;
	struct dram_trace_cursor cur;
	bool have;          /* look-ahead valid */
	bool eof;
	struct dram_trace_rec head;
};

const char *dram_trace_format_name(enum dram_trace_fmt f) { return f == DTF_DRAMSIM ? "dramsim" : "ramulator"; }

static char *tok(char **s)
{
	char *p = *s;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return NULL;
	char *start = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	if (*p)
		*p++ = 0;
	*s = p;
	return start;
}

static bool parse_u64(const char *s, uint64_t *v, int base)
{
	char *end;
	errno = 0;
	if (!s || !*s || *s == '-')
		return false;
	unsigned long long x = strtoull(s, &end, base);
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

static int kind_word(const char *s)
{
	if (!s)
		return -1;
	if (!strcasecmp(s, "READ") || !strcasecmp(s, "RD") || !strcasecmp(s, "R") || !strcasecmp(s, "LD") ||
	    !strcasecmp(s, "P_MEM_RD"))
		return 0;
	if (!strcasecmp(s, "WRITE") || !strcasecmp(s, "WR") || !strcasecmp(s, "W") || !strcasecmp(s, "ST") ||
	    !strcasecmp(s, "P_MEM_WR"))
		return 1;
	return -1;
}

static const char *expect_text(const struct dram_trace *t)
{
	if (t->fmt == DTF_DRAMSIM)
		return "expected \"0xADDR READ|WRITE CYCLE\" (DRAMSim format)";
	return t->sub ? "expected \"0xADDR R|W\" (Ramulator format)" : "expected \"LD 0xADDR\" or \"ST 0xADDR\" (Ramulator format)";
}

/* 1 = record, 0 = skip (blank/comment), -1 = malformed. First data line fixes the format. */
static int parse_line(struct dram_trace *t, char *s, struct dram_trace_rec *r, bool detect)
{
	char *p = s;
	char *a = tok(&p);
	if (!a || a[0] == '#')
		return 0;
	char *b = tok(&p), *c = tok(&p), *extra = tok(&p);
	if (detect) {
		if (kind_word(a) >= 0 && strlen(a) == 2 && b && !c)
			t->fmt = DTF_RAMULATOR, t->sub = 0;
		else if (c)
			t->fmt = DTF_DRAMSIM;
		else
			t->fmt = DTF_RAMULATOR, t->sub = 1;
	}
	memset(r, 0, sizeof *r);
	if (t->fmt == DTF_DRAMSIM) {
		int k = kind_word(b);
		if (extra || !c || k < 0 || !parse_u64(a, &r->addr, 0) || !parse_u64(c, &r->cycle, 10))
			return -1;
		r->is_write = k;
	} else if (!t->sub) {
		int k = kind_word(a);
		if (c || !b || k < 0 || (strcasecmp(a, "LD") && strcasecmp(a, "ST")) || !parse_u64(b, &r->addr, 0))
			return -1;
		r->is_write = k;
	} else {
		int k = kind_word(b);
		if (c || !b || k < 0 || !parse_u64(a, &r->addr, 0))
			return -1;
		r->is_write = k;
	}
	return 1;
}

struct dram_trace *dram_trace_open(const char *path, char **err)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		set_err(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct dram_trace *t = xcalloc(1, sizeof *t);
	t->f = f;
	t->path = xstrdup(path);
	bool detected = false;
	uint64_t last_cycle = 0;
	ssize_t n;
	while ((n = getline(&t->buf, &t->cap, f)) >= 0) {
		t->line++;
		struct dram_trace_rec r;
		char *copy = xstrdup(t->buf);
		copy[strcspn(copy, "\r\n")] = 0;
		int rc = parse_line(t, t->buf, &r, !detected);
		if (rc < 0) {
			set_err(err, "%s:%lu: %s, got \"%.60s\"", path, t->line, expect_text(t), copy);
			free(copy);
			dram_trace_close(t);
			return NULL;
		}
		free(copy);
		if (!rc)
			continue;
		detected = true;
		if (t->fmt == DTF_DRAMSIM && r.cycle < last_cycle) {
			set_err(err, "%s:%lu: expected a cycle >= %" PRIu64 " (cycles must not decrease), got %" PRIu64, path,
				t->line, last_cycle, r.cycle);
			dram_trace_close(t);
			return NULL;
		}
		last_cycle = r.cycle;
		t->count++;
	}
	if (ferror(f)) {
		set_err(err, "%s: read error", path);
		dram_trace_close(t);
		return NULL;
	}
	if (!t->count) {
		set_err(err, "%s: no requests (expected lines \"0xADDR READ|WRITE CYCLE\" or \"LD|ST 0xADDR\"; "
			     "the file has only blank or '#' lines)", path);
		dram_trace_close(t);
		return NULL;
	}
	rewind(f);
	t->line = 0;
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

enum dram_trace_fmt dram_trace_format(const struct dram_trace *t) { return t->fmt; }
uint64_t dram_trace_count(const struct dram_trace *t) { return t->count; }
uint64_t dram_trace_issued(const struct dram_trace *t) { return t->cur.issued; }

int dram_trace_next(struct dram_trace *t, struct dram_trace_rec *r)
{
	while (getline(&t->buf, &t->cap, t->f) >= 0) {
		t->line++;
		int rc = parse_line(t, t->buf, r, false);
		if (rc > 0)
			return 1;
		/* rc < 0 cannot happen: the file was checked (unless it changed) */
		if (rc < 0)
			return 0;
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

bool dram_trace_exhausted(const struct dram_trace *t) { return !t->have && t->eof; }

/* Feed record r (the next of the trace) if it is due and its queue has room:
 * true = enqueued; false = stop, *due = when to try again. */
static bool feed_one(struct dram_trace_cursor *c, const struct dram_trace_rec *r, struct dram *d, uint64_t now,
		     uint64_t mask, uint64_t *due)
{
	if (r->cycle > now) {
		*due = r->cycle;
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

uint64_t dram_trace_feed(struct dram_trace *t, struct dram *d, uint64_t now, uint32_t line)
{
	uint64_t mask = line_mask(line), due = UINT64_MAX;
	while (look(t)) {
		if (!feed_one(&t->cur, &t->head, d, now, mask, &due))
			return due;
		t->have = false;
	}
	return UINT64_MAX;
}

struct dram_reqs *dram_trace_load(const char *path, char **err)
{
	struct dram_trace *t = dram_trace_open(path, err);
	if (!t)
		return NULL;
	struct dram_reqs *q = xcalloc(1, sizeof *q);
	q->fmt = t->fmt;
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
	struct dram_trace *t = dram_trace_open(path, err);
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
	r->format = t->fmt;
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
	sb_printf(o, "  simulated in %.3f s (%.0f requests/s)\n", r->seconds,
		  r->seconds > 0 ? (double)r->requests / r->seconds : 0.0);
}
