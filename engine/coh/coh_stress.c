/*
 * coh_stress.c: the random coherence tester over the controllers of
 * coh_ctl.c: cores issuing random loads and stores, per-cycle invariants,
 * the drain and final flush, and the scripted entry points for unit tests
 * (see coh_stress.h for what is checked).
 */
#include <stdlib.h>
#include <string.h>

#include "coh_int.h"

/* ---- invariants ---------------------------------------------------------- */

static bool holds_copy(unsigned st)
{
	return st == CS_S || st == CS_E || st == CS_O || st == CS_M || st == CS_N || st == CS_V || st == CS_SM_D ||
	       st == CS_OM_D || st == CS_SN_D;
}

static void check_invariants(struct cs_sys *s)
{
	bool moesi = s->p == &coh_moesi_proto;
	for (unsigned line = 0; line < s->c.lines; line++) {
		int excl = -1, owners = 0, copies = 0;
		const struct cs_dent *e = dir_find(s, line);
		for (unsigned i = 0; i < s->c.l1s; i++) {
			const struct cs_lline *ln = l1_find(s, i, line);
			if (!ln)
				continue;
			unsigned st = ln->st;
			if (!s->p->inv_acks && ln->dmask)
				fail(s, (int)line, (int)i, "SI: L1 %u holds dirty words (mask %#x) in %s", i, ln->dmask,
				     coh_state_name(st));
			if (!holds_copy(st))
				continue;
			copies++;
			if (st == CS_E || st == CS_M)
				excl = (int)i;
			if (st == CS_E || st == CS_M || st == CS_O || st == CS_OM_D)
				owners++;
			if (!s->p->inv_acks)
				continue;
			if (!e) {
				fail(s, (int)line, (int)i, "L1 %u holds %s but the L2 does not hold the line", i,
				     coh_state_name(st));
			} else if ((st == CS_E || st == CS_M || st == CS_O || st == CS_OM_D) ? e->owner != (int)i
											       : !(e->sharers >> i & 1) && e->owner != (int)i) {
				fail(s, (int)line, (int)i, "L1 %u holds %s but the directory (state %s, owner %d, sharers %#llx) does not count it",
				     i, coh_state_name(st), coh_dstate_name(e->ds), e->owner, (unsigned long long)e->sharers);
			}
		}
		if (excl >= 0 && copies > 1)
			fail(s, (int)line, excl, "L1 %d holds %s while %d other L1s hold copies (single writer violated)", excl,
			     coh_state_name(l1_find(s, (unsigned)excl, line)->st), copies - 1);
		if (moesi && owners > 1)
			fail(s, (int)line, -1, "%d owners (E/M/O) at once", owners);
	}
}

/* ---- the loop ------------------------------------------------------------ */

static void deliver(struct cs_sys *s)
{
	for (unsigned i = 0; i < s->c.l1s; i++) {
		struct cs_msg *m;
		while ((m = q_head(&s->up[i])) && m->t <= s->now) {
			struct cs_msg c = *m;
			q_pop(&s->up[i]);
			s->last_progress = s->now;
			if (c.type == CM_ACK || c.type == CM_ACKD || c.type == CM_UNBLOCK)
				dir_response(s, &c);
			else
				dir_request(s, &c);
		}
	}
	for (unsigned i = 0; i < s->c.l1s; i++) {
		struct cs_msg *m;
		while ((m = q_head(&s->down[i])) && m->t <= s->now) {
			struct cs_msg c = *m;
			q_pop(&s->down[i]);
			l1_receive(s, i, &c);
		}
	}
}

static void note_writer(struct cs_sys *s, unsigned l1, unsigned line, unsigned word)
{
	int8_t *w = &s->kwriter[line][word];
	*w = *w == -1 || *w == (int8_t)l1 ? (int8_t)l1 : -2;
}

static void cores(struct cs_sys *s)
{
	for (unsigned i = 0; i < s->c.l1s; i++) {
		struct cs_core *c = &s->core[i];
		if (!c->busy && !s->stop_issue && c->t_next <= s->now && s->issued < s->kernel_end) {
			c->busy = true;
			unsigned r = (unsigned)rng_below(&s->rng, 100);
			c->store = r < s->c.store_pct;
			c->atom = !c->store && r < s->c.store_pct + s->c.atomic_pct;
			c->atom_sent = false;
			c->line = (uint8_t)rng_below(&s->rng, s->c.lines);
			c->word = (uint8_t)rng_below(&s->rng, CS_WORDS);
			if (c->store || c->atom) {
				note_writer(s, i, c->line, c->word);
				c->value = make_value(s, i, c->line, c->word);
				s->own_last[i][c->line][c->word] = c->value;
				s->written[c->line][c->word] = true;
				s->r.stores += c->store;
			}
			s->issued++;
			s->r.accesses++;
		}
		if (c->busy)
			l1_try_access(s, i);
	}
}

static void deadlock(struct cs_sys *s)
{
	for (unsigned i = 0; i < s->c.l1s; i++) {
		struct cs_core *c = &s->core[i];
		if (!c->busy)
			continue;
		const struct cs_dent *e = dir_find(s, c->line);
		fail(s, c->line, (int)i,
		     "deadlock: nothing moved for 200000 cycles; L1 %u waits to %s in state %s; directory %s owner %d "
		     "sharers %#llx busy %d acks %u",
		     i, c->atom ? "do an atomic" : c->store ? "store" : "load", coh_state_name(cs_l1_state(s, i, c->line)),
		     e ? coh_dstate_name(e->ds) : "absent", e ? e->owner : -1, e ? (unsigned long long)e->sharers : 0ull,
		     e ? e->busy : -1, e ? e->acks : 0);
		return;
	}
	fail(s, -1, -1, "deadlock: nothing moved for 200000 cycles");
}

void cs_step(struct cs_sys *s, uint64_t n)
{
	for (uint64_t k = 0; k < n && s->r.ok; k++) {
		deliver(s);
		dir_tick(s);
		for (unsigned i = 0; i < s->c.l1s; i++)
			l1_retries(s, i);
		uint64_t before = s->r.transitions + s->r.dir_transitions;
		cores(s);
		if (s->last_progress == s->now || s->r.transitions + s->r.dir_transitions != before)
			check_invariants(s); /* states change only on these */
		s->now++;
		if (s->now - s->last_progress > 200000)
			deadlock(s);
	}
}

static bool quiet(const struct cs_sys *s)
{
	for (unsigned i = 0; i < s->c.l1s; i++)
		if (s->up[i].n || s->down[i].n || s->retry[i].n || s->core[i].busy)
			return false;
	for (unsigned i = 0; i < s->c.l2_lines; i++)
		if (s->dir[i].tag >= 0 && s->dir[i].busy)
			return false;
	return true;
}

bool cs_run(struct cs_sys *s, uint64_t max_cycles)
{
	for (uint64_t k = 0; k < max_cycles && s->r.ok; k++) {
		if (quiet(s) && (s->stop_issue || s->issued >= s->kernel_end))
			return true;
		cs_step(s, 1);
	}
	return quiet(s);
}

void cs_default_cfg(struct cs_cfg *c, const struct coh_proto *p)
{
	*c = (struct cs_cfg){.p = p, .l1s = 4, .lines = 8, .l1_ways = 2, .l2_lines = 4, .net_min = 1, .net_max = 6,
			     .dir_latency = 1, .mem_latency = 8, .retry_max = 4, .store_pct = 40, .atomic_pct = 10, .pause_max = 3,
			     .accesses = 100000, .seed = 1, .kernel_every = 1000};
}

struct cs_sys *cs_new(const struct cs_cfg *c)
{
	struct cs_sys *s = xcalloc(1, sizeof *s);
	s->c = *c;
	if (s->c.l1s > CS_MAX_L1) s->c.l1s = CS_MAX_L1;
	if (s->c.lines > CS_MAX_LINES) s->c.lines = CS_MAX_LINES;
	if (s->c.l1_ways > 8) s->c.l1_ways = 8;
	if (s->c.l2_lines > CS_MAX_LINES) s->c.l2_lines = CS_MAX_LINES;
	if (s->c.net_max < s->c.net_min) s->c.net_max = s->c.net_min;
	if (!s->c.retry_max) s->c.retry_max = 1;
	s->p = c->p;
	rng_seed(&s->rng, c->seed);
	for (unsigned i = 0; i < CS_MAX_L1; i++)
		for (unsigned w = 0; w < 8; w++)
			s->l1[i][w].tag = -1;
	for (unsigned i = 0; i < CS_MAX_LINES; i++)
		s->dir[i].tag = -1, s->dir[i].owner = -1;
	s->r.ok = true;
	s->r.line = s->r.l1 = -1;
	s->kernel_end = s->c.accesses;
	memset(s->kwriter, -1, sizeof s->kwriter);
	return s;
}

void cs_free(struct cs_sys *s) { free(s); }

bool cs_access(struct cs_sys *s, unsigned l1, unsigned line, unsigned word, bool store)
{
	struct cs_core *c = &s->core[l1];
	if (c->busy || l1 >= s->c.l1s || line >= s->c.lines)
		return false;
	s->stop_issue = true;
	*c = (struct cs_core){.busy = true, .store = store, .line = (uint8_t)line, .word = (uint8_t)(word % CS_WORDS)};
	if (store) {
		note_writer(s, l1, line, c->word);
		c->value = make_value(s, l1, line, c->word);
		s->own_last[l1][line][c->word] = c->value;
		s->written[line][c->word] = true;
		s->r.stores++;
	}
	s->r.accesses++;
	l1_try_access(s, l1);
	return true;
}

bool cs_atomic(struct cs_sys *s, unsigned l1, unsigned line, unsigned word)
{
	struct cs_core *c = &s->core[l1];
	if (c->busy || l1 >= s->c.l1s || line >= s->c.lines)
		return false;
	s->stop_issue = true;
	*c = (struct cs_core){.busy = true, .atom = true, .line = (uint8_t)line, .word = (uint8_t)(word % CS_WORDS)};
	note_writer(s, l1, line, c->word);
	c->value = make_value(s, l1, line, c->word);
	s->own_last[l1][line][c->word] = c->value;
	s->written[line][c->word] = true;
	s->r.accesses++;
	l1_try_access(s, l1);
	return true;
}

uint32_t cs_load_read(const struct cs_sys *s, unsigned l1) { return s->core[l1].load_read; }

/* Drop (REPLACE row) every stable line of every L1 whose state `pick` names. */
static uint64_t replace_all(struct cs_sys *s, bool (*pick)(unsigned st))
{
	uint64_t n = 0;
	for (unsigned i = 0; i < s->c.l1s; i++)
		for (unsigned w = 0; w < s->c.l1_ways; w++) {
			struct cs_lline *ln = &s->l1[i][w];
			if (ln->tag >= 0 && pick(ln->st) && l1_event(s, i, (unsigned)ln->tag, ln, CE_REPLACE, NULL))
				n++;
		}
	return n;
}

static bool is_n(unsigned st) { return st == CS_N; }
static bool is_shared(unsigned st) { return st == CS_S || st == CS_V; }

/* The word's value in the coherent domain: an owner's copy, else the L2's, else memory's. */
static uint32_t coherent_value(struct cs_sys *s, unsigned line, unsigned w)
{
	for (unsigned i = 0; i < s->c.l1s; i++) {
		const struct cs_lline *ln = l1_find(s, i, line);
		if (ln && (ln->st == CS_E || ln->st == CS_M || ln->st == CS_O))
			return ln->data[w];
	}
	const struct cs_dent *e = dir_find(s, line);
	return e ? e->data[w] : s->mem[line][w];
}

bool cs_kernel_boundary(struct cs_sys *s)
{
	bool relaxed = s->p == &coh_si_proto || s->p == &coh_nmoesi_proto;
	s->r.kernels++;
	if (relaxed && s->c.bug != CS_BUG_NO_RELEASE) /* release: N words back to the L2 (si: WTs drained already) */
		s->r.kb_writebacks += replace_all(s, is_n);
	if (!cs_run(s, 100000))
		return false;
	for (unsigned line = 0; line < s->c.lines; line++)
		for (unsigned w = 0; w < CS_WORDS; w++) {
			uint32_t v = coherent_value(s, line, w);
			int k = s->kwriter[line][w];
			if (k >= 0 && v != s->latest[line][w])
				fail(s, (int)line, k,
				     "kernel boundary: word %u holds %#x after the release, but its only writer L1 %d last wrote %#x",
				     w, v, k, s->latest[line][w]);
			s->kb_val[line][w] = v;
			s->kb_written[line][w] = false;
			s->kwriter[line][w] = -1;
		}
	if (relaxed && s->c.bug != CS_BUG_NO_ACQUIRE) /* acquire: copies that may be stale go */
		s->r.kb_invalidations += replace_all(s, is_shared);
	s->kb_any = true;
	return cs_run(s, 100000) && s->r.ok;
}

uint32_t cs_atomic_read(const struct cs_sys *s, unsigned l1, uint32_t *wrote)
{
	if (wrote)
		*wrote = s->core[l1].value;
	return s->core[l1].atom_read;
}

bool cs_l1_evict(struct cs_sys *s, unsigned l1, unsigned line)
{
	struct cs_lline *ln = l1_find(s, l1, line);
	return ln && coh_state_stable(ln->st) && l1_event(s, l1, line, ln, CE_REPLACE, NULL);
}

bool cs_l2_evict(struct cs_sys *s, unsigned line)
{
	struct cs_dent *e = dir_find(s, line);
	if (!e || e->busy)
		return false;
	l2_replace(s, e);
	return true;
}

/* Release at the end: every L1 and then the L2 give their lines back. */
static void flush_all(struct cs_sys *s)
{
	s->stop_issue = true;
	for (int round = 0; round < 64 && s->r.ok; round++) {
		bool any = false;
		for (unsigned i = 0; i < s->c.l1s; i++)
			for (unsigned w = 0; w < s->c.l1_ways; w++) {
				struct cs_lline *ln = &s->l1[i][w];
				if (ln->tag >= 0) {
					any = true;
					if (coh_state_stable(ln->st))
						l1_event(s, i, (unsigned)ln->tag, ln, CE_REPLACE, NULL);
				}
			}
		for (unsigned i = 0; i < s->c.l2_lines; i++)
			if (s->dir[i].tag >= 0) {
				any = true;
				if (!s->dir[i].busy && !(s->p->inv_acks && (s->dir[i].sharers || s->dir[i].owner >= 0) && round < 8))
					l2_replace(s, &s->dir[i]);
			}
		if (!any)
			break;
		cs_run(s, 100000);
	}
	if (!s->r.ok)
		return;
	for (unsigned line = 0; line < s->c.lines; line++)
		for (unsigned w = 0; w < CS_WORDS; w++) {
			uint32_t v = s->mem[line][w];
			if (s->p == &coh_moesi_proto && v != s->latest[line][w])
				fail(s, (int)line, -1, "after the flush memory word %u holds %#x, latest store was %#x", w, v,
				     s->latest[line][w]);
			else if (s->written[line][w] && !v)
				fail(s, (int)line, -1, "after the flush memory word %u lost every store", w);
			else if (v && ((v >> 5) & 127) != line * CS_WORDS + w)
				fail(s, (int)line, -1, "after the flush memory word %u holds %#x, stored to another word", w, v);
			else if (v && v != s->own_last[v & 31][line][w])
				fail(s, (int)line, (int)(v & 31), "after the flush memory word %u holds an overwritten value %#x of L1 %u", w, v, v & 31);
		}
}

/* Random run of c->accesses accesses, drain, flush, final check. */
static void cs_run_random(struct cs_sys *s, struct cs_result *out)
{
	while (s->r.ok && s->issued < s->c.accesses) {
		uint64_t end = s->c.kernel_every ? s->issued + s->c.kernel_every : s->c.accesses;
		s->kernel_end = end < s->c.accesses ? end : s->c.accesses;
		while (s->r.ok && s->issued < s->kernel_end)
			cs_step(s, 64);
		if (s->r.ok && s->issued < s->c.accesses) {
			if (!cs_run(s, 1000000))
				fail(s, -1, -1, "did not drain at a kernel boundary");
			else if (!cs_kernel_boundary(s) && s->r.ok)
				fail(s, -1, -1, "did not drain after a kernel boundary");
		}
	}
	if (s->r.ok && !cs_run(s, 1000000))
		fail(s, -1, -1, "did not drain after the last access");
	if (s->r.ok)
		flush_all(s);
	if (s->r.ok)
		s->r.cycle = s->now;
	*out = s->r;
}

void cs_stress(const struct cs_cfg *c, struct cs_result *out)
{
	struct cs_sys *s = cs_new(c);
	cs_run_random(s, out);
	cs_free(s);
}

unsigned cs_l1_state(const struct cs_sys *s, unsigned l1, unsigned line)
{
	const struct cs_lline *ln = l1_find((struct cs_sys *)s, l1, line);
	return ln ? ln->st : CS_I;
}

bool cs_dir(const struct cs_sys *s, unsigned line, unsigned *ds, int *owner, uint64_t *sharers, bool *locked)
{
	const struct cs_dent *e = dir_find((struct cs_sys *)s, line);
	if (!e)
		return false;
	*ds = e->ds;
	*owner = e->owner;
	*sharers = e->sharers;
	*locked = e->busy != B_NONE;
	return true;
}

const struct cs_result *cs_stats(const struct cs_sys *s) { return &s->r; }
