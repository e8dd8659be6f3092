/*
 * test_tp_guard.c: the threads' guard against a busy machine (threads.h
 * tp_guard), fed job times instead of measured ones: a machine whose
 * workers keep up never pauses; a stall pauses after TP_MIN_JOBS jobs of a
 * window and not before; the pause doubles at each stall up to
 * TP_PAUSE_MAX and halves after TP_CLEAN stall-free windows in a row.
 */
#include "machine/threads.h"
#include "test.h"

/* n jobs of `own` ticks each, waiting `wait` ticks after each; the pauses
 * asked for, summed, and the last nonzero one in *last. */
static unsigned long run(struct tp_guard *g, int n, uint64_t own, uint64_t wait, unsigned *last)
{
	unsigned long sum = 0;
	for (int i = 0; i < n; i++) {
		unsigned p = tp_guard_job(g, own, wait);
		sum += p;
		if (p && last)
			*last = p;
	}
	return sum;
}

TEST(tp_guard_workers_keeping_up_never_pause)
{
	struct tp_guard g;
	tp_guard_init(&g);
	/* waits as long as the part, never longer: not late */
	CHECK_EQ(run(&g, 100000, 1000, 1000, NULL), 0ul);
	/* one long wait inside a window, the window's parts longer still */
	tp_guard_init(&g);
	CHECK_EQ(run(&g, 200, 1000, 0, NULL), 0ul);
	CHECK_EQ(tp_guard_job(&g, 1000, 150000), 0u);
	CHECK_EQ(run(&g, 10000, 1000, 100, NULL), 0ul);
}

TEST(tp_guard_stall_pauses_from_min_jobs)
{
	struct tp_guard g;
	tp_guard_init(&g);
	/* waiting twice the part from the first job: not before TP_MIN_JOBS */
	for (int i = 1; i < TP_MIN_JOBS; i++)
		CHECK_EQ(tp_guard_job(&g, 1000, 2000), 0u);
	CHECK_EQ(tp_guard_job(&g, 1000, 2000), (unsigned)TP_PAUSE_MIN);
	/* a new window starts after the pause: TP_MIN_JOBS again */
	for (int i = 1; i < TP_MIN_JOBS; i++)
		CHECK_EQ(tp_guard_job(&g, 1000, 2000), 0u);
	CHECK_EQ(tp_guard_job(&g, 1000, 2000), (unsigned)TP_PAUSE_MIN * 2);
}

TEST(tp_guard_pause_doubles_then_halves)
{
	struct tp_guard g;
	tp_guard_init(&g);
	unsigned last = 0;
	/* a busy machine: every window stalls; the pause grows to its cap */
	int stalls = 0;
	for (unsigned want = TP_PAUSE_MIN; stalls < 12; stalls++) {
		last = 0;
		run(&g, TP_MIN_JOBS, 1000, 3000, &last);
		CHECK_EQ(last, want);
		if (want < TP_PAUSE_MAX)
			want *= 2;
	}
	CHECK_EQ(last, (unsigned)TP_PAUSE_MAX);
	/* TP_CLEAN - 1 clean windows change nothing, the TP_CLEAN-th halves */
	CHECK_EQ(run(&g, TP_WINDOW * (TP_CLEAN - 1), 1000, 10, NULL), 0ul);
	last = 0;
	run(&g, TP_MIN_JOBS, 1000, 3000, &last);
	CHECK_EQ(last, (unsigned)TP_PAUSE_MAX);
	CHECK_EQ(run(&g, TP_WINDOW * TP_CLEAN, 1000, 10, NULL), 0ul);
	last = 0;
	run(&g, TP_MIN_JOBS, 1000, 3000, &last);
	CHECK_EQ(last, (unsigned)TP_PAUSE_MAX / 2); /* halved; this stall doubles it again */
	/* a long quiet stretch brings it down to the minimum, not below */
	CHECK_EQ(run(&g, TP_WINDOW * TP_CLEAN * 20, 1000, 10, NULL), 0ul);
	last = 0;
	run(&g, TP_MIN_JOBS, 1000, 3000, &last);
	CHECK_EQ(last, (unsigned)TP_PAUSE_MIN);
}
