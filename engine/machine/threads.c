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
 * "Late" is measured in time, not in jobs: over a window of TP_WINDOW
 * jobs, the caller's time waiting for the others against the time it
 * spent on its own part. A worker that loses its core for a few
 * milliseconds now and then makes one job in hundreds late, but that one
 * wait can cost more than the window's parts; counting late jobs missed it.
 */
#include "threads.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "sim/util.h"

struct tpool {
	int n;
	pthread_t *th;
	atomic_uint gen;   /* job number; a change starts the workers */
	atomic_int left;   /* parts of the current job still running */
	atomic_int stop;
	atomic_int sleepers;  /* workers blocked on cv */
	atomic_int waiting;   /* the caller blocked on done */
	pthread_mutex_t mu;
	pthread_cond_t cv, done;
	void (*fn)(void *arg, int part); /* written before gen is bumped */
	void *arg;
	struct targ {
		struct tpool *tp;
		int part;
	} *args;
	/* Oversubscription (the caller's own): over the last TP_WINDOW jobs,
	 * the time the caller ran its own part and the time it then waited
	 * for the others (clock ticks); when the wait exceeds the part times
	 * TP_LATE / 16, the caller runs every part itself for TP_PAUSE jobs. */
	unsigned jobs, paused;
	uint64_t own, wait;
};

/* About 20-50 us of pause instructions: a cycle's phase is shorter, so a
 * worker that spins this long without a job blocks instead. */
#define SPIN 2000
#define TP_WINDOW 256
#define TP_LATE 16
#define TP_PAUSE 4096

/* The time-stamp counter where there is one (a few ns), else the monotonic
 * clock; only differences are used. */
static inline uint64_t tp_clock(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

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
	struct tpool *tp = xcalloc(1, sizeof *tp);
	tp->n = n;
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

void tpool_run(struct tpool *tp, void (*fn)(void *arg, int part), void *arg)
{
	if (tp->paused) { /* the machine has no core to spare now: every part here */
		tp->paused--;
		for (int i = 0; i < tp->n; i++)
			fn(arg, i);
		return;
	}
	tp->fn = fn;
	tp->arg = arg;
	atomic_store(&tp->left, tp->n - 1);
	uint64_t t0 = tp_clock();
	announce(tp);
	fn(arg, 0);
	uint64_t t1 = tp_clock();
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
	tp->own += t1 - t0;
	tp->wait += tp_clock() - t1;
	if (++tp->jobs == TP_WINDOW) {
		if (tp->wait * 16 > tp->own * TP_LATE)
			tp->paused = TP_PAUSE;
		tp->jobs = 0;
		tp->own = tp->wait = 0;
	}
}
