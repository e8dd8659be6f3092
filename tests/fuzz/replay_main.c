/*
 * replay_main.c: the fuzz corpus as a regression layer (make test).
 *
 *   fuzz_replay [--results FILE] [--timeout S] DIR...
 *
 * DIR is tests/fuzz/<target>/; every file in it is fed to that target
 * (fuzz.h) in a child process, so a crash, a sanitizer report, a leak
 * (LeakSanitizer builds) or a run longer than S seconds (default 20) fails
 * that input and the others still run. An input over the limit prints
 * "TIMEOUT fuzz <path>"; after the first (more with
 * $GPUSTEP_TEST_MAX_TIMEOUTS) the remaining inputs are not run and count
 * as failed, so a hanging parser costs one limit, not one per input.
 * Appends "fuzz <passed> <failed>" to FILE. Built with the normal compiler: clang is needed only for make fuzz.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/util.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LEAKS_FOUND() __lsan_do_recoverable_leak_check()
#else
#define LEAKS_FOUND() 0
#endif

#define T(n) int fuzz_##n(const uint8_t *data, size_t size);
#define TARGETS X(config) X(override) X(kernel) X(traceg) X(traceg_xz) X(kernellist) X(trc) X(dram) X(session) X(cmdline) X(gpgpusim) X(lesson) X(state) X(ini) X(sweep) X(statsdiff)
#define X T
TARGETS
#undef X

static const struct {
	const char *name;
	int (*fn)(const uint8_t *, size_t);
} targets[] = {
#define X(n) {#n, fuzz_##n},
	TARGETS
#undef X
};

/* The current directory's file names: file scope, so that LeakSanitizer in
 * a child (which inherits them) sees them reachable. */
static char **names;
static size_t nnames;

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* 0 if the input ran clean, else prints why not and returns 1 (2: timed out). */
static int replay(int (*fn)(const uint8_t *, size_t), const char *path, unsigned timeout)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		alarm(timeout);
		size_t len;
		FILE *f = fopen(path, "rb");
		if (!f)
			_exit(3);
		char *buf = NULL;
		size_t cap = 0;
		len = 0;
		for (;;) {
			if (len == cap)
				buf = xrealloc(buf, cap = cap ? 2 * cap : 4096);
			size_t n = fread(buf + len, 1, cap - len, f);
			if (n == 0)
				break;
			len += n;
		}
		fclose(f);
		fn((const uint8_t *)buf, len);
		free(buf);
		_exit(LEAKS_FOUND() ? 4 : 0); /* no exit-time leak check: it would report again */
	}
	int st;
	if (waitpid(pid, &st, 0) < 0) {
		perror("waitpid");
		return 1;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
		printf("TIMEOUT fuzz %s (over %u s)\n", path, timeout);
		return 2;
	}
	if (WIFSIGNALED(st))
		printf("FAIL fuzz %s: %s\n", path, strsignal(WTERMSIG(st)));
	else
		printf("FAIL fuzz %s: exit %d%s\n", path, WEXITSTATUS(st),
		       WEXITSTATUS(st) == 4 ? " (memory leaked)" : WEXITSTATUS(st) == 3 ? " (unreadable)" : "");
	return 1;
}

int main(int argc, char **argv)
{
	const char *results = NULL;
	unsigned timeout = 20;
	int passed = 0, failed = 0, timeouts = 0, skipped = 0;
	const char *mv = getenv("GPUSTEP_TEST_MAX_TIMEOUTS");
	int max_timeouts = mv && *mv ? atoi(mv) : 1;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--results") == 0 && i + 1 < argc) {
			results = argv[++i];
			continue;
		}
		if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) {
			timeout = (unsigned)atoi(argv[++i]);
			continue;
		}
		char dir[4096];
		snprintf(dir, sizeof dir, "%s", argv[i]);
		size_t dl = strlen(dir);
		while (dl > 1 && dir[dl - 1] == '/')
			dir[--dl] = 0;
		const char *base = strrchr(dir, '/');
		base = base ? base + 1 : dir;
		int (*fn)(const uint8_t *, size_t) = NULL;
		for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
			if (strcmp(base, targets[t].name) == 0)
				fn = targets[t].fn;
		if (!fn) {
			printf("FAIL fuzz %s: no target named %s\n", dir, base);
			failed++;
			continue;
		}
		DIR *d = opendir(dir);
		if (!d) {
			perror(dir);
			failed++;
			continue;
		}
		size_t n = 0;
		names = NULL;
		for (struct dirent *e; (e = readdir(d)) != NULL;) {
			if (e->d_name[0] == '.')
				continue;
			names = xrealloc(names, (n + 1) * sizeof *names);
			names[n++] = xstrdup(e->d_name);
			nnames = n;
		}
		closedir(d);
		qsort(names, n, sizeof *names, cmp);
		int tp = 0, tf = 0;
		for (size_t k = 0; k < n; k++) {
			char path[8192];
			snprintf(path, sizeof path, "%s/%s", dir, names[k]);
			if (max_timeouts > 0 && timeouts >= max_timeouts) {
				skipped++;
				tf++;
				continue;
			}
			int rc = replay(fn, path, timeout);
			timeouts += rc == 2;
			if (rc)
				tf++;
			else
				tp++;
		}
		for (size_t k = 0; k < n; k++)
			free(names[k]);
		free(names);
		names = NULL;
		nnames = 0;
		printf("fuzz %-10s %d inputs, %d failed\n", base, tp + tf, tf);
		passed += tp;
		failed += tf;
	}
	if (skipped)
		printf("TIMEOUT fuzz: the %d inputs after the time-out were not run (counted as failed)\n", skipped);
	if (results) {
		FILE *f = fopen(results, "a");
		if (f) {
			fprintf(f, "fuzz %d %d\n", passed, failed);
			fclose(f);
		} else
			perror(results);
	}
	printf("fuzz: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
