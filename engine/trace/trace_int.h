/*
 * trace_int.h: internals shared by the trace indexer (trace.c) and replay
 * (trace_replay.c). Not part of the engine's public surface.
 */
#ifndef GPUSTEP_TRACE_INT_H
#define GPUSTEP_TRACE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

#define TLANES 32
#define MAX_STMTS 65535

struct topc {
	char *name;
	uint8_t cls, size, flags;
	uint8_t unit; /* enum kunit (trace_unit) */
};

struct trace_kernel {
	const char *text;
	size_t len;
	char file[256];
	struct trace_hdr h;
	struct trace_info info;
	uint32_t wpc, nctas, tpc;
	uint64_t *woff; /* per warp: first instruction line, UINT64_MAX = absent */
	uint32_t *wn;
	uint64_t *cbeg, *cend; /* per CTA: its text [#BEGIN_TB, after #END_TB) */
	trace_fetch_fn fetch;  /* text == NULL (streamed): where replay reads it */
	void *fctx;
	struct topc *op;
	unsigned nop, capop;
	uint64_t *st_pc;
	uint16_t *st_op;
	char (*st_text)[40];
	unsigned nst, capst;
	uint32_t hcap; /* PC -> statement, open addressing */
	uint64_t *hkey;
	uint32_t *hval; /* stmt + 1, 0 = empty */
	/* footprint while indexing: local offsets seen (loff_min > loff_max = none) */
	uint64_t loff_min, loff_max;
	unsigned lsize_max;
};

struct tline {
	uint64_t pc;
	uint32_t mask;
	unsigned ndst, nsrc, dst, src[3], width, mode;
	const char *op;
	size_t oplen;
	uint64_t addr[TLANES]; /* by lane; only active lanes are set */
};

struct cur {
	const char *p, *e;
	const char *what; /* on failure: what was expected */
	const char *at;   /* and where */
};

/* Parse one instruction line from c->p to c->e; false with c->what/at set. */
bool trace_parse_inst(struct cur *c, int lineinfo, struct tline *t);
/* Only the PC and mask (the warps panel's look-ahead). */
bool trace_parse_head(struct cur *c, int lineinfo, uint64_t *pc, uint32_t *mask);
/* Footprint (trace_info glob_* / local_*): trace_foot_init before the
 * first line, trace_foot_note for every instruction line (placing its
 * addresses as replay does), trace_foot_done once the grid is known. */
void trace_foot_init(struct trace_kernel *k);
void trace_foot_note(struct trace_kernel *k, const struct tline *t, const struct topc *o);
void trace_foot_done(struct trace_kernel *k);
/* Statement index of a PC, -1 if the trace has none. */
int trace_pc_find(const struct trace_kernel *k, uint64_t pc);

#endif
