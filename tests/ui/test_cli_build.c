/*
 * test_cli_build.c: what the command line builds. A kernel's -p goes into
 * its source before the machine is built, so `-p` costs one build, not the
 * default machine and then the one asked for (cli.c open_session), and the
 * machine built is the one with the parameters.
 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "session/session.h"
#include "sim/util.h"
#include "test.h"
#include "vtest.h"

static int run_main(int n, const char *const *args)
{
	char *argv[16];
	for (int i = 0; i < n; i++)
		argv[i] = xstrdup(args[i]);
	argv[n] = NULL;
	/* Its summary and messages are not the test's output. */
	fflush(stdout);
	fflush(stderr);
	int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
	REQUIRE(out >= 0 && err >= 0 && null >= 0);
	dup2(null, STDOUT_FILENO);
	dup2(null, STDERR_FILENO);
	/* gpustep_main sets the process's starting snapshot budget and memory
	 * limit (a plain --run turns snapshots off): the later tests in this
	 * process start from the defaults. */
	size_t budget = session_initial_snapshot_budget();
	int rc = gpustep_main(n, argv);
	session_set_initial_snapshot_budget(budget);
	session_set_initial_max_memory(0);
	fflush(stdout);
	fflush(stderr);
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	close(out);
	close(err);
	close(null);
	for (int i = 0; i < n; i++)
		free(argv[i]);
	return rc;
}

/* sim.thread_insts of `gpustep ARGS --stats PATH` (-1: none). */
static double thread_insts(int n, const char *const *args, const char *path, int *rc)
{
	const char *a[16];
	memcpy(a, args, (size_t)n * sizeof *a);
	a[n] = "--stats";
	a[n + 1] = path;
	*rc = run_main(n + 2, a);
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	char buf[1 << 16];
	size_t len = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[len] = 0;
	cJSON *j = cJSON_Parse(buf);
	const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "stats"), "sim.thread_insts");
	double x = cJSON_IsNumber(v) ? v->valuedouble : -1;
	cJSON_Delete(j);
	return x;
}

TEST(cli_kernel_params_build_the_machine_once)
{
	char *dir = vt_tmpdir("clibuild"), *p1 = xasprintf("%s/a.json", dir), *p2 = xasprintf("%s/b.json", dir);
	const char *with[] = {"gpustep", "-w", "gather_random", "-p", "n=512", "-p", "m=4096", "--run"};
	int rc = -1;
	double a = thread_insts(8, with, p1, &rc);
	CHECK_EQ(rc, 0);
	CHECK_EQ(cli_last_builds(), 1);
	/* The machine run is the one with the parameters: a thread per element
	 * (n), the same instructions each, against the default n = 4096. */
	const char *without[] = {"gpustep", "-w", "gather_random", "--run"};
	double b = thread_insts(4, without, p2, &rc);
	CHECK_EQ(rc, 0);
	CHECK_EQ(cli_last_builds(), 1);
	CHECK(a > 0 && b > 0);
	CHECK(a * 4096 == b * 512);
	/* --batch keeps the snapshots on: still one build. */
	const char *batch[] = {"gpustep", "-w", "vecadd", "-p", "n=4096", "--batch", "/dev/null"};
	CHECK_EQ(run_main(7, batch), 0);
	CHECK_EQ(cli_last_builds(), 1);
	/* A bad parameter is a usage error naming it, with no machine left. */
	const char *bad[] = {"gpustep", "-w", "vecadd", "-p", "nope=3", "--run"};
	CHECK_EQ(run_main(6, bad), 2);
	CHECK_EQ(cli_last_builds(), 0);
	free(p1);
	free(p2);
	free(dir);
}
