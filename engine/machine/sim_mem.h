/*
 * sim_mem.h: how much memory a machine needs before it is built.
 *
 * sim_new allocates every structure once, at its full size (ARCHITECTURE
 * §2.2), so a config can ask for more than any computer has
 * (`core.sms=256 l1.sets=65536 l1.ways=256` is about 176 GB). The estimate
 * mirrors the allocations of the structures whose size the config scales
 * (tags, MSHRs, warps, the request pool, the reuse profiler, DRAM queues,
 * the coherence value checker) with the sizes of their real C structs, so
 * the front end can refuse a machine by name and size instead of being
 * killed by the kernel's OOM killer. The rest (stats, register-file queues,
 * small per-unit state) is one "other" term measured on the presets.
 *
 * tests/unit/test_sim_mem.c compares the estimate with arena_bytes() of the
 * built machine over the presets and scaled configs.
 */
#ifndef GPUSTEP_SIM_MEM_H
#define GPUSTEP_SIM_MEM_H

#include <stdint.h>

#include "sim/config.h"
#include "sim/sim.h"

#define SIM_MEM_MAX_PARTS 16

struct sim_mem_part {
	const char *name;  /* "L1 tag arrays" */
	uint64_t bytes;
	char detail[96];   /* "80 SMs x 256 sets x 4 ways x 48 B" */
};

struct sim_mem {
	struct sim_mem_part part[SIM_MEM_MAX_PARTS];
	int n;
	uint64_t total;
};

/* Bytes the machine of cfg running wl would hold, by structure (wl may be
 * NULL: the reuse profiler's bitmap of seen lines is then taken at the
 * smallest size, as for a trace). */
void sim_mem_estimate(const struct sim_cfg *cfg, const struct workload *wl, struct sim_mem *m);
/* 0 if m->total <= limit, else -1 and an error naming the need, the largest
 * structure and the limit (limit_what: "--max-memory 4096 MB"). */
int sim_mem_check(const struct sim_mem *m, uint64_t limit, const char *limit_what, char **err);
/* "1.5 GB", "230.4 MB", "12 KB" */
void sim_mem_format(uint64_t bytes, char *buf, unsigned n);
/* The DRAM model's arena bytes (dram.c dram_new; sim_mem_dram.c, apart
 * because dram_int.h and reuse.h both name an RC_HIT). */
uint64_t sim_mem_dram_bytes(const struct sim_cfg *cfg);
/* sim_req_pool_slots(cfg): sim/req.h */

#endif
