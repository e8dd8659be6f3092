/*
 * coh_values.c: coherence.check_values, shadow data values in the timing
 * engine (issue 9 "Data values"; docs/COHERENCE.md "Data values").
 *
 * Granularity: one value per 4-byte word. The kernel language and the
 * traces access elements of 4 bytes or more at 4-byte aligned addresses, and
 * the engine's own masks are per sector (whole lines when not sectored), so
 * the shadow keeps its own per-word masks: the words a request touches
 * (from the lanes' addresses at coalescing), the dirty words of every L1
 * copy and L2 line, the words a packet carries. That is the thesis's byte
 * mask at 4-byte granularity.
 *
 * Values: every word a store (or an atomic) writes gets value
 * 1 << 63 | seq << 28 | SM << 20 | hash20(word address), seq counting the word-stores
 * performed in the whole machine, so values are unique, grow in the global
 * order in which stores perform, and name the SM that stored them and
 * (up to a 20-bit hash) the word they were stored to. 0 = never written. Where values live (all in the arena, so snapshots and rewinding
 * cover them): every L1 line, every L2 line, every request (the payload a
 * packet carries: WT, PutM/PutN, AckD, Data* grants) and memory, an
 * open-addressed table of the words ever stored (fixed size,
 * coherence.value_words, since the arena cannot grow after sim_new).
 *
 * A store performs when it writes an L1 copy (MOESI/NMOESI, SI V hits) or
 * leaves as a write-through (SI miss), an atomic when the L2 executes it; a
 * load performs when it reads an L1 copy (hit, or at the fill) or, for an
 * L1-bypassing glc/slc load and an atomic's read, at the L2. Rules at every
 * load (docs/COHERENCE.md):
 *   moesi        the value is the latest store performed to the word;
 *   si, nmoesi   a value stored to the word (or 0 if the loading SM never
 *                stored to it), and never one of the loading SM's own
 *                stores other than its last one to the word (as the random
 *                tester: no global order, a core never reads its own
 *                overwritten value); and after a kernel boundary, a
 *                word written by a single SM in an earlier kernel and not
 *                since reads exactly its last value (kernel k+1 sees kernel
 *                k's writes: the release/acquire of coh_kflush.c).
 * A violation counts coh.value_violations, emits coh.value_violation and
 * stops the run like a breakpoint.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coh_eng.h"

#define TAGB 20 /* word hash bits */
#define SEQB 28 /* seq starts here (35 bits); the SM is in bits 20..27 */
/* Bit 63 is set in every value and table key: a user-space address never has
 * it, so the pointer audit of sim_check_invariants (arena_check_ptrs) cannot take
 * a value for a pointer into the arena. */
#define HI (1ull << 63)
#define SEQ(v) ((v) >> SEQB & ((1ull << 35) - 1))

struct cv_word {
	uint64_t key;    /* HI | word address + 1; 0 = empty slot */
	uint64_t mem;    /* the word's value in memory */
	uint64_t latest; /* the last store performed to it */
	uint32_t kern;   /* kernel (state.kernel) of that store */
	int32_t writer;  /* SM that stored to it in kernel `kern`; -1 none yet, -2 several */
};

struct cv_own {
	uint64_t key; /* HI | word address * 256 + SM + 1 */
	uint64_t val; /* that SM's last store to the word */
};

struct coh_vals {
	uint64_t seq; /* word-stores performed */
	uint64_t nw, no; /* table entries in use */
	uint64_t wslots, oslots;
	uint32_t wpl, full;
	struct cv_word *w;
	struct cv_own *o;
	uint64_t *rwm; /* per request: words it touches (warp requests, from the lanes) */
	uint64_t *rpm; /* per request: words its payload carries */
	uint64_t *rpv; /* per request: payload values [wpl] */
	uint64_t *l1d, *l1v; /* per SM, per line: dirty words; values [wpl] */
	uint64_t *l2d, *l2v; /* per bank, per line */
	uint64_t l1lines, l2lines;
};

struct cv_host { /* outside the arena: the stop request and its text */
	bool stop;
	int bug;
	char first[320];
};

static uint64_t pow2_at_least(uint64_t n)
{
	uint64_t p = 1;
	while (p < n)
		p <<= 1;
	return p;
}

void coh_values_init(struct sim *s)
{
	if (!s->coh || !s->cfg.l2.coh.check_values)
		return;
	struct coh_vals *c = ARENA_NEW(&s->arena, struct coh_vals, 1);
	memset(c, 0, sizeof *c);
	unsigned wpl = (unsigned)s->cfg.l2.line / 4;
	c->wpl = wpl;
	c->wslots = pow2_at_least((uint64_t)s->cfg.l2.coh.value_words * 4 / 3 + 1);
	c->oslots = c->wslots;
	ARENA_SET(&s->arena, c->w, struct cv_word, c->wslots);
	ARENA_SET(&s->arena, c->o, struct cv_own, c->oslots);
	size_t cap = s->pool.cap;
	ARENA_SET(&s->arena, c->rwm, uint64_t, cap);
	ARENA_SET(&s->arena, c->rpm, uint64_t, cap);
	ARENA_SET(&s->arena, c->rpv, uint64_t, cap * wpl);
	c->l1lines = (uint64_t)s->cfg.l1.sets * (uint64_t)s->cfg.l1.ways;
	c->l2lines = (uint64_t)s->cfg.l2.sets * (uint64_t)s->cfg.l2.ways;
	ARENA_SET(&s->arena, c->l1d, uint64_t, c->l1lines * (uint64_t)s->cfg.core.sms);
	ARENA_SET(&s->arena, c->l1v, uint64_t, c->l1lines * (uint64_t)s->cfg.core.sms * wpl);
	ARENA_SET(&s->arena, c->l2d, uint64_t, c->l2lines * (uint64_t)s->cfg.l2.banks);
	ARENA_SET(&s->arena, c->l2v, uint64_t, c->l2lines * (uint64_t)s->cfg.l2.banks * wpl);
	s->cv = c;
	s->cvh = xcalloc(1, sizeof *s->cvh);
	s->cv_id[0] = stats_counter(&s->stats, "coh.value_checks", "word reads checked against the consistency model (coherence.check_values)");
	s->cv_id[1] = stats_counter(&s->stats, "coh.value_violations", "word reads that returned a value the model does not allow (must stay 0)");
	s->cv_id[2] = stats_counter(&s->stats, "coh.value_words", "distinct words stored to (entries of the value store)");
}

void coh_values_free(struct sim *s)
{
	free(s->cvh);
	s->cvh = NULL;
}

void sim_test_value_bug(struct sim *s, int bug)
{
	if (s->cvh)
		s->cvh->bug = bug;
}

bool coh_values_take_stop(struct sim *s)
{
	if (!s->cvh || !s->cvh->stop)
		return false;
	s->cvh->stop = false;
	return true;
}

int coh_values_invariant(const struct sim *s, char **err)
{
	uint64_t n = stats_counter_value(&s->stats, s->cv_id[1]);
	if (n)
		return set_err(err, "%llu data-value violation%s; the first: %s", (unsigned long long)n, n == 1 ? "" : "s",
			       sim_value_violation(s) ? sim_value_violation(s) : "?");
	if (s->cv->full)
		return set_err(err, "%s", sim_value_violation(s) ? sim_value_violation(s) : "the value store is full");
	return 0;
}

const char *sim_value_violation(const struct sim *s)
{
	return s->cvh && s->cvh->first[0] ? s->cvh->first : NULL;
}

/* msg: the full report (sim_value_violation, check, --run); reason: the
 * stop reason in the breakpoint style "Label, what at cycle N" that the
 * batch runner prints and the TUI status line shortens. */
static void stop(struct sim *s, const struct event *e, const char *msg, const char *reason)
{
	if (!s->cvh->first[0])
		snprintf(s->cvh->first, sizeof s->cvh->first, "%s", msg);
	s->cvh->stop = true;
	if (s->bps && !s->bps->stop) {
		s->bps->stop = true;
		s->bps->stop_id = 0;
		if (e)
			s->bps->stop_ev = *e;
		else
			s->bps->stop_ev.kind = EV__COUNT;
		/* As a breakpoint's report (bp.c): the machine stops after this cycle. */
		snprintf(s->bps->stop_reason, sizeof s->bps->stop_reason, "%s at cycle %llu (logged in cycle %llu)", reason,
			 (unsigned long long)s->st->now + 1, (unsigned long long)s->st->now);
	}
}

static uint64_t tag_of(uint64_t waddr) { return mix64(waddr) & ((1u << TAGB) - 1); }

/* The value store cannot grow (the arena is fixed at sim_new): stop once. */
static void full(struct sim *s)
{
	struct coh_vals *c = s->cv;
	if (c->full)
		return;
	c->full = 1;
	char msg[200];
	snprintf(msg, sizeof msg,
		 "coherence.check_values: the value store is full at cycle %llu (%llu words, %llu SM-word pairs): raise "
		 "coherence.value_words", (unsigned long long)s->st->now, (unsigned long long)c->nw, (unsigned long long)c->no);
	stop(s, NULL, msg, "Value store full, raise coherence.value_words");
}

/* The table entry of a word (add: create it); NULL when absent / full. */
static struct cv_word *wfind(struct sim *s, uint64_t waddr, bool add)
{
	struct coh_vals *c = s->cv;
	uint64_t key = HI | (waddr + 1), m = c->wslots - 1;
	for (uint64_t i = mix64(key) & m;; i = (i + 1) & m) {
		struct cv_word *w = &c->w[i];
		if (w->key == key)
			return w;
		if (w->key)
			continue;
		if (!add)
			return NULL;
		if ((c->nw + 1) * 4 > c->wslots * 3) {
			full(s);
			return NULL;
		}
		c->nw++;
		stat_inc(&s->stats, s->cv_id[2]);
		w->key = key;
		w->mem = w->latest = 0;
		w->kern = 0;
		w->writer = -1;
		return w;
	}
}

static struct cv_own *ofind(struct sim *s, uint64_t waddr, unsigned sm, bool add)
{
	struct coh_vals *c = s->cv;
	uint64_t key = HI | (waddr * 256 + sm + 1), m = c->oslots - 1;
	for (uint64_t i = mix64(key) & m;; i = (i + 1) & m) {
		struct cv_own *o = &c->o[i];
		if (o->key == key)
			return o;
		if (o->key)
			continue;
		if (!add)
			return NULL;
		if ((c->no + 1) * 4 > c->oslots * 3) {
			full(s);
			return NULL;
		}
		c->no++;
		o->key = key;
		o->val = 0;
		return o;
	}
}

static uint64_t mem_get(struct sim *s, uint64_t waddr)
{
	struct cv_word *w = wfind(s, waddr, false);
	return w ? w->mem : 0;
}

static void mem_put(struct sim *s, uint64_t waddr, uint64_t v)
{
	struct cv_word *w = wfind(s, waddr, v != 0);
	if (w)
		w->mem = v;
}

/* A store of `sm` to the word performs: its new value. */
static uint64_t perform_store(struct sim *s, unsigned sm, uint64_t waddr)
{
	struct coh_vals *c = s->cv;
	uint64_t v = HI | ++c->seq << SEQB | (uint64_t)(sm & 255) << TAGB | tag_of(waddr);
	struct cv_word *w = wfind(s, waddr, true);
	if (w) {
		uint32_t k = s->st->kernel;
		w->latest = v;
		if (w->writer == -1 || w->kern != k) {
			w->kern = k;
			w->writer = (int32_t)sm;
		} else if (w->writer != (int32_t)sm) {
			w->writer = -2;
		}
	}
	struct cv_own *o = ofind(s, waddr, sm, true);
	if (o)
		o->val = v;
	return v;
}

static void fmt_val(char *buf, size_t n, uint64_t v)
{
	if (!v)
		snprintf(buf, n, "0");
	else
		snprintf(buf, n, "#%llu/sm%u", (unsigned long long)SEQ(v), (unsigned)(v >> TAGB & 255));
}

/* A load of `sm` read v from word `word` of `line`. */
static void check(struct sim *s, unsigned sm, uint64_t line, unsigned word, uint64_t v, const char *where)
{
	struct coh_vals *c = s->cv;
	uint64_t waddr = line / 4 + word;
	stat_inc(&s->stats, s->cv_id[0]);
	const struct cv_word *w = wfind(s, waddr, false);
	uint64_t latest = w ? w->latest : 0;
	char rule[200];
	bool ok;
	if (s->coh == &coh_moesi_proto) {
		ok = v == latest;
		char a[40];
		fmt_val(a, sizeof a, latest);
		snprintf(rule, sizeof rule, "only %s (the latest store)", a);
	} else {
		const struct cv_own *o = ofind(s, waddr, sm, false);
		uint64_t own = o ? o->val : 0;
		bool stored = v == 0 || ((v & ((1u << TAGB) - 1)) == tag_of(waddr) && SEQ(v) <= c->seq);
		ok = stored && (!own || (v && ((v >> TAGB & 255) != (sm & 255) || v == own)));
		char a[40], b[40];
		fmt_val(a, sizeof a, own);
		fmt_val(b, sizeof b, latest);
		snprintf(rule, sizeof rule, "a value stored to the word but no overwritten own one (own last %s)", own ? a : "none");
		if (ok && w && w->writer >= 0 && w->kern < s->st->kernel) {
			ok = v == latest;
			snprintf(rule, sizeof rule, "only %s (sm %d's last store, in kernel %u, before the boundary)", b,
				 w->writer, w->kern);
		}
	}
	if (ok)
		return;
	stat_inc(&s->stats, s->cv_id[1]);
	struct event e = {.kind = EV_COH_VALUE_VIOLATION, .cycle = s->st->now, .sm = (int16_t)sm, .addr = line,
			  .a = word, .b = (int64_t)v};
	EV_EMIT(&s->ev, EV_COH_VALUE_VIOLATION, .cycle = s->st->now, .sm = (int16_t)sm, .addr = line, .a = word,
		.b = (int64_t)v);
	char got[40], what[300], msg[400];
	fmt_val(got, sizeof got, v);
	snprintf(what, sizeof what, "sm %u %s line 0x%llx word %u read %s; allowed: %s", sm, where,
		 (unsigned long long)line, word, got, rule);
	snprintf(msg, sizeof msg, "coh.value_violation at cycle %llu: %s", (unsigned long long)s->st->now, what);
	char reason[320];
	snprintf(reason, sizeof reason, "Value check, %s", what);
	stop(s, &e, msg, reason);
}

/* ---- shadow storage ------------------------------------------------- */
static uint64_t l1i(const struct sim *s, const struct sm *sm, int set, int way)
{
	return (uint64_t)sm->id * s->cv->l1lines + (uint64_t)set * (uint64_t)s->cfg.l1.ways + (uint64_t)way;
}
static uint64_t l2i(const struct sim *s, const struct l2bank *b, int set, int way)
{
	return (uint64_t)b->id * s->cv->l2lines + (uint64_t)set * (uint64_t)b->c.ways + (uint64_t)way;
}
#define V1(c, i) (&(c)->l1v[(i) * (c)->wpl])
#define V2(c, i) (&(c)->l2v[(i) * (c)->wpl])
#define PV(c, ri) (&(c)->rpv[(uint64_t)(ri) * (c)->wpl])
#define EACH(m, w) for (uint64_t m_ = (m); m_ && ((w) = (unsigned)__builtin_ctzll(m_), 1); m_ &= m_ - 1)

static uint64_t all_words(const struct coh_vals *c) { return c->wpl >= 64 ? ~0ull : (1ull << c->wpl) - 1; }

/* coalesce.c: the words of the line a warp request's lanes touch. */
void coh_values_coalesce(struct sim *s, struct sm *sm, uint32_t ri, const struct winst *in)
{
	struct coh_vals *c = s->cv;
	const struct req *r = &s->pool.r[ri];
	const struct cache *l1 = &sm->l1.c;
	unsigned size = in->size ? in->size : 4;
	uint64_t m = 0;
	for (int l = 0; l < s->cfg.core.warp_size; l++) {
		if (!(in->active >> l & 1))
			continue;
		uint64_t a = in->addr[l], e = a + size - 1;
		for (uint64_t w = a & ~3ull; w <= e; w += 4) {
			if (cache_line_addr(l1, w) != r->addr)
				continue;
			if (!(cache_sector_mask(l1, w, 4) & r->mask))
				continue;
			m |= 1ull << ((w - r->addr) / 4);
		}
	}
	c->rwm[ri] = m;
	c->rpm[ri] = 0;
}

/* ---- L1 (coh_l1.c) ---------------------------------------------------- */
void coh_values_l1_load(struct sim *s, struct sm *sm, uint32_t ri, int set, int way)
{
	struct coh_vals *c = s->cv;
	uint64_t i = l1i(s, sm, set, way);
	unsigned w;
	EACH(c->rwm[ri], w)
		check(s, (unsigned)sm->id, s->pool.r[ri].addr, w, V1(c, i)[w], "L1 load of");
}

/* A store performs: into the L1 copy (way >= 0; dirty marks its words) and,
 * for a write-through, into the request's payload. */
void coh_values_l1_store(struct sim *s, struct sm *sm, uint32_t ri, int set, int way, bool dirty, bool wt)
{
	struct coh_vals *c = s->cv;
	uint64_t line = s->pool.r[ri].addr, m = c->rwm[ri];
	uint64_t i = way >= 0 ? l1i(s, sm, set, way) : 0;
	unsigned w;
	EACH(m, w) {
		uint64_t v = perform_store(s, (unsigned)sm->id, line / 4 + w);
		if (way >= 0)
			V1(c, i)[w] = v;
		PV(c, ri)[w] = v;
	}
	if (way >= 0 && dirty)
		c->l1d[i] |= m;
	c->rpm[ri] = wt && s->cvh->bug != 1 ? m : 0; /* bug 1 (tests): the write-through loses its values */
}

/* A grant arrived: data (the packet carries the line) fills the copy; an
 * upgrade keeps its own dirty words. */
void coh_values_l1_fill(struct sim *s, struct sm *sm, uint32_t fi, int set, int way, bool data, bool upgrade)
{
	struct coh_vals *c = s->cv;
	uint64_t i = l1i(s, sm, set, way);
	if (!upgrade)
		c->l1d[i] = 0;
	if (!data)
		return;
	unsigned w;
	EACH(c->rpm[fi] & ~c->l1d[i], w)
		V1(c, i)[w] = PV(c, fi)[w];
}

/* The copy's dirty words go into packet ri (PutM/PutN, AckD). */
void coh_values_l1_payload(struct sim *s, struct sm *sm, uint32_t ri, int set, int way)
{
	struct coh_vals *c = s->cv;
	if (way < 0) {
		c->rpm[ri] = 0;
		return;
	}
	uint64_t i = l1i(s, sm, set, way);
	unsigned w;
	int bug = s->cvh->bug, t = s->pool.r[ri].type;
	c->rpm[ri] = (bug == 2 && t == RQ_COH) || (bug == 3 && t == RQ_WB) ? 0 : c->l1d[i]; /* tests: lost on the way */
	EACH(c->rpm[ri], w)
		PV(c, ri)[w] = V1(c, i)[w];
}

void coh_values_l1_clean(struct sim *s, struct sm *sm, int set, int way) { s->cv->l1d[l1i(s, sm, set, way)] = 0; }

/* ---- L2 (coh_dir.c, l2.c) --------------------------------------------- */
static int l2_way(const struct sim *s, struct l2bank *b, uint64_t line, int *set)
{
	*set = l2_bank_set(s, b, line);
	int way = cache_find(&b->c, *set, line);
	if (way >= 0 && !cache_line(&b->c, *set, way)->valid)
		way = -1;
	return way;
}

/* Payload of ri merges into the L2 line (dirty: the words become the L2's to write back). */
void coh_values_l2_merge(struct sim *s, struct l2bank *b, uint32_t ri, int set, int way, bool dirty)
{
	struct coh_vals *c = s->cv;
	uint64_t i = l2i(s, b, set, way);
	unsigned w;
	EACH(c->rpm[ri], w)
		V2(c, i)[w] = PV(c, ri)[w];
	if (dirty)
		c->l2d[i] |= c->rpm[ri];
}

/* (set, way) was filled or allocated: words it has not written come from memory. */
void coh_values_l2_fill(struct sim *s, struct l2bank *b, int set, int way)
{
	struct coh_vals *c = s->cv;
	struct cline *cl = cache_line(&b->c, set, way);
	uint64_t i = l2i(s, b, set, way);
	if (!cl->sd)
		c->l2d[i] = 0;
	unsigned w;
	EACH(all_words(c) & ~c->l2d[i], w)
		V2(c, i)[w] = mem_get(s, cl->tag / 4 + w);
}

/* The line is written back: its dirty words go to memory. */
void coh_values_l2_writeback(struct sim *s, struct l2bank *b, const struct cline *cl)
{
	struct coh_vals *c = s->cv;
	int k = (int)(cl - b->c.l);
	uint64_t i = l2i(s, b, k / b->c.ways, k % b->c.ways);
	unsigned w;
	EACH(c->l2d[i], w)
		mem_put(s, cl->tag / 4 + w, V2(c, i)[w]);
	c->l2d[i] = 0;
}

/* l2_reply with data: a grant carries the line, an atomic executes, a load
 * that bypassed the L1 (glc/slc) performs here. */
void coh_values_l2_reply(struct sim *s, struct l2bank *b, uint32_t ri)
{
	struct coh_vals *c = s->cv;
	struct req *r = &s->pool.r[ri];
	int set, way = l2_way(s, b, r->addr, &set);
	uint64_t *lv = way >= 0 ? V2(c, l2i(s, b, set, way)) : NULL;
	unsigned w;
	if (r->type == RQ_FETCH) {
		c->rpm[ri] = all_words(c);
		EACH(c->rpm[ri], w)
			PV(c, ri)[w] = lv ? lv[w] : mem_get(s, r->addr / 4 + w);
	} else if (r->type == RQ_ATOM) {
		if (!lv)
			return;
		uint64_t i = l2i(s, b, set, way);
		EACH(c->rwm[ri], w) {
			check(s, r->sm, r->addr, w, lv[w], "atomic at the L2 on");
			lv[w] = perform_store(s, r->sm, r->addr / 4 + w);
			c->l2d[i] |= 1ull << w;
		}
	} else if (r->type == RQ_LD) {
		EACH(c->rwm[ri], w)
			check(s, r->sm, r->addr, w, lv ? lv[w] : mem_get(s, r->addr / 4 + w),
			      lv ? "glc load at the L2 of" : "slc load from memory of");
	}
}
