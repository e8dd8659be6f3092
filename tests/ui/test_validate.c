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

#include "cli/validate.h"
#include "load/loader.h"
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
