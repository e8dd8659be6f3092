/*
 * threads.h: the worker threads of a threaded simulation (sim_par.c "Threads").
 * Created once per machine (sim_set_threads), they wait for a job, run it
 * and report; the calling thread runs part 0 of each job itself.
 */
#ifndef GPUSTEP_THREADS_H
#define GPUSTEP_THREADS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* The time-stamp counter where there is one (a few nanoseconds;
 * clock_gettime costs about 0.1 us on this VM's kvm-clock), else
 * CLOCK_MONOTONIC. Only differences are used: the guard's, and the parts'
 * times (sim_par.c), which run from the calling thread's reading to the
 * part's own, on another CPU (synchronized counters where the kernel calls
 * the TSC reliable; an offset would skew the balance, never a result). */
static inline uint64_t threads_clock(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

struct tpool;

/* n >= 2 threads in all (n - 1 new ones); NULL when they cannot be made. */
struct tpool *tpool_new(int n);
void tpool_free(struct tpool *tp);
int tpool_size(const struct tpool *tp);
/* Jobs left that the guard runs all on the caller (0: none). */
unsigned tpool_paused(const struct tpool *tp);
/* fn(arg, 0..n-1) on the n threads, part 0 on the caller; returns when all
 * have finished (their writes are then visible to the caller): true, or
 * false when the guard had the caller run every part itself, one after
 * another (then the parts' times say nothing about the threads). */
bool tpool_run(struct tpool *tp, void (*fn)(void *arg, int part), void *arg);

/*
 * The guard against a busy machine (threads.c): after every job, the time
 * the calling thread ran its own part and the time it then waited for the
 * others (clock ticks). In windows of TP_WINDOW jobs, as soon as, at least
 * TP_MIN_JOBS jobs into one, the wait exceeds the parts' time, the caller
 * is to run every part itself for the next `pause` jobs; `pause` doubles
 * at each such stall (up to TP_PAUSE_MAX) and halves after TP_CLEAN
 * windows in a row without one (down to TP_PAUSE_MIN). A one-off stall
 * costs little, and a core that stays busy, which stalls most windows,
 * keeps the threads paused: a paused job loses only what the threads would
 * have gained, while a threaded job whose worker lost its core can cost a
 * whole time slice. Measured in docs/PERFORMANCE.md "Threads".
 */
#define TP_WINDOW 256
#define TP_MIN_JOBS 128
#define TP_PAUSE_MIN 1024
#define TP_PAUSE_MAX 16384
#define TP_CLEAN 8
struct tp_guard {
	unsigned jobs, pause, clean;
	uint64_t own, wait;
};
void tp_guard_init(struct tp_guard *g);
/* After a job: how many of the next jobs to run all on the caller (0: none). */
unsigned tp_guard_job(struct tp_guard *g, uint64_t own, uint64_t wait);

#endif
