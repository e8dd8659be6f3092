/*
 * stats.c: the statistics registry (see stats.h).
 *
 * Registration appends a stat_def and reserves a slot in one of three value
 * arrays (counters, occupancies, histogram cells). stats_freeze() allocates
 * those arrays from the simulator arena, so a snapshot of the arena carries
 * every value while names and descriptions stay on the heap.
 *
 *   defs[id] ──kind──▶ COUNTER: vals[slot]
 *                      OCC:     occ[slot]
 *                      HIST:    hist[slot .. slot + nbuckets)
 *                      RATIO:   value(num) / value(den) * scale (no storage)
 */
#include "stats.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void stats_init(struct stats *s, const uint64_t *now)
{
	memset(s, 0, sizeof(*s));
	s->now = now;
}

void stats_fini(struct stats *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		free(s->defs[i].name);
		free((char *)s->defs[i].desc);
		free(s->defs[i].edges);
	}
	free(s->defs);
	free(s->occ_view);
	free(s->hidx);
	memset(s, 0, sizeof(*s));
}

const char *stat_kind_name(enum stat_kind k)
{
	switch (k) {
	case STAT_COUNTER:
		return "counter";
	case STAT_OCC:
		return "occupancy";
	case STAT_HIST:
		return "histogram";
	case STAT_RATIO:
		return "ratio";
	}
	return "?";
}

static uint32_t name_hash(const char *name)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

static void hidx_put(struct stats *s, uint32_t id)
{
	uint32_t m = s->hcap - 1, i = name_hash(s->defs[id].name) & m;
	while (s->hidx[i] != UINT32_MAX)
		i = (i + 1) & m;
	s->hidx[i] = id;
}

/* Keep the index at most half full (n + 1 entries after the next add). */
static void hidx_grow(struct stats *s)
{
	if (s->hcap >= 2 * (s->n + 1))
		return;
	free(s->hidx);
	s->hcap = s->hcap ? s->hcap * 2 : 256;
	while (s->hcap < 2 * (s->n + 1))
		s->hcap *= 2;
	s->hidx = xmalloc(sizeof(*s->hidx) * s->hcap);
	memset(s->hidx, 0xff, sizeof(*s->hidx) * s->hcap);
	for (uint32_t i = 0; i < s->n; i++)
		hidx_put(s, i);
}

static struct stat_def *stats_add(struct stats *s, const char *name, const char *desc, enum stat_kind k)
{
	assert(!s->frozen && "stat registered after stats_freeze");
	assert(stats_find(s, name) < 0 && "duplicate stat name");
	hidx_grow(s);
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->defs = xrealloc(s->defs, sizeof(*s->defs) * s->cap);
	}
	struct stat_def *d = &s->defs[s->n++];
	memset(d, 0, sizeof(*d));
	d->name = xstrdup(name);
	d->desc = xstrdup(desc ? desc : ""); /* owned: callers may pass formatted text */
	d->kind = k;
	d->scale = 1.0;
	hidx_put(s, s->n - 1);
	return d;
}

uint32_t stats_counter(struct stats *s, const char *name, const char *desc)
{
	struct stat_def *d = stats_add(s, name, desc, STAT_COUNTER);
	d->slot = s->ncounters++;
	return s->n - 1;
}

uint32_t stats_occupancy(struct stats *s, const char *name, const char *desc, uint64_t capacity)
{
	struct stat_def *d = stats_add(s, name, desc, STAT_OCC);
	d->slot = s->nocc++;
	/* Capacity is kept in the def until freeze copies it into the value. */
	d->num = (uint32_t)(capacity > UINT32_MAX ? UINT32_MAX : capacity);
	return s->n - 1;
}

uint32_t stats_hist(struct stats *s, const char *name, const char *desc, const uint64_t *edges,
		    uint32_t nbuckets)
{
	assert(nbuckets > 0);
	struct stat_def *d = stats_add(s, name, desc, STAT_HIST);
	d->slot = s->nhist_cells;
	d->nbuckets = nbuckets;
	d->edges = xmalloc(sizeof(uint64_t) * nbuckets);
	memcpy(d->edges, edges, sizeof(uint64_t) * nbuckets);
	for (uint32_t i = 1; i < nbuckets; i++)
		assert(edges[i] > edges[i - 1] && "histogram edges must increase");
	/* Evenly spaced from 0 (the reuse-distance histograms): no search needed. */
	d->step = nbuckets > 1 && edges[0] == 0 ? edges[1] : 0;
	for (uint32_t i = 1; i < nbuckets && d->step; i++)
		if (edges[i] != (uint64_t)i * d->step)
			d->step = 0;
	s->nhist_cells += nbuckets;
	return s->n - 1;
}

uint32_t stats_ratio(struct stats *s, const char *name, const char *desc, const char *num, const char *den,
		     double scale)
{
	int in = stats_find(s, num), id = stats_find(s, den);
	assert(in >= 0 && id >= 0 && "ratio of unknown stats");
	struct stat_def *d = stats_add(s, name, desc, STAT_RATIO);
	d->num = (uint32_t)in;
	d->den = (uint32_t)id;
	d->scale = scale;
	return s->n - 1;
}

void stats_freeze(struct stats *s, struct arena *a)
{
	assert(!s->frozen);
	ARENA_SET(a, s->vals, uint64_t, s->ncounters ? s->ncounters : 1);
	ARENA_SET(a, s->occ, struct stat_occ, s->nocc ? s->nocc : 1);
	ARENA_SET(a, s->hist, uint64_t, s->nhist_cells ? s->nhist_cells : 1);
	s->occ_view = xcalloc(s->nocc ? s->nocc : 1, sizeof(*s->occ_view));
	for (uint32_t i = 0; i < s->n; i++)
		if (s->defs[i].kind == STAT_OCC) {
			s->occ[s->defs[i].slot].capacity = s->defs[i].num;
			s->defs[i].num = 0;
		}
	s->frozen = true;
}

static uint64_t now_of(const struct stats *s) { return s->now ? *s->now : 0; }

/* Bring an occupancy record's integrals from o->last up to `now`. */
static void occ_advance(struct stat_occ *o, uint64_t now)
{
	if (now > o->last) {
		uint64_t dt = now - o->last;
		o->integral += o->cur * dt;
		if (o->capacity && o->cur >= o->capacity)
			o->full += dt;
		o->last = now;
	}
}

void stat_occ_set(struct stats *s, uint32_t id, uint64_t value)
{
	if (par_cur && par_cur->sm) { /* a threaded SM phase: replayed in SM order (par.h) */
		par_occ_push(id, false, value);
		return;
	}
	struct stat_occ *o = &s->occ[s->defs[id].slot];
	occ_advance(o, now_of(s));
	o->cur = value;
	if (value > o->max)
		o->max = value;
}

void stat_hist_add(struct stats *s, uint32_t id, uint64_t sample)
{
	const struct stat_def *d = &s->defs[id];
	if (d->step) {
		uint64_t b = sample / d->step;
		uint32_t cell = d->slot + (uint32_t)(b < d->nbuckets ? b : d->nbuckets - 1);
		if (par_cur)
			par_hist_add(cell);
		else
			s->hist[cell]++;
		return;
	}
	/* Last bucket whose lower edge <= sample; below the first edge counts in bucket 0. */
	uint32_t lo = 0, hi = d->nbuckets;
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;
		if (d->edges[mid] <= sample)
			lo = mid;
		else
			hi = mid;
	}
	if (par_cur)
		par_hist_add(d->slot + lo);
	else
		s->hist[d->slot + lo]++;
}

int stats_find(const struct stats *s, const char *name)
{
	if (!s->hcap)
		return -1;
	uint32_t m = s->hcap - 1;
	for (uint32_t i = name_hash(name) & m; s->hidx[i] != UINT32_MAX; i = (i + 1) & m)
		if (strcmp(s->defs[s->hidx[i]].name, name) == 0)
			return (int)s->hidx[i];
	return -1;
}

void stats_sync_pending(const struct stats *cs)
{
	/* The registry is never an object defined const: the const of the
	 * readers is what they promise about the values, which this keeps. */
	struct stats *s = (struct stats *)cs;
	assert(par_cur == NULL);
	s->pending = false;
	for (uint32_t i = 0; i < s->npend; i++)
		par_thr_merge_stats(&s->pend[i], s);
}

uint64_t stats_counter_value(const struct stats *s, uint32_t id)
{
	const struct stat_def *d = &s->defs[id];
	stats_sync(s);
	if (!s->frozen)
		return 0;
	switch (d->kind) {
	case STAT_COUNTER:
		return s->vals[d->slot];
	case STAT_OCC:
		return s->occ[d->slot].cur;
	case STAT_HIST: {
		uint64_t n = 0;
		for (uint32_t i = 0; i < d->nbuckets; i++)
			n += s->hist[d->slot + i];
		return n;
	}
	case STAT_RATIO:
		return (uint64_t)stats_value(s, id);
	}
	return 0;
}

const struct stat_occ *stats_occ(const struct stats *s, uint32_t id)
{
	const struct stat_def *d = &s->defs[id];
	assert(d->kind == STAT_OCC && s->frozen);
	struct stat_occ *v = &s->occ_view[d->slot];
	*v = s->occ[d->slot];
	occ_advance(v, now_of(s));
	return v;
}

double stats_occ_mean(const struct stats *s, uint32_t id)
{
	const struct stat_occ *o = stats_occ(s, id);
	uint64_t now = now_of(s);
	return now ? (double)o->integral / (double)now : (double)o->cur;
}

const uint64_t *stats_hist_counts(const struct stats *s, uint32_t id)
{
	const struct stat_def *d = &s->defs[id];
	assert(d->kind == STAT_HIST && s->frozen);
	stats_sync(s);
	return &s->hist[d->slot];
}

double stats_value(const struct stats *s, uint32_t id)
{
	const struct stat_def *d = &s->defs[id];
	if (!s->frozen)
		return 0;
	switch (d->kind) {
	case STAT_COUNTER:
	case STAT_HIST:
		return (double)stats_counter_value(s, id);
	case STAT_OCC:
		return stats_occ_mean(s, id);
	case STAT_RATIO: {
		double den = stats_value(s, d->den);
		return den != 0 ? stats_value(s, d->num) / den * d->scale : 0.0;
	}
	}
	return 0;
}

static void stats_format_value(const struct stats *s, uint32_t id, struct strbuf *out)
{
	const struct stat_def *d = &s->defs[id];
	switch (d->kind) {
	case STAT_COUNTER:
		sb_printf(out, "%" PRIu64, stats_counter_value(s, id));
		break;
	case STAT_RATIO:
		sb_printf(out, "%.4f", stats_value(s, id));
		break;
	case STAT_OCC: {
		if (!s->frozen) {
			sb_puts(out, "0");
			break;
		}
		const struct stat_occ *o = stats_occ(s, id);
		sb_printf(out, "%" PRIu64 " (max %" PRIu64, o->cur, o->max);
		if (o->capacity)
			sb_printf(out, "/%" PRIu64, o->capacity);
		sb_printf(out, ", mean %.2f", stats_occ_mean(s, id));
		if (o->capacity)
			sb_printf(out, ", full %" PRIu64 " cycles", o->full);
		sb_puts(out, ")");
		break;
	}
	case STAT_HIST: {
		sb_printf(out, "%" PRIu64 " samples", stats_counter_value(s, id));
		if (!s->frozen)
			break;
		const uint64_t *c = stats_hist_counts(s, id);
		sb_puts(out, " [");
		for (uint32_t i = 0; i < d->nbuckets; i++)
			sb_printf(out, "%s%" PRIu64 "+:%" PRIu64, i ? " " : "", d->edges[i], c[i]);
		sb_puts(out, "]");
		break;
	}
	}
}

void stats_format(const struct stats *s, uint32_t id, struct strbuf *out)
{
	sb_printf(out, "%s = ", s->defs[id].name);
	stats_format_value(s, id, out);
}
