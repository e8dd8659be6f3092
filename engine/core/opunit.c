/*
 * opunit.c: execution units with a latency and an initiation interval
 * (core.op_model = units; opunit.h). With core.op_model = warp_busy (the
 * default) nothing here runs and an ALU instruction keeps its warp busy for
 * its cycles, as before.
 *
 * Per SM, class c (enum kunit) has core.op_<c>_units units; unit k of it
 * takes its next instruction at free_at[c][k]. An ALU instruction of unit
 * class u runs on class opu_class(u) (GPGPU-Sim runs int and sfu on sp,
 * dp on sfu when a class has no units) with u's own latency L and interval
 * II (GPGPU-Sim's latency and initiation follow the opcode, the pipeline
 * the unit). One instruction (a trace line, winst.traced) or an `alu N`
 * group of N (built-in kernels) entering a free unit at cycle t:
 *
 *   unit busy      [t, t + N*II)              the next one enters then
 *   result ready   t + (N-1)*II + L           scoreboard: readers wait
 *   warp busy      N * core.issue_cycles      its issue slots
 *
 *        t        t+II      t+2II
 *   unit |--A--|--A--|--B--|...      A = alu.sfu 2 (N = 2), B the next one
 *   A's result                 ^ t + II + L
 *
 * With core.op_sub_core, unit k belongs to scheduler k mod core.schedulers
 * (GPGPU-Sim's sub-core model: each scheduler its own units; with fewer
 * units than schedulers, scheduler s uses unit s mod units); else any unit
 * of the class serves any scheduler. Results in flight are kept per
 * warp (OPU_RES; a warp with as many waits as `alu`, documented).
 */
#include <stdio.h>
#include <string.h>

#include "opunit.h"
#include "sim/sim_int.h"

void opu_init(struct sim *s)
{
	const struct core_cfg *c = &s->cfg.core;
	if (c->op_model != OPM_UNITS)
		return;
	uint32_t ids[KU__COUNT];
	for (unsigned u = 0; u < KU__COUNT; u++) {
		char name[64], desc[160];
		snprintf(name, sizeof name, "core.op.%s.insts", kunit_name(u));
		snprintf(desc, sizeof desc,
			 "warp ALU instructions of class %s issued (core.op_model = units; `alu N` counts once; it runs on %s)",
			 kunit_name(u), kunit_name(opu_class(s, u)));
		ids[u] = stats_counter(&s->stats, name, desc);
	}
	for (int i = 0; i < c->sms; i++) {
		struct sm *sm = &s->sms[i];
		ARENA_SET(&s->arena, sm->opu, struct opu_sm, 1);
		ARENA_SET(&s->arena, sm->opu->w, struct opu_warp, c->warps_per_sm);
		memcpy(sm->opu->st_insts, ids, sizeof ids);
	}
}

unsigned opu_class(const struct sim *s, unsigned u)
{
	const int *n = s->cfg.core.op_units;
	switch (u) {
	case KU_INT:
	case KU_TENSOR:
		return n[u] ? u : KU_SP;
	case KU_SFU:
		return n[u] ? u : KU_SP;
	case KU_DP:
		return n[u] ? u : opu_class(s, KU_SFU);
	case KU_BRANCH:
		return n[u] ? u : opu_class(s, KU_INT);
	default:
		return KU_SP;
	}
}

/* The units [first, n) step `step` of class c the scheduler of `slot` may
 * use: every one, or with sub-core units those k = s mod S (S schedulers),
 * or unit s mod n alone when the class has fewer units than schedulers. */
static void unit_range(const struct sim *s, int slot, unsigned c, int *first, int *step)
{
	const struct core_cfg *cc = &s->cfg.core;
	int n = cc->op_units[c], S = cc->schedulers, k = sched_of(s, slot);
	*first = 0;
	*step = 1;
	if (!cc->op_sub_core || S == 1)
		return;
	*first = n >= S ? k : k % n;
	*step = n >= S ? S : n;
}

/* The unit of class c free earliest for warp `slot` (lowest index on ties). */
static int unit_pick(const struct sim *s, const struct opu_sm *o, int slot, unsigned c)
{
	int first, step, best = -1;
	unit_range(s, slot, c, &first, &step);
	for (int k = first; k < s->cfg.core.op_units[c]; k += step)
		if (best < 0 || o->free_at[c][k] < o->free_at[c][best])
			best = k;
	return best;
}

/* The in-flight result of warp `slot` for register r that is ready last, or -1. */
static int pending(const struct opu_warp *ow, unsigned r, uint64_t now)
{
	int at = -1;
	for (int i = 0; i < OPU_RES; i++)
		if (ow->ready[i] > now && ow->reg[i] == r && (at < 0 || ow->ready[i] > ow->ready[at]))
			at = i;
	return at;
}

void opu_wait(const struct sim *s, const struct sm *sm, int slot, const struct winst *in, struct opu_wait *out)
{
	const struct opu_sm *o = sm->opu;
	const struct opu_warp *ow = &o->w[slot];
	uint64_t now = s->st->now;
	memset(out, 0, sizeof *out);
	out->reg = -1;
	/* Registers: the sources, and the destination (no write after write). */
	for (unsigned i = 0; i <= in->nsrc; i++) {
		if (i == in->nsrc && !in->ndst)
			break;
		unsigned r = i < in->nsrc ? in->src[i] : in->dst;
		int p = pending(ow, r, now);
		if (p >= 0 && (out->kind != OPU_DEP || ow->ready[p] > out->until)) {
			out->kind = OPU_DEP;
			out->reg = (int)r;
			out->until = ow->ready[p];
		}
	}
	if (out->kind || in->op != KOP_ALU)
		return;
	unsigned c = opu_class(s, in->unit < KU__COUNT ? in->unit : KU_SP);
	int k = unit_pick(s, o, slot, c);
	if (k >= 0 && o->free_at[c][k] > now) {
		out->kind = OPU_UNIT;
		out->unit = c;
		out->until = o->free_at[c][k];
		return;
	}
	if (in->ndst) {
		uint64_t first = UINT64_MAX;
		for (int i = 0; i < OPU_RES; i++)
			if (ow->ready[i] <= now)
				return;
			else if (ow->ready[i] < first)
				first = ow->ready[i];
		out->kind = OPU_FULL;
		out->until = first;
	}
}

unsigned opu_blocker(struct sim *s, struct sm *sm, int slot, const struct winst *in)
{
	struct opu_wait w;
	opu_wait(s, sm, slot, in, &w);
	if (w.kind == OPU_OK)
		return STALL_NONE;
	sim_wake_at(s, w.until);
	if (w.until < sm->next_busy)
		sm->next_busy = w.until;
	return STALL_ALU;
}

uint64_t opu_issue(struct sim *s, struct sm *sm, int slot, const struct winst *in)
{
	const struct core_cfg *cc = &s->cfg.core;
	struct opu_sm *o = sm->opu;
	uint64_t now = s->st->now;
	unsigned u = in->unit < KU__COUNT ? in->unit : KU_SP, c = opu_class(s, u);
	uint64_t n = in->traced ? 1 : (in->alu_cycles ? in->alu_cycles : 1);
	uint64_t ii = (uint64_t)cc->op_initiation[u], lat = (uint64_t)cc->op_latency[u];
	int k = unit_pick(s, o, slot, c);
	/* Free at issue (opu_blocker); later only after a register-file read. */
	uint64_t t = o->free_at[c][k] > now ? o->free_at[c][k] : now;
	o->free_at[c][k] = t + n * ii;
	stat_inc(&s->stats, o->st_insts[u]);
	if (in->ndst) {
		struct opu_warp *ow = &o->w[slot];
		int at = 0; /* a free entry (opu_wait checked one exists at issue), else the earliest */
		for (int i = 0; i < OPU_RES; i++) {
			if (ow->ready[i] <= now) {
				at = i;
				break;
			}
			if (ow->ready[i] < ow->ready[at])
				at = i;
		}
		ow->ready[at] = t + (n - 1) * ii + lat;
		ow->reg[at] = in->dst;
	}
	return n * s->issue_cycles;
}
