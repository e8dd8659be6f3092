/*
 * inspect_why.c: `why warp`: the causal chain from a stalled warp to the
 * structure it waits on, read from the engine's state (see inspect.h).
 *
 *   link 0  the warp and its stall reason          (since the stall began)
 *   link 1  the instruction / buffer it waits for  (since it issued)
 *   link 2  where that instruction's request is:   L1 LSU pipe, hit queue,
 *           MSHR wait queue, retry queue (NACK), L1 MSHR entry
 *   link 3  the L2 bank: input queue, MSHR entry, FRC entry, directory lock
 *   link 4  memory: the L2's queue toward DRAM, or the DRAM bank (row state)
 *
 * Links 2-4, the memory side, are built in inspect_why_mem.c (why_int.h).
 * Nothing here changes the simulation.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/opunit.h"
#include "mem/coh_eng.h"
#include "dram/dram_queue.h"
#include "mem/frc.h"
#include "rf/regfile.h"
#include "sim/sim_int.h"
#include "why_int.h"

void why_add(struct chain *c, uint64_t since, const char *fmt, ...)
{
	if (c->n >= c->max)
		return;
	struct why_link *l = &c->v[c->n++];
	*l = (struct why_link){.since = since, .target = c->def.target, .sm = c->def.sm, .unit = c->def.unit,
			       .entry = c->def.entry, .addr = c->def.addr};
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(l->text, sizeof l->text, fmt, ap);
	va_end(ap);
}

static void set_target(struct why_link *l, enum why_target t, int sm, int unit, int entry, uint64_t addr)
{
	l->target = (uint8_t)t;
	l->sm = (int16_t)sm;
	l->unit = (int16_t)unit;
	l->entry = (int16_t)entry;
	l->addr = addr;
}

/* What the links added from now on name (struct why_link)... */
void why_deft(struct chain *c, enum why_target t, int sm, int unit, int entry, uint64_t addr)
{
	set_target(&c->def, t, sm, unit, entry, addr);
}

/* ... and what the link just added names, when more precise. */
void why_tgt(struct chain *c, enum why_target t, int sm, int unit, int entry, uint64_t addr)
{
	if (c->n > 0)
		set_target(&c->v[c->n - 1], t, sm, unit, entry, addr);
}
/* The oldest buffer entry not yet done, of warp `slot` (any warp if < 0)
 * writing `reg` (any if < 0): entries are not contiguous with
 * core.mem_release = completion, so every slot is looked at, from the ring's
 * head (program order with in_order). */
static int vmb_oldest(const struct sim *s, const struct sm *sm, int slot, int reg)
{
	int cap = s->cfg.core.mem_inflight, best = -1;
	for (int k = 0; k < cap; k++) {
		int v = (sm->vmb_head + k) % cap;
		const struct vmb_ent *e = &sm->vmb[v];
		if (!e->valid || e->done || (slot >= 0 && e->warp != slot) || (reg >= 0 && !(e->has_dst && e->dst == reg)))
			continue;
		if (best < 0 || e->t_issue < sm->vmb[best].t_issue)
			best = v;
	}
	return best;
}


/* A warp whose next instruction rf_blocked() refuses: which bank queue or
 * write buffer, and for a full write buffer its entries and the result the
 * oldest waits for. */
static void rf_block_link(const struct sim *s, const struct sm *sm, int slot, const char *next, struct chain *c)
{
	unsigned b = 0, reg = 0;
	int why = rf_block_reason(s, sm, slot, &sm->w[slot].ib, &b, &reg);
	struct rf_info ri;
	if (why != RFB_NONE)
		why_deft(c, WT_RF_BANK, sm->id, (int)b, -1, 0);
	if (why == RFB_NONE || !inspect_rf(s, sm->id, &ri)) {
		why_add(c, UINT64_MAX, "`%s` cannot enter the register-file banks this cycle", next);
		return;
	}
	if (why != RFB_WB_FULL) {
		struct rf_bank_info bi;
		inspect_rf_bank(s, sm->id, (int)b, &bi);
		why_add(c, UINT64_MAX, "`%s` cannot enter RF bank %u: its queue holds %d request%s (rf.queue_limit %d) for r%u%s",
		    next, b, bi.queued, WHY_S(bi.queued), s->cfg.rf.queue_limit, reg, why == RFB_DST_QUEUE ? " (the destination)" : "");
		return;
	}
	why_add(c, UINT64_MAX, "`%s` cannot claim a write-buffer entry for r%u: RF bank %u's write buffer is full (%d of %d ways claimed, none holds a result to evict)",
	    next, reg, b, ri.ways, ri.ways);
	struct rf_wb_info first = {0};
	for (int way = 0; way < ri.ways; way++) {
		struct rf_wb_info e;
		if (!inspect_rf_wb(s, sm->id, (int)b, way, &e) || !e.valid)
			continue;
		if (!first.valid)
			first = e;
		why_add(c, UINT64_MAX, "write-buffer entry bank %u way %d: warp %d r%d, waiting for its result", b, way, e.warp, e.reg);
	}
	if (!first.valid)
		return;
	int v = vmb_oldest(s, sm, first.warp, first.reg);
	const struct warp *fw = first.warp >= 0 && first.warp < s->cfg.core.warps_per_sm ? &sm->w[first.warp] : NULL;
	if (v >= 0)
		why_chain_vmb(s, sm, v, "the first entry's result: ", c);
	else if (fw && fw->rf_collect)
		why_add(c, UINT64_MAX,
		    "warp %d is still reading the operands of the instruction it issued (until cycle %llu); r%d's result comes "
		    "after that instruction executes",
		    first.warp, (unsigned long long)fw->busy_until, first.reg);
	else
		why_add(c, UINT64_MAX, "no load into r%d of warp %d is pending: its result comes from an ALU or shared-memory instruction",
		    first.reg, first.warp);
}

static const char *const sched_names[] = {"lrr", "gto", "two_level", "vws", "rmws", "tbas", "ccws"};

/* What a warp's why-chain helpers share. */
struct why_ctx {
	const struct sim *s;
	const struct sm *sm;
	int smi, slot;
	const struct warp *w;
	const struct warp_info *wi;
	uint64_t since;
};

/* Barrier: how many arrived, and the first warp of the CTA still on its way. */
static void why_barrier(const struct why_ctx *x, struct chain *c)
{
	const struct sim *s = x->s;
	const struct sm *sm = x->sm;
	int smi = x->smi;
	int slot = x->slot;
	const struct warp *w = x->w;
	uint64_t since = x->since;
	const struct cta_slot *cs = &sm->cta[w->cta_slot];
	why_add(c, since, "warp %d waits at a barrier (barrier)", slot);
	why_add(c, since, "CTA %d: %u of %u warps arrived", (int)w->kw.cta, cs->nbar, cs->nwarps - cs->ndone);
	for (int i = 0; i < s->cfg.core.warps_per_sm; i++) {
		const struct warp *o = &sm->w[i];
		if (o->state == WSL_ACTIVE && o->cta_slot == w->cta_slot && !o->at_barrier) {
			struct warp_info oi;
			inspect_warp(s, smi, i, &oi);
			why_add(c, o->stall_start, "not yet arrived: warp %d (%s, next `%s`)", i,
			    o->stall == STALL_NONE ? "ready" : stall_reason_name(o->stall), oi.next_text);
			why_tgt(c, WT_WARP, smi, -1, i, 0);
			break;
		}
	}
}

/* Scoreboard: the register waited on and the load that will write it. */
static void why_scoreboard(const struct why_ctx *x, struct chain *c)
{
	const struct sim *s = x->s;
	const struct sm *sm = x->sm;
	int slot = x->slot;
	const struct warp *w = x->w;
	const struct warp_info *wi = x->wi;
	uint64_t since = x->since;
	int reg = -1;
	for (unsigned i = 0; i < w->ibh.nsrc && reg < 0; i++)
		if (w->pend[w->ibh.src[i] >> 6] >> (w->ibh.src[i] & 63) & 1)
			reg = w->ibh.src[i];
	bool waw = reg < 0;
	if (waw)
		reg = w->ibh.dst;
	why_add(c, since, "warp %d waits on r%d (scoreboard%s) for `%s`", slot, reg, waw ? ", result register" : "",
	    wi->next_text);
	int v = vmb_oldest(s, sm, slot, reg);
	if (v >= 0)
		why_chain_vmb(s, sm, v, "", c);
	else
		why_add(c, UINT64_MAX, "the load into r%d has completed; the register is written this cycle", reg);
}

/* Memory instruction buffer full (or behind a full L1 MSHR file): its oldest entry. */
static void why_mem(const struct why_ctx *x, struct chain *c)
{
	const struct sim *s = x->s;
	const struct sm *sm = x->sm;
	int smi = x->smi;
	int slot = x->slot;
	const struct warp *w = x->w;
	const struct warp_info *wi = x->wi;
	uint64_t since = x->since;
	int cap = s->cfg.core.mem_inflight;
	why_add(c, since, "warp %d cannot issue `%s`: memory instruction buffer full (%d of %d)%s", slot, wi->next_text,
	    sm->vmb_count, cap, w->stall == STALL_MSHR_FULL ? " behind a full L1 MSHR file" : "");
	if (w->stall == STALL_MSHR_FULL)
		why_add(c, UINT64_MAX, "L1 MSHR file: %u of %u entries used, %u request%s waiting for one", sm->l1.m.used,
		    (unsigned)s->cfg.l1.mshr_entries, sm->l1.waitq.n, WHY_S(sm->l1.waitq.n));
	if (w->stall == STALL_MSHR_FULL)
		why_tgt(c, WT_L1_MSHR, smi, -1, -1, 0);
	int old = vmb_oldest(s, sm, -1, -1);
	if (old >= 0)
		why_chain_vmb(s, sm, old, "oldest in the buffer: ", c);
}

/* Execution units (core.op_model = units): a result register not yet
 * written, the instruction's unit busy, or the result table full. */
static bool why_unit(const struct why_ctx *x, struct chain *c)
{
	const struct sim *s = x->s;
	const struct warp *w = x->w;
	struct opu_wait ow;
	opu_wait(s, x->sm, x->slot, &w->ib, &ow);
	const struct core_cfg *cc = &s->cfg.core;
	unsigned u = w->ib.unit < KU__COUNT ? w->ib.unit : KU_SP;
	switch (ow.kind) {
	case OPU_DEP:
		why_add(c, x->since, "warp %d waits for r%d, an ALU result, for `%s` (alu)", x->slot, ow.reg, x->wi->next_text);
		why_add(c, UINT64_MAX, "r%d is written at cycle %llu (its unit's latency, core.op_<unit>_latency)", ow.reg,
		    (unsigned long long)ow.until);
		return true;
	case OPU_UNIT:
		why_add(c, x->since, "warp %d cannot issue `%s`: its %s unit is busy (alu)", x->slot, x->wi->next_text,
		    kunit_name(ow.unit));
		why_add(c, UINT64_MAX, "%s units%s (%d per SM%s): the next instruction enters at cycle %llu; %s initiation interval %d",
		    kunit_name(ow.unit), ow.unit != u ? ", which run this class," : "", cc->op_units[ow.unit],
		    cc->op_sub_core ? ", split among the schedulers" : "", (unsigned long long)ow.until, kunit_name(u),
		    cc->op_initiation[u]);
		return true;
	case OPU_FULL:
		why_add(c, x->since, "warp %d has %d ALU results in flight, the most it holds (alu)", x->slot, OPU_RES);
		why_add(c, UINT64_MAX, "the first is written at cycle %llu", (unsigned long long)ow.until);
		return true;
	default:
		return false;
	}
}

/* ALU busy, or a memory instruction still in the issue stage. */
static void why_alu(const struct why_ctx *x, struct chain *c)
{
	int slot = x->slot;
	const struct warp *w = x->w;
	uint64_t since = x->since;
	if (x->sm->opu && w->busy_until <= x->s->st->now && w->ib_valid && why_unit(x, c))
		return;
	if (w->busy_op != KOP_ALU) { /* a memory instruction's issue slots (core.issue_cycles) */
		why_add(c, since, "warp %d waits while its last instruction leaves the issue stage (alu)", slot);
		why_add(c, w->issue_cycle, "instruction issued at cycle %llu occupies the issue stage until cycle %llu",
		    (unsigned long long)w->issue_cycle, (unsigned long long)w->busy_until);
		return;
	}
	if (x->sm->opu) { /* units: the warp's own issue slots; the unit and result are opunit.c's */
		why_add(c, since, "warp %d waits while its ALU instruction leaves the issue stage (alu)", slot);
		why_add(c, w->issue_cycle, "ALU instruction issued at cycle %llu occupies the warp's issue slots until cycle %llu",
		    (unsigned long long)w->issue_cycle, (unsigned long long)w->busy_until);
		return;
	}
	why_add(c, since, "warp %d waits for its ALU instruction to finish (alu)", slot);
	why_add(c, w->issue_cycle, "ALU instruction issued at cycle %llu busy until cycle %llu",
	    (unsigned long long)w->issue_cycle, (unsigned long long)w->busy_until);
}

/* Shared memory: the busy cycle and the bank-conflict degree. */
static void why_shmem(const struct why_ctx *x, struct chain *c)
{
	const struct sim *s = x->s;
	int slot = x->slot;
	const struct warp *w = x->w;
	uint64_t since = x->since;
	unsigned p = w->shmem_passes ? w->shmem_passes : 1;
	why_add(c, since, "warp %d waits for shared memory (shmem)", slot);
	why_add(c, w->issue_cycle, "shared-memory %s issued at cycle %llu busy until cycle %llu", w->busy_op == KOP_STSH ? "store" : "load",
	    (unsigned long long)w->issue_cycle, (unsigned long long)w->busy_until);
	if (p > 1)
		why_add(c, w->issue_cycle,
		    "%u-way bank conflict: the busiest of the %d banks holds %u distinct words, %u passes (latency %d + %u cycles)",
		    p, s->cfg.core.shmem_banks, p, p, s->cfg.core.shmem_latency, p - 1);
	else
		why_add(c, w->issue_cycle, "no bank conflict: one pass over the %d banks (latency %d)", s->cfg.core.shmem_banks,
		    s->cfg.core.shmem_latency);
}

/* Register file: operand collection, a result write, or a queued bank request. */
static void why_rf(const struct why_ctx *x, struct chain *c)
{
	const struct sim *s = x->s;
	const struct sm *sm = x->sm;
	int smi = x->smi;
	int slot = x->slot;
	const struct warp *w = x->w;
	const struct warp_info *wi = x->wi;
	uint64_t since = x->since;
	why_add(c, since, "warp %d waits for the register file (rf)", slot);
	if (w->rf_collect) {
		why_add(c, w->issue_cycle, "operands of the instruction issued at cycle %llu being read until cycle %llu",
		    (unsigned long long)w->issue_cycle, (unsigned long long)w->busy_until);
	} else if (w->busy_until > s->st->now) {
		why_add(c, w->issue_cycle, "result write until cycle %llu", (unsigned long long)w->busy_until);
	} else {
		rf_block_link(s, sm, slot, wi->next_text, c);
	}
	if (sm->rf) {
		for (int b = 0; b < 64; b++) {
			struct rf_bank_info bi;
			struct rf_req_info q;
			if (!inspect_rf_bank(s, smi, b, &bi))
				break;
			for (int i = 0; inspect_rf_req(s, smi, b, i, &q); i++)
				if (q.warp == slot) {
					why_deft(c, WT_RF_BANK, smi, b, -1, 0);
					why_add(c, UINT64_MAX,
					    "RF bank %d: r%d %s at position %d of %d%s, port at BML %d, wants %d (%d bit%s)", b, q.reg,
					    q.write ? "write" : "read", i + 1, bi.queued, bi.shifting ? " (bank shifting)" : "",
					    bi.loc, q.bml, q.dist, WHY_S(q.dist));
					b = 64;
					break;
				}
		}
	}
}

/* Instruction buffer empty (l1i.enabled): the warp's fetch, its L1I MSHR
 * entry, and the request it waits for on its way to the L2 and DRAM. */
static void why_fetch(const struct why_ctx *x, struct chain *c)
{
	const struct sim *s = x->s;
	const struct sm *sm = x->sm;
	const struct warp *w = x->w;
	const struct l1 *l = &sm->l1;
	uint64_t pc = w->ib_valid ? fetch_pc(s, &w->ib) : w->ibpc;
	why_add(c, x->since, "warp %d has an empty instruction buffer: it waits for `%s` (code address 0x%llx) to be fetched",
	    x->slot, x->wi->next_text, (unsigned long long)pc);
	if (w->fst == FS_HIT) {
		why_add(c, UINT64_MAX, "L1I hit: the instructions reach the buffer at cycle %llu (l1i.hit_latency = %d)",
		    (unsigned long long)w->f_ready, s->cfg.l1i.hit_latency);
		return;
	}
	if (w->fst == FS_IDLE) {
		why_add(c, UINT64_MAX, "waiting for the fetch unit: %d lookup%s per cycle, warps in turn (last served: warp %d); "
			"L1I MSHR %u of %u used", s->cfg.l1i.fetch_width, s->cfg.l1i.fetch_width == 1 ? "" : "s",
		    (int)sm->l1i.last_fetched, sm->l1i.m.used, sm->l1i.m.n);
		return;
	}
	uint64_t line = w->f_line;
	why_deft(c, WT_LINE, -1, (int)icnt_bank_of(s, line), -1, line);
	uint32_t e = mshr_find(&sm->l1i.m, line, 0);
	if (e != REQ_NIL)
		why_add(c, sm->l1i.m.e[e].t_alloc, "L1I miss on code line 0x%llx: L1I MSHR entry %u, %u warp%s waiting for it",
		    (unsigned long long)line, e, sm->l1i.m.e[e].merged, sm->l1i.m.e[e].merged == 1 ? "" : "s");
	int pos;
	if (why_queue_find_line(s, &l->missq, line, &pos) != REQ_NIL) {
		why_add(c, UINT64_MAX, "the fetch waits in sm%d's miss queue for the crossbar (position %d of %u)", sm->id, pos + 1,
		    l->missq.n);
		return;
	}
	uint32_t ri = why_queue_find_line(s, &l->retryq, line, &pos);
	if (ri != REQ_NIL) {
		why_nack_link(s, l, ri, pos, c);
		return;
	}
	ri = why_queue_find_line(s, &l->fillq, line, &pos);
	if (ri != REQ_NIL) {
		why_add(c, UINT64_MAX, "the line's reply is in the crossbar: it reaches the L1I at cycle %llu",
		    (unsigned long long)s->pool.r[ri].t_ready);
		return;
	}
	why_chain_l2(s, line, sm->id, true, c);
}

/* Held back by the scheduler: which one, and its rule. */
static void why_inactive(const struct why_ctx *x, struct chain *c)
{
	const struct sim *s = x->s;
	int slot = x->slot;
	uint64_t since = x->since;
	unsigned p = (unsigned)s->cfg.core.scheduler;
	const struct warp *w = x->w;
	if (!w->insts && w->busy_until > s->st->now) {
		why_add(c, since, "warp %d waits for its CTA to launch (inactive)", slot);
		why_add(c, w->launch_cycle, "CTA %u dispatched at cycle %llu; its warps issue from cycle %llu (core.cta_launch_latency %d)",
		    (unsigned)w->kw.cta, (unsigned long long)w->launch_cycle, (unsigned long long)w->busy_until,
		    s->cfg.core.cta_launch_latency);
		return;
	}
	why_add(c, since, "warp %d is ready but held back by the %s scheduler (inactive)", slot,
	    p < sizeof sched_names / sizeof *sched_names ? sched_names[p] : "?");
	if (p == SCHED_CCWS)
		why_add(c, UINT64_MAX, "CCWS throttles its loads (lost-locality scores above the cutoff)");
	else if (p == SCHED_VWS)
		why_add(c, UINT64_MAX, "VWS: outside the active window");
	else
		why_add(c, UINT64_MAX, "outside the active pool / running set; it joins when a member stalls on memory");
}

/* A slot with no warp in it, or whose warp has exited: says so and returns
 * true; false for a live warp. */
static bool why_no_live_warp(const struct sim *s, const struct sm *sm, int smi, int slot, struct chain *c)
{
	const struct warp *w = &sm->w[slot];
	if (w->state == WSL_EMPTY) {
		why_add(c, UINT64_MAX, "sm%d slot %d holds no warp: %u of %u CTAs dispatched, none waiting fits this SM now", smi,
		    slot, s->st->ctas_dispatched, s->nctas);
		return true;
	}
	if (w->state == WSL_DONE) {
		const struct cta_slot *cs = &sm->cta[w->cta_slot];
		why_add(c, w->issue_cycle, "warp %d (CTA %d) has exited; its slot waits for CTA %d's other warps (%u of %u done)",
		    slot, (int)w->kw.cta, (int)w->kw.cta, cs->ndone, cs->nwarps);
		return true;
	}
	return false;
}

/* The reason to explain, and since when. w->stall is the scheduler's last
 * evaluation: an instruction issued this cycle (a breakpoint stop at its
 * event) already occupies the warp. */
static unsigned stall_now(const struct sim *s, const struct warp *w, uint64_t *since)
{
	unsigned reason = w->stall;
	*since = w->stall_start;
	if (reason == STALL_NONE && w->busy_until > s->st->now) {
		reason = w->rf_collect ? STALL_RF
			 : w->busy_op == KOP_LDSH || w->busy_op == KOP_STSH ? STALL_SHMEM
									     : STALL_ALU;
		*since = w->issue_cycle;
	}
	return reason;
}

/* The chain from link 0 on, by what the warp waits for. */
static void why_reason(const struct why_ctx *x, unsigned reason, struct chain *c)
{
	switch (reason) {
	case STALL_NONE:
		why_add(c, x->w->issue_cycle, "warp %d is not stalled: ready to issue `%s`", x->slot, x->wi->next_text);
		break;
	case STALL_BARRIER:
		why_barrier(x, c);
		break;
	case STALL_SCOREBOARD:
		why_scoreboard(x, c);
		break;
	case STALL_MEM:
	case STALL_MSHR_FULL:
		why_mem(x, c);
		break;
	case STALL_ALU:
		why_alu(x, c);
		break;
	case STALL_SHMEM:
		why_shmem(x, c);
		break;
	case STALL_RF:
		why_rf(x, c);
		break;
	case STALL_INACTIVE:
		why_inactive(x, c);
		break;
	case STALL_FETCH:
		why_fetch(x, c);
		break;
	default:
		why_add(c, x->since, "warp %d: %s", x->slot, stall_reason_name(x->w->stall));
		break;
	}
}

int inspect_why_warp(const struct sim *s, int smi, int slot, struct why_link *out, int max)
{
	if (smi < 0 || smi >= s->cfg.core.sms || slot < 0 || slot >= s->cfg.core.warps_per_sm || max <= 0)
		return 0;
	struct chain c = {out, 0, max, {0}};
	const struct sm *sm = &s->sms[smi];
	why_deft(&c, WT_WARP, smi, -1, slot, 0);
	const struct warp *w = &sm->w[slot];
	struct warp_info wi;
	inspect_warp(s, smi, slot, &wi);
	if (why_no_live_warp(s, sm, smi, slot, &c))
		return c.n;
	uint64_t since;
	unsigned reason = stall_now(s, w, &since);
	const struct why_ctx x = {s, sm, smi, slot, w, &wi, since};
	why_reason(&x, reason, &c);
	return c.n;
}

int inspect_why_line(const struct sim *s, uint64_t addr, int smi, struct why_link *out, int max)
{
	if (max <= 0)
		return 0;
	struct chain c = {out, 0, max, {0}};
	uint64_t line = addr & ~(uint64_t)(s->cfg.l2.line - 1);
	why_deft(&c, WT_LINE, -1, (int)icnt_bank_of(s, line), -1, line);
	why_add(&c, UINT64_MAX, "line 0x%llx (address 0x%llx)", (unsigned long long)line, (unsigned long long)addr);
	int before = c.n;
	for (int i = 0; i < s->cfg.core.sms && s->cfg.l1.enabled; i++) {
		if (smi >= 0 && i != smi)
			continue;
		const struct l1 *l = &s->sms[i].l1;
		uint32_t e = mshr_find(&l->m, line, 0);
		if (e != REQ_NIL) {
			const struct mshr_ent *m = &l->m.e[e];
			why_add(&c, m->t_alloc, "sm%d L1 MSHR entry %u (%u merged, %s)", i, e, m->merged,
			    m->sent ? "fetch sent" : "fetch waiting for the crossbar");
			why_tgt(&c, WT_L1_MSHR, i, -1, (int)e, 0);
		}
		int pos;
		uint32_t r = why_queue_find_line(s, &l->waitq, line, &pos);
		if (r != REQ_NIL)
			why_add(&c, UINT64_MAX, "sm%d L1: a request waits for an MSHR entry (position %d of %u, %u of %u used)", i,
			    pos + 1, l->waitq.n, l->m.used, (unsigned)s->cfg.l1.mshr_entries);
		if (r != REQ_NIL)
			why_tgt(&c, WT_L1_MSHR, i, -1, -1, 0);
		r = why_queue_find_line(s, &l->lsu, line, &pos);
		if (r != REQ_NIL) /* just coalesced: queued for its L1 lookup */
			why_add(&c, s->pool.r[r].t_issue, "sm%d L1: a request of warp %u queued for its lookup (position %d of %u, ready at cycle %llu)",
			    i, s->pool.r[r].warp, pos + 1, l->lsu.n, (unsigned long long)s->pool.r[r].t_ready);
		r = why_queue_find_line(s, &l->missq, line, &pos);
		if (r != REQ_NIL)
			why_add(&c, s->pool.r[r].t_issue, "sm%d L1: a request of warp %u queued for the crossbar (position %d of %u)", i,
			    s->pool.r[r].warp, pos + 1, l->missq.n);
		r = why_queue_find_line(s, &l->retryq, line, &pos);
		if (r != REQ_NIL)
			why_add(&c, UINT64_MAX, "sm%d L1: a NACKed request waits to be re-sent at cycle %llu", i,
			    (unsigned long long)s->pool.r[r].t_ready);
		if (r != REQ_NIL)
			why_tgt(&c, WT_L1_MSHR, i, -1, -1, 0);
	}
	why_chain_l2(s, line, smi, c.n > before, &c);
	return c.n;
}

int inspect_why_dram_bank(const struct sim *s, int ch, int bank, struct why_link *out, int max)
{
	struct dram_bank_info bi;
	if (max <= 0 || !s->dram || !dram_bank_info(s->dram, ch, bank, &bi))
		return 0;
	struct chain c = {out, 0, max, {0}};
	why_deft(&c, WT_DRAM_BANK, -1, ch, bank, 0);
	char open[48] = "no row open";
	if (bi.open_row >= 0)
		snprintf(open, sizeof open, "row %lld open", (long long)bi.open_row);
	why_add(&c, UINT64_MAX, "DRAM ch%d bank %d: %s, %s, %d queued, last command %s at cycle %llu", ch, bank,
	    dram_bank_state_name(bi.state), open, bi.queue, bi.last_cmd[0] ? bi.last_cmd : "-",
	    (unsigned long long)bi.last_cmd_cycle);
	struct dram_qreq_info q[1];
	if (inspect_dram_queue(s, ch, bank, q, 1) > 0) {
		char head[96];
		why_row_words(bi.open_row, (uint32_t)q[0].row, head, sizeof head);
		why_add(&c, s->st->now - q[0].age, "first in queue: %s 0x%llx, %s%s", q[0].write ? "write" : "read",
		    (unsigned long long)q[0].addr, head, q[0].started ? ", its column command has begun" : "");
		uint64_t line = q[0].addr & ~(uint64_t)(s->cfg.l2.line - 1);
		why_tgt(&c, WT_LINE, -1, (int)icnt_bank_of(s, line), -1, line);
	}
	struct dram_pick_info pk;
	if (inspect_dram_pick(s, ch, bank, &pk) && pk.cmd[0]) {
		char when[32] = "now";
		if (pk.next_in > 0)
			snprintf(when, sizeof when, "in %d cycle%s", pk.next_in, WHY_S(pk.next_in));
		why_add(&c, UINT64_MAX, "next: %s %s (%s)", pk.cmd, when, pk.why);
	}
	return c.n;
}

int inspect_why_l2_bank(const struct sim *s, int bank, struct why_link *out, int max)
{
	if (max <= 0 || bank < 0 || bank >= s->cfg.l2.banks)
		return 0;
	struct chain c = {out, 0, max, {0}};
	const struct l2bank *b = &s->banks[bank];
	why_deft(&c, WT_L2_BANK, -1, bank, -1, 0);
	why_add(&c, UINT64_MAX, "L2 bank %d: MSHR %u of %u used, input queue %u, memory queue %u", bank, b->m.used,
	    (unsigned)s->cfg.l2.mshr_entries,
	    b->inq.n, b->memq.n);
	char w[96];
	if (why_head_wait_words(s, b, w, sizeof w))
		why_add(&c, UINT64_MAX, "the request at the head of the input queue waits there for %s", w);
	if (b->frc.n) {
		int busy = 0;
		uint64_t oldest = UINT64_MAX;
		int old = -1;
		for (int i = 0; i < b->frc.n; i++) {
			struct frc_entry_info fe;
			if (inspect_frc_entry(s, bank, i, &fe) && fe.state != FRC_FREE) {
				busy++;
				if (s->st->now - fe.age < oldest) {
					oldest = s->st->now - fe.age;
					old = i;
				}
			}
		}
		why_add(&c, UINT64_MAX, "FRC: %d of %d entries busy", busy, b->frc.n);
		if (old >= 0) {
			struct frc_entry_info fe;
			inspect_frc_entry(s, bank, old, &fe);
			why_add(&c, oldest, "oldest busy FRC entry %d: %s line 0x%llx, %d waiting", old, frc_state_name((unsigned)fe.state),
			    (unsigned long long)fe.incoming, fe.waiters);
			why_tgt(&c, WT_FRC, -1, bank, old, 0);
		}
	}
	return c.n;
}

void inspect_sm_stalls(const struct sim *s, int smi, uint64_t out[STALL__COUNT])
{
	memset(out, 0, sizeof(uint64_t) * STALL__COUNT);
	if (smi < 0 || smi >= s->cfg.core.sms)
		return;
	memcpy(out, s->sms[smi].stall_cyc, sizeof(uint64_t) * STALL__COUNT);
}
