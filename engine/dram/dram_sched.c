/*
 * dram_sched.c: one DRAM channel controller: which command issues in which
 * DRAM cycle. Event-driven: a step at cycle t finds, for every bank that
 * wants something, its next command and the earliest cycle every timing rule
 * allows it; the best command legal at t issues; the channel's next step is
 * the earliest legal cycle of what remains. Nothing happens in between, so
 * skipping is exact.
 *
 * Cost (issue 41). What a bank wants by its own state (command, request,
 * earliest cycle by the bank's rules) is cached in the bank until something
 * it reads changes (want_stale: a command to the bank, a request linked,
 * the read/write mode, a refresh falling due), so a scan pays per candidate
 * bank only the channel's rules, and not even those for a bank that cannot
 * be legal at t nor sooner than the best next cycle found so far. With
 * dual_cmd the second scan of a cycle runs only if a command of the other
 * kind was legal before the first issued (second_scan_may_issue).
 * dram_set_exhaustive turns all three off: the reference the tests hold
 * them to.
 *
 * Phases of dram_chan_step(t):
 *   1. refresh due at t?  -> refresh pending (target banks stop starting requests)
 *   2. read/write mode (write drain between write_high and write_low)
 *   3. per bank: scheduler picks a request -> ACT / PRE / RD / WR, earliest cycle
 *   4. issue the best command legal at t (refresh > started line > policy key)
 *   5. recompute the channel's next step
 *
 * Timing rules (DRAM cycles), where they are checked:
 *   bank    ACT: tRC after ACT, tRP after PRE, tRFC after REF   PRE: tRAS, tRTP, tWR
 *           RD/WR: tRCD after ACT
 *   rank    ACT: tRRD (tRRD_L in the bank group), tFAW (four ACTs), t32AW (32 ACTs)
 *           RD: tWTR (tWTR_L)   PRE: tPPD after any PRE of the rank
 *   bank    WR: tRCDWR after ACT (tRCD when 0)
 *   channel one command per cycle (dual_cmd: one row command, ACT/PRE/REF, and one
 *           column command, RD/WR); RD/WR: tCCD (tCCD_L); WR: tRTW after RD;
 *           data bus: burst tBL, tRTRS when the rank changes
 */
#include <string.h>

#include "dram_int.h"

/* ---- scheduling policies ------------------------------------------------ */

static int32_t fcfs_pick(const struct dram *d, const struct dram_chan *c, const struct dram_bank *b, int q)
{
	(void)d;
	(void)c;
	return b->head[q];
}

static uint64_t fcfs_key(const struct dram_req *r, enum dram_cmd cmd)
{
	(void)cmd;
	return r->seq;
}

static int32_t frfcfs_pick(const struct dram *d, const struct dram_chan *c, const struct dram_bank *b, int q)
{
	int32_t h = b->head[q];
	if (b->open_row < 0)
		return h;
	if (d->c.row_hit_cap && b->hits_run >= (uint32_t)d->c.row_hit_cap && c->req[h].row != b->open_row)
		return h;
	for (int32_t r = h; r >= 0; r = c->req[r].next)
		if (c->req[r].row == b->open_row)
			return r;
	return h;
}

static uint64_t frfcfs_key(const struct dram_req *r, enum dram_cmd cmd)
{
	bool col = cmd == DC_RD || cmd == DC_WR;
	return (col ? 0 : (uint64_t)1 << 60) | r->seq;
}

const struct dram_sched_ops dram_sched_fcfs = {.name = "fcfs", .pick = fcfs_pick, .key = fcfs_key};
const struct dram_sched_ops dram_sched_frfcfs = {.name = "frfcfs", .pick = frfcfs_pick, .key = frfcfs_key};

const struct dram_sched_ops *dram_sched_of(const struct dram *d)
{
	return d->sched_kind == DRAM_SCHED_FCFS ? &dram_sched_fcfs : &dram_sched_frfcfs;
}

/* ---- helpers --------------------------------------------------------------- */

static inline dcyc dmax(dcyc a, dcyc b) { return a > b ? a : b; }

static void cmd_name(struct dram_bank *b, const char *s, dcyc t)
{
	strncpy(b->last_cmd, s, sizeof b->last_cmd - 1);
	b->last_cmd_at = t;
}

void dram_cand_add(struct dram_chan *c, uint32_t b)
{
	if (c->bank[b].cand_pos >= 0)
		return;
	c->bank[b].cand_pos = (int32_t)c->ncand;
	c->cand[c->ncand++] = (int32_t)b;
}

static void cand_remove(struct dram_chan *c, uint32_t b)
{
	int32_t pos = c->bank[b].cand_pos;
	int32_t last = c->cand[--c->ncand];
	c->cand[pos] = last;
	c->bank[last].cand_pos = pos;
	c->bank[b].cand_pos = -1;
}

static bool ref_targets(const struct dram *d, const struct dram_chan *c, uint32_t b)
{
	return c->ref_pending && (d->c.refresh == DRAM_REFRESH_ALL_BANK || c->ref_idx % c->nbanks == b);
}

dcyc dram_ref_due(const struct dram *d, uint64_t idx)
{
	if (d->c.refresh == DRAM_REFRESH_PER_BANK)
		return (idx + 1) * d->t.REFI / d->nbanks;
	return (idx + 1) * d->t.REFI;
}

void dram_blp_account(struct dram *d, struct dram_chan *c, dcyc t)
{
	if (t <= c->blp_last)
		return;
	dcyc dt = t - c->blp_last;
	if (c->busy_banks) {
		stat_add(d->st, c->st_busy, c->busy_banks * dt);
		stat_add(d->st, d->st_busy, c->busy_banks * dt);
		stat_add(d->st, c->st_any, dt);
		stat_add(d->st, d->st_any, dt);
	}
	c->blp_last = t;
}

/* ---- phase 3: what a bank wants next --------------------------------------- */

static inline dcyc chan_rules(const struct dram *d, const struct dram_chan *c, const struct dram_bank *b, enum dram_cmd cmd)
{
	const struct dram_rank *r = &c->rank[b->rank];
	const struct dram_bg *g = &c->bg[b->bg];
	dcyc e, bus;
	switch (cmd) {
	case DC_ACT:
		e = dmax(c->t_cmd, dmax(r->t_act, g->t_act));
		if (d->t.FAW && r->nact >= 4)
			e = dmax(e, r->faw[r->faw_i] + d->t.FAW);
		if (d->t.AW32 && r->nact >= 32)
			e = dmax(e, r->aw32[r->aw32_i] + d->t.AW32);
		return e;
	case DC_PRE:
		return dmax(c->t_cmd, r->t_pre);
	case DC_RD:
	case DC_WR:
		e = dmax(d->c.dual_cmd ? c->t_col : c->t_cmd, dmax(c->t_ccd, g->t_ccd));
		bus = c->bus_free + (c->bus_rank >= 0 && c->bus_rank != b->rank ? d->t.RTRS : 0);
		if (cmd == DC_RD) {
			e = dmax(e, dmax(r->t_rd, g->t_rd));
			if (bus > d->t.CL)
				e = dmax(e, bus - d->t.CL);
		} else {
			e = dmax(e, c->t_wr_rtw);
			if (bus > d->t.CWL)
				e = dmax(e, bus - d->t.CWL);
		}
		return e;
	default:
		return c->t_cmd;
	}
}

static int32_t oldest_hit(const struct dram_chan *c, const struct dram_bank *b, int q)
{
	for (int32_t r = b->head[q]; r >= 0; r = c->req[r].next)
		if (c->req[r].row == b->open_row)
			return r;
	return -1;
}

/* What bank bi wants by its own state: the command, the request (-1: none),
 * and in *be the earliest cycle the bank's own rules allow. *cacheable is
 * false when the answer also read the channel's rules (FR-FCFS past its
 * row-hit cap compares a ready hit with the precharge): then it holds for
 * this cycle only. */
static enum dram_cmd bank_want(const struct dram *d, const struct dram_chan *c, uint32_t bi, dcyc *be_out, int32_t *req,
			       bool *cacheable)
{
	const struct dram_bank *b = &c->bank[bi];
	enum dram_cmd cmd = DC_NONE;
	dcyc be = 0;
	*req = -1;
	*cacheable = true;
	if (b->started >= 0) {
		const struct dram_req *r = &c->req[b->started];
		*req = b->started;
		cmd = r->is_write ? DC_WR : DC_RD;
		be = r->is_write ? b->t_wr : b->t_rd;
	} else if (ref_targets(d, c, bi)) {
		if (b->open_row >= 0) {
			cmd = DC_PRE;
			be = b->t_pre;
		}
	} else {
		int q = d->c.queue_model != DRAM_QUEUE_CHANNEL ? 0 : c->draining ? Q_WR : Q_RD;
		if (b->nq[q]) {
			int32_t ri = dram_sched_of(d)->pick(d, c, b, q);
			const struct dram_req *r = &c->req[ri];
			*req = ri;
			if (b->open_row == (int64_t)r->row) {
				cmd = r->is_write ? DC_WR : DC_RD;
				be = r->is_write ? b->t_wr : b->t_rd;
			} else if (b->open_row < 0) {
				cmd = DC_ACT;
				be = b->t_act;
			} else {
				cmd = DC_PRE;
				be = b->t_pre;
				/* FR-FCFS past its row-hit cap (DRAMSim3's semantics): the cap
				 * permits the precharge, it does not idle the bank; hits ready
				 * before the PRE is legal keep issuing. Below the cap
				 * frfcfs_pick has walked the queue and found no hit: no second
				 * walk. */
				bool capped = d->c.row_hit_cap && b->hits_run >= (uint32_t)d->c.row_hit_cap;
				int32_t hi = d->sched_kind == DRAM_SCHED_FRFCFS && capped ? oldest_hit(c, b, q) : -1;
				if (hi >= 0) {
					const struct dram_req *h = &c->req[hi];
					enum dram_cmd hc = h->is_write ? DC_WR : DC_RD;
					dcyc eh = dmax(h->is_write ? b->t_wr : b->t_rd, chan_rules(d, c, b, hc));
					*cacheable = false;
					if (eh < dmax(be, chan_rules(d, c, b, DC_PRE))) {
						*req = hi;
						cmd = hc;
						be = eh;
					}
				}
			}
		} else if (d->c.page_policy == DRAM_PAGE_TIMEOUT && b->open_row >= 0 && !b->nq[Q_RD] && !b->nq[Q_WR]) {
			cmd = DC_PRE;
			be = dmax(b->t_pre, b->last_col + (dcyc)d->c.page_timeout);
		}
	}
	*be_out = be;
	return cmd;
}

enum dram_cmd dram_bank_next(const struct dram *d, const struct dram_chan *c, uint32_t bi, dcyc *e, int32_t *req)
{
	dcyc be;
	bool cacheable;
	enum dram_cmd cmd = bank_want(d, c, bi, &be, req, &cacheable);
	if (cmd != DC_NONE)
		*e = dmax(be, chan_rules(d, c, &c->bank[bi], cmd));
	return cmd;
}

/* bank_want through the bank's cache (struct dram_bank want_*). */
static enum dram_cmd bank_want_cached(const struct dram *d, struct dram_chan *c, uint32_t bi, dcyc *be, int32_t *req)
{
	struct dram_bank *b = &c->bank[bi];
	if (b->want_ok) { /* never set while exhaustive */
		*be = b->want_e;
		*req = b->want_req;
		return (enum dram_cmd)b->want_cmd;
	}
	bool cacheable;
	enum dram_cmd cmd = bank_want(d, c, bi, be, req, &cacheable);
	if (cacheable && !d->exhaustive) {
		b->want_ok = 1;
		b->want_cmd = (uint8_t)cmd;
		b->want_req = *req;
		b->want_e = *be;
	}
	return cmd;
}

static inline void want_stale(struct dram_bank *b) { b->want_ok = 0; }

static void want_stale_all(struct dram_chan *c)
{
	for (uint32_t b = 0; b < c->nbanks; b++)
		c->bank[b].want_ok = 0;
}

void dram_set_exhaustive(struct dram *d, bool on)
{
	d->exhaustive = on;
	for (uint32_t ch = 0; ch < d->nch; ch++)
		want_stale_all(&d->ch[ch]);
}

int dram_want_check(const struct dram *d)
{
	for (uint32_t ch = 0; ch < d->nch; ch++) {
		const struct dram_chan *c = &d->ch[ch];
		for (uint32_t bi = 0; bi < c->nbanks; bi++) {
			const struct dram_bank *b = &c->bank[bi];
			if (!b->want_ok)
				continue;
			dcyc be;
			int32_t ri;
			bool cacheable;
			enum dram_cmd cmd = bank_want(d, c, bi, &be, &ri, &cacheable);
			if (!cacheable || cmd != b->want_cmd || ri != b->want_req || (cmd != DC_NONE && be != b->want_e))
				return (int)(ch * c->nbanks + bi);
		}
	}
	return -1;
}

/* REF is legal once every target bank is closed and its precharge is over. */
static bool ref_ready(const struct dram *d, const struct dram_chan *c, dcyc *e)
{
	dcyc t = c->t_cmd;
	uint32_t lo = 0, hi = c->nbanks;
	if (d->c.refresh == DRAM_REFRESH_PER_BANK) {
		lo = (uint32_t)(c->ref_idx % c->nbanks);
		hi = lo + 1;
	}
	for (uint32_t b = lo; b < hi; b++) {
		if (c->bank[b].open_row >= 0 || c->bank[b].started >= 0)
			return false;
		t = dmax(t, c->bank[b].t_act);
	}
	*e = t;
	return true;
}

/* ---- phase 4: issuing ------------------------------------------------------ */

void dram_bank_link(struct dram *d, struct dram_chan *c, uint32_t bi, int32_t s, int q)
{
	(void)d;
	struct dram_bank *b = &c->bank[bi];
	struct dram_req *r = &c->req[s];
	if (!b->nq[Q_RD] && !b->nq[Q_WR] && b->started < 0)
		c->busy_banks++;
	want_stale(b);
	r->list = (uint8_t)q;
	r->prev = b->tail[q];
	r->next = -1;
	if (b->tail[q] >= 0)
		c->req[b->tail[q]].next = s;
	else
		b->head[q] = s;
	b->tail[q] = s;
	b->nq[q]++;
	c->cmdq_n++;
	c->rank[b->rank].cmdq++;
	dram_cand_add(c, bi);
}

static void unlink_req(struct dram_chan *c, struct dram_bank *b, int32_t ri)
{
	struct dram_req *r = &c->req[ri];
	int q = r->list;
	c->cmdq_n--;
	c->rank[b->rank].cmdq--;
	if (r->prev >= 0)
		c->req[r->prev].next = r->next;
	else
		b->head[q] = r->next;
	if (r->next >= 0)
		c->req[r->next].prev = r->prev;
	else
		b->tail[q] = r->prev;
	b->nq[q]--;
	r->prev = r->next = -1;
}

static void classify(struct dram *d, struct dram_chan *c, struct dram_bank *b, struct dram_req *r, int cls)
{
	if (r->cls)
		return;
	r->cls = (uint8_t)cls;
	int16_t ch = (int16_t)(c - d->ch), bk = r->bank;
	switch (cls) {
	case RC_HIT:
		stat_inc(d->st, d->st_hit);
		stat_inc(d->st, c->st_hit);
		stat_inc(d->st, b->st_hit);
		EV_EMIT(d->ev, EV_DRAM_ROW_HIT, .cycle = *d->now, .ch = ch, .bank = bk, .row = (int32_t)r->row, .addr = r->addr);
		break;
	case RC_MISS:
		stat_inc(d->st, d->st_miss);
		stat_inc(d->st, c->st_miss);
		stat_inc(d->st, b->st_miss);
		EV_EMIT(d->ev, EV_DRAM_ROW_MISS, .cycle = *d->now, .ch = ch, .bank = bk, .row = (int32_t)r->row, .addr = r->addr);
		break;
	default:
		stat_inc(d->st, d->st_conf);
		stat_inc(d->st, c->st_conf);
		stat_inc(d->st, b->st_conf);
		EV_EMIT(d->ev, EV_DRAM_ROW_CONFLICT, .cycle = *d->now, .ch = ch, .bank = bk, .row = (int32_t)r->row,
			.addr = r->addr, .a = b->open_row);
		break;
	}
}

static void do_pre(struct dram *d, struct dram_chan *c, uint32_t bi, dcyc t)
{
	struct dram_bank *b = &c->bank[bi];
	EV_EMIT(d->ev, EV_DRAM_PRE, .cycle = *d->now, .ch = (int16_t)(c - d->ch), .bank = (int16_t)bi,
		.row = (int32_t)b->open_row);
	want_stale(b);
	b->open_row = -1;
	b->pre_at = t;
	c->rank[b->rank].t_pre = dmax(c->rank[b->rank].t_pre, t + d->t.PPD);
	b->t_act = dmax(b->t_act, t + d->t.RP);
	stat_inc(d->st, d->st_pre);
	cmd_name(b, "PRE", t);
}

static void do_act(struct dram *d, struct dram_chan *c, uint32_t bi, struct dram_req *r, dcyc t)
{
	struct dram_bank *b = &c->bank[bi];
	struct dram_rank *rk = &c->rank[b->rank];
	struct dram_bg *g = &c->bg[b->bg];
	want_stale(b);
	b->open_row = b->shown_row = r->row;
	b->act_at = t;
	b->t_rd = t + d->t.RCD;
	b->t_wr = t + d->t.RCDWR;
	b->t_pre = dmax(b->t_pre, t + d->t.RAS);
	b->t_act = dmax(b->t_act, t + d->t.RC);
	b->hits_run = 0;
	rk->t_act = dmax(rk->t_act, t + d->t.RRD);
	g->t_act = dmax(g->t_act, t + d->t.RRD_L);
	rk->faw[rk->faw_i] = t;
	rk->faw_i = (rk->faw_i + 1) & 3;
	rk->aw32[rk->aw32_i] = t;
	rk->aw32_i = (rk->aw32_i + 1) & 31;
	rk->nact++;
	stat_inc(d->st, d->st_act);
	stat_inc(d->st, c->st_act);
	cmd_name(b, "ACT", t);
	EV_EMIT(d->ev, EV_DRAM_ACT, .cycle = *d->now, .ch = (int16_t)(c - d->ch), .bank = (int16_t)bi, .row = (int32_t)r->row);
}

static void do_col(struct dram *d, struct dram_chan *c, uint32_t bi, int32_t ri, dcyc t)
{
	struct dram_bank *b = &c->bank[bi];
	struct dram_req *r = &c->req[ri];
	struct dram_rank *rk = &c->rank[b->rank];
	struct dram_bg *g = &c->bg[b->bg];
	want_stale(b);
	if (b->started < 0) { /* first burst of the line: the request leaves the queue */
		unlink_req(c, b, ri);
		b->started = ri;
		b->hits_run++;
	}
	c->t_ccd = dmax(c->t_ccd, t + d->t.CCD);
	g->t_ccd = dmax(g->t_ccd, t + d->t.CCD_L);
	c->bus_rank = b->rank;
	dcyc end;
	if (r->is_write) {
		end = t + d->t.CWL + d->t.BL;
		b->t_pre = dmax(b->t_pre, end + d->t.WR);
		rk->t_rd = dmax(rk->t_rd, end + d->t.WTR);
		g->t_rd = dmax(g->t_rd, end + d->t.WTR_L);
		cmd_name(b, "WR", t);
		EV_EMIT(d->ev, EV_DRAM_WR, .cycle = *d->now, .ch = (int16_t)(c - d->ch), .bank = (int16_t)bi,
			.row = (int32_t)r->row, .addr = r->addr);
	} else {
		end = t + d->t.CL + d->t.BL;
		b->t_pre = dmax(b->t_pre, t + d->t.RTP);
		c->t_wr_rtw = dmax(c->t_wr_rtw, t + d->t.RTW);
		cmd_name(b, "RD", t);
		EV_EMIT(d->ev, EV_DRAM_RD, .cycle = *d->now, .ch = (int16_t)(c - d->ch), .bank = (int16_t)bi,
			.row = (int32_t)r->row, .addr = r->addr);
	}
	c->bus_free = end;
	b->last_col = t;
	stat_add(d->st, d->st_data, d->t.BL);
	stat_add(d->st, c->st_data, d->t.BL);
	if (--r->cols_left)
		return;
	/* last burst: the request is fully issued */
	b->started = -1;
	if (r->is_write && c->drain_left && d->c.queue_model == DRAM_QUEUE_CHANNEL)
		c->drain_left--;
	r->done = end;
	c->pend[r->is_write]--;
	if (!b->nq[Q_RD] && !b->nq[Q_WR])
		c->busy_banks--;
	stat_inc(d->st, r->is_write ? d->st_writes : d->st_reads);
	stat_inc(d->st, r->is_write ? c->st_writes : c->st_reads);
	stat_inc(d->st, d->st_reqs);
	dram_complete(d, (uint32_t)(c - d->ch), ri);
	if (d->c.page_policy == DRAM_PAGE_CLOSED) { /* auto-precharge (RDA/WRA): no command slot */
		do_pre(d, c, bi, dmax(b->t_pre, c->rank[b->rank].t_pre));
		strcpy(b->last_cmd, r->is_write ? "WRA" : "RDA");
	}
}

static void do_ref(struct dram *d, struct dram_chan *c, dcyc t)
{
	uint32_t lo = 0, hi = c->nbanks;
	dcyc dur = d->t.RFC;
	if (d->c.refresh == DRAM_REFRESH_PER_BANK) {
		lo = (uint32_t)(c->ref_idx % c->nbanks);
		hi = lo + 1;
		dur = d->t.RFCpb;
	}
	for (uint32_t b = lo; b < hi; b++) {
		want_stale(&c->bank[b]);
		c->bank[b].t_act = dmax(c->bank[b].t_act, t + dur);
		c->bank[b].ref_until = t + dur;
		cmd_name(&c->bank[b], "REF", t);
	}
	stat_inc(d->st, d->st_ref);
	EV_EMIT(d->ev, EV_DRAM_REF, .cycle = *d->now, .ch = (int16_t)(c - d->ch),
		.bank = (int16_t)(hi - lo == 1 && d->c.refresh == DRAM_REFRESH_PER_BANK ? (int)lo : -1));
	c->ref_pending = false;
	c->ref_idx++;
	c->ref_due = dram_ref_due(d, c->ref_idx);
}

static void issue(struct dram *d, struct dram_chan *c, uint32_t bi, enum dram_cmd cmd, int32_t ri, dcyc t)
{
	struct dram_bank *b = &c->bank[bi];
	struct dram_req *r = ri >= 0 ? &c->req[ri] : NULL;
	dram_blp_account(d, c, t);
	if (d->c.dual_cmd && (cmd == DC_RD || cmd == DC_WR))
		c->t_col = t + 1; /* the row command bus stays free this cycle */
	else
		c->t_cmd = t + 1;
	switch (cmd) {
	case DC_ACT:
		classify(d, c, b, r, RC_MISS);
		do_act(d, c, bi, r, t);
		break;
	case DC_PRE:
		if (r)
			classify(d, c, b, r, RC_CONFLICT);
		do_pre(d, c, bi, t);
		break;
	case DC_RD:
	case DC_WR:
		classify(d, c, b, r, RC_HIT);
		do_col(d, c, bi, ri, t);
		break;
	default:
		break;
	}
}

/* ---- phases 1, 2, 5 -------------------------------------------------------- */

/* full_or_idle (DRAMSim3): drain the writes waiting when the write queue is
 * full, or more than write_low wait and no read does; then issue that many.
 * Fewer writes with no read pending drain once no request has arrived for
 * tRC (DRAMSim3 would keep them until more writes come; a run must end). */
static void update_mode_full(const struct dram *d, struct dram_chan *c, dcyc t)
{
	bool per_bank = d->c.queue_model != DRAM_QUEUE_CHANNEL;
	/* per_bank: the write buffer (transaction queue) and "command queues
	 * empty", as DRAMSim3; channel: unissued writes and "no read waits" */
	uint32_t rq = c->pend[Q_RD], wq = per_bank ? c->held[Q_WR] : c->pend[Q_WR];
	bool quiet = per_bank ? !c->cmdq_n : !rq;
	if (c->draining) {
		if (!wq || !c->drain_left)
			c->draining = false;
	} else if (wq >= (uint32_t)d->c.write_queue || (wq > (uint32_t)d->c.write_low && quiet) ||
		   (wq && !rq && t >= c->last_arrival + d->t.RC)) {
		c->draining = true;
		c->drain_left = wq;
	}
}

static void update_mode_watermark(const struct dram *d, struct dram_chan *c)
{
	uint32_t rq = c->pend[Q_RD], wq = c->pend[Q_WR];
	if (d->c.queue_model != DRAM_QUEUE_CHANNEL)
		wq = c->held[Q_WR];
	if (c->draining) {
		if (!wq || (wq <= (uint32_t)d->c.write_low && rq))
			c->draining = false;
	} else if (wq >= (uint32_t)d->c.write_high || (!rq && wq)) {
		c->draining = true;
	}
}

static void update_mode(const struct dram *d, struct dram_chan *c, dcyc t)
{
	bool was = c->draining;
	if (d->c.write_drain == DRAM_DRAIN_FULL_OR_IDLE)
		update_mode_full(d, c, t);
	else
		update_mode_watermark(d, c);
	if (c->draining != was && d->c.queue_model == DRAM_QUEUE_CHANNEL)
		want_stale_all(c); /* the banks serve the other queue now */
}

static void refresh_due(struct dram *d, struct dram_chan *c, dcyc t)
{
	if (d->c.refresh == DRAM_REFRESH_NONE || c->ref_pending || c->ref_due > t)
		return;
	c->ref_pending = true;
	if (d->c.refresh == DRAM_REFRESH_PER_BANK) {
		want_stale(&c->bank[c->ref_idx % c->nbanks]);
		dram_cand_add(c, (uint32_t)(c->ref_idx % c->nbanks));
	} else {
		want_stale_all(c);
		for (uint32_t b = 0; b < c->nbanks; b++)
			if (c->bank[b].open_row >= 0)
				dram_cand_add(c, b);
	}
}

/* per_bank/per_rank: the order between command queues (DRAMSim3's
 * CommandQueue::GetCommandToIssue). The queues are visited round robin,
 * starting after the one that issued last; the first queue with a ready
 * command issues it, whatever its kind (no row-hit-first across queues). In a
 * queue the first entry with a ready command goes first: under per_bank the
 * bank's own pick (one bank per queue), under per_rank the banks' picks in
 * the order they entered the rank's queue. */
static uint64_t cmdq_key(const struct dram *d, const struct dram_chan *c, uint32_t bi, int32_t ri)
{
	uint32_t nq = d->c.queue_model == DRAM_QUEUE_PER_RANK ? (uint32_t)d->c.ranks : c->nbanks;
	uint64_t dist = (dram_cmdq_of(d, bi) + nq - c->rr - 1) % nq;
	return dist << 48 | (d->c.queue_model == DRAM_QUEUE_PER_RANK ? c->req[ri].mseq & (((uint64_t)1 << 48) - 1) : 0);
}

/* Scan candidates: issue the best legal at t if `t_issue`; return the earliest legal cycle
 * among what remains (>= t + 1 after an issue). Banks with nothing to do leave the list.
 * Without may_issue (dram_chan_step's scan at t + 1 after a command at t, whose
 * answer it raises to t + 1 at least) a candidate legal at t ends the scan:
 * the rest could not make the answer sooner, and the banks among them with
 * nothing to do leave the list at a later scan. */
static bool is_col(enum dram_cmd cmd) { return cmd == DC_RD || cmd == DC_WR; }

static dcyc scan(struct dram *d, struct dram_chan *c, dcyc t, bool may_issue, enum dram_cmd *issued, uint32_t legal[2])
{
	dcyc next = DCYC_NEVER, e = 0;
	uint64_t best_key = UINT64_MAX;
	int32_t best_bank = -1, best_req = -1;
	enum dram_cmd best_cmd = DC_NONE;
	const bool prune = !d->exhaustive;
	if (c->ref_pending && ref_ready(d, c, &e)) {
		if (e <= t && may_issue) {
			best_key = 0;
			best_cmd = DC_REF;
		} else {
			next = e;
		}
	}
	for (uint32_t i = c->ncand; i-- > 0;) {
		uint32_t bi = (uint32_t)c->cand[i];
		int32_t ri;
		dcyc be;
		enum dram_cmd cmd = bank_want_cached(d, c, bi, &be, &ri);
		if (cmd == DC_NONE) {
			const struct dram_bank *b = &c->bank[bi];
			if (!b->nq[Q_RD] && !b->nq[Q_WR] && b->started < 0)
				cand_remove(c, bi);
			continue;
		}
		if (be > t && be >= next && prune)
			continue; /* not legal at t, and no sooner than what we have: the channel's rules cannot change that */
		e = dmax(be, chan_rules(d, c, &c->bank[bi], cmd));
		if (e > t || !may_issue) {
			if (e < next)
				next = e;
			if (!may_issue && e <= t)
				break; /* the after-issue scan at t: nothing can be sooner (dram_chan_step) */
			continue;
		}
		legal[is_col(cmd)]++;
		uint64_t key;
		if (c->bank[bi].started >= 0)
			key = 1;
		else if (ref_targets(d, c, bi))
			key = 0;
		else if (ri >= 0 && d->c.queue_model != DRAM_QUEUE_CHANNEL)
			key = ((uint64_t)1 << 62) | cmdq_key(d, c, bi, ri);
		else if (ri >= 0)
			key = ((uint64_t)1 << 62) | dram_sched_of(d)->key(&c->req[ri], cmd);
		else
			key = (uint64_t)3 << 62; /* page timeout */
		if (key < best_key || (key == best_key && (int32_t)bi < best_bank)) {
			best_key = key;
			best_bank = (int32_t)bi;
			best_req = ri;
			best_cmd = cmd;
		}
	}
	*issued = best_cmd;
	if (best_cmd == DC_REF) {
		dram_blp_account(d, c, t);
		c->t_cmd = t + 1;
		do_ref(d, c, t);
	} else if (best_cmd != DC_NONE) {
		if (best_req >= 0 && d->c.queue_model != DRAM_QUEUE_CHANNEL)
			c->rr = dram_cmdq_of(d, (uint32_t)best_bank);
		issue(d, c, (uint32_t)best_bank, best_cmd, best_req, t);
	}
	return next;
}

/* per_bank/per_rank, after the cycle's command (as DRAMSim3's
 * ScheduleTransaction): the oldest request of the current transaction queue
 * (writes while draining) whose command queue (its bank's, or under per_rank
 * its rank's) has room moves there, if it arrived before t. It can get a
 * command from t + 1. */
static bool move_one(struct dram *d, struct dram_chan *c, dcyc t)
{
	int q = c->draining ? Q_WR : Q_RD;
	for (int32_t s = c->tq_head[q]; s >= 0; s = c->req[s].next) {
		struct dram_req *r = &c->req[s];
		if (r->enq_d >= t)
			return false; /* the rest arrived later still */
		const struct dram_bank *b = &c->bank[r->bank];
		if ((d->c.queue_model == DRAM_QUEUE_PER_RANK ? c->rank[b->rank].cmdq : b->nq[0]) >= (uint32_t)d->c.cmd_queue)
			continue;
		if (r->prev >= 0)
			c->req[r->prev].next = r->next;
		else
			c->tq_head[q] = r->next;
		if (r->next >= 0)
			c->req[r->next].prev = r->prev;
		else
			c->tq_tail[q] = r->prev;
		c->held[q]--;
		if (q == Q_WR && c->drain_left)
			c->drain_left--;
		r->mseq = c->mseq++;
		dram_bank_link(d, c, r->bank, s, 0);
		return true;
	}
	return false;
}

/* dual_cmd: after the command `cmd` of cycle t, can the
 * other bus issue in t too? Only a command of the other kind that was legal
 * before it (legal[], from the first scan): a command only delays other
 * banks' commands (every rule it sets is a max with a later cycle), and the
 * bank it went to wants next a command of the same kind, or one at least
 * tRTP, tRP or tRCD later; with any of those 0 the second scan always runs.
 * So it does under FR-FCFS with a row-hit cap: a capped bank chooses
 * between its PRE and a ready hit by the channel's rules, so a row command
 * (moving the row bus to t + 1) can turn its PRE into a hit legal at t. */
static bool second_scan_may_issue(const struct dram *d, enum dram_cmd cmd, const uint32_t legal[2])
{
	if (!d->t.RTP || !d->t.RP || !d->t.RCD || !d->t.RCDWR || d->exhaustive)
		return true;
	if (d->c.row_hit_cap && d->sched_kind == DRAM_SCHED_FRFCFS)
		return true;
	return legal[!is_col(cmd)] > 0;
}

void dram_chan_step(struct dram *d, struct dram_chan *c, dcyc t)
{
	bool per_bank = d->c.queue_model != DRAM_QUEUE_CHANNEL; /* per_bank or per_rank */
	uint32_t legal[2] = {0, 0}, unused[2];
	enum dram_cmd cmd, second;
	refresh_due(d, c, t);
	update_mode(d, c, t);
	dcyc next = scan(d, c, t, true, &cmd, legal);
	bool issued = cmd != DC_NONE;
	if (issued && d->c.dual_cmd && second_scan_may_issue(d, cmd, legal)) /* the other command bus in the same cycle */
		(void)scan(d, c, t, true, &second, unused); /* next is recomputed below */
	bool moved = per_bank && move_one(d, c, t);
	if (issued || moved) {
		refresh_due(d, c, t + 1);
		update_mode(d, c, t + 1);
		next = scan(d, c, t + 1, false, &second, unused);
		if (next <= t) /* a request moved at t had every rule met already: t + 1 */
			next = t + 1;
	}
	if (per_bank && (c->held[Q_RD] || c->held[Q_WR]) && next > t + 1)
		next = t + 1; /* more may move next cycle (or once a command queue has room) */
	if (d->c.write_drain == DRAM_DRAIN_FULL_OR_IDLE && !c->draining && c->pend[Q_WR] && !c->pend[Q_RD]) {
		dcyc idle = dmax(c->last_arrival + d->t.RC, t + 1); /* leftover writes: update_mode_full */
		if (idle < next)
			next = idle;
	}
	if (d->c.refresh != DRAM_REFRESH_NONE && !c->ref_pending && next != DCYC_NEVER && c->ref_due < next)
		next = dmax(c->ref_due, t + 1);
	c->next = next;
}

/* A channel that was idle catches up with the refreshes it missed, as if each
 * REF had issued at its due cycle (precharging open banks first). */
void dram_refresh_settle(struct dram *d, struct dram_chan *c, dcyc dnow)
{
	if (d->c.refresh == DRAM_REFRESH_NONE)
		return;
	uint64_t nb = d->c.refresh == DRAM_REFRESH_PER_BANK ? c->nbanks : 1;
	uint64_t end; /* first index due at or after dnow */
	if (d->c.refresh == DRAM_REFRESH_PER_BANK)
		end = (dnow * nb + d->t.REFI - 1) / d->t.REFI;
	else
		end = (dnow + d->t.REFI - 1) / d->t.REFI;
	end = end ? end - 1 : 0;
	uint64_t done_here = 0;
	while (c->ref_idx < end) {
		if (done_here >= nb && end - c->ref_idx > 2 * nb) {
			uint64_t skip = (end - c->ref_idx - nb) / nb * nb;
			stat_add(d->st, d->st_ref, skip);
			c->ref_idx += skip;
			continue;
		}
		uint32_t lo = 0, hi = c->nbanks;
		if (d->c.refresh == DRAM_REFRESH_PER_BANK) {
			lo = (uint32_t)(c->ref_idx % c->nbanks);
			hi = lo + 1;
		}
		/* the PREs one per command slot, tPPD apart, as they would have issued */
		dcyc due = dram_ref_due(d, c->ref_idx), slot = dmax(due, c->t_cmd), r;
		for (uint32_t b = lo; b < hi; b++) {
			struct dram_bank *bk = &c->bank[b];
			if (bk->open_row >= 0) {
				dcyc t = dmax(slot, dmax(bk->t_pre, c->rank[bk->rank].t_pre));
				do_pre(d, c, b, t);
				slot = t + 1;
			}
		}
		r = slot;
		for (uint32_t b = lo; b < hi; b++)
			r = dmax(r, c->bank[b].t_act);
		c->t_cmd = r + 1;
		do_ref(d, c, r);
		done_here++;
	}
	c->ref_due = dram_ref_due(d, c->ref_idx);
}
