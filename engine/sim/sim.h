/*
 * sim.h: the public surface of the simulator library. All state hangs off one
 * struct sim (allocated from one arena, see util.h); nothing is global.
 */
#ifndef GPUSTEP_SIM_H
#define GPUSTEP_SIM_H

#include <stdbool.h>
#include <stdint.h>

struct bp_set; /* debug/bp.h */
#include "config.h"
#include "event.h"
#include "stats.h"

struct kernel;
struct kwarp;
struct winst;

/*
 * Where warp instructions come from. A workload is either a compiled kernel
 * (kernel.h; ops NULL) or any other source of per-warp instruction streams
 * (recorded traces) given as an ops table over an opaque, immutable `impl`.
 * Per-warp progress lives in struct kwarp (kernel.h), which the simulator
 * keeps in its arena, so sources must keep no mutable per-warp state of their
 * own (that is what makes rewinding exact).
 */
/* Byte addresses [lo, last] a workload touches; `src` (a file, may be
 * NULL) and `what` ("global", "local") name them in messages. */
struct wl_range {
	uint64_t lo, last;
	const char *src, *what;
};

struct wl_ops {
	uint32_t (*ctas)(const void *impl);
	uint32_t (*threads_per_cta)(const void *impl);
	unsigned (*nregs)(const void *impl);
	unsigned (*shmem_bytes)(const void *impl);
	void (*warp_start)(const void *impl, struct kwarp *w, uint32_t cta, uint32_t warp_in_cta, unsigned warp_size);
	/* false once the warp has exited (out->op = KOP_EXIT) */
	bool (*warp_next)(const void *impl, struct kwarp *w, struct winst *out);
	/* Text of instruction `stmt` (struct winst.stmt), for panels. */
	const char *(*stmt_text)(const void *impl, unsigned stmt);
	unsigned (*nstmts)(const void *impl);
	/* Optional (NULL = one kernel described by ctas / threads_per_cta /
	 * shmem_bytes): a sequence of kernels run back to back in one machine,
	 * sharing its caches and memory. Kernel k's CTAs are dispatched only once
	 * every CTA of kernel k-1 has finished. `ctas` is then the total over all
	 * kernels and warp_start's `cta` a global index: kernel k's CTAs follow
	 * kernel k-1's. */
	unsigned (*nkernels)(const void *impl);
	void (*kernel_shape)(const void *impl, unsigned k, uint32_t *ctas, uint32_t *threads_per_cta, unsigned *shmem);
	/* Optional (NULL = no): whether any instruction carries a cache operator
	 * (glc / slc), which MOESI and NMOESI refuse at sim_new. */
	bool (*uses_cop)(const void *impl);
	/* Optional (NULL = not known): range i of the byte addresses the
	 * workload's loads and stores touch, for the DRAM aliasing check at
	 * sim_new; false once i is past the last. A range with lo > last is
	 * empty (skip it). */
	bool (*range)(const void *impl, unsigned i, struct wl_range *out);
};

/* A host-to-device copy of `bytes` bytes at `addr` made before kernel
 * `kernel` (0-based, in wl_ops.nkernels order) starts: an Accel-Sim
 * MemcpyHtoD line. What it does is trace.memcpy's choice (hostcopy.h). */
struct wl_copy {
	uint64_t addr, bytes;
	uint32_t kernel;
	uint32_t line; /* of the kernel list, for messages (0 = unknown) */
};

/* What the machine runs. Owned by the caller; must outlive the sim. */
struct workload {
	char name[64];
	const struct kernel *kernel; /* compiled kernel (kernel.h), when ops is NULL */
	const struct wl_ops *ops;    /* other instruction sources (traces) */
	const void *impl;
	const struct wl_copy *copies; /* host-to-device copies in list order (kernel non-decreasing); may be NULL */
	uint32_t ncopies;
	/* A DRAM-level trace (dram_trace.h) instead of instructions: the sim runs
	 * its DRAM alone (no cores, caches or crossbar tick), fed the requests as
	 * they fall due, until every request completed (kernel/ops unused). */
	const struct dram_reqs *dram_reqs;
};

enum sim_stop {
	SIM_STOP_LIMIT,     /* ran the requested number of cycles */
	SIM_STOP_DONE,      /* every warp finished and the memory system drained */
	SIM_STOP_BREAK,     /* a breakpoint or watchpoint fired: see bp_set stop_* */
	SIM_STOP_INTERRUPT, /* sim_interrupt() was called (Ctrl-C) */
};

/* Returns NULL and sets *err (caller frees) on an invalid config/workload. */
struct sim *sim_new(const struct sim_cfg *cfg, const struct workload *wl, char **err);
void sim_free(struct sim *s);

/* Threads for the per-SM phases of each cycle (machine/sim_par.c "Threads"):
 * n <= 0 picks sim_default_threads. Results are the same for every n;
 * machines whose SM ticks still write shared state (sim_threads_possible
 * false) keep one. Returns the number now in use. */
#define SIM_MAX_THREADS 64
int sim_set_threads(struct sim *s, int n);
int sim_threads(const struct sim *s);
bool sim_threads_possible(const struct sim *s);
/* Why the machine runs on one thread whatever is asked (NULL: it need not). */
const char *sim_threads_why_one(const struct sim *s);
/* Jobs the threads' guard still runs all on the calling thread (threads.h
 * tp_guard: the other threads kept being late); 0 when not paused. */
unsigned sim_threads_paused(const struct sim *s);
/* The busy SMs each thread ran in the last threaded phase, in thread
 * order, at most max; returns how many threads that phase had (0: none
 * yet). */
int sim_threads_last_split(const struct sim *s, uint32_t *count, int max);
/* The machine's cores, at most core.sms / 8 (one thread below 16 SMs). */
int sim_default_threads(const struct sim_cfg *cfg);

/* Advance up to `cycles` core cycles; stops early at a breakpoint, at the end
 * or on interrupt. Skips idle stretches internally; results are identical to
 * stepping one cycle at a time. */
enum sim_stop sim_step(struct sim *s, uint64_t cycles);
/* Request a stop from a signal handler or another loop; async-safe. */
void sim_interrupt(struct sim *s);
/* Forget a pending interrupt (one sent while nothing ran). */
void sim_interrupt_clear(struct sim *s);

uint64_t sim_cycle(const struct sim *s);
/* A DRAM-trace simulator (workload.dram_reqs): panels of cores and caches
 * have nothing to show. */
bool sim_dram_only(const struct sim *s);
bool sim_done(const struct sim *s);
/* True when the run ended because nothing could ever move again although
 * work was left (a model deadlock: sim_step returned SIM_STOP_DONE without
 * draining); buf (if given) gets a one-line description. */
bool sim_deadlock(const struct sim *s, char *buf, size_t n);
const struct sim_cfg *sim_cfg(const struct sim *s);
struct stats *sim_stats(struct sim *s);
const struct stats *sim_stats_c(const struct sim *s);
struct events *sim_events(struct sim *s);
const struct events *sim_events_c(const struct sim *s);
/* Breakpoints are owned by the caller (they survive restarts); NULL detaches. */
void sim_set_bps(struct sim *s, struct bp_set *b);
/* Hash of the whole engine state (for determinism tests). */
/* Bytes of the machine's state (its arena; sim_mem.h estimates it before sim_new). */
size_t sim_arena_bytes(const struct sim *s);
uint64_t sim_state_hash(const struct sim *s);
/* Check structural invariants (hits + misses = accesses, MSHR bookkeeping,
 * request conservation); returns -1 with a message on the first violation. */
int sim_check_invariants(const struct sim *s, char **err);
/* coherence.check_values: the first data-value violation's message (cycle,
 * line, word, SM, value read, values allowed), NULL when none. */
const char *sim_value_violation(const struct sim *s);
/* Tests only: break the value movement so the checker must catch it
 * (1 write-throughs, 2 AckDs, 3 Puts lose their values; 0 = correct). */
void sim_test_value_bug(struct sim *s, int bug);

#endif
