/*
 * core_pingpong.c: how long one cache line takes to go from one CPU to
 * another and back on this machine: two threads pinned to CPUs A and B
 * hand a counter back and forth 200,000 times. A threaded simulation
 * (--threads, docs/PERFORMANCE.md "Threads") moves lines between the cores
 * every cycle, so this bounds what it can gain.
 *
 *   cc -O2 -pthread tools/core_pingpong.c -o /tmp/core_pingpong
 *   /tmp/core_pingpong [A B]        (default CPUs 0 and 1)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROUNDS 200000

static _Alignas(64) atomic_long turn;

static void pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof set, &set))
		fprintf(stderr, "core_pingpong: cannot pin to CPU %d (measuring unpinned)\n", cpu);
}

static void *other(void *arg)
{
	pin(*(int *)arg);
	for (long i = 0; i < ROUNDS; i++) {
		while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 1)
			;
		atomic_store_explicit(&turn, 2 * i + 2, memory_order_release);
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	int a = argc > 2 ? atoi(argv[1]) : 0, b = argc > 2 ? atoi(argv[2]) : 1;
	pthread_t t;
	if (pthread_create(&t, NULL, other, &b)) {
		fprintf(stderr, "core_pingpong: no second thread\n");
		return 1;
	}
	pin(a);
	double t0 = now_s();
	for (long i = 0; i < ROUNDS; i++) {
		atomic_store_explicit(&turn, 2 * i + 1, memory_order_release);
		while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 2)
			;
	}
	double t1 = now_s();
	pthread_join(t, NULL);
	printf("CPU %d <-> CPU %d: %.0f ns a round trip (two line transfers), %d rounds\n", a, b,
	       (t1 - t0) / ROUNDS * 1e9, ROUNDS);
	return 0;
}
