/*
 * dram_queue.c: read-only view of a DRAM bank's queue (dram_queue.h). Only
 * reads the controller's state; the pick is dram_bank_next(), the command
 * the channel's scheduler would give the bank (issue 22: "which one FR-FCFS
 * picks next and why").
 */
#include "dram_queue.h"

#include <stdio.h>
#include <string.h>

#include "dram_int.h"
#include "sim/sim_int.h"

static const struct dram_bank *bank_of(const struct sim *s, int ch, int bank, const struct dram_chan **c)
{
	const struct dram *d = s ? s->dram : NULL;
	if (!d || ch < 0 || (uint32_t)ch >= d->nch || bank < 0 || (uint32_t)bank >= d->nbanks)
		return NULL;
	*c = &d->ch[ch];
	return &(*c)->bank[bank];
}

/* The bank's requests in listing order: the started one, then each queue from its head (oldest). */
static int list(const struct dram_chan *c, const struct dram_bank *b, int32_t *slots, int max)
{
	int n = 0;
	if (b->started >= 0) {
		if (n < max)
			slots[n] = b->started;
		n++;
	}
	for (int q = Q_RD; q <= Q_WR; q++)
		for (int32_t r = b->head[q]; r >= 0; r = c->req[r].next) {
			if (n < max)
				slots[n] = r;
			n++;
		}
	return n;
}

int inspect_dram_queue(const struct sim *s, int ch, int bank, struct dram_qreq_info *out, int max)
{
	const struct dram_chan *c;
	const struct dram_bank *b = bank_of(s, ch, bank, &c);
	if (!b)
		return -1;
	int32_t slots[256];
	int n = list(c, b, slots, max < 256 ? max : 256);
	for (int i = 0; i < n && i < max && i < 256; i++) {
		const struct dram_req *r = &c->req[slots[i]];
		out[i] = (struct dram_qreq_info){
			.addr = r->addr,
			.row = r->row,
			.age = s->st->now - r->enq,
			.write = r->is_write,
			.started = slots[i] == b->started,
			.row_hit = b->open_row == (int64_t)r->row,
		};
	}
	return n;
}

static const char *cmd_text(enum dram_cmd c)
{
	static const char *const names[] = {[DC_NONE] = "", [DC_ACT] = "ACT", [DC_PRE] = "PRE",
					    [DC_RD] = "RD",  [DC_WR] = "WR",   [DC_REF] = "REF"};
	return c <= DC_REF ? names[c] : "?";
}

bool inspect_dram_pick(const struct sim *s, int ch, int bank, struct dram_pick_info *o)
{
	const struct dram_chan *c;
	const struct dram_bank *b = bank_of(s, ch, bank, &c);
	if (!b)
		return false;
	const struct dram *d = s->dram;
	memset(o, 0, sizeof *o);
	int32_t slots[256];
	o->nreq = list(c, b, slots, 256);
	o->pick = -1;
	o->open_row = b->open_row;
	o->hits_run = b->hits_run;
	o->row_hit_cap = d->c.row_hit_cap;
	o->draining = c->draining;
	o->frfcfs = d->c.scheduler == DRAM_SCHED_FRFCFS;
	dcyc e = 0;
	int32_t ri = -1;
	enum dram_cmd cmd = dram_bank_next(d, c, (uint32_t)bank, &e, &ri);
	snprintf(o->cmd, sizeof o->cmd, "%s", cmd_text(cmd));
	o->next_in = -1;
	if (cmd != DC_NONE) {
		uint64_t at = dram_core_of(d, e), now = s->st->now;
		o->next_in = at > now ? (int)(at - now < (uint64_t)INT32_MAX ? at - now : INT32_MAX) : 0;
	}
	for (int i = 0; i < o->nreq && i < 256; i++)
		if (slots[i] == ri)
			o->pick = i;
	int q = c->draining ? Q_WR : Q_RD;
	const char *drain = c->draining ? "write drain: " : "";
	if (cmd == DC_NONE) {
		if (b->nq[Q_WR] && !b->nq[Q_RD] && !c->draining)
			snprintf(o->why, sizeof o->why, "writes wait for the write drain (dram.write_high)");
		else
			snprintf(o->why, sizeof o->why, o->nreq ? "reads wait while the channel drains writes" : "nothing queued");
		return true;
	}
	if (ri < 0) {
		if (b->open_row >= 0 && !b->nq[Q_RD] && !b->nq[Q_WR] && b->started < 0 && d->c.page_policy == DRAM_PAGE_TIMEOUT)
			snprintf(o->why, sizeof o->why, "page timeout: nothing waits, close row %lld", (long long)b->open_row);
		else
			snprintf(o->why, sizeof o->why, "refresh due: close the bank for REF");
		return true;
	}
	const struct dram_req *r = &c->req[ri];
	if (ri == b->started) {
		snprintf(o->why, sizeof o->why, "in progress: the started request's next column command");
		return true;
	}
	bool hit = b->open_row == (int64_t)r->row;
	int older = 0; /* requests in its queue ahead of it (all older) */
	for (int32_t k = b->head[q]; k >= 0 && k != ri; k = c->req[k].next)
		older++;
	bool any_hit = false;
	for (int32_t k = b->head[q]; k >= 0; k = c->req[k].next)
		any_hit |= b->open_row >= 0 && b->open_row == (int64_t)c->req[k].row;
	if (!o->frfcfs) {
		snprintf(o->why, sizeof o->why, "%soldest (dram.scheduler = fcfs)%s", drain,
			 hit ? ", a row hit" : b->open_row >= 0 ? ": row conflict, precharge first" : ": bank closed, activate");
	} else if (hit && older == 0) {
		snprintf(o->why, sizeof o->why, "%srow hit on open row %lld, and the oldest", drain, (long long)b->open_row);
	} else if (hit) {
		snprintf(o->why, sizeof o->why, "%srow hit on open row %lld: first-ready, ahead of %d older request%s", drain,
			 (long long)b->open_row, older, older == 1 ? "" : "s");
	} else if (any_hit && d->c.row_hit_cap && b->hits_run >= (uint32_t)d->c.row_hit_cap) {
		snprintf(o->why, sizeof o->why,
			 "%srow-hit cap: %u requests served on row %lld since its ACT (dram.row_hit_cap %d), so the oldest goes first",
			 drain, b->hits_run, (long long)b->open_row, d->c.row_hit_cap);
	} else if (b->open_row >= 0) {
		snprintf(o->why, sizeof o->why, "%soldest; nothing waiting hits open row %lld: precharge it (row conflict)",
			 drain, (long long)b->open_row);
	} else {
		snprintf(o->why, sizeof o->why, "%soldest; the bank is closed: activate row %u", drain, r->row);
	}
	return true;
}
