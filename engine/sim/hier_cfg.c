/*
 * hier_cfg.c: parameter tables, cross-field rules and derived values for the
 * cores and the cache hierarchy. The defaults are the built-in `teaching`
 * preset: 2 SMs x 8 warps with tiny caches, so that misses, MSHR merges, full
 * MSHRs and L2 transients all show within a few hundred cycles.
 */
#include <stdio.h>

#include "config.h"

static const char *const sched_names[] = {"lrr", "gto", "two_level", "vws", "rmws", "tbas", "ccws", NULL};
static const char *const tbas_promote_names[] = {"oldest", "successor", NULL};
static const char *const dispatch_names[] = {"round_robin", "serial", NULL};
static const char *const release_names[] = {"in_order", "completion", NULL};
static const char *const coal_names[] = {"fermi", "volta", "si", NULL};
static const char *const repl_names[] = {"lru", "fifo", "random", NULL};
static const char *const index_names[] = {"linear", "fermi_hash", "ipoly", NULL};
static const char *const l1w_names[] = {"write_evict", "write_through", "write_back", NULL};
static const char *const l2w_names[] = {"lazy_fetch", "fetch_on_write", NULL};
static const char *const bankh_names[] = {"linear", "xor", "ipoly", NULL};
static const char *const mem_names[] = {"dram", "fixed", NULL};
static const char *const bypass_names[] = {"none", "all", "locality", "mrpb", NULL};
static const char *const tbas_order_names[] = {"gto", "rmws", NULL};
static const char *const byp_leader_names[] = {"sets", "sms", NULL};
static const char *const byp_leader_select_names[] = {"complement", "fixed", NULL};
static const char *const byp_at_l2_names[] = {"queue", "nack", NULL};
static const char *const when_busy_names[] = {"nack", "queue", NULL}; /* = enum l2_when_busy */
static const char *const ack_channel_names[] = {"separate", "shared", NULL}; /* = enum icnt_ack_channel */
static const char *const payload_names[] = {"line", "segment", NULL}; /* = enum icnt_payload */
static const char *const op_model_names[] = {"warp_busy", "units", NULL}; /* = enum op_model */

#define P_INT(path, field, def, lo, hi, desc) {path, CFG_INT, CFG_OFF(field), def, lo, hi, 0, NULL, desc}
#define P_POW2(path, field, def, lo, hi, desc) {path, CFG_INT, CFG_OFF(field), def, lo, hi, CFG_POW2, NULL, desc}
#define P_BOOL(path, field, def, desc) {path, CFG_BOOL, CFG_OFF(field), def, 0, 1, 0, NULL, desc}
#define P_ENUM(path, field, def, names, desc) {path, CFG_ENUM, CFG_OFF(field), def, 0, 0, 0, names, desc}

static const struct cfg_param core_params[] = {
	P_INT("core.sms", core.sms, "2", 1, 256, "streaming multiprocessors (compute units)"),
	P_INT("core.warps_per_sm", core.warps_per_sm, "8", 1, 64, "warp slots per SM"),
	P_INT("core.warp_size", core.warp_size, "32", 32, 64, "threads per warp: 32 (NVIDIA) or 64 (AMD wavefront)"),
	P_INT("core.simd_width", core.simd_width, "32", 1, 64,
	      "lanes executed per cycle; a warp instruction takes warp_size/simd_width cycles"),
	P_INT("core.ctas_per_sm", core.ctas_per_sm, "4", 1, 64, "resident CTAs (thread blocks) per SM"),
	P_INT("core.threads_per_sm", core.threads_per_sm, "512", 32, 4096, "resident threads per SM"),
	P_INT("core.shmem_per_sm", core.shmem_per_sm, "16384", 0, 1 << 20, "shared memory bytes per SM"),
	P_ENUM("core.scheduler", core.scheduler, "gto", sched_names, "warp scheduler"),
	P_INT("core.schedulers", core.schedulers, "1", 1, 4,
	      "warp schedulers per SM (1, 2 or 4): scheduler k owns the warp slots w with w mod schedulers = k, runs "
	      "core.scheduler over them and issues up to one instruction per cycle (vws, tbas: their active or running "
	      "set stays one per SM, each scheduler issues from its own warps in it)"),
	P_INT("core.active_pool", core.active_pool, "4", 1, 64, "two_level: warps in the active pool (per scheduler)"),
	P_ENUM("core.cta_dispatch", core.cta_dispatch, "round_robin", dispatch_names,
	       "CTA dispatch: round_robin over SMs, or serial (contiguous CTA ranges per SM)"),
	P_ENUM("core.coalescer", core.coalescer, "fermi", coal_names,
	       "fermi: one request per line per warp; volta: per core.coalesce_group lanes per 32 B sector; si: per 16-lane subwavefront per line"),
	P_INT("core.coalesce_group", core.coalesce_group, "8", 1, 64,
	      "volta coalescer: lanes coalesced together, a power of two up to core.warp_size (8: the Volta paper's "
	      "measured groups; the warp size: GPGPU-Sim's code for -gpgpu_coalesce_arch 40 and up)"),
	P_INT("core.mem_inflight", core.mem_inflight, "8", 1, 256,
	      "vector memory buffer: memory instructions in flight per SM (core.mem_release says when an entry frees)"),
	P_ENUM("core.mem_release", core.mem_release, "in_order", release_names,
	       "in_order: buffer entries free in program order (AMD SI's vector memory buffer, Multi2Sim, the FRC thesis); "
	       "completion: an entry frees when its own instruction completes (GPGPU-Sim's LD/ST unit: a load leaves it once "
	       "the L1 took its accesses, the scoreboard waits for the data)"),
	P_BOOL("core.nonblocking_stores", core.nonblocking_stores, "false",
	       "release a store's buffer entry once its requests are issued, not when acknowledged"),
	P_INT("core.shmem_latency", core.shmem_latency, "4", 1, 1000, "shared-memory access latency (cycles, one pass)"),
	P_INT("core.shmem_banks", core.shmem_banks, "32", 1, 64, "shared-memory banks (4-byte wide)"),
	P_INT("core.clock_mhz", core.clock_mhz, "1000", 1, 10000, "core clock (MHz); DRAM timings convert from it"),
	P_BOOL("core.vws_iwl", core.vws_iwl, "true", "vws: IWL working-set estimator throttles the active warps"),
	P_BOOL("core.vws_intracl", core.vws_intracl, "true",
	       "vws: IntraCL, active warps from as few CTAs as possible (else spread over CTAs)"),
	P_BOOL("core.vws_intercl", core.vws_intercl, "true",
	       "vws: InterCL's two-level pool (level 1 of at most core.vws_level1 warps under GTO, demote on a load wait, promote same/predecessor/successor CTA); "
	       "InterCL's serial CTA dispatch is core.cta_dispatch=serial, never implied"),
	P_INT("core.vws_alpha_pct", core.vws_alpha_pct, "10", 1, 100, "vws: sampling length alpha, percent"),
	P_INT("core.vws_beta", core.vws_beta, "4", 1, 64, "vws: throttle aggressiveness beta"),
	P_INT("core.vws_level1", core.vws_level1, "16", 1, 64, "vws: InterCL level-1 warps"),
	P_INT("core.vws_nact", core.vws_nact, "0", 0, 64, "vws: fixed active-warp window (0 = estimated by IWL)"),
	P_INT("core.ccws_vta_entries", core.ccws_vta_entries, "16", 1, 64,
	      "ccws: victim tag array entries per warp (tags of L1 lines the warp allocated and lost)"),
	P_INT("core.ccws_vta_ways", core.ccws_vta_ways, "8", 1, 64, "ccws: victim tag array associativity (FIFO)"),
	P_INT("core.ccws_base_score", core.ccws_base_score, "100", 1, 100000,
	      "ccws: base lost-locality score; the cutoff is live warps x base"),
	P_INT("core.ccws_kthrottle", core.ccws_kthrottle, "8", 0, 1000,
	      "ccws: a lost-locality hit adds hits/instructions x kthrottle x cutoff to the warp's score"),
	P_INT("core.ccws_kcap", core.ccws_kcap, "8", 0, 1000,
	      "ccws: a score is capped at max(base, hits/instructions x kcap x cutoff) (0 = no cap)"),
	P_INT("core.ccws_decay", core.ccws_decay, "1", 1, 100000,
	      "ccws: points a score above the base loses per core cycle (the release's points per cycle)"),
	P_INT("core.batch_stride", core.batch_stride, "1", 1, 1 << 20, "tbas: CTAs per thread batch (batch = floor(ctaid / stride))"),
	P_INT("core.tbas_running", core.tbas_running, "8", 1, 64, "tbas: warps in the running set (all from one batch)"),
	P_INT("core.tbas_threshold", core.tbas_threshold, "2", 1, 64, "tbas: swap batches when the running one has fewer active warps"),
	P_ENUM("core.tbas_promote", core.tbas_promote, "oldest", tbas_promote_names,
	       "tbas: promote the oldest batch with enough active warps, or the successor of the demoted one"),
	P_ENUM("core.tbas_order", core.tbas_order, "gto", tbas_order_names,
	       "tbas: order inside the running set: gto (the thesis's TBAS) or rmws (racetrack score first, ties per rf.rmws_tiebreak; a combination the thesis leaves as future work)"),
	P_INT("core.kernel_launch_latency", core.kernel_launch_latency, "0", 0, 10000000,
	      "cycles from a kernel's start (the run's start, or the previous kernel's end) to its first CTA dispatch "
	      "(GPGPU-Sim -gpgpu_kernel_launch_latency)"),
	P_INT("core.cta_launch_latency", core.cta_launch_latency, "0", 0, 1000000,
	      "cycles from a CTA's dispatch to its warps' first issue; the warps wait as `inactive` "
	      "(GPGPU-Sim -gpgpu_TB_launch_latency charges it per CTA before the kernel's first dispatch: docs/MODEL.md)"),
	P_ENUM("core.op_model", core.op_model, "warp_busy", op_model_names,
	       "ALU timing: warp_busy (an `alu N` keeps its warp busy N issue cycles, a trace instruction its trace.* "
	       "cycles; no unit is shared) or units (execution units with a latency and an initiation interval, "
	       "core.op_*; docs/MODEL.md)"),
	P_BOOL("core.op_sub_core", core.op_sub_core, "false",
	       "op_model=units: unit k of a class serves only scheduler k mod core.schedulers (a class with "
	       "fewer units than schedulers: scheduler s uses unit s mod units; GPGPU-Sim -gpgpu_sub_core_model); "
	       "false: any unit serves any scheduler"),
	P_INT("core.op_sp_latency", core.op_latency[0], "4", 1, 10000,
	      "op_model=units (defaults: Accel-Sim's trace-mode defaults and GPGPU-Sim's unit counts): cycles from a sp instruction entering its unit to its result (scoreboard); fp32 and fp16 arithmetic (FADD FFMA HFMA2 ...; `alu N`, `alu.sp N`)"),
	P_INT("core.op_sp_initiation", core.op_initiation[0], "1", 1, 10000,
	      "op_model=units: cycles a sp unit takes before it accepts the next instruction"),
	P_INT("core.op_sp_units", core.op_units[0], "1", 1, 8, "op_model=units: sp units per SM"),
	P_INT("core.op_int_latency", core.op_latency[1], "4", 1, 10000,
	      "op_model=units: cycles from a int instruction entering its unit to its result (scoreboard); integer, logic, moves, conversions, predicates and other ALU SASS (IMAD LOP3 MOV S2R ...; `alu.int N`); 0 units: runs on sp"),
	P_INT("core.op_int_initiation", core.op_initiation[1], "1", 1, 10000,
	      "op_model=units: cycles a int unit takes before it accepts the next instruction"),
	P_INT("core.op_int_units", core.op_units[1], "0", 0, 8, "op_model=units: int units per SM"),
	P_INT("core.op_dp_latency", core.op_latency[2], "4", 1, 10000,
	      "op_model=units: cycles from a dp instruction entering its unit to its result (scoreboard); fp64 arithmetic (DADD DFMA ...; `alu.dp N`); 0 units: runs on sfu"),
	P_INT("core.op_dp_initiation", core.op_initiation[2], "1", 1, 10000,
	      "op_model=units: cycles a dp unit takes before it accepts the next instruction"),
	P_INT("core.op_dp_units", core.op_units[2], "0", 0, 8, "op_model=units: dp units per SM"),
	P_INT("core.op_sfu_latency", core.op_latency[3], "4", 1, 10000,
	      "op_model=units: cycles from a sfu instruction entering its unit to its result (scoreboard); special functions (MUFU; `alu.sfu N`); 0 units: runs on sp"),
	P_INT("core.op_sfu_initiation", core.op_initiation[3], "1", 1, 10000,
	      "op_model=units: cycles a sfu unit takes before it accepts the next instruction"),
	P_INT("core.op_sfu_units", core.op_units[3], "1", 0, 8, "op_model=units: sfu units per SM"),
	P_INT("core.op_tensor_latency", core.op_latency[4], "4", 1, 10000,
	      "op_model=units: cycles from a tensor instruction entering its unit to its result (scoreboard); tensor cores (HMMA IMMA ...; `alu.tensor N`); 0 units: runs on sp"),
	P_INT("core.op_tensor_initiation", core.op_initiation[4], "1", 1, 10000,
	      "op_model=units: cycles a tensor unit takes before it accepts the next instruction"),
	P_INT("core.op_tensor_units", core.op_units[4], "0", 0, 8, "op_model=units: tensor units per SM"),
	P_INT("core.op_branch_latency", core.op_latency[5], "4", 1, 10000,
	      "op_model=units: cycles from a branch instruction entering its unit to its result (scoreboard); branches and convergence barriers (BRA BSSY BSYNC ...; `alu.branch N`; Accel-Sim's specialized unit 1); 0 units: runs on int"),
	P_INT("core.op_branch_initiation", core.op_initiation[5], "1", 1, 10000,
	      "op_model=units: cycles a branch unit takes before it accepts the next instruction"),
	P_INT("core.op_branch_units", core.op_units[5], "0", 0, 8, "op_model=units: branch units per SM"),
};

static int core_validate(const struct sim_cfg *c, char **err)
{
	if (c->core.warp_size != 32 && c->core.warp_size != 64)
		return set_err(err, "core.warp_size: must be 32 or 64, got %d", c->core.warp_size);
	if (c->core.simd_width > c->core.warp_size || c->core.warp_size % c->core.simd_width)
		return set_err(err, "core.simd_width: must divide core.warp_size (%d), got %d", c->core.warp_size,
			       c->core.simd_width);
	if (c->core.threads_per_sm < c->core.warp_size)
		return set_err(err, "core.threads_per_sm: must hold at least one warp (%d threads), got %d",
			       c->core.warp_size, c->core.threads_per_sm);
	if (c->core.active_pool > c->core.warps_per_sm)
		return set_err(err, "core.active_pool: must be <= core.warps_per_sm (%d), got %d",
			       c->core.warps_per_sm, c->core.active_pool);
	if (c->core.schedulers != 1 && c->core.schedulers != 2 && c->core.schedulers != 4)
		return set_err(err, "core.schedulers: must be 1, 2 or 4, got %d", c->core.schedulers);
	if (c->core.ccws_vta_entries % c->core.ccws_vta_ways)
		return set_err(err, "core.ccws_vta_entries: must be a multiple of core.ccws_vta_ways (%d), got %d",
			       c->core.ccws_vta_ways, c->core.ccws_vta_entries);
	if (c->core.scheduler == SCHED_CCWS && c->l2.coh.protocol)
		return set_err(err, "core.scheduler: ccws feeds its victim tag arrays from the plain L1; "
				    "coherence.protocol must be none");
	if (c->core.coalescer == COAL_VOLTA && c->core.warp_size != 32)
		return set_err(err, "core.coalescer: volta needs core.warp_size 32, got %d", c->core.warp_size);
	if (c->core.coalesce_group & (c->core.coalesce_group - 1) || c->core.coalesce_group > c->core.warp_size)
		return set_err(err, "core.coalesce_group: must be a power of two up to core.warp_size (%d), got %d",
			       c->core.warp_size, c->core.coalesce_group);
	return 0;
}

static void core_derived(const struct sim_cfg *c, struct strbuf *o)
{
	int wpsm = c->core.threads_per_sm / c->core.warp_size;
	sb_printf(o, "core.threads_total         = %d   (sms x warps_per_sm x warp_size)\n",
		  c->core.sms * c->core.warps_per_sm * c->core.warp_size);
	sb_printf(o, "core.issue_cycles_per_inst = %d   (warp_size / simd_width)\n",
		  c->core.warp_size / c->core.simd_width);
	sb_printf(o, "core.warps_limit           = %d   (min of warp slots and threads_per_sm / warp_size)\n",
		  wpsm < c->core.warps_per_sm ? wpsm : c->core.warps_per_sm);
}

const struct cfg_section core_cfg_section = {
	.name = "core",
	.params = core_params,
	.nparams = ARRAY_LEN(core_params),
	.validate = core_validate,
	.derived = core_derived,
};

static const struct cfg_param l1_params[] = {
	P_BOOL("l1.enabled", l1.enabled, "true", "L1 data cache present (false: every access goes to the L2)"),
	P_POW2("l1.sets", l1.sets, "8", 1, 65536, "L1 sets"),
	P_INT("l1.ways", l1.ways, "4", 1, 256, "L1 associativity"),
	P_POW2("l1.line", l1.line, "128", 16, 1024, "L1 line bytes"),
	P_INT("l1.sector", l1.sector, "0", 0, 1024, "sector bytes (0 = not sectored)"),
	P_ENUM("l1.repl", l1.repl, "lru", repl_names, "replacement policy"),
	P_ENUM("l1.index", l1.index, "linear", index_names, "set-index function"),
	P_INT("l1.hit_latency", l1.hit_latency, "4", 1, 1000, "L1 hit latency (cycles)"),
	P_ENUM("l1.write_policy", l1.write_policy, "write_evict", l1w_names,
	       "write_evict / write_through (no write-allocate) or write_back (write-allocate)"),
	P_BOOL("l1.streaming", l1.streaming, "false",
	       "Volta streaming L1: lines allocated on fill, so misses never fail for want of a line"),
	P_INT("l1.ports", l1.ports, "1", 1, 64, "L1 lookups per cycle"),
	P_INT("l1.mshr.entries", l1.mshr_entries, "8", 1, 8192, "L1 MSHR entries (outstanding lines)"),
	P_INT("l1.mshr.capacity", l1.mshr_capacity, "0", 0, 8192,
	      "L1 MSHR entries allocated (0 = l1.mshr.entries; at least l1.mshr.entries): room a whatif can raise "
	      "l1.mshr.entries into mid-run; no other effect"),
	P_INT("l1.mshr.merges", l1.mshr_merges, "4", 1, 256, "requests per MSHR entry, the first included"),
	P_INT("l1.mshr.per_warp", l1.mshr_per_warp, "0", 0, 8192, "MSHR entries one warp may hold (0 = no limit)"),
	P_INT("l1.wait_queue", l1.wait_queue, "8", 1, 4096, "requests waiting for an MSHR entry (FIFO)"),
	P_INT("l1.miss_queue", l1.miss_queue, "8", 1, 4096, "requests waiting for the crossbar"),
	P_INT("l1.retry_delay", l1.retry_delay, "8", 0, 100000, "cycles before re-sending a request the L2 refused"),
	P_ENUM("l1.bypass", l1.bypass, "none", bypass_names,
	       "load bypassing: none, all (every load goes to the L2), locality (decoupled tag store with reference counts, notes 004), "
	       "mrpb (stall-based: a load bypasses when it would wait for an MSHR or a line)"),
	P_INT("l1.bypass_tag_ways", l1.bypass_tag_ways, "8", 2, 256,
	      "locality: tag-store ways per set (must exceed l1.ways; the paper doubles 4 to 8)"),
	P_INT("l1.bypass_threshold", l1.bypass_threshold, "2", 0, 62,
	      "locality: a tag-only block gets a data line once its reference count exceeds this (0 = plain L1)"),
	P_INT("l1.bypass_aging", l1.bypass_aging, "2", 1, 2,
	      "locality: RC decrements of the other tags per replacement: 2 (at eviction and allocation, literal) or 1"),
	P_BOOL("l1.bypass_gone_ages", l1.bypass_gone_ages, "true",
	       "locality: a committed line that leaves without a replacement (a store's write-evict, an L2 invalidation) ages its set once, as a data-store eviction (notes 004 gap 8; the paper is silent); false: its tag just goes back to candidate"),
	P_INT("l1.bypass_tag_cycles", l1.bypass_tag_cycles, "1", 0, 100,
	      "locality: extra hit latency of the larger tag probe (the paper assumes 1)"),
	P_BOOL("l1.bypass_duel", l1.bypass_duel, "true",
	       "locality: dueling (decoupled and plain leaders, the others follow the better; l1.bypass_leaders picks the leaders)"),
	P_INT("l1.bypass_duel_interval", l1.bypass_duel_interval, "500", 1, 1 << 30, "locality: dueling interval (cycles)"),
	P_INT("l1.bypass_duel_diff", l1.bypass_duel_diff, "10", 0, 100,
	      "locality: followers turn plain when the decoupled leaders' miss rate exceeds the plain leaders' by more than this many points"),
	P_ENUM("l1.bypass_leaders", l1.bypass_leaders, "sets", byp_leader_names,
	       "locality: dueling leaders: sets (l1.bypass_duel_sets sets of each mode in every SM, set dueling) or sms (SM0 decoupled, SM1 plain); no dueling (every set decoupled) with 1 set or 1 SM"),
	P_INT("l1.bypass_duel_sets", l1.bypass_duel_sets, "1", 1, 32768,
	      "locality: leader sets of each mode per SM (power of two, at most l1.sets / 2), one of each in every group of l1.sets / n consecutive sets (l1.bypass_leader_select places them)"),
	P_ENUM("l1.bypass_leader_select", l1.bypass_leader_select, "complement", byp_leader_select_names,
	       "locality: where the leader sets lie, with P = l1.sets / l1.bypass_duel_sets: complement (Qureshi's complement-select, rotated per SM: in group c of SM i the decoupled leader is offset (c + i) mod P, the plain leader P - 1 minus that, so SMs lead different sets) or fixed (offset 0 decoupled, P/2 plain, the same sets in every SM; before 2026-11-28)"),
	P_BOOL("l1.bypass_duel_cold_hold", l1.bypass_duel_cold_hold, "false",
	       "locality: true = an interval in which both leader groups missed every lookup changes nothing; false (default) = the paper's literal rule (no higher miss rate -> decoupled; a streaming kernel turns decoupled)"),
	P_BOOL("l1.bypass_duel_unsure_hold", l1.bypass_duel_unsure_hold, "false",
	       "locality: true = an interval whose leader lookups cannot tell the modes apart (l1.bypass_duel_diff within the 95 % margin of the miss-rate difference, Agresti-Caffo) changes nothing; false (default) = the paper's rule acts on every interval"),
	P_ENUM("l1.bypass_at_l2", l1.bypass_at_l2, "queue", byp_at_l2_names,
	       "bypassed loads the L2 cannot take now (no MSHR entry or merge slot, memory queue full, line in transition): queue (wait at the head of the bank's input queue, the paper's GPGPU-Sim baseline) or nack (refused and retried after l1.retry_delay)"),
};

static int l1_validate(const struct sim_cfg *c, char **err)
{
	const struct l1_cfg *l = &c->l1;
	if (l->sector && (!is_pow2((uint64_t)l->sector) || l->sector > l->line || l->line / l->sector > 32))
		return set_err(err, "l1.sector: must be 0 or a power of two dividing l1.line (%d) into at most 32, got %d",
			       l->line, l->sector);
	if (l->index == IDX_IPOLY && (l->sets < 2 || l->sets > 4096))
		return set_err(err, "l1.index: ipoly needs l1.sets between 2 and 4096, got %d", l->sets);
	if (l->bypass == L1B_LOCALITY) {
		if (l->bypass_tag_ways <= l->ways)
			return set_err(err, "l1.bypass_tag_ways: must exceed l1.ways (%d) for locality bypassing, got %d",
				       l->ways, l->bypass_tag_ways);
		if (l->streaming)
			return set_err(err, "l1.bypass: locality needs allocate-on-miss (l1.streaming false)");
		if (l->write_policy == L1W_WRITE_BACK)
			return set_err(err, "l1.bypass: locality needs a write-through L1 (l1.write_policy write_evict or write_through)");
		if (!l->enabled)
			return set_err(err, "l1.bypass: locality needs l1.enabled true");
	}
	if (l->bypass == L1B_LOCALITY && l->bypass_duel && l->bypass_leaders == BYPL_SETS && l->sets >= 2 &&
	    (!is_pow2((uint64_t)l->bypass_duel_sets) || 2 * l->bypass_duel_sets > l->sets))
		return set_err(err, "l1.bypass_duel_sets: must be a power of two and at most l1.sets / 2 (%d), got %d",
			       l->sets / 2, l->bypass_duel_sets);
	if (l->bypass == L1B_MRPB && !l->enabled)
		return set_err(err, "l1.bypass: mrpb needs l1.enabled true");
	return 0;
}

static void l1_derived(const struct sim_cfg *c, struct strbuf *o)
{
	const struct l1_cfg *l = &c->l1;
	sb_printf(o, "l1.bytes                   = %d   (sets x ways x line, per SM)\n", l->sets * l->ways * l->line);
	sb_printf(o, "l1.offset_bits             = %u\n", log2u((uint64_t)l->line));
	sb_printf(o, "l1.index_bits              = %u\n", log2u((uint64_t)l->sets));
	sb_printf(o, "l1.sectors_per_line        = %d\n", l->sector ? l->line / l->sector : 1);
}

const struct cfg_section l1_cfg_section = {
	.name = "l1",
	.params = l1_params,
	.nparams = ARRAY_LEN(l1_params),
	.validate = l1_validate,
	.derived = l1_derived,
};

/* Instruction cache and fetch (engine/mem/l1i.c, engine/core/fetch.c;
 * docs/MODEL.md "Instruction cache and fetch"). The defaults with
 * l1i.enabled are GPGPU-Sim's: -gpgpu_cache:il1 4:128:4 (its default string
 * has 256 B lines; gpustep's lines are l1.line), MSHR A:2:32 (the merge
 * count: warps per entry here), the 2-instruction ibuffer (shader.h
 * IBUFFER_SIZE), -gpgpu_inst_fetch_throughput 1, 16 B instructions (SASS
 * since Volta; Fermi's are 8 B). */
static const struct cfg_param l1i_params[] = {
	P_BOOL("l1i.enabled", l1i.enabled, "false",
	       "L1 instruction cache and fetch per SM: a warp issues only what its instruction buffer holds, fetched through "
	       "the L1I whose misses go to the L2 like data (false: instructions are always there, no fetch modelled); no "
	       "effect with a coherence protocol"),
	P_BOOL("l1i.perfect", l1i.perfect, "false",
	       "l1i.enabled: every L1I lookup hits (GPGPU-Sim -gpgpu_perfect_inst_const_cache 1): fetch and the "
	       "instruction buffers stay, no instruction ever goes to the L2"),
	P_POW2("l1i.sets", l1i.sets, "4", 1, 65536, "L1I sets (lines are l1.line bytes)"),
	P_INT("l1i.ways", l1i.ways, "4", 1, 256, "L1I associativity (LRU, allocate on fill)"),
	P_INT("l1i.hit_latency", l1i.hit_latency, "2", 1, 1000,
	      "cycles from a fetch's L1I hit to its instructions in the warp's buffer (GPGPU-Sim: fetch, then decode the "
	      "next cycle, issue the cycle after: 2)"),
	P_INT("l1i.mshr.entries", l1i.mshr_entries, "2", 1, 1024, "L1I MSHR entries (instruction lines being fetched)"),
	P_INT("l1i.mshr.merges", l1i.mshr_merges, "32", 1, 1024, "warps waiting on one L1I MSHR entry, the first included"),
	P_INT("core.ibuffer", l1i.ibuffer, "2", 1, 64,
	      "l1i.enabled: instructions per warp buffer; a fetch fills the buffer (up to the end of the line) once it is empty"),
	P_INT("core.fetch_width", l1i.fetch_width, "1", 1, 64,
	      "l1i.enabled: fetches per SM per cycle (GPGPU-Sim -gpgpu_inst_fetch_throughput), warps taken round robin"),
	P_INT("core.inst_size", l1i.inst_size, "16", 1, 256,
	      "l1i.enabled: bytes per instruction: built-in kernel statement i is at code address i x inst_size; a buffer "
	      "holds consecutive instructions this far apart (16: SASS since Volta; 8: Fermi to Pascal)"),
};

static int l1i_validate(const struct sim_cfg *c, char **err)
{
	const struct l1i_cfg *l = &c->l1i;
	if (!l->enabled)
		return 0;
	if (l->inst_size > c->l1.line)
		return set_err(err, "core.inst_size: must be at most l1.line (%d), got %d", c->l1.line, l->inst_size);
	return 0;
}

static void l1i_derived(const struct sim_cfg *c, struct strbuf *o)
{
	const struct l1i_cfg *l = &c->l1i;
	if (!l->enabled)
		return;
	if (!l1i_active(c)) {
		sb_printf(o, "l1i.enabled (in effect)    = false   (no effect with a coherence protocol: instructions are always there)\n");
		return;
	}
	sb_printf(o, "l1i.bytes                  = %d   (sets x ways x l1.line, per SM)\n", l->sets * l->ways * c->l1.line);
	sb_printf(o, "l1i.insts_per_line         = %d   (l1.line / core.inst_size)\n", c->l1.line / l->inst_size);
}

const struct cfg_section l1i_cfg_section = {
	.name = "l1i",
	.params = l1i_params,
	.nparams = ARRAY_LEN(l1i_params),
	.validate = l1i_validate,
	.derived = l1i_derived,
};

static const char *const frc_victim_names[] = {"at_swap", "at_miss", NULL};
static const char *const frc_mshr_names[] = {"separate", "shared", NULL};
static const char *const l2sh_names[] = {"exact", "superset", "off", NULL}; /* = enum l2_sharers */
static const char *const l2ev_names[] = {"serial", "accepted", "overlap", NULL}; /* = enum l2_evict_order */
static const char *const l2fr_names[] = {"pipeline", "at_once", NULL};            /* = enum l2_fill_reply */
static const char *const frc_index_names[] = {"xor", "linear", "skip_l2_set_bits", "global", NULL}; /* = enum frc_index */
static const char *const coh_names[] = {"none", "si", "nmoesi", "moesi", NULL}; /* = enum coh_proto_id */
static const char *const kb_names[] = {"flush", "none", NULL}; /* = enum coh_kernel_boundary */

static const struct cfg_param l2_params[] = {
	P_INT("l2.banks", l2.banks, "2", 1, 256, "L2 banks (slices)"),
	P_POW2("l2.sets", l2.sets, "16", 1, 1 << 20, "sets per bank"),
	P_INT("l2.ways", l2.ways, "4", 1, 256, "L2 associativity"),
	P_POW2("l2.line", l2.line, "128", 16, 1024, "L2 line bytes"),
	P_INT("l2.sector", l2.sector, "0", 0, 1024, "sector bytes (0 = not sectored)"),
	P_ENUM("l2.repl", l2.repl, "lru", repl_names, "replacement policy"),
	P_ENUM("l2.index", l2.index, "linear", index_names, "set-index function within a bank"),
	P_INT("l2.hit_latency", l2.hit_latency, "10", 1, 1000, "L2 lookup latency (cycles)"),
	P_POW2("l2.interleave", l2.interleave, "256", 16, 1 << 20, "consecutive bytes mapped to one bank"),
	P_ENUM("l2.bank_hash", l2.bank_hash, "linear", bankh_names,
	       "address to bank mapping; with l2.banks_per_channel, GPGPU-Sim's partition indexing "
	       "(-gpgpu_memory_partition_indexing 0 linear, 1 xor, 2 ipoly) over its sub-partitions"),
	P_INT("l2.banks_per_channel", l2.banks_per_channel, "0", 0, 64,
	      "L2 sub-partitions per DRAM channel (GPGPU-Sim's -gpgpu_n_sub_partition_per_mchannel): l2.banks = "
	      "dram.channels x this, an address's bank is its DRAM channel x this + the low bits of its DRAM bank "
	      "(then l2.bank_hash), its channel that bank's, and l2.interleave is unused; 0 = banks chosen by "
	      "l2.interleave and l2.bank_hash alone, independent of the DRAM channel"),
	P_INT("l2.mshr.entries", l2.mshr_entries, "8", 1, 8192, "L2 MSHR entries per bank"),
	P_INT("l2.mshr.capacity", l2.mshr_capacity, "0", 0, 8192,
	      "L2 MSHR entries allocated per bank (0 = l2.mshr.entries; at least l2.mshr.entries): room a whatif can "
	      "raise l2.mshr.entries into mid-run; no other effect"),
	P_INT("l2.mshr.merges", l2.mshr_merges, "8", 1, 256, "requests per L2 MSHR entry"),
	P_BOOL("l2.sector_mem", l2.sector_mem, "false",
	       "with l2.sector: a fetch or write-back moves only its sectors at the DRAM (popcount x l2.sector bytes in "
	       "whole bursts, as GPGPU-Sim's sectored L2 sends one l2.sector-byte request per sector); false: every "
	       "request moves the whole line"),
	P_ENUM("l2.write_fetch", l2.write_fetch, "lazy_fetch", l2w_names,
	       "write miss: lazy_fetch (allocate, mark written sectors, fetch on a later read) or fetch_on_write"),
	P_INT("l2.queue", l2.queue, "8", 1, 4096, "input queue per bank (requests, including those in the crossbar)"),
	P_INT("l2.ports", l2.ports, "1", 1, 64, "lookups per cycle per bank"),
	P_ENUM("l2.when_busy", l2.when_busy, "nack", when_busy_names,
	       "an L1 request (fetch, store, atomic, write-back) the bank cannot take now (no MSHR entry or merge slot, "
	       "memory queue or request pool full, line or whole set in transition): nack (refused, the L1 re-sends "
	       "after l1.retry_delay: Multi2Sim, the FRC thesis) or queue (waits at the head of the bank's input queue, "
	       "the requests behind it too: GPGPU-Sim); loads the L1 bypassed follow l1.bypass_at_l2; no effect (nack) "
	       "with an FRC or a coherence protocol"),
	P_ENUM("l2.sharers", l2.sharers, "exact", l2sh_names,
	       "with coherence.protocol=none the L2 records which L1s got each line and invalidates their copies "
	       "(Inv, ack) before replacing it, as the FRC thesis's L2 does: exact (L1 evictions leave the record, as "
	       "if notified; the notices are not modelled as traffic), superset (L1 evictions are silent: every L1 "
	       "ever sent the line is invalidated), off (no invalidations)"),
	P_ENUM("l2.evict_order", l2.evict_order, "serial", l2ev_names,
	       "conventional miss with a dirty victim: the fetch leaves once memory has completed the write-back "
	       "(serial, the FRC thesis's order), once memory has accepted it (accepted), or queued right behind it "
	       "(overlap)"),
	P_ENUM("l2.fill_reply", l2.fill_reply, "pipeline", l2fr_names,
	       "when the requests a fill from memory answers get their replies: after l2.hit_latency (pipeline: every "
	       "request passes the L2's pipeline, as GPGPU-Sim's ROP latency applies to misses too, so a miss costs "
	       "the hit latency plus memory) or at once (at_once, the model before 2026-11-25: where l2.hit_latency "
	       "exceeds the memory's latency, as on gtx480, an L2 miss then answers sooner than an L2 hit)"),
	P_INT("l2.fill_port_cycles", l2.fill_port_cycles, "1", 0, 64,
	      "L2 port cycles a fill from memory takes (the data-array write; lookups wait)"),
	P_INT("l2.dram_latency", l2.dram_latency, "0", 0, 100000,
	      "fixed latency stage between the L2 and the DRAM controller, in core cycles (GPGPU-Sim's -dram_latency): a "
	      "request (fetch or write-back) the DRAM would take waits this long in a FIFO per bank, then enters the "
	      "controller's queue when it has room; replies are not delayed. 0 = no stage. Only with mem.model = dram"),
	P_INT("l2.frc.entries", l2.frc.entries, "0", 0, 4096,
	      "Fetch and Replacement Cache entries per bank (0 = none; the thesis evaluates 4-512)"),
	P_INT("l2.frc.ways", l2.frc.ways, "8", 1, 4096, "FRC associativity (8 in the thesis; sets = entries / ways)"),
	P_INT("l2.frc.swap_cycles", l2.frc.swap_cycles, "3", 0, 1000, "cycles to swap an FRC entry with its L2 victim line"),
	P_INT("l2.frc.lookup_cycles", l2.frc.lookup_cycles, "1", 0, 1000, "FRC tag lookup after the L2 tag miss"),
	P_ENUM("l2.frc.victim", l2.frc.victim, "at_swap", frc_victim_names,
	       "when the L2 victim is chosen: at_swap (keeps it readable longest) or at_miss"),
	P_BOOL("l2.frc.serve_evicting", l2.frc.serve_evicting, "false",
	       "serve hits on the victim block while its FRC entry is evicting it (an extension)"),
	P_ENUM("l2.frc.mshr", l2.frc.mshr, "separate", frc_mshr_names,
	       "FRC entries track misses in addition to the L2 MSHRs (separate) or use them up (shared)"),
	P_ENUM("l2.frc.index", l2.frc.index, "xor", frc_index_names,
	       "FRC set of a block, from its line number within the bank: xor (all bits folded), linear (low bits: "
	       "misses to one L2 set share one FRC set), skip_l2_set_bits (bits above the L2 set index: misses to one "
	       "L2 set spread, a stream does not), global (line address mod sets, bank bits included: sets alias)"),
	P_INT("l2.frc.fill_port_cycles", l2.frc.fill_port_cycles, "1", 0, 64,
	      "L2 port cycles an FRC fill takes (the block is written and its requesters answered)"),
	P_INT("l2.frc.swap_port_cycles", l2.frc.swap_port_cycles, "2", 0, 64,
	      "L2 port cycles an FRC swap takes (victim read from and block written into the L2 data array)"),
	P_ENUM("coherence.protocol", l2.coh.protocol, "none", coh_names,
	       "coherence protocol between the L1s (directory in the L2): none, si, nmoesi, moesi (docs/COHERENCE.md)"),
	P_INT("coherence.dir_latency", l2.coh.dir_latency, "2", 0, 1000,
	      "directory cycles added to every directory message (grant, Inv, Recall, Nack) on top of l2.hit_latency"),
	P_ENUM("coherence.kernel_boundary", l2.coh.kernel_boundary, "flush", kb_names,
	       "between back-to-back kernels under si/nmoesi: flush (release: N lines written back, write-throughs "
	       "drained; acquire: S/V copies invalidated) or none; moesi needs neither (docs/COHERENCE.md)"),
	P_BOOL("coherence.check_values", l2.coh.check_values, "false",
	       "keep a shadow data value per 4-byte word in every L1 copy, L2 line and memory and check every load "
	       "against the protocol's consistency model; timing unchanged (docs/COHERENCE.md)"),
	P_INT("coherence.value_words", l2.coh.value_words, "65536", 16, 1 << 26,
	      "coherence.check_values: distinct words stored to that the value store can track (sized at start: "
	      "48 B per word; running out stops the run with a message)"),
};

static int l2_validate(const struct sim_cfg *c, char **err)
{
	const struct l2_cfg *l = &c->l2;
	if (l->sector && (!is_pow2((uint64_t)l->sector) || l->sector > l->line || l->line / l->sector > 32))
		return set_err(err, "l2.sector: must be 0 or a power of two dividing l2.line (%d) into at most 32, got %d",
			       l->line, l->sector);
	if (l->interleave < l->line)
		return set_err(err, "l2.interleave: must be >= l2.line (%d), got %d", l->line, l->interleave);
	if (c->l1.line != l->line)
		return set_err(err, "l1.line: must equal l2.line (%d), got %d", l->line, c->l1.line);
	if (c->l1.sector != l->sector)
		return set_err(err, "l1.sector: must equal l2.sector (%d), got %d", l->sector, c->l1.sector);
	if (l->banks_per_channel) {
		if (!is_pow2((uint64_t)l->banks_per_channel))
			return set_err(err, "l2.banks_per_channel: must be a power of two (GPGPU-Sim's sub-partition bits), got %d",
				       l->banks_per_channel);
		if (l->banks != c->dram.channels * l->banks_per_channel)
			return set_err(err,
				       "l2.banks: with l2.banks_per_channel = %d must be dram.channels (%d) x %d = %d, got %d",
				       l->banks_per_channel, c->dram.channels, l->banks_per_channel,
				       c->dram.channels * l->banks_per_channel, l->banks);
		if (c->dram.page_alloc == DRAM_ALLOC_TEMP)
			return set_err(err, "l2.banks_per_channel: not with dram.page_alloc = temp (TEMP chooses a page's "
					    "channel, the sub-partitions fix it by address)");
	} else if (l->bank_hash != BANKH_LINEAR && !is_pow2((uint64_t)l->banks)) {
		return set_err(err, "l2.bank_hash: %s needs a power-of-two l2.banks, got %d",
			       l->bank_hash == BANKH_XOR ? "xor" : "ipoly", l->banks);
	}
	if (l->index == IDX_IPOLY && (l->sets < 2 || l->sets > 4096))
		return set_err(err, "l2.index: ipoly needs l2.sets between 2 and 4096, got %d", l->sets);
	if (l->coh.protocol) {
		if (!c->l1.enabled || c->l1.streaming || c->l1.bypass != L1B_NONE)
			return set_err(err, "coherence.protocol: needs l1.enabled, l1.streaming false and l1.bypass none");
	}
	if (l->coh.check_values) {
		if (!l->coh.protocol)
			return set_err(err, "coherence.check_values: needs coherence.protocol si, nmoesi or moesi");
		if (l->frc.entries)
			return set_err(err, "coherence.check_values: not supported with the FRC (l2.frc.entries > 0)");
		if (l->line > 256)
			return set_err(err, "coherence.check_values: needs l2.line <= 256 (64 words), got %d", l->line);
	}
	if (l->frc.entries) {
		if (l->frc.ways > l->frc.entries)
			return set_err(err, "l2.frc.ways: must be <= l2.frc.entries (%d), got %d", l->frc.entries,
				       l->frc.ways);
		if (l->frc.entries % l->frc.ways || !is_pow2((uint64_t)(l->frc.entries / l->frc.ways)))
			return set_err(err, "l2.frc.entries: must be ways (%d) x a power of two sets, got %d", l->frc.ways,
				       l->frc.entries);
		if (l->frc.index == FRC_IDX_SKIP_L2_SET_BITS && l->index != IDX_LINEAR)
			return set_err(err, "l2.frc.index: skip_l2_set_bits needs l2.index=linear (the L2 set is then the "
					    "low bits of the line number), got l2.index=%s",
				       l->index == IDX_FERMI_HASH ? "fermi_hash" : "ipoly");
	}
	return 0;
}

static void l2_derived(const struct sim_cfg *c, struct strbuf *o)
{
	const struct l2_cfg *l = &c->l2;
	long bank = (long)l->sets * l->ways * l->line;
	sb_printf(o, "l2.bytes_per_bank          = %ld\n", bank);
	sb_printf(o, "l2.bytes                   = %ld   (all banks)\n", bank * l->banks);
	if (l->banks_per_channel)
		sb_printf(o, "l2.bank                    = DRAM channel x %d + low DRAM bank bits, %s partition indexing\n",
			  l->banks_per_channel, bankh_names[l->bank_hash]);
	else
		sb_printf(o, "l2.bank_bits               = addr bits %u.. (interleave %d B)\n",
			  log2u((uint64_t)l->interleave), l->interleave);
	sb_printf(o, "l2.index_bits              = %u\n", log2u((uint64_t)l->sets));
	if (l->when_busy == L2WB_QUEUE && (l->frc.entries || l->coh.protocol))
		sb_printf(o, "l2.when_busy (in effect)   = nack   (queue has no effect with %s)\n",
			  l->coh.protocol ? "a coherence protocol" : "an FRC");
	if (l->frc.entries)
		sb_printf(o, "l2.frc.sets                = %d   (%d entries / %d ways, %d B of data per bank; index %s)\n",
			  l->frc.entries / l->frc.ways, l->frc.entries, l->frc.ways, l->frc.entries * l->line,
			  frc_index_names[l->frc.index]);
}

const struct cfg_section l2_cfg_section = {
	.name = "l2",
	.params = l2_params,
	.nparams = ARRAY_LEN(l2_params),
	.validate = l2_validate,
	.derived = l2_derived,
};

static const struct cfg_param icnt_params[] = {
	P_INT("icnt.latency", icnt.latency, "4", 0, 10000, "crossbar traversal latency (cycles)"),
	P_INT("icnt.flit_bytes", icnt.flit_bytes, "32", 4, 1024, "bytes per flit"),
	P_INT("icnt.port_flits", icnt.port_flits, "1", 1, 64, "flits per cycle per port"),
	P_INT("icnt.queue", icnt.queue, "16", 1, 4096, "packets buffered per destination port (credits)"),
	P_ENUM("icnt.ack_channel", icnt.ack_channel, "separate", ack_channel_names,
	       "invalidation Acks of l2.sharers (L1 -> L2): separate = their own virtual channel (L1 output queue, "
	       "crossbar credits, L2 input queue of l2.queue packets, served first), so they never wait behind requests; "
	       "shared = behind the requests in the L1 miss queue and the L2 input queue (can deadlock with "
	       "l1.bypass_at_l2 or l2.when_busy = queue, POLICIES.md); no effect with a coherence protocol"),
	P_ENUM("icnt.payload", icnt.payload, "line", payload_names,
	       "data carried by a warp request that travels as itself with an unsectored L2 (l2.sector = 0): the reply "
	       "of a load that skips the L1 (l1.bypass, cache operators, L1 off) and a store's data. line = the whole "
	       "line; segment = GPGPU-Sim 3.x's coalescing segments: the line in blocks of 128 B (64 B for 2 B lanes, "
	       "32 B for 1 B lanes), each block touched halved while its touched 32 B chunks lie in one half, down to "
	       "32 B (L1 fetches, write-backs and atomics unchanged; with a sectored L2 every packet carries its sectors)"),
};

static void icnt_derived(const struct sim_cfg *c, struct strbuf *o)
{
	sb_printf(o, "icnt.line_reply_flits      = %d   (1 header + l2.line / flit_bytes)\n",
		  1 + (c->l2.line + c->icnt.flit_bytes - 1) / c->icnt.flit_bytes);
	if (c->icnt.payload == ICNT_PAYLOAD_SEGMENT && !c->l2.sector) {
		int fb = c->icnt.flit_bytes, line = c->l1.line;
		int lo = 1 + ((line < 32 ? line : 32) + fb - 1) / fb, hi = 1 + (line + fb - 1) / fb;
		sb_printf(o, "icnt.segment_flits         = %d..%d   (a load reply skipping the L1 or a store: 1 header + its "
			  "32..%d B of segments / flit_bytes)\n", lo, hi, line);
	}
}

const struct cfg_section icnt_cfg_section = {
	.name = "icnt",
	.params = icnt_params,
	.nparams = ARRAY_LEN(icnt_params),
	.validate = NULL,
	.derived = icnt_derived,
};

static const char *const memke_names[] = {"drained", "ctas", NULL}; /* = enum mem_kernel_end */
static const struct cfg_param mem_params[] = {
	P_ENUM("mem.model", mem.model, "dram", mem_names, "memory below the L2: dram (timed model) or fixed latency"),
	P_INT("mem.latency", mem.latency, "100", 1, 100000, "fixed model: latency in core cycles"),
	P_INT("mem.queue", mem.queue, "16", 1, 4096, "fixed model: requests in flight per L2 bank"),
	P_ENUM("mem.kernel_end", mem.kernel_end, "drained", memke_names,
	       "when a kernel ends (the run, and the hand-over to the next kernel of a list): drained (every CTA done and the memory system idle: L2 "
	       "write-backs, FRC evictions and DRAM finished) or ctas (the last CTA done: its warps exited and "
	       "their loads and stores were answered; what is still in the L2 or DRAM is not waited for)"),
};

const struct cfg_section mem_cfg_section = {
	.name = "mem",
	.params = mem_params,
	.nparams = ARRAY_LEN(mem_params),
	.validate = NULL,
	.derived = NULL,
};


static const struct cfg_param reuse_params[] = {
	P_BOOL("reuse.profile", reuse.profile, "true",
	       "measure reuse distances and classify misses of every L1 and L2 bank (reuse panel, reuse.* stats); "
	       "costs simulation speed on caches with many ways"),
};

const struct cfg_section reuse_cfg_section = {
	.name = "reuse",
	.params = reuse_params,
	.nparams = ARRAY_LEN(reuse_params),
	.validate = NULL,
	.derived = NULL,
};
