/*
 * test_validate.c: `gpustep validate` (cli/validate.c): the microbenchmark
 * measurements follow the parameters they measure, and the presets'
 * calibration stays within tolerance of the published values (the --quick
 * subset: a change that moves a row out names the row).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/validate.h"
#include "load/loader.h"
#include "sim/util.h"
#include "test.h"

static void load(const char *preset, struct sim_cfg *cfg)
{
	char *err = NULL;
	cfg_defaults(cfg);
	if (loader_load_config(preset, cfg, &err) || cfg_validate(cfg, &err))
		test_fail(__FILE__, __LINE__, "%s: %s", preset, err ? err : "?");
	free(err);
}

static const struct vrow *row(const struct vtable *t, const char *metric)
{
	for (unsigned i = 0; i < VM__COUNT; i++)
		if (!strcmp(t->rows[i].metric, metric))
			return &t->rows[i];
	return NULL;
}

/* Every latency row with a published value is within 15 %, by name. */
static void check_calibrated(const char *preset)
{
	struct sim_cfg cfg;
	load(preset, &cfg);
	struct vtable *t = calloc(1, sizeof(*t));
	char *err = NULL;
	if (validate_machine(&cfg, preset, true, t, &err))
		test_fail(__FILE__, __LINE__, "%s: %s", preset, err ? err : "?");
	unsigned checked = 0;
	for (unsigned i = 0; i < VM__COUNT; i++) {
		const struct vrow *r = &t->rows[i];
		if (r->is_bw || !r->has_published)
			continue;
		checked++;
		if (!r->measured || validate_error_pct(r) > 15.0)
			test_fail(__FILE__, __LINE__, "%s %s: gpustep %.1f, published %.1f (%s): out of the 15 %% tolerance",
				  preset, r->metric, r->gpustep, r->published, r->source);
	}
	CHECK(checked >= 1);
	free(err);
	free(t);
}

TEST(validate_quick_qv100_within_tolerance)
{
	check_calibrated("qv100");
}

TEST(validate_quick_titanv_within_tolerance)
{
	check_calibrated("titanv");
}

/* The measurements follow the parameters: L1 and shared-memory latencies
 * move one for one with their hit latencies, a 32-way conflict costs 31
 * more bank cycles than no conflict, and the chase sees the L2 beyond the L1. */
TEST(validate_measurements_follow_parameters)
{
	struct sim_cfg cfg;
	load("gtx480", &cfg);
	struct vtable *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char *err = NULL;
	REQUIRE(validate_machine(&cfg, "gtx480", true, a, &err) == 0);
	cfg.l1.hit_latency += 10;
	cfg.core.shmem_latency += 5;
	REQUIRE(validate_machine(&cfg, "gtx480", true, b, &err) == 0);
	CHECK(fabs(row(b, "l1_hit_latency")->gpustep - row(a, "l1_hit_latency")->gpustep - 10) < 0.01);
	CHECK(fabs(row(b, "smem_latency")->gpustep - row(a, "smem_latency")->gpustep - 5) < 0.01);
	CHECK(fabs(row(a, "smem_conflict_latency_32way")->gpustep - row(a, "smem_latency")->gpustep - 31) < 0.01);
	CHECK(row(a, "l2_hit_latency")->gpustep > row(a, "l1_hit_latency")->gpustep + cfg.l2.hit_latency / 2);
	CHECK(row(a, "dram_latency")->gpustep > row(a, "l2_hit_latency")->gpustep);
	CHECK(!row(a, "dram_bandwidth")->measured); /* --quick: latencies only */
	free(err);
	free(a);
	free(b);
}

/* A preset moved out of tolerance is caught, naming the row. */
TEST(validate_detects_a_moved_row)
{
	struct sim_cfg cfg;
	load("qv100", &cfg);
	cfg.l1.hit_latency += 8;
	struct vtable *t = calloc(1, sizeof(*t));
	char *err = NULL;
	REQUIRE(validate_machine(&cfg, "qv100", true, t, &err) == 0);
	const struct vrow *r = row(t, "l1_hit_latency");
	CHECK(r->has_published && r->measured);
	CHECK(validate_error_pct(r) > 15.0);
	CHECK(validate_error_pct(row(t, "l2_hit_latency")) <= 15.0);
	free(err);
	free(t);
}

/* validate_main on string literals (it takes char **, as main does). */
static int vmain(int n, const char *const *args)
{
	char *argv[16];
	for (int i = 0; i < n; i++)
		argv[i] = xstrdup(args[i]);
	argv[n] = NULL;
	int rc = validate_main(n, argv);
	for (int i = 0; i < n; i++)
		free(argv[i]);
	return rc;
}

static bool file_has(const char *path, const char *needle)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char buf[8192];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return needle ? strstr(buf, needle) != NULL : true;
}

/* --plot into a directory whose name holds quotes, a space and a backquoted
 * command: the data, the script with the names single-quoted for gnuplot (it
 * runs backquotes in double quotes), the command never run, and (gnuplot
 * installed) the pictures; --json carries the staircase. */
TEST(validate_plot_quotes_paths)
{
	char base[] = "/tmp/gpustep-vt.XXXXXX";
	REQUIRE(mkdtemp(base) != NULL);
	char dir[128], json[160], dat[200], gp[200], png[200], want[200];
	snprintf(dir, sizeof dir, "%s/a 'b\"`touch gpustep-vt-pwned`", base);
	remove("gpustep-vt-pwned");
	snprintf(json, sizeof json, "%s/v.json", base);
	snprintf(dat, sizeof dat, "%s/staircase_teaching.dat", dir);
	snprintf(gp, sizeof gp, "%s/staircase_teaching.gp", dir);
	snprintf(png, sizeof png, "%s/staircase_teaching.png", dir);
	const char *argv[] = {"validate", "--quick", "--plot", dir, "--json", json, "teaching"};
	int rc = vmain(7, argv);
	CHECK(file_has(dat, "# teaching"));
	snprintf(want, sizeof want, "set output '%s/a ''b\"`touch gpustep-vt-pwned`/staircase_teaching.png'", base);
	CHECK(file_has(gp, want));
	bool gnuplot = system("command -v gnuplot >/dev/null 2>&1") == 0;
	CHECK_EQ(rc, gnuplot ? 0 : 1);
	CHECK(access("gpustep-vt-pwned", F_OK) != 0); /* the backquotes ran nothing */
	if (gnuplot) {
		CHECK(file_has(png, NULL));
		CHECK(file_has(json, "\"staircase\""));
		CHECK(file_has(json, "\"metric\":\t\"l1_hit_latency\""));
	}
	char *rm = xasprintf("rm -rf '%s'", base);
	CHECK_EQ(system(rm), 0);
	free(rm);
}

TEST(validate_bad_options)
{
	const char *a1[] = {"validate", "--tolerance", "ten"};
	CHECK_EQ(vmain(3, a1), 2);
	const char *a2[] = {"validate", "--quick", "no_such_machine"};
	CHECK_EQ(vmain(3, a2), 2);
}
