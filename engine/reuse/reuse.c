/*
 * reuse.c: the reuse-distance profiler (see reuse.h for the structures,
 * bounds and classes). rd_cache_* is the per-cache algorithm, usable on its
 * own (tests, tools); reuse_* wires one rd_cache per L1 and per L2 bank into
 * the simulator: taps, stats and events.
 *
 * Nothing here runs on idle cycles: all work happens inside a lookup, so
 * skip-ahead, stepping and rewinding see the same profile.
 */
#include "reuse.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"
#include "trc.h"

#define NIL UINT32_MAX

static const char *const class_names[RC__COUNT] = {
	[RC_HIT] = "hit",           [RC_COMPULSORY] = "compulsory", [RC_CAPACITY] = "capacity",
	[RC_ASSOC] = "associativity", [RC_LATENCY] = "latency",     [RC_OTHER] = "other",
};

const char *reuse_class_name(unsigned c) { return c < RC__COUNT ? class_names[c] : "?"; }

static uint64_t pow2_at_least(uint64_t x)
{
	uint64_t p = 1;
	while (p < x)
		p <<= 1;
	return p;
}

void rd_cache_init(struct rd_cache *c, struct arena *a, uint32_t sets, uint32_t ways, uint64_t seen_base,
		   uint64_t seen_lines)
{
	assert(sets >= 1 && ways >= 1);
	memset(c, 0, sizeof(*c));
	c->sets = sets;
	c->ways = ways;
	c->lines = sets * ways;
	c->dcap = REUSE_DCAP_FACTOR * ways;
	c->fa_bins = REUSE_DCAP_FACTOR * ways;
	c->fa_width = sets;
	c->kcap = REUSE_DCAP_FACTOR * c->lines;
	ARENA_SET(a, c->stk, uint64_t, (size_t)sets * c->dcap);
	ARENA_SET(a, c->depth, uint16_t, sets);
	ARENA_SET(a, c->head, uint16_t, sets);
	c->nmemb = (uint32_t)pow2_at_least(2 * (uint64_t)sets * c->dcap);
	ARENA_SET(a, c->memb, uint64_t, c->nmemb);
	c->T = (uint32_t)pow2_at_least(2 * (uint64_t)c->kcap);
	c->now = 1;
	ARENA_SET(a, c->fen, uint32_t, c->T + 1);
	ARENA_SET(a, c->owner, uint32_t, c->T + 1);
	ARENA_SET(a, c->ent, struct rd_ent, c->kcap + 1);
	c->nbuckets = (uint32_t)pow2_at_least(c->kcap + 1);
	ARENA_SET(a, c->bucket, uint32_t, c->nbuckets);
	for (uint32_t i = 0; i < c->nbuckets; i++)
		c->bucket[i] = NIL;
	for (uint32_t i = 0; i <= c->kcap; i++)
		c->ent[i].next = i < c->kcap ? i + 1 : NIL;
	c->free_head = 0;
	uint64_t bits = pow2_at_least(seen_lines ? seen_lines : 1);
	if (bits < 64)
		bits = 64;
	if (bits > REUSE_SEEN_MAX_BITS)
		bits = REUSE_SEEN_MAX_BITS;
	c->seen_base = seen_base;
	c->seen_bits = bits;
	ARENA_SET(a, c->seen, uint64_t, bits / 64);
	ARENA_SET(a, c->hist, uint64_t, c->dcap + RB__EXTRA);
	ARENA_SET(a, c->fa_hist, uint64_t, c->fa_bins + RB__EXTRA);
	ARENA_SET(a, c->set_hist, uint32_t, (size_t)sets * (c->dcap + RB__EXTRA));
	c->last_set = -1;
}

/* The footprint as a sorted list of n distinct lines (kept, not copied;
 * it must outlive c): one exact bit per line, replacing the range's bits. */
static void rd_cache_seen_list(struct rd_cache *c, struct arena *a, const uint64_t *lines, uint32_t n)
{
	c->seen_list = lines;
	c->seen_nlist = n;
	c->seen_bits = pow2_at_least(n ? n : 1);
	if (c->seen_bits < 64)
		c->seen_bits = 64;
	ARENA_SET(a, c->seen, uint64_t, c->seen_bits / 64);
}

size_t rd_cache_bytes(const struct rd_cache *c)
{
	return (size_t)c->sets * c->dcap * 8 + (size_t)c->sets * 4 + (size_t)c->nmemb * 8 + ((size_t)c->T + 1) * 8 +
	       ((size_t)c->kcap + 1) * sizeof(struct rd_ent) + (size_t)c->nbuckets * 4 + c->seen_bits / 8 +
	       ((size_t)c->dcap + c->fa_bins + 2 * RB__EXTRA) * 8 + (size_t)c->sets * (c->dcap + RB__EXTRA) * 4;
}

/* ---- Fenwick tree over time slots --------------------------------------- */
static void fen_add(struct rd_cache *c, uint32_t i, int32_t v)
{
	for (; i <= c->T; i += i & (~i + 1))
		c->fen[i] = (uint32_t)((int32_t)c->fen[i] + v);
}

static uint32_t fen_prefix(const struct rd_cache *c, uint32_t i)
{
	uint32_t s = 0;
	for (; i; i -= i & (~i + 1))
		s += c->fen[i];
	return s;
}

/* Smallest occupied slot (live > 0). */
static uint32_t fen_first(const struct rd_cache *c)
{
	uint32_t pos = 0, rem = 1;
	for (uint32_t step = c->T; step; step >>= 1)
		if (pos + step <= c->T && c->fen[pos + step] < rem) {
			pos += step;
			rem -= c->fen[pos];
		}
	return pos + 1;
}

/* Renumber the live slots 1..live, keeping their order; rebuild the tree. */
static void fa_compact(struct rd_cache *c)
{
	uint32_t k = 0;
	for (uint32_t t = 1; t <= c->T; t++) {
		uint32_t o = c->owner[t];
		if (!o)
			continue;
		c->owner[t] = 0;
		c->owner[++k] = o;
		c->ent[o - 1].t = k;
	}
	assert(k == c->live);
	for (uint32_t t = 1; t <= c->T; t++)
		c->fen[t] = c->owner[t] ? 1 : 0;
	for (uint32_t t = 1; t <= c->T; t++) {
		uint32_t j = t + (t & (~t + 1));
		if (j <= c->T)
			c->fen[j] += c->fen[t];
	}
	c->now = k + 1;
}

static uint32_t hash_line(const struct rd_cache *c, uint64_t line)
{
	return (uint32_t)(mix64(line) & (c->nbuckets - 1));
}

static uint32_t ent_find(const struct rd_cache *c, uint64_t line)
{
	for (uint32_t e = c->bucket[hash_line(c, line)]; e != NIL; e = c->ent[e].next)
		if (c->ent[e].line == line)
			return e;
	return NIL;
}

static void ent_remove(struct rd_cache *c, uint32_t e)
{
	uint32_t *p = &c->bucket[hash_line(c, c->ent[e].line)];
	while (*p != e)
		p = &c->ent[*p].next;
	*p = c->ent[e].next;
	c->ent[e].next = c->free_head;
	c->free_head = e;
}

/* FA distance of line (REUSE_INF if untracked), then make it the most recent. */
static int64_t fa_access(struct rd_cache *c, uint64_t line)
{
	int64_t d = REUSE_INF;
	uint32_t e = ent_find(c, line);
	if (e != NIL) {
		uint32_t t = c->ent[e].t;
		d = (int64_t)(c->live - fen_prefix(c, t));
		fen_add(c, t, -1);
		c->owner[t] = 0;
	} else {
		e = c->free_head;
		assert(e != NIL);
		c->free_head = c->ent[e].next;
		c->ent[e].line = line;
		uint32_t h = hash_line(c, line);
		c->ent[e].next = c->bucket[h];
		c->bucket[h] = e;
		c->live++;
	}
	if (c->now > c->T) {
		c->live--; /* compaction counts live slots; e has none right now */
		fa_compact(c);
		c->live++;
	}
	c->ent[e].t = c->now;
	c->owner[c->now] = e + 1;
	fen_add(c, c->now, 1);
	c->now++;
	if (c->live > c->kcap) { /* drop the least recent: its distance is >= K from now on */
		uint32_t t = fen_first(c);
		uint32_t o = c->owner[t] - 1;
		fen_add(c, t, -1);
		c->owner[t] = 0;
		ent_remove(c, o);
		c->live--;
	}
	return d;
}

/* Membership of the set stacks: linear probing, backward-shift deletion. */
static uint32_t memb_slot(const struct rd_cache *c, uint64_t line)
{
	uint32_t m = c->nmemb - 1, i = (uint32_t)mix64(line) & m;
	while (c->memb[i] && c->memb[i] != line + 1)
		i = (i + 1) & m;
	return i;
}

static void memb_remove(struct rd_cache *c, uint64_t line)
{
	uint32_t m = c->nmemb - 1, i = memb_slot(c, line);
	if (!c->memb[i])
		return;
	c->memb[i] = 0;
	for (uint32_t j = (i + 1) & m; c->memb[j]; j = (j + 1) & m) {
		uint32_t home = (uint32_t)mix64(c->memb[j] - 1) & m;
		/* Move j back into the hole if its home is not in (i, j]. */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			c->memb[i] = c->memb[j];
			c->memb[j] = 0;
			i = j;
		}
	}
}

/* Set-view distance of line (REUSE_INF if not in the D-deep stack), then move it to the top. */
static int64_t set_access(struct rd_cache *c, uint64_t line, uint32_t set)
{
	uint64_t *s = &c->stk[(size_t)set * c->dcap];
	uint32_t n = c->depth[set], h = c->head[set], dcap = c->dcap;
	uint32_t slot = memb_slot(c, line);
	if (!c->memb[slot]) { /* not in the stack: push, dropping the oldest when full */
		if (n == dcap) {
			uint32_t last = h + n - 1;
			memb_remove(c, s[last >= dcap ? last - dcap : last]);
			slot = memb_slot(c, line);
		} else {
			c->depth[set] = (uint16_t)(n + 1);
		}
		h = h ? h - 1 : dcap - 1;
		s[h] = line;
		c->head[set] = (uint16_t)h;
		c->memb[slot] = line + 1;
		return REUSE_INF;
	}
	uint32_t i = 0, p = h;
	while (s[p] != line) {
		i++;
		p = p + 1 == dcap ? 0 : p + 1;
	}
	/* Shift the i more recent lines down one place, the line goes on top. */
	for (uint32_t k = i; k > 0; k--) {
		uint32_t prev = p ? p - 1 : dcap - 1;
		s[p] = s[prev];
		p = prev;
	}
	s[h] = line;
	return (int64_t)i;
}

/* Index of line in the sorted footprint, or UINT64_MAX. */
static uint64_t list_find(const struct rd_cache *c, uint64_t line)
{
	uint32_t lo = 0, hi = c->seen_nlist;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->seen_list[mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->seen_nlist && c->seen_list[lo] == line ? lo : UINT64_MAX;
}

/* Mark line seen; returns whether it was. */
static bool seen_test_set(struct rd_cache *c, uint64_t line)
{
	uint64_t i = c->seen_list ? list_find(c, line) : line - c->seen_base;
	if (c->seen_list ? i == UINT64_MAX : (line < c->seen_base || i >= c->seen_bits)) {
		i = mix64(line) & (c->seen_bits - 1);
		c->approx++;
	}
	uint64_t m = 1ull << (i & 63);
	bool was = (c->seen[i >> 6] & m) != 0;
	c->seen[i >> 6] |= m;
	return was;
}

/* Bin of a set-view distance (REUSE_INF -> compulsory bin). */
static unsigned rd_set_bin(const struct rd_cache *c, int64_t d)
{
	if (d == REUSE_INF)
		return c->dcap + RB_INF_COMP;
	return d < (int64_t)c->dcap ? (unsigned)d : c->dcap + RB_OVER;
}

/* Bin of an FA-view distance (REUSE_INF -> compulsory bin). */
static unsigned rd_fa_bin(const struct rd_cache *c, int64_t d)
{
	if (d == REUSE_INF)
		return c->fa_bins + RB_INF_COMP;
	return d < (int64_t)c->kcap ? (unsigned)(d / c->fa_width) : c->fa_bins + RB_OVER;
}

void rd_cache_access(struct rd_cache *c, uint64_t line, uint32_t set, bool hit, bool inflight,
		     struct rd_result *out)
{
	assert(set < c->sets);
	bool seen = seen_test_set(c, line);
	int64_t ds = set_access(c, line, set), dfa = fa_access(c, line);
	if (seen) { /* untracked but seen: beyond the exact range */
		if (ds == REUSE_INF)
			ds = c->dcap;
		if (dfa == REUSE_INF)
			dfa = c->kcap;
	}
	unsigned cls, bin, fbin;
	if (hit) {
		cls = RC_HIT;
		if (ds >= (int64_t)c->ways || ds == REUSE_INF)
			c->hits_far++;
		bin = rd_set_bin(c, ds);
		fbin = rd_fa_bin(c, dfa);
	} else if (inflight) {
		cls = RC_LATENCY;
		bin = c->dcap + RB_INF_LAT;
		fbin = c->fa_bins + RB_INF_LAT;
	} else {
		if (ds == REUSE_INF)
			cls = RC_COMPULSORY;
		else if (dfa >= (int64_t)c->lines)
			cls = RC_CAPACITY;
		else if (ds >= (int64_t)c->ways)
			cls = RC_ASSOC;
		else
			cls = RC_OTHER;
		bin = rd_set_bin(c, ds);
		fbin = rd_fa_bin(c, dfa);
	}
	c->accesses++;
	c->cls[cls]++;
	c->hist[bin]++;
	c->fa_hist[fbin]++;
	c->set_hist[(size_t)set * (c->dcap + RB__EXTRA) + bin]++;
	c->last_line = line;
	c->last_set = (int32_t)set;
	c->last_d = ds;
	c->last_dfa = dfa;
	c->last_cls = (uint8_t)cls;
	c->has_last = 1;
	if (out)
		*out = (struct rd_result){.d_set = ds, .d_fa = dfa, .cls = cls, .bin = bin};
}

/* ---- the simulator's profiler ---------------------------------------------- */
struct reuse_ids {
	uint32_t hist, fa_hist;
	uint32_t cls[RC__COUNT]; /* RC_HIT unused */
};

struct reuse {
	int nl1, nl2;
	unsigned shift; /* log2 line bytes */
	struct rd_cache *l1, *l2;
	struct reuse_ids *id1, *id2, agg1, agg2;
};

static const char *const class_desc[RC__COUNT] = {
	[RC_COMPULSORY] = "misses to lines this cache never saw (reuse distance infinite)",
	[RC_CAPACITY] = "misses a fully associative LRU cache of the same capacity would also have",
	[RC_ASSOC] = "misses a fully associative LRU cache of the same capacity would hit (too few ways)",
	[RC_LATENCY] = "misses to a line already in flight (an MSHR entry exists for it)",
	[RC_OTHER] = "misses an LRU cache of this geometry would hit: sectors, invalidations, replacement policy",
};

static void register_ids(struct sim *s, struct reuse_ids *id, const char *cache, const struct rd_cache *c)
{
	char name[96], desc[200];
	uint64_t *edges = xmalloc(sizeof(uint64_t) * (c->dcap + 1));
	for (uint32_t i = 0; i <= c->dcap; i++)
		edges[i] = i;
	snprintf(name, sizeof name, "reuse.%s.hist", cache);
	snprintf(desc, sizeof desc,
		 "reuse distance within the set per lookup (hit iff < %u ways; last bucket >= %u); infinite: "
		 "%s.miss.compulsory, in flight: %s.miss.latency",
		 c->ways, c->dcap, cache, cache);
	id->hist = stats_hist(&s->stats, name, desc, edges, c->dcap + 1);
	for (uint32_t i = 0; i <= c->fa_bins; i++)
		edges[i] = (uint64_t)i * c->fa_width;
	snprintf(name, sizeof name, "reuse.%s.fa_hist", cache);
	snprintf(desc, sizeof desc,
		 "fully associative reuse distance per lookup (FA LRU of %u lines hits iff < %u; last bucket >= %u)",
		 c->lines, c->lines, c->kcap);
	id->fa_hist = stats_hist(&s->stats, name, desc, edges, c->fa_bins + 1);
	free(edges);
	for (unsigned k = RC_COMPULSORY; k < RC__COUNT; k++) {
		snprintf(name, sizeof name, "%s.miss.%s", cache, class_names[k]);
		id->cls[k] = stats_counter(&s->stats, name, class_desc[k]);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The lines (address >> shift) of every access of a .trc trace, the last
 * byte's line too: their range when at most REUSE_SEEN_MAX_BITS lines
 * wide, else their sorted distinct list (in the arena, shared by the
 * caches). */
static void trc_footprint(struct sim *s, const struct trc *t, unsigned shift, uint64_t *base, uint64_t *nlines,
			  const uint64_t **list, uint32_t *nlist)
{
	const struct trc_info *ti = trc_get_info(t);
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t g = 0; g < ti->threads; g++) {
		uint32_t n;
		const struct trc_acc *a = trc_thread(t, g, &n);
		for (uint32_t i = 0; i < n; i++) {
			lo = MIN(lo, a[i].addr >> shift);
			hi = MAX(hi, (a[i].addr + a[i].bytes - 1) >> shift);
		}
	}
	if (lo > hi)
		return;
	*base = lo;
	*nlines = hi - lo + 1;
	if (*nlines <= REUSE_SEEN_MAX_BITS)
		return;
	size_t cap = 2 * (size_t)ti->accesses, n = 0;
	uint64_t *v = xmalloc(sizeof(*v) * (cap ? cap : 1));
	for (uint32_t g = 0; g < ti->threads; g++) {
		uint32_t na;
		const struct trc_acc *a = trc_thread(t, g, &na);
		for (uint32_t i = 0; i < na; i++) {
			v[n++] = a[i].addr >> shift;
			if ((a[i].addr + a[i].bytes - 1) >> shift != a[i].addr >> shift)
				v[n++] = (a[i].addr + a[i].bytes - 1) >> shift;
		}
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	k = MIN(k, (size_t)UINT32_MAX);
	uint64_t *l = ARENA_NEW(&s->arena, uint64_t, k ? k : 1);
	memcpy(l, v, sizeof(*v) * k);
	free(v);
	*list = l;
	*nlist = (uint32_t)k;
}

struct reuse *reuse_new(struct sim *s)
{
	struct reuse *r = ARENA_NEW(&s->arena, struct reuse, 1);
	const struct sim_cfg *cfg = &s->cfg;
	r->shift = log2u((uint64_t)cfg->l1.line);
	uint64_t lo = 0, hi = 0;
	if (s->wl.kernel)
		kernel_footprint(s->wl.kernel, &lo, &hi);
	uint64_t base = lo >> r->shift, nlines = hi > lo ? ((hi - 1) >> r->shift) - base + 1 : 1;
	const uint64_t *list = NULL;
	uint32_t nlist = 0;
	if (s->wl.ops == &trc_wl_ops) /* a .trc trace: the lines it touches */
		trc_footprint(s, s->wl.impl, r->shift, &base, &nlines, &list, &nlist);
	else if (!s->wl.kernel) /* Accel-Sim traces: unknown, streamed; the most bits */
		nlines = REUSE_SEEN_MAX_BITS;
	r->nl1 = cfg->l1.enabled ? cfg->core.sms : 0;
	r->nl2 = cfg->l2.banks;
	ARENA_SET(&s->arena, r->l1, struct rd_cache, r->nl1 ? r->nl1 : 1);
	ARENA_SET(&s->arena, r->l2, struct rd_cache, r->nl2);
	ARENA_SET(&s->arena, r->id1, struct reuse_ids, r->nl1 ? r->nl1 : 1);
	ARENA_SET(&s->arena, r->id2, struct reuse_ids, r->nl2);
	char cache[48];
	for (int i = 0; i < r->nl1; i++) {
		rd_cache_init(&r->l1[i], &s->arena, (uint32_t)cfg->l1.sets, (uint32_t)cfg->l1.ways, base, list ? 1 : nlines);
		if (list)
			rd_cache_seen_list(&r->l1[i], &s->arena, list, nlist);
		snprintf(cache, sizeof cache, "sm%d.l1", i);
		register_ids(s, &r->id1[i], cache, &r->l1[i]);
	}
	if (r->nl1)
		register_ids(s, &r->agg1, "l1", &r->l1[0]);
	for (int i = 0; i < r->nl2; i++) {
		rd_cache_init(&r->l2[i], &s->arena, (uint32_t)cfg->l2.sets, (uint32_t)cfg->l2.ways, base, list ? 1 : nlines);
		if (list)
			rd_cache_seen_list(&r->l2[i], &s->arena, list, nlist);
		snprintf(cache, sizeof cache, "l2.bank%d", i);
		register_ids(s, &r->id2[i], cache, &r->l2[i]);
	}
	register_ids(s, &r->agg2, "l2", &r->l2[0]);
	return r;
}

const struct rd_cache *reuse_cache(const struct sim *s, int kind, int unit)
{
	const struct reuse *r = s->reuse;
	if (!r || unit < 0)
		return NULL;
	if (kind == 0)
		return unit < r->nl1 ? &r->l1[unit] : NULL;
	return kind == 1 && unit < r->nl2 ? &r->l2[unit] : NULL;
}

static void count(struct sim *s, const struct reuse_ids *id, const struct reuse_ids *agg,
		  const struct rd_result *res)
{
	if (res->cls != RC_LATENCY && res->d_set != REUSE_INF) {
		stat_hist_add(&s->stats, id->hist, (uint64_t)res->d_set);
		stat_hist_add(&s->stats, agg->hist, (uint64_t)res->d_set);
		stat_hist_add(&s->stats, id->fa_hist, (uint64_t)res->d_fa);
		stat_hist_add(&s->stats, agg->fa_hist, (uint64_t)res->d_fa);
	}
	if (res->cls != RC_HIT) {
		stat_inc(&s->stats, id->cls[res->cls]);
		stat_inc(&s->stats, agg->cls[res->cls]);
	}
}

static void emit(struct sim *s, const struct rd_result *res, int sm, int warp, int unit, uint64_t addr, int set)
{
	uint64_t now = s->st->now;
	int64_t d = res->cls == RC_LATENCY ? REUSE_INF : res->d_set;
	EV_EMIT(&s->ev, EV_REUSE_ACCESS, .cycle = now, .sm = (int16_t)sm, .warp = (int16_t)warp, .unit = (int16_t)unit,
		.addr = addr, .set = set, .a = d, .b = res->cls);
	if (d == REUSE_INF)
		EV_EMIT(&s->ev, EV_REUSE_INF, .cycle = now, .sm = (int16_t)sm, .warp = (int16_t)warp,
			.unit = (int16_t)unit, .addr = addr, .set = set, .a = d, .b = res->cls);
	if (res->cls != RC_HIT)
		EV_EMIT(&s->ev, EV_REUSE_CLASS, .cycle = now, .sm = (int16_t)sm, .warp = (int16_t)warp,
			.unit = (int16_t)unit, .addr = addr, .set = set, .a = d, .b = res->cls);
}

void reuse_tap_l1(struct sim *s, int sm, int warp, uint64_t addr, int set, bool hit, bool inflight)
{
	struct reuse *r = s->reuse;
	if (!r || sm >= r->nl1)
		return;
	struct rd_result res;
	struct rd_cache *c = &r->l1[sm];
	rd_cache_access(c, addr >> r->shift, (uint32_t)set, hit, inflight, &res);
	c->last_cycle = s->st->now;
	count(s, &r->id1[sm], &r->agg1, &res);
	emit(s, &res, sm, warp, -1, addr, set);
}

void reuse_tap_l2(struct sim *s, int bank, int sm, uint64_t addr, int set, bool hit, bool inflight)
{
	struct reuse *r = s->reuse;
	if (!r || bank >= r->nl2)
		return;
	struct rd_result res;
	struct rd_cache *c = &r->l2[bank];
	rd_cache_access(c, addr >> r->shift, (uint32_t)set, hit, inflight, &res);
	c->last_cycle = s->st->now;
	count(s, &r->id2[bank], &r->agg2, &res);
	emit(s, &res, sm, -1, bank, addr, set);
}

/* ---- probe listeners (sim/probe.h) ------------------------------------------ */

static void on_l1_access(struct sim *s, const void *arg)
{
	const struct probe_access *a = arg;
	reuse_tap_l1(s, a->unit, a->warp, a->addr, a->set, a->hit, a->inflight);
}

static void on_l2_access(struct sim *s, const void *arg)
{
	const struct probe_access *a = arg;
	reuse_tap_l2(s, a->unit, a->from_sm, a->addr, a->set, a->hit, a->inflight);
}

void reuse_attach(struct sim *s)
{
	if (!s->reuse)
		return;
	probe_listen(&s->probes, PP_L1_ACCESS, on_l1_access);
	probe_listen(&s->probes, PP_L2_ACCESS, on_l2_access);
}
