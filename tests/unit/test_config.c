/* test_config.c: the parameter table, defaults, parsing errors and validation. */
#include <stdio.h>
#include <stdlib.h>

#include "sim/config.h"
#include "test.h"

/* Sets path=text expecting failure; returns the message (caller frees). */
static char *set_fails(struct sim_cfg *c, const char *path, const char *text)
{
	char *err = NULL;
	int rc = cfg_set_value(c, path, text, &err);
	CHECK_EQ(rc, -1);
	return err;
}

TEST(config_table_well_formed)
{
	size_t n = cfg_param_count();
	CHECK(n > 10);
	for (size_t i = 0; i < n; i++) {
		const struct cfg_param *p = cfg_param_at(i);
		REQUIRE(p && p->path && p->def);
		CHECK(p->desc && p->desc[0]);
		CHECK(cfg_find(p->path) == p); /* unique */
		if (p->type == CFG_ENUM)
			CHECK(p->enums && p->enums[0]);
		if (p->min != 0 || p->max != 0)
			CHECK(p->min <= p->max);
	}
	CHECK(cfg_param_at(n) == NULL);
	CHECK(cfg_find("name") && cfg_find("seed") && cfg_find("description"));
}

TEST(config_defaults_validate)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	CHECK_EQ(cfg_validate(&c, &err), 0);
	if (err)
		test_fail(__FILE__, __LINE__, "default config invalid: %s", err);
	free(err);
	CHECK_STR(c.name, "teaching");
	/* Defaults print back as they parse. */
	for (size_t i = 0; i < cfg_param_count(); i++) {
		const struct cfg_param *p = cfg_param_at(i);
		char buf[256];
		cfg_format(&c, p, buf, sizeof buf);
		struct sim_cfg d = c;
		err = NULL;
		CHECK_EQ(cfg_set_value(&d, p->path, buf, &err), 0);
		free(err);
		CHECK(memcmp(&c, &d, sizeof c) == 0);
	}
	struct strbuf sb;
	sb_init(&sb);
	cfg_print_derived(&c, &sb);
	CHECK(sb.len > 0);
	sb_fini(&sb);
}

TEST(config_set_errors_name_key_and_rule)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *e = set_fails(&c, "l2.sets", "48");
	CHECK_STR(e, "l2.sets: must be a power of two, got 48");
	free(e);
	e = set_fails(&c, "l1.ways", "0");
	char want[128];
	snprintf(want, sizeof want, "l1.ways: must be between 1 and %.0f, got 0", cfg_find("l1.ways")->max);
	CHECK_STR(e, want);
	free(e);
	e = set_fails(&c, "core.scheduler", "gtx");
	CHECK_STR(e, "core.scheduler: unknown value 'gtx' (one of lrr, gto, two_level, vws, rmws, tbas, ccws)");
	free(e);
	e = set_fails(&c, "l1.sets", "abc");
	CHECK_STR(e, "l1.sets: expected an integer, got 'abc'");
	free(e);
	e = set_fails(&c, "l1.sets", "12x");
	CHECK_CONTAINS(e, "expected an integer");
	free(e);
	e = set_fails(&c, "l1.sets", "99999999999999999999999");
	CHECK_CONTAINS(e, "l1.sets:");
	free(e);
	e = set_fails(&c, "l1.enabled", "maybe");
	CHECK_STR(e, "l1.enabled: expected true or false, got 'maybe'");
	free(e);
	e = set_fails(&c, "seed", "-1");
	CHECK_CONTAINS(e, "seed:");
	free(e);
	char longs[300];
	memset(longs, 'x', sizeof longs - 1);
	longs[sizeof longs - 1] = 0;
	e = set_fails(&c, "name", longs);
	CHECK_CONTAINS(e, "name: string longer than");
	free(e);
}

TEST(config_set_accepts_forms)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	CHECK_EQ(cfg_set_value(&c, "l2.sets", "0x100", &err), 0);
	CHECK_EQ(c.l2.sets, 256);
	CHECK_EQ(cfg_set_value(&c, "core.scheduler", "LRR", &err), 0);
	CHECK_EQ(c.core.scheduler, SCHED_LRR);
	CHECK_EQ(cfg_set_value(&c, "l1.enabled", "false", &err), 0);
	CHECK(!c.l1.enabled);
	CHECK_EQ(cfg_set_value(&c, "seed", "18446744073709551615", &err), 0);
	CHECK(c.seed == UINT64_MAX);
	CHECK(err == NULL);
	char buf[64];
	cfg_format(&c, cfg_find("core.scheduler"), buf, sizeof buf);
	CHECK_STR(buf, "lrr");
}

TEST(config_unknown_key_suggests)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *e = set_fails(&c, "l1.wyas", "4");
	CHECK_STR(e, "l1.wyas: unknown key (did you mean l1.ways?)");
	free(e);
	e = set_fails(&c, "dram.timing.trcd", "4");
	CHECK_STR(e, "dram.timing.trcd: unknown key (did you mean dram.timing.tRCD?)");
	free(e);
	e = set_fails(&c, "completely.unrelated.thing", "4");
	CHECK_CONTAINS(e, "unknown key");
	CHECK(!strstr(e, "did you mean"));
	free(e);
	CHECK_STR(cfg_suggest("l2.set"), "l2.sets");
}

TEST(config_validate_catches_direct_writes)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	c.l2.sets = 48; /* written around cfg_set_value */
	char *err = NULL;
	CHECK_EQ(cfg_validate(&c, &err), -1);
	CHECK_STR(err, "l2.sets: must be a power of two, got 48");
	free(err);
	cfg_defaults(&c);
	c.core.scheduler = 99;
	err = NULL;
	CHECK_EQ(cfg_validate(&c, &err), -1);
	CHECK_CONTAINS(err, "core.scheduler");
	free(err);
}
