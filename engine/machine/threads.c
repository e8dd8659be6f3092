/*
 * threads.c: a fixed set of worker threads that run one job at a time
 * (threads.h). A job is announced by bumping a generation counter; workers
 * spin on it for a few tens of microseconds (a cycle's phase is shorter),
 * then sleep on a condition variable, so a machine stepped by hand in the
 * TUI costs no CPU between steps. The caller runs part 0, then waits for the
 * count of unfinished parts to reach zero the same way. When the workers
 * keep being late (the machine's cores are busy with other work), the
 * caller runs every part itself for a while: who runs a part never changes
 * the result (sim_par.c "Threads"), only the time.
 *
 * "Late" is measured in time, not in jobs, and checked after every job
 * (threads.h, tp_guard): a worker that loses its core for a few
 * milliseconds now and then makes one job in hundreds late, but that one
 * wait can cost more than the window's parts; counting late jobs missed
 * it, and checking only when a window of 256 jobs ended let a machine
 * whose other core was busy wait a time slice on each of them.
 */
#include "threads.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "sim/util.h"

/* Laid out by who writes what: a job's announcement (and its count of
 * unfinished parts) is one cache line, which a worker fetches once per job;
 * what only the calling thread writes per job is on lines of its own, so
 * writing it never takes a line from under a worker. */
struct tpool {
	_Alignas(64) atomic_uint gen;    /* job number; a change starts the workers */
	atomic_int left;                 /* parts of the current job still running */
	atomic_int stop;
	int n;
	void (*fn)(void *arg, int part); /* written before gen is bumped */
	void *arg;
	_Alignas(64) atomic_int sleepers; /* workers blocked on cv */
	atomic_int waiting;               /* the caller blocked on done */
	pthread_mutex_t mu;
	pthread_cond_t cv, done;
	_Alignas(64) struct tp_guard guard; /* the caller's own */
	unsigned paused;                    /* jobs left to run all on the caller */
	pthread_t *th;
	struct targ {
		struct tpool *tp;
		int part;
	} *args;
};

/* About 20-50 us of pause instructions: a cycle's phase is shorter, so a
 * worker that spins this long without a job blocks instead. */
#define SPIN 2000

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void *worker(void *p)
{
	struct targ *a = p;
	struct tpool *tp = a->tp;
	unsigned seen = 0;
	for (;;) {
		unsigned g;
		int spins = 0;
		while ((g = atomic_load(&tp->gen)) == seen) {
			if (++spins < SPIN) {
				relax();
				continue;
			}
			pthread_mutex_lock(&tp->mu);
			atomic_fetch_add(&tp->sleepers, 1);
			while (atomic_load(&tp->gen) == seen)
				pthread_cond_wait(&tp->cv, &tp->mu);
			atomic_fetch_sub(&tp->sleepers, 1);
			pthread_mutex_unlock(&tp->mu);
			spins = 0;
		}
		seen = g;
		if (atomic_load(&tp->stop))
			return NULL;
		tp->fn(tp->arg, a->part);
		if (atomic_fetch_sub(&tp->left, 1) == 1 && atomic_load(&tp->waiting)) {
			pthread_mutex_lock(&tp->mu);
			pthread_cond_signal(&tp->done);
			pthread_mutex_unlock(&tp->mu);
		}
	}
}

static void announce(struct tpool *tp)
{
	atomic_fetch_add(&tp->gen, 1);
	if (atomic_load(&tp->sleepers)) {
		pthread_mutex_lock(&tp->mu);
		pthread_cond_broadcast(&tp->cv);
		pthread_mutex_unlock(&tp->mu);
	}
}

struct tpool *tpool_new(int n)
{
	if (n < 2)
		return NULL;
	struct tpool *tp = xcalloc_aligned(64, sizeof *tp);
	tp->n = n;
	tp_guard_init(&tp->guard);
	tp->th = xcalloc((size_t)n, sizeof *tp->th);
	tp->args = xcalloc((size_t)n, sizeof *tp->args);
	pthread_mutex_init(&tp->mu, NULL);
	pthread_cond_init(&tp->cv, NULL);
	pthread_cond_init(&tp->done, NULL);
	for (int i = 1; i < n; i++) {
		tp->args[i] = (struct targ){tp, i};
		if (pthread_create(&tp->th[i], NULL, worker, &tp->args[i])) {
			tp->n = i; /* the ones made so far are stopped by tpool_free */
			tpool_free(tp);
			return NULL;
		}
	}
	return tp;
}

void tpool_free(struct tpool *tp)
{
	if (!tp)
		return;
	atomic_store(&tp->stop, 1);
	announce(tp);
	for (int i = 1; i < tp->n; i++)
		pthread_join(tp->th[i], NULL);
	pthread_mutex_destroy(&tp->mu);
	pthread_cond_destroy(&tp->cv);
	pthread_cond_destroy(&tp->done);
	free(tp->th);
	free(tp->args);
	free(tp);
}

int tpool_size(const struct tpool *tp) { return tp ? tp->n : 1; }
unsigned tpool_paused(const struct tpool *tp) { return tp ? tp->paused : 0; }

bool tpool_run(struct tpool *tp, void (*fn)(void *arg, int part), void *arg)
{
	if (tp->paused) { /* the machine has no core to spare now: every part here */
		tp->paused--;
		for (int i = 0; i < tp->n; i++)
			fn(arg, i);
		return false;
	}
	if (tp->fn != fn || tp->arg != arg) /* the workers read them: unchanged, their line stays put */
		tp->fn = fn, tp->arg = arg;
	atomic_store(&tp->left, tp->n - 1);
	uint64_t t0 = threads_clock();
	announce(tp);
	fn(arg, 0);
	uint64_t t1 = threads_clock();
	int spins = 0;
	while (atomic_load(&tp->left) > 0) {
		if (++spins < SPIN) {
			relax();
			continue;
		}
		pthread_mutex_lock(&tp->mu);
		atomic_store(&tp->waiting, 1);
		while (atomic_load(&tp->left) > 0)
			pthread_cond_wait(&tp->done, &tp->mu);
		atomic_store(&tp->waiting, 0);
		pthread_mutex_unlock(&tp->mu);
	}
	tp->paused = tp_guard_job(&tp->guard, t1 - t0, threads_clock() - t1);
	return true;
}

void tp_guard_init(struct tp_guard *g) { *g = (struct tp_guard){.pause = TP_PAUSE_MIN}; }

unsigned tp_guard_job(struct tp_guard *g, uint64_t own, uint64_t wait)
{
	unsigned pause = 0;
	g->own += own;
	g->wait += wait;
	bool late = ++g->jobs >= TP_MIN_JOBS && g->wait > g->own;
	if (late) {
		pause = g->pause;
		if (g->pause < TP_PAUSE_MAX)
			g->pause *= 2;
		g->clean = 0;
	} else if (g->jobs == TP_WINDOW && ++g->clean == TP_CLEAN) {
		if (g->pause > TP_PAUSE_MIN)
			g->pause /= 2;
		g->clean = 0;
	}
	if (late || g->jobs == TP_WINDOW) {
		g->jobs = 0;
		g->own = g->wait = 0;
	}
	return pause;
}
