/*
 * threads.h: the worker threads of a threaded simulation (sim_par.c "Threads").
 * Created once per machine (sim_set_threads), they wait for a job, run it
 * and report; the calling thread runs part 0 of each job itself.
 */
#ifndef GPUSTEP_THREADS_H
#define GPUSTEP_THREADS_H

struct tpool;

/* n >= 2 threads in all (n - 1 new ones); NULL when they cannot be made. */
struct tpool *tpool_new(int n);
void tpool_free(struct tpool *tp);
int tpool_size(const struct tpool *tp);
/* fn(arg, 0..n-1) on the n threads, part 0 on the caller; returns when all
 * have finished (their writes are then visible to the caller). */
void tpool_run(struct tpool *tp, void (*fn)(void *arg, int part), void *arg);

#endif
