/*
 * cmd_coh.c: `gpustep stress-coherence --protocol P --accesses N --seed S`:
 * the random coherence tester (engine/coh/coh_stress.h). Exit 0 with a summary
 * when no violation; exit 1 with the first violation's cycle, line and
 * states; exit 2 on bad arguments.
 *
 * Test-only (not in the usage text): --inject-bug N runs the tester with one
 * of its deliberately broken behaviours (enum cs_bug in coh_stress.h: 1 an
 * atomic skips the invalidations, 2 an atomic reads memory, 3 no acquire at a
 * kernel boundary, 4 no release), so the exit-1 path can be tested end to end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_coh.h"
#include "coh/coh_stress.h"

static int usage(void)
{
	fprintf(stderr, "usage: gpustep stress-coherence --protocol si|nmoesi|moesi [--accesses N] [--seed S]\n"
			"       [--l1s N] [--lines N] [--l1-ways N] [--l2-lines N] [--store-pct P] [--atomic-pct P]\n"
			"       [--delay MAX] [--kernel-every N]\n");
	return 2;
}

static int num(const char *opt, const char *v, unsigned long long lo, unsigned long long hi,
	       unsigned long long *out)
{
	uint64_t x = 0;
	if (!v || cli_parse_u64(v, &x) || x < lo || x > hi) { /* no sign, no overflow: as gpustep --seed */
		fprintf(stderr, "stress-coherence: %s: expected a number in %llu..%llu, got %s\n", opt, lo, hi,
			v ? v : "nothing");
		return -1;
	}
	*out = x;
	return 0;
}

int stress_coherence_main(int argc, char **argv)
{
	struct cs_cfg c;
	const struct coh_proto *p = NULL;
	cs_default_cfg(&c, NULL);
	c.accesses = 1000000;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		unsigned long long x = 0;
		int rc = 0;
		if (strcmp(o, "--protocol") == 0) {
			p = v ? coh_proto_find(v) : NULL;
			if (!p) {
				fprintf(stderr, "stress-coherence: --protocol: expected si, nmoesi or moesi, got %s\n",
					v ? v : "nothing");
				return 2;
			}
		} else if (strcmp(o, "--accesses") == 0 && !(rc = num(o, v, 1, 1ull << 40, &x))) {
			c.accesses = x;
		} else if (strcmp(o, "--seed") == 0 && !(rc = num(o, v, 0, UINT64_MAX, &x))) {
			c.seed = x;
		} else if (strcmp(o, "--l1s") == 0 && !(rc = num(o, v, 1, CS_MAX_L1, &x))) {
			c.l1s = (unsigned)x;
		} else if (strcmp(o, "--lines") == 0 && !(rc = num(o, v, 1, CS_MAX_LINES, &x))) {
			c.lines = (unsigned)x;
		} else if (strcmp(o, "--l1-ways") == 0 && !(rc = num(o, v, 1, 8, &x))) {
			c.l1_ways = (unsigned)x;
		} else if (strcmp(o, "--l2-lines") == 0 && !(rc = num(o, v, 1, CS_MAX_LINES, &x))) {
			c.l2_lines = (unsigned)x;
		} else if (strcmp(o, "--store-pct") == 0 && !(rc = num(o, v, 0, 100, &x))) {
			c.store_pct = (unsigned)x;
		} else if (strcmp(o, "--atomic-pct") == 0 && !(rc = num(o, v, 0, 100, &x))) {
			c.atomic_pct = (unsigned)x;
		} else if (strcmp(o, "--kernel-every") == 0 && !(rc = num(o, v, 0, 1ull << 40, &x))) {
			c.kernel_every = x;
		} else if (strcmp(o, "--inject-bug") == 0 && !(rc = num(o, v, 0, CS_BUG_NO_RELEASE, &x))) {
			c.bug = (unsigned)x;
		} else if (strcmp(o, "--delay") == 0 && !(rc = num(o, v, 1, 1000, &x))) {
			c.net_max = (unsigned)x;
		} else if (rc == 0) {
			fprintf(stderr, "stress-coherence: unknown option %s\n", o);
			return usage();
		}
		if (rc)
			return 2;
		i++;
	}
	if (!p)
		return usage();
	if (c.store_pct + c.atomic_pct > 100) {
		fprintf(stderr, "stress-coherence: --store-pct %u plus --atomic-pct %u is over 100\n", c.store_pct,
			c.atomic_pct);
		return 2;
	}
	c.p = p;
	struct cs_result r;
	cs_stress(&c, &r);
	if (!r.ok) {
		printf("stress-coherence %s seed %llu: VIOLATION at cycle %llu, line %d, L1 %d: %s\n", p->name,
		       (unsigned long long)c.seed, (unsigned long long)r.cycle, r.line, r.l1, r.why);
		printf("  after %llu accesses (%llu loads, %llu stores, %llu atomics)\n", (unsigned long long)r.accesses,
		       (unsigned long long)r.loads, (unsigned long long)r.stores, (unsigned long long)r.atomics);
		return 1;
	}
	printf("stress-coherence %s seed %llu: ok, %llu accesses (%llu loads, %llu stores, %llu atomics, %llu L1 hits) in "
	       "%llu cycles, %u L1s x %u lines, L2 %u lines\n",
	       p->name, (unsigned long long)c.seed, (unsigned long long)r.accesses, (unsigned long long)r.loads,
	       (unsigned long long)r.stores, (unsigned long long)r.atomics, (unsigned long long)r.l1_hits, (unsigned long long)r.cycle, c.l1s, c.lines,
	       c.l2_lines);
	printf("  L1 transitions %llu, directory transitions %llu, NACKs %llu\n",
	       (unsigned long long)r.transitions, (unsigned long long)r.dir_transitions, (unsigned long long)r.nacks);
	if (r.kernels)
		printf("  kernel boundaries %llu: %llu N lines merged back (release), %llu S/V copies dropped (acquire)\n",
		       (unsigned long long)r.kernels, (unsigned long long)r.kb_writebacks,
		       (unsigned long long)r.kb_invalidations);
	printf("  messages:");
	for (unsigned m = 0; m < CM__COUNT; m++)
		if (r.msgs[m])
			printf(" %s=%llu", coh_msg_name(m), (unsigned long long)r.msgs[m]);
	printf("\n");
	return 0;
}
