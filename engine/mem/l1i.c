/*
 * l1i.c: the L1 instruction cache of one SM (l1i.enabled; docs/MODEL.md
 * "Instruction cache and fetch"), after GPGPU-Sim's read-only L1I
 * (-gpgpu_cache:il1, shader_core_ctx::fetch, INST_ACC_R).
 *
 *   fetch unit (core/fetch.c) --l1i_access(line)--> tags: hit ----> warp's buffer
 *                                                    |                after l1i.hit_latency
 *                                                    miss: MSHR entry (merge)
 *                                                    |
 *                       L1 miss queue --crossbar--> L2 bank --> DRAM (as an L1 fetch)
 *                                                    |
 *   warps waiting on the line <--l1i_fill-- L1 fill queue (l1.c step 2)
 *
 * Lines are l1.line bytes (the L2's), LRU, allocated on fill (GPGPU-Sim's
 * il1 "L:R:f:N": read only, allocate on fill), so a miss never fails for
 * want of a line. A miss allocates an MSHR entry and sends an RQ_FETCH
 * flagged REQF_IFETCH through the SM's miss queue and crossbar link, the
 * same path and packets as a data-line fetch; the L2 serves it as one. A
 * second warp missing on a line already being fetched merges into its entry
 * (up to l1i.mshr.merges warps). With no entry, no merge slot, no miss-queue
 * room or no request slot the lookup is refused (GPGPU-Sim's
 * RESERVATION_FAIL) and the fetch unit tries again later.
 *
 * l1i.perfect (GPGPU-Sim's -gpgpu_perfect_inst_const_cache): every lookup
 * hits; the fetch unit and the buffers work as above.
 *
 * Waiters are warps, not requests: a warp waiting for a line has fst =
 * FS_MISS and f_line = the line; the fill hands each of them its
 * instructions (fn) at once, as a data fill completes its loads.
 */
#include "coh_eng.h"
#include "sim/sim_int.h"

void l1i_init(struct sim *s, struct sm *sm)
{
	const struct sim_cfg *c = &s->cfg;
	struct l1i *l = &sm->l1i;
	l->last_fetched = -1;
	if (!l1i_active(c))
		return;
	cache_init(&l->c, &s->arena, c->l1i.sets, c->l1i.ways, c->l1.line, 0, REPL_LRU, IDX_LINEAR);
	mshr_init(&l->m, &s->arena, (uint32_t)c->l1i.mshr_entries);
}

/* The L2's sectors of a whole line (l1.sector = l2.sector, hier_cfg.c). */
static uint32_t line_mask(const struct sim *s)
{
	int sec = s->cfg.l1.sector;
	return sec ? (uint32_t)((1ull << (s->cfg.l1.line / sec)) - 1) : 1u;
}

int l1i_access(struct sim *s, struct sm *sm, int slot, uint64_t addr)
{
	struct l1i *l = &sm->l1i;
	struct warp *w = &sm->w[slot];
	uint64_t now = s->st->now, line = cache_line_addr(&l->c, addr);
	int set = cache_set(&l->c, line);
	if (s->cfg.l1i.perfect) { /* GPGPU-Sim's perfect instruction cache: a hit, no tag touched */
		stat_inc(&s->stats, s->id.l1i_accesses);
		stat_inc(&s->stats, s->id.l1i_hits);
		return L1I_HIT;
	}
	int way = cache_find(&l->c, set, line);
	if (way >= 0 && cache_line(&l->c, set, way)->valid) {
		struct cline *cl = cache_line(&l->c, set, way);
		stat_inc(&s->stats, s->id.l1i_accesses);
		stat_inc(&s->stats, s->id.l1i_hits);
		cache_touch(&l->c, set, way);
		cl->touch = TOUCH_HIT;
		cl->touch_cycle = now;
		return L1I_HIT;
	}
	uint32_t e = mshr_find(&l->m, line, 0);
	if (e != REQ_NIL) {
		if (!mshr_can_merge(&l->m, e, (uint32_t)s->cfg.l1i.mshr_merges)) {
			stat_inc(&s->stats, s->id.l1i_resv_fails);
			return L1I_REFUSED;
		}
		l->m.e[e].merged++;
		stat_inc(&s->stats, s->id.l1i_accesses);
		stat_inc(&s->stats, s->id.l1i_misses);
		stat_inc(&s->stats, s->id.l1i_merges);
		EV_EMIT(&s->ev, EV_L1I_MISS, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)slot, .addr = line,
			.set = set, .a = 1);
	} else {
		if (mshr_full(&l->m, (uint32_t)s->cfg.l1i.mshr_entries) || !l1_missq_room(s, &sm->l1) || !l2_pool_room(s, 1)) {
			stat_inc(&s->stats, s->id.l1i_resv_fails);
			return L1I_REFUSED;
		}
		uint32_t fi = req_alloc(&s->pool);
		if (fi == REQ_NIL)
			l2_pool_exhausted(s, "an instruction fetch");
		e = mshr_alloc(&l->m, line, line_mask(s), now);
		struct mshr_ent *me = &l->m.e[e];
		me->set = (int16_t)set;
		me->way = -1; /* allocate on fill */
		me->warp = (uint16_t)slot;
		me->merged = 1;
		me->sent = 1;
		struct req *f = &s->pool.r[fi];
		f->type = RQ_FETCH;
		f->flags = REQF_IFETCH;
		f->addr = line;
		f->mask = line_mask(s);
		f->sm = (uint16_t)sm->id;
		f->warp = (uint16_t)slot;
		f->mshr = e;
		f->t_issue = now;
		l1_send_down(s, &sm->l1, fi);
		stat_inc(&s->stats, s->id.l1i_accesses);
		stat_inc(&s->stats, s->id.l1i_misses);
		EV_EMIT(&s->ev, EV_L1I_MISS, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)slot, .addr = line,
			.set = set, .a = 0);
	}
	w->fst = FS_MISS;
	w->f_line = line;
	return L1I_MISS;
}

void l1i_fill(struct sim *s, struct sm *sm, uint32_t ri)
{
	struct l1i *l = &sm->l1i;
	uint64_t now = s->st->now;
	uint32_t mi = s->pool.r[ri].mshr;
	req_free(&s->pool, ri);
	struct mshr_ent *me = &l->m.e[mi];
	uint64_t line = me->addr;
	int set = me->set;
	int way = cache_find(&l->c, set, line);
	if (way < 0)
		way = cache_victim(&l->c, set, &s->st->rng); /* nothing is ever reserved: always a way */
	if (way >= 0) {
		cache_install(&l->c, set, way, line);
		struct cline *cl = cache_line(&l->c, set, way);
		cl->valid = 1;
		cl->sv = line_mask(s);
		cl->touch = TOUCH_FILL;
		cl->touch_cycle = now;
		cache_touch(&l->c, set, way);
	}
	unsigned woken = 0;
	for (int k = 0; k < s->cfg.core.warps_per_sm; k++) {
		struct warp *w = &sm->w[k];
		if (w->state != WSL_ACTIVE || w->fst != FS_MISS || w->f_line != line)
			continue;
		w->fst = FS_IDLE;
		w->ibn = w->fn;
		woken++;
	}
	stat_inc(&s->stats, s->id.l1i_fills);
	EV_EMIT(&s->ev, EV_L1I_FILL, .cycle = now, .sm = (int16_t)sm->id, .addr = line, .set = set, .a = woken);
	mshr_release(&l->m, mi);
	sm_wake(sm);
	sim_progress(s);
}

void l1i_register_stats(struct sim *s)
{
	struct stats *st = &s->stats;
	struct sim_stat_ids *id = &s->id;
	id->l1i_accesses = stats_counter(st, "l1i.accesses", "L1I lookups by the fetch units, all SMs (refused lookups not counted)");
	id->l1i_hits = stats_counter(st, "l1i.hits", "L1I lookups that hit");
	id->l1i_misses = stats_counter(st, "l1i.misses", "L1I lookups that missed (merged ones included)");
	id->l1i_merges = stats_counter(st, "l1i.mshr_merges", "L1I misses that joined the fetch already pending for their line");
	id->l1i_resv_fails = stats_counter(st, "l1i.reservation_fails",
					   "L1I misses refused for want of an MSHR entry, merge slot, miss-queue room or request slot (retried)");
	id->l1i_fills = stats_counter(st, "l1i.fills", "instruction lines the L2 returned to the L1Is");
	stats_ratio(st, "l1i.hit_rate", "l1i.hits / l1i.accesses", "l1i.hits", "l1i.accesses", 1.0);
}
