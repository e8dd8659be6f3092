/*
 * coalesce.h: the coalescer's grouping of a warp's lanes into requests
 * (coalesce.c), pure so that the front end can show it (`info coalesce`):
 *
 *   lanes 0-31 (fermi: all together) ─▶ one request per line touched
 *   lanes 0-7, 8-15, ... (volta)      ─▶ one request per 32 B sector touched
 *   lanes 0-15, 16-31, ... (si)       ─▶ one request per line, subwavefront k
 *                                        reaching the L1 k cycles later
 */
#ifndef GPUSTEP_COALESCE_H
#define GPUSTEP_COALESCE_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/cache.h"
#include "kernel/kernel.h"

struct coal_req {
	uint64_t line;   /* line address */
	uint32_t mask;   /* sectors of the line it fetches */
	uint32_t chunks; /* 32 B chunks of the line the lanes touch (icnt.payload), whatever l1.sector */
	uint8_t delay;   /* cycles after the first request it reaches the L1 (si) */
	int8_t first;    /* first lane in it */
};

struct coal_plan {
	int n, group;                   /* requests; lanes coalesced together */
	struct coal_req v[KMAX_LANES * 2];
	int8_t lane_req[KMAX_LANES][2]; /* request(s) of each lane, -1: none */
};


/* icnt.payload = segment (GPGPU-Sim 3.x, abstract_hardware_model.cc,
 * memory_coalescing_arch and _reduce_and_send): a warp request that travels
 * as itself carries, of its line, the segments covering the 32 B chunks its
 * lanes touch. The line is cut into blocks of GPGPU-Sim's first segment
 * (128 B for 4-16 B lanes, 64 B for 2 B, 32 B for 1 B; the line if smaller);
 * each block touched is halved while its chunks lie in one half, down to
 * 32 B. coal_segment_chunks: the chunks the segments cover (bit i = bytes
 * 32i..32i+31; a line of at most 32 B is chunk 0); icnt_segment_bytes:
 * their bytes (the line for no chunks or a line of at most 32 B).
 *   128 B line, 4 B lanes: chunks {0,1,2,3}, {0,3} -> 128 B; {0,1} -> bytes
 *   0-63; {2} -> bytes 64-95; 1 B lanes {0,3} -> 2 x 32 B. */
uint32_t coal_segment_chunks(unsigned line, uint32_t chunks, unsigned lane_bytes);
unsigned icnt_segment_bytes(unsigned line, uint32_t chunks, unsigned lane_bytes);

struct sim;
/* The last memory instruction SM sm coalesced, replanned exactly as the
 * engine did. */
struct coal_info {
	bool valid;
	uint64_t cycle;      /* the cycle it was coalesced (the coalesce event's) */
	int warp;            /* warp slot */
	int op;              /* enum kop: KOP_LD, KOP_ST, KOP_ATOM */
	int size;            /* bytes per lane */
	int mode;            /* enum coalesce_mode */
	int warp_size, line, sector; /* l1.line, l1.sector (0: unsectored) */
	bool segment;        /* icnt.payload = segment applies (an unsectored L2) */
	uint64_t active;
	uint64_t addr[KMAX_LANES];
	struct coal_plan plan;
};
bool inspect_coalesce(const struct sim *s, int sm, struct coal_info *out);

#endif
