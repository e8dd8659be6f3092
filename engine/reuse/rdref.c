/*
 * rdref.c: the reuse-distance model with the reference implementation's
 * semantics (rdref.h lists the five differences from rdmodel.c). Our own
 * code, written from the behaviour documented in docs/REUSE.md.
 *
 * Input: per thread its loads (line id, size, kept or coalesced away), so
 * threads of one warp can drift apart as the reference lets them (a lane 0
 * refused by the MSHRs waits while the other groups of an 8/16-byte load
 * go on).
 *
 * One time-stamp of rdr_run:
 *   0. n = distinct lines with a miss pending (the MSHR count of this step)
 *   1. the front warp of the pool issues each lane's next load, group by
 *      group (1, 2 or 4 groups for lane 0's size <= 4, 8, 16 bytes):
 *        d < ways             hit: effect at t + lat_hit
 *        d >= ways or inf     miss: latency drawn; lane 0 with n >= MSHRs
 *                             is put back and ends its group; else effect
 *                             at t + latency, line counted as pending
 *      after each group the effects due at t apply (hits, then misses,
 *      each in issue order; sets are independent stacks)
 *   2. the warp: every lane was done already -> finished; else back to the
 *      pool at once (no miss) or after its largest miss latency L: it moves
 *      at the end of step t + L (same step: by warp id)
 *   3. effects due at t apply again; warps due at t join the pool; t + 1
 * Stacks: per set, D = max(bins, ways + 1) deep; a line that had an effect
 * and fell out has d >= D. Pending effects and delayed warps: binary heaps.
 */
#include "rdref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "trc.h"
#include "sim/util.h"

/* ---- input ------------------------------------------------------------- */
struct rdr_rec {
	uint64_t addr;
	uint32_t gid;
	uint8_t bytes;
};

struct rdr_input {
	uint32_t B, maxgid1;
	struct rdr_rec *rec;
	size_t nrec, caprec;
	/* after rdr_input_finish */
	bool finished;
	uint32_t nthreads, nblocks, wpb, ws, A;
	uint32_t *first;  /* [nthreads + 1] loads of thread g: first[g] .. first[g+1] */
	uint32_t *id;     /* dense line id of each load */
	uint8_t *bytes;
	uint8_t *keep;    /* 0: coalesced into an earlier lane of its group */
	uint64_t *uline;  /* line of id */
	uint32_t nid;
};

static struct rdr_input *rdr_input_new(uint32_t threads_per_block)
{
	struct rdr_input *in = xcalloc(1, sizeof(*in));
	in->B = MAX(1u, threads_per_block);
	return in;
}

void rdr_input_free(struct rdr_input *in)
{
	if (!in)
		return;
	free(in->rec);
	free(in->first);
	free(in->id);
	free(in->bytes);
	free(in->keep);
	free(in->uline);
	free(in);
}

static void rdr_input_load(struct rdr_input *in, uint32_t gid, uint64_t addr, uint8_t bytes)
{
	if (in->nrec == in->caprec) {
		in->caprec = in->caprec ? in->caprec * 2 : 1024;
		in->rec = xrealloc(in->rec, sizeof(*in->rec) * in->caprec);
	}
	in->rec[in->nrec++] = (struct rdr_rec){addr, gid, bytes};
	in->maxgid1 = MAX(in->maxgid1, gid + 1);
}

uint32_t rdr_input_threads(const struct rdr_input *in) { return in->nthreads; }

/* Group size of a lane's access (CUDA guide G.4.2 for compute capability 2.x). */
static uint32_t group_of(uint32_t ws, uint8_t bytes)
{
	return MAX(1u, bytes == 8 ? ws / 2 : bytes == 16 ? ws / 4 : ws);
}

/* Line ids: open addressing, key line + 1. */
static uint32_t line_ids(struct rdr_input *in, const uint64_t *line, size_t n)
{
	size_t cap = 1024;
	while (cap < 2 * n + 2)
		cap *= 2;
	uint64_t *key = xcalloc(cap, sizeof(*key));
	uint32_t *val = xmalloc(sizeof(*val) * cap);
	in->uline = xmalloc(sizeof(*in->uline) * (n + 1));
	uint32_t nid = 0;
	for (size_t i = 0; i < n; i++) {
		size_t h = (size_t)(mix64(line[i]) & (cap - 1));
		while (key[h] && key[h] != line[i] + 1)
			h = (h + 1) & (cap - 1);
		if (!key[h]) {
			key[h] = line[i] + 1;
			val[h] = nid;
			in->uline[nid++] = line[i];
		}
		in->id[i] = val[h];
	}
	free(key);
	free(val);
	return nid;
}

static void rdr_input_finish(struct rdr_input *in, const struct rdm_cfg *c)
{
	if (in->finished)
		return;
	in->finished = true;
	uint32_t B = in->B;
	in->ws = MAX(1u, c->warp_size);
	in->wpb = (B + in->ws - 1) / in->ws;
	uint32_t blocks = (uint32_t)(((uint64_t)in->maxgid1 + B - 1) / B);
	in->nblocks = rdm_blocks_modelled(c, B, blocks);
	in->nthreads = (uint32_t)MIN((uint64_t)in->maxgid1, (uint64_t)in->nblocks * B);
	in->A = MAX(1u, MIN(in->nblocks, MIN(c->max_blocks, c->max_threads / B)));
	/* stable counting sort by thread */
	in->first = xcalloc((size_t)in->nthreads + 1, sizeof(*in->first));
	for (size_t i = 0; i < in->nrec; i++)
		if (in->rec[i].gid < in->nthreads)
			in->first[in->rec[i].gid + 1]++;
	for (uint32_t g = 0; g < in->nthreads; g++)
		in->first[g + 1] += in->first[g];
	size_t n = in->first[in->nthreads];
	uint32_t *fill = xmalloc(sizeof(*fill) * ((size_t)in->nthreads + 1));
	memcpy(fill, in->first, sizeof(*fill) * ((size_t)in->nthreads + 1));
	uint64_t *line = xmalloc(sizeof(*line) * (n + 1));
	in->id = xmalloc(sizeof(*in->id) * (n + 1));
	in->bytes = xmalloc(n + 1);
	in->keep = xmalloc(n + 1);
	uint32_t L = MAX(1u, c->line);
	for (size_t i = 0; i < in->nrec; i++) {
		const struct rdr_rec *r = &in->rec[i];
		if (r->gid >= in->nthreads)
			continue;
		uint32_t k = fill[r->gid]++;
		line[k] = r->addr / L;
		in->bytes[k] = r->bytes;
		in->keep[k] = 1;
	}
	free(fill);
	free(in->rec);
	in->rec = NULL;
	in->nrec = in->caprec = 0;
	in->nid = line_ids(in, line, n);
	/* coalescing, warp by warp, access index by access index */
	for (uint32_t b = 0; b < in->nblocks; b++)
		for (uint32_t wi = 0; wi < in->wpb; wi++) {
			uint32_t t0 = b * B + wi * in->ws;
			uint32_t te = MIN(MIN(t0 + in->ws, (b + 1) * B), in->nthreads);
			uint32_t longest = 0;
			for (uint32_t t = t0; t < te; t++)
				longest = MAX(longest, in->first[t + 1] - in->first[t]);
			for (uint32_t a = 0; a < longest; a++)
				for (uint32_t t = t0; t < te; t++) {
					if (in->first[t] + a >= in->first[t + 1])
						continue;
					uint32_t k = in->first[t] + a, g = group_of(in->ws, in->bytes[k]);
					for (uint32_t o = t0 + g * ((t - t0) / g); o < t; o++) {
						/* a lane without an a-th load: the reference reads past its
						 * list (undefined); here it simply does not match */
						if (in->first[o] + a < in->first[o + 1] && line[in->first[o] + a] == line[k]) {
							in->keep[k] = 0;
							break;
						}
					}
				}
		}
	free(line);
}

struct rdr_input *rdr_input_from_kernel(const struct kernel *k, const struct rdm_cfg *c)
{
	uint32_t B = kernel_threads_per_cta(k), ws = MAX(1u, c->warp_size);
	struct rdr_input *in = rdr_input_new(B);
	uint32_t nb = B ? rdm_blocks_modelled(c, B, kernel_ctas(k)) : 0;
	uint32_t wpb = (B + ws - 1) / ws;
	struct kwarp kw;
	struct winst *wi = xmalloc(sizeof(*wi));
	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t w = 0; w < wpb; w++) {
			kernel_warp_start(k, &kw, b, w, ws);
			while (kernel_warp_next(k, &kw, wi)) {
				if (wi->op != KOP_LD)
					continue;
				for (uint64_t m = wi->active; m; m &= m - 1) {
					unsigned l = (unsigned)__builtin_ctzll(m);
					rdr_input_load(in, b * B + w * ws + l, wi->addr[l], wi->size);
				}
			}
		}
	free(wi);
	rdr_input_finish(in, c);
	return in;
}

struct rdr_input *rdr_input_from_trc(const struct trc *t, const struct rdm_cfg *c)
{
	const struct trc_info *ti = trc_get_info(t);
	struct rdr_input *in = rdr_input_new(ti->tpb);
	for (uint32_t g = 0; g < ti->threads; g++) {
		uint32_t n;
		const struct trc_acc *a = trc_thread(t, g, &n);
		for (uint32_t i = 0; i < n; i++)
			if (!a[i].store)
				rdr_input_load(in, g, a[i].addr, a[i].bytes);
	}
	rdr_input_finish(in, c);
	return in;
}

/* ---- heaps: (key, key2) ordered, value ------------------------------------ */
struct hent {
	uint64_t key, key2;
	uint32_t v;
};

struct heap {
	struct hent *e;
	size_t n, cap;
};

static bool h_less(const struct hent *a, const struct hent *b)
{
	return a->key < b->key || (a->key == b->key && a->key2 < b->key2);
}

static void h_push(struct heap *h, uint64_t key, uint64_t key2, uint32_t v)
{
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 256;
		h->e = xrealloc(h->e, sizeof(*h->e) * h->cap);
	}
	size_t i = h->n++;
	struct hent x = {key, key2, v};
	while (i && h_less(&x, &h->e[(i - 1) / 2])) {
		h->e[i] = h->e[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->e[i] = x;
}

static struct hent h_pop(struct heap *h)
{
	struct hent top = h->e[0], x = h->e[--h->n];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		const struct hent *best = &x;
		if (l < h->n && h_less(&h->e[l], best)) {
			m = l;
			best = &h->e[l];
		}
		if (l + 1 < h->n && h_less(&h->e[l + 1], best))
			m = l + 1;
		if (m == i)
			break;
		h->e[i] = h->e[m];
		i = m;
	}
	if (h->n)
		h->e[i] = x;
	return top;
}

/* ---- run ------------------------------------------------------------------ */
#define EFF_MISS (1ull << 63) /* key2 of a miss effect: after the hits of its time */

struct rr {
	const struct rdm_cfg *c;
	const struct rdr_input *in;
	uint32_t D;
	uint32_t *stk, *depth; /* [sets * D] ids, most recent first; [sets] */
	uint32_t *set;         /* [nid] */
	uint8_t *instk, *arrived, *inm; /* [nid] in its stack; had an effect; in the MSHR count */
	uint32_t *pend;        /* [nid] miss requests not yet arrived */
	uint32_t nmshr;
	struct heap eff, wq;
	uint64_t seq;
	struct rng rng;
	double spare;
	bool have_spare;
};

static int64_t distance(const struct rr *m, uint32_t id)
{
	if (!m->instk[id])
		return m->arrived[id] ? (int64_t)m->D : -1;
	uint32_t s = m->set[id];
	const uint32_t *st = &m->stk[(size_t)s * m->D];
	for (uint32_t i = 0; i < m->depth[s]; i++)
		if (st[i] == id)
			return i;
	return -1; /* not reached: instk says it is there */
}

static void touch(struct rr *m, uint32_t id)
{
	uint32_t s = m->set[id], *st = &m->stk[(size_t)s * m->D], *n = &m->depth[s];
	uint32_t i = 0;
	if (m->instk[id]) {
		while (st[i] != id)
			i++;
	} else {
		if (*n < m->D)
			(*n)++;
		else
			m->instk[st[m->D - 1]] = 0;
		i = *n - 1;
		m->instk[id] = 1;
	}
	memmove(st + 1, st, (size_t)i * sizeof(*st));
	st[0] = id;
	m->arrived[id] = 1;
}

/* Effects due at or before t, in (time, hits before misses, issue) order. */
static void apply(struct rr *m, uint64_t t)
{
	while (m->eff.n && m->eff.e[0].key <= t) {
		struct hent e = h_pop(&m->eff);
		touch(m, e.v);
		if (e.key2 & EFF_MISS) {
			m->pend[e.v]--;
			if (m->inm[e.v]) { /* any arrival frees the line's count */
				m->inm[e.v] = 0;
				m->nmshr--;
			}
		}
	}
}

/* lat_min + |round(N(0, sigma^2))|, Box-Muller on the seeded generator. */
static uint64_t miss_latency(struct rr *m)
{
	const struct rdm_cfg *c = m->c;
	if (!c->lat_sigma)
		return c->lat_min;
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

static void record(const struct rr *m, struct rdm_result *out, uint32_t nb, int64_t d, unsigned cls, uint64_t now,
		   uint64_t eff)
{
	const struct rdm_cfg *c = m->c;
	unsigned bin = d < 0 ? nb + RDM_BIN_NEVER : (uint64_t)d < nb ? (unsigned)d : nb + RDM_BIN_OVER;
	out->hist[bin]++;
	out->cls[cls]++;
	out->accesses++;
	if (d > (int64_t)c->ways)
		out->over_ways++;
	if (out->ntrace < RDM_MAX_TRACE) {
		uint32_t n = out->ntrace++;
		out->d[n] = (int32_t)MIN(d, (int64_t)INT32_MAX);
		out->cls_of[n] = (uint8_t)cls;
		out->t_issue[n] = now;
		out->effect[n] = eff;
	}
}

/* Warp w issues at `now` with the step's MSHR count nmr. Returns 1 when
 * every lane was already done, else 0 with *delay = largest miss latency. */
static int issue(struct rr *m, uint32_t *pc, uint32_t w, uint64_t now, uint32_t nmr, uint64_t *delay,
		 struct rdm_result *out, uint32_t nb)
{
	const struct rdm_cfg *c = m->c;
	const struct rdr_input *in = m->in;
	uint32_t b = w / in->wpb, wi = w % in->wpb;
	uint32_t t0 = b * in->B + wi * in->ws;
	uint32_t te = MIN(MIN(t0 + in->ws, (b + 1) * in->B), in->nthreads);
	uint32_t nl = te > t0 ? te - t0 : 0;
	uint8_t bytes = nl && in->first[t0] + pc[t0] < in->first[t0 + 1] ? in->bytes[in->first[t0] + pc[t0]] : 1;
	uint32_t portions = MAX(1u, bytes / 4u), per = in->ws / portions;
	uint32_t done = 0;
	uint64_t maxfut = 0;
	for (uint32_t p = 0; p < portions; p++) {
		for (uint32_t tn = p * per; tn < (p + 1) * per && tn < nl; tn++) {
			uint32_t t = t0 + tn;
			if (in->first[t] + pc[t] >= in->first[t + 1]) {
				done++;
				continue;
			}
			uint32_t k = in->first[t] + pc[t]++;
			if (!in->keep[k])
				continue;
			uint32_t id = in->id[k];
			int64_t d = distance(m, id);
			uint64_t eff;
			unsigned cls;
			if (d >= 0 && d < (int64_t)c->ways) {
				cls = RDM_HIT;
				eff = now + c->lat_hit;
				h_push(&m->eff, eff, m->seq++, id);
			} else {
				uint64_t lat = miss_latency(m);
				maxfut = MAX(maxfut, lat);
				if (c->mshr && nmr >= c->mshr && tn == 0) { /* lane 0 refused: ends this group */
					pc[t]--;
					maxfut = 0;
					out->cancels++;
					break;
				}
				cls = m->pend[id] ? RDM_LATENCY : d < 0 ? RDM_COMPULSORY : RDM_CAPACITY;
				eff = now + lat;
				h_push(&m->eff, eff, EFF_MISS | m->seq++, id);
				m->pend[id]++;
				if (!m->inm[id]) {
					m->inm[id] = 1;
					m->nmshr++;
				}
			}
			record(m, out, nb, d, cls, now, eff);
		}
		apply(m, now);
	}
	*delay = maxfut;
	return done == nl;
}

void rdr_run(const struct rdm_cfg *c, const struct rdr_input *in, struct rdm_result *out)
{
	memset(out, 0, sizeof(*out));
	uint32_t nb = rdm_hist_bins(c);
	out->nbins = nb;
	struct rr m = {.c = c, .in = in, .D = MAX(nb, c->ways + 1)};
	size_t nid = (size_t)in->nid + 1;
	m.stk = xcalloc((size_t)c->sets * m.D, sizeof(*m.stk));
	m.depth = xcalloc(c->sets, sizeof(*m.depth));
	m.set = xmalloc(sizeof(*m.set) * nid);
	for (uint32_t i = 0; i < in->nid; i++)
		m.set[i] = rdm_set_of(c, in->uline[i]);
	m.instk = xcalloc(nid, 1);
	m.arrived = xcalloc(nid, 1);
	m.inm = xcalloc(nid, 1);
	m.pend = xcalloc(nid, sizeof(*m.pend));
	rng_seed(&m.rng, c->seed);
	uint32_t *pc = xcalloc((size_t)in->nthreads + 1, sizeof(*pc));
	size_t qcap = 1;
	while (qcap <= (size_t)in->A * in->wpb)
		qcap *= 2;
	uint32_t *q = xmalloc(sizeof(*q) * qcap);
	uint64_t now = 0;
	for (uint32_t b0 = 0; b0 < in->nblocks; b0 += in->A) {
		/* one set of active blocks: a fresh pool */
		uint32_t b1 = MIN(in->nblocks, b0 + in->A);
		size_t qh = 0, qn = 0, size = 0, done = 0;
		for (uint32_t w = b0 * in->wpb; w < b1 * in->wpb; w++, size++)
			q[qn++] = w;
		while (done < size) {
			uint32_t nmr = m.nmshr;
			if (qn) {
				uint32_t w = q[qh];
				qh = (qh + 1) & (qcap - 1);
				qn--;
				uint64_t delay = 0;
				if (issue(&m, pc, w, now, nmr, &delay, out, nb))
					done++;
				else if (!delay)
					q[(qh + qn++) & (qcap - 1)] = w;
				else
					h_push(&m.wq, now + delay, w, w);
			} else {
				out->idle_steps++;
			}
			apply(&m, now);
			while (m.wq.n && m.wq.e[0].key <= now)
				q[(qh + qn++) & (qcap - 1)] = h_pop(&m.wq).v;
			now++;
			/* nothing in the pool: the steps up to the next warp's return only
			 * apply effects (in time order either way) */
			if (!qn && done < size && m.wq.n && m.wq.e[0].key > now) {
				out->idle_steps += m.wq.e[0].key - now;
				now = m.wq.e[0].key;
			}
		}
		/* the reference drops what is still pending with the pool (only hit
		 * effects of lat_hit > 0 can be: a warp waits for its misses) */
		while (m.eff.n) {
			struct hent e = h_pop(&m.eff);
			if (e.key2 & EFF_MISS) {
				m.pend[e.v]--;
				if (m.inm[e.v]) {
					m.inm[e.v] = 0;
					m.nmshr--;
				}
			}
		}
	}
	out->steps = now;
	free(q);
	free(pc);
	free(m.eff.e);
	free(m.wq.e);
	free(m.stk);
	free(m.depth);
	free(m.set);
	free(m.instk);
	free(m.arrived);
	free(m.inm);
	free(m.pend);
}
