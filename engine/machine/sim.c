/*
 * sim.c: building the machine, the cycle loop, skip-ahead and invariants.
 *
 * One cycle (sim_tick), consumer end first so that nothing needs double
 * buffering; a request handed forward in a cycle is seen by its consumer the
 * next cycle at the earliest (its t_ready says when):
 *   1. memory (DRAM or fixed latency): advance, completions fill the L2
 *   2. L2 banks: hand requests to memory, look up arrivals
 *   3. crossbar: replies L2 -> SMs, requests SMs -> L2
 *   4. L1s: hits complete, replies fill, retries, lookups
 *   5. CTA dispatch, then each SM's scheduler issues one instruction
 *
 * A DRAM-trace workload (workload.dram_reqs) builds the same machine but
 * ticks only the DRAM: (1) the DRAM advances and completions are popped,
 * (2) the trace requests due by now are fed while the queues accept. It never
 * reports progress; its next event is the earlier of the DRAM's and the next
 * trace arrival, so every cycle in between is skipped exactly as
 * dram_trace_run() (the batch runner) does.
 *
 * Idle units: steps 2-5 visit only the SMs and L2 banks whose activity bit
 * is set (struct sim; see sim_tick), in the order a visit of every unit would
 * take, so an idle unit costs nothing per cycle.
 *
 * Skip-ahead: a tick that changes nothing (no progress) leaves the earliest
 * future time at which some queue head, busy warp or the DRAM has work; the
 * loop jumps there directly, adding the skipped cycles to the per-cycle stall
 * counters, so results equal stepping one cycle at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/coh_eng.h"
#include "mem/l2_sharers.h"
#include "reuse/reuse.h"
#include "trace/trace.h"
#include "sim/sim_int.h"
#include "sim_mem.h"
#include "sim_par.h"


static void register_stats(struct sim *s)
{
	struct stats *st = &s->stats;
	struct sim_stat_ids *id = &s->id;
	id->cycles = stats_counter(st, "sim.cycles", "core cycles simulated");
	id->warp_insts = stats_counter(st, "sim.warp_insts", "warp instructions issued");
	id->thread_insts = stats_counter(st, "sim.thread_insts", "thread instructions (active lanes of issued warp instructions)");
	id->ipc = stats_ratio(st, "sim.ipc", "warp instructions per cycle, all SMs", "sim.warp_insts", "sim.cycles", 1.0);
	stats_ratio(st, "sim.opc", "thread operations per cycle, all SMs", "sim.thread_insts", "sim.cycles", 1.0);
	id->mem_insts = stats_counter(st, "core.mem_insts", "global memory instructions issued");
	id->ld_insts = stats_counter(st, "core.ld_insts", "global loads issued");
	id->st_insts = stats_counter(st, "core.st_insts", "global stores issued");
	id->atom_insts = stats_counter(st, "core.atom_insts", "global atomics issued");
	id->shmem_insts = stats_counter(st, "core.shmem_insts", "shared-memory instructions issued");
	id->alu_insts = stats_counter(st, "core.alu_insts", "ALU instructions issued");
	id->bar_insts = stats_counter(st, "core.bar_insts", "barrier instructions issued");
	id->shmem_conflicts = stats_counter(st, "core.shmem_conflict_passes", "extra shared-memory passes caused by bank conflicts");
	static const uint64_t lat_edges[] = {0, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
	id->mem_lat = stats_hist(st, "core.mem_latency", "cycles from issue to completion of a global memory instruction",
				 lat_edges, (uint32_t)ARRAY_LEN(lat_edges));
	id->mem_lat_max = stats_counter(st, "core.mem_latency_max", "longest global memory instruction latency (cycles)");
	id->mem_lat_total = stats_counter(st, "core.mem_latency_total", "sum of global memory instruction latencies (cycles)");
	id->mem_release_wait = stats_counter(st, "core.mem_release_wait",
					     "cycles completed global memory instructions held their buffer entry waiting for older ones (core.mem_release = in_order; 0 with completion)");
	id->mem_done = stats_counter(st, "core.mem_completed", "global memory instructions completed");
	stats_ratio(st, "core.mem_latency_avg", "mean global memory instruction latency (cycles)", "core.mem_latency_total",
		    "core.mem_completed", 1.0);
	static const char *const stall_desc[STALL__COUNT] = {
		[STALL_MEM] = "SM-cycles without an issue, mostly for want of a memory-buffer entry",
		[STALL_SCOREBOARD] = "SM-cycles without an issue, mostly waiting for load data (scoreboard)",
		[STALL_BARRIER] = "SM-cycles without an issue, mostly waiting at barriers",
		[STALL_MSHR_FULL] = "SM-cycles without an issue, mostly behind a full L1 MSHR file",
		[STALL_ALU] = "SM-cycles without an issue, mostly waiting for multi-cycle ALU work",
		[STALL_SHMEM] = "SM-cycles without an issue, mostly waiting for shared memory",
		[STALL_INACTIVE] = "SM-cycles without an issue, mostly with ready warps outside the active pool",
		[STALL_DONE] = "SM-cycles without an issue with no warp left to run (tail of the kernel)",
		[STALL_RF] = "SM-cycles without an issue, mostly waiting for register operands (shifts, bank conflicts) or a write-buffer entry",
		[STALL_FETCH] = "SM-cycles without an issue, mostly with empty instruction buffers (instruction fetch, l1i.enabled)",
	};
	for (unsigned r = STALL_MEM; r < STALL__COUNT; r++) {
		if (r == STALL_FETCH && !l1i_active(&s->cfg))
			continue; /* never counted without fetch */
		char name[64];
		snprintf(name, sizeof name, "core.stall.%s", stall_reason_name(r));
		id->stall[r] = stats_counter(st, name, stall_desc[r]);
	}
	id->l1_accesses = stats_counter(st, "l1.accesses", "L1 lookups, all SMs");
	id->l1_hits = stats_counter(st, "l1.hits", "L1 hits, all SMs");
	id->l1_misses = stats_counter(st, "l1.misses", "L1 misses (merged secondary misses included), all SMs");
	id->l1_merges = stats_counter(st, "l1.mshr_merges", "L1 misses merged into a pending MSHR entry");
	id->l1_mshr_full = stats_counter(st, "l1.mshr_full", "L1 misses that found no MSHR entry or merge slot, and warps held at issue by a full MSHR file (once per stall)");
	id->l1_resv_fail = stats_counter(st, "l1.reservation_fails", "L1 misses that found every way of their set reserved");
	id->l1_retries = stats_counter(st, "l1.retries", "requests re-sent after an L2 NACK");
	id->l1_nacks = stats_counter(st, "l1.nacks", "NACKs received by the L1s");
	id->l1_writes = stats_counter(st, "l1.writes", "store requests at the L1s");
	id->l1_atomics = stats_counter(st, "l1.atomics", "atomic requests at the L1s");
	id->l1_bypasses_cop = stats_counter(st, "l1.bypasses_cop", "loads that skipped the L1s for their cache operator (glc/slc)");
	id->l1_evictions = stats_counter(st, "l1.evictions", "L1 lines evicted or invalidated");
	id->l1_writebacks = stats_counter(st, "l1.writebacks", "dirty L1 lines written back");
	id->l1_pool_waits = stats_counter(st, "l1.pool_waits",
					  "L1 accesses that waited a cycle for request-pool slots (their fetch, their victim's "
					  "write-back or Put); they retry, nothing is dropped");
	id->l1_hit_rate = stats_ratio(st, "l1.hit_rate", "l1.hits / l1.accesses", "l1.hits", "l1.accesses", 1.0);
	id->icnt_req_flits = stats_counter(st, "icnt.req_flits", "flits sent SM -> L2");
	id->icnt_rep_flits = stats_counter(st, "icnt.reply_flits", "flits sent L2 -> SM");
	id->icnt_req_pkts = stats_counter(st, "icnt.req_packets", "packets sent SM -> L2");
	id->icnt_rep_pkts = stats_counter(st, "icnt.reply_packets", "packets sent L2 -> SM");
	id->icnt_stalls = stats_counter(st, "icnt.stalls", "packets that had to wait at a crossbar port for want of credits");
	id->l2_accesses = stats_counter(st, "l2.accesses", "L2 lookups, all banks");
	id->l2_hits = stats_counter(st, "l2.hits", "L2 hits");
	id->l2_misses = stats_counter(st, "l2.misses", "L2 misses (merges and refused transient hits included)");
	id->l2_merges = stats_counter(st, "l2.mshr_merges", "L2 misses merged into a pending MSHR entry");
	id->l2_nacks = stats_counter(st, "l2.nacks", "requests the L2 refused (NACK)");
	id->l2_transient_blocks = stats_counter(st, "l2.transient_blocks", "requests refused because their line was transient");
	id->l2_set_all_transient = stats_counter(st, "l2.set_all_transient", "misses refused because every way of the set was transient");
	id->l2_writebacks = stats_counter(st, "l2.writebacks", "dirty L2 lines written back to memory");
	id->l2_fills = stats_counter(st, "l2.fills", "L2 lines filled from memory");
	id->l2_store_installs = stats_counter(st, "l2.store_installs", "store misses (l2.write_fetch=lazy) whose victim had to be invalidated or written back first, then installed without fetching");
	id->l2_slc_streamed = stats_counter(st, "l2.slc_streamed", "slc misses served without allocating an L2 line (loads streamed, stores written around)");
	id->l2_hit_rate = stats_ratio(st, "l2.hit_rate", "l2.hits / l2.accesses", "l2.hits", "l2.accesses", 1.0);
	id->mem_reads = stats_counter(st, "mem.reads", "line reads handed to memory");
	id->mem_writes = stats_counter(st, "mem.writes", "line write-backs handed to memory");
	id->frc_lookups = stats_counter(st, "frc.lookups", "FRC tag lookups (one per L2 miss on an absent line)");
	id->frc_allocs = stats_counter(st, "frc.allocs", "L2 misses handled by the FRC (entry allocated, early fetch)");
	id->frc_fallbacks = stats_counter(st, "frc.fallbacks", "L2 misses that took the conventional path (FRC set full)");
	id->frc_hits_fetching = stats_counter(st, "frc.hits_fetching", "requests that waited on an entry fetching their block");
	id->frc_evicting_hits = stats_counter(st, "frc.evicting_hits", "requests served from a victim held in an evicting entry");
	id->frc_fills = stats_counter(st, "frc.fills", "fetched blocks written into the FRC");
	id->frc_swaps = stats_counter(st, "frc.swaps", "FRC entry / L2 victim line swaps");
	id->frc_evictions = stats_counter(st, "frc.evictions", "dirty victims written back from an FRC entry");
	stats_ratio(st, "frc.share", "share of L2 misses handled by the FRC", "frc.allocs", "l2.misses", 1.0);
	l2_register_stats(s); /* miss latency split, MPKI, memory bytes (l2.c) */
	byp_register_stats(s); /* locality bypassing (bypass.c) */
}

/* The kernel language as a workload source. */
static uint32_t k_ctas(const void *k) { return kernel_ctas(k); }
static uint32_t k_tpc(const void *k) { return kernel_threads_per_cta(k); }
static unsigned k_nregs(const void *k) { return kernel_nregs(k); }
static unsigned k_shmem(const void *k) { return kernel_shmem_bytes(k); }
static void k_start(const void *k, struct kwarp *w, uint32_t cta, uint32_t wic, unsigned ws)
{
	kernel_warp_start(k, w, cta, wic, ws);
}
static bool k_next(const void *k, struct kwarp *w, struct winst *out) { return kernel_warp_next(k, w, out); }
static const char *k_text(const void *k, unsigned i) { return kernel_stmt_text(k, i); }
static unsigned k_nstmts(const void *k) { return kernel_nstmts(k); }

/* A DRAM-trace workload: no instructions at all. */
static uint32_t d_zero32(const void *impl) { return (void)impl, 0; }
static unsigned d_zero(const void *impl) { return (void)impl, 0; }
static void d_start(const void *impl, struct kwarp *w, uint32_t cta, uint32_t wic, unsigned ws)
{
	(void)impl, (void)w, (void)cta, (void)wic, (void)ws;
}
static bool d_next(const void *impl, struct kwarp *w, struct winst *out)
{
	(void)impl, (void)w;
	out->op = KOP_EXIT;
	out->pc = WINST_PC_NONE;
	return false;
}
static const char *d_text(const void *impl, unsigned i) { return (void)impl, (void)i, ""; }

static const struct wl_ops dram_wl_ops = {
	.ctas = d_zero32,
	.threads_per_cta = d_zero32,
	.nregs = d_zero,
	.shmem_bytes = d_zero,
	.warp_start = d_start,
	.warp_next = d_next,
	.stmt_text = d_text,
	.nstmts = d_zero,
};

static const struct wl_ops kernel_wl_ops = {
	.ctas = k_ctas,
	.threads_per_cta = k_tpc,
	.nregs = k_nregs,
	.shmem_bytes = k_shmem,
	.warp_start = k_start,
	.warp_next = k_next,
	.stmt_text = k_text,
	.nstmts = k_nstmts,
};

bool sim_wl_is_kernel(const struct sim *s) { return s->wops == &kernel_wl_ops; }

/* Does the workload's data reach the code region (l1i.enabled)? */
static bool code_overlap(const struct workload *wl)
{
	if (!wl->ops && wl->kernel) {
		uint64_t lo, hi;
		kernel_footprint(wl->kernel, &lo, &hi);
		return hi > L1I_CODE_BASE;
	}
	if (!wl->ops || !wl->ops->range)
		return false;
	struct wl_range r;
	for (unsigned i = 0; wl->ops->range(wl->impl, i, &r); i++)
		if (r.lo <= r.last && r.last >= L1I_CODE_BASE)
			return true;
	return false;
}

/* What sim_new checks before building anything: a workload, its addresses
 * inside the DRAM, cache operators the protocol can serve. */
static int check_workload(const struct sim_cfg *cfg, const struct workload *wl, const struct wl_ops *ops,
			  const void *impl, char **err)
{
	bool dram_only = wl->dram_reqs != NULL;
	if (cfg->mem.model == MEM_DRAM && !dram_only && !wl->ops && wl->kernel) {
		uint64_t lo, hi;
		kernel_footprint(wl->kernel, &lo, &hi);
		char what[96];
		snprintf(what, sizeof what, "workload %s", wl->name);
		if (dram_check_span(cfg, what, lo, hi, err))
			return -1;
	}
	if (cfg->mem.model == MEM_DRAM && !dram_only && wl->ops && wl->ops->range) {
		unsigned n = 0, cap = 4;
		struct wl_range *r = xmalloc(cap * sizeof *r);
		while (wl->ops->range(wl->impl, n, &r[n]))
			if (++n == cap)
				r = xrealloc(r, (cap *= 2) * sizeof *r);
		char what[96];
		snprintf(what, sizeof what, "workload %s", wl->name);
		int bad = dram_check_ranges(cfg, what, r, n, err);
		free(r);
		if (bad)
			return -1;
	}
	if (l1i_active(cfg) && !dram_only && code_overlap(wl))
		return set_err(err,
			       "workload %s: its data reaches 0x%llx, where l1i.enabled places code (L1I_CODE_BASE); "
			       "instruction and data lines would share L2 lines (turn l1i.enabled off or move the data below)",
			       wl->name, (unsigned long long)L1I_CODE_BASE);
	if (dram_only && !wl->dram_reqs->n)
		return set_err(err, "workload %s: a DRAM trace without requests", wl->name);
	bool cop = dram_only ? false : wl->ops ? ops->uses_cop && ops->uses_cop(impl) : kernel_uses_cop(wl->kernel);
	if (cop && (cfg->l2.coh.protocol == COH_MOESI || cfg->l2.coh.protocol == COH_NMOESI))
		return set_err(err,
			       "workload %s: cache operators (glc/slc, trace .CG/.CV) are not supported with coherence.protocol=%s: "
			       "a load that bypasses the L1 would need a directory read that neither records a sharer nor leaves "
			       "an owner's data stale, which the %s tables do not have (use coherence.protocol si or none)",
			       wl->name, cfg->l2.coh.protocol == COH_MOESI ? "moesi" : "nmoesi",
			       cfg->l2.coh.protocol == COH_MOESI ? "MOESI" : "NMOESI");
	return 0;
}

/* The kernels' shapes (one or several back to back): per kernel its first
 * CTA, threads, warps and shared memory per CTA, each checked against an
 * SM. Fills s->nk, kfirst..kshmem, nctas, threads_per_cta, warps_per_cta. */
static int kernel_shapes(struct sim *s, const struct sim_cfg *cfg, const struct workload *wl, bool dram_only,
			 char **err)
{
	const struct wl_ops *ops = s->wops;
	const void *impl = s->wimpl;
	unsigned nk = ops->nkernels && ops->kernel_shape ? ops->nkernels(impl) : 1;
	if (nk == 0)
		return set_err(err, "workload %s: no kernels to run", wl->name);
	uint32_t *kfirst = xcalloc((size_t)nk * 4 + 1, sizeof *kfirst);
	s->nk = nk;
	s->kfirst = kfirst; /* sim_free frees it, whatever happens below */
	s->ktpc = kfirst + nk + 1;
	s->kwpc = s->ktpc + nk;
	s->kshmem = s->kwpc + nk;
	uint32_t tpc_max = 0, wpc_max = 0;
	uint64_t total = 0;
	for (unsigned k = 0; k < nk && !dram_only; k++) { /* a DRAM trace has no CTAs */
		uint32_t ctas, tpc;
		unsigned shmem;
		if (nk == 1) {
			ctas = ops->ctas(impl);
			tpc = ops->threads_per_cta(impl);
			shmem = ops->shmem_bytes(impl);
		} else {
			ops->kernel_shape(impl, k, &ctas, &tpc, &shmem);
		}
		uint32_t wpc = (tpc + (uint32_t)cfg->core.warp_size - 1) / (uint32_t)cfg->core.warp_size;
		char kn[48] = "";
		if (nk > 1)
			snprintf(kn, sizeof kn, " kernel %u of %u:", k + 1, nk);
		if (tpc == 0 || ctas == 0)
			return set_err(err, "workload %s:%s no threads to run", wl->name, kn);
		if ((int)wpc > cfg->core.warps_per_sm || (int)tpc > cfg->core.threads_per_sm ||
		    (int)shmem > cfg->core.shmem_per_sm)
			return set_err(err,
				       "workload %s:%s a CTA of %u threads (%u warps, %u B shared memory) does not fit on an SM "
				       "(core.warps_per_sm %d, core.threads_per_sm %d, core.shmem_per_sm %d)",
				       wl->name, kn, tpc, wpc, shmem, cfg->core.warps_per_sm, cfg->core.threads_per_sm,
				       cfg->core.shmem_per_sm);
		kfirst[k] = (uint32_t)total;
		total += ctas;
		if (total > UINT32_MAX - 1)
			return set_err(err, "workload %s: over 4 G CTAs in all", wl->name);
		s->ktpc[k] = tpc;
		s->kwpc[k] = wpc;
		s->kshmem[k] = shmem;
		tpc_max = MAX(tpc_max, tpc);
		wpc_max = MAX(wpc_max, wpc);
	}
	kfirst[nk] = (uint32_t)total;
	s->nctas = (uint32_t)total;
	s->threads_per_cta = tpc_max;
	s->warps_per_cta = wpc_max;
	return 0;
}

/* Every hardware structure, allocated once from the arena (util.h). */
static int build_units(struct sim *s, const struct sim_cfg *cfg, const struct workload *wl, bool dram_only,
		       char **err)
{
	unsigned nk = s->nk;
	if (nk > 1) { /* back-to-back kernels (wl_ops.nkernels): absent for one kernel */
		s->kernels_id = stats_counter(&s->stats, "sim.kernels", "kernels run back to back in this machine");
		s->kcycles_id = xcalloc(nk, sizeof *s->kcycles_id);
		for (unsigned k = 0; k < nk; k++) {
			char name[40];
			snprintf(name, sizeof name, "kernel%u.cycles", k);
			s->kcycles_id[k] = stats_counter(&s->stats, name,
							 "cycles from the kernel's start to the end of its last CTA");
		}
	}
	uint32_t ns = (uint32_t)cfg->core.sms, nb = (uint32_t)cfg->l2.banks;
	uint64_t pool = sim_req_pool_slots(cfg); /* sim_mem.c */
	if (pool > 16u << 20)
		return set_err(err,
			       "configuration needs %llu in-flight request slots (over 16 M): reduce core.mem_inflight or MSHR sizes",
			       (unsigned long long)pool);
	req_pool_init(&s->pool, &s->arena, (uint32_t)pool);
	req_stash_bounds(cfg, &s->stash_lo, &s->stash_hi);
	req_stash_init(&s->pool, &s->arena, ns);
	s->sms = ARENA_NEW(&s->arena, struct sm, ns);
	s->banks = ARENA_NEW(&s->arena, struct l2bank, nb);
	s->act_sm = ARENA_NEW(&s->arena, uint64_t, (ns + 63) / 64);
	s->act_l2 = ARENA_NEW(&s->arena, uint64_t, (nb + 63) / 64);
	core_init(s);
	icnt_init(s);
	for (uint32_t i = 0; i < ns; i++) {
		l1_init(s, &s->sms[i]);
		l1i_init(s, &s->sms[i]); /* instruction cache (l1i.c): off unless l1i.enabled */
	}
	if (l1i_active(cfg))
		l1i_register_stats(s);
	s->l2_set_memo = xmalloc(2 * (size_t)(nb ? nb : 1) * sizeof *s->l2_set_memo);
	for (uint32_t i = 0; i < 2 * nb; i += 2)
		s->l2_set_memo[i] = UINT64_MAX; /* matches no request's address */
	for (uint32_t i = 0; i < nb; i++) {
		s->banks[i].id = (int)i;
		l2_init(s, &s->banks[i]);
		frc_init(s, &s->banks[i]);
		l2sh_init(s, &s->banks[i]); /* l2.sharers (l2_sharers.c): after the FRC */
	}
	if (cfg->l2.banks_per_channel && /* L2 sub-partitions: the DRAM address map chooses the bank */
	    (addrmap_init(&s->part, &cfg->dram, err) ||
	     addrmap_set_partition(&s->part, (unsigned)cfg->l2.banks_per_channel, cfg->l2.bank_hash, err)))
		return -1;
	if (cfg->mem.model == MEM_DRAM || dram_only) { /* a DRAM trace needs the DRAM whatever mem.model says */
		s->dram = dram_new(&s->arena, cfg, &s->stats, &s->ev, &s->st->now, err);
		if (!s->dram)
			return -1;
	}
	if (dram_only) {
		s->dreqs = wl->dram_reqs;
		s->dcur = ARENA_NEW(&s->arena, struct dram_trace_cursor, 1);
		s->dt_id[0] = stats_counter(&s->stats, "dram_trace.issued", "DRAM-trace requests handed to the DRAM");
		s->dt_id[1] = stats_counter(&s->stats, "dram_trace.completed", "DRAM-trace requests completed");
	}
	if (rf_init(s, err)) /* register file (regfile.h): after the cores, before the freeze */
		return -1;
	coh_init(s);	    /* coherence protocol (coh_eng.h): stats, directories, log */
	coh_values_init(s); /* coherence.check_values (coh_values.c): after the request pool */
	if (wl->ncopies)
		hostcopy_register_stats(s); /* trace.memcpy.* */
	if (cfg->reuse.profile)
		s->reuse = reuse_new(s); /* reuse-distance profiler: after the caches, before the freeze */
	/* Observers on the caches' probe points (sim/probe.h), in this order. */
	reuse_attach(s);
	ccws_attach(s);
	vws_attach(s);
	return 0;
}

/*
 * Build order: check config and workload ─▶ kernel shapes ─▶ the state
 * (arena: cycle, PRNG, stats, event ring) ─▶ every unit ─▶ freeze the stats.
 */
struct sim *sim_new(const struct sim_cfg *cfg, const struct workload *wl, char **err)
{
	if (cfg_validate(cfg, err))
		return NULL;
	bool dram_only = wl && wl->dram_reqs;
	if (!wl || (!dram_only && !wl->kernel && !(wl->ops && wl->impl))) {
		set_err(err, "no workload");
		return NULL;
	}
	const struct wl_ops *ops = dram_only ? &dram_wl_ops : wl->ops ? wl->ops : &kernel_wl_ops;
	const void *impl = dram_only ? (const void *)wl->dram_reqs : wl->ops ? wl->impl : (const void *)wl->kernel;
	if (check_workload(cfg, wl, ops, impl, err))
		return NULL;
	unsigned nregs = ops->nregs(impl);
	struct sim *s = xcalloc(1, sizeof(*s));
	s->cfg = *cfg;
	s->wl = *wl;
	s->wops = ops;
	s->wimpl = impl;
	if (kernel_shapes(s, cfg, wl, dram_only, err) || hostcopy_check(wl, s->nk, err) ||
	    (nregs > 256 && set_err(err, "workload %s: %u registers per thread, at most 256", wl->name, nregs))) {
		free(s->kfirst); /* nothing else is built yet */
		free(s);
		return NULL;
	}
	s->issue_cycles = (unsigned)(cfg->core.warp_size / cfg->core.simd_width);
	s->nregs = nregs;
	arena_init(&s->arena);
	s->st = ARENA_NEW(&s->arena, struct state, 1);
	s->st->next_event = UINT64_MAX;
	rng_seed(&s->st->rng, cfg->seed);
	stats_init(&s->stats, &s->st->now);
	events_init(&s->ev, &s->arena, 4096, &s->st->now);
	register_stats(s);
	if (build_units(s, cfg, wl, dram_only, err)) {
		sim_free(s);
		return NULL;
	}
	stats_freeze(&s->stats, &s->arena);
	if (s->nk > 1)
		stat_add(&s->stats, s->kernels_id, s->nk);
	par_setup(s);
	return s;
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	par_teardown(s);
	snapshot_free_all(s);
	rf_free(s);
	coh_values_free(s);
	free(s->kfirst);
	free(s->kcycles_id);
	free(s->l2_set_memo);
	stats_fini(&s->stats);
	arena_fini(&s->arena);
	free(s);
}

/* One cycle of a DRAM-trace simulator (see the top of the file). */
static void dram_only_tick(struct sim *s)
{
	dram_tick(s->dram);
	uint32_t tag;
	bool w;
	while (dram_pop_done(s->dram, &tag, &w))
		stat_inc(&s->stats, s->dt_id[1]);
	uint64_t before = s->dcur->issued;
	uint32_t line = (uint32_t)(s->cfg.l2.line > 0 ? s->cfg.l2.line : 128);
	uint64_t due = dram_reqs_feed(s->dreqs, s->dcur, s->dram, s->st->now, line);
	stat_add(&s->stats, s->dt_id[0], s->dcur->issued - before);
	sim_wake_at(s, due);
	sim_wake_at(s, dram_next_event(s->dram));
}

/* An SM whose core_tick, l1_tick and crossbar request port would do
 * nothing: no warp slot in use, no register-file operation queued, its L1
 * queues and miss queue empty. (Reply-queue credits and MSHR entries are
 * waited on through other units' queues.) */
bool sim_sm_busy(const struct sim *s, const struct sm *sm)
{
	const struct l1 *l = &sm->l1;
	return sm->nwarps_active || l->lsu.n || l->hitq.n || l->waitq.n || l->missq.n || l->ackq.n || l->fillq.n || l->retryq.n ||
	       rf_busy(s, sm);
}

/* Idle units are skipped: their ticks would change nothing and report no
 * wake-up time. The bitmaps are read afresh at each step, so a unit that
 * gets work during a loop is ticked in it exactly when the full loop would
 * have reached it after that (ascending index order here, rotating order in
 * icnt_tick). A bit is cleared at the unit's last visit of the cycle if it
 * is idle then (an SM after its core_tick, a bank after its crossbar reply
 * port, icnt.c): later in the cycle work can only arrive, setting the bit
 * again, so between cycles a set bit means exactly "busy". */
static void sim_tick(struct sim *s)
{
	struct state *st = s->st;
	st->progress = false;
	st->next_event = UINT64_MAX;
	if (s->dreqs) {
		dram_only_tick(s);
		return;
	}
	int ns = s->cfg.core.sms, nb = s->cfg.l2.banks;
	mem_tick(s);
	for (int i = sim_act_next(s->act_l2, nb, 0); i < nb; i = sim_act_next(s->act_l2, nb, i + 1))
		l2_tick(s, &s->banks[i]);
	icnt_tick(s);
	if (s->par_ok) {
		par_cycle(s);
		return;
	}
	for (int i = sim_act_next(s->act_sm, ns, 0); i < ns; i = sim_act_next(s->act_sm, ns, i + 1))
		l1_tick(s, &s->sms[i]);
	core_dispatch(s);
	for (int i = sim_act_next(s->act_sm, ns, 0); i < ns; i = sim_act_next(s->act_sm, ns, i + 1)) {
		core_tick(s, &s->sms[i]);
		if (!sim_sm_busy(s, &s->sms[i]))
			sim_act_clear(s->act_sm, i);
	}
}

/* An FRC entry can still be swapping (or evicting from its entry) after
 * every requester was answered from it at the fill: the run goes on until
 * the swap is done, so every entry is free at the end. */
static bool frc_idle(const struct sim *s)
{
	for (int i = 0; i < s->cfg.l2.banks; i++)
		if (s->banks[i].frc.active)
			return false;
	return true;
}

bool sim_mem_idle(const struct sim *s)
{
	return s->pool.used == 0 && (!s->dram || dram_idle(s->dram)) && frc_idle(s);
}

static bool drained(const struct sim *s)
{
	if (s->dreqs)
		return s->dcur->issued == s->dreqs->n && dram_idle(s->dram);
	if (s->cfg.mem.kernel_end == MEMKE_CTAS) /* the last CTA done; the memory system may still be busy */
		return core_all_done(s);
	return core_all_done(s) && sim_mem_idle(s);
}

static int check_invariants(const struct sim *s, char **err, bool values);

#ifdef GPUSTEP_CHECK_INVARIANTS
/* Debug builds (make DEBUG=1, and every SANITIZE build): the structural
 * invariants after every simulated cycle and after every skip-ahead; the first
 * violation aborts with its message and cycle. */
static void debug_check(const struct sim *s)
{
	char *err = NULL;
	if (check_invariants(s, &err, false)) {
		fprintf(stderr, "gpustep: invariant violated after cycle %llu: %s\n", (unsigned long long)s->st->now,
			err ? err : "?");
		abort();
	}
}
#define DEBUG_CHECK(s) debug_check(s)
#else
#define DEBUG_CHECK(s) ((void)0)
#endif

/* Refresh intervals with requests waiting and none served before the run
 * is called a livelock (dram_livelock). */
#define SIM_LIVELOCK_INTERVALS 16

/* Checked once per refresh interval (when the cycle crosses a multiple of
 * it: the same cycles however the run is sliced). */
static bool livelocked(const struct sim *s, uint64_t before)
{
	if (!s->dram)
		return false;
	uint64_t p = dram_refresh_period(s->dram);
	if (!p || before / p == s->st->now / p)
		return false;
	return dram_livelock(s->dram, SIM_LIVELOCK_INTERVALS, NULL);
}

enum sim_stop sim_step(struct sim *s, uint64_t cycles)
{
	struct state *st = s->st;
	uint64_t end = st->now + cycles;
	if (cycles > UINT64_MAX - st->now)
		end = UINT64_MAX;
	struct bp_set *bps = s->bps;
	if (bps)
		bp_clear_stop(bps);
	snapshot_step_begin(s);
	enum sim_stop why = SIM_STOP_LIMIT;
	while (st->now < end) {
		if (st->done || drained(s)) {
			st->done = true;
			why = SIM_STOP_DONE;
			break;
		}
		if (s->interrupt) {
			s->interrupt = 0;
			why = SIM_STOP_INTERRUPT;
			break;
		}
		uint64_t before = st->now;
		sim_tick(s);
		st->now++;
		stat_inc(&s->stats, s->id.cycles);
		DEBUG_CHECK(s);
		snapshot_tick(s);
		if (s->cvh && coh_values_take_stop(s)) { /* a data-value violation (coh_values.c) */
			why = SIM_STOP_BREAK;
			break;
		}
		if (bps) {
			if (bp_has_polled(bps))
				bp_poll(bps, st->now);
			if (bps->stop) {
				why = SIM_STOP_BREAK;
				break;
			}
		}
		if (!st->progress && !drained(s)) {
			/* Nothing changed: jump to the next time anything has work. */
			uint64_t t = st->next_event;
			if (t == UINT64_MAX) {
				/* Nothing will ever happen: a deadlock in the model. Stop
				 * rather than spin, and say so (sim_deadlock); the debug
				 * build's sim_check_invariants names what is stuck. */
				why = SIM_STOP_DONE;
				st->done = true;
				st->deadlock = true;
				break;
			}
			if (t > end)
				t = end;
			if (bps) {
				uint64_t bc = bp_next_cycle(bps, st->now);
				if (bc < t)
					t = bc;
			}
			uint64_t sn = snapshot_next_at(s);
			if (sn < t)
				t = sn;
			if (t > st->now) {
				uint64_t k = t - st->now;
				core_account_idle(s, k);
				stat_add(&s->stats, s->id.cycles, k);
				st->now = t;
				DEBUG_CHECK(s);
				snapshot_tick(s);
				if (bps && bp_has_polled(bps)) {
					bp_poll(bps, st->now);
					if (bps->stop) {
						why = SIM_STOP_BREAK;
						break;
					}
				}
			}
		}
		if (livelocked(s, before)) { /* the DRAM refreshes forever: stop, say so (sim_deadlock) */
			why = SIM_STOP_DONE;
			st->done = true;
			st->deadlock = true;
			break;
		}
	}
	if (why == SIM_STOP_LIMIT && drained(s)) {
		st->done = true;
		why = SIM_STOP_DONE;
	}
	stats_sync(&s->stats); /* a step returns with the threads' counts in the registry */
	rf_account(s); /* leakage and total energy follow the cycle count */
	snapshot_step_end(s);
	return why;
}

void sim_interrupt(struct sim *s) { s->interrupt = 1; }

void sim_interrupt_clear(struct sim *s) { s->interrupt = 0; }

size_t sim_arena_bytes(const struct sim *s) { return arena_bytes(&s->arena); }
uint64_t sim_cycle(const struct sim *s) { return s->st->now; }
bool sim_dram_only(const struct sim *s) { return s->dreqs != NULL; }
bool sim_done(const struct sim *s) { return s->st->done || drained(s); }

bool sim_deadlock(const struct sim *s, char *buf, size_t n)
{
	if (!s->st->deadlock)
		return false;
	/* The one deadlock the model keeps on purpose (icnt.c, POLICIES.md):
	 * Acks behind requests that wait in the L2 input queue (l2_wait.c:
	 * l2.when_busy or l1.bypass_at_l2 = queue) for an MSHR entry that
	 * waits for them. */
	const struct sim_cfg *c = &s->cfg;
	struct dram_livelock ll;
	if (s->dram && dram_livelock(s->dram, SIM_LIVELOCK_INTERVALS, &ll)) {
		if (buf && n)
			snprintf(buf, n,
				 "the DRAM livelocked at cycle %llu: channel %d has %u requests waiting and has served none "
				 "since cycle %llu, more than %d refresh intervals (%llu cycles each): refresh takes tRFC = %d "
				 "of every tREFI = %d DRAM cycles and one access needs %d (rule: tREFI > tRFC + 2 x one access)",
				 (unsigned long long)s->st->now, ll.ch, ll.waiting, (unsigned long long)ll.since,
				 SIM_LIVELOCK_INTERVALS, (unsigned long long)ll.refi,
				 c->dram.refresh == DRAM_REFRESH_PER_BANK ? c->dram.timing.tRFCpb : c->dram.timing.tRFC,
				 c->dram.timing.tREFI, dram_access_cycles(c));
		return true;
	}
	bool shared = c->icnt.ack_channel == ICNT_ACK_SHARED && c->l2.sharers != L2SH_OFF && l2_when_busy_queues(c);
	if (buf && n)
		snprintf(buf, n,
			 "the model deadlocked at cycle %llu: nothing can move again, yet %u of %u CTAs have not "
			 "finished and %u requests are in flight (%s)",
			 (unsigned long long)s->st->now, s->nctas - s->st->ctas_done, s->nctas, s->pool.used,
			 shared ? "icnt.ack_channel = shared: invalidation Acks may wait behind requests that wait for "
				  "them; `separate` gives them their own channel (docs/POLICIES.md)"
				: "a gpustep bug: `why warp` shows what each warp waits on; please report it with "
				  "`save session`");
	return true;
}
const struct sim_cfg *sim_cfg(const struct sim *s) { return &s->cfg; }
struct stats *sim_stats(struct sim *s) { return &s->stats; }
const struct stats *sim_stats_c(const struct sim *s) { return &s->stats; }
struct events *sim_events(struct sim *s) { return &s->ev; }
const struct events *sim_events_c(const struct sim *s) { return &s->ev; }

void sim_set_bps(struct sim *s, struct bp_set *b)
{
	s->bps = b;
	s->ev.bps = b;
	if (b)
		b->stats = &s->stats;
	events_update_watch(&s->ev);
}

uint64_t sim_state_hash(const struct sim *s)
{
	/* The arena plus the mutable fields kept in struct sim itself. */
	stats_sync(&s->stats);
	uint64_t h = arena_hash(&s->arena);
	h = mix64(h ^ s->pool.free_head) ^ mix64(s->pool.used);
	return mix64(h ^ s->ev.total);
}

/* values: include coherence.check_values' data-value violations (a simulated
 * outcome that stops the run by itself, so the per-cycle debug check skips it). */
static int check_invariants(const struct sim *s, char **err, bool values)
{
	const struct stats *st = &s->stats;
	const struct sim_stat_ids *id = &s->id;
	uint64_t a = stats_counter_value(st, id->l1_accesses), h = stats_counter_value(st, id->l1_hits),
		 m = stats_counter_value(st, id->l1_misses);
	if (h + m != a)
		return set_err(err, "l1.hits (%llu) + l1.misses (%llu) != l1.accesses (%llu)", (unsigned long long)h,
			       (unsigned long long)m, (unsigned long long)a);
	if (l1i_active(&s->cfg)) {
		a = stats_counter_value(st, id->l1i_accesses);
		h = stats_counter_value(st, id->l1i_hits);
		m = stats_counter_value(st, id->l1i_misses);
		if (h + m != a)
			return set_err(err, "l1i.hits (%llu) + l1i.misses (%llu) != l1i.accesses (%llu)",
				       (unsigned long long)h, (unsigned long long)m, (unsigned long long)a);
	}
	a = stats_counter_value(st, id->l2_accesses);
	h = stats_counter_value(st, id->l2_hits);
	m = stats_counter_value(st, id->l2_misses);
	if (h + m != a)
		return set_err(err, "l2.hits (%llu) + l2.misses (%llu) != l2.accesses (%llu)", (unsigned long long)h,
			       (unsigned long long)m, (unsigned long long)a);
	/* Every request in the pool is reachable exactly once, and MSHR counts agree. */
	uint32_t used = 0;
	/* Slots are handed out from the free list (LIFO) and, with it empty, in
	 * index order (req_alloc), so slots at or above the most ever in use at
	 * once (high_water) have never been handed out. */
	for (uint32_t i = 0; i < s->pool.high_water && i < s->pool.cap; i++)
		used += s->pool.r[i].in_use;
	if (used != s->pool.used)
		return set_err(err, "request pool: %u in use but the counter says %u", used, s->pool.used);
	for (int i = 0; i < s->cfg.core.sms; i++) {
		const struct mshr *mm = &s->sms[i].l1.m;
		uint32_t n = 0;
		for (uint32_t e = 0; e < mm->n; e++)
			n += mm->e[e].state != ME_FREE;
		if (n != mm->used)
			return set_err(err, "sm%d L1 MSHR: %u entries valid, counter %u", i, n, mm->used);
	}
	for (int i = 0; i < s->cfg.l2.banks; i++) {
		const struct mshr *mm = &s->banks[i].m;
		uint32_t n = 0;
		for (uint32_t e = 0; e < mm->n; e++)
			n += mm->e[e].state != ME_FREE;
		if (n != mm->used)
			return set_err(err, "l2 bank%d MSHR: %u entries valid, counter %u", i, n, mm->used);
	}
	for (int i = 0; i < s->cfg.l2.banks; i++)
		if (frc_check_invariants(s, &s->banks[i], err))
			return -1;
	/* The busy bits (struct sim) agree with the units they stand for. */
	for (int i = 0; i < s->cfg.core.sms; i++)
		if (sim_sm_busy(s, &s->sms[i]) != sim_act_has(s->act_sm, i))
			return set_err(err, "sm%d: busy %d but its activity bit is %s", i, sim_sm_busy(s, &s->sms[i]),
				       sim_act_has(s->act_sm, i) ? "set" : "clear");
	for (int i = 0; i < s->cfg.l2.banks; i++)
		if (sim_bank_busy(&s->banks[i]) != sim_act_has(s->act_l2, i))
			return set_err(err, "l2 bank%d: busy %d but its activity bit is %s", i, sim_bank_busy(&s->banks[i]),
				       sim_act_has(s->act_l2, i) ? "set" : "clear");
	if (frc_check_stat_sums(s, err))
		return -1;
	if (byp_check_invariants(s, err))
		return -1;
	if (rf_check_stat_sums(s, err))
		return -1;
	if (coh_check_invariants(s, err))
		return -1;
	if (core_check_invariants(s, err)) /* the warp masks (core.c) */
		return -1;
	if (values && s->cv && coh_values_invariant(s, err)) /* coherence.check_values */
		return -1;
	if (sim_done(s) && s->cfg.mem.kernel_end == MEMKE_DRAINED) {
		if (s->pool.used)
			return set_err(err, "finished with %u requests still in flight", s->pool.used);
		for (int i = 0; i < s->cfg.core.sms; i++)
			if (s->sms[i].l1.m.used)
				return set_err(err, "finished with sm%d L1 MSHR entries still allocated", i);
		for (int i = 0; i < s->cfg.core.sms && l1i_active(&s->cfg); i++)
			if (s->sms[i].l1i.m.used)
				return set_err(err, "finished with sm%d L1I MSHR entries still allocated", i);
		for (int i = 0; i < s->cfg.l2.banks; i++)
			if (s->banks[i].m.used)
				return set_err(err, "finished with %u L2 MSHR entries still allocated in bank %d",
					       s->banks[i].m.used, i);
		for (int i = 0; i < s->cfg.l2.banks; i++)
			if (s->banks[i].frc.active)
				return set_err(err, "finished with %d FRC entries busy in L2 bank %d", s->banks[i].frc.active, i);
		if (s->st->ctas_done != s->nctas)
			return set_err(err, "finished with %u of %u CTAs done", s->st->ctas_done, s->nctas);
	}
	return 0;
}

/* Also the state hash's audit: every pointer field in the arena was noted
 * (arena_note_ptr), so sim_state_hash leaves them all out. */
int sim_check_invariants(const struct sim *s, char **err)
{
	return check_invariants(s, err, true) ? -1 : arena_check_ptrs(&s->arena, s, sizeof *s, err);
}
