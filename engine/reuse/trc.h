/*
 * trc.h: `.trc` thread-address traces, the input format of the reuse-distance
 * model's reference implementation (Nugteren et al.; note 003 Appendix A),
 * as a simulator workload (sim.h struct wl_ops) and as model input.
 *
 *   blocksize: X Y Z           header (the colon is optional)
 *   gid dir addr bytes         one access per line: global thread id,
 *   ...                        0 = load / 1 = store, byte address (decimal,
 *                              or hex with 0x), size 1, 2, 4, 8 or 16 bytes
 *
 * Only the order *within* a thread is known: the lines of different threads
 * may interleave in any way. Blank lines and '#' comments are skipped.
 * Thread gid belongs to block gid / B (B = X*Y*Z), lane gid % B; the grid is
 * ceil((max gid + 1) / B) blocks.
 *
 * Replay (trc_wl_ops, impl = const struct trc *): a warp is 32 (the config's
 * warp size) consecutive threads of a block; warp instruction k holds the
 * k-th access of each of its threads, threads with fewer accesses are
 * inactive lanes. When the k-th accesses of a warp differ in direction or
 * size, index k becomes one instruction per (direction, size) pair, in the
 * order of the lowest lane having it. Every access depends on the warp's
 * previous load (the load writes r1, the next instruction reads it), so a
 * warp waits for each load's data, like the model's warp queue.
 *
 * Model (trc_rdm_trace): stores are dropped first (as the reference code
 * does: Fermi's L1 does not cache them), then instruction k of a warp is the
 * k-th *load* of each of its threads, coalesced in groups of 32/16/8 lanes
 * for the largest size of the instruction (<= 4 / 8 / 16 bytes).
 * docs/REUSE.md and docs/TRACES.md describe both.
 */
#ifndef GPUSTEP_TRC_H
#define GPUSTEP_TRC_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

#define TRC_MAX_THREADS (1u << 26) /* thread ids below 64 M */
#define TRC_MAX_BLOCK 65536u       /* threads per block */

struct trc_acc {
	uint64_t addr;
	uint8_t store; /* 0 load, 1 store */
	uint8_t bytes;
};

struct trc_info {
	uint32_t block[3];
	uint32_t tpb;            /* threads per block, X*Y*Z */
	uint32_t threads;        /* max gid + 1 */
	uint32_t blocks;         /* ceil(threads / tpb) */
	uint64_t accesses, loads, stores, lines;
	uint32_t max_per_thread; /* longest access list */
	uint64_t addr_lo, addr_last; /* bytes the accesses touch, [lo, last] */
};

struct trc;

/* Parse text[0, len) (nothing points into it afterwards: free it at will).
 * `file` names the trace in messages ("a.trc:7: column 5: expected ...").
 * NULL with *err on the first problem. */
struct trc *trc_parse(const char *text, size_t len, const char *file, char **err);
void trc_free(struct trc *t);
const struct trc_info *trc_get_info(const struct trc *t);
const char *trc_file(const struct trc *t);
/* The accesses of thread gid in order (*n = 0 for threads without any). */
const struct trc_acc *trc_thread(const struct trc *t, uint32_t gid, uint32_t *n);

extern const struct wl_ops trc_wl_ops;

struct rdm_cfg;
struct rdm_trace;
/* The model's input: loads of the first c->thread_cap threads (whole blocks). */
struct rdm_trace *trc_rdm_trace(const struct trc *t, const struct rdm_cfg *c);

#endif
