/*
 * `info duel`: locality bypassing's duel interval by interval. Every row is
 * checked against the rule recomputed from the row's own counts (the
 * difference in per mille, the decision against l1.bypass_duel_diff, the
 * Agresti-Caffo margin and its '?'), the OUTCOME against the followers'
 * modes before and after, the switches against l1.duel_switches, and the
 * table after a rewind against the table first seen at that cycle.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sesstest.h"
#include "sim/sim.h"
#include "sim/stats.h"
#include "test.h"

static uint64_t stat_of(struct fx *f, const char *name)
{
	int id = stats_find(sim_stats_c(f->ss.sim), name);
	REQUIRE(id >= 0);
	return stats_value(sim_stats_c(f->ss.sim), (uint32_t)id);
}

struct row {
	unsigned long long end;
	unsigned m0, a0, m1, a1;
	char diff[16], margin[16], outcome[24];
};

/* The rows of the last `info duel` output; returns how many. */
static int parse_rows(const char *o, struct row *r, int max)
{
	const char *p = strstr(o, "OUTCOME\n");
	REQUIRE(p);
	p += strlen("OUTCOME\n");
	int n = 0;
	while (n < max) {
		struct row x;
		int used = 0;
		if (sscanf(p, "%llu %u/%u %*f%% %u/%u %*f%% %15s %15s %n", &x.end, &x.m0, &x.a0, &x.m1, &x.a1, x.diff,
			   x.margin, &used) != 7)
			break;
		const char *eol = strchr(p + used, '\n');
		REQUIRE(eol);
		size_t len = (size_t)(eol - (p + used));
		REQUIRE(len < sizeof x.outcome);
		memcpy(x.outcome, p + used, len);
		x.outcome[len] = 0;
		r[n++] = x;
		p = eol + 1;
	}
	return n;
}

/* Check the rows against the rule; returns the number of switches. */
static int check_rows(const struct row *r, int n, int limit, bool start_decoupled)
{
	bool mode = start_decoupled;
	int switches = 0;
	for (int i = 0; i < n; i++) {
		const struct row *x = &r[i];
		if (i)
			CHECK_EQ(x->end - r[i - 1].end >= 500, true);
		if (!x->a0 || !x->a1) {
			CHECK_EQ(strcmp(x->outcome, "no lookup"), 0);
			CHECK_EQ(strcmp(x->diff, "-"), 0);
			continue;
		}
		long long diff = ((long long)x->m0 * 1000 * x->a1 - (long long)x->m1 * 1000 * x->a0) / ((long long)x->a0 * x->a1);
		char want_diff[16];
		snprintf(want_diff, sizeof want_diff, "%+.1f", diff / 10.0);
		CHECK_EQ(strcmp(x->diff, want_diff), 0);
		bool want = diff > (long long)limit * 10 ? false : true;
		double p0 = (x->m0 + 1.0) / (x->a0 + 2.0), p1 = (x->m1 + 1.0) / (x->a1 + 2.0);
		double margin = 196.0 * sqrt(p0 * (1 - p0) / (x->a0 + 2.0) + p1 * (1 - p1) / (x->a1 + 2.0));
		CHECK(fabs(atof(x->margin) - margin) < 0.051);
		bool unsure = fabs(diff / 10.0 - limit) <= margin;
		CHECK_EQ(strchr(x->margin, '?') != NULL, unsure);
		if (want == mode) {
			CHECK_EQ(strcmp(x->outcome, "kept"), 0);
		} else {
			CHECK_EQ(strcmp(x->outcome, want ? "-> decoupled" : "-> plain"), 0);
			mode = want;
			switches++;
		}
	}
	return switches;
}

/* matmul_tiled on the teaching machine with locality bypassing: every
 * interval of the run fits the table (up to 32), the followers start plain. */
TEST(info_duel_rows_follow_the_rule)
{
	struct fx f;
	fx_init_wl(&f, "matmul_tiled");
	REQUIRE((fx_run(&f, "set l1.bypass locality") & CMD_ERR) == 0);
	REQUIRE((fx_run(&f, "workload matmul_tiled") & CMD_ERR) == 0);
	REQUIRE(fx_run(&f, "run 8000") & CMD_RUN); /* a run restarts: CMD_RESET too */
	REQUIRE(fx_run(&f, "info duel 32") == CMD_OK);
	char *seen = strdup(f.cap.out.s);
	unsigned closed = 0;
	const char *c = strstr(seen, "unsure hold off; ");
	REQUIRE(c && sscanf(c, "unsure hold off; %u intervals closed", &closed) == 1);
	REQUIRE(closed >= 8 && closed <= 32);
	struct row r[32];
	int n = parse_rows(seen, r, 32);
	CHECK_EQ(n, (int)closed);
	int limit = f.ss.cfg.l1.bypass_duel_diff;
	int sw = check_rows(r, n, limit, false);
	CHECK(sw > 0);
	CHECK_EQ((uint64_t)sw, stat_of(&f, "l1.duel_switches"));
	CHECK_CONTAINS(seen, "?: the limit lies within the 95 % margin");
	/* `info duel 3`: the newest three rows of the same table */
	REQUIRE(fx_run(&f, "info duel 3") == CMD_OK);
	struct row t[3];
	CHECK_EQ(parse_rows(f.cap.out.s, t, 3), 3);
	CHECK_EQ(t[2].end, r[n - 1].end);
	CHECK_EQ(t[0].end, r[n - 3].end);
	/* back 4000 cycles and forward again: the table at 8000 is the same */
	REQUIRE((fx_run(&f, "reverse-step 4000") & CMD_ERR) == 0);
	REQUIRE(fx_run(&f, "info duel 32") == CMD_OK);
	CHECK(strcmp(f.cap.out.s, seen) != 0);
	REQUIRE((fx_run(&f, "step 4000") & CMD_ERR) == 0);
	REQUIRE(fx_run(&f, "info duel 32") == CMD_OK);
	CHECK_EQ(strcmp(f.cap.out.s, seen), 0);
	free(seen);
	fx_fini(&f);
}

/* Bad input and no duel: clear messages. */
TEST(info_duel_without_a_duel_and_bad_counts)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	CHECK_EQ(fx_run(&f, "info duel"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "no duel: it needs l1.bypass locality");
	CHECK(fx_run(&f, "info duel 0") & CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "usage: info duel [N]");
	CHECK(fx_run(&f, "info duel x") & CMD_ERR);
	/* T = 0 is the plain L1: no duel runs, so none is shown */
	REQUIRE((fx_run(&f, "set l1.bypass locality") & CMD_ERR) == 0);
	REQUIRE((fx_run(&f, "set l1.bypass_threshold 0") & CMD_ERR) == 0);
	REQUIRE((fx_run(&f, "workload vecadd") & CMD_ERR) == 0);
	CHECK_EQ(fx_run(&f, "info duel"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "no duel: it needs l1.bypass locality");
	REQUIRE((fx_run(&f, "set l1.bypass_threshold 2") & CMD_ERR) == 0);
	REQUIRE((fx_run(&f, "workload vecadd") & CMD_ERR) == 0);
	CHECK_EQ(fx_run(&f, "info duel"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "duel: 1 leader set per mode per SM");
	fx_fini(&f);
}
