/*
 * test_coh_kernels.c: every built-in kernel finishes on the teaching and
 * gtx480 presets under each coherence protocol (si, nmoesi, moesi) with the
 * invariants holding (sim_check_invariants includes the protocol's:
 * coh_check.c), checked every 500 cycles on teaching and at the end; and on
 * teaching with an FRC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/inspect.h"
#include "load/loader.h"
#include "sim/sim.h"
#include "test.h"

static void run_one(const char *preset, const char *kernel, const char *proto, const char *extra)
{
	char *err = NULL;
	struct sim_cfg cfg;
	struct kernel_src src;
	cfg_defaults(&cfg);
	char ov[64];
	snprintf(ov, sizeof ov, "coherence.protocol=%s", proto);
	if ((strcmp(preset, "teaching") && loader_load_config(preset, &cfg, &err)) || loader_apply_override(&cfg, ov, &err) ||
	    (extra && loader_apply_override(&cfg, extra, &err)) || loader_load_kernel(kernel, &src, &err)) {
		test_fail(__FILE__, __LINE__, "%s/%s/%s: %s", preset, kernel, proto, err ? err : "?");
		free(err);
		return;
	}
	struct kernel *k = kernel_compile(&src, cfg.seed, &err);
	if (!k) {
		test_fail(__FILE__, __LINE__, "%s: %s", kernel, err);
		free(err);
		return;
	}
	struct workload wl = {.kernel = k};
	snprintf(wl.name, sizeof wl.name, "%s", kernel);
	struct sim *s = sim_new(&cfg, &wl, &err);
	if (!s) {
		test_fail(__FILE__, __LINE__, "%s/%s/%s: %s", preset, kernel, proto, err);
		free(err);
		kernel_free(k);
		return;
	}
	bool small = strcmp(preset, "teaching") == 0;
	for (int i = 0; i < 4000 && !sim_done(s); i++) {
		sim_step(s, small ? 500 : 50000);
		if (small && sim_check_invariants(s, &err))
			break;
	}
	if (!err && !sim_done(s))
		test_fail(__FILE__, __LINE__, "%s on %s with %s did not finish (cycle %llu)", kernel, preset, proto,
			  (unsigned long long)sim_cycle(s));
	else if (err || sim_check_invariants(s, &err))
		test_fail(__FILE__, __LINE__, "%s on %s with %s: %s", kernel, preset, proto, err);
	free(err);
	sim_free(s);
	kernel_free(k);
}

TEST(coh_every_kernel_finishes_with_each_protocol)
{
	size_t nk = 0;
	char **kernels = loader_names(LOADER_KERNELS, &nk);
	CHECK(nk >= 14);
	static const char *const presets[] = {"teaching", "gtx480"};
	static const char *const protos[] = {"si", "nmoesi", "moesi"};
	for (size_t p = 0; p < 2; p++)
		for (size_t c = 0; c < 3; c++)
			for (size_t k = 0; k < nk; k++)
				run_one(presets[p], kernels[k], protos[c], NULL);
	loader_names_free(kernels);
}

/* The same with an FRC in every L2 bank (teaching, invariants every 500
 * cycles): a small one (many fallbacks to the conventional path, both paths
 * mixed) and a larger one. */
TEST(coh_every_kernel_finishes_with_each_protocol_and_frc)
{
	size_t nk = 0;
	char **kernels = loader_names(LOADER_KERNELS, &nk);
	static const char *const protos[] = {"si", "nmoesi", "moesi"};
	static const char *const frcs[] = {"l2.frc.entries=8", "l2.frc.entries=64"};
	for (size_t f = 0; f < 2; f++)
		for (size_t c = 0; c < 3; c++)
			for (size_t k = 0; k < nk; k++)
				run_one("teaching", kernels[k], protos[c], frcs[f]);
	loader_names_free(kernels);
}
