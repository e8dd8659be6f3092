/*
 * rdmodel_int.h: the recorded trace of the reuse-distance model, shared by
 * the trace builder (rdtrace.c) and the model run (rdmodel.c).
 */
#ifndef GPUSTEP_RDMODEL_INT_H
#define GPUSTEP_RDMODEL_INT_H

#include <stddef.h>
#include <stdint.h>

#include "rdmodel.h"

/* Each request also carries its line's dense id (0 .. nid-1, in order of
 * first appearance), so the runs index arrays instead of hashing lines. */
struct rdm_trace {
	uint64_t *line;
	uint32_t *id; /* dense id of line[r] */
	size_t nline, capl;
	uint32_t *inst; /* first request of instruction i; inst[ninst] = nline */
	size_t ninst, capi;
	uint32_t *warp; /* first instruction of warp w; warp[nwarp] = ninst */
	uint32_t *aset;
	size_t nwarp, capw;
	uint64_t *ukey; /* line -> id map: open addressing, key line + 1, 0 = empty */
	uint32_t *uval;
	uint64_t *uline; /* line of id i */
	size_t nid, capid, ucap;
};

/* Room for two more elements of a growing array (xrealloc, doubling). */
#define GROW(p, n, cap)                                                                            \
	do {                                                                                       \
		if ((n) + 2 > (cap)) {                                                             \
			(cap) = (cap) ? (cap) * 2 : 64;                                            \
			(p) = xrealloc((p), sizeof(*(p)) * (cap));                                 \
		}                                                                                  \
	} while (0)

#endif
