/*
 * rdmodel.c: the analytical reuse-distance cache model (rdmodel.h).
 *
 * One time-stamp of rdm_run (rule A; rule B moves step 3 before step 2):
 *   1. delayed warps whose ready time has come join the back of the queue
 *   2. the front warp issues its next load instruction: every request looks
 *      up its set's stack; a miss to a line with no MSHR entry needs a free
 *      one (and the per-warp cap), else the whole instruction is cancelled
 *      and the warp goes to the back
 *   3. effects due now are applied in issue order (line to the top of its set
 *      stack and of the shadow fully associative stack); MSHRs whose line
 *      arrived are freed
 * Stacks are kept 4W deep per set (exact distances below 4W). The shadow
 * fully associative stack only has to answer "distance < S*W?", which is
 * membership in an LRU list of S*W lines: a hash map to list nodes, O(1)
 * per lookup and touch (a linear stack of 128-384 lines took most of the
 * model's time on miss-heavy workloads).
 */
#include "rdmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "util.h"

/* ---- trace ------------------------------------------------------------- */
struct rdm_trace {
	uint64_t *line;
	size_t nline, capl;
	uint32_t *inst; /* first request of instruction i; inst[ninst] = nline */
	size_t ninst, capi;
	uint32_t *warp; /* first instruction of warp w; warp[nwarp] = ninst */
	uint32_t *aset;
	size_t nwarp, capw;
};

struct rdm_trace *rdm_trace_new(void) { return xcalloc(1, sizeof(struct rdm_trace)); }

void rdm_trace_free(struct rdm_trace *t)
{
	if (!t)
		return;
	free(t->line);
	free(t->inst);
	free(t->warp);
	free(t->aset);
	free(t);
}

#define GROW(p, n, cap)                                                                            \
	do {                                                                                       \
		if ((n) + 2 > (cap)) {                                                             \
			(cap) = (cap) ? (cap) * 2 : 64;                                            \
			(p) = xrealloc((p), sizeof(*(p)) * (cap));                                 \
		}                                                                                  \
	} while (0)

void rdm_trace_warp(struct rdm_trace *t, uint32_t active_set)
{
	if (t->nwarp + 2 > t->capw) {
		t->capw = t->capw ? t->capw * 2 : 64;
		t->warp = xrealloc(t->warp, sizeof(*t->warp) * t->capw);
		t->aset = xrealloc(t->aset, sizeof(*t->aset) * t->capw);
	}
	t->aset[t->nwarp] = active_set;
	t->warp[t->nwarp++] = (uint32_t)t->ninst;
}

void rdm_trace_inst(struct rdm_trace *t)
{
	GROW(t->inst, t->ninst, t->capi);
	t->inst[t->ninst++] = (uint32_t)t->nline;
}

void rdm_trace_line(struct rdm_trace *t, uint64_t line)
{
	GROW(t->line, t->nline, t->capl);
	t->line[t->nline++] = line;
}

uint64_t rdm_trace_requests(const struct rdm_trace *t) { return t->nline; }

uint32_t rdm_blocks_modelled(const struct rdm_cfg *c, uint32_t B, uint32_t blocks)
{
	if (!c->thread_cap || !B)
		return blocks;
	return MIN(blocks, MAX(1u, c->thread_cap / B));
}

struct rdm_trace *rdm_trace_from_kernel(const struct kernel *k, const struct rdm_cfg *c)
{
	struct rdm_trace *t = rdm_trace_new();
	uint32_t B = kernel_threads_per_cta(k), nb = kernel_ctas(k);
	if (B == 0)
		return t;
	nb = rdm_blocks_modelled(c, B, nb);
	uint32_t A = MAX(1u, MIN(c->max_blocks, c->max_threads / B));
	uint32_t wpb = (B + c->warp_size - 1) / c->warp_size;
	struct kwarp kw;
	struct winst *in = xmalloc(sizeof(*in));
	uint64_t seen[KMAX_LANES];
	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t w = 0; w < wpb; w++) {
			rdm_trace_warp(t, b / A);
			kernel_warp_start(k, &kw, b, w, c->warp_size);
			while (kernel_warp_next(k, &kw, in)) {
				if (in->op != KOP_LD || !in->active)
					continue;
				rdm_trace_inst(t);
				unsigned g = in->size <= 4 ? c->warp_size : in->size <= 8 ? 16 : 8;
				for (unsigned g0 = 0; g0 < c->warp_size; g0 += g) {
					unsigned n = 0;
					for (unsigned l = g0; l < g0 + g && l < c->warp_size; l++) {
						if (!(in->active >> l & 1))
							continue;
						uint64_t line = in->addr[l] / c->line;
						unsigned j = 0;
						while (j < n && seen[j] != line)
							j++;
						if (j == n) {
							seen[n++] = line;
							rdm_trace_line(t, line);
						}
					}
				}
			}
		}
	free(in);
	return t;
}

/* ---- config ------------------------------------------------------------ */
void rdm_cfg_fermi(struct rdm_cfg *c, bool kb48)
{
	*c = (struct rdm_cfg){.line = 128, .sets = kb48 ? 64 : 32, .ways = kb48 ? 6 : 4, .set_fn = RDM_FERMI,
			      .mshr = 64, .mshr_per_warp = 6, .lat_hit = 0, .lat_min = 100, .lat_sigma = 5,
			      .clip = true, .rule_b = false, .policy = RDM_WARP_QUEUE, .warp_size = 32,
			      .max_blocks = 8, .max_threads = 1536, .thread_cap = 8192, .seed = 1};
}

uint32_t rdm_set_of(const struct rdm_cfg *c, uint64_t la)
{
	if (c->set_fn == RDM_FERMI) {
		unsigned lo = (unsigned)(la & 31);
		unsigned hi = (unsigned)(((la >> 6) & 7) | ((la >> 10) & 1) << 3 | ((la >> 12) & 1) << 4);
		return ((lo ^ hi) + 32u * (unsigned)((la >> 5) & 1)) % c->sets;
	}
	return (uint32_t)(la % c->sets);
}

/* ---- a growable open-addressing map line -> (value, owner) -------------- */
struct lmap {
	uint64_t *key; /* line + 1; 0 = empty */
	uint64_t *val;
	uint32_t *own;
	size_t cap, n;
};

static size_t lm_slot(const struct lmap *m, uint64_t line)
{
	size_t i = mix64(line) & (m->cap - 1);
	while (m->key[i] && m->key[i] != line + 1)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void lm_init(struct lmap *m, size_t cap)
{
	m->cap = cap;
	m->n = 0;
	m->key = xcalloc(cap, 8);
	m->val = xcalloc(cap, 8);
	m->own = xcalloc(cap, 4);
}

static void lm_fini(struct lmap *m)
{
	free(m->key);
	free(m->val);
	free(m->own);
}

static uint64_t *lm_get(struct lmap *m, uint64_t line)
{
	size_t i = lm_slot(m, line);
	return m->key[i] ? &m->val[i] : NULL;
}

static void lm_put(struct lmap *m, uint64_t line, uint64_t v, uint32_t own)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct lmap o = *m;
		lm_init(m, o.cap * 2);
		for (size_t i = 0; i < o.cap; i++)
			if (o.key[i])
				lm_put(m, o.key[i] - 1, o.val[i], o.own[i]);
		lm_fini(&o);
	}
	size_t i = lm_slot(m, line);
	if (!m->key[i])
		m->n++;
	m->key[i] = line + 1;
	m->val[i] = v;
	m->own[i] = own;
}

static void lm_del(struct lmap *m, uint64_t line)
{
	size_t i = lm_slot(m, line);
	if (!m->key[i])
		return;
	m->key[i] = 0;
	m->n--;
	/* backward-shift: re-place the rest of the cluster */
	for (size_t j = (i + 1) & (m->cap - 1); m->key[j]; j = (j + 1) & (m->cap - 1)) {
		uint64_t k = m->key[j], v = m->val[j];
		uint32_t o = m->own[j];
		m->key[j] = 0;
		m->n--;
		lm_put(m, k - 1, v, o);
	}
}

/* ---- the shadow fully associative LRU (N lines) -------------------------- */
struct falru {
	struct lmap where; /* line -> node */
	uint64_t *line;
	uint32_t *prev, *next; /* doubly linked, most recent at head; UINT32_MAX = none */
	uint32_t head, tail, n, cap;
};

#define FA_NONE UINT32_MAX

static void fa_init(struct falru *f, uint32_t cap)
{
	*f = (struct falru){.head = FA_NONE, .tail = FA_NONE, .cap = cap};
	size_t mc = 64;
	while (mc < 4 * (size_t)cap)
		mc *= 2;
	lm_init(&f->where, mc);
	f->line = xcalloc(cap, 8);
	f->prev = xcalloc(cap, 4);
	f->next = xcalloc(cap, 4);
}

static void fa_fini(struct falru *f)
{
	lm_fini(&f->where);
	free(f->line);
	free(f->prev);
	free(f->next);
}

static bool fa_has(struct falru *f, uint64_t line) { return lm_get(&f->where, line) != NULL; }

static void fa_unlink(struct falru *f, uint32_t i)
{
	if (f->prev[i] != FA_NONE)
		f->next[f->prev[i]] = f->next[i];
	else
		f->head = f->next[i];
	if (f->next[i] != FA_NONE)
		f->prev[f->next[i]] = f->prev[i];
	else
		f->tail = f->prev[i];
}

static void fa_push_front(struct falru *f, uint32_t i)
{
	f->prev[i] = FA_NONE;
	f->next[i] = f->head;
	if (f->head != FA_NONE)
		f->prev[f->head] = i;
	f->head = i;
	if (f->tail == FA_NONE)
		f->tail = i;
}

/* Move line to the top; the least recent line drops out when full. */
static void fa_touch(struct falru *f, uint64_t line)
{
	if (!f->cap)
		return;
	uint64_t *v = lm_get(&f->where, line);
	uint32_t i;
	if (v) {
		i = (uint32_t)*v;
		fa_unlink(f, i);
	} else if (f->n < f->cap) {
		i = f->n++;
		lm_put(&f->where, line, i, 0);
	} else {
		i = f->tail;
		fa_unlink(f, i);
		lm_del(&f->where, f->line[i]);
		lm_put(&f->where, line, i, 0);
	}
	f->line[i] = line;
	fa_push_front(f, i);
}

/* ---- model state --------------------------------------------------------- */
struct eff {
	uint64_t t, seq, line;
};

struct st {
	const struct rdm_cfg *c;
	uint32_t D, N;
	uint64_t *stk;   /* [sets * D] */
	uint32_t *depth;
	struct falru fa; /* shadow fully associative LRU of N lines */
	struct lmap seen, inflight; /* inflight: line -> effect time, owner warp */
	uint32_t *wmshr; /* per warp in-flight entries it allocated */
	struct eff *heap;
	size_t nheap, capheap;
	struct rng rng;
	double spare; /* the second normal of the last Box-Muller pair */
	bool have_spare;
};

static int64_t stack_find(const uint64_t *s, uint32_t n, uint64_t line)
{
	for (uint32_t i = 0; i < n; i++)
		if (s[i] == line)
			return i;
	return -1;
}

static void stack_touch(uint64_t *s, uint32_t *n, uint32_t cap, uint64_t line)
{
	int64_t i = stack_find(s, *n, line);
	if (i < 0) {
		if (*n < cap)
			(*n)++;
		i = *n - 1;
	}
	memmove(s + 1, s, (size_t)i * sizeof(*s));
	s[0] = line;
}

static bool eff_less(const struct eff *a, const struct eff *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void heap_push(struct st *m, struct eff e)
{
	GROW(m->heap, m->nheap, m->capheap);
	size_t i = m->nheap++;
	while (i && eff_less(&e, &m->heap[(i - 1) / 2])) {
		m->heap[i] = m->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	m->heap[i] = e;
}

static struct eff heap_pop(struct st *m)
{
	struct eff top = m->heap[0], last = m->heap[--m->nheap];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, s = i;
		const struct eff *best = &last;
		if (l < m->nheap && eff_less(&m->heap[l], best))
			s = l, best = &m->heap[l];
		if (r < m->nheap && eff_less(&m->heap[r], best))
			s = r;
		if (s == i)
			break;
		m->heap[i] = m->heap[s];
		i = s;
	}
	if (m->nheap)
		m->heap[i] = last;
	return top;
}

/* Apply effects due at or before t; free MSHRs whose line arrived. */
static void apply_effects(struct st *m, uint64_t t)
{
	while (m->nheap && m->heap[0].t <= t) {
		struct eff e = heap_pop(m);
		uint32_t set = rdm_set_of(m->c, e.line);
		stack_touch(&m->stk[(size_t)set * m->D], &m->depth[set], m->D, e.line);
		fa_touch(&m->fa, e.line);
		uint64_t *ie = lm_get(&m->inflight, e.line);
		if (ie && *ie <= t) {
			size_t i = lm_slot(&m->inflight, e.line);
			m->wmshr[m->inflight.own[i]]--;
			lm_del(&m->inflight, e.line);
		}
	}
}

static uint64_t miss_latency(struct st *m)
{
	const struct rdm_cfg *c = m->c;
	if (!c->lat_sigma)
		return c->lat_min;
	/* Box-Muller on the seeded PRNG; each pair of uniforms gives two normals */
	double x;
	if (m->have_spare) {
		x = m->spare;
		m->have_spare = false;
	} else {
		double u1 = ((double)(rng_next(&m->rng) >> 11) + 1.0) / 9007199254740993.0;
		double u2 = (double)(rng_next(&m->rng) >> 11) / 9007199254740992.0;
		double rad = sqrt(-2.0 * log(u1)), ang = 6.283185307179586 * u2;
		x = rad * cos(ang);
		m->spare = rad * sin(ang);
		m->have_spare = true;
	}
	return c->lat_min + (uint64_t)llabs(llround(x * (double)c->lat_sigma));
}

struct staged {
	uint64_t line, eff;
	int32_t d;
	uint8_t cls;
	bool alloc;
};

void rdm_run(const struct rdm_cfg *c, const struct rdm_trace *t, struct rdm_result *out)
{
	memset(out, 0, sizeof(*out));
	struct st m = {.c = c, .D = 4 * c->ways, .N = c->sets * c->ways};
	out->nbins = m.D;
	m.stk = xcalloc((size_t)c->sets * m.D, 8);
	m.depth = xcalloc(c->sets, 4);
	fa_init(&m.fa, m.N);
	lm_init(&m.seen, 1024);
	lm_init(&m.inflight, 256);
	m.wmshr = xcalloc(t->nwarp + 1, 4);
	rng_seed(&m.rng, c->seed);
	uint32_t *pc = xcalloc(t->nwarp + 1, 4), *q = xcalloc(t->nwarp + 1, 4);
	uint64_t *ready = xcalloc(t->nwarp + 1, 8); /* 0 = not delayed */
	size_t maxreq = 1;
	for (size_t i = 0; i < t->ninst; i++) {
		size_t e = i + 1 < t->ninst ? t->inst[i + 1] : t->nline;
		maxreq = MAX(maxreq, e - t->inst[i]);
	}
	struct staged *sg = xmalloc(sizeof(*sg) * maxreq);
	uint64_t now = 0, seq = 0;
	for (size_t w0 = 0; w0 < t->nwarp;) {
		/* one active set: warps [w0, w1) */
		size_t w1 = w0;
		while (w1 < t->nwarp && t->aset[w1] == t->aset[w0])
			w1++;
		size_t qh = 0, qn = 0, qcap = t->nwarp + 1, left = 0;
		for (size_t w = w0; w < w1; w++) {
			uint32_t ni = (uint32_t)((w + 1 < t->nwarp ? t->warp[w + 1] : t->ninst) - t->warp[w]);
			if (ni) {
				q[(qh + qn++) % qcap] = (uint32_t)w;
				left++;
			}
		}
		while (left) {
			/* 1. delayed warps become ready (earliest ready, then warp id) */
			for (size_t w = w0; w < w1; w++)
				if (ready[w] && ready[w] <= now) {
					ready[w] = 0;
					q[(qh + qn++) % qcap] = (uint32_t)w;
				}
			if (c->rule_b)
				apply_effects(&m, now);
			if (!qn) {
				out->idle_steps++;
			} else {
				uint32_t w = q[qh];
				qh = (qh + 1) % qcap;
				qn--;
				size_t ii = t->warp[w] + pc[w];
				size_t r0 = t->inst[ii], r1 = ii + 1 < t->ninst ? t->inst[ii + 1] : t->nline;
				uint64_t maxlat = 0;
				size_t ns = 0;
				bool cancel = false;
				uint32_t nalloc = 0; /* entries this instruction allocated */
				for (size_t r = r0; r < r1 && !cancel; r++) {
					uint64_t line = t->line[r];
					uint32_t set = rdm_set_of(c, line);
					int64_t d = stack_find(&m.stk[(size_t)set * m.D], m.depth[set], line);
					struct staged *s = &sg[ns];
					*s = (struct staged){.line = line, .d = (int32_t)d};
					if (d >= 0 && d < (int64_t)c->ways) {
						s->cls = RDM_HIT;
						s->eff = now + c->lat_hit;
						ns++;
						continue;
					}
					uint64_t *ie = lm_get(&m.inflight, line);
					bool pending_here = false;
					for (size_t k = 0; k < ns && !pending_here; k++)
						pending_here = sg[k].alloc && sg[k].line == line;
					/* An instruction needing more new lines than a cap could
					 * never fit: it is refused only while entries from earlier
					 * instructions are in flight (else the model would cancel
					 * it forever), so it may then exceed the cap. */
					if (!ie && !pending_here &&
					    ((c->mshr && m.inflight.n >= c->mshr && m.inflight.n > nalloc) ||
					     (c->mshr_per_warp && m.wmshr[w] >= c->mshr_per_warp && m.wmshr[w] > nalloc))) {
						cancel = true;
						break;
					}
					uint64_t lat = miss_latency(&m);
					maxlat = MAX(maxlat, lat);
					if (ie || pending_here) {
						uint64_t in = ie ? *ie : UINT64_MAX;
						for (size_t k = 0; k < ns; k++)
							if (sg[k].alloc && sg[k].line == line)
								in = sg[k].eff;
						s->cls = RDM_LATENCY;
						s->eff = c->clip ? MIN(now + lat, in) : now + lat;
					} else {
						s->eff = now + lat;
						s->alloc = true;
						nalloc++;
						lm_put(&m.inflight, line, s->eff, w);
						m.wmshr[w]++;
						if (!lm_get(&m.seen, line))
							s->cls = RDM_COMPULSORY;
						else
							s->cls = fa_has(&m.fa, line) ? RDM_ASSOC : RDM_CAPACITY;
					}
					ns++;
				}
				if (cancel) { /* undo this instruction's MSHR allocations */
					for (size_t k = 0; k < ns; k++)
						if (sg[k].alloc) {
							lm_del(&m.inflight, sg[k].line);
							m.wmshr[w]--;
						}
					out->cancels++;
					q[(qh + qn++) % qcap] = w;
				} else {
					for (size_t k = 0; k < ns; k++) {
						struct staged *s = &sg[k];
						heap_push(&m, (struct eff){s->eff, seq++, s->line});
						lm_put(&m.seen, s->line, 1, 0);
						unsigned bin = s->cls == RDM_LATENCY ? m.D + 2
							     : s->d < 0	     ? m.D + 1
							     : (uint32_t)s->d < m.D ? (unsigned)s->d
										  : m.D;
						out->hist[bin]++;
						out->cls[s->cls]++;
						if (out->ntrace < RDM_MAX_TRACE) {
							uint32_t n = out->ntrace++;
							out->d[n] = s->cls == RDM_LATENCY ? -1 : s->d;
							out->cls_of[n] = s->cls;
							out->t_issue[n] = now;
							out->effect[n] = s->eff;
						}
					}
					out->accesses += ns;
					pc[w]++;
					uint32_t ni = (uint32_t)((w + 1 < t->nwarp ? t->warp[w + 1] : t->ninst) - t->warp[w]);
					if (pc[w] == ni)
						left--;
					else if (c->policy == RDM_ROUND_ROBIN || maxlat == 0)
						q[(qh + qn++) % qcap] = w;
					else
						ready[w] = now + maxlat + 1;
				}
			}
			if (!c->rule_b)
				apply_effects(&m, now);
			now++;
		}
		w0 = w1;
	}
	out->steps = now;
	free(sg);
	free(pc);
	free(q);
	free(ready);
	free(m.stk);
	free(m.depth);
	fa_fini(&m.fa);
	free(m.wmshr);
	free(m.heap);
	lm_fini(&m.seen);
	lm_fini(&m.inflight);
}

double rdm_miss_rate(const struct rdm_result *r)
{
	if (!r->accesses)
		return 0.0;
	uint64_t miss = r->accesses - r->cls[RDM_HIT] - r->cls[RDM_LATENCY];
	return (double)miss / (double)r->accesses;
}

void rdm_ablation(const struct rdm_cfg *c, const struct rdm_trace *t, struct rdm_ablation *o)
{
	struct rdm_result *r = xmalloc(sizeof(*r));
	int64_t miss[4], inf[4];
	for (int k = 0; k < 4; k++) {
		struct rdm_cfg v = *c;
		if (k == 1) { /* fully associative */
			v.ways = c->sets * c->ways;
			v.sets = 1;
		} else if (k == 2) {
			v.lat_hit = v.lat_min = v.lat_sigma = 0;
		} else if (k == 3) {
			v.mshr = 0;
			v.mshr_per_warp = 0;
		}
		rdm_run(&v, t, r);
		inf[k] = (int64_t)(r->cls[RDM_COMPULSORY] + r->cls[RDM_LATENCY]);
		miss[k] = (int64_t)(r->accesses - r->cls[RDM_HIT]);
		o->accesses = r->accesses;
	}
	free(r);
	o->compulsory = inf[2];
	o->latency = inf[0] - inf[2];
	o->associativity = miss[0] - miss[1];
	o->mshr = miss[0] - miss[3];
	int64_t cap = miss[0] - (o->compulsory + MAX(0, o->latency) + MAX(0, o->associativity) + MAX(0, o->mshr));
	o->capacity = MAX(0, cap);
	o->miss_rate = o->accesses ? (double)(miss[0] - o->latency) / (double)o->accesses : 0.0;
}
