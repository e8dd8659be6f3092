/*
 * cmd_coal.c: `info coalesce [SM]`: how the coalescer grouped the lanes of
 * the last memory instruction the SM issued into requests (engine/core/coalesce.h),
 * as the engine did it. At a `coalesce` stop that is the stop's instruction.
 *
 *   sm 0 warp 3, cycle 124: ld, 32 lanes x 4 B -> 1 request
 *   coalescer fermi: all 32 lanes together, one request per 128 B line
 *     r0  line 0x10000000  bytes 0-127        <- lanes 0-31 (32)  0x10000000..0x1000007c
 *
 * With icnt.payload = segment (an unsectored L2) each request also says the
 * segment it carries when it travels as itself (a load skipping the L1, a
 * store): "segment bytes 64-95" (coalesce.h).
 */
#include <stdio.h>
#include <string.h>

#include "cmd_int.h"
#include "core/coalesce.h"
#include "debug/inspect.h"

static const char *const mode_names[] = {"fermi", "volta", "si"};

/* "0-7,9,12-15" for the lanes in mask. */
static void lane_ranges(uint64_t mask, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (int l = 0; l < 64 && len < n; l++) {
		if (!(mask >> l & 1))
			continue;
		int e = l;
		while (e + 1 < 64 && (mask >> (e + 1) & 1))
			e++;
		int w = e > l ? snprintf(buf + len, n - len, "%s%d-%d", len ? "," : "", l, e)
			      : snprintf(buf + len, n - len, "%s%d", len ? "," : "", l);
		if (w < 0)
			break;
		len += (size_t)w;
		l = e;
	}
}

/* Byte range of the line a sector mask covers, "bytes 0-127", or the sectors. */
static void mask_text(const struct coal_info *ci, uint32_t mask, char *buf, size_t n)
{
	if (!ci->sector || ci->sector >= ci->line) {
		snprintf(buf, n, "whole line");
		return;
	}
	size_t len = (size_t)snprintf(buf, n, "sector%s", __builtin_popcount(mask) > 1 ? "s" : "");
	for (int k = 0; k < 32 && len < n; k++)
		if (mask >> k & 1) {
			int w = snprintf(buf + len, n - len, " %d", k);
			if (w < 0)
				break;
			len += (size_t)w;
		}
	int first = __builtin_ctz(mask), last = 31 - __builtin_clz(mask);
	if (len < n)
		snprintf(buf + len, n - len, " (bytes %d-%d)", first * ci->sector, (last + 1) * ci->sector - 1);
}

/* "  segment bytes 0-63,96-127": the coalescing segments of chunks. */
static void segment_text(const struct coal_info *ci, const struct coal_req *r, char *buf, size_t n)
{
	buf[0] = 0;
	if (!ci->segment || ci->op == KOP_ATOM)
		return;
	uint32_t cov = coal_segment_chunks((unsigned)ci->line, r->chunks, (unsigned)ci->size);
	int cb = ci->line < 32 ? ci->line : 32;
	size_t len = (size_t)snprintf(buf, n, "  segment bytes ");
	for (int k = 0; k < 32 && len < n; k++) {
		if (!(cov >> k & 1))
			continue;
		int e = k;
		while (e + 1 < 32 && (cov >> (e + 1) & 1))
			e++;
		int w = snprintf(buf + len, n - len, "%s%d-%d", buf[len - 1] == ' ' ? "" : ",", k * cb, (e + 1) * cb - 1);
		if (w < 0)
			break;
		len += (size_t)w;
		k = e;
	}
}

void info_coalesce(struct session *ss, int sm, struct cmd_out *out)
{
	struct coal_info ci;
	if (!inspect_coalesce(ss->sim, sm, &ci) || !ci.valid) {
		cmd_printf(out, "sm %d has not issued a global memory instruction yet (break coalesce sm=%d stops at one)", sm,
			   sm);
		return;
	}
	const struct coal_plan *p = &ci.plan;
	int lanes = __builtin_popcountll(ci.active);
	const char *op = ci.op == KOP_LD ? "ld" : ci.op == KOP_ST ? "st" : "atomic";
	cmd_printf(out, "sm %d warp %d, cycle %llu: %s, %d active lane%s x %d B -> %d request%s", sm, ci.warp,
		   (unsigned long long)ci.cycle, op, lanes, lanes == 1 ? "" : "s", ci.size, p->n, p->n == 1 ? "" : "s");
	const char *mode = ci.mode >= 0 && ci.mode < 3 ? mode_names[ci.mode] : "?";
	if (ci.mode == COAL_VOLTA)
		cmd_printf(out, "coalescer volta: lanes in groups of 8, one request per 32 B sector a group touches");
	else if (ci.mode == COAL_SI)
		cmd_printf(out,
			   "coalescer si: subwavefronts of 16 lanes, one request per %d B line each; subwavefront k reaches "
			   "the L1 k cycles after the first",
			   ci.line);
	else
		cmd_printf(out, "coalescer %s: all %d lanes together, one request per %d B line touched", mode, ci.warp_size,
			   ci.line);
	if (ci.segment && ci.op != KOP_ATOM)
		cmd_printf(out, "icnt.payload segment: a request that travels as itself (a %s) carries its segment",
			   ci.op == KOP_ST ? "store" : "load skipping the L1");
	int group = -1;
	for (int k = 0; k < p->n; k++) {
		const struct coal_req *r = &p->v[k];
		uint64_t lm = 0, lo = UINT64_MAX, hi = 0;
		for (int l = 0; l < ci.warp_size && l < KMAX_LANES; l++)
			if (p->lane_req[l][0] == k || p->lane_req[l][1] == k) {
				lm |= 1ull << l;
				lo = ci.addr[l] < lo ? ci.addr[l] : lo;
				hi = ci.addr[l] > hi ? ci.addr[l] : hi;
			}
		int g = p->group ? r->first / p->group : 0;
		if (p->group < ci.warp_size && g != group) {
			group = g;
			cmd_printf(out, "  %s %d (lanes %d-%d)%s", ci.mode == COAL_SI ? "subwavefront" : "group", g, g * p->group,
				   g * p->group + p->group - 1, ci.mode == COAL_SI && g ? "" : "");
		}
		char lanes_s[200], mt[96], delay[32] = "", seg[160];
		lane_ranges(lm, lanes_s, sizeof lanes_s);
		mask_text(&ci, r->mask, mt, sizeof mt);
		segment_text(&ci, r, seg, sizeof seg);
		if (ci.mode == COAL_SI)
			snprintf(delay, sizeof delay, "  +%d cycle%s", r->delay, r->delay == 1 ? "" : "s");
		cmd_printf(out, "    r%-2d line 0x%llx  %s%s%s  <- lanes %s (%d)  0x%llx..0x%llx", k,
			   (unsigned long long)r->line, mt, seg, delay, lanes_s, __builtin_popcountll(lm), (unsigned long long)lo, (unsigned long long)hi);
	}
}
