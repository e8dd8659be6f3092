/*
 * simtest.h: helpers shared by the engine's whole-machine unit tests: a small
 * kernel from a ';'-separated body, a simulator on a config, stats by name,
 * the n-th logged event of a kind, and the config-derived latency of one L1
 * miss served by fixed-latency memory.
 */
#ifndef GPUSTEP_SIMTEST_H
#define GPUSTEP_SIMTEST_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/kernel.h"
#include "sim/sim.h"

struct tk {
	struct kernel_src src;
	struct kernel *k;
	struct workload wl;
	struct sim *s;
	struct sim_cfg cfg;
};

/* One SM, one L2 bank, fixed 100-cycle memory, LRR (warp 0 issues at cycle 0,
 * warp 1 at cycle 1). */
void tk_base_cfg(struct sim_cfg *c);
/* Compile `body` (statements separated by ';') for ctas x threads and build the
 * simulator on t->cfg with every event kind logged. */
bool tk_start(struct tk *t, unsigned threads, unsigned ctas, const char *body);
/* tk_base_cfg with 2 SMs and 2 L2 banks, then up to three KEY, VALUE pairs
 * of kv (NULL ends them early) set, then tk_start(t, 128, 6, body): the
 * machine-wide feature sweeps (test_state_hash.c, test_fork.c). */
bool tk_start_features(struct tk *t, const char *const kv[6], const char *body);
/* Check invariants, free everything. */
void tk_end(struct tk *t);
uint64_t tk_stat(struct tk *t, const char *name);
/* The n-th (0-based, oldest first) logged event of a kind, or NULL. */
const struct event *tk_event(struct tk *t, unsigned kind, unsigned n);
uint64_t tk_count(struct tk *t, unsigned kind);
uint64_t tk_miss_latency(const struct sim_cfg *c);
/* Cycles from a fill to the replies it answers (l2.fill_reply). */
uint64_t tk_fill_delay(const struct sim_cfg *c);
/* Run s to the end in one of three ways that must give identical results:
 * mode 0 in one go, 1 one cycle at a time, 2 in uneven chunks (5..41 cycles). */
void tk_run_mode(struct sim *s, int mode);

/* The snapshot tests' kernel (ctas CTAs of 128 threads looping over a
 * strided gather and a store) and a default-config machine running it. */
struct kernel *tk_snap_kernel(const char *name, unsigned ctas);
struct sim *tk_snap_sim(const char *name, struct kernel *k, struct workload *wl);

#endif
