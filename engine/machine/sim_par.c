/*
 * sim_par.c: the threaded SM phases of sim.c's cycle (`--threads N`): which
 * machines may run them on several threads, the threads' setup, and each
 * phase's run and merge in SM order. sim.c calls par_setup/par_teardown
 * when a machine is built and freed, and par_phase twice a cycle.
 */
#include <stdlib.h>
#include <unistd.h>

#include "sim/sim_int.h"
#include "trace/trace.h"
#include "sim_par.h"

/*
 * Threads. The two per-SM phases of a cycle (every busy SM's l1_tick, then
 * after CTA dispatch every busy SM's core_tick) run on the machine's threads
 * (sim_set_threads) when par_ok. An SM's tick changes its own SM and,
 * through par.h, per-thread and per-SM buffers instead of anything shared;
 * after the phase the calling thread merges them: stat sums and maxima,
 * progress and the next wake-up time (order-free), then per SM in ascending
 * order its occupancy changes and events (replayed through ev_emit, so the log, the counts and
 * the breakpoints see the order of one thread), its request-slot and CTA
 * counts, its request stash (req.c) and, after the core phase, its activity
 * bit. The split of SMs among threads only decides who runs which tick, so
 * every thread count, one included, gives the same state cycle by cycle.
 *
 * par_ok is decided when the machine is built, from the config and
 * workload alone: off for what still writes shared state from an SM's tick
 * (coherence protocols, coherence.check_values, CCWS and VWS, whose
 * listeners on the L1 probe points feed the schedulers; random L1
 * replacement, which draws from the machine's PRNG; the timed register
 * file; locality bypassing's SM dueling; RMWS and TBAS scheduling; several
 * kernels back to back; host copies; DRAM traces). Those machines run
 * one thread whatever is asked. A trace streamed through a fetch callback
 * (.xz), whose reader keeps state, takes the buffered path (its state then
 * equals the plain file's) on one thread (par_one). The reuse profiler's L1 listener runs in
 * the SM's thread: it changes only that SM's reuse stack, stats and events.
 */
static bool par_eligible(const struct sim *s)
{
	const struct sim_cfg *c = &s->cfg;
	if (s->dreqs || s->coh || s->cv || s->nk != 1)
		return false;
	if (c->l1.repl == REPL_RANDOM || c->l1.bypass == L1B_LOCALITY || c->l1.bypass == L1B_MRPB)
		return false;
	if (c->core.scheduler == SCHED_RMWS || c->core.scheduler == SCHED_TBAS || c->core.scheduler == SCHED_VWS ||
	    c->core.scheduler == SCHED_CCWS)
		return false;
	if ((!sim_wl_is_kernel(s) && s->wops != &trace_wl_ops) || s->wl.ncopies)
		return false;
	for (int i = 0; i < c->core.sms; i++)
		if (s->sms[i].rf || s->sms[i].vws || s->sms[i].ccws)
			return false;
	return c->core.sms > 0;
}

/* Below this many SMs in a phase the calling thread runs it alone: handing
 * work to the others costs more than it saves (docs/PERFORMANCE.md). */
#define PAR_MIN_SMS 4
/* The automatic thread count gives each thread at least this many SMs. */
#define PAR_SMS_PER_THREAD 8

void par_setup(struct sim *s)
{
	s->par_ok = par_eligible(s);
	/* A streamed (.xz) trace takes the same path, so its state matches the
	 * plain file's, on one thread: its reader keeps state. */
	s->par_one = s->par_ok && s->wops == &trace_wl_ops &&
		     trace_streamed(((const struct trace_view *)s->wimpl)->k);
	s->threads = 1;
	s->par_min = PAR_MIN_SMS;
	if (!s->par_ok)
		return;
	int ns = s->cfg.core.sms;
	s->psm = xcalloc((size_t)ns, sizeof *s->psm);
	for (int i = 0; i < ns; i++)
		s->psm[i].id = (uint32_t)i;
	s->par_ids = xcalloc((size_t)ns, sizeof *s->par_ids);
	s->pthr = xcalloc(1, sizeof *s->pthr);
	par_thr_init(&s->pthr[0], &s->stats);
	sim_set_threads(s, s->cfg.threads);
}

void par_teardown(struct sim *s)
{
	tpool_free(s->tp);
	s->tp = NULL;
	for (int i = 0; s->pthr && i < s->threads; i++)
		par_thr_free(&s->pthr[i]);
	free(s->pthr);
	for (int i = 0; s->psm && i < s->cfg.core.sms; i++) {
		free(s->psm[i].ev);
		free(s->psm[i].occ);
	}
	free(s->psm);
	free(s->par_ids);
	s->pthr = NULL;
	s->psm = NULL;
	s->par_ids = NULL;
}

int sim_default_threads(const struct sim_cfg *cfg)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	/* A thread pays from about eight busy SMs up (docs/PERFORMANCE.md). */
	int cap = cfg->core.sms / PAR_SMS_PER_THREAD;
	if (n > cap)
		n = cap;
	if (n > SIM_MAX_THREADS)
		n = SIM_MAX_THREADS;
	return n < 1 ? 1 : (int)n;
}

int sim_set_threads(struct sim *s, int n)
{
	if (n <= 0)
		n = sim_default_threads(&s->cfg);
	if (n > SIM_MAX_THREADS)
		n = SIM_MAX_THREADS;
	if (!s->par_ok || s->par_one)
		n = 1;
	else if (n > s->cfg.core.sms)
		n = s->cfg.core.sms;
	if (n == s->threads)
		return n;
	struct tpool *tp = n > 1 ? tpool_new(n) : NULL;
	if (n > 1 && !tp)
		n = 1; /* no threads to be had: one */
	tpool_free(s->tp);
	for (int i = 0; i < s->threads; i++)
		par_thr_free(&s->pthr[i]);
	s->tp = tp;
	s->pthr = xrealloc(s->pthr, (size_t)n * sizeof *s->pthr);
	for (int i = 0; i < n; i++)
		par_thr_init(&s->pthr[i], &s->stats);
	s->threads = n;
	return n;
}

int sim_threads(const struct sim *s) { return s->threads; }
bool sim_threads_possible(const struct sim *s) { return s->par_ok && !s->par_one; }

/* Part `part` of the current phase: a contiguous share of par_ids. */
static void par_part(void *arg, int part)
{
	struct sim *s = arg;
	int nt = s->par_n >= (uint32_t)s->par_min ? s->threads : 1;
	uint32_t lo = (uint32_t)((uint64_t)s->par_n * (uint64_t)part / (uint64_t)nt);
	uint32_t hi = (uint32_t)((uint64_t)s->par_n * (uint64_t)(part + 1) / (uint64_t)nt);
	struct par_thr *t = &s->pthr[part];
	par_cur = t;
	for (uint32_t j = lo; j < hi; j++) {
		uint32_t id = s->par_ids[j];
		t->sm = par_sm_cur = &s->psm[id];
		if (s->par_kind == 0)
			l1_tick(s, &s->sms[id]);
		else
			core_tick(s, &s->sms[id]);
	}
	t->sm = par_sm_cur = NULL;
	par_cur = NULL;
}

/*
 * The direct path (one thread, w41c). With one thread the buffers above only
 * reorder what a tick writes, and for most of it the order is already the
 * merge's: the SMs tick in ascending order, counters and maxima commute,
 * progress and wake-up times are an OR and a minimum, and occupancy changes
 * and events applied as they happen come in the order of their replay. So
 * par_cur stays NULL and those are written at once. Two things keep the
 * buffered path's behaviour, so that the state equals every thread
 * count's, request slots included: each SM takes and returns request slots
 * through its stash (par_sm_cur; its settles, in SM order, each after its
 * tick rather than all after the phase, which is the same: a tick touches
 * only its own stash, and all the stashes are topped up to their lower
 * bound before the first tick, as there), and the pool's `used` moves
 * only after the phase (req_room reads the phase's starting count).
 * Breakpoints see events only after the phase (an event breakpoint's stat
 * condition reads every SM's counters), so with any breakpoint set the
 * buffered path runs instead.
 */
static bool par_direct(const struct sim *s) { return s->threads == 1 && (!s->bps || !s->bps->n); }

static void par_phase_direct(struct sim *s, int kind)
{
	int ns = s->cfg.core.sms;
	struct state *st = s->st;
	int64_t used = 0;
	for (int i = sim_act_next(s->act_sm, ns, 0); i < ns; i = sim_act_next(s->act_sm, ns, i + 1))
		if (s->pool.stash_n[i] < s->stash_lo)
			req_stash_settle(&s->pool, (uint32_t)i, s->stash_lo, s->stash_hi);
	for (int i = sim_act_next(s->act_sm, ns, 0); i < ns; i = sim_act_next(s->act_sm, ns, i + 1)) {
		struct par_sm *m = &s->psm[i];
		struct sm *sm = &s->sms[i];
		par_sm_cur = m;
		if (kind == 0)
			l1_tick(s, sm);
		else
			core_tick(s, sm);
		par_sm_cur = NULL;
		if (kind == 1 && !sim_sm_busy(s, sm))
			sim_act_clear(s->act_sm, i);
		if (!m->dirty)
			continue;
		m->dirty = false;
		used += m->used;
		m->used = 0;
		st->ctas_done += m->ctas_done;
		m->ctas_done = 0;
		req_stash_settle(&s->pool, (uint32_t)i, s->stash_lo, s->stash_hi);
	}
	s->pool.used = (uint32_t)((int64_t)s->pool.used + used);
}

void par_phase(struct sim *s, int kind)
{
	if (par_direct(s)) {
		par_phase_direct(s, kind);
		return;
	}
	int ns = s->cfg.core.sms;
	uint32_t n = 0;
	for (int i = sim_act_next(s->act_sm, ns, 0); i < ns; i = sim_act_next(s->act_sm, ns, i + 1))
		s->par_ids[n++] = (uint32_t)i;
	if (!n)
		return;
	s->par_n = n;
	s->par_kind = kind;
	for (uint32_t j = 0; j < n; j++) /* every SM starts with its stash's lower bound */
		if (s->pool.stash_n[s->par_ids[j]] < s->stash_lo)
			req_stash_settle(&s->pool, s->par_ids[j], s->stash_lo, s->stash_hi);
	if (s->tp && n >= (uint32_t)s->par_min)
		tpool_run(s->tp, par_part, s);
	else
		par_part(s, 0);
	/* Merge (see above). */
	struct state *st = s->st;
	for (int k = 0; k < s->threads; k++) {
		struct par_thr *t = &s->pthr[k];
		par_thr_merge_stats(t, &s->stats);
		if (t->progress)
			st->progress = true;
		if (t->next_event < st->next_event)
			st->next_event = t->next_event;
		t->progress = false;
		t->next_event = UINT64_MAX;
	}
	for (uint32_t j = 0; j < n; j++) { /* ascending SM order, whoever ran them */
		struct par_sm *m = &s->psm[s->par_ids[j]];
		uint32_t id = m->id;
		if (kind == 1 && !sim_sm_busy(s, &s->sms[id]))
			sim_act_clear(s->act_sm, (int)id);
		if (!m->dirty)
			continue;
		m->dirty = false;
		for (uint32_t e = 0; e < m->nocc; e++) {
			const struct par_occ *o = &m->occ[e];
			if (o->add)
				stat_occ_add(&s->stats, o->id, (int64_t)o->v);
			else
				stat_occ_set(&s->stats, o->id, o->v);
		}
		m->nocc = 0;
		for (uint32_t e = 0; e < m->nev; e++)
			ev_emit(&s->ev, &m->ev[e]);
		m->nev = 0;
		s->pool.used = (uint32_t)((int64_t)s->pool.used + m->used);
		m->used = 0;
		st->ctas_done += m->ctas_done;
		m->ctas_done = 0;
		req_stash_settle(&s->pool, id, s->stash_lo, s->stash_hi);
	}
}

