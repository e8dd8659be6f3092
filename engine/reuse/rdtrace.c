/*
 * rdtrace.c: building the reuse-distance model's trace (rdmodel.h): warps,
 * their load instructions and each instruction's line requests, recorded
 * directly or generated from a kernel's active sets of thread blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "rdmodel_int.h"
#include "sim/util.h"
struct rdm_trace *rdm_trace_new(void) { return xcalloc(1, sizeof(struct rdm_trace)); }

void rdm_trace_free(struct rdm_trace *t)
{
	if (!t)
		return;
	free(t->line);
	free(t->id);
	free(t->inst);
	free(t->warp);
	free(t->aset);
	free(t->ukey);
	free(t->uval);
	free(t->uline);
	free(t);
}

void rdm_trace_warp(struct rdm_trace *t, uint32_t active_set)
{
	if (t->nwarp + 2 > t->capw) {
		t->capw = t->capw ? t->capw * 2 : 64;
		t->warp = xrealloc(t->warp, sizeof(*t->warp) * t->capw);
		t->aset = xrealloc(t->aset, sizeof(*t->aset) * t->capw);
	}
	t->aset[t->nwarp] = active_set;
	t->warp[t->nwarp++] = (uint32_t)t->ninst;
}

void rdm_trace_inst(struct rdm_trace *t)
{
	GROW(t->inst, t->ninst, t->capi);
	t->inst[t->ninst++] = (uint32_t)t->nline;
}

static size_t ut_slot(const struct rdm_trace *t, uint64_t line)
{
	size_t i = (size_t)((line * 0x9e3779b97f4a7c15ull) >> 32) & (t->ucap - 1);
	while (t->ukey[i] && t->ukey[i] != line + 1)
		i = (i + 1) & (t->ucap - 1);
	return i;
}

static uint32_t ut_id(struct rdm_trace *t, uint64_t line)
{
	if ((t->nid + 1) * 2 > t->ucap) {
		size_t oc = t->ucap;
		uint64_t *ok = t->ukey;
		uint32_t *ov = t->uval;
		t->ucap = oc ? oc * 2 : 1024;
		t->ukey = xcalloc(t->ucap, sizeof(*t->ukey));
		t->uval = xcalloc(t->ucap, sizeof(*t->uval));
		for (size_t i = 0; i < oc; i++)
			if (ok[i]) {
				size_t j = ut_slot(t, ok[i] - 1);
				t->ukey[j] = ok[i];
				t->uval[j] = ov[i];
			}
		free(ok);
		free(ov);
	}
	size_t i = ut_slot(t, line);
	if (!t->ukey[i]) {
		GROW(t->uline, t->nid, t->capid);
		t->ukey[i] = line + 1;
		t->uval[i] = (uint32_t)t->nid;
		t->uline[t->nid++] = line;
	}
	return t->uval[i];
}

void rdm_trace_line(struct rdm_trace *t, uint64_t line)
{
	if (t->nline + 2 > t->capl) {
		t->capl = t->capl ? t->capl * 2 : 64;
		t->line = xrealloc(t->line, sizeof(*t->line) * t->capl);
		t->id = xrealloc(t->id, sizeof(*t->id) * t->capl);
	}
	t->id[t->nline] = ut_id(t, line);
	t->line[t->nline++] = line;
}

uint64_t rdm_trace_requests(const struct rdm_trace *t) { return t->nline; }

uint32_t rdm_blocks_modelled(const struct rdm_cfg *c, uint32_t B, uint32_t blocks)
{
	if (!c->thread_cap || !B)
		return blocks;
	return MIN(blocks, MAX(1u, c->thread_cap / B));
}

struct rdm_trace *rdm_trace_from_kernel(const struct kernel *k, const struct rdm_cfg *c)
{
	struct rdm_trace *t = rdm_trace_new();
	uint32_t B = kernel_threads_per_cta(k), nb = kernel_ctas(k);
	if (B == 0)
		return t;
	nb = rdm_blocks_modelled(c, B, nb);
	uint32_t A = MAX(1u, MIN(c->max_blocks, c->max_threads / B));
	uint32_t wpb = (B + c->warp_size - 1) / c->warp_size;
	/* line = address / line size, as a shift when the size is a power of two */
	bool shift = is_pow2(c->line);
	unsigned sh = shift ? (unsigned)__builtin_ctz(c->line) : 0;
	struct kwarp kw;
	struct winst *in = xmalloc(sizeof(*in));
	uint64_t seen[KMAX_LANES];
	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t w = 0; w < wpb; w++) {
			rdm_trace_warp(t, b / A);
			kernel_warp_start(k, &kw, b, w, c->warp_size);
			while (kernel_warp_next(k, &kw, in)) {
				if (in->op != KOP_LD || !in->active)
					continue;
				rdm_trace_inst(t);
				unsigned g = in->size <= 4 ? c->warp_size : in->size <= 8 ? 16 : 8;
				for (unsigned g0 = 0; g0 < c->warp_size; g0 += g) {
					unsigned n = 0, ge = MIN(g0 + g, c->warp_size);
					uint64_t lanes = in->active >> g0;
					if (ge - g0 < 64)
						lanes &= (1ull << (ge - g0)) - 1;
					for (; lanes; lanes &= lanes - 1) { /* active lanes, in order */
						unsigned l = g0 + (unsigned)__builtin_ctzll(lanes);
						uint64_t line = shift ? in->addr[l] >> sh : in->addr[l] / c->line;
						if (n && seen[n - 1] == line) /* the common case: the last new line */
							continue;
						unsigned j = 0;
						while (j < n && seen[j] != line)
							j++;
						if (j == n) {
							seen[n++] = line;
							rdm_trace_line(t, line);
						}
					}
				}
			}
		}
	free(in);
	return t;
}

