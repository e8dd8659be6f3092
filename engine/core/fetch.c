/*
 * fetch.c: an SM's instruction fetch unit and its warps' instruction
 * buffers (l1i.enabled; docs/MODEL.md "Instruction cache and fetch"), after
 * GPGPU-Sim's shader_core_ctx::fetch() and decode().
 *
 *   issue (core.c) takes the buffer's head ──▶ ibn - 1, ibpc + inst_size
 *        ▲
 *   warp buffer: ibn instructions from code address ibpc (core.ibuffer at most)
 *        ▲ after l1i.hit_latency (hit) / at the line's fill (miss)
 *   fetch unit: core.fetch_width lookups per cycle, warps in round-robin order
 *   from the one served last, each a warp whose buffer does not hold its next
 *   instruction and that has no fetch in flight ──▶ L1I (mem/l1i.c)
 *
 * A warp's next instruction is its workload's next (w->ib, made by
 * wl_ops.warp_next as before); its code address is the trace line's PC or,
 * for built-in kernels, statement x core.inst_size (fetch_pc). The buffer
 * holds it when ibn > 0 and ibpc equals that address; a buffer holding
 * other code (the warp branched: a loop's back edge, an if's skipped part)
 * is flushed, as GPGPU-Sim flushes the ibuffer on a control hazard. A fetch
 * brings the instructions from its address to the end of its line, at most
 * core.ibuffer, and only into an empty buffer (GPGPU-Sim fetches for a warp
 * whose ibuffer is empty). A lookup the L1I refuses (no MSHR entry, merge
 * slot, miss-queue room) still uses the fetch slot, and the warp is tried
 * again at its next turn.
 *
 * The unit runs after the issue stage of core_tick, so a warp that issued
 * the last instruction of its buffer can be fetched for in the same cycle.
 * Every change it waits for wakes the SM: an issue or a fill marks it dirty,
 * a hit's instructions arriving at f_ready and a retry next cycle are
 * reported to skip-ahead (sim_wake_at and the SM's next_busy).
 */
#include "sim/sim_int.h"

uint64_t fetch_pc(const struct sim *s, const struct winst *in)
{
	if (in->pc == WINST_PC_STMT)
		return (uint64_t)in->stmt * (uint64_t)s->cfg.l1i.inst_size;
	return in->pc;
}

static void wake_sm_at(struct sim *s, struct sm *sm, uint64_t t)
{
	if (t < sm->next_busy)
		sm->next_busy = t;
	sim_wake_at(s, t);
}

/* A hit's instructions that have arrived enter the buffer. */
static void resolve(const struct sim *s, struct warp *w)
{
	if (w->fst == FS_HIT && w->f_ready <= s->st->now) {
		w->fst = FS_IDLE;
		w->ibn = w->fn;
	}
}

bool fetch_ready(struct sim *s, struct sm *sm, struct warp *w)
{
	uint64_t pc = fetch_pc(s, &w->ib);
	if (pc == WINST_PC_NONE)
		return true;
	resolve(s, w);
	if (w->ibn && w->ibpc == pc)
		return true;
	sm->fwant |= 1ull << (w - sm->w); /* the fetch unit's to serve */
	if (w->fst == FS_IDLE)
		w->ibn = 0; /* other code: flushed; the fetch unit fetches pc */
	else if (w->fst == FS_HIT)
		wake_sm_at(s, sm, w->f_ready);
	return false;
}

void fetch_on_issue(const struct sim *s, struct warp *w)
{
	if (fetch_pc(s, &w->ib) == WINST_PC_NONE)
		return;
	w->ibn--;
	w->ibpc += (uint64_t)s->cfg.l1i.inst_size;
}

/* Instructions a fetch at code address pc brings: to the end of its line,
 * at most core.ibuffer, at least the one asked for. */
static uint8_t fetch_count(const struct sim *s, uint64_t pc)
{
	uint64_t line = (uint64_t)s->cfg.l1.line, isz = (uint64_t)s->cfg.l1i.inst_size;
	uint64_t left = (line - ((L1I_CODE_BASE + pc) & (line - 1))) / isz;
	uint64_t n = left < (uint64_t)s->cfg.l1i.ibuffer ? left : (uint64_t)s->cfg.l1i.ibuffer;
	return (uint8_t)(n ? n : 1);
}

void fetch_tick(struct sim *s, struct sm *sm)
{
	const struct sim_cfg *c = &s->cfg;
	struct l1i *l = &sm->l1i;
	uint64_t now = s->st->now;
	int nw = c->core.warps_per_sm, width = c->l1i.fetch_width, tries = 0, start = l->last_fetched;
	bool again = false;
	/* The active warps (sm->wact, core_masks.c) in round-robin order from
	 * the slot after the last one fetched for (start = -1: from slot 0):
	 * the slots from s0 up, then those below it. Only those in sm->fwant:
	 * a warp found buffered below leaves it until it issues (or its
	 * buffer is found not to hold its next instruction, fetch_ready), and
	 * the loop would pass it over with no effect until then. */
	unsigned s0 = (unsigned)((start + 1) % nw);
	uint64_t cand = sm->wact & sm->fwant;
	uint64_t from_s0 = cand & (~0ull << s0), below = cand & ((1ull << s0) - 1);
	for (uint64_t m = from_s0 ? from_s0 : below; m; m = from_s0 ? from_s0 : below) {
		int slot = __builtin_ctzll(m);
		if (from_s0)
			from_s0 &= from_s0 - 1;
		else
			below &= below - 1;
		struct warp *w = &sm->w[slot];
		if (w->state != WSL_ACTIVE)
			continue;
		resolve(s, w);
		if (w->fst != FS_IDLE)
			continue;
		/* Operands still being read (timed register file): w->ib holds the
		 * issued instruction until it executes, and the next one is known
		 * only then; loading it here would execute the wrong instruction. */
		if (w->rf_collect)
			continue;
		if (!w->ib_valid)
			core_load_ib(s, w);
		uint64_t pc = fetch_pc(s, &w->ib);
		if (pc == WINST_PC_NONE || (w->ibn && w->ibpc == pc)) {
			sm->fwant &= ~(1ull << slot); /* nothing to fetch, or buffered */
			continue;
		}
		if (tries == width) {
			again = true; /* a warp is left for the next cycle */
			break;
		}
		tries++;
		w->ibn = 0;
		l->last_fetched = slot;
		int r = l1i_access(s, sm, slot, L1I_CODE_BASE + pc);
		if (r == L1I_REFUSED) {
			again = true;
			continue;
		}
		w->ibpc = pc;
		w->fn = fetch_count(s, pc);
		if (r == L1I_HIT) {
			w->fst = FS_HIT;
			w->f_ready = now + (uint64_t)c->l1i.hit_latency;
			wake_sm_at(s, sm, w->f_ready);
		}
		sim_progress(s);
	}
	if (again)
		wake_sm_at(s, sm, now + 1);
}
