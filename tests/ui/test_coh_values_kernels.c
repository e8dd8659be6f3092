/*
 * test_coh_values_kernels.c: coherence.check_values (engine/mem/coh_values.c) on
 * every built-in kernel, teaching and gtx480, under si, nmoesi and moesi:
 * no data-value violation, some loads checked, and the values are shadow
 * state only: every stat of the run without checking (cycles, hits, messages,
 * ...) is equal, the three coh.value_* stats are the only additions. On
 * teaching the invariants (which include the value violations) are checked
 * every 500 cycles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/loader.h"
#include "sim/sim.h"
#include "test.h"

static struct sim *start(const char *preset, const char *kernel, const char *proto, bool values, struct kernel **k)
{
	char *err = NULL;
	struct sim_cfg cfg;
	struct kernel_src src;
	cfg_defaults(&cfg);
	char ov[64];
	snprintf(ov, sizeof ov, "coherence.protocol=%s", proto);
	if ((strcmp(preset, "teaching") && loader_load_config(preset, &cfg, &err)) || loader_apply_override(&cfg, ov, &err) ||
	    loader_apply_override(&cfg, values ? "coherence.check_values=true" : "coherence.check_values=false", &err) ||
	    loader_load_kernel(kernel, &src, &err) || !(*k = kernel_compile(&src, cfg.seed, &err))) {
		test_fail(__FILE__, __LINE__, "%s/%s/%s: %s", preset, kernel, proto, err ? err : "?");
		free(err);
		return NULL;
	}
	struct workload wl = {.kernel = *k};
	snprintf(wl.name, sizeof wl.name, "%s", kernel);
	struct sim *s = sim_new(&cfg, &wl, &err);
	if (!s) {
		test_fail(__FILE__, __LINE__, "%s/%s/%s: %s", preset, kernel, proto, err);
		free(err);
		kernel_free(*k);
	}
	return s;
}

static void run_pair(const char *preset, const char *kernel, const char *proto)
{
	struct kernel *ko = NULL, *kv = NULL;
	struct sim *o = start(preset, kernel, proto, false, &ko);
	struct sim *v = o ? start(preset, kernel, proto, true, &kv) : NULL;
	if (!o || !v) {
		if (o) {
			sim_free(o);
			kernel_free(ko);
		}
		return;
	}
	bool small = strcmp(preset, "teaching") == 0;
	char *err = NULL;
	while (!sim_done(o))
		sim_step(o, UINT64_MAX);
	for (int i = 0; i < 100000 && !sim_done(v) && !err; i++) {
		if (sim_step(v, small ? 500 : 50000) == SIM_STOP_BREAK)
			break;
		if (small)
			sim_check_invariants(v, &err);
	}
	if (!err)
		sim_check_invariants(v, &err);
	if (err || sim_value_violation(v) || !sim_done(v))
		test_fail(__FILE__, __LINE__, "%s on %s with %s and check_values: %s", kernel, preset, proto,
			  err ? err : sim_value_violation(v) ? sim_value_violation(v) : "did not finish");
	free(err);
	const struct stats *a = sim_stats_c(o), *b = sim_stats_c(v);
	int chk = stats_find(b, "coh.value_checks"), vio = stats_find(b, "coh.value_violations");
	CHECK(chk >= 0 && vio >= 0);
	if (chk >= 0 && vio >= 0) {
		CHECK(stats_counter_value(b, (uint32_t)chk) > 0);
		CHECK_EQ(stats_counter_value(b, (uint32_t)vio), 0);
	}
	CHECK_EQ(a->n + 3, b->n);
	for (uint32_t i = 0; i < a->n; i++) {
		int j = stats_find(b, a->defs[i].name);
		if (j < 0 || stats_value(a, i) != stats_value(b, (uint32_t)j))
			test_fail(__FILE__, __LINE__, "%s on %s with %s: %s is %g without check_values, %g with", kernel,
				  preset, proto, a->defs[i].name, stats_value(a, i), j < 0 ? -1.0 : stats_value(b, (uint32_t)j));
	}
	sim_free(o);
	sim_free(v);
	kernel_free(ko);
	kernel_free(kv);
}

TEST(coh_values_every_kernel_each_protocol_no_violation_same_stats)
{
	size_t nk = 0;
	char **kernels = loader_names(LOADER_KERNELS, &nk);
	CHECK(nk >= 14);
	static const char *const presets[] = {"teaching", "gtx480"};
	static const char *const protos[] = {"si", "nmoesi", "moesi"};
	for (size_t p = 0; p < 2; p++)
		for (size_t c = 0; c < 3; c++)
			for (size_t k = 0; k < nk; k++)
				run_pair(presets[p], kernels[k], protos[c]);
	loader_names_free(kernels);
}

/* Validation: the mode needs a protocol and no FRC. */
TEST(coh_values_config_validation)
{
	struct sim_cfg cfg;
	char *err = NULL;
	cfg_defaults(&cfg);
	CHECK_EQ(loader_apply_override(&cfg, "coherence.check_values=true", &err), 0);
	CHECK(cfg_validate(&cfg, &err) != 0);
	CHECK(err && strstr(err, "coherence.check_values") != NULL);
	free(err);
	err = NULL;
	CHECK_EQ(loader_apply_override(&cfg, "coherence.protocol=si", &err), 0);
	CHECK_EQ(cfg_validate(&cfg, &err), 0);
	CHECK_EQ(loader_apply_override(&cfg, "l2.frc.entries=8", &err), 0);
	CHECK(cfg_validate(&cfg, &err) != 0);
	free(err);
}
