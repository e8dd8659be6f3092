/*
 * sim_par.c: the threaded SM phases of sim.c's cycle (`--threads N`): which
 * machines may run them on several threads, the threads' setup, and each
 * phase's run and merge in SM order. sim.c calls par_setup/par_teardown
 * when a machine is built and freed, and par_cycle once a cycle (two jobs
 * for the threads, or one: "Fused phases" below).
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "sim/sim_int.h"
#include "trace/trace.h"
#include "sim_par.h"

/*
 * Threads. The two per-SM phases of a cycle (every busy SM's l1_tick, then
 * after CTA dispatch every busy SM's core_tick) run on the machine's threads
 * (sim_set_threads) when par_ok. An SM's tick changes its own SM and,
 * through par.h, per-thread and per-SM buffers instead of anything shared;
 * after the phase the calling thread merges them: progress and the next
 * wake-up time (order-free; the stat sums and maxima, order-free too, wait
 * in the threads' contexts until a stat is read: stats_sync), then per SM in ascending
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
/* Why the machine runs its SM phases on one thread (NULL: it may use
 * several). */
static const char *par_serial_reason(const struct sim *s)
{
	const struct sim_cfg *c = &s->cfg;
	if (s->dreqs)
		return "a DRAM trace drives the DRAM alone";
	if (s->coh || s->cv)
		return "its coherence protocol (or coherence.check_values) is shared state";
	if (s->nk != 1)
		return "it runs several kernels back to back";
	if (c->l1.repl == REPL_RANDOM)
		return "random L1 replacement draws from the machine's random numbers";
	if (c->l1.bypass == L1B_LOCALITY || c->l1.bypass == L1B_MRPB)
		return "its L1 bypassing (locality or MRPB) is decided across SMs";
	if (c->core.scheduler == SCHED_RMWS || c->core.scheduler == SCHED_TBAS || c->core.scheduler == SCHED_VWS ||
	    c->core.scheduler == SCHED_CCWS)
		return "its warp scheduler (RMWS, TBAS, VWS or CCWS) listens to the L1s";
	if (!sim_wl_is_kernel(s) && s->wops != &trace_wl_ops)
		return "its workload is neither a kernel nor a trace";
	if (s->wl.ncopies)
		return "its workload copies host memory";
	for (int i = 0; i < c->core.sms; i++)
		if (s->sms[i].rf || s->sms[i].vws || s->sms[i].ccws)
			return "its timed register file is ticked with the SMs";
	if (c->core.sms <= 0)
		return "it has no SMs";
	return NULL;
}

static bool par_eligible(const struct sim *s) { return par_serial_reason(s) == NULL; }

/*
 * The parts of a phase. Part k runs the busy SMs par_ids[lo_k, hi_k), a
 * contiguous run in ascending SM order, with lo_k = n * frac[k] / 2^16 for
 * per-phase-kind fractions frac[0] = 0 <= frac[1] <= ... <= frac[nt] = 2^16.
 * While it runs, a part lists the SMs whose merge has work (something
 * buffered, or idle after the core phase) in list[lo_k, lo_k + nlist_k), so
 * the calling thread merges the parts' lists in part order, which is
 * ascending SM order, and reads nothing of the other SMs: their state stays
 * in the cache of the core that ticked them.
 *
 * Balance: with several threads each part's time runs from when the phase
 * was handed out to the part's end (threads_clock), so a thread that
 * starts late counts as slower. After each phase every boundary gets a
 * vote: +1 when the part below it was slower by more than a sixteenth (and
 * 200 ticks), -1 when the part above was, else 0; after PAR_BAL_WINDOW
 * phases of a kind, a boundary whose votes add up to a quarter of the
 * window or more moves by one SM's share of 2^16 away from the slower part
 * (par_balance_add). So a thread's SMs stay contiguous and the same for
 * dozens of cycles while the times even out: an SM that changes threads
 * brings its state over from the other core's cache, which costs about as
 * much as several of its ticks (docs/PERFORMANCE.md "Keeping an SM on its
 * thread"), and a phase's parts vary from cycle to cycle far more than one
 * SM (an SM's tick costs from tens of ticks to thousands), so moving after
 * every phase chased noise. Votes rather than summed times, so that one
 * phase whose thread lost its core does not move a boundary. Which part
 * runs which SM changes no result: the times steer who works, never what
 * is merged or in which order. par_force_split (tests) fixes the fractions
 * instead.
 */
#define PAR_ONE 65536u
/* A list entry: the SM's id and what its merge must do. */
#define PAR_IDLE 0x80000000u  /* the SM went idle (core phase) */
#define PAR_DEFER 0x40000000u /* fused: its core_tick waits for the L1 merge */
#define PAR_L1 0x20000000u    /* fused: its L1 phase buffered something (marks) */
#define PAR_ID 0x1fffffffu

/* 128 bytes apart: two parts' fields never share a cache line. */
struct par_part {
	uint32_t lo, hi; /* its share of par_ids */
	uint32_t nlist;  /* entries it wrote at list[lo..] */
	uint64_t end;    /* timed: when it finished (threads_clock) */
	char pad[104];
};

/* Fused: where an SM's L1-phase buffers end and its core phase's begin. */
struct par_mark {
	uint32_t nev, nocc, ctas_done;
	int32_t used;
};

/* By who writes what (128-byte aligned, par_setup): the first line the
 * threads read every phase and the calling thread rewrites only when a
 * value changes; each part's own lines; then what only the calling thread
 * reads and writes every phase (the hand-out time, the votes), which would
 * otherwise take the first line from under the threads. */
struct par_ctl {
	uint32_t *list;        /* one entry per SM */
	struct par_mark *mark; /* per SM */
	uint32_t *dpos, nd;    /* fused: the deferred SMs' list positions */
	int nt;                /* parts of the current phase */
	bool timed, forced;
	bool defer_all; /* tests: every SM with L1-phase buffers takes the deferred path */
	_Alignas(128) struct par_part part[SIM_MAX_THREADS];
	_Alignas(128) uint64_t t0;             /* timed: when the phase was handed out */
	uint32_t frac[3][SIM_MAX_THREADS + 1]; /* per phase kind (2: fused) */
	struct par_bal bal[3];                 /* their votes */
};

/* Even fractions for nt parts, no votes yet. */
static void par_split_even(struct par_ctl *c, int nt)
{
	for (int k = 0; k < 3; k++) {
		for (int i = 0; i <= nt; i++)
			c->frac[k][i] = (uint32_t)((uint64_t)PAR_ONE * (uint64_t)i / (uint64_t)nt);
		c->bal[k] = (struct par_bal){0};
	}
}

/* Below this many SMs in a phase the calling thread runs it alone: handing
 * work to the others costs more than it saves (docs/PERFORMANCE.md). */
#define PAR_MIN_SMS 4
/* The automatic thread count gives each thread at least this many SMs. */
#define PAR_SMS_PER_THREAD 8

/* n zeroed thread contexts, each on cache lines of its own: a worker
 * writes its context on every stat update, and a line shared with another
 * thread's would move between their cores each time. */
static struct par_thr *par_thr_array(int n)
{
	return xcalloc_aligned(PAR_THR_ALIGN, (size_t)n * sizeof(struct par_thr));
}

/* The stats registry reads the threads' pending deltas from here. */
static void par_stats_attach(struct sim *s)
{
	s->stats.pend = s->pthr;
	s->stats.npend = s->pthr ? (uint32_t)s->threads : 0;
}

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
	s->pctl = xcalloc_aligned(128, sizeof *s->pctl);
	s->pctl->list = xcalloc((size_t)ns, sizeof *s->pctl->list);
	s->pctl->mark = xcalloc((size_t)ns, sizeof *s->pctl->mark);
	s->pctl->dpos = xcalloc((size_t)ns, sizeof *s->pctl->dpos);
	par_split_even(s->pctl, 1);
	s->pthr = par_thr_array(1);
	par_thr_init(&s->pthr[0], &s->stats);
	par_stats_attach(s);
	sim_set_threads(s, s->cfg.threads);
}

void par_teardown(struct sim *s)
{
	if (s->pthr)
		stats_sync(&s->stats);
	s->stats.pend = NULL;
	s->stats.npend = 0;
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
	if (s->pctl) {
		free(s->pctl->list);
		free(s->pctl->mark);
		free(s->pctl->dpos);
	}
	free(s->pctl);
	s->pctl = NULL;
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
	stats_sync(&s->stats); /* the old contexts' deltas */
	for (int i = 0; i < s->threads; i++)
		par_thr_free(&s->pthr[i]);
	free(s->pthr);
	s->tp = tp;
	s->pthr = par_thr_array(n);
	for (int i = 0; i < n; i++)
		par_thr_init(&s->pthr[i], &s->stats);
	s->threads = n;
	par_stats_attach(s);
	if (s->pctl) {
		s->pctl->forced = false;
		par_split_even(s->pctl, n);
	}
	return n;
}

int sim_threads(const struct sim *s) { return s->threads; }
bool sim_threads_possible(const struct sim *s) { return s->par_ok && !s->par_one; }

const char *sim_threads_why_one(const struct sim *s)
{
	if (s->par_one)
		return "its trace is read from a compressed (.xz) stream, which keeps state";
	return s->par_ok ? NULL : par_serial_reason(s);
}

unsigned sim_threads_paused(const struct sim *s) { return s->tp ? tpool_paused(s->tp) : 0; }

int sim_threads_last_split(const struct sim *s, uint32_t *count, int max)
{
	const struct par_ctl *c = s->pctl;
	if (!c || c->nt < 1)
		return 0;
	int n = c->nt < max ? c->nt : max;
	for (int k = 0; k < n; k++)
		count[k] = c->part[k].hi - c->part[k].lo;
	return n;
}

void par_force_split(struct sim *s, const uint32_t *frac)
{
	struct par_ctl *c = s->pctl;
	if (!c)
		return;
	c->forced = frac != NULL;
	if (!frac) {
		par_split_even(c, s->threads);
		return;
	}
	for (int k = 0; k < 3; k++) {
		for (int i = 0; i <= s->threads; i++)
			c->frac[k][i] = i == 0 ? 0 : i == s->threads ? PAR_ONE : frac[i];
		c->bal[k] = (struct par_bal){0};
	}
}

bool par_balance_add(struct par_bal *b, uint32_t *f, int nt, const uint64_t *ns, uint32_t n)
{
	for (int k = 1; k < nt; k++) {
		uint64_t lo = ns[k - 1], hi = ns[k];
		uint64_t slack = (lo > hi ? lo : hi) / 16 + 200;
		b->vote[k] += lo > hi + slack ? 1 : hi > lo + slack ? -1 : 0;
	}
	if (++b->phases < PAR_BAL_WINDOW)
		return false;
	uint32_t step = (PAR_ONE + n - 1) / n;
	for (int k = 1; k < nt; k++) {
		if (b->vote[k] >= PAR_BAL_WINDOW / 4) /* the part below slower: it gives an SM away */
			f[k] = f[k] - f[k - 1] > step ? f[k] - step : f[k - 1];
		else if (b->vote[k] <= -PAR_BAL_WINDOW / 4)
			f[k] = f[k + 1] - f[k] > step ? f[k] + step : f[k + 1];
	}
	*b = (struct par_bal){0};
	return true;
}

/* The last phase's times vote on its kind's boundaries. */
static void par_balance(struct par_ctl *c, int kind, uint32_t n)
{
	uint64_t ns[SIM_MAX_THREADS];
	for (int k = 0; k < c->nt; k++)
		ns[k] = c->part[k].end > c->t0 ? c->part[k].end - c->t0 : 0;
	par_balance_add(&c->bal[kind], c->frac[kind], c->nt, ns, n);
}

/* An SM's buffers, emptied by the thread that ticks it next, when it
 * starts the tick (the merge only reads them, so their cache line stays
 * with that thread instead of moving to the merging one and back). A
 * merge reads only the SMs ticked in its phase, so what an SM's buffers
 * still hold from an earlier phase is never merged twice. */
static inline void par_sm_clear(struct par_sm *m)
{
	if (m->dirty) {
		m->dirty = false;
		m->nocc = m->nev = 0;
		m->used = 0;
		m->ctas_done = 0;
	}
}

/* Part `part` of the current phase (see above). */
static void par_part(void *arg, int part)
{
	struct sim *s = arg;
	struct par_ctl *c = s->pctl;
	struct par_part *pp = &c->part[part];
	uint32_t lo = pp->lo, hi = pp->hi, nl = lo;
	uint32_t slo = s->stash_lo, shi = s->stash_hi;
	int kind = s->par_kind;
	struct par_thr *t = &s->pthr[part];
	par_cur = t;
	for (uint32_t j = lo; j < hi; j++) {
		uint32_t id = s->par_ids[j];
		struct par_sm *m = &s->psm[id];
		struct sm *sm = &s->sms[id];
		par_sm_clear(m);
		t->sm = par_sm_cur = m;
		uint32_t e = id;
		if (kind != 1)
			l1_tick(s, sm);
		if (kind == 2 && m->dirty) {
			/* Its L1 phase's buffers end here; the merge of the separate
			 * phases would settle its stash now, which is a no-op inside
			 * [lo, hi]: outside, its core_tick waits for that (deferred). */
			c->mark[id] = (struct par_mark){m->nev, m->nocc, m->ctas_done, m->used};
			e |= PAR_L1;
			uint32_t sn = s->pool.stash_n[id];
			if (sn < slo || sn > shi || c->defer_all) {
				c->list[nl++] = e | PAR_DEFER;
				continue;
			}
		}
		if (kind != 0) {
			core_tick(s, sm);
			if (!sim_sm_busy(s, sm))
				e |= PAR_IDLE;
		}
		if (m->dirty || e != id)
			c->list[nl++] = e;
	}
	t->sm = par_sm_cur = NULL;
	par_cur = NULL;
	pp->nlist = nl - lo;
	if (c->timed)
		pp->end = threads_clock();
}

/* Fused: part `part` of the deferred SMs' core_ticks (an even share of
 * dpos; -1: all of them). */
static void par_part_deferred(void *arg, int part)
{
	struct sim *s = arg;
	struct par_ctl *c = s->pctl;
	int nt = part < 0 ? 1 : tpool_size(s->tp);
	uint32_t lo = part < 0 ? 0 : (uint32_t)((uint64_t)c->nd * (uint64_t)part / (uint64_t)nt);
	uint32_t hi = part < 0 ? c->nd : (uint32_t)((uint64_t)c->nd * (uint64_t)(part + 1) / (uint64_t)nt);
	struct par_thr *t = &s->pthr[part < 0 ? 0 : part];
	par_cur = t;
	for (uint32_t j = lo; j < hi; j++) {
		uint32_t *e = &c->list[c->dpos[j]], id = *e & PAR_ID;
		t->sm = par_sm_cur = &s->psm[id];
		core_tick(s, &s->sms[id]);
		if (!sim_sm_busy(s, &s->sms[id]))
			*e |= PAR_IDLE;
	}
	t->sm = par_sm_cur = NULL;
	par_cur = NULL;
}

/* Merge an SM's buffers from event `ev`, occupancy change `occ` and the
 * counts past `mk` on into the machine (see "Threads" above) and settle
 * its stash. */
static void par_merge_sm(struct sim *s, struct par_sm *m, const struct par_mark *mk)
{
	struct state *st = s->st;
	for (uint32_t e = mk->nocc; e < m->nocc; e++) {
		const struct par_occ *o = &m->occ[e];
		if (o->add)
			stat_occ_add(&s->stats, o->id, (int64_t)o->v);
		else
			stat_occ_set(&s->stats, o->id, o->v);
	}
	for (uint32_t e = mk->nev; e < m->nev; e++)
		ev_emit(&s->ev, &m->ev[e]);
	s->pool.used = (uint32_t)((int64_t)s->pool.used + m->used - mk->used);
	st->ctas_done += m->ctas_done - mk->ctas_done;
	req_stash_settle(&s->pool, m->id, s->stash_lo, s->stash_hi);
}

/* Fused: the L1 phase's share of an SM's buffers (up to its mark), as the
 * merge after a separate L1 phase would; a deferred SM's are all of them,
 * its stash is settled here and its buffers emptied for its core_tick. */
static void par_merge_l1(struct sim *s, struct par_sm *m, const struct par_mark *mk, bool deferred)
{
	static const struct par_mark none;
	if (deferred) {
		par_merge_sm(s, m, &none);
		par_sm_clear(m);
		return;
	}
	for (uint32_t e = 0; e < mk->nocc; e++) {
		const struct par_occ *o = &m->occ[e];
		if (o->add)
			stat_occ_add(&s->stats, o->id, (int64_t)o->v);
		else
			stat_occ_set(&s->stats, o->id, o->v);
	}
	for (uint32_t e = 0; e < mk->nev; e++)
		ev_emit(&s->ev, &m->ev[e]);
	s->pool.used = (uint32_t)((int64_t)s->pool.used + mk->used);
	s->st->ctas_done += mk->ctas_done;
}

/* Run one phase (kind 0 L1s, 1 cores, 2 both fused) on its parts and merge
 * the stat deltas; returns the number of parts (0: no busy SM). */
static int par_run(struct sim *s, int kind)
{
	int ns = s->cfg.core.sms;
	uint32_t n = 0;
	bool shortfall = false;
	const uint32_t *sn = s->pool.stash_n;
	/* What the threads read of the calling thread's writes is rewritten
	 * only when it changed: an unchanged line stays in their caches. */
	for (int w = 0; w < (ns + 63) / 64; w++)
		for (uint64_t b = s->act_sm[w]; b; b &= b - 1) {
			uint32_t id = (uint32_t)(w * 64 + __builtin_ctzll(b));
			if (s->par_ids[n] != id)
				s->par_ids[n] = id;
			n++;
			shortfall |= sn[id] < s->stash_lo;
		}
	if (!n)
		return 0;
	if (s->par_n != n)
		s->par_n = n;
	if (s->par_kind != kind)
		s->par_kind = kind;
	if (shortfall) /* every SM starts with its stash's lower bound */
		for (uint32_t j = 0; j < n; j++)
			if (sn[s->par_ids[j]] < s->stash_lo)
				req_stash_settle(&s->pool, s->par_ids[j], s->stash_lo, s->stash_hi);
	struct par_ctl *c = s->pctl;
	int nt = s->tp && n >= (uint32_t)s->par_min ? s->threads : 1;
	bool timed = nt > 1 && !c->forced;
	if (c->nt != nt || c->timed != timed) /* the threads read these: a line rewritten is a line to fetch */
		c->nt = nt, c->timed = timed;
	for (int k = 0; k < nt; k++) {
		uint32_t lo = nt == 1 ? 0 : (uint32_t)(((uint64_t)n * c->frac[kind][k]) >> 16);
		uint32_t hi = nt == 1 ? n : (uint32_t)(((uint64_t)n * c->frac[kind][k + 1]) >> 16);
		if (c->part[k].lo != lo || c->part[k].hi != hi)
			c->part[k].lo = lo, c->part[k].hi = hi;
	}
	/* A part's time runs from here to its end, so a thread that starts
	 * late (woken, or its core busy) gets fewer SMs: the balance evens out
	 * when the parts finish, which is what the calling thread waits for. */
	c->t0 = c->timed ? threads_clock() : 0; /* on the calling thread's own line (struct par_ctl) */
	if (nt > 1) {
		/* Paused by the guard, the calling thread ran the parts one after
		 * another, each timed from the hand-out: no balance from those. */
		if (!tpool_run(s->tp, par_part, s))
			c->timed = false;
	} else {
		par_part(s, 0);
	}
	return nt;
}

/* After a phase: the threads' progress and wake-up times. Their stat
 * deltas stay where they are until a stat is read (stats_sync). */
static void par_merge_threads(struct sim *s)
{
	struct state *st = s->st;
	if (!s->stats.pending)
		s->stats.pending = true;
	for (int k = 0; k < s->threads; k++) {
		struct par_thr *t = &s->pthr[k];
		if (t->progress)
			st->progress = true;
		if (t->next_event < st->next_event)
			st->next_event = t->next_event;
		t->progress = false;
		t->next_event = UINT64_MAX;
	}
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
 * buffered path runs instead. One thread never fuses the phases
 * (par_fusable needs the thread pool), so kind is 0 or 1 here.
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
		par_sm_clear(m); /* what a buffered phase left (merged then) */
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

/* One SM phase, kind 0 or 1, and its merge. */
static void par_phase(struct sim *s, int kind)
{
	if (par_direct(s)) {
		par_phase_direct(s, kind);
		return;
	}
	static const struct par_mark none;
	int nt = par_run(s, kind);
	if (!nt)
		return;
	par_merge_threads(s);
	struct par_ctl *c = s->pctl;
	for (int k = 0; k < nt; k++) { /* parts in order: ascending SM order, whoever ran them */
		const uint32_t *l = &c->list[c->part[k].lo];
		for (uint32_t j = 0; j < c->part[k].nlist; j++) {
			uint32_t id = l[j] & PAR_ID;
			if (l[j] & PAR_IDLE)
				sim_act_clear(s->act_sm, (int)id);
			struct par_sm *m = &s->psm[id];
			if (m->dirty)
				par_merge_sm(s, m, &none);
		}
	}
	if (c->timed)
		par_balance(c, kind, s->par_n);
}

/*
 * Fused phases. Once every CTA is dispatched (a single kernel: par_ok),
 * core_dispatch between the two phases does nothing, so each part runs an
 * SM's l1_tick and then its core_tick: one job a cycle instead of two. The
 * result equals the separate phases' (so every thread count's), because
 * what the merge between them would change is either not read by a core
 * phase or the same here:
 *  - the L1 phase's events and occupancy changes: marked per SM
 *    (struct par_mark) and replayed, SM by SM, before any of the core
 *    phase's; the request-slot and CTA counts likewise;
 *  - the stat deltas: sums and maxima, read by no tick;
 *  - pool.used, read by req_room: a core phase that sees it before the L1
 *    phase's changes gets the same answer while the pool has room for every
 *    stash at its upper bound plus one stash (the fused phase runs only
 *    then; the pool is sized for it, req_pool_size);
 *  - the SM's stash, settled between the phases: a no-op while it is within
 *    [stash_lo, stash_hi], the usual case (an L1 phase mostly frees slots).
 *    Outside, the SM's core_tick is deferred: after the L1 phase's merge
 *    settles its stash in SM order, the deferred core_ticks run (any
 *    order: an SM's tick reaches no other SM), on the threads when there
 *    are par_min of them (a quarter of the SMs on titanv gather_random,
 *    about one in a thousand on matmul_naive), else on the calling thread;
 *  - the set of busy SMs: the L1 phase sets no other SM's bit, and only
 *    the core phase's merge clears them.
 * One thread takes the separate phases (with fewer than par_min busy SMs
 * the calling thread runs the fused phase alone).
 */
static bool par_fusable(const struct sim *s)
{
	const struct req_pool *p = &s->pool;
	uint64_t room = (uint64_t)s->cfg.core.sms * s->stash_hi + s->stash_hi;
	return s->tp && s->st->ctas_dispatched >= s->nctas && p->cap >= p->used && p->cap - p->used >= room;
}

void par_cycle(struct sim *s)
{
	if (!par_fusable(s)) {
		par_phase(s, 0);
		core_dispatch(s);
		par_phase(s, 1);
		return;
	}
	static const struct par_mark none;
	core_dispatch(s); /* every CTA dispatched: nothing but its stat */
	int nt = par_run(s, 2);
	if (!nt)
		return;
	struct par_ctl *c = s->pctl;
	bool deferred = false;
	for (int k = 0; k < nt; k++) /* the L1 phase's merge, in SM order */
		for (uint32_t j = 0, *l = &c->list[c->part[k].lo]; j < c->part[k].nlist; j++)
			if (l[j] & PAR_L1) {
				uint32_t id = l[j] & PAR_ID;
				par_merge_l1(s, &s->psm[id], &c->mark[id], l[j] & PAR_DEFER);
				deferred |= (l[j] & PAR_DEFER) != 0;
			}
	if (deferred) { /* their core phase: on the threads when there are enough */
		c->nd = 0;
		for (int k = 0; k < nt; k++)
			for (uint32_t j = 0, lo = c->part[k].lo; j < c->part[k].nlist; j++)
				if (c->list[lo + j] & PAR_DEFER)
					c->dpos[c->nd++] = lo + j;
		if (c->nd >= (uint32_t)s->par_min)
			tpool_run(s->tp, par_part_deferred, s);
		else
			par_part_deferred(s, -1);
	}
	par_merge_threads(s);
	for (int k = 0; k < nt; k++) /* the core phase's merge, in SM order */
		for (uint32_t j = 0, *l = &c->list[c->part[k].lo]; j < c->part[k].nlist; j++) {
			uint32_t id = l[j] & PAR_ID;
			if (l[j] & PAR_IDLE)
				sim_act_clear(s->act_sm, (int)id);
			struct par_sm *m = &s->psm[id];
			if (m->dirty) /* past the L1 phase's share, merged above (a deferred SM's: none left) */
				par_merge_sm(s, m, (l[j] & (PAR_L1 | PAR_DEFER)) == PAR_L1 ? &c->mark[id] : &none);
		}
	if (c->timed)
		par_balance(c, 2, s->par_n);
}

void par_test_defer(struct sim *s, bool all)
{
	if (s->pctl)
		s->pctl->defer_all = all;
}
