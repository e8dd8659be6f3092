/*
 * coh_ctl.c: table-driven L1 and directory controllers (coh.h) of the small
 * coherent system in coh_stress.h.
 *
 * An L1 event looks up (state, event) in the protocol's L1 table and
 * executes the row's actions; a request at the directory looks up
 * (directory state, message). Responses (Ack, AckD, Unblock) are never
 * refused; any other message that finds the entry locked gets a Nack
 * (`dir_locked`). Channels are FIFO per (L1, directory) pair: a message never
 * overtakes an earlier one on its channel, whatever its random delay.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "coh_int.h"

/* ---- violations ---------------------------------------------------------- */

void fail(struct cs_sys *s, int line, int l1, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void fail(struct cs_sys *s, int line, int l1, const char *fmt, ...)
{
	if (!s->r.ok)
		return;
	s->r.ok = false;
	s->r.cycle = s->now;
	s->r.line = line;
	s->r.l1 = l1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->r.why, sizeof s->r.why, fmt, ap);
	va_end(ap);
}

/* ---- channels ------------------------------------------------------------ */

static struct cs_msg *q_push(struct cs_q *q)
{
	if (q->n == QCAP)
		return NULL;
	struct cs_msg *m = &q->m[(q->head + q->n) % QCAP];
	q->n++;
	memset(m, 0, sizeof *m);
	return m;
}

struct cs_msg *q_head(struct cs_q *q) { return q->n ? &q->m[q->head] : NULL; }
void q_pop(struct cs_q *q) { q->head = (q->head + 1) % QCAP, q->n--; }

static uint64_t delay(struct cs_sys *s)
{
	return s->c.net_min + rng_below(&s->rng, s->c.net_max - s->c.net_min + 1);
}

/* FIFO per channel: never earlier than the message in front. */
static struct cs_msg *send(struct cs_sys *s, struct cs_q *q, unsigned type, unsigned l1, unsigned line, uint64_t extra)
{
	uint64_t t = s->now + delay(s) + extra;
	if (q->n) {
		uint64_t tail = q->m[(q->head + q->n - 1) % QCAP].t;
		if (t < tail)
			t = tail;
	}
	struct cs_msg *m = q_push(q);
	if (!m) {
		fail(s, (int)line, (int)l1, "channel overflow (more than %d messages in flight)", QCAP);
		return &s->sink;
	}
	m->t = t;
	m->type = (uint8_t)type;
	m->l1 = (uint8_t)l1;
	m->line = (uint8_t)line;
	s->r.msgs[type]++;
	return m;
}

/* ---- values -------------------------------------------------------------- */

uint32_t make_value(struct cs_sys *s, unsigned l1, unsigned line, unsigned word)
{
	return (uint32_t)(++s->seq << 12) | (uint32_t)((line * CS_WORDS + word) << 5) | l1;
}

static void note_write(struct cs_sys *s, unsigned line, unsigned word, uint32_t v)
{
	uint32_t *n = &s->nsince[line][word];
	s->kb_written[line][word] = true;
	if (*n < CS_SINCE)
		s->since[line][word][*n] = v;
	(*n)++;
}

/* The atomic rule (coh_stress.h): `old` is what an atomic read at the L2. */
static void check_atomic(struct cs_sys *s, unsigned l1, unsigned line, unsigned word, uint32_t old)
{
	uint32_t n = s->nsince[line][word], last = s->atom_last[line][word];
	if (n == 0) {
		if (old != last)
			fail(s, (int)line, (int)l1,
			     "atomic on word %u read %#x at the L2, but the latest write there was %#x (%s) and nothing wrote since",
			     word, old, last, last ? "the previous atomic" : "none: initial 0");
		return;
	}
	if (s->p == &coh_moesi_proto && old != s->latest[line][word]) {
		fail(s, (int)line, (int)l1, "atomic on word %u read %#x at the L2, latest store was %#x", word, old,
		     s->latest[line][word]);
		return;
	}
	if (n > CS_SINCE)
		return; /* too many to remember: the value-origin checks still apply */
	for (uint32_t k = 0; k < n; k++)
		if (s->since[line][word][k] == old)
			return;
	fail(s, (int)line, (int)l1,
	     "atomic on word %u read %#x at the L2, not one of the %u writes since the previous atomic (%#x, first since %#x)",
	     word, old, n, last, s->since[line][word][0]);
}

static void check_load(struct cs_sys *s, unsigned l1, unsigned line, unsigned word, uint32_t v, unsigned st)
{
	s->r.loads++;
	s->core[l1].load_read = v;
	if (s->kb_any && !s->kb_written[line][word] && v != s->kb_val[line][word]) {
		fail(s, (int)line, (int)l1,
		     "load of word %u got %#x after a kernel boundary, but its value at the release was %#x and nothing "
		     "wrote it since (L1 state %s)",
		     word, v, s->kb_val[line][word], coh_state_name(st));
		return;
	}
	if (v && ((v >> 5) & 127) != line * CS_WORDS + word)
		fail(s, (int)line, (int)l1, "load of word %u got %#x, a value stored to another word (L1 state %s)", word,
		     v, coh_state_name(st));
	else if (s->p == &coh_moesi_proto && v != s->latest[line][word])
		fail(s, (int)line, (int)l1, "load of word %u got %#x, latest store was %#x (L1 state %s)", word, v,
		     s->latest[line][word], coh_state_name(st));
	else if (v && (v & 31) == l1 && v != s->own_last[l1][line][word])
		fail(s, (int)line, (int)l1, "load of word %u got its own overwritten value %#x (last own %#x, state %s)",
		     word, v, s->own_last[l1][line][word], coh_state_name(st));
}

/* ---- L1 controller ------------------------------------------------------- */

struct cs_lline *l1_find(struct cs_sys *s, unsigned l1, unsigned line)
{
	for (unsigned w = 0; w < s->c.l1_ways; w++)
		if (s->l1[l1][w].tag == (int)line)
			return &s->l1[l1][w];
	return NULL;
}

static unsigned kept_of(unsigned next)
{
	return next == CS_O || next == CS_OM_D ? K_O : next == CS_S || next == CS_E || next == CS_SM_D ? K_S : K_GONE;
}

/* Request message a transient state stands for (re-derived on retry). */
static int request_of(const struct cs_lline *ln)
{
	switch (ln->st) {
	case CS_IS_D: return CM_GETS;
	case CS_IM_D: return CM_GETX;
	case CS_SM_D: case CS_OM_D: return CM_UPG;
	case CS_IN_D: return CM_GETN;
	case CS_SN_D: return CM_UPGN;
	case CS_MI_A: case CS_II_A: return ln->put; /* II_A: the directory acks it as stale */
	default: return -1;
	}
}

static void send_req(struct cs_sys *s, unsigned l1, unsigned line, struct cs_lline *ln, int type)
{
	struct cs_msg *m = send(s, &s->up[l1], (unsigned)type, l1, line, s->c.dir_latency);
	if (type == CM_PUTM || type == CM_PUTN) {
		m->mask = ln->dmask;
		memcpy(m->data, ln->data, sizeof m->data);
	}
}

static void perform(struct cs_sys *s, unsigned l1, struct cs_lline *ln, bool dirty)
{
	struct cs_core *c = &s->core[l1];
	if (c->store) {
		ln->data[c->word] = c->value;
		if (dirty)
			ln->dmask |= 1u << c->word;
		s->latest[c->line][c->word] = c->value;
		if (s->p->inv_acks) /* si: performed for the L2 at the WT's merge */
			note_write(s, c->line, c->word, c->value);
	} else {
		check_load(s, l1, c->line, c->word, ln->data[c->word], ln->st);
	}
	c->busy = false;
	c->t_next = s->now + 1 + rng_below(&s->rng, s->c.pause_max + 1);
	s->last_progress = s->now;
}

/* Apply (state, ev) on line `ln` (NULL: absent, state I). Returns false when
 * the table has no row (the access stalls; for a message it is an error). */
bool l1_event(struct cs_sys *s, unsigned l1, unsigned line, struct cs_lline *ln, unsigned ev,
		     const struct cs_msg *msg)
{
	unsigned st = ln ? ln->st : CS_I;
	int ri = coh_l1_lookup(s->p, st, ev);
	if (ri < 0) {
		if (ev > CE_REPLACE)
			fail(s, (int)line, (int)l1, "L1 %u: no row for state %s, event %s", l1, coh_state_name(st),
			     coh_event_name(ev));
		return false;
	}
	const struct coh_l1_row *row = &s->p->l1[ri];
	uint32_t a = row->act;
	s->r.transitions++;
	if (a & A_GETS) send_req(s, l1, line, ln, CM_GETS);
	if (a & A_GETX) send_req(s, l1, line, ln, CM_GETX);
	if (a & A_UPG) send_req(s, l1, line, ln, CM_UPG);
	if (a & A_GETN) send_req(s, l1, line, ln, CM_GETN);
	if (a & A_UPGN) send_req(s, l1, line, ln, CM_UPGN);
	if (a & (A_PUTE | A_PUTM | A_PUTN)) {
		ln->put = (uint8_t)(a & A_PUTE ? CM_PUTE : a & A_PUTM ? CM_PUTM : CM_PUTN);
		send_req(s, l1, line, ln, ln->put);
	}
	if (a & A_ACK) {
		unsigned k = kept_of(row->next);
		bool data = ln && (ln->dmask || k == K_O);
		if (s->p->inv_acks || ev == CE_RECALL) {
			struct cs_msg *m = send(s, &s->up[l1], data ? CM_ACKD : CM_ACK, l1, line, s->c.dir_latency);
			m->kept = (uint8_t)k;
			if (data) {
				m->mask = ln->dmask;
				memcpy(m->data, ln->data, sizeof m->data);
			}
		}
		if (ln && k != K_O)
			ln->dmask = 0; /* written back */
	}
	if (a & A_FILL) {
		/* An upgrade keeps its own (current) data. */
		if (st != CS_SM_D && st != CS_OM_D && st != CS_SN_D) {
			memcpy(ln->data, msg->data, sizeof ln->data);
			ln->dmask = 0;
		}
	}
	if (a & A_UNBLOCK)
		send(s, &s->up[l1], CM_UNBLOCK, l1, line, s->c.dir_latency);
	if (a & A_RETRY) {
		struct cs_msg *m = q_push(&s->retry[l1]);
		if (m) {
			m->t = s->now + 1 + rng_below(&s->rng, s->c.retry_max);
			m->line = (uint8_t)line;
			m->type = CM_NACK;
		}
	}
	if (ln) {
		ln->st = row->next;
		if (a & A_FREE) {
			ln->tag = -1;
			ln->st = CS_I;
			ln->dmask = 0;
		}
	}
	struct cs_core *c = &s->core[l1];
	bool mine = c->busy && c->line == line;
	if ((a & A_HIT) && mine) { /* a write-through (A_WT) goes out below */
		perform(s, l1, ln, (a & A_DIRTY) != 0);
		s->r.l1_hits++;
	}
	if ((a & A_FILL) && mine && coh_state_stable(ln->st))
		perform(s, l1, ln, (a & A_DIRTY) != 0);
	if (a & A_WT) {
		struct cs_msg *m = send(s, &s->up[l1], CM_WT, l1, line, s->c.dir_latency);
		m->mask = 1u << c->word;
		m->data[c->word] = c->value;
		s->wt_pending[l1][line]++;
		if (!(a & A_HIT)) { /* no-write-allocate: the store is done */
			s->latest[c->line][c->word] = c->value;
			c->busy = false;
			c->t_next = s->now + 1 + rng_below(&s->rng, s->c.pause_max + 1);
			s->last_progress = s->now;
		}
	}
	return true;
}

static void send_atomic(struct cs_sys *s, unsigned l1)
{
	struct cs_core *c = &s->core[l1];
	struct cs_msg *m = send(s, &s->up[l1], CM_GETX, l1, c->line, s->c.dir_latency);
	m->atom = 1;
	m->mask = 1u << c->word;
	m->data[c->word] = c->value;
	c->atom_sent = true;
}

/* The core's access: find or make room for the line, then LOAD/STORE. */
void l1_try_access(struct cs_sys *s, unsigned l1)
{
	struct cs_core *c = &s->core[l1];
	if (!s->p->inv_acks && s->wt_pending[l1][c->line])
		return; /* same-address order survives NACKs: wait for the write-throughs */
	struct cs_lline *ln = l1_find(s, l1, c->line);
	if (c->atom) { /* the copy leaves first (its Put travels ahead), then the atomic goes to the L2 */
		if (c->atom_sent)
			return;
		if (ln && ln->st != CS_I) {
			if (coh_state_stable(ln->st))
				l1_event(s, l1, c->line, ln, CE_REPLACE, NULL);
			return; /* gone or MI_A: look again next cycle */
		}
		send_atomic(s, l1);
		return;
	}
	if (!ln && (!c->store || s->p->write_alloc)) {
		for (unsigned w = 0; w < s->c.l1_ways && !ln; w++)
			if (s->l1[l1][w].tag < 0)
				ln = &s->l1[l1][w];
		if (!ln) {
			unsigned w = (unsigned)rng_below(&s->rng, s->c.l1_ways);
			struct cs_lline *v = &s->l1[l1][w];
			if (coh_state_stable(v->st))
				l1_event(s, l1, (unsigned)v->tag, v, CE_REPLACE, NULL);
			return; /* retry next cycle (the way may be free now) */
		}
		ln->tag = c->line;
		ln->st = CS_I;
		ln->dmask = 0;
	}
	if (ln && ln->st != CS_I && !coh_state_stable(ln->st))
		return; /* transient: wait */
	l1_event(s, l1, c->line, ln, c->store ? CE_STORE : CE_LOAD, NULL);
}

void l1_receive(struct cs_sys *s, unsigned l1, const struct cs_msg *m)
{
	static const uint8_t ev_of[CM__COUNT] = {
		[CM_DATA_S] = CE_DATA_S, [CM_DATA_E] = CE_DATA_E, [CM_DATA_X] = CE_DATA_X, [CM_DATA_N] = CE_DATA_N,
		[CM_INV] = CE_INV, [CM_RECALL] = CE_RECALL, [CM_WB_ACK] = CE_WB_ACK, [CM_NACK] = CE_NACK,
	};
	s->last_progress = s->now;
	if (m->type == CM_WT_ACK) {
		s->wt_pending[l1][m->line]--;
		return;
	}
	if (m->atom && m->type != CM_NACK) { /* an atomic's reply: the value it read at the L2 */
		struct cs_core *c = &s->core[l1];
		if (!c->busy || !c->atom || c->line != m->line) {
			fail(s, m->line, (int)l1, "L1 %u got an atomic's reply it did not ask for", l1);
			return;
		}
		unsigned w = c->word;
		uint32_t v = m->data[w];
		if (v && ((v >> 5) & 127) != m->line * CS_WORDS + w)
			fail(s, m->line, (int)l1, "atomic on word %u got %#x, a value stored to another word", w, v);
		c->atom_read = v;
		c->busy = c->atom = c->atom_sent = false;
		c->t_next = s->now + 1 + rng_below(&s->rng, s->c.pause_max + 1);
		return;
	}
	if (m->type == CM_NACK && (m->orig == CM_WT || m->atom)) { /* resend the same words later */
		struct cs_msg *r = q_push(&s->retry[l1]);
		if (r) {
			*r = *m;
			r->t = s->now + 1 + rng_below(&s->rng, s->c.retry_max);
		}
		if (m->atom)
			s->r.nacks++;
		return;
	}
	if (m->type == CM_NACK)
		s->r.nacks++;
	struct cs_lline *ln = l1_find(s, l1, m->line);
	if (!ln && m->type != CM_INV) {
		fail(s, m->line, (int)l1, "L1 %u got %s for a line it does not hold", l1, coh_msg_name(m->type));
		return;
	}
	l1_event(s, l1, m->line, ln, ev_of[m->type], m);
}

void l1_retries(struct cs_sys *s, unsigned l1)
{
	struct cs_q *q = &s->retry[l1];
	for (unsigned k = q->n; k; k--) {
		struct cs_msg m = *q_head(q);
		q_pop(q);
		if (m.t > s->now) {
			*q_push(q) = m;
			continue;
		}
		if (m.atom) {
			struct cs_msg *w = send(s, &s->up[l1], CM_GETX, l1, m.line, s->c.dir_latency);
			w->atom = 1;
			w->mask = m.mask;
			memcpy(w->data, m.data, sizeof w->data);
			continue;
		}
		if (m.orig == CM_WT) {
			struct cs_msg *w = send(s, &s->up[l1], CM_WT, l1, m.line, s->c.dir_latency);
			w->mask = m.mask;
			memcpy(w->data, m.data, sizeof w->data);
			continue;
		}
		struct cs_lline *ln = l1_find(s, l1, m.line);
		int t = ln ? request_of(ln) : -1;
		if (t >= 0)
			send_req(s, l1, m.line, ln, t);
	}
}

/* ---- directory ----------------------------------------------------------- */

static void dir_send(struct cs_sys *s, struct cs_dent *e, unsigned type, unsigned l1, const uint32_t *data)
{
	struct cs_msg *m = send(s, &s->down[l1], type, l1, (unsigned)e->tag, 0);
	if (data)
		memcpy(m->data, data, sizeof m->data);
}

static void merge(struct cs_dent *e, uint32_t mask, const uint32_t *data)
{
	for (unsigned w = 0; w < CS_WORDS; w++)
		if (mask >> w & 1)
			e->data[w] = data[w];
	e->dirty |= mask;
}

static void dir_restate(struct cs_sys *s, struct cs_dent *e)
{
	unsigned old = e->ds;
	if (!e->sharers && e->owner < 0)
		e->has_n = 0;
	e->ds = e->owner >= 0 ? (e->owner_o ? DS_O : DS_X) : e->has_n ? DS_N : e->sharers ? DS_S : DS_I;
	if (e->ds != old)
		s->r.dir_transitions++;
}

/* Every copy is gone (their dirty words merged): the atomic reads and writes
 * the word at the L2 and its reply carries what it read. */
static void atom_perform(struct cs_sys *s, struct cs_dent *e)
{
	unsigned q = e->req, line = (unsigned)e->tag, w = 0;
	while (w + 1 < CS_WORDS && !(e->grant_act >> w & 1))
		w++;
	uint32_t v = e->fwd[w];
	uint32_t old = s->c.bug == CS_BUG_ATOM_READS_MEM ? s->mem[line][w] : e->data[w];
	check_atomic(s, q, line, w, old);
	e->data[w] = v;
	e->dirty |= 1u << w;
	s->atom_last[line][w] = v;
	s->nsince[line][w] = 0;
	s->kb_written[line][w] = true;
	s->latest[line][w] = v;
	s->r.atomics++;
	e->busy = B_NONE;
	e->req_atom = 0;
	struct cs_msg *m = send(s, &s->down[q], CM_DATA_X, q, line, 0);
	m->atom = 1;
	m->data[w] = old;
	dir_restate(s, e);
}

static void grant(struct cs_sys *s, struct cs_dent *e)
{
	uint32_t a = e->grant_act;
	if (e->req_atom) {
		atom_perform(s, e);
		return;
	}
	unsigned q = e->req;
	const uint32_t *data = e->fwd_valid ? e->fwd : e->data;
	e->busy = B_NONE;
	if (a & D_DATA_S) {
		e->sharers |= 1ull << q;
		dir_send(s, e, CM_DATA_S, q, data);
	} else if (a & D_DATA_E) {
		e->owner = (int)q, e->owner_o = 0, e->sharers = 0;
		dir_send(s, e, CM_DATA_E, q, data);
		e->busy = B_UNBLOCK;
	} else if (a & D_DATA_X) {
		e->owner = (int)q, e->owner_o = 0, e->sharers = 0, e->has_n = 0;
		dir_send(s, e, CM_DATA_X, q, data);
		e->busy = B_UNBLOCK;
	} else if (a & D_DATA_N) {
		e->sharers |= 1ull << q;
		e->has_n = 1;
		dir_send(s, e, CM_DATA_N, q, data);
		e->busy = B_UNBLOCK;
	}
	e->fwd_valid = 0;
	dir_restate(s, e);
}

static void evict_done(struct cs_sys *s, struct cs_dent *e)
{
	if (e->dirty)
		memcpy(s->mem[e->tag], e->data, sizeof e->data);
	e->tag = -1;
	e->busy = B_NONE;
}

static void dir_inv_all(struct cs_sys *s, struct cs_dent *e, int except, unsigned busy)
{
	uint64_t who = e->sharers | (e->owner >= 0 ? 1ull << e->owner : 0);
	e->acks = 0;
	for (unsigned i = 0; i < s->c.l1s; i++)
		if ((who >> i & 1) && (int)i != except) {
			dir_send(s, e, CM_INV, i, NULL);
			if (s->p->inv_acks)
				e->acks++;
			else
				e->sharers &= ~(1ull << i);
		}
	if (e->acks)
		e->busy = (uint8_t)busy;
}

void l2_replace(struct cs_sys *s, struct cs_dent *e)
{
	int ri = coh_dir_lookup(s->p, e->ds, CM_L2_REPL);
	if (ri < 0) {
		fail(s, e->tag, -1, "directory: no row for state %s, L2Repl", coh_dstate_name(e->ds));
		return;
	}
	s->r.dir_transitions++;
	if (s->p->dir[ri].act & D_INV)
		dir_inv_all(s, e, -1, B_EVICT);
	if (e->busy != B_EVICT)
		evict_done(s, e);
}

static void nack(struct cs_sys *s, const struct cs_msg *m)
{
	struct cs_msg *n = send(s, &s->down[m->l1], CM_NACK, m->l1, m->line, 0);
	n->orig = m->type;
	n->atom = m->atom;
	n->mask = m->mask;
	memcpy(n->data, m->data, sizeof n->data);
}

void dir_request(struct cs_sys *s, const struct cs_msg *m);

struct cs_dent *dir_find(struct cs_sys *s, unsigned line)
{
	for (unsigned i = 0; i < s->c.l2_lines; i++)
		if (s->dir[i].tag == (int)line)
			return &s->dir[i];
	return NULL;
}

/* L2 miss: take a free entry and fetch, or start replacing a victim and refuse. */
static void dir_miss(struct cs_sys *s, const struct cs_msg *m)
{
	struct cs_dent *e = NULL;
	for (unsigned i = 0; i < s->c.l2_lines && !e; i++)
		if (s->dir[i].tag < 0)
			e = &s->dir[i];
	if (!e) {
		unsigned i = (unsigned)rng_below(&s->rng, s->c.l2_lines);
		if (s->dir[i].busy == B_NONE)
			l2_replace(s, &s->dir[i]);
		nack(s, m);
		return;
	}
	memset(e, 0, sizeof *e);
	e->tag = m->line;
	e->owner = -1;
	e->ds = DS_I;
	e->busy = B_FETCH;
	e->t_fetch = s->now + s->c.mem_latency;
	e->req = m->l1;
	e->req_msg = m->type;
	e->req_atom = m->atom;
	memcpy(e->fwd, m->data, sizeof e->fwd); /* WT and atomic words wait here */
	e->grant_act = m->mask;
}

void dir_request(struct cs_sys *s, const struct cs_msg *m)
{
	struct cs_dent *e = dir_find(s, m->line);
	unsigned q = m->l1;
	uint64_t qb = 1ull << q;
	bool put = m->type == CM_PUTE || m->type == CM_PUTM || m->type == CM_PUTN;
	if (!e) {
		if (put) { /* the L2 replaced the line after taking this copy's data */
			dir_send(s, &(struct cs_dent){.tag = m->line}, CM_WB_ACK, q, NULL);
			return;
		}
		dir_miss(s, m);
		return;
	}
	if (e->busy) {
		nack(s, m);
		return;
	}
	if (m->atom) { /* no table row: invalidate every copy, then perform (atom_perform) */
		e->req = (uint8_t)q;
		e->req_msg = m->type;
		e->req_atom = 1;
		e->grant_act = m->mask;
		memcpy(e->fwd, m->data, sizeof e->fwd);
		e->acks = 0;
		if (s->c.bug != CS_BUG_ATOM_NO_INV)
			dir_inv_all(s, e, -1, B_ACKS);
		if (!e->acks)
			atom_perform(s, e);
		else
			dir_restate(s, e);
		return;
	}
	if (put && (m->type == CM_PUTN ? !(e->sharers & qb) : e->owner != (int)q)) {
		dir_send(s, e, CM_WB_ACK, q, NULL); /* stale: data already handed over */
		return;
	}
	int ri = coh_dir_lookup(s->p, e->ds, m->type);
	if (ri < 0) {
		fail(s, m->line, (int)q, "directory: no row for state %s, message %s from L1 %u", coh_dstate_name(e->ds),
		     coh_msg_name(m->type), q);
		return;
	}
	uint32_t a = s->p->dir[ri].act;
	s->r.dir_transitions++;
	if (a & (D_WB | D_MERGE))
		merge(e, m->mask, m->data);
	if (m->type == CM_WT) /* si: the store is performed for the L2 now */
		for (unsigned w = 0; w < CS_WORDS; w++)
			if (m->mask >> w & 1)
				note_write(s, m->line, w, m->data[w]);
	if (a & D_CLR_OWNER) {
		e->sharers &= ~qb;
		if (e->owner == (int)q)
			e->owner = -1, e->owner_o = 0;
	}
	if (a & D_WB_ACK)
		dir_send(s, e, CM_WB_ACK, q, NULL);
	if (a & D_WT_ACK)
		dir_send(s, e, CM_WT_ACK, q, NULL);
	e->req = (uint8_t)q;
	e->req_msg = m->type;
	e->grant_act = a;
	e->acks = 0;
	if (a & D_INV)
		dir_inv_all(s, e, (int)q, B_ACKS);
	if ((a & D_RECALL) && e->owner >= 0 && e->owner != (int)q) {
		dir_send(s, e, CM_RECALL, (unsigned)e->owner, NULL);
		e->acks = 1;
		e->busy = B_ACKS;
	}
	if (!e->acks)
		grant(s, e);
	else
		dir_restate(s, e);
}

void dir_response(struct cs_sys *s, const struct cs_msg *m)
{
	struct cs_dent *e = dir_find(s, m->line);
	if (!e) {
		fail(s, m->line, m->l1, "directory: %s from L1 %u for a line the L2 does not hold", coh_msg_name(m->type),
		     m->l1);
		return;
	}
	uint64_t qb = 1ull << m->l1;
	if (m->type == CM_UNBLOCK) {
		if (e->busy != B_UNBLOCK || e->req != m->l1)
			fail(s, m->line, m->l1, "directory: unexpected Unblock from L1 %u", m->l1);
		e->busy = B_NONE;
		return;
	}
	if (e->busy != B_ACKS && e->busy != B_EVICT) {
		fail(s, m->line, m->l1, "directory: unexpected %s from L1 %u (state %s)", coh_msg_name(m->type), m->l1,
		     coh_dstate_name(e->ds));
		return;
	}
	if (m->type == CM_ACKD) {
		if (m->kept == K_O && e->busy == B_ACKS) {
			memcpy(e->fwd, m->data, sizeof e->fwd);
			e->fwd_valid = 1;
		} else {
			merge(e, m->mask, m->data);
		}
	}
	if (m->kept == K_GONE) {
		e->sharers &= ~qb;
		if (e->owner == m->l1)
			e->owner = -1, e->owner_o = 0;
	} else if (m->kept == K_S) {
		if (e->owner == m->l1)
			e->owner = -1, e->owner_o = 0;
		e->sharers |= qb;
	} else {
		e->owner_o = 1;
	}
	if (--e->acks)
		return;
	if (e->busy == B_EVICT)
		evict_done(s, e);
	else
		grant(s, e);
}

void dir_tick(struct cs_sys *s)
{
	for (unsigned i = 0; i < s->c.l2_lines; i++) {
		struct cs_dent *e = &s->dir[i];
		if (e->tag >= 0 && e->busy == B_FETCH && e->t_fetch <= s->now) {
			memcpy(e->data, s->mem[e->tag], sizeof e->data);
			e->busy = B_NONE;
			struct cs_msg m = {.type = e->req_msg, .l1 = e->req, .line = (uint8_t)e->tag, .mask = e->grant_act,
					   .atom = e->req_atom};
			memcpy(m.data, e->fwd, sizeof m.data);
			s->last_progress = s->now;
			dir_request(s, &m);
		}
	}
}

