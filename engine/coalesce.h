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

#include "cache.h"
#include "kernel.h"

struct coal_req {
	uint64_t line;   /* line address */
	uint32_t mask;   /* sectors of the line it fetches */
	uint16_t chunks; /* 32 B chunks of the line the lanes touch (icnt.payload), whatever l1.sector */
	uint8_t delay;   /* cycles after the first request it reaches the L1 (si) */
	int8_t first;    /* first lane in it */
};

struct coal_plan {
	int n, group;                   /* requests; lanes coalesced together */
	struct coal_req v[KMAX_LANES * 2];
	int8_t lane_req[KMAX_LANES][2]; /* request(s) of each lane, -1: none */
};


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
	uint64_t active;
	uint64_t addr[KMAX_LANES];
	struct coal_plan plan;
};
bool inspect_coalesce(const struct sim *s, int sm, struct coal_info *out);

#endif
