/*
 * hostcopy.c: host-to-device copies (see hostcopy.h). The L2 side of one
 * line is l2_install_line in l2.c; this file walks the copies and counts.
 */
#include "hostcopy.h"

#include <stdio.h>

#include "sim/sim_int.h"

int hostcopy_check(const struct workload *wl, unsigned nkernels, char **err)
{
	for (uint32_t i = 0; i < wl->ncopies; i++) {
		const struct wl_copy *c = &wl->copies[i];
		if (c->kernel >= nkernels)
			return set_err(err, "workload %s: copy %u (line %u) precedes kernel %u, the workload has %u", wl->name,
				       i + 1, c->line, c->kernel + 1, nkernels);
		if (i && c->kernel < wl->copies[i - 1].kernel)
			return set_err(err, "workload %s: copy %u (line %u) is out of kernel order", wl->name, i + 1,
				       c->line);
		if (c->bytes > UINT64_MAX - c->addr)
			return set_err(err, "workload %s: copy %u (line %u): 0x%llx + %llu bytes wraps around the address space",
				       wl->name, i + 1, c->line, (unsigned long long)c->addr, (unsigned long long)c->bytes);
	}
	return 0;
}

void hostcopy_register_stats(struct sim *s)
{
	static const char *const name[HC__STATS] = {
		[HC_COPIES] = "trace.memcpy.copies",	 [HC_BYTES] = "trace.memcpy.bytes",
		[HC_LINES] = "trace.memcpy.lines",	 [HC_PRESENT] = "trace.memcpy.present",
		[HC_SKIPPED] = "trace.memcpy.skipped", [HC_WRITEBACKS] = "trace.memcpy.writebacks",
	};
	static const char *const desc[HC__STATS] = {
		[HC_COPIES] = "host-to-device copies (MemcpyHtoD) applied, whatever trace.memcpy says",
		[HC_BYTES] = "bytes those copies moved",
		[HC_LINES] = "L2 lines the copies installed (trace.memcpy = l2_fill)",
		[HC_PRESENT] = "copied lines already valid in the L2: made fully valid and touched, dirty bits kept",
		[HC_SKIPPED] = "copied lines not installed: the line or every victim busy (pending fill, FRC, locked), "
			       "L1 copies under coherence, or no room in the memory queue for a dirty victim",
		[HC_WRITEBACKS] = "dirty L2 victims written back to make room for copied lines (also in l2.writebacks)",
	};
	for (int i = 0; i < HC__STATS; i++)
		s->hc_id[i] = stats_counter(&s->stats, name[i], desc[i]);
}

/* Every line of one copy through l2_install_line; n[] by enum l2_install. */
static void fill(struct sim *s, const struct wl_copy *c, uint64_t n[L2I__COUNT])
{
	unsigned lb = log2u((uint64_t)s->cfg.l2.line);
	uint64_t first = c->addr >> lb, lines = ((c->addr + c->bytes - 1) >> lb) - first + 1;
	for (uint64_t i = 0; i < lines; i++)
		n[l2_install_line(s, (first + i) << lb)]++;
}

/* trace.memcpy = l2_fill_addr32, GPGPU-Sim's perf_memcpy_to_gpu as Accel-Sim
 * runs it: the copy is walked in 32-byte steps and each step's address is
 * kept in 32 bits (unsigned), so a device address above 4 GB lands on the
 * line of its low 32 bits: the same L2 bank and set as the real line (their
 * bits are below bit 32) under a tag no kernel uses. Each distinct line is
 * installed once, in walk order. */
static void fill_addr32(struct sim *s, const struct wl_copy *c, uint64_t n[L2I__COUNT])
{
	unsigned lb = log2u((uint64_t)s->cfg.l2.line);
	uint64_t prev = UINT64_MAX;
	for (uint64_t off = 0; off < c->bytes; off += 32) {
		uint64_t line = (uint64_t)(uint32_t)(c->addr + off) >> lb;
		if (line != prev)
			n[l2_install_line(s, line << lb)]++;
		prev = line;
	}
}

void hostcopy_run(struct sim *s, uint32_t k)
{
	struct state *st = s->st;
	while (st->copies_done < s->wl.ncopies && s->wl.copies[st->copies_done].kernel <= k) {
		const struct wl_copy *c = &s->wl.copies[st->copies_done++];
		uint64_t n[L2I__COUNT] = {0};
		if (s->cfg.trace.memcpy_mode == TRACE_MEMCPY_L2_FILL && c->bytes)
			fill(s, c, n);
		else if (s->cfg.trace.memcpy_mode == TRACE_MEMCPY_L2_FILL_ADDR32 && c->bytes)
			fill_addr32(s, c, n);
		uint64_t lines = n[L2I_INSTALLED] + n[L2I_INSTALLED_WB];
		stat_inc(&s->stats, s->hc_id[HC_COPIES]);
		stat_add(&s->stats, s->hc_id[HC_BYTES], c->bytes);
		stat_add(&s->stats, s->hc_id[HC_LINES], lines);
		stat_add(&s->stats, s->hc_id[HC_PRESENT], n[L2I_PRESENT]);
		stat_add(&s->stats, s->hc_id[HC_SKIPPED], n[L2I_SKIPPED]);
		stat_add(&s->stats, s->hc_id[HC_WRITEBACKS], n[L2I_INSTALLED_WB]);
		EV_EMIT(&s->ev, EV_TRACE_MEMCPY, .cycle = st->now, .addr = c->addr, .a = (int64_t)c->bytes,
			.b = (int64_t)lines);
		sim_progress(s);
	}
}
