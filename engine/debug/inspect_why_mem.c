/*
 * inspect_why_mem.c: the memory side of `why` (why_int.h): where a request
 * is between the L1 and DRAM (L1 queues, MSHRs, retries after a NACK, the
 * L2 bank's queues, MSHR, FRC entry and directory lock, the DRAM bank and
 * its scheduler's next command). Nothing here changes the simulation.
 */
#include <stdio.h>
#include <string.h>

#include "core/opunit.h"
#include "dram/dram_queue.h"
#include "mem/coh_eng.h"
#include "mem/frc.h"
#include "why_int.h"

static bool in_queue(const struct sim *s, const struct reqq *q, uint32_t want, int *pos)
{
	int k = 0;
	for (uint32_t i = q->head; i != REQ_NIL; i = s->pool.r[i].next, k++)
		if (i == want) {
			*pos = k;
			return true;
		}
	return false;
}

static uint32_t queue_find_line_of(const struct sim *s, const struct reqq *q, uint64_t line, int smi, int *pos)
{
	int k = 0;
	for (uint32_t i = q->head; i != REQ_NIL; i = s->pool.r[i].next, k++)
		if (s->pool.r[i].addr == line && (smi < 0 || s->pool.r[i].sm == smi)) {
			*pos = k;
			return i;
		}
	return REQ_NIL;
}

uint32_t why_queue_find_line(const struct sim *s, const struct reqq *q, uint64_t line, int *pos)
{
	return queue_find_line_of(s, q, line, -1, pos);
}

/* "first" .. "tenth", then "11th": the bank-queue position in words. */
static void ordinal(int n, char *buf, size_t len)
{
	static const char *const w[] = {"first", "second", "third",   "fourth", "fifth",
					"sixth", "seventh", "eighth", "ninth",  "tenth"};
	if (n >= 1 && n <= 10)
		snprintf(buf, len, "%s", w[n - 1]);
	else
		snprintf(buf, len, "%d%s", n, n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th");
}

/* Row state of `want` against the bank's open row, in words. */
void why_row_words(int64_t open, uint32_t want, char *buf, size_t len)
{
	if (open < 0)
		snprintf(buf, len, "row miss (no row open, wants row %u)", want);
	else if ((uint64_t)open == want)
		snprintf(buf, len, "row hit (row %u open)", want);
	else
		snprintf(buf, len, "row conflict (row %lld open, wants row %u)", (long long)open, want);
}

/* Link 4 with DRAM: the line's place in its bank's queue (oldest first, as
 * `info bank` lists it) and what the request at the head is doing. */
static void dram_link(const struct sim *s, uint64_t line, unsigned ch, unsigned bk, uint32_t row,
		      const struct dram_bank_info *bi, struct chain *c)
{
	struct dram_qreq_info q[64];
	int n = inspect_dram_queue(s, (int)ch, (int)bk, q, 64), pos = -1;
	uint64_t len = (uint64_t)s->cfg.l2.line;
	for (int i = 0; i < n && i < 64 && pos < 0; i++)
		if (q[i].addr >= line && q[i].addr < line + len)
			pos = i;
	char mine[96], head[96], nth[16];
	why_deft(c, WT_DRAM_BANK, -1, (int)ch, (int)bk, 0);
	why_row_words(bi->open_row, row, mine, sizeof mine);
	if (bi->open_row < 0 && strcmp(bi->last_cmd, "PRE") == 0 && bi->last_cmd_cycle + 1 >= s->st->now)
		/* the PRE of a conflict went out in this cycle: not a plain row miss */
		snprintf(mine, sizeof mine, "row conflict being resolved (PRE at cycle %llu closed the open row; ACT row %u next)",
			 (unsigned long long)bi->last_cmd_cycle, row);
	if (pos < 0) {
		why_add(c, UINT64_MAX, "DRAM ch%u bank %u: %s, %d queued for the bank, %s, last command %s at cycle %llu", ch, bk,
		    dram_bank_state_name(bi->state), bi->queue, mine, bi->last_cmd[0] ? bi->last_cmd : "-",
		    (unsigned long long)bi->last_cmd_cycle);
		return;
	}
	ordinal(pos + 1, nth, sizeof nth);
	if (pos == 0) {
		why_add(c, s->st->now - q[0].age, "DRAM ch%u bank %u: %s in queue (of %d), %s%s", ch, bk, nth, n, mine,
		    q[0].started ? ", its column command has begun" : "");
	} else {
		why_row_words(bi->open_row, (uint32_t)q[0].row, head, sizeof head);
		why_add(c, s->st->now - q[pos].age, "DRAM ch%u bank %u: %s in queue (of %d) behind a %s; this one: %s", ch, bk,
		    nth, n, head, mine);
	}
	struct dram_pick_info pk;
	if (inspect_dram_pick(s, (int)ch, (int)bk, &pk) && pk.cmd[0]) {
		char when[32], which[16] = "-";
		if (pk.next_in > 0)
			snprintf(when, sizeof when, "in %d cycle%s", pk.next_in, WHY_S(pk.next_in));
		else
			snprintf(when, sizeof when, "now");
		if (pk.pick >= 0)
			ordinal(pk.pick + 1, which, sizeof which);
		why_add(c, UINT64_MAX, "DRAM ch%u bank %u next: %s %s for the %s in queue (%s); last command %s at cycle %llu", ch,
		    bk, pk.cmd, when, which, pk.why, bi->last_cmd[0] ? bi->last_cmd : "-",
		    (unsigned long long)bi->last_cmd_cycle);
	}
}

/* What the request at the head of bank b's input queue waits for there
 * (l2.when_busy / l1.bypass_at_l2 = queue, l2_wait.c), or NULL. */
const char *why_head_wait_words(const struct sim *s, const struct l2bank *b, char *buf, size_t len)
{
	switch (l2_head_wait_reason(s, b, b->inq.head)) {
	case NACK_MSHR_FULL: snprintf(buf, len, "an MSHR entry (%u of %u used)", b->m.used, (unsigned)s->cfg.l2.mshr_entries); break;
	case NACK_MERGE_FULL: snprintf(buf, len, "a merge slot in its line's MSHR entry"); break;
	case NACK_TRANSIENT: snprintf(buf, len, "its line's replacement to finish"); break;
	case NACK_SET_ALL_TRANSIENT: snprintf(buf, len, "a way of its set (every way in transition)"); break;
	case NACK_QUEUE_FULL: snprintf(buf, len, "room in the memory queue (%u queued)", b->memq.n); break;
	case NACK_POOL_FULL: snprintf(buf, len, "room in the request pool"); break;
	default: return NULL;
	}
	return buf;
}

/* Link 3 in the bank's input queue: the position, and what the head waits for. */
static void inq_link(const struct sim *s, unsigned bank, int pos, struct chain *c)
{
	const struct l2bank *b = &s->banks[bank];
	char w[96];
	if (!why_head_wait_words(s, b, w, sizeof w))
		why_add(c, UINT64_MAX, "L2 bank %u input queue: position %d of %u", bank, pos + 1, b->inq.n);
	else if (pos == 0)
		why_add(c, UINT64_MAX, "L2 bank %u input queue: at the head (of %u), waits there for %s instead of a NACK", bank,
		    b->inq.n, w);
	else
		why_add(c, UINT64_MAX, "L2 bank %u input queue: position %d of %u, behind the head, which waits for %s", bank,
		    pos + 1, b->inq.n, w);
}

/* Link 4: where the bank's fetch of `line` is on its way to memory: the memory
 * queue, the fixed DRAM latency stage, or the DRAM bank (row state). */
static void chain_memory(const struct sim *s, unsigned bank, const struct l2bank *b, uint64_t line, struct chain *c)
{
	int pos;
	if (why_queue_find_line(s, &b->memq, line, &pos) != REQ_NIL) {
		why_add(c, UINT64_MAX, "L2 bank %u memory queue: position %d of %u, the DRAM channel queue is full", bank, pos + 1,
		    b->memq.n);
		return;
	}
	uint32_t di = why_queue_find_line(s, &b->dlatq, line, &pos);
	if (di != REQ_NIL) { /* l2.dram_latency's stage (l2.c) */
		uint64_t due = s->pool.r[di].t_ready;
		if (due > s->st->now)
			why_add(c, due - (uint64_t)s->cfg.l2.dram_latency,
			    "L2 bank %u fixed DRAM latency stage (l2.dram_latency = %d): position %d of %u, enters the DRAM's "
			    "queue at cycle %llu at the earliest",
			    bank, s->cfg.l2.dram_latency, pos + 1, b->dlatq.n, (unsigned long long)due);
		else
			why_add(c, due, "L2 bank %u fixed DRAM latency stage: position %d of %u, latency waited out, the DRAM "
				    "channel queue is full", bank, pos + 1, b->dlatq.n);
		return;
	}
	if (!s->dram) {
		why_add(c, UINT64_MAX, "fixed-latency memory: the fetch is in flight");
		return;
	}
	unsigned ch, bk;
	uint32_t row, col;
	dram_decode(s->dram, line, &ch, &bk, &row, &col);
	struct dram_bank_info bi;
	if (!dram_bank_info(s->dram, (int)ch, (int)bk, &bi))
		return;
	dram_link(s, line, ch, bk, row, &bi, c);
}

/* Links 3-4: what the L2 bank and memory are doing for `line`, as seen by
 * SM smi's request (-1: any SM's). Another SM's request for the line waiting
 * in the bank's input queue is not this request's place: the chain goes on
 * to the bank's MSHR entry, which is what this request waits for. */
void why_chain_l2(const struct sim *s, uint64_t line, int smi, bool expect, struct chain *c)
{
	unsigned bank = icnt_bank_of(s, line);
	const struct l2bank *b = &s->banks[bank];
	int pos;
	why_deft(c, WT_L2_BANK, -1, (int)bank, -1, 0);
	bool fetching = mshr_find(&b->m, line, 0) != REQ_NIL;
	if ((smi >= 0 || !fetching) && queue_find_line_of(s, &b->inq, line, smi, &pos) != REQ_NIL) {
		inq_link(s, bank, pos, c);
		return;
	}
	struct coh_dir_info d;
	bool locked = inspect_coh_dir(s, line, &d) && d.present && d.locked;
	if (locked)
		why_add(c, UINT64_MAX, "L2 bank %u directory: line 0x%llx locked (%s, requester sm%u, %u acks due): requests are NACKed",
		    bank, (unsigned long long)line, d.lock, d.req_sm, d.acks);
	if (locked)
		why_tgt(c, WT_DIR_LINE, -1, (int)bank, -1, line);
	for (int i = 0; i < b->frc.n; i++) {
		struct frc_entry_info fe;
		if (inspect_frc_entry(s, (int)bank, i, &fe) && fe.state != FRC_FREE && fe.incoming == line) {
			why_add(c, s->st->now - fe.age, "L2 bank %u FRC entry %d: %s line 0x%llx, %d waiting", bank, i,
			    frc_state_name((unsigned)fe.state), (unsigned long long)line, fe.waiters);
			why_tgt(c, WT_FRC, -1, (int)bank, i, 0);
			if (fe.state != FRC_FETCHING)
				return;
			break;
		}
	}
	uint32_t e = mshr_find(&b->m, line, 0);
	if (e != REQ_NIL) {
		const struct mshr_ent *m = &b->m.e[e];
		if (m->state == ME_EVICTING)
			why_add(c, m->t_alloc, "L2 bank %u miss, MSHR entry %u: evicting victim 0x%llx before the fetch (%u merged)", bank,
			    e, (unsigned long long)m->victim, m->merged);
		else
			why_add(c, m->t_alloc, "L2 bank %u miss, MSHR entry %u (%u of %u used, %u merged)", bank, e, b->m.used, (unsigned)s->cfg.l2.mshr_entries,
			    m->merged);
		why_tgt(c, WT_L2_MSHR, -1, (int)bank, (int)e, 0);
	} else {
		int set = l2_bank_set(s, b, line);
		if (locked)
			return; /* the lock is what the request waits for */
		if (cache_find(&b->c, set, line) >= 0)
			why_add(c, UINT64_MAX, "L2 bank %u holds line 0x%llx: the reply is on its way back", bank,
			    (unsigned long long)line);
		else if (expect)
			why_add(c, UINT64_MAX, "L2 bank %u: line 0x%llx not present and no MSHR entry (request or reply in the crossbar)",
			    bank, (unsigned long long)line);
		else
			why_add(c, UINT64_MAX, "L2 bank %u: line 0x%llx not present, nothing in flight for it", bank,
			    (unsigned long long)line);
		return;
	}
	chain_memory(s, bank, b, line, c);
}

/* A request (the warp's, or an MSHR entry's fetch) the L2 refused, waiting
 * in the L1's retry queue; then what the refusing bank is full of. */
void why_nack_link(const struct sim *s, const struct l1 *l, uint32_t ri, int pos, struct chain *c)
{
	static const char *const why[] = {
		[NACK_MSHR_FULL] = "MSHR full",		  [NACK_TRANSIENT] = "transient line",
		[NACK_SET_ALL_TRANSIENT] = "set all transient", [NACK_QUEUE_FULL] = "queue full",
		[NACK_DIR_LOCKED] = "directory locked",	  [NACK_MERGE_FULL] = "merge slots full",
		[NACK_POOL_FULL] = "request pool full",
	};
	_Static_assert(sizeof why / sizeof *why == NACK__COUNT, "a NACK reason without words");
	const struct req *r = &s->pool.r[ri];
	unsigned bank = icnt_bank_of(s, r->addr);
	why_deft(c, WT_L2_BANK, -1, (int)bank, -1, 0);
	why_add(c, UINT64_MAX, "NACKed by L2 bank %u (%s): re-sent at cycle %llu, position %d of %u in the retry queue", bank,
	    r->nack_reason < NACK__COUNT ? why[r->nack_reason] : "?", (unsigned long long)r->t_ready, pos + 1, l->retryq.n);
	const struct l2bank *b = &s->banks[bank];
	if (r->nack_reason == NACK_DIR_LOCKED) {
		why_chain_l2(s, r->addr, r->sm, true, c);
		return;
	}
	why_add(c, UINT64_MAX, "L2 bank %u: MSHR %u of %u used, input queue %u", bank, b->m.used, (unsigned)s->cfg.l2.mshr_entries, b->inq.n);
}

/* Link 2 onwards for one request of a warp instruction. */
/* Request ri waits in the L1 wait queue (at pos) though its line has an
 * MSHR entry: the entry had no merge slot left (l1.mshr.merges), so the
 * request waits for that entry's fill. False when the line has no entry
 * (the file was full instead). */
static bool waitq_merge_link(const struct sim *s, const struct sm *sm, uint32_t ri, int pos, const char *pre,
			     struct chain *c)
{
	const struct l1 *l = &sm->l1;
	const struct req *r = &s->pool.r[ri];
	uint32_t e = mshr_find(&l->m, r->addr, 0);
	if (e == REQ_NIL)
		return false;
	why_add(c, UINT64_MAX,
		"%sL1 wait queue, position %d of %u: request 0x%llx, refused a merge slot in MSHR entry %u (%u merged "
		"of %u), waits for that entry's fill",
		pre, pos + 1, l->waitq.n, (unsigned long long)r->addr, e, l->m.e[e].merged, (unsigned)s->cfg.l1.mshr_merges);
	why_tgt(c, WT_L1_MSHR, sm->id, -1, (int)e, 0);
	return true;
}

static void chain_req(const struct sim *s, const struct sm *sm, uint32_t ri, struct chain *c)
{
	const struct req *r = &s->pool.r[ri];
	const struct l1 *l = &sm->l1;
	int pos;
	why_deft(c, WT_L1_MSHR, sm->id, -1, -1, 0);
	if (in_queue(s, &l->lsu, ri, &pos)) {
		why_add(c, UINT64_MAX, "request 0x%llx in the L1 access pipeline (position %d of %u), ready at cycle %llu",
		    (unsigned long long)r->addr, pos + 1, l->lsu.n, (unsigned long long)r->t_ready);
		return;
	}
	if (in_queue(s, &l->hitq, ri, &pos)) {
		why_add(c, UINT64_MAX, "L1 hit on line 0x%llx: data at cycle %llu (hit latency)", (unsigned long long)r->addr,
		    (unsigned long long)r->t_ready);
		return;
	}
	if (in_queue(s, &l->waitq, ri, &pos)) {
		if (waitq_merge_link(s, sm, ri, pos, "", c))
			return;
		why_add(c, UINT64_MAX, "L1 MSHR file full (%u of %u entries): request 0x%llx waits, position %d of %u", l->m.used,
		    (unsigned)s->cfg.l1.mshr_entries, (unsigned long long)r->addr, pos + 1, l->waitq.n);
		uint32_t old = REQ_NIL;
		for (uint32_t i = 0; i < l->m.n; i++)
			if (l->m.e[i].state != ME_FREE && (old == REQ_NIL || l->m.e[i].t_alloc < l->m.e[old].t_alloc))
				old = i;
		if (old != REQ_NIL) {
			why_add(c, l->m.e[old].t_alloc, "oldest L1 MSHR entry %u (line 0x%llx)", old,
			    (unsigned long long)l->m.e[old].addr);
			why_tgt(c, WT_L1_MSHR, sm->id, -1, (int)old, 0);
			why_chain_l2(s, l->m.e[old].addr, sm->id, true, c);
		}
		return;
	}
	if (in_queue(s, &l->retryq, ri, &pos)) {
		why_nack_link(s, l, ri, pos, c);
		return;
	}
	uint32_t e = mshr_find(&l->m, r->addr, 0);
	if (e != REQ_NIL) {
		const struct mshr_ent *m = &l->m.e[e];
		why_add(c, m->t_alloc, "L1 MSHR entry %u (line 0x%llx, %u merged, %s)", e, (unsigned long long)m->addr, m->merged,
		    m->sent ? "fetch sent" : "fetch waiting for the crossbar");
		why_tgt(c, WT_L1_MSHR, sm->id, -1, (int)e, 0);
		uint32_t fi = why_queue_find_line(s, &l->retryq, m->addr, &pos);
		if (fi != REQ_NIL)
			why_nack_link(s, l, fi, pos, c);
		else
			why_chain_l2(s, m->addr, sm->id, true, c);
		return;
	}
	why_add(c, UINT64_MAX, "request 0x%llx between levels (crossbar or store path)", (unsigned long long)r->addr);
	why_tgt(c, WT_LINE, -1, (int)icnt_bank_of(s, r->addr), -1, r->addr);
	if (r->type == RQ_ST || r->type == RQ_ATOM || (r->flags & REQF_BYP_L1))
		why_chain_l2(s, r->addr, r->sm, true, c);
}

/* Is pool slot i a request of the memory instruction in buffer slot v that
 * has no answer yet? */
static bool vmb_req_pending(const struct sim *s, const struct sm *sm, int v, const struct vmb_ent *e, uint32_t i)
{
	const struct req *r = &s->pool.r[i];
	return r->in_use && r->sm == sm->id && r->vmb == v && r->warp == e->warp &&
	       (r->type == RQ_LD || r->type == RQ_ST || r->type == RQ_ATOM) && (r->reply == RP_NONE || r->reply == RP_NACK);
}

/* The memory instruction in vector-memory-buffer slot v, and its first
 * request still in flight. */
void why_chain_vmb(const struct sim *s, const struct sm *sm, int v, const char *pre, struct chain *c)
{
	const struct vmb_ent *e = &sm->vmb[v];
	static const char *const ops[] = {[KOP_LD] = "load", [KOP_ST] = "store", [KOP_ATOM] = "atomic"};
	char dst[16] = "";
	if (e->has_dst)
		snprintf(dst, sizeof dst, " into r%u", e->dst);
	why_deft(c, WT_WARP, sm->id, -1, e->warp, 0);
	why_add(c, e->t_issue, "%s%s%s by warp %u issued at cycle %llu (memory buffer entry %d): %u request%s outstanding",
	    pre, e->op <= KOP_ATOM ? ops[e->op] : "memory op", dst, e->warp, (unsigned long long)e->t_issue, v, e->pending,
	    WHY_S(e->pending));
	/* The first request (in pool order) not waiting in the L1 wait queue,
	 * else the first that is: which slot a request got depends on the
	 * pool's free lists, so the choice must not. */
	uint32_t first = REQ_NIL, waiting = REQ_NIL;
	for (uint32_t i = 0; i < s->pool.cap; i++) {
		int pos;
		if (!vmb_req_pending(s, sm, v, e, i))
			continue;
		if (!in_queue(s, &sm->l1.waitq, i, &pos)) {
			first = i;
			break;
		}
		if (waiting == REQ_NIL)
			waiting = i;
	}
	if (first == REQ_NIL)
		first = waiting;
	if (first != REQ_NIL) {
		chain_req(s, sm, first, c);
		/* Another of its requests refused a merge slot waits in the L1
		 * wait queue (lessons/mshrs): one link for it. */
		for (uint32_t j = 0; j < s->pool.cap; j++) {
			int pos;
			if (j != first && vmb_req_pending(s, sm, v, e, j) && in_queue(s, &sm->l1.waitq, j, &pos) &&
			    waitq_merge_link(s, sm, j, pos, "another of its requests: ", c))
				break;
		}
		return;
	}
	why_add(c, UINT64_MAX, "all its requests have been answered; the reply is on its way to the register file");
}
