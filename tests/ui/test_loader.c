/* test_loader.c: JSON configs (nested/dotted keys, extends, errors) and kernels. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "load/embedded.h"
#include "load/loader.h"
#include "test.h"

static char tmpdir[64];

static const char *tmp_path(const char *name)
{
	static char buf[256];
	if (!tmpdir[0]) {
		snprintf(tmpdir, sizeof tmpdir, "/tmp/gpustep-test-XXXXXX");
		if (!mkdtemp(tmpdir))
			test_abort();
	}
	snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
	return buf;
}

static const char *write_tmp(const char *name, const char *text)
{
	const char *p = tmp_path(name);
	FILE *f = fopen(p, "w");
	REQUIRE(f != NULL);
	fputs(text, f);
	fclose(f);
	return p;
}

static char *load_err(const char *name, const char *text)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	CHECK_EQ(loader_load_config(write_tmp(name, text), &c, &err), -1);
	return err;
}

TEST(loader_nested_and_dotted_keys_agree)
{
	struct sim_cfg a, b;
	cfg_defaults(&a);
	cfg_defaults(&b);
	char *err = NULL;
	CHECK_EQ(loader_apply_config_text("{\"l1\": {\"mshr\": {\"entries\": 8}, \"ways\": 2}, \"seed\": 9}", "a.json",
					  &a, &err),
		 0);
	CHECK_EQ(loader_apply_config_text("{\"l1.mshr.entries\": 8, \"l1\": {\"ways\": 2}, \"seed\": 9}", "b.json", &b,
					  &err),
		 0);
	CHECK(err == NULL);
	free(err);
	CHECK_EQ(a.l1.mshr_entries, 8);
	CHECK_EQ(a.l1.ways, 2);
	CHECK_EQ(a.seed, 9);
	CHECK(memcmp(&a, &b, sizeof a) == 0);
}

TEST(loader_type_and_key_errors)
{
	char *e = load_err("t1.json", "{\"l1\": {\"sets\": \"64\"}}");
	CHECK_CONTAINS(e, "t1.json:1: l1.sets: expected an integer, got a string");
	free(e);
	e = load_err("t2.json", "{\"l1\": {\"wyas\": 4}}");
	CHECK_CONTAINS(e, "t2.json:1: l1.wyas: unknown key (did you mean l1.ways?)");
	free(e);
	e = load_err("t3.json", "{\"l2.sets\": 48}");
	CHECK_CONTAINS(e, "t3.json:1: l2.sets: must be a power of two, got 48");
	free(e);
	e = load_err("t4.json", "{\"l1\": 5}");
	CHECK_CONTAINS(e, "l1: expected an object");
	free(e);
	e = load_err("t5.json", "{\"l1.sets\": 1.5}");
	CHECK_CONTAINS(e, "l1.sets: expected an integer, got 1.5");
	free(e);
	e = load_err("t6.json", "{\"l1.enabled\": 1}");
	CHECK_CONTAINS(e, "l1.enabled: expected true or false, got a number");
	free(e);
	e = load_err("t7.json", "[1, 2]");
	CHECK_CONTAINS(e, "expected a JSON object");
	free(e);
	e = load_err("t8.json", "{\"core\": {\"scheduler\": \"gtx\"}}");
	CHECK_CONTAINS(e, "core.scheduler: unknown value 'gtx' (one of lrr, gto, two_level, vws, rmws, tbas, ccws)");
	free(e);
	/* the line of the offending key, found through the nesting */
	e = load_err("t9.json", "{\n  \"l2\": {\"sets\": 64},\n  \"l1\": {\n    \"ways\": 4,\n    \"sets\": \"64\"\n  }\n}\n");
	CHECK_CONTAINS(e, "t9.json:5: l1.sets: expected an integer, got a string");
	free(e);
	/* "_" keys are comments */
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	CHECK_EQ(loader_apply_config_text("{\"_source\": \"x\", \"l1\": {\"_why\": 1}}", "c.json", &c, &err), 0);
	free(err);
}

/* Two equal keys in one object: a JSON parser keeps one silently, so the
 * loader names the key and the line instead (a preset once carried
 * "dual_cmd" twice in its dram object). Equal keys in different objects,
 * or a nested key beside its dotted form, are not the same key here. */
TEST(loader_duplicate_key_refused)
{
	char *e = load_err("d1.json", "{\n  \"dram\": {\"rows\": 8192,\n    \"rows\": 4096}\n}\n");
	CHECK_CONTAINS(e, "d1.json:");
	CHECK_CONTAINS(e, "dram.rows: given twice in the same object");
	free(e);
	e = load_err("d2.json", "{\"seed\": 3, \"seed\": 4}");
	CHECK_CONTAINS(e, "seed: given twice in the same object");
	free(e);
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	CHECK_EQ(loader_apply_config_text("{\"l1\": {\"ways\": 4}, \"l2\": {\"ways\": 8}}", "c.json", &c, &err), 0);
	CHECK_EQ(c.l1.ways, 4);
	CHECK_EQ(c.l2.ways, 8);
	free(err);
}

TEST(loader_malformed_json_position)
{
	char *e = load_err("bad.json", "{\n  \"l1\": {\n    \"sets\": 64,,\n  }\n}\n");
	REQUIRE(e != NULL);
	CHECK_CONTAINS(e, "bad.json:3:");
	CHECK_CONTAINS(e, "malformed JSON near '\"sets\": 64,,'");
	free(e);
	e = load_err("trunc.json", "{\"l1\": {");
	CHECK_CONTAINS(e, "trunc.json:1:");
	free(e);
	e = load_err("empty.json", "");
	CHECK_CONTAINS(e, "empty.json:1:1: malformed JSON");
	free(e);
}

TEST(loader_extends_order_and_relative)
{
	write_tmp("base.json", "{\"l1.ways\": 2, \"l1.sets\": 16, \"name\": \"base\"}");
	write_tmp("mid.json", "{\"l1.sets\": 32, \"l2.sets\": 128}");
	const char *top = write_tmp("top.json", "{\"extends\": [\"base.json\", \"mid\"], \"l2.sets\": 256}");
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	CHECK_EQ(loader_load_config(top, &c, &err), 0);
	if (err)
		test_fail(__FILE__, __LINE__, "%s", err);
	free(err);
	CHECK_EQ(c.l1.ways, 2);
	CHECK_EQ(c.l1.sets, 32);
	CHECK_EQ(c.l2.sets, 256);
	CHECK_STR(c.name, "base");
}

TEST(loader_extends_errors)
{
	write_tmp("cyc_a.json", "{\"extends\": \"cyc_b.json\"}");
	write_tmp("cyc_b.json", "{\"extends\": \"cyc_a.json\"}");
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	CHECK_EQ(loader_load_config(tmp_path("cyc_a.json"), &c, &err), -1);
	CHECK_CONTAINS(err, "extends cycle");
	free(err);
	err = NULL;
	const char *p = write_tmp("missing.json", "{\"extends\": \"nowhere-at-all\"}");
	CHECK_EQ(loader_load_config(p, &c, &err), -1);
	CHECK_CONTAINS(err, "missing.json: extends: no file or preset 'nowhere-at-all'");
	free(err);
	err = NULL;
	p = write_tmp("badext.json", "{\"extends\": 5}");
	CHECK_EQ(loader_load_config(p, &c, &err), -1);
	CHECK_CONTAINS(err, "badext.json: extends: expected");
	free(err);
	err = NULL;
	CHECK_EQ(loader_load_config("no-such-preset-xyz", &c, &err), -1);
	CHECK_CONTAINS(err, "no such file or preset");
	CHECK(strstr(err, "did you mean") == NULL); /* nothing close */
	free(err);
	err = NULL;
	CHECK_EQ(loader_load_config("gtx48", &c, &err), -1); /* one edit from a preset */
	CHECK_CONTAINS(err, "gtx48: no such file or preset; did you mean gtx480?");
	free(err);
}

TEST(loader_embedded_presets)
{
	size_t n = 0;
	char **names = loader_names(LOADER_PRESETS, &n);
	bool teaching = false;
	for (size_t i = 0; i < n; i++)
		teaching |= strcmp(names[i], "teaching") == 0;
	CHECK(teaching);
	CHECK(names[n] == NULL);
	for (size_t i = 0; i < n; i++) {
		struct sim_cfg c;
		cfg_defaults(&c);
		char *err = NULL;
		int rc = loader_load_config(names[i], &c, &err);
		if (rc == 0)
			rc = cfg_validate(&c, &err);
		if (rc)
			test_fail(__FILE__, __LINE__, "preset %s: %s", names[i], err ? err : "?");
		free(err);
	}
	loader_names_free(names);
	/* DRAM presets load on top of the defaults and validate. */
	names = loader_names(LOADER_DRAM_PRESETS, &n);
	for (size_t i = 0; i < n; i++) {
		struct sim_cfg c;
		cfg_defaults(&c);
		char *err = NULL;
		int rc = loader_load_config(names[i], &c, &err);
		if (rc)
			test_fail(__FILE__, __LINE__, "dram preset %s: %s", names[i], err ? err : "?");
		free(err);
	}
	loader_names_free(names);
}

TEST(loader_teaching_is_the_default)
{
	struct sim_cfg a, b;
	cfg_defaults(&a);
	cfg_defaults(&b);
	char *err = NULL;
	/* teaching.json lists every value; loading it over the defaults changes nothing. */
	CHECK_EQ(loader_load_config("teaching", &b, &err), 0);
	free(err);
	if (memcmp(&a, &b, sizeof a) != 0)
		test_fail(__FILE__, __LINE__,
			  "configs/teaching.json differs from the table defaults; if the defaults changed on "
			  "purpose: build/gpustep --dump-config > configs/teaching.json");
}

TEST(loader_overrides)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	CHECK_EQ(loader_apply_override(&c, "l1.ways=8", &err), 0);
	CHECK_EQ(c.l1.ways, 8);
	CHECK_EQ(loader_apply_override(&c, "l1.ways", &err), -1);
	CHECK_CONTAINS(err, "expected PATH=VALUE");
	free(err);
}

static const char *vecadd =
	"{ \"kernel\": \"vecadd\", \"description\": \"one line\",\n"
	"  \"grid\": [\"n/256\", 1, 1], \"block\": [256], \"params\": {\"n\": 65536},\n"
	"  \"arrays\": {\"A\": {\"elem\": 4, \"len\": \"n\"}, \"B\": {\"elem\": 4, \"len\": \"n\", \"base\": "
	"\"0x10000000\"}},\n"
	"  \"nregs\": 16, \"shmem\": 0,\n"
	"  \"body\": [\"ld A[tid + bx*bdx] -> r1\", \"alu 4\", \"st B[tid + bx*bdx] <- r1\"] }\n";

TEST(loader_kernel_json)
{
	struct kernel_src k;
	char *err = NULL;
	CHECK_EQ(loader_parse_kernel(vecadd, "vecadd.json", &k, &err), 0);
	if (err)
		test_fail(__FILE__, __LINE__, "%s", err);
	free(err);
	CHECK_STR(k.name, "vecadd");
	CHECK_STR(k.grid[0], "n/256");
	CHECK_STR(k.grid[1], "1");
	CHECK_STR(k.block[0], "256");
	CHECK_STR(k.block[2], "1");
	CHECK_EQ(k.nparams, 1);
	CHECK_EQ(k.params[0].value, 65536);
	CHECK_EQ(k.narrays, 2);
	CHECK_STR(k.arrays[0].name, "A");
	CHECK_STR(k.arrays[1].name, "B");
	CHECK_STR(k.arrays[1].base, "0x10000000");
	CHECK_STR(k.arrays[0].base, "");
	CHECK_EQ(k.arrays[0].elem, 4);
	CHECK_EQ(k.nregs, 16);
	CHECK_EQ(k.nbody, 3);
	CHECK_STR(k.body[2], "st B[tid + bx*bdx] <- r1");
	err = NULL;
	CHECK_EQ(loader_kernel_set_param(&k, "n", "0x100", &err), 0);
	CHECK_EQ(k.params[0].value, 256);
	CHECK_EQ(loader_kernel_set_param(&k, "m", "1", &err), -1);
	CHECK_CONTAINS(err, "param.m: kernel vecadd has no such parameter (params: n)");
	free(err);
}

static void kernel_err(const char *text, const char *want)
{
	struct kernel_src k;
	char *err = NULL;
	CHECK_EQ(loader_parse_kernel(text, "k.json", &k, &err), -1);
	CHECK_CONTAINS(err, want);
	free(err);
}

TEST(loader_kernel_errors)
{
	kernel_err("{\"kernel\": \"x\", \"body\": [\"alu 1\"], \"grid\": [1, {}]}",
		   "k.json: grid[1]: expected a number or an expression string, got an object");
	kernel_err("{\"kernel\": \"x\", \"body\": [\"alu 1\"], \"grid\": [1, 1, 1, 1]}", "grid: expected 1 to 3");
	kernel_err("{\"kernel\": \"x\", \"body\": [\"alu 1\"], \"gird\": [1]}", "k.json: gird: unknown key");
	kernel_err("{\"kernel\": \"x\"}", "missing \"body\"");
	kernel_err("{\"body\": [\"alu 1\"]}", "missing \"kernel\"");
	kernel_err("{\"kernel\": \"x\", \"body\": [\"alu 1\", 3]}", "body[1]: expected a statement string");
	kernel_err("{\"kernel\": \"x\", \"body\": [\"alu 1\"], \"arrays\": {\"A\": {\"len\": 4}}}",
		   "arrays.A: needs \"elem\"");
	kernel_err("{\"kernel\": \"x\", \"body\": [\"alu 1\"], \"arrays\": {\"A\": {\"elem\": 4, \"len\": 4, "
		   "\"bse\": 1}}}",
		   "arrays.A.bse: unknown key");
	kernel_err("{\"kernel\": \"x\", \"body\": [\"alu 1\"], \"params\": {\"n\": \"big\"}}",
		   "params.n: expected an integer, got a string");
	kernel_err("{\"kernel\": \"x\", \"body\": [\"alu 1\"], \"nregs\": -1}", "nregs: must be between");
	kernel_err("{\"kernel\": \"x\",\n \"body\": [}", "k.json:2:11: malformed JSON");
}

TEST(loader_builtin_kernels_parse)
{
	size_t n = 0;
	char **names = loader_names(LOADER_KERNELS, &n);
	for (size_t i = 0; i < n; i++) {
		struct kernel_src k;
		char *err = NULL;
		if (loader_load_kernel(names[i], &k, &err))
			test_fail(__FILE__, __LINE__, "kernel %s: %s", names[i], err);
		free(err);
		char *d = loader_description(LOADER_KERNELS, names[i]);
		CHECK(d[0] != 0);
		free(d);
	}
	loader_names_free(names);
	struct kernel_src k;
	char *err = NULL;
	CHECK_EQ(loader_load_kernel("no_such_kernel", &k, &err), -1);
	CHECK_CONTAINS(err, "no such built-in kernel or file");
	free(err);
	err = NULL;
	CHECK_EQ(loader_load_kernel("vecad", &k, &err), -1);
	CHECK_CONTAINS(err, "vecad: no such built-in kernel or file; did you mean vecadd?");
	free(err);
}
