/*
 * core.c: streaming multiprocessors: CTA dispatch, warps, in-order issue with
 * a scoreboard, the vector memory buffer, barriers and completion.
 *
 * One warp instruction issues per scheduler per cycle (core.schedulers per
 * SM, scheduler k owning the warp slots w mod schedulers = k; sched.c). An
 * instruction occupies its
 * warp for warp_size/simd_width cycles (4 for a 64-wide wavefront on 16
 * lanes); `alu N` for N times that. Loads mark their destination register
 * pending until every request of the instruction has returned; a later
 * instruction reading or writing it stalls (`scoreboard`). Global memory
 * instructions hold a vector-memory-buffer entry (core.mem_inflight per SM,
 * freed in program order or, with core.mem_release = completion, each when
 * its instruction completes); with the buffer full, memory instructions stall
 * (`mem`, or `mshr_full` when the L1 is out of MSHRs). Shared-memory accesses
 * block their warp for shmem_latency + (passes - 1) cycles, passes being the
 * worst bank conflict degree.
 *
 * Exited warps count as arrived at barriers. A CTA completes when all its
 * warps exited and none has a request in flight; its slots then free up.
 *
 * Register file (regfile.h), when timed: issue queues the source reads at
 * the bank arbitrators; the instruction executes (the switch in execute())
 * in the core cycle its last operand has been read, the warp stalling `rf`
 * meanwhile. Results reach the register file when they are produced (end of
 * an ALU/shared op, load data), and the RF's capacity limits resident warps.
 */
#include <stdio.h>
#include <string.h>

#include "opunit.h"
#include "sim/sim_int.h"

_Static_assert((int)EVO_LD == KOP_LD && (int)EVO_ST == KOP_ST && (int)EVO_ATOM == KOP_ATOM && (int)EVO_LDSH == KOP_LDSH &&
		       (int)EVO_STSH == KOP_STSH && (int)EVO_ALU == KOP_ALU && (int)EVO_BAR == KOP_BAR && (int)EVO_EXIT == KOP_EXIT,
	       "warp.issue's op codes (evcode.h) are kernel.h's enum kop");

void sched_refill(struct sim *s, struct sm *sm);

static inline bool sb_test(const struct warp *w, unsigned r) { return (w->pend[r >> 6] >> (r & 63)) & 1; }
static inline void sb_set(struct warp *w, unsigned r) { w->pend[r >> 6] |= 1ull << (r & 63); }
static inline void sb_clear(struct warp *w, unsigned r) { w->pend[r >> 6] &= ~(1ull << (r & 63)); }

/* The warp masks of struct sm (wact, sb_wait, rdy; what they let core_tick
 * skip and why that changes nothing) are described in core_masks.c. */

/* Lowest set bit's index (m != 0). */
static inline int low_bit(uint64_t m) { return __builtin_ctzll(m); }

/* core.cta_dispatch alone decides, for every scheduler (VWS's InterCL
 * dispatch is this knob set to serial; it is not forced behind the user). */
static bool serial_dispatch(const struct sim *s) { return s->cfg.core.cta_dispatch == CTA_SERIAL; }

/* Serial dispatch: SM i runs the i-th contiguous share of kernel k's CTAs. */
static void serial_range(struct sim *s, struct sm *sm, uint32_t k)
{
	if (!serial_dispatch(s))
		return;
	uint64_t n = s->kfirst[k + 1] - s->kfirst[k], sms = (uint64_t)s->cfg.core.sms, i = (uint64_t)sm->id;
	sm->serial_next = s->kfirst[k] + (uint32_t)(n * i / sms);
	sm->serial_end = s->kfirst[k] + (uint32_t)(n * (i + 1) / sms);
}

void core_init(struct sim *s)
{
	const struct core_cfg *c = &s->cfg.core;
	s->id.cta_serial = stats_counter(&s->stats, "core.cta_dispatch_serial",
					 "CTA dispatch used: 1 serial (contiguous CTA ranges per SM), 0 round robin; always core.cta_dispatch");
	for (int i = 0; i < c->sms; i++) {
		struct sm *sm = &s->sms[i];
		sm->id = i;
		ARENA_SET(&s->arena, sm->w, struct warp, c->warps_per_sm);
		ARENA_SET(&s->arena, sm->cta, struct cta_slot, c->ctas_per_sm);
		ARENA_SET(&s->arena, sm->vmb, struct vmb_ent, c->mem_inflight);
		for (int k = 0; k < c->ctas_per_sm; k++)
			sm->cta[k].cta = -1;
		for (int k = 0; k < c->warps_per_sm; k++) {
			sm->w[k].cta_slot = -1;
			sm->w[k].stall_start = UINT64_MAX;
		}
		sm->last_issued = -1;
		for (int k = 0; k < 4; k++)
			sm->sched_last[k] = -1;
		sm->last_stall = STALL_DONE;
		vws_init(s, sm);
		ccws_init(s, sm);
		serial_range(s, sm, 0);
		char name[64];
		snprintf(name, sizeof name, "sm%d.insts", i);
		sm->st_insts = stats_counter(&s->stats, name, "warp instructions issued by this SM");
		snprintf(name, sizeof name, "sm%d.issue_cycles", i);
		sm->st_issue_cycles = stats_counter(&s->stats, name, "cycles this SM issued an instruction");
	}
	opu_init(s);
	s->id.warp_mem_stall = stats_counter(&s->stats, "core.warp_mem_stall_cycles",
					     "cycles warps waited on memory (a load's register, memory buffer full, MSHR full), summed at exit");
	s->id.warp_other_stall = stats_counter(&s->stats, "core.warp_other_stall_cycles",
					       "cycles warps could not issue for other reasons (ALU, shared memory, barrier, register file, scheduler), summed at exit");
	s->id.warp_compute = stats_counter(&s->stats, "core.warp_compute_cycles",
					   "warp cycles from launch to exit not stalled on memory (issuing and other stalls), summed at exit");
	for (int k = 0; c->schedulers > 1 && k < c->schedulers; k++) {
		char name[64];
		snprintf(name, sizeof name, "core.sched%d.insts", k);
		s->id.sched_insts[k] =
			stats_counter(&s->stats, name, "warp instructions issued by scheduler k of every SM (core.schedulers > 1)");
	}
}

/* The shape of the kernel being dispatched (wl_ops.kernel_shape). */
static bool cta_fits(const struct sim *s, const struct sm *sm)
{
	const struct core_cfg *c = &s->cfg.core;
	uint32_t k = s->st->kernel;
	int wpc = (int)s->kwpc[k];
	if (sm->ctas_active >= c->ctas_per_sm)
		return false;
	if (c->warps_per_sm - sm->nwarps_active < wpc)
		return false;
	if (sm->threads_used + (int)s->ktpc[k] > c->threads_per_sm)
		return false;
	if (sm->shmem_used + (int)s->kshmem[k] > c->shmem_per_sm)
		return false;
	if (rf_timed(s) && sm->nwarps_active + wpc > s->rfm->map_warps)
		return false;
	return true;
}

static void cta_launch(struct sim *s, struct sm *sm, uint32_t cta)
{
	const struct core_cfg *c = &s->cfg.core;
	uint32_t k = s->st->kernel, wpc = s->kwpc[k];
	int cs = 0;
	while (sm->cta[cs].cta >= 0)
		cs++;
	struct cta_slot *slot = &sm->cta[cs];
	/* Field by field after a memset: padding must be zero (the arena is hashed). */
	memset(slot, 0, sizeof *slot);
	slot->cta = (int32_t)cta;
	slot->nwarps = (uint16_t)wpc;
	slot->threads = s->ktpc[k];
	slot->shmem = s->kshmem[k];
	uint32_t wi = 0;
	for (int kk = 0; kk < c->warps_per_sm && wi < wpc; kk++) {
		struct warp *w = &sm->w[kk];
		if (w->state != WSL_EMPTY)
			continue;
		memset(w, 0, sizeof(*w));
		s->wops->warp_start(s->wimpl, &w->kw, cta, wi++, (unsigned)c->warp_size);
		w->state = WSL_ACTIVE;
		w->cta_slot = (int16_t)cs;
		w->age = s->st->age_counter++;
		w->launch_cycle = s->st->now;
		w->stall_start = UINT64_MAX;
		if (c->cta_launch_latency) /* waits as `inactive` until then (warp_blocker) */
			w->busy_until = s->st->now + (uint64_t)c->cta_launch_latency;
		sm->wact |= 1ull << kk;
		sm->fwant |= 1ull << kk;
		sm->sb_wait &= ~(1ull << kk);
		sm->rdy &= ~(1ull << kk);
		ccws_on_launch(s, sm, kk);
		sm->nwarps_active++;
	}
	sm->ctas_active++;
	sm->threads_used += (int)slot->threads;
	sm->shmem_used += (int)slot->shmem;
	s->st->ctas_dispatched++;
	sm_wake(sm);
	sim_act_sm(s, sm);
	EV_EMIT(&s->ev, EV_CTA_LAUNCH, .cycle = s->st->now, .sm = (int16_t)sm->id, .a = cta);
	sched_refill(s, sm);
	sim_progress(s);
}

/* Back-to-back kernels (wl_ops.nkernels): kernel k begins once every CTA of
 * kernel k-1 has finished and, with mem.kernel_end = drained, the memory
 * system is idle (sim_mem_idle); the host copies before it are applied and its
 * serial dispatch ranges set then. */
static void kernel_begin(struct sim *s, uint32_t k)
{
	struct state *st = s->st;
	hostcopy_run(s, k); /* the MemcpyHtoD lines before it (hostcopy.h) */
	st->kernel = k;
	st->kernels_begun = k + 1;
	st->kernel_start = st->now;
	if (k > 0)
		for (int i = 0; i < s->cfg.core.sms; i++)
			serial_range(s, &s->sms[i], k);
	EV_EMIT(&s->ev, EV_KERNEL_START, .cycle = st->now, .a = k);
	sim_progress(s);
}

/* core.kernel_launch_latency: the current kernel's CTAs dispatch from
 * kernel_start + latency on (the run's start for the first kernel, the
 * previous kernel's end for the others, as GPGPU-Sim counts it down from
 * the launch it accepts once the previous kernel is done). */
static bool launch_wait(struct sim *s)
{
	uint64_t t = s->st->kernel_start + (uint64_t)s->cfg.core.kernel_launch_latency;
	if (s->st->now >= t)
		return false;
	sim_wake_at(s, t);
	return true;
}

void core_dispatch(struct sim *s)
{
	struct state *st = s->st;
	int n = s->cfg.core.sms;
	s->stats.vals[s->stats.defs[s->id.cta_serial].slot] = serial_dispatch(s);
	if (st->ctas_dispatched >= s->nctas)
		return;
	if (s->nk > 1) {
		if (st->ctas_dispatched == s->kfirst[st->kernel + 1]) { /* kernel boundary */
			if (st->ctas_done < st->ctas_dispatched)
				return;
			/* mem.kernel_end = drained: the kernel ends when the memory
			 * system is idle too, as the run's last kernel does. */
			if (s->cfg.mem.kernel_end == MEMKE_DRAINED && !sim_mem_idle(s))
				return;
			if (!coh_kernel_boundary(s)) /* release, acquire (coh_kflush.c) */
				return;
			kernel_begin(s, st->kernel + 1);
		} else if (st->kernels_begun == 0) {
			kernel_begin(s, 0);
		}
	} else if (st->copies_done < s->wl.ncopies) {
		hostcopy_run(s, 0);
	}
	if (launch_wait(s))
		return;
	uint32_t end = s->kfirst[st->kernel + 1];
	if (serial_dispatch(s)) {
		for (int i = 0; i < n; i++) {
			struct sm *sm = &s->sms[i];
			if (sm->serial_next < sm->serial_end && cta_fits(s, sm))
				cta_launch(s, sm, sm->serial_next++);
		}
		return;
	}
	/* Round robin: at most one CTA per SM per cycle, in global CTA order. */
	uint32_t start = st->rr_sm;
	for (int k = 0; k < n && st->ctas_dispatched < end; k++) {
		struct sm *sm = &s->sms[(start + (uint32_t)k) % (uint32_t)n];
		if (cta_fits(s, sm)) {
			cta_launch(s, sm, st->ctas_dispatched);
			st->rr_sm = (uint32_t)(sm->id + 1) % (uint32_t)n;
		}
	}
}

static void cta_maybe_done(struct sim *s, struct sm *sm, int cs)
{
	struct cta_slot *c = &sm->cta[cs];
	if (c->cta < 0 || c->ndone < c->nwarps)
		return;
	for (int k = 0; k < s->cfg.core.warps_per_sm; k++)
		if (sm->w[k].cta_slot == cs && sm->w[k].outstanding)
			return;
	for (int k = 0; k < s->cfg.core.warps_per_sm; k++) {
		struct warp *w = &sm->w[k];
		if (w->cta_slot != cs)
			continue;
		w->state = WSL_EMPTY;
		w->cta_slot = -1;
		w->in_pool = 0;
		sm->nwarps_active--;
	}
	EV_EMIT(&s->ev, EV_CTA_DONE, .cycle = s->st->now, .sm = (int16_t)sm->id, .a = c->cta);
	sm->ctas_active--;
	sm->threads_used -= (int)c->threads;
	sm->shmem_used -= (int)c->shmem;
	c->cta = -1;
	if (par_cur) /* a threaded SM phase (par.h): counted after it; a single kernel only */
		par_cur->sm->ctas_done++, par_cur->sm->dirty = true;
	else
		s->st->ctas_done++;
	if (s->nk > 1 && s->st->ctas_done == s->kfirst[s->st->kernel + 1]) /* the kernel's last CTA */
		stat_add(&s->stats, s->kcycles_id[s->st->kernel], s->st->now - s->st->kernel_start);
	sm_wake(sm);
	sim_progress(s);
}

static void barrier_check(struct sim *s, struct sm *sm, int cs)
{
	struct cta_slot *c = &sm->cta[cs];
	if (c->nbar == 0 || c->nbar + c->ndone < c->nwarps)
		return;
	for (int k = 0; k < s->cfg.core.warps_per_sm; k++)
		if (sm->w[k].cta_slot == cs)
			sm->w[k].at_barrier = 0;
	c->nbar = 0;
	sm_wake(sm);
	EV_EMIT(&s->ev, EV_BARRIER, .cycle = s->st->now, .sm = (int16_t)sm->id, .a = c->cta);
}

/* A free buffer entry: the ring's tail (in_order), else the lowest free slot. */
static int vmb_alloc(const struct sim *s, const struct sm *sm)
{
	int cap = s->cfg.core.mem_inflight;
	if (s->cfg.core.mem_release == MEMREL_IN_ORDER)
		return (sm->vmb_head + sm->vmb_count) % cap;
	int vi = 0;
	while (sm->vmb[vi].valid)
		vi++;
	return vi;
}

/* Retire finished entries: in program order from vmb_head (in_order), or
 * entry vi alone as soon as it is done (completion). */
static void vmb_retire(struct sim *s, struct sm *sm, int vi)
{
	int cap = s->cfg.core.mem_inflight;
	if (s->cfg.core.mem_release == MEMREL_COMPLETION) {
		sm->vmb[vi].valid = 0;
		sm->vmb_count--;
		return;
	}
	while (sm->vmb_count && sm->vmb[sm->vmb_head].done) {
		stat_add(&s->stats, s->id.mem_release_wait, s->st->now - sm->vmb[sm->vmb_head].t_done);
		sm->vmb[sm->vmb_head].valid = 0;
		sm->vmb_head = (sm->vmb_head + 1) % cap;
		sm->vmb_count--;
	}
}

static void vmb_complete(struct sim *s, struct sm *sm, int vi)
{
	struct vmb_ent *e = &sm->vmb[vi];
	if (e->done)
		return;
	e->done = 1;
	e->t_done = s->st->now;
	sm_wake(sm);
	struct warp *w = &sm->w[e->warp];
	if (e->op == KOP_LD || e->op == KOP_ATOM)
		sb_clear(w, e->dst);
	sm->sb_wait &= ~(1ull << e->warp); /* re-evaluate it (warp masks) */
	if (e->has_dst && sm->rf)
		rf_write(s, sm, e->warp, e->dst);
	uint64_t lat = s->st->now - e->t_issue;
	stat_hist_add(&s->stats, s->id.mem_lat, lat);
	stat_add(&s->stats, s->id.mem_lat_total, lat);
	stat_inc(&s->stats, s->id.mem_done);
	stat_max(&s->stats, s->id.mem_lat_max, lat);
	vmb_retire(s, sm, vi);
}

void core_req_done(struct sim *s, uint32_t ri)
{
	struct req *r = &s->pool.r[ri];
	struct sm *sm = &s->sms[r->sm];
	struct warp *w = &sm->w[r->warp];
	struct vmb_ent *e = &sm->vmb[r->vmb];
	if (r->type == RQ_LD || r->type == RQ_ATOM)
		EV_EMIT(&s->ev, EV_MEM_REPLY, .cycle = s->st->now, .sm = (int16_t)r->sm, .warp = (int16_t)r->warp,
			.addr = r->addr, .a = (int64_t)(s->st->now - r->t_issue));
	w->outstanding--;
	bool nbs = r->type == RQ_ST && s->cfg.core.nonblocking_stores; /* entry already completed */
	if (!nbs && e->valid && e->warp == r->warp && e->pending) {
		e->pending--;
		if (e->pending == 0)
			vmb_complete(s, sm, r->vmb);
	}
	req_free(&s->pool, ri);
	sm_wake(sm);
	if (w->state == WSL_DONE && w->outstanding == 0)
		cta_maybe_done(s, sm, w->cta_slot);
	sim_progress(s);
}

/* Non-blocking stores: the buffer entry completes once the L1 took every request. */
void core_req_accepted(struct sim *s, uint32_t ri)
{
	struct req *r = &s->pool.r[ri];
	if (r->type != RQ_ST || !s->cfg.core.nonblocking_stores)
		return;
	struct sm *sm = &s->sms[r->sm];
	struct vmb_ent *e = &sm->vmb[r->vmb];
	if (e->valid && !e->done && e->unaccepted && --e->unaccepted == 0)
		vmb_complete(s, sm, r->vmb);
}

static unsigned shmem_passes(const struct sim *s, const struct winst *in)
{
	/* Distinct 4-byte words per bank; the busiest bank sets the passes. */
	unsigned nb = (unsigned)s->cfg.core.shmem_banks, worst = 0;
	uint64_t words[KMAX_LANES];
	int nw = 0;
	for (int l = 0; l < KMAX_LANES; l++) {
		if (!(in->active >> l & 1))
			continue;
		uint64_t wd = in->addr[l] >> 2;
		bool seen = false;
		for (int k = 0; k < nw; k++)
			if (words[k] == wd) {
				seen = true;
				break;
			}
		if (!seen)
			words[nw++] = wd;
	}
	unsigned per_bank[64] = {0}; /* core.shmem_banks <= 64 (hier_cfg.c) */
	for (int k = 0; k < nw; k++) {
		unsigned c = ++per_bank[words[k] % nb];
		if (c > worst)
			worst = c;
	}
	return worst ? worst : 1;
}

/* The warp's next instruction from its workload (ib, and ibh's copy). */
void core_load_ib(struct sim *s, struct warp *w)
{
	if (!s->wops->warp_next(s->wimpl, &w->kw, &w->ib))
		w->ib.op = KOP_EXIT;
	w->ib_valid = 1;
	w->ibh.op = w->ib.op;
	w->ibh.nsrc = w->ib.nsrc;
	w->ibh.ndst = w->ib.ndst;
	w->ibh.dst = w->ib.dst;
	memcpy(w->ibh.src, w->ib.src, sizeof w->ibh.src);
}

/* Why can't this warp issue now (STALL_NONE = it can)? Takes the next
 * instruction from the workload if needed; with l1i.enabled it must also be
 * in the warp's instruction buffer (fetch.c). */
static unsigned warp_blocker(struct sim *s, struct sm *sm, struct warp *w)
{
	uint64_t now = s->st->now;
	if (w->state != WSL_ACTIVE)
		return STALL_DONE;
	if (w->at_barrier)
		return STALL_BARRIER;
	if (w->busy_until > now) {
		sim_wake_at(s, w->busy_until);
		if (w->busy_until < sm->next_busy)
			sm->next_busy = w->busy_until;
		if (!w->insts) /* nothing issued yet: its CTA is launching (core.cta_launch_latency) */
			return STALL_INACTIVE;
		if (w->rf_collect)
			return STALL_RF;
		return w->busy_op == KOP_LDSH || w->busy_op == KOP_STSH ? STALL_SHMEM : STALL_ALU;
	}
	/* Outside the two-level active pool or the TBAS running set. */
	if ((s->cfg.core.scheduler == SCHED_TWO_LEVEL || s->cfg.core.scheduler == SCHED_TBAS) && !w->in_pool)
		return STALL_INACTIVE;
	if (sm->vws && !(sm->vws_mask >> (w - sm->w) & 1))
		return STALL_INACTIVE;
	if (!w->ib_valid)
		core_load_ib(s, w);
	if (l1i_active(&s->cfg) && !fetch_ready(s, sm, w))
		return STALL_FETCH;
	if (w->ibh.op == KOP_EXIT)
		return STALL_NONE;
	if (w->ibh.op == KOP_LD && sm->ccws && (sm->ccws->thr >> (w - sm->w) & 1))
		return STALL_INACTIVE; /* CCWS: loads held back */
	for (unsigned i = 0; i < w->ibh.nsrc; i++)
		if (sb_test(w, w->ibh.src[i]))
			return STALL_SCOREBOARD;
	if (w->ibh.ndst && sb_test(w, w->ibh.dst))
		return STALL_SCOREBOARD;
	if (sm->opu && w->ibh.op != KOP_EXIT && opu_blocker(s, sm, (int)(w - sm->w), &w->ib) != STALL_NONE)
		return STALL_ALU; /* an ALU result it needs, or its unit busy (opunit.c) */
	if (kop_is_global(w->ibh.op) && sm->vmb_count >= s->cfg.core.mem_inflight)
		return (sm->l1.waitq.n || mshr_full(&sm->l1.m, (uint32_t)s->cfg.l1.mshr_entries)) ? STALL_MSHR_FULL : STALL_MEM;
	if (sm->rf && rf_blocked(s, sm, (int)(w - sm->w), &w->ib))
		return STALL_RF;
	return STALL_NONE;
}

static void execute(struct sim *s, struct sm *sm, int slot);

static bool mem_stall(unsigned r) { return r == STALL_SCOREBOARD || r == STALL_MEM || r == STALL_MSHR_FULL; }

/* Close the warp's stall segment [stall_start, now) under its current reason. */
static void stall_close(struct warp *w, uint64_t now)
{
	if (w->stall_start == UINT64_MAX)
		return;
	uint64_t d = now - w->stall_start;
	if (mem_stall(w->stall))
		w->mem_stall_cycles += d;
	else
		w->other_stall_cycles += d;
	w->stall_start = UINT64_MAX;
}

/* The warp cannot issue at `now` for reason r: a change of reason closes the
 * segment so far, so each stretch counts under its own reason (a scoreboard
 * wait followed by lost arbitration is memory, then other). */
static void stall_set(struct warp *w, unsigned r, uint64_t now)
{
	if (w->stall_start != UINT64_MAX && w->stall != r)
		stall_close(w, now);
	if (w->stall_start == UINT64_MAX)
		w->stall_start = now;
	w->stall = (uint8_t)r;
}

/* The warp's reason becomes r (it was another, or it had issued): the event
 * the warps panel's state has, and for mshr_full the L1's counter too. */
static void stall_note(struct sim *s, struct sm *sm, int slot, unsigned r)
{
	if (sm->w[slot].stall == r || r == STALL_NONE)
		return;
	EV_EMIT(&s->ev, EV_WARP_STALL, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)slot, .a = r);
	if (r == STALL_MSHR_FULL) {
		const struct warp *w = &sm->w[slot]; /* its next instruction is a global access, addresses known */
		uint64_t a = w->ib_valid && w->ib.active ? w->ib.addr[__builtin_ctzll(w->ib.active)] : 0;
		l1_mshr_full_at_issue(s, sm, slot, a);
	}
}

static void issue(struct sim *s, struct sm *sm, int slot)
{
	uint64_t now = s->st->now;
	struct warp *w = &sm->w[slot];
	struct winst *in = &w->ib;
	w->ib_valid = 0;
	if (l1i_active(&s->cfg))
		fetch_on_issue(s, w);
	sm->fwant |= 1ull << slot;
	sm->rdy &= ~(1ull << slot);
	w->insts++;
	w->issue_cycle = now;
	stall_close(w, now);
	w->stall = STALL_NONE;
	sm->insts++;
	sm->last_issue_cycle = now;
	stat_inc(&s->stats, sm->st_insts);
	if (s->cfg.core.schedulers > 1)
		stat_inc(&s->stats, s->id.sched_insts[sched_of(s, slot)]);
	stat_inc(&s->stats, s->id.warp_insts);
	stat_add(&s->stats, s->id.thread_insts, (uint64_t)__builtin_popcountll(in->active));
	EV_EMIT(&s->ev, EV_WARP_ISSUE, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)slot, .a = in->stmt,
		.b = in->op);
	sched_on_issue(s, sm, slot);
	if (kop_is_global(in->op)) { /* the buffer entry is taken at issue, filled at execution */
		int vi = vmb_alloc(s, sm);
		sm->vmb_count++;
		struct vmb_ent *ve = &sm->vmb[vi];
		memset(ve, 0, sizeof *ve); /* padding zero: the arena is hashed */
		ve->valid = 1;
		ve->op = in->op;
		ve->warp = (uint16_t)slot;
		ve->t_issue = now;
		w->vmb_slot = (int16_t)vi;
	}
	uint64_t t = in->op == KOP_EXIT ? now : rf_issue(s, sm, slot, in);
	sim_progress(s);
	if (t > now) { /* operand collection: execute once the reads are done */
		w->rf_collect = 1;
		w->busy_until = t;
		return;
	}
	execute(s, sm, slot);
}

/* The execution part of an issued instruction (at issue, or when its
 * operands have been read). */
static void execute(struct sim *s, struct sm *sm, int slot)
{
	uint64_t now = s->st->now;
	struct warp *w = &sm->w[slot];
	struct winst *in = &w->ib;
	unsigned ic = s->issue_cycles;
	w->busy_until = now + ic;
	w->busy_op = in->op;
	switch (in->op) {
	case KOP_ALU:
		stat_inc(&s->stats, s->id.alu_insts);
		if (sm->opu)
			w->busy_until = now + opu_issue(s, sm, slot, in);
		else
			w->busy_until = now + (uint64_t)(in->alu_cycles ? in->alu_cycles : 1) * ic;
		if (in->ndst && sm->rf) {
			w->rf_wr_pend = 1;
			w->rf_wr_reg = in->dst;
		}
		break;
	case KOP_BAR:
		stat_inc(&s->stats, s->id.bar_insts);
		w->at_barrier = 1;
		sm->cta[w->cta_slot].nbar++;
		barrier_check(s, sm, w->cta_slot);
		break;
	case KOP_LDSH:
	case KOP_STSH: {
		stat_inc(&s->stats, s->id.shmem_insts);
		unsigned p = shmem_passes(s, in);
		w->shmem_passes = (uint8_t)(p > 255 ? 255 : p);
		if (p > 1) {
			stat_add(&s->stats, s->id.shmem_conflicts, p - 1);
			EV_EMIT(&s->ev, EV_SHMEM_CONFLICT, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)slot,
				.a = p);
		}
		w->busy_until = now + (uint64_t)s->cfg.core.shmem_latency + p - 1;
		if (w->busy_until < now + ic)
			w->busy_until = now + ic;
		if (in->ndst && in->op == KOP_LDSH && sm->rf) {
			w->rf_wr_pend = 1;
			w->rf_wr_reg = in->dst;
		}
		break;
	}
	case KOP_LD:
	case KOP_ST:
	case KOP_ATOM: {
		stat_inc(&s->stats, s->id.mem_insts);
		stat_inc(&s->stats, in->op == KOP_LD ? s->id.ld_insts : in->op == KOP_ST ? s->id.st_insts
											 : s->id.atom_insts);
		int vi = w->vmb_slot;
		struct vmb_ent *e = &sm->vmb[vi];
		e->dst = in->dst;
		e->has_dst = in->op != KOP_ST && in->ndst;
		if (in->op != KOP_ST && in->ndst)
			sb_set(w, in->dst);
		int n = coalesce_issue(s, sm, slot, in, vi);
		e->pending = (uint32_t)n;
		e->unaccepted = (uint32_t)n;
		w->outstanding += (uint32_t)n;
		if (n == 0)
			vmb_complete(s, sm, vi);
		break;
	}
	case KOP_EXIT:
	default: {
		/* issue() closed the last stall; the exit's issue cycle counts. */
		uint64_t span = w->issue_cycle + 1 - w->launch_cycle;
		stat_add(&s->stats, s->id.warp_mem_stall, w->mem_stall_cycles);
		stat_add(&s->stats, s->id.warp_other_stall, w->other_stall_cycles);
		stat_add(&s->stats, s->id.warp_compute, span - w->mem_stall_cycles);
		w->state = WSL_DONE;
		sm->wact &= ~(1ull << slot);
		w->stall = STALL_DONE;
		w->busy_until = now;
		sm->cta[w->cta_slot].ndone++;
		EV_EMIT(&s->ev, EV_WARP_DONE, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)slot);
		vws_on_warp_done(s, sm, slot);
		barrier_check(s, sm, w->cta_slot);
		if (w->outstanding == 0)
			cta_maybe_done(s, sm, w->cta_slot);
		sched_refill(s, sm);
		break;
	}
	}
	sim_progress(s);
}

/* Evaluate every active warp at the start of the issue stage: results of
 * finished register reads are written and operand collections that are
 * done execute; then each warp either is ready (its bit in the result) or
 * records its stall reason, counted per reason in count[]; *skipped gets
 * the warps still waiting on the scoreboard (warp masks), not looked at
 * and not yet counted. */
static uint64_t warps_evaluate(struct sim *s, struct sm *sm, unsigned *count, uint64_t *skipped)
{
	uint64_t now = s->st->now, ready = 0;
	bool sticky = core_masks_ok(s, sm), keep_rdy = sticky && !sm->rf && !sm->opu; /* units: another warp can take the unit */
	uint64_t skip = *skipped = sticky ? sm->sb_wait : 0, fast = keep_rdy ? sm->rdy : 0;
	bool vmb_full = sm->vmb_count >= s->cfg.core.mem_inflight;
	/* Only an exiting warp leaves wact during the loop, and only at its own
	 * turn, and the masks change only at the warp being looked at, so
	 * walking a copy visits what a walk of every slot would. */
	for (uint64_t m = sm->wact & ~skip; m; m &= m - 1) {
		int i = low_bit(m);
		struct warp *w = &sm->w[i];
		if ((fast >> i & 1) && !(vmb_full && kop_is_global(w->ibh.op))) { /* still ready (warp masks) */
			ready |= 1ull << i;
			continue;
		}
		if (w->busy_until <= now && (w->rf_wr_pend || w->rf_collect)) {
			if (w->rf_wr_pend) { /* the previous instruction's result reaches the RF */
				w->rf_wr_pend = 0;
				rf_write(s, sm, i, w->rf_wr_reg);
			}
			if (w->rf_collect) { /* operands read: execute */
				w->rf_collect = 0;
				execute(s, sm, i);
			}
		}
		unsigned r = warp_blocker(s, sm, w);
		if (r == STALL_NONE) {
			ready |= 1ull << i;
			if (keep_rdy)
				sm->rdy |= 1ull << i;
		} else {
			sm->rdy &= ~(1ull << i);
			if (w->stall != r) /* what stall_note tests first, without the call */
				stall_note(s, sm, i, r);
			stall_set(w, r, now);
			count[r]++;
			if (r == STALL_SCOREBOARD && sticky)
				sm->sb_wait |= 1ull << i;
		}
	}
	return ready;
}

/* Each scheduler picks from its own ready warps, all on the state at the
 * start of the issue stage (so RMWS schedulers score against the same
 * projected bank BMLs: the thesis's schedule hazard). Returns how many
 * picked; picks[k] = -1 for none. */
static int sched_picks(struct sim *s, struct sm *sm, uint64_t ready, int *picks)
{
	int S = s->cfg.core.schedulers, npick = 0;
	for (int k = 0; k < S; k++) {
		uint64_t mine = S > 1 ? ready & sched_mask(s, k) : ready;
		int p = picks[k] = sched_pick(s, sm, mine, k);
		if (p < 0)
			continue;
		npick++;
		if (s->cfg.core.scheduler == SCHED_RMWS && ev_on(&s->ev, EV_RF_RMWS_PICK)) {
			unsigned sc;
			int second, gto;
			rmws_explain(s, sm, mine, sm->sched_last[k], p, &sc, &second, &gto);
			EV_EMIT(&s->ev, EV_RF_RMWS_PICK, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)p,
				.unit = (int16_t)gto, .a = sc, .b = second);
		}
	}
	return npick;
}

/* The picks issue, and their requests enter the bank queues, in rotating
 * scheduler order: (now + 1) mod S first (docs/REGFILE.md). A pick that an
 * earlier one this cycle took a resource from (memory buffer, write buffer,
 * queue limit) waits for the next cycle. */
static void issue_picks(struct sim *s, struct sm *sm, uint64_t ready, const int *picks)
{
	uint64_t now = s->st->now;
	int S = s->cfg.core.schedulers;
	if (S > 1)
		rf_issue_stage(s, sm);
	int first = S > 1 ? (int)((now + 1) % (uint64_t)S) : 0, nissued = 0;
	uint64_t issued = 0, lost = 0;
	for (int j = 0; j < S; j++) {
		int p = picks[(first + j) % S];
		if (p < 0)
			continue;
		if (nissued) {
			unsigned r = warp_blocker(s, sm, &sm->w[p]);
			if (r != STALL_NONE) {
				sm->rdy &= ~(1ull << p);
				stall_note(s, sm, p, r);
				stall_set(&sm->w[p], r, now);
				lost |= 1ull << p;
				continue;
			}
		}
		issue(s, sm, p);
		issued |= 1ull << p;
		nissued++;
	}
	stat_inc(&s->stats, sm->st_issue_cycles);
	sm->dirty = 1;
	/* Ready warps that lost arbitration are not stalled. */
	for (uint64_t m = ready & ~(issued | lost); m; m &= m - 1)
		stall_set(&sm->w[low_bit(m)], STALL_NONE, now);
	/* VWS demotes a level-1 warp the cycle it stalls, even while another
	 * warp issues (the stall reasons were refreshed above). */
	if (s->cfg.core.scheduler == SCHED_VWS) {
		for (uint64_t m = sm->wact & ~issued; m; m &= m - 1) {
			int i = low_bit(m);
			if (sm->w[i].state == WSL_ACTIVE && sm->w[i].stall != STALL_NONE)
				sched_on_stall(s, sm, i, sm->w[i].stall);
		}
		sched_refill(s, sm);
	}
}

/* Nothing issued: attribute the cycle to the most common reason, except
 * that a warp held by the full MSHR file makes it an mshr_full cycle (the
 * scoreboard waits beside it are for the loads holding those MSHRs). */
static void no_issue(struct sim *s, struct sm *sm, const unsigned *count)
{
	unsigned best = STALL_DONE;
	for (unsigned r = STALL_MEM; r < STALL__COUNT; r++)
		if (count[r] > (best == STALL_DONE ? 0 : count[best]))
			best = r;
	if (count[STALL_MSHR_FULL])
		best = STALL_MSHR_FULL;
	sm->last_stall = (uint8_t)best;
	stat_inc(&s->stats, s->id.stall[best]);
	sm->stall_cyc[best]++;
	/* sched_on_stall acts only for these two policies (sched.c). */
	if (s->cfg.core.scheduler == SCHED_VWS || s->cfg.core.scheduler == SCHED_TWO_LEVEL)
		for (uint64_t m = sm->wact; m; m &= m - 1) {
			int i = low_bit(m);
			if (sm->w[i].state == WSL_ACTIVE && sm->w[i].stall != STALL_NONE)
				sched_on_stall(s, sm, i, sm->w[i].stall);
		}
	sched_refill(s, sm);
}

void core_tick(struct sim *s, struct sm *sm)
{
	rf_tick(s, sm);
	if (sm->nwarps_active == 0)
		return;
	uint64_t now = s->st->now;
	/* Asleep: nothing a warp waits for has changed and no busy warp is due.
	 * The cycle is a stall of the same kind as the last evaluated one. */
	if (!sm->dirty && now < sm->next_busy) {
		stat_inc(&s->stats, s->id.stall[sm->last_stall]);
		sm->stall_cyc[sm->last_stall]++;
		if (sm->next_busy != UINT64_MAX)
			sim_wake_at(s, sm->next_busy);
		return;
	}
	sm->dirty = 0;
	if (sm->vws)
		sm->vws_mask = vws_active_mask(s, sm);
	ccws_eval(s, sm);
	unsigned count[STALL__COUNT] = {0};
	sm->next_busy = UINT64_MAX;
	uint64_t skipped;
	uint64_t ready = warps_evaluate(s, sm, count, &skipped);
	if (sm->ccws && sm->ccws->next_change < sm->next_busy) { /* decay changes the load cutoff then */
		sm->next_busy = sm->ccws->next_change;
		sim_wake_at(s, sm->next_busy);
	}
	int picks[4];
	if (sched_picks(s, sm, ready, picks)) {
		issue_picks(s, sm, ready, picks);
	} else {
		count[STALL_SCOREBOARD] += (unsigned)__builtin_popcountll(skipped);
		no_issue(s, sm, count);
	}
	if (l1i_active(&s->cfg))
		fetch_tick(s, sm); /* after issue (fetch.c) */
}


void core_account_idle(struct sim *s, uint64_t cycles)
{
	int n = s->cfg.core.sms; /* an SM with warps is busy (sim.c) */
	for (int i = sim_act_next(s->act_sm, n, 0); i < n; i = sim_act_next(s->act_sm, n, i + 1)) {
		struct sm *sm = &s->sms[i];
		if (sm->nwarps_active) {
			stat_add(&s->stats, s->id.stall[sm->last_stall], cycles);
			sm->stall_cyc[sm->last_stall] += cycles;
		}
	}
}

bool core_all_done(const struct sim *s) { return s->st->ctas_done >= s->nctas; }
