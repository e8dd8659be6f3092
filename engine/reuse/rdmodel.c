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
 * Stacks are kept D = max(bins, W + 1) deep per set (bins: 4W unless
 * hist_cap says otherwise); a line that fell out of its stack but was
 * requested before has a distance >= D (the ">=" bin), not infinity. The shadow
 * fully associative stack only has to answer "distance < S*W?", which is
 * membership in an LRU list of S*W lines: O(1) per lookup and touch (a
 * linear stack of 128-384 lines took most of the model's time on
 * miss-heavy workloads).
 *
 * Speed (issue 8; none of it changes a result, tools/model_check.sh): the
 * trace numbers its distinct lines 0..nid-1 as it is built, so every
 * per-line fact of a run is an array indexed by id (no hashing in a run);
 * effects and delayed warps wait in timing wheels (no heap, no scan of the
 * active set per step); steps with nothing queued are counted up to the
 * next ready warp or effect, not walked; a cancelled instruction's latency
 * draws advance the generator without computing their normals.
 */
#include "rdmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rdmodel_int.h"
#include "sim/util.h"

/* ---- config ------------------------------------------------------------ */
void rdm_cfg_fermi(struct rdm_cfg *c, bool kb48)
{
	*c = (struct rdm_cfg){.line = 128, .sets = kb48 ? 64 : 32, .ways = kb48 ? 6 : 4, .set_fn = RDM_FERMI,
			      .mshr = 64, .mshr_per_warp = 6, .lat_hit = 0, .lat_min = 100, .lat_sigma = 5,
			      .clip = true, .rule_b = false, .policy = RDM_WARP_QUEUE, .warp_size = 32,
			      .max_blocks = 8, .max_threads = 1536, .thread_cap = 8192, .seed = 1};
}

uint32_t rdm_hist_bins(const struct rdm_cfg *c)
{
	uint64_t n = c->hist_cap ? c->hist_cap : 4ull * c->ways;
	return (uint32_t)MAX(1u, MIN(n, (uint64_t)RDM_MAX_BINS));
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

/* ---- the shadow fully associative LRU (N lines) -------------------------- */
/* Membership of the N most recently touched lines: a doubly linked list of
 * nodes, most recent at the head, and per line id its node (or FA_NONE). */
struct falru {
	uint32_t *where; /* [nid] node of line id */
	uint32_t *id;    /* [cap] line id of node */
	uint32_t *prev, *next; /* FA_NONE = none */
	uint32_t head, tail, n, cap;
};

#define FA_NONE UINT32_MAX

static void fa_init(struct falru *f, uint32_t cap, size_t nid)
{
	*f = (struct falru){.head = FA_NONE, .tail = FA_NONE, .cap = cap};
	f->where = xmalloc(sizeof(*f->where) * (nid + 1));
	memset(f->where, 0xff, sizeof(*f->where) * (nid + 1));
	f->id = xcalloc(cap + 1, 4);
	f->prev = xcalloc(cap + 1, 4);
	f->next = xcalloc(cap + 1, 4);
}

static void fa_fini(struct falru *f)
{
	free(f->where);
	free(f->id);
	free(f->prev);
	free(f->next);
}

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

/* Move line id to the top; the least recent line drops out when full. */
static void fa_touch(struct falru *f, uint32_t id)
{
	if (!f->cap)
		return;
	uint32_t i = f->where[id];
	if (i != FA_NONE) {
		if (i == f->head)
			return;
		fa_unlink(f, i);
	} else if (f->n < f->cap) {
		i = f->n++;
		f->where[id] = i;
	} else {
		i = f->tail;
		fa_unlink(f, i);
		f->where[f->id[i]] = FA_NONE;
		f->where[id] = i;
	}
	f->id[i] = id;
	fa_push_front(f, i);
}

/* ---- model state --------------------------------------------------------- */
/* Lines are the trace's dense ids throughout: the per-set stacks hold ids,
 * and the per-line facts (set, stack membership, ever requested, MSHR entry)
 * are arrays indexed by id. */
struct wheel {
	struct wnode *node; /* pool; free list through next */
	size_t nnode, capnode, n;
	uint32_t free;
	uint32_t *head, *tail; /* [W] */
	uint64_t W, base;
};

struct st {
	const struct rdm_cfg *c;
	uint32_t D, N;
	uint32_t *stk;   /* [sets * D] line ids, most recent first */
	uint32_t *depth;
	uint32_t *set;   /* [nid] set of line id */
	uint8_t *instk;  /* [nid] line id is in its set's D-deep stack */
	uint8_t *seen;   /* [nid] ever requested */
	uint8_t *infl;   /* [nid] has an MSHR entry */
	uint64_t *infl_t; /* [nid] its effect time */
	uint32_t *infl_own; /* [nid] the warp that allocated it */
	uint32_t ninfl;
	struct falru fa; /* shadow fully associative LRU of N lines */
	uint32_t *wmshr; /* per warp in-flight entries it allocated */
	struct wheel eq; /* pending effects (line ids) */
	struct wheel rq; /* delayed warps */
	struct rng rng;
	/* Box-Muller pairs, computed only when one of their normals is used:
	 * a cancelled instruction's draws advance the generator but are never
	 * looked at. pair_u: the pair's two raw draws (spare not yet computed). */
	double spare;
	uint64_t pair_u[2];
	bool have_spare, spare_done;
};

/* Position of id in a stack of n; -1 when absent. */
static int64_t stack_find(const uint32_t *s, uint32_t n, uint32_t id)
{
	for (uint32_t i = 0; i < n; i++)
		if (s[i] == id)
			return i;
	return -1;
}

static void stack_touch(struct st *m, uint32_t set, uint32_t id)
{
	uint32_t *s = &m->stk[(size_t)set * m->D], *n = &m->depth[set];
	int64_t i = m->instk[id] ? stack_find(s, *n, id) : -1;
	if (i < 0) {
		if (*n < m->D)
			(*n)++;
		else
			m->instk[s[m->D - 1]] = 0; /* the bottom line drops out */
		i = *n - 1;
		m->instk[id] = 1;
	}
	memmove(s + 1, s, (size_t)i * sizeof(*s));
	s[0] = id;
}

/* ---- timing wheels: pending effects, delayed warps ------------------------
 * Bucket time & (W-1) holds the entries due at that time: effects in issue
 * order (they apply in (time, issue) order), delayed warps by warp id (they
 * join the queue in (ready time, warp) order). Every pending time lies in
 * [base, base + W), base being the last time taken (rule B can still add
 * effects to it). The wheel doubles when an entry lies further ahead. */
struct wnode {
	uint64_t t;
	uint32_t v, next;
};

#define WH_NONE UINT32_MAX

static void wh_init(struct wheel *q)
{
	*q = (struct wheel){.W = 64, .free = WH_NONE}; /* grows to the latencies seen */
	q->head = xmalloc(sizeof(*q->head) * q->W);
	q->tail = xmalloc(sizeof(*q->tail) * q->W);
	memset(q->head, 0xff, sizeof(*q->head) * q->W);
}

static void wh_fini(struct wheel *q)
{
	free(q->node);
	free(q->head);
	free(q->tail);
}

static void wh_append(struct wheel *q, uint32_t i)
{
	size_t b = q->node[i].t & (q->W - 1);
	q->node[i].next = WH_NONE;
	if (q->head[b] == WH_NONE)
		q->head[b] = i;
	else
		q->node[q->tail[b]].next = i;
	q->tail[b] = i;
}

/* Add v due at t >= base: after the entries due then, or (by_v) before the
 * first of them with a larger v. */
static void wh_add(struct wheel *q, uint64_t t, uint32_t v, bool by_v)
{
	if (t - q->base >= q->W) { /* grow: re-append bucket by bucket, in time order */
		struct wheel o = *q;
		uint64_t W = q->W;
		while (W <= t - q->base)
			W *= 2;
		q->W = W;
		q->head = xmalloc(sizeof(*q->head) * W);
		q->tail = xmalloc(sizeof(*q->tail) * W);
		memset(q->head, 0xff, sizeof(*q->head) * W);
		for (uint64_t x = o.base; x < o.base + o.W; x++)
			for (uint32_t i = o.head[x & (o.W - 1)], nx; i != WH_NONE; i = nx) {
				nx = q->node[i].next;
				wh_append(q, i);
			}
		free(o.head);
		free(o.tail);
	}
	uint32_t i = q->free;
	if (i != WH_NONE) {
		q->free = q->node[i].next;
	} else {
		GROW(q->node, q->nnode, q->capnode);
		i = (uint32_t)q->nnode++;
	}
	q->node[i].t = t;
	q->node[i].v = v;
	q->n++;
	size_t b = t & (q->W - 1);
	if (by_v && q->head[b] != WH_NONE && q->node[q->head[b]].v > v) {
		q->node[i].next = q->head[b];
		q->head[b] = i;
		return;
	}
	if (by_v && q->head[b] != WH_NONE && q->node[q->tail[b]].v > v) {
		uint32_t p = q->head[b];
		while (q->node[q->node[p].next].v < v)
			p = q->node[p].next;
		q->node[i].next = q->node[p].next;
		q->node[p].next = i;
		return;
	}
	wh_append(q, i);
}

/* Take the entries due at x (base <= x < base + W): the list's first node;
 * the caller gives each back with wh_release. */
static uint32_t wh_take(struct wheel *q, uint64_t x)
{
	size_t b = x & (q->W - 1);
	uint32_t i = q->head[b];
	q->head[b] = WH_NONE;
	return i;
}

static void wh_release(struct wheel *q, uint32_t i)
{
	q->node[i].next = q->free;
	q->free = i;
	q->n--;
}

/* Earliest pending time (q->n > 0). */
static uint64_t wh_next(const struct wheel *q)
{
	uint64_t x = q->base;
	while (q->head[x & (q->W - 1)] == WH_NONE)
		x++;
	return x;
}

/* Apply effects due at or before t; free MSHRs whose line arrived. */
static void apply_effects(struct st *m, uint64_t t)
{
	struct wheel *q = &m->eq;
	for (uint64_t x = q->n ? q->base : t; x <= t; x++)
		for (uint32_t i = wh_take(q, x), nx; i != WH_NONE; i = nx) {
			uint32_t id = q->node[i].v;
			nx = q->node[i].next;
			wh_release(q, i);
			stack_touch(m, m->set[id], id);
			fa_touch(&m->fa, id);
			if (m->infl[id] && m->infl_t[id] <= t) {
				m->wmshr[m->infl_own[id]]--;
				m->infl[id] = 0;
				m->ninfl--;
			}
		}
	q->base = t;
}

/* Box-Muller on the seeded PRNG: the pair of normals of two raw draws. */
static void normal_pair(uint64_t r1, uint64_t r2, double *x, double *y)
{
	double u1 = ((double)(r1 >> 11) + 1.0) / 9007199254740993.0;
	double u2 = (double)(r2 >> 11) / 9007199254740992.0;
	double rad = sqrt(-2.0 * log(u1)), ang = 6.283185307179586 * u2;
	*x = rad * cos(ang);
	*y = rad * sin(ang);
}

static uint64_t miss_latency(struct st *m)
{
	const struct rdm_cfg *c = m->c;
	if (!c->lat_sigma)
		return c->lat_min;
	/* each pair of uniforms gives two normals */
	double x;
	if (m->have_spare) {
		if (!m->spare_done)
			normal_pair(m->pair_u[0], m->pair_u[1], &x, &m->spare);
		x = m->spare;
		m->have_spare = false;
	} else {
		uint64_t r1 = rng_next(&m->rng), r2 = rng_next(&m->rng);
		normal_pair(r1, r2, &x, &m->spare);
		m->have_spare = m->spare_done = true;
	}
	return c->lat_min + (uint64_t)llabs(llround(x * (double)c->lat_sigma));
}

/* A miss latency drawn and never used: the generator advances as it would. */
static void miss_latency_skip(struct st *m)
{
	if (!m->c->lat_sigma)
		return;
	if (m->have_spare) {
		m->have_spare = false;
	} else {
		m->pair_u[0] = rng_next(&m->rng);
		m->pair_u[1] = rng_next(&m->rng);
		m->have_spare = true;
		m->spare_done = false;
	}
}

struct staged {
	uint64_t eff;
	uint32_t id;
	int32_t d;
	int32_t src; /* a latency miss: the staged entry that allocated its line, or -1 */
	uint8_t cls;
	bool alloc;
};

static uint32_t warp_insts(const struct rdm_trace *t, size_t w)
{
	return (uint32_t)((w + 1 < t->nwarp ? t->warp[w + 1] : t->ninst) - t->warp[w]);
}

static void st_init(struct st *m, const struct rdm_cfg *c, const struct rdm_trace *t, uint32_t nb)
{
	*m = (struct st){.c = c, .D = MAX(nb, c->ways + 1), .N = c->sets * c->ways};
	size_t nid = t->nid + 1;
	m->stk = xcalloc((size_t)c->sets * m->D, 4);
	m->depth = xcalloc(c->sets, 4);
	m->set = xmalloc(sizeof(*m->set) * nid);
	for (size_t i = 0; i < t->nid; i++)
		m->set[i] = rdm_set_of(c, t->uline[i]);
	m->instk = xcalloc(nid, 1);
	m->seen = xcalloc(nid, 1);
	m->infl = xcalloc(nid, 1);
	m->infl_t = xmalloc(sizeof(*m->infl_t) * nid);
	m->infl_own = xmalloc(sizeof(*m->infl_own) * nid);
	fa_init(&m->fa, m->N, nid);
	m->wmshr = xcalloc(t->nwarp + 1, 4);
	wh_init(&m->eq);
	wh_init(&m->rq);
	rng_seed(&m->rng, c->seed);
}

static void st_fini(struct st *m)
{
	wh_fini(&m->rq);
	free(m->stk);
	free(m->depth);
	free(m->set);
	free(m->instk);
	free(m->seen);
	free(m->infl);
	free(m->infl_t);
	free(m->infl_own);
	fa_fini(&m->fa);
	free(m->wmshr);
	wh_fini(&m->eq);
}

/* 2a. Look every request of warp w's instruction [r0, r1) up into sg and
 * allocate its MSHR entries; the latencies are drawn in commit_inst, once the
 * instruction is known to go through. Returns the requests staged, or -1
 * when an MSHR cap refuses the instruction (its allocations stay in sg for
 * cancel_inst: *ns_out of them). */
static int stage_inst(struct st *m, uint32_t w, const struct rdm_trace *t, size_t r0, size_t r1, uint64_t now,
		      struct staged *sg, size_t *ns_out)
{
	const struct rdm_cfg *c = m->c;
	size_t ns = 0;
	uint32_t nalloc = 0; /* entries this instruction allocated */
	int rc = 0;
	for (size_t r = r0; r < r1; r++) {
		uint32_t id = t->id[r];
		uint32_t set = m->set[id];
		int64_t d = m->instk[id] ? stack_find(&m->stk[(size_t)set * m->D], m->depth[set], id) : -1;
		if (d < 0 && m->seen[id] && !m->infl[id])
			d = m->D; /* arrived once, fell out of the D-deep stack: d >= D */
		struct staged *s = &sg[ns];
		*s = (struct staged){.id = id, .d = (int32_t)d, .src = -1};
		if (d >= 0 && d < (int64_t)c->ways) {
			s->cls = RDM_HIT;
			s->eff = now + c->lat_hit;
			ns++;
			continue;
		}
		for (size_t k = 0; k < ns; k++)
			if (sg[k].alloc && sg[k].id == id)
				s->src = (int32_t)k;
		/* An instruction needing more new lines than a cap could never fit:
		 * it is refused only while entries from earlier instructions are in
		 * flight (else the model would cancel it forever), so it may then
		 * exceed the cap. */
		if (!m->infl[id] && s->src < 0 &&
		    ((c->mshr && m->ninfl >= c->mshr && m->ninfl > nalloc) ||
		     (c->mshr_per_warp && m->wmshr[w] >= c->mshr_per_warp && m->wmshr[w] > nalloc))) {
			rc = -1;
			break;
		}
		if (m->infl[id]) {
			s->cls = RDM_LATENCY;
		} else {
			s->alloc = true;
			nalloc++;
			m->infl[id] = 1;
			m->infl_own[id] = w;
			m->ninfl++;
			m->wmshr[w]++;
			if (!m->seen[id])
				s->cls = RDM_COMPULSORY;
			else
				s->cls = m->fa.where[id] != FA_NONE ? RDM_ASSOC : RDM_CAPACITY;
		}
		ns++;
	}
	*ns_out = ns;
	return rc;
}

/* Undo a refused instruction's MSHR allocations (its misses' latency draws
 * are skipped, so the random sequence does not depend on refusals). */
static void cancel_inst(struct st *m, uint32_t w, const struct staged *sg, size_t ns)
{
	for (size_t k = 0; k < ns; k++) {
		if (sg[k].cls != RDM_HIT)
			miss_latency_skip(m);
		if (sg[k].alloc) {
			m->infl[sg[k].id] = 0;
			m->ninfl--;
			m->wmshr[w]--;
		}
	}
}

/* 2b. The instruction goes through: each miss draws its latency, every
 * request's effect is scheduled and counted. Returns the longest latency. */
static uint64_t commit_inst(struct st *m, struct staged *sg, size_t ns, uint64_t now, struct rdm_result *out)
{
	const struct rdm_cfg *c = m->c;
	uint32_t nb = out->nbins;
	uint64_t maxlat = 0;
	for (size_t k = 0; k < ns; k++) {
		struct staged *s = &sg[k];
		if (s->cls != RDM_HIT) { /* a miss: its latency */
			uint64_t lat = miss_latency(m);
			maxlat = MAX(maxlat, lat);
			if (s->alloc) {
				s->eff = now + lat;
				m->infl_t[s->id] = s->eff;
			} else {
				uint64_t in = s->src >= 0 ? sg[s->src].eff : m->infl_t[s->id];
				s->eff = c->clip ? MIN(now + lat, in) : now + lat;
			}
		}
		wh_add(&m->eq, s->eff, s->id, false);
		m->seen[s->id] = 1;
		unsigned bin = s->cls == RDM_LATENCY ? nb + RDM_BIN_FLY
			     : s->d < 0		 ? nb + RDM_BIN_NEVER
			     : (uint32_t)s->d < nb ? (unsigned)s->d
						 : nb + RDM_BIN_OVER;
		out->hist[bin]++;
		if (s->cls != RDM_LATENCY && s->d > (int32_t)c->ways)
			out->over_ways++;
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
	return maxlat;
}

void rdm_run(const struct rdm_cfg *c, const struct rdm_trace *t, struct rdm_result *out)
{
	memset(out, 0, sizeof(*out));
	uint32_t nb = rdm_hist_bins(c);
	struct st m;
	st_init(&m, c, t, nb);
	out->nbins = nb;
	size_t qcap = 1; /* the warp queue: a ring of a power of two >= the warps */
	while (qcap <= t->nwarp)
		qcap *= 2;
	uint32_t *pc = xcalloc(t->nwarp + 1, 4), *q = xcalloc(qcap, 4);
	size_t maxreq = 1;
	for (size_t i = 0; i < t->ninst; i++) {
		size_t e = i + 1 < t->ninst ? t->inst[i + 1] : t->nline;
		maxreq = MAX(maxreq, e - t->inst[i]);
	}
	struct staged *sg = xmalloc(sizeof(*sg) * maxreq);
	uint64_t now = 0;
	for (size_t w0 = 0; w0 < t->nwarp;) {
		/* one active set: warps [w0, w1) */
		size_t w1 = w0;
		while (w1 < t->nwarp && t->aset[w1] == t->aset[w0])
			w1++;
		size_t qh = 0, qn = 0, left = 0;
		for (size_t w = w0; w < w1; w++)
			if (warp_insts(t, w)) {
				q[(qh + qn++) & (qcap - 1)] = (uint32_t)w;
				left++;
			}
		while (left) {
			/* 1. delayed warps become ready (earliest ready, then warp id;
			 * a warp is due exactly at its ready time, as every step looks) */
			if (m.rq.n) {
				for (uint64_t x = m.rq.base; x <= now; x++)
					for (uint32_t i = wh_take(&m.rq, x), nx; i != WH_NONE; i = nx) {
						q[(qh + qn++) & (qcap - 1)] = m.rq.node[i].v;
						nx = m.rq.node[i].next;
						wh_release(&m.rq, i);
					}
			}
			m.rq.base = now;
			if (c->rule_b)
				apply_effects(&m, now);
			if (!qn) {
				out->idle_steps++;
			} else {
				/* 2. the warp at the head issues its next instruction */
				uint32_t w = q[qh];
				qh = (qh + 1) & (qcap - 1);
				qn--;
				size_t ii = t->warp[w] + pc[w];
				size_t r0 = t->inst[ii], r1 = ii + 1 < t->ninst ? t->inst[ii + 1] : t->nline;
				size_t ns;
				if (stage_inst(&m, w, t, r0, r1, now, sg, &ns)) {
					cancel_inst(&m, w, sg, ns);
					out->cancels++;
					q[(qh + qn++) & (qcap - 1)] = w;
				} else {
					uint64_t maxlat = commit_inst(&m, sg, ns, now, out);
					pc[w]++;
					if (pc[w] == warp_insts(t, w))
						left--;
					else if (c->policy == RDM_ROUND_ROBIN || maxlat == 0)
						q[(qh + qn++) & (qcap - 1)] = w;
					else
						wh_add(&m.rq, now + maxlat + 1, w, true);
				}
			}
			/* 3. effects due now */
			if (!c->rule_b)
				apply_effects(&m, now);
			now++;
			/* Nothing queued: the steps up to the next ready warp or effect
			 * are idle and change nothing, so they are counted, not walked. */
			if (left && !qn && m.rq.n) {
				uint64_t next = wh_next(&m.rq);
				if (m.eq.n && wh_next(&m.eq) < next)
					next = wh_next(&m.eq);
				if (next > now) {
					out->idle_steps += next - now;
					now = next;
				}
			}
		}
		w0 = w1;
	}
	out->steps = now;
	free(sg);
	free(pc);
	free(q);
	st_fini(&m);
}

double rdm_miss_rate(const struct rdm_result *r)
{
	if (!r->accesses)
		return 0.0;
	uint64_t miss = r->accesses - r->cls[RDM_HIT] - r->cls[RDM_LATENCY];
	return (double)miss / (double)r->accesses;
}
