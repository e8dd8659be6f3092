/*
 * rdmodel.h: the analytical GPU L1 cache model of Nugteren et al. ("A
 * Detailed GPU Cache Model Based on Reuse Distance Theory"; note 003 §1.10),
 * separate from the cycle simulation. Heap-allocated, single-threaded.
 *
 *   threads -> warps (32 consecutive tids) -> blocks -> active sets of
 *   A = min(max_blocks, max_threads / B) blocks, processed one after another
 *   -> per warp instruction, coalesced line requests (groups of 32/16/8 lanes
 *   for <=4/8/16-byte accesses)
 *   -> one warp instruction per time-stamp from a FIFO warp queue; a warp is
 *   delayed to t + max miss latency + 1 (ref-impl timing); MSHR refusals
 *   cancel the instruction and send the warp to the back
 *   (an instruction is refused only while earlier instructions hold
 *   entries, so one needing more lines than a cap still goes through)
 *   -> per-set LRU stacks changed only at effect time t + latency
 *   (latency: hit -> lat_hit; miss -> lat_min + |round(N(0, sigma^2))|)
 *
 * Same-time-stamp order (note §1.12): rule A = the access issued at t sees
 * effects due before t (Tables 3, 4; default); rule B = effects due at t
 * (and their MSHR releases) come first (Table 5). Clipping: a merged miss
 * takes effect no later than the in-flight request for its line.
 *
 * Classes per access on the same order (note §2.2): hit; latency (line in
 * flight); compulsory (never requested); associativity (a shadow fully
 * associative stack of S*W lines hits); capacity. rdm_ablation() runs the
 * paper's four runs for the difference-of-totals breakdown instead.
 */
#ifndef GPUSTEP_RDMODEL_H
#define GPUSTEP_RDMODEL_H

#include <stdbool.h>
#include <stdint.h>

struct kernel;

enum rdm_set_fn { RDM_MODULO, RDM_FERMI };
enum rdm_policy { RDM_WARP_QUEUE, RDM_ROUND_ROBIN }; /* round robin: no latency delay (Tables 2-5) */
enum rdm_class { RDM_HIT, RDM_COMPULSORY, RDM_CAPACITY, RDM_ASSOC, RDM_LATENCY, RDM__CLASSES };

struct rdm_cfg {
	uint32_t line, sets, ways;
	int set_fn;              /* enum rdm_set_fn, on line addresses as the simulator's fermi_hash */
	uint32_t mshr;           /* unique in-flight lines; 0 = unlimited */
	uint32_t mshr_per_warp;  /* 0 = no per-warp cap */
	uint32_t lat_hit, lat_min, lat_sigma;
	bool clip;
	bool rule_b;
	int policy;              /* enum rdm_policy */
	uint32_t warp_size, max_blocks, max_threads;
	uint32_t thread_cap;     /* threads modelled (whole blocks, at least one); 0 = all */
	uint32_t hist_cap;       /* histogram: exact distances 0 .. cap-1, then ">= cap"; 0 = 4 ways */
	uint64_t seed;
};

/* Histogram bins of a config: hist_cap (or 4 ways), at most RDM_MAX_BINS. */
uint32_t rdm_hist_bins(const struct rdm_cfg *c);

/* Fermi 16 KB: 128 B lines, 32 sets x 4 ways, Fermi hash, 64 MSHRs (6 per
 * warp), hit 0, miss 100 + |N(0, 5^2)|, rule A, clipping on, 8 blocks /
 * 1536 threads active, 8192 threads modelled. fermi48: 64 sets x 6 ways. */
void rdm_cfg_fermi(struct rdm_cfg *c, bool kb48);
/* Set of a line number. */
uint32_t rdm_set_of(const struct rdm_cfg *c, uint64_t line);

/* The ordered input: warps (with their active set), their load
 * instructions, each a list of line numbers in issue order. */
struct rdm_trace;
struct rdm_trace *rdm_trace_new(void);
void rdm_trace_free(struct rdm_trace *t);
void rdm_trace_warp(struct rdm_trace *t, uint32_t active_set); /* starts a warp */
void rdm_trace_inst(struct rdm_trace *t);                      /* starts an instruction of it */
void rdm_trace_line(struct rdm_trace *t, uint64_t line);       /* one request of it */
uint64_t rdm_trace_requests(const struct rdm_trace *t);
/* Blocks of B threads modelled out of `blocks`: the first thread_cap
 * threads in whole blocks (at least one block), or all when thread_cap is 0. */
uint32_t rdm_blocks_modelled(const struct rdm_cfg *c, uint32_t B, uint32_t blocks);
/* Loads of the kernel's first thread_cap threads (whole blocks), coalesced. */
struct rdm_trace *rdm_trace_from_kernel(const struct kernel *k, const struct rdm_cfg *c);

#define RDM_MAX_TRACE 4096 /* per-access record kept for tests (first accesses) */
#define RDM_MAX_BINS 4096  /* histogram cap */

/* Bins after the nbins exact ones: ">= nbins", never seen (d = inf), in
 * flight (gpustep semantics: a miss to a line with a request in flight;
 * the reference semantics files those by their old distance instead). */
enum { RDM_BIN_OVER, RDM_BIN_NEVER, RDM_BIN_FLY, RDM__BIN_EXTRA };

struct rdm_result {
	uint64_t accesses, cls[RDM__CLASSES];
	uint64_t hist[RDM_MAX_BINS + RDM__BIN_EXTRA]; /* set view: 0 .. nbins-1, then RDM_BIN_* */
	uint32_t nbins;             /* rdm_hist_bins() */
	uint64_t over_ways;         /* accesses with a finite distance > ways (the reference's "capacity") */
	uint64_t steps, idle_steps, cancels;
	/* Per access (first RDM_MAX_TRACE): distance (-1 = inf), class, effect time. */
	uint32_t ntrace;
	int32_t d[RDM_MAX_TRACE];
	uint8_t cls_of[RDM_MAX_TRACE];
	uint64_t t_issue[RDM_MAX_TRACE], effect[RDM_MAX_TRACE];
};
void rdm_run(const struct rdm_cfg *c, const struct rdm_trace *t, struct rdm_result *out);
/* Miss rate comparable with hardware counters / the simulator without latency misses. */
double rdm_miss_rate(const struct rdm_result *r);

/* The paper's 4-run ablation (runs: 0 full, 1 fully associative, 2 no
 * latency, 3 unlimited MSHRs), difference of totals (rdablate.c):
 *   compulsory = inf_2, latency = inf_0 - inf_2, associativity = miss_0 -
 *   miss_1, mshr = miss_0 - miss_3, capacity = the rest of miss_0.
 * A difference can be negative (unlimited MSHRs can reorder accesses into
 * more misses): the shown terms are clamped at 0 and, when they then sum to
 * more than miss_0, reduced (mshr, latency, associativity, compulsory, in
 * that order) so the five always sum to miss_0; raw_* keep the differences
 * and `adjusted` says which terms were changed (bit RDM_T_*). */
enum { RDM_T_COMPULSORY = 1, RDM_T_CAPACITY = 2, RDM_T_ASSOC = 4, RDM_T_LATENCY = 8, RDM_T_MSHR = 16 };
struct rdm_ablation {
	uint64_t accesses;
	uint64_t miss[4], inf[4];   /* per run: misses (d >= ways or inf), d = inf (incl. lines in flight) */
	int64_t compulsory, capacity, associativity, latency, mshr; /* >= 0, sum = miss[0] */
	int64_t raw_capacity, raw_associativity, raw_latency, raw_mshr;
	unsigned adjusted;          /* RDM_T_* bits of terms clamped or reduced */
	double miss_rate; /* gpustep: (miss_0 - latency) / accesses; reference: miss_0 / accesses */
};
void rdm_ablation(const struct rdm_cfg *c, const struct rdm_trace *t, struct rdm_ablation *out);
/* The breakdown of o->miss[] / o->inf[] (sets every term, raw_* and adjusted). */
void rdm_breakdown(struct rdm_ablation *o);

/* A model run next to a simulation of the same workload, as the front end
 * keeps it for the reuse panel (predicted vs measured). Rates leave latency
 * misses out of the misses (they count as hits), on both sides. */
#define RDM_SUM_BINS 256 /* bins kept for the panel (the profiler shows 4 ways) */
struct rdm_summary {
	bool valid;
	char workload[64];
	uint32_t sets, ways, threads; /* L1 modelled; threads the model saw */
	uint64_t accesses;            /* model's coalesced loads */
	double model_hit, model_miss;
	bool simulated;               /* false: --no-sim */
	uint64_t sim_lookups, sim_cycles;
	double sim_hit, sim_miss;     /* the fresh full simulation's L1s */
	double model_s, sim_s;        /* wall times */
	/* The model's histogram for the reuse panel, beside the profiler's
	 * (rdm_result layout, bins 0 .. hist_bins-1 then RDM_BIN_*). */
	bool reference;               /* --semantics reference */
	uint32_t hist_bins;           /* at most RDM_SUM_BINS */
	uint64_t hist[RDM_SUM_BINS + RDM__BIN_EXTRA];
};

#endif
