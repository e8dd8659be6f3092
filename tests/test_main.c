/*
 * test_main.c: runner for the tests registered with TEST() (see test.h).
 *
 *   unit_tests [FILTER] [--results FILE] [--list]
 *
 * FILTER runs only tests whose name contains it. --results appends
 * "<layer> <passed> <failed>" to FILE for tests/summary.sh; the layer is
 * "unit" or "ui", from the program name.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int run_one(const struct test_case *t)
{
	current = t;
	current_failed = 0;
	if (setjmp(current_jmp) == 0)
		t->fn();
	current = NULL;
	return current_failed;
}

int main(int argc, char **argv)
{
	const char *filter = NULL, *results = NULL;
	int list = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--results") == 0 && i + 1 < argc)
			results = argv[++i];
		else if (strcmp(argv[i], "--list") == 0)
			list = 1;
		else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: %s [FILTER] [--results FILE] [--list]\n", argv[0]);
			return 2;
		} else
			filter = argv[i];
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

	int passed = 0, failed = 0;
	for (size_t i = 0; i < n; i++) {
		if (filter && !strstr(v[i]->name, filter))
			continue;
		if (list) {
			printf("%s\n", v[i]->name);
			continue;
		}
		if (run_one(v[i]))
			failed++;
		else
			passed++;
	}
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
