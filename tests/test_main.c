/*
 * test_main.c: runner for the tests registered with TEST() (see test.h).
 *
 *   unit_tests [FILTER] [--results FILE] [--list] [--timeout S] [--times]
 *
 * FILTER runs only tests whose name contains it. --results appends
 * "<layer> <passed> <failed>" to FILE for tests/summary.sh; the layer is
 * "unit" or "ui", from the program name.
 *
 * Every test has a time limit of wall time: S seconds (--timeout, else
 * $GPUSTEP_TEST_TIMEOUT, else TEST_TIMEOUT_DEFAULT; 0 = none), or its own
 * longer limit from slow_tests[] (scaled by S / the default when S is
 * given). A test over its limit prints "TIMEOUT <name>", counts as failed,
 * and the runner goes on with the next test: the hung one is abandoned by
 * a longjmp out of the timer's signal (its memory leaks; if it hung holding
 * a lock of the C library the runner may stop there, but the line was
 * printed first). After MAX_TIMEOUTS time-outs (1; more with
 * $GPUSTEP_TEST_MAX_TIMEOUTS) the remaining tests are not run and count as
 * failed, so a livelocked engine costs one limit, not one per test. --times prints each test's duration
 * ("TIME <ms> <name>") to calibrate the limits. The timer is a POSIX timer
 * on CLOCK_MONOTONIC signalling SIGRTMIN: tests may use SIGALRM and
 * setitimer themselves (tests/ui/test_limits.c does).
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

/* Under AddressSanitizer, memory the tests leaked counts as one failure
 * (the leak report comes at exit, after the results were written, so it
 * would otherwise go unnoticed by tests/summary.sh). */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LEAKS_FOUND() __lsan_do_recoverable_leak_check()
#else
#define LEAKS_FOUND() 0
#endif

static struct test_case *tests;
static const struct test_case *current;
static int current_failed;
static jmp_buf current_jmp;

/* Apart from slow_tests[], the slowest test took 8 s in a full run on the
 * 2-core build machine under a load of 9 (docs/TESTING.md, "Time limits");
 * 60 s is over 7x that, and over 10x on an idle machine. */
#define TEST_TIMEOUT_DEFAULT 60
/* After this many time-outs ($GPUSTEP_TEST_MAX_TIMEOUTS) the rest is not run. */
#define MAX_TIMEOUTS 1
/* Tests that take long by design, with their limits: 6x their time in a
 * full run on the build machine under a load of 9 (--times, 2026-12-06;
 * docs/TESTING.md; about 20x on an idle machine), and 3.5x the 257 s the
 * last took alone then. A livelocked engine costs the first hung test's
 * limit, so these are kept no longer than that. */
static const struct {
	const char *name;
	unsigned seconds;
} slow_tests[] = {
	{"fastpath_same_results_as_without", 300},
	{"fastpath_fetch_mask_same_results_as_without", 200},
	{"behaviour_every_kernel_finishes_on_every_preset", 200},
	{"coh_values_every_kernel_each_protocol_no_violation_same_stats", 900},
};
static sigjmp_buf timeout_jmp;
static volatile sig_atomic_t timing_out;
static timer_t test_timer;
static bool timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	if (timing_out)
		siglongjmp(timeout_jmp, 1);
}

void test_register(struct test_case *t)
{
	t->next = tests;
	tests = t;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stdout, "%s:%d: %s: ", file, line, current ? current->name : "?");
	vfprintf(stdout, fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
	va_end(ap);
	current_failed++;
}

void test_abort(void) { longjmp(current_jmp, 1); }

bool test_str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

bool test_contains(const char *hay, const char *needle) { return hay && needle && strstr(hay, needle); }

static int cmp_case(const void *a, const void *b)
{
	const struct test_case *x = *(const struct test_case *const *)a, *y = *(const struct test_case *const *)b;
	int c = strcmp(x->file, y->file);
	return c ? c : x->line - y->line;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int run_one(const struct test_case *t, unsigned timeout, bool times)
{
	current = t;
	current_failed = 0;
	timed_out = false;
	double t0 = now_ms();
	struct itimerspec on = {.it_value = {.tv_sec = (time_t)timeout}}, off = {{0, 0}, {0, 0}};
	if (sigsetjmp(timeout_jmp, 1) == 0) {
		timing_out = 1;
		timer_settime(test_timer, 0, &on, NULL);
		if (setjmp(current_jmp) == 0)
			t->fn();
		timer_settime(test_timer, 0, &off, NULL);
		timing_out = 0;
	} else {
		timing_out = 0;
		printf("TIMEOUT %s (over %u s)\n", t->name, timeout);
		timed_out = true;
		fflush(stdout);
		current_failed++;
	}
	if (times)
		printf("TIME %.0f %s\n", now_ms() - t0, t->name);
	current = NULL;
	return current_failed;
}

int main(int argc, char **argv)
{
	const char *filter = NULL, *results = NULL;
	int list = 0;
	bool times = false;
	const char *tv = getenv("GPUSTEP_TEST_TIMEOUT");
	long timeout = tv && *tv ? strtol(tv, NULL, 10) : TEST_TIMEOUT_DEFAULT;
	const char *mv = getenv("GPUSTEP_TEST_MAX_TIMEOUTS");
	long max_timeouts = mv && *mv ? strtol(mv, NULL, 10) : MAX_TIMEOUTS;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--results") == 0 && i + 1 < argc)
			results = argv[++i];
		else if (strcmp(argv[i], "--list") == 0)
			list = 1;
		else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
			timeout = strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--times") == 0)
			times = true;
		else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: %s [FILTER] [--results FILE] [--list] [--timeout S] [--times]\n", argv[0]);
			return 2;
		} else
			filter = argv[i];
	}
	if (timeout < 0 || timeout > 86400) {
		fprintf(stderr, "%s: the time limit must be 0 (none) to 86400 seconds, got %ld\n", argv[0], timeout);
		return 2;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGRTMIN, &sa, NULL);
	struct sigevent sev;
	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGRTMIN;
	if (timer_create(CLOCK_MONOTONIC, &sev, &test_timer) != 0) {
		perror("timer_create");
		return 2;
	}
	size_t n = 0;
	for (struct test_case *t = tests; t; t = t->next)
		n++;
	struct test_case **v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return 1;
	n = 0;
	for (struct test_case *t = tests; t; t = t->next)
		v[n++] = t;
	qsort(v, n, sizeof(*v), cmp_case);

	int passed = 0, failed = 0, timeouts = 0, skipped = 0;
	for (size_t i = 0; i < n; i++) {
		if (filter && !strstr(v[i]->name, filter))
			continue;
		if (list) {
			printf("%s\n", v[i]->name);
			continue;
		}
		if (max_timeouts > 0 && timeouts >= max_timeouts) {
			skipped++;
			failed++;
			continue;
		}
		long lim = timeout;
		for (size_t k = 0; k < sizeof slow_tests / sizeof slow_tests[0]; k++)
			if (strcmp(slow_tests[k].name, v[i]->name) == 0)
				lim = timeout * (long)slow_tests[k].seconds / TEST_TIMEOUT_DEFAULT;
		if (timeout && !lim)
			lim = 1;
		int f = run_one(v[i], (unsigned)lim, times);
		if (f)
			failed++;
		else
			passed++;
		timeouts += f && timed_out;
	}
	if (skipped)
		printf("TIMEOUT %d test%s timed out: the %d after %s not run (counted as failed)\n", timeouts,
		       timeouts == 1 ? "" : "s", skipped, timeouts == 1 ? "it were" : "them were");
	free(v);
	if (list)
		return 0;
	if (LEAKS_FOUND()) {
		printf("FAIL memory leaked: LeakSanitizer's report is above\n");
		fflush(stdout);
		failed++;
	}
	if (results) {
		const char *base = strrchr(argv[0], '/');
		base = base ? base + 1 : argv[0];
		const char *layer = strstr(base, "ui") == base ? "ui" : "unit";
		FILE *f = fopen(results, "a");
		if (f) {
			fprintf(f, "%s %d %d\n", layer, passed, failed);
			fclose(f);
		} else {
			perror(results);
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout); /* LeakSanitizer's exit-time check ends the process with _exit */
	return failed ? 1 : 0;
}
