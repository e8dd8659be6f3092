/*
 * inspect.c: read-only views of the engine state for panels, `info` commands
 * and tests (see inspect.h). Nothing here changes the simulation.
 */
#include <stdio.h>
#include <string.h>

#include "mem/coh_eng.h"
#include "sim/sim_int.h"

int inspect_sms(const struct sim *s) { return s->cfg.core.sms; }
int inspect_warp_slots(const struct sim *s) { return s->cfg.core.warps_per_sm; }
int inspect_l2_banks(const struct sim *s) { return s->cfg.l2.banks; }

int inspect_schedulers(const struct sim *s) { return s->cfg.core.schedulers; }

/* Statement text for displays: without the kernel listing's indentation. */
static const char *stmt_shown(const struct sim *s, unsigned stmt)
{
	const char *t = s->wops->stmt_text(s->wimpl, stmt);
	while (*t == ' ' || *t == '\t')
		t++;
	return t;
}

/* The next instruction of a warp that has not fetched it yet (not started,
 * outside the active pool, or just issued). A compiled kernel's pc may
 * rest on a comment, `loop`, `if`, `else` or `end`, which never issue: the
 * kernel is run on a copy of the warp's state (the kernel is immutable, so
 * the real fetch will produce the same instruction). Trace workloads keep
 * kw.pc on the next traced line already. */
static void next_unfetched(const struct sim *s, const struct warp *w, struct warp_info *o)
{
	unsigned n = s->wops->nstmts(s->wimpl);
	unsigned pc = w->kw.pc;
	uint64_t active = w->kw.mask;
	bool exited = w->kw.exited;
	if (!exited && !s->wl.ops && !s->wl.dram_reqs && s->wl.kernel) {
		struct kwarp k = w->kw;
		struct winst next;
		exited = !kernel_warp_next(s->wl.kernel, &k, &next);
		pc = next.stmt;
		active = next.active;
	}
	o->next_stmt = exited ? -1 : (int)pc;
	o->next_text = exited || pc >= n ? "exit" : stmt_shown(s, pc);
	o->next_active = active;
}

bool inspect_warp(const struct sim *s, int smi, int slot, struct warp_info *o)
{
	if (smi < 0 || smi >= s->cfg.core.sms || slot < 0 || slot >= s->cfg.core.warps_per_sm)
		return false;
	const struct sm *sm = &s->sms[smi];
	const struct warp *w = &sm->w[slot];
	*o = (struct warp_info){.slot = slot, .cta = -1, .next_stmt = -1, .order = -1, .sched = sched_of(s, slot)};
	if (w->state == WSL_EMPTY) {
		o->state = WS_EMPTY;
		return true;
	}
	o->cta = (int)w->kw.cta;
	o->warp_in_cta = (int)w->kw.warp_in_cta;
	o->insts = w->insts;
	o->outstanding = (int)w->outstanding;
	o->issued_now = w->insts && w->issue_cycle + 1 == s->st->now;
	o->stall_cycles = w->mem_stall_cycles + w->other_stall_cycles;
	o->mem_stall_cycles = w->mem_stall_cycles;
	o->other_stall_cycles = w->other_stall_cycles;
	if (w->state == WSL_DONE) {
		o->resident_cycles = w->issue_cycle + 1 - w->launch_cycle;
	} else {
		uint64_t now = s->st->now;
		o->resident_cycles = now - w->launch_cycle;
		if (w->stall_start != UINT64_MAX && w->stall_start < now) {
			uint64_t d = now - w->stall_start;
			if (w->stall == STALL_SCOREBOARD || w->stall == STALL_MEM || w->stall == STALL_MSHR_FULL)
				o->mem_stall_cycles += d;
			else
				o->other_stall_cycles += d;
		}
	}
	if (w->state == WSL_DONE) {
		o->state = WS_DONE;
		o->stall = STALL_DONE;
		return true;
	}
	o->stall = (enum stall_reason)w->stall;
	o->state = w->stall == STALL_NONE ? WS_READY : WS_STALLED;
	if (w->ib_valid) {
		o->next_stmt = w->ib.op == KOP_EXIT ? -1 : w->ib.stmt;
		o->next_text = w->ib.op == KOP_EXIT ? "exit" : stmt_shown(s, w->ib.stmt);
		o->next_active = w->ib.active;
	} else {
		next_unfetched(s, w, o);
	}
	int order[64];
	int n = sched_order(s, sm, order), pos = 0;
	for (int i = 0; i < n; i++) {
		if (order[i] == slot) {
			o->order = pos;
			break;
		}
		pos += sched_of(s, order[i]) == o->sched;
	}
	if (s->cfg.core.scheduler == SCHED_TWO_LEVEL && !w->in_pool)
		o->order = -1;
	return true;
}

void inspect_sm_summary(const struct sim *s, int smi, int *ctas, int *warps, uint64_t *insts)
{
	const struct sm *sm = &s->sms[smi];
	*ctas = sm->ctas_active;
	*warps = sm->nwarps_active;
	*insts = sm->insts;
}

void inspect_cta_progress(const struct sim *s, uint32_t *dispatched, uint32_t *done, uint32_t *total)
{
	*dispatched = s->st->ctas_dispatched;
	*done = s->st->ctas_done;
	*total = s->nctas;
}

static const struct cache *cache_of(const struct sim *s, enum cache_id_kind k, int unit)
{
	if (k == CACHE_L1)
		return unit >= 0 && unit < s->cfg.core.sms && s->cfg.l1.enabled ? &s->sms[unit].l1.c : NULL;
	return unit >= 0 && unit < s->cfg.l2.banks ? &s->banks[unit].c : NULL;
}

static const struct mshr *mshr_of(const struct sim *s, enum cache_id_kind k, int unit)
{
	if (k == CACHE_L1)
		return unit >= 0 && unit < s->cfg.core.sms && s->cfg.l1.enabled ? &s->sms[unit].l1.m : NULL;
	return unit >= 0 && unit < s->cfg.l2.banks ? &s->banks[unit].m : NULL;
}

bool inspect_cache_geom(const struct sim *s, enum cache_id_kind k, int unit, struct cache_geom *g)
{
	const struct cache *c = cache_of(s, k, unit);
	if (!c)
		return false;
	*g = (struct cache_geom){.sets = c->sets, .ways = c->ways, .line = c->line,
				 .sector = c->nsect > 1 ? c->sector : 0, .sectors_per_line = c->nsect};
	return true;
}

/* The tag as the hardware stores it: the address above the set-index bits; for
 * an L2 bank, of the address with the bank-select bits removed (l2.c indexes
 * sets that way). */
static uint64_t tag_of(const struct sim *s, enum cache_id_kind k, const struct cache *c, uint64_t addr)
{
	if (k == CACHE_L2)
		addr = l2_local_addr(s, addr);
	return addr >> (c->off_bits + c->idx_bits);
}

bool inspect_cache_line(const struct sim *s, enum cache_id_kind k, int unit, int set, int way, struct line_info *o)
{
	const struct cache *c = cache_of(s, k, unit);
	if (!c || set < 0 || set >= c->sets || way < 0 || way >= c->ways)
		return false;
	const struct cline *l = &c->l[(size_t)set * (size_t)c->ways + (size_t)way];
	*o = (struct line_info){.valid = l->valid, .dirty = l->sd != 0, .transient = l->transient || l->reserved,
				.tag = tag_of(s, k, c, l->tag), .addr = l->tag,
				.lru_rank = cache_lru_rank(c, set, way), .sector_valid = l->sv, .sector_dirty = l->sd};
	if (!l->valid && !l->reserved)
		o->addr = 0;
	o->touched = l->touch_cycle + 1 == s->st->now && s->st->now ? (enum touch)l->touch : TOUCH_NONE;
	o->coh_state = k == CACHE_L1 && s->coh && (l->valid || l->reserved) ? (int)l->coh : -1;
	return true;
}

bool inspect_mshr(const struct sim *s, enum cache_id_kind k, int unit, struct mshr_info *o)
{
	const struct mshr *m = mshr_of(s, k, unit);
	if (!m)
		return false;
	*o = (struct mshr_info){.entries = (int)m->n, .used = (int)m->used, .head_wait = -1,
				.limit = k == CACHE_L1 ? s->cfg.l1.mshr_entries : s->cfg.l2.mshr_entries};
	if (k == CACHE_L1) {
		const struct l1 *l = &s->sms[unit].l1;
		o->wait_queue = (int)l->waitq.n;
		o->wait_cap = s->cfg.l1.wait_queue;
		o->retry_queue = (int)l->retryq.n;
		o->miss_queue = (int)l->missq.n;
		o->ack_queue = (int)l->ackq.n;
		o->full_events = l->full_events;
	} else {
		const struct l2bank *b = &s->banks[unit];
		o->wait_queue = (int)b->inq.n;
		o->wait_cap = s->cfg.l2.queue;
		o->miss_queue = (int)b->memq.n;
		o->ack_queue = (int)b->ackinq.n;
		o->head_wait = l2_head_wait_reason(s, b, b->inq.head);
		o->full_events = stats_counter_value(&s->stats, b->st.nacks);
	}
	return true;
}

bool inspect_mshr_entry(const struct sim *s, enum cache_id_kind k, int unit, int i, struct mshr_entry_info *o)
{
	const struct mshr *m = mshr_of(s, k, unit);
	if (!m || i < 0 || (uint32_t)i >= m->n)
		return false;
	const struct mshr_ent *e = &m->e[i];
	*o = (struct mshr_entry_info){.valid = e->state != ME_FREE};
	if (!o->valid)
		return true;
	o->addr = e->addr;
	o->sector_bytes = k == CACHE_L1 ? s->cfg.l1.sector : s->cfg.l2.sector;
	o->sectors = o->sector_bytes ? e->mask : 0;
	o->merged = e->merged;
	o->age = s->st->now - e->t_alloc;
	o->sent = e->sent;
	for (uint32_t r = e->wait.head; r != REQ_NIL && o->nwaiters < INSPECT_MAX_WAITERS; r = s->pool.r[r].next)
		o->waiters[o->nwaiters++] = k == CACHE_L1 ? s->pool.r[r].warp : s->pool.r[r].sm;
	return true;
}

int inspect_mshr_history(const struct sim *s, enum cache_id_kind k, int unit, uint16_t *vals, int n)
{
	const struct occ_hist *h;
	if (!mshr_of(s, k, unit))
		return 0;
	h = k == CACHE_L1 ? &s->sms[unit].l1.hist : &s->banks[unit].hist;
	if (n > MSHR_HIST)
		n = MSHR_HIST;
	uint64_t now = s->st->now;
	if (now == 0)
		return 0;
	uint64_t last = now - 1; /* the last simulated cycle */
	int cnt = (int)(last + 1 < (uint64_t)n ? last + 1 : (uint64_t)n);
	for (int i = 0; i < cnt; i++) {
		uint64_t c = last - (uint64_t)(cnt - 1 - i);
		/* Cycles after the last recorded change hold the current value. */
		vals[i] = c > h->last_cycle ? h->cur : (h->last_cycle - c < MSHR_HIST ? h->v[c % MSHR_HIST] : 0);
	}
	return cnt;
}

bool inspect_l2_bank(const struct sim *s, int bank, struct l2_bank_info *o)
{
	if (bank < 0 || bank >= s->cfg.l2.banks)
		return false;
	const struct l2bank *b = &s->banks[bank];
	*o = (struct l2_bank_info){.total_lines = b->c.sets * b->c.ways, .mshr_used = (int)b->m.used,
				   .mshr_entries = s->cfg.l2.mshr_entries, .queue = (int)b->inq.n};
	for (int i = 0; i < b->c.sets * b->c.ways; i++) {
		o->valid_lines += b->c.l[i].valid && !b->c.l[i].transient;
		o->transient_lines += b->c.l[i].transient;
	}
	o->accesses = stats_counter_value(&s->stats, b->st.accesses);
	o->hits = stats_counter_value(&s->stats, b->st.hits);
	o->misses = stats_counter_value(&s->stats, b->st.misses);
	o->nacks = stats_counter_value(&s->stats, b->st.nacks);
	return true;
}

bool inspect_frc(const struct sim *s, int bank, struct frc_info *o)
{
	if (bank < 0 || bank >= s->cfg.l2.banks || !s->banks[bank].frc.n)
		return false;
	const struct l2bank *b = &s->banks[bank];
	const struct frc *f = &b->frc;
	const struct stats *st = &s->stats;
	*o = (struct frc_info){.entries = f->n, .ways = f->ways, .sets = f->sets, .busy = f->active,
			       .allocs = stats_counter_value(st, b->st.frc_allocs),
			       .fallbacks = stats_counter_value(st, b->st.frc_fallbacks),
			       .hits_fetching = stats_counter_value(st, b->st.frc_hits_fetching),
			       .swaps = stats_counter_value(st, b->st.frc_swaps),
			       .evictions = stats_counter_value(st, b->st.frc_evictions),
			       .l2_misses = stats_counter_value(st, b->st.misses),
			       .all_allocs = stats_counter_value(st, s->id.frc_allocs),
			       .all_l2_misses = stats_counter_value(st, s->id.l2_misses)};
	return true;
}

bool inspect_frc_entry(const struct sim *s, int bank, int i, struct frc_entry_info *o)
{
	if (bank < 0 || bank >= s->cfg.l2.banks || i < 0 || i >= s->banks[bank].frc.n)
		return false;
	const struct frc_entry *e = &s->banks[bank].frc.e[i];
	*o = (struct frc_entry_info){.state = e->state, .l2_set = e->set, .l2_way = e->way};
	if (e->state == FRC_FREE)
		return true;
	o->incoming = e->incoming;
	o->victim = e->state == FRC_EVICTING ? e->tag : 0;
	o->age = s->st->now - e->t_state;
	o->waiters = e->nwait;
	if (e->state == FRC_EVICTING) {
		const struct frc *f = &s->banks[bank].frc;
		o->pending_inv = f->dir ? f->dir[i].acks : 0;
		o->wb_pending = e->victim_valid && e->victim_sd;
	}
	return true;
}

int inspect_dram_channels(const struct sim *s) { return s->dram ? dram_channels(s->dram) : 0; }

bool inspect_dram_channel(const struct sim *s, int ch, struct dram_chan_info *o)
{
	return s->dram && dram_channel_info(s->dram, ch, o);
}

bool inspect_dram_bank(const struct sim *s, int ch, int bank, struct dram_bank_info *o)
{
	return s->dram && dram_bank_info(s->dram, ch, bank, o);
}

void inspect_line(const struct sim *s, uint64_t addr, struct strbuf *out)
{
	uint64_t line = addr & ~(uint64_t)(s->cfg.l2.line - 1);
	sb_printf(out, "line 0x%llx (address 0x%llx)\n", (unsigned long long)line, (unsigned long long)addr);
	int found = 0;
	for (int i = 0; i < s->cfg.core.sms && s->cfg.l1.enabled; i++) {
		const struct l1 *l = &s->sms[i].l1;
		int set = cache_set(&l->c, line);
		int way = cache_find(&l->c, set, line);
		if (way >= 0) {
			const struct cline *c = &l->c.l[(size_t)set * (size_t)l->c.ways + (size_t)way];
			sb_printf(out, "  sm%d L1   set %d way %d  %s sectors valid 0x%x dirty 0x%x  LRU rank %d", i, set,
				  way, c->reserved ? "reserved (fill pending)" : "valid", c->sv, c->sd,
				  cache_lru_rank(&l->c, set, way));
			if (s->coh)
				sb_printf(out, "  state %s", coh_state_name(c->coh));
			sb_printf(out, "\n");
			found++;
		}
		uint32_t e = mshr_find(&l->m, line, 0);
		if (e != REQ_NIL) {
			sb_printf(out, "  sm%d L1   MSHR entry %u: %u merged, age %llu\n", i, e, l->m.e[e].merged,
				  (unsigned long long)(s->st->now - l->m.e[e].t_alloc));
			found++;
		}
	}
	unsigned bank = icnt_bank_of(s, line);
	const struct l2bank *b = &s->banks[bank];
	int set = cache_set(&b->c, l2_local_addr(s, line));
	int way = cache_find(&b->c, set, line);
	sb_printf(out, "  L2 bank %u set %d: ", bank, set);
	if (way >= 0) {
		const struct cline *c = &b->c.l[(size_t)set * (size_t)b->c.ways + (size_t)way];
		sb_printf(out, "way %d %s%s sectors valid 0x%x dirty 0x%x\n", way, c->valid ? "valid" : "reserved",
			  c->transient ? " transient" : "", c->sv, c->sd);
		found++;
	} else {
		sb_printf(out, "not present\n");
	}
	uint32_t e = mshr_find(&b->m, line, 0);
	if (e != REQ_NIL) {
		sb_printf(out, "  L2 bank %u MSHR entry %u: %s, %u merged, age %llu\n", bank, e,
			  b->m.e[e].state == ME_EVICTING ? "evicting victim" : "fetching", b->m.e[e].merged,
			  (unsigned long long)(s->st->now - b->m.e[e].t_alloc));
		found++;
	}
	struct coh_dir_info d;
	if (inspect_coh_dir(s, line, &d) && d.present) {
		sb_printf(out, "  directory (%s): state %s  owner ", s->coh->name, coh_dstate_name(d.dstate));
		if (d.owner >= 0)
			sb_printf(out, "sm%d", d.owner);
		else
			sb_printf(out, "-");
		sb_printf(out, "  sharers {");
		for (int i = 0, n = 0; i < s->cfg.core.sms; i++)
			if (d.sharers[i >> 6] >> (i & 63) & 1)
				sb_printf(out, "%ssm%d", n++ ? "," : "", i);
		sb_printf(out, "}  lock %s", d.lock);
		if (d.locked)
			sb_printf(out, " (requester sm%u, %u acks due)", d.req_sm, d.acks);
		sb_printf(out, "\n");
	}
	if (s->dram) {
		unsigned ch, bk;
		uint32_t row, col;
		dram_decode(s->dram, line, &ch, &bk, &row, &col);
		sb_printf(out, "  DRAM channel %u bank %u row %u column %u\n", ch, bk, row, col);
	}
	if (!found)
		sb_printf(out, "  not cached anywhere\n");
}

/* ---- coherence ------------------------------------------------------------- */
const struct coh_proto *inspect_coh_proto(const struct sim *s) { return s->coh; }

bool inspect_coh_dir(const struct sim *s, uint64_t addr, struct coh_dir_info *o)
{
	if (!s->coh)
		return false;
	uint64_t line = addr & ~(uint64_t)(s->cfg.l2.line - 1);
	unsigned bank = icnt_bank_of(s, line);
	const struct l2bank *b = &s->banks[bank];
	int set = l2_bank_set(s, b, line), way = cache_find(&b->c, set, line);
	*o = (struct coh_dir_info){.bank = (int)bank, .set = set, .way = way, .owner = -1, .lock = "none"};
	if (way < 0)
		return true;
	static const char *const locks[] = {"none", "acks", "unblock", "evict"};
	const struct coh_dent *d = coh_dent_at(b, set, way);
	o->present = true;
	o->dstate = d->ds;
	o->owner = d->owner;
	memcpy(o->sharers, d->sh, sizeof o->sharers);
	o->locked = d->busy != DB_NONE;
	o->lock = d->busy < 4 ? locks[d->busy] : "?";
	o->acks = d->acks;
	o->req_sm = d->req_sm;
	return true;
}

int inspect_coh_l1_state(const struct sim *s, int sm, uint64_t addr)
{
	if (!s->coh || !s->cfg.l1.enabled || sm < 0 || sm >= s->cfg.core.sms)
		return -1;
	const struct cache *c = &s->sms[sm].l1.c;
	uint64_t line = addr & ~(uint64_t)(s->cfg.l2.line - 1);
	int set = cache_set(c, line), way = cache_find(c, set, line);
	if (way < 0)
		return -1;
	const struct cline *cl = &c->l[(size_t)set * (size_t)c->ways + (size_t)way];
	return cl->valid || cl->reserved ? (int)cl->coh : -1;
}

bool inspect_coh_tx(const struct sim *s, uint64_t i, struct coh_tx_info *o)
{
	const struct coh_log *g = s->clog;
	if (!g || i >= g->total || i >= COH_LOG)
		return false;
	const struct coh_tx *t = &g->tx[(g->total - 1 - i) % COH_LOG];
	*o = (struct coh_tx_info){.cycle = t->cycle, .addr = t->addr, .sm = t->sm, .bank = t->bank, .kind = t->kind,
				  .from = t->from, .to = t->to, .msg = t->msg};
	return true;
}

void inspect_coh_log_size(const struct sim *s, uint64_t *kept, uint64_t *total, unsigned *cap)
{
	const struct coh_log *g = s->clog;
	*total = g ? g->total : 0;
	*kept = *total < COH_LOG ? *total : COH_LOG;
	*cap = g ? COH_LOG : 0;
}

bool inspect_coh_last_transition(const struct sim *s, unsigned *from, unsigned *to, unsigned *ev, uint64_t *cycle)
{
	struct coh_tx_info t;
	for (uint64_t i = 0; inspect_coh_tx(s, i, &t); i++)
		if (t.kind == TX_L1) {
			*from = t.from, *to = t.to, *ev = t.msg, *cycle = t.cycle;
			return true;
		}
	return false;
}
