/*
 * test_preset_source.c: presets against the GPGPU-Sim configurations they
 * are named after (load/preset_source.c). Every built-in preset that names a
 * source differs from it only where its "_deviations" says why, and has no
 * reason left over for a key that no longer differs; a difference without a
 * reason, a stale reason and a malformed list are each caught.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/loader.h"
#include "load/preset_source.h"
#include "test.h"

static void check_preset(const char *name, bool want_source)
{
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	char *err = NULL;
	REQUIRE(loader_load_config(name, &cfg, &err) == 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	REQUIRE(out);
	struct preset_check pc;
	int rc = preset_source_report(name, &cfg, out, &pc, &err);
	fclose(out);
	if (rc)
		test_fail(__FILE__, __LINE__, "%s: %s", name, err);
	CHECK_EQ(pc.undocumented, 0);
	CHECK_EQ(pc.stale, 0);
	if (want_source) {
		CHECK(pc.compared > 50); /* the source sets most of the machine */
		CHECK_CONTAINS(buf, "against its source configs/sources/");
	} else {
		CHECK_EQ(pc.compared, 0);
	}
	if (pc.undocumented || pc.stale)
		fprintf(stderr, "%s", buf);
	free(buf);
	free(err);
}

TEST(preset_source_builtin_presets_differ_only_with_reasons)
{
	check_preset("gtx480", true);
	check_preset("qv100", true);
	check_preset("titanv", true);
	check_preset("teaching", false);
	check_preset("rx540", false);
}

/* titanv's bank XOR is its source's -dram_bnk_indexing_policy 1: the
 * comparison covers dram.bank_xor, so a titanv without it (qv100's value)
 * is a difference without a reason. */
TEST(preset_source_titanv_bank_xor_is_its_source)
{
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	char *err = NULL;
	REQUIRE(loader_load_config("titanv", &cfg, &err) == 0);
	CHECK(cfg.dram.bank_xor);
	cfg.dram.bank_xor = false;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	REQUIRE(out);
	struct preset_check pc;
	REQUIRE(preset_source_report("titanv", &cfg, out, &pc, &err) == 0);
	fclose(out);
	CHECK_EQ(pc.undocumented, 1);
	CHECK_CONTAINS(buf, "dram.bank_xor");
	free(buf);
	free(err);
}

static const char src[] = "-gpgpu_n_clusters 4\n-gpgpu_n_cores_per_cluster 1\n-gpgpu_l1_latency 30\n"
			  "-gpgpu_smem_latency 20\n";

static struct preset_check cmp(const char *json, struct sim_cfg *cfg, char **out, char **err)
{
	struct preset_check pc;
	struct strbuf o;
	sb_init(&o);
	memset(&pc, 0xff, sizeof pc);
	if (preset_source_compare(json, "p.json", cfg, "src.config", src, &o, &pc, err))
		pc.compared = 9999;
	*out = o.s ? strdup(o.s) : strdup("");
	sb_fini(&o);
	return pc;
}

TEST(preset_source_flags_undocumented_and_stale)
{
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	cfg.core.sms = 4;
	cfg.l1.hit_latency = 30;
	cfg.core.shmem_latency = 26; /* differs from the source's 20 */
	char *out, *err = NULL;
	/* No reason for core.shmem_latency: undocumented. */
	struct preset_check pc = cmp("{\"_source_config\": \"src.config\"}", &cfg, &out, &err);
	CHECK_EQ(pc.compared, 3); /* core.sms, l1.hit_latency, core.shmem_latency */
	CHECK_EQ(pc.undocumented, 1);
	CHECK_EQ(pc.documented, 0);
	CHECK_CONTAINS(out, "core.shmem_latency");
	CHECK_CONTAINS(out, "26 (source 20): UNDOCUMENTED");
	free(out);
	/* With a reason: documented; a reason for an equal key and for a key
	 * the source does not set: both stale. */
	pc = cmp("{\"_deviations\": {\"core.shmem_latency\": \"measured\", \"l1.hit_latency\": \"old\", "
		 "\"l2.banks\": \"never set\"}}",
		 &cfg, &out, &err);
	CHECK_EQ(pc.documented, 1);
	CHECK_EQ(pc.undocumented, 0);
	CHECK_EQ(pc.stale, 2);
	CHECK_CONTAINS(out, "26 (source 20): measured");
	CHECK_CONTAINS(out, "l1.hit_latency");
	CHECK_CONTAINS(out, "src.config does not set this key");
	free(out);
	/* A reason must be a non-empty string. */
	pc = cmp("{\"_deviations\": {\"core.shmem_latency\": 3}}", &cfg, &out, &err);
	CHECK_EQ(pc.compared, 9999);
	CHECK_CONTAINS(err, "_deviations.core.shmem_latency: expected a reason");
	free(out);
	free(err);
	err = NULL;
	pc = cmp("{\"_deviations\": [1]}", &cfg, &out, &err);
	CHECK_EQ(pc.compared, 9999);
	CHECK_CONTAINS(err, "_deviations: expected an object");
	free(out);
	free(err);
}
