/*
 * test_limits.c: resource bounds (issue 27): the memory a machine needs is
 * estimated before it is built and checked against a limit; breakpoints are
 * limited when added, and a session with as many loads again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "loader.h"
#include "session.h"
#include "sim_mem.h"
#include "sesstest.h"
#include "test.h"

static int build_preset(struct session *ss, const char *preset, const char *wl, const char *const *sets, char **err)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	if (preset && loader_load_config(preset, &c, err))
		return -1;
	for (; sets && *sets; sets++)
		if (loader_apply_override(&c, *sets, err))
			return -1;
	if (cfg_validate(&c, err))
		return -1;
	return session_init(ss, &c, "", wl, 1, err);
}

/* The estimate follows the real allocation: within 25% over every preset,
 * and for scaled-up caches, SMs and the profiler. */
TEST(sim_mem_estimate_matches_built_machines)
{
	static const char *const presets[] = {"teaching", "gtx480", "titanv", "hd7770", "rx540", "rx570", "vega64"};
	static const char *const big_l1[] = {"core.sms=32", "l1.sets=1024", "l1.ways=16", NULL};
	static const char *const big_l2[] = {"l2.sets=4096", "l2.ways=32", "reuse.profile=false", NULL};
	static const char *const coh[] = {"coherence.protocol=moesi", "coherence.check_values=true", NULL};
	struct mcase {
		const char *preset;
		const char *const *sets;
	} cases[16];
	int n = 0;
	for (size_t i = 0; i < sizeof presets / sizeof *presets; i++)
		cases[n++] = (struct mcase){presets[i], NULL};
	cases[n++] = (struct mcase){"teaching", big_l1};
	cases[n++] = (struct mcase){"gtx480", big_l2};
	cases[n++] = (struct mcase){"teaching", coh};
	for (int i = 0; i < n; i++) {
		struct session ss;
		char *err = NULL;
		if (build_preset(&ss, cases[i].preset, "vecadd", cases[i].sets, &err)) {
			test_fail(__FILE__, __LINE__, "%s: %s", cases[i].preset, err);
			free(err);
			continue;
		}
		struct sim_mem m;
		sim_mem_estimate(&ss.cfg, &ss.wl, &m);
		double actual = (double)sim_arena_bytes(ss.sim), ratio = (double)m.total / actual;
		if (getenv("GPUSTEP_TEST_VERBOSE"))
			printf("%s%s: estimate %llu actual %.0f ratio %.3f\n", cases[i].preset, cases[i].sets ? "+" : "",
			       (unsigned long long)m.total, actual, ratio);
		if (ratio < 0.8 || ratio > 1.25)
			test_fail(__FILE__, __LINE__, "%s%s: estimate %llu B, machine %.0f B (ratio %.3f)", cases[i].preset,
				  cases[i].sets ? " (scaled)" : "", (unsigned long long)m.total, actual, ratio);
		session_fini(&ss);
	}
}
