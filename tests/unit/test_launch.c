/*
 * test_launch.c: kernel and CTA launch latency (core.kernel_launch_latency,
 * core.cta_launch_latency; core.c launch_wait and cta_launch). Every
 * expectation is the latency itself: the first dispatch and issue move by
 * exactly it, a back-to-back list's second kernel waits it after the first
 * kernel's end, and stepping, running in chunks and rewinding agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/inspect.h"
#include "debug/snapshot.h"
#include "sim/evcode.h"
#include "sim/sim.h"
#include "simtest.h"
#include "test.h"
#include "trace/trace.h"

#define BODY "ld A[bx*bdx + tid] <- r1; alu 3; st B[bx*bdx + tid]"

/* Cycles of the first CTA launch and the first issue, and the run's length. */
struct firsts {
	uint64_t launch, issue, cycles, inactive;
};

static bool run_one(int klat, int clat, unsigned ctas, struct firsts *f)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.kernel_launch_latency = klat;
	t.cfg.core.cta_launch_latency = clat;
	if (!tk_start(&t, 64, ctas, BODY))
		return false;
	while (!sim_done(t.s))
		sim_step(t.s, UINT64_MAX);
	const struct event *l = tk_event(&t, EV_CTA_LAUNCH, 0), *i = tk_event(&t, EV_WARP_ISSUE, 0);
	bool ok = l && i;
	if (ok) {
		f->launch = l->cycle;
		f->issue = i->cycle;
		f->cycles = sim_cycle(t.s);
		f->inactive = tk_stat(&t, "core.stall.inactive");
	}
	tk_end(&t);
	return ok;
}

/* The first CTA dispatches `latency` cycles later; with fixed-latency memory
 * the whole run shifts by exactly that. */
TEST(launch_kernel_latency_moves_first_dispatch_and_issue)
{
	struct firsts a, b;
	const int L = 57;
	REQUIRE(run_one(0, 0, 2, &a));
	REQUIRE(run_one(L, 0, 2, &b));
	CHECK_EQ(b.launch, a.launch + L);
	CHECK_EQ(b.issue, a.issue + L);
	CHECK_EQ(b.cycles, a.cycles + L);
	CHECK_EQ(b.inactive, 0); /* no SM has warps while the kernel launches */
}

/* A CTA's warps issue `latency` cycles after its dispatch, waiting as
 * inactive: each of its 2 warps stalls every one of those cycles, and the
 * SM with nothing else to issue counts them as inactive cycles. */
TEST(launch_cta_latency_delays_the_warps_of_each_cta)
{
	struct firsts a, b;
	const int C = 41;
	REQUIRE(run_one(0, 0, 1, &a));
	REQUIRE(run_one(0, C, 1, &b));
	CHECK_EQ(b.launch, a.launch);
	CHECK_EQ(b.issue, a.issue + C);
	CHECK_EQ(b.cycles, a.cycles + C);
	CHECK_EQ(a.inactive, 0);
	CHECK_EQ(b.inactive, C);
}

/* Every CTA, on either SM, issues exactly C cycles after its dispatch (one
 * CTA per SM at a time, so the SM's next issue after a launch is its). */
TEST(launch_cta_latency_holds_for_every_cta)
{
	const int C = 23;
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.cta_launch_latency = C;
	t.cfg.core.sms = 2;
	t.cfg.core.ctas_per_sm = 1;
	REQUIRE(tk_start(&t, 64, 5, BODY));
	while (!sim_done(t.s))
		sim_step(t.s, UINT64_MAX);
	unsigned checked = 0;
	for (unsigned n = 0;; n++) {
		const struct event *l = tk_event(&t, EV_CTA_LAUNCH, n);
		if (!l)
			break;
		uint64_t first = UINT64_MAX;
		for (unsigned m = 0;; m++) {
			const struct event *i = tk_event(&t, EV_WARP_ISSUE, m);
			if (!i)
				break;
			if (i->sm == l->sm && i->cycle >= l->cycle && i->cycle < first)
				first = i->cycle;
		}
		CHECK_EQ(first, l->cycle + C);
		checked++;
	}
	CHECK_EQ(checked, 5);
	tk_end(&t);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	*len = fread(b, 1, (size_t)n, f);
	fclose(f);
	return b;
}

/* The b2b trace list (tests/traces/b2b): per kernel, the kernel.start cycle
 * and its first CTA dispatch; and the run's hash and length. */
struct b2b_run {
	uint64_t start[2], launch[2], cycles, hash;
};

static bool b2b_run(int klat, int mode, struct b2b_run *r)
{
	char *text[2] = {NULL, NULL};
	struct trace_kernel *k[2] = {NULL, NULL};
	bool ok = true;
	for (int i = 0; i < 2 && ok; i++) {
		char path[64], *err = NULL;
		size_t len;
		snprintf(path, sizeof path, "tests/traces/b2b/kernel-%d.traceg", i + 1);
		text[i] = slurp(path, &len);
		ok = text[i] && (k[i] = trace_index(text[i], len, path, &err));
		free(err);
	}
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	cfg.core.kernel_launch_latency = klat;
	struct trace_view v[2];
	uint32_t first[3], soff[3];
	struct trace_multi m;
	struct sim *s = NULL;
	if (ok) {
		const struct trace_kernel *ks[2] = {k[0], k[1]};
		trace_multi_init(&m, v, first, soff, ks, 2, &cfg.trace);
		struct workload wl = {.name = "b2b", .ops = &trace_multi_wl_ops, .impl = &m};
		char *err = NULL;
		s = sim_new(&cfg, &wl, &err);
		free(err);
		ok = s != NULL;
	}
	if (ok) {
		events_log_all(sim_events(s), true);
		tk_run_mode(s, mode);
		memset(r, 0, sizeof *r);
		r->launch[0] = r->launch[1] = UINT64_MAX;
		const struct events *ev = sim_events_c(s);
		uint64_t total = events_logged(ev), avail = total < ev->cap ? total : ev->cap;
		int ks = -1;
		uint32_t kfirst1 = first[1];
		for (uint64_t i = avail; i-- > 0;) {
			const struct event *e = events_recent(ev, i);
			if (e->kind == EV_KERNEL_START && e->a < 2) {
				ks = (int)e->a;
				r->start[ks] = e->cycle;
			}
			if (e->kind == EV_CTA_LAUNCH && ks >= 0) {
				int kk = (uint32_t)e->a >= kfirst1;
				if (r->launch[kk] == UINT64_MAX)
					r->launch[kk] = e->cycle;
			}
		}
		r->cycles = sim_cycle(s);
		r->hash = sim_state_hash(s);
		ok = events_logged(ev) <= ev->cap; /* nothing lost */
	}
	sim_free(s);
	for (int i = 0; i < 2; i++) {
		trace_free(k[i]);
		free(text[i]);
	}
	return ok;
}

/* Each kernel of a list waits the latency from its start, and the second
 * one starts when the first ends: its first dispatch moves by twice it. */
TEST(launch_kernel_latency_second_kernel_waits_after_the_first_ends)
{
	struct b2b_run a, b;
	const int L = 100;
	REQUIRE(b2b_run(0, 0, &a));
	REQUIRE(b2b_run(L, 0, &b));
	for (int k = 0; k < 2; k++)
		CHECK_EQ(b.launch[k] - b.start[k], a.launch[k] - a.start[k] + L);
	CHECK_EQ(b.start[1], a.start[1] + L);
	CHECK_EQ(b.launch[1], a.launch[1] + 2 * L);
	CHECK_EQ(b.cycles, a.cycles + 2 * L);
}

/* Skip-ahead knows the launch cycles: one go, cycle by cycle and uneven
 * chunks end in the same state. */
TEST(launch_latency_step_equals_run)
{
	struct b2b_run r[3];
	for (int mode = 0; mode < 3; mode++)
		REQUIRE(b2b_run(77, mode, &r[mode]));
	for (int mode = 1; mode < 3; mode++) {
		CHECK_EQ(r[mode].cycles, r[0].cycles);
		CHECK(r[mode].hash == r[0].hash);
		CHECK_EQ(r[mode].launch[1], r[0].launch[1]);
	}
	uint64_t h[3], c[3];
	for (int mode = 0; mode < 3; mode++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.kernel_launch_latency = 31;
		t.cfg.core.cta_launch_latency = 19;
		t.cfg.core.ctas_per_sm = 2;
		REQUIRE(tk_start(&t, 64, 5, BODY));
		tk_run_mode(t.s, mode);
		h[mode] = sim_state_hash(t.s);
		c[mode] = sim_cycle(t.s);
		tk_end(&t);
	}
	CHECK_EQ(c[1], c[0]);
	CHECK_EQ(c[2], c[0]);
	CHECK(h[1] == h[0] && h[2] == h[0]);
}

/* Rewinding into the launch window and running on ends where a straight run does. */
TEST(launch_latency_rewind_equals_run)
{
	struct tk a, b;
	for (int k = 0; k < 2; k++) {
		struct tk *t = k ? &b : &a;
		tk_base_cfg(&t->cfg);
		t->cfg.core.kernel_launch_latency = 60;
		t->cfg.core.cta_launch_latency = 30;
		REQUIRE(tk_start(t, 64, 3, BODY));
	}
	sim_snapshots_enable(b.s, 16u << 20);
	sim_snapshots_set_max_gap(b.s, 16);
	sim_step(b.s, 400);
	char *err = NULL;
	REQUIRE(sim_goto(b.s, 75, &err) == 0);
	CHECK_EQ(sim_cycle(b.s), 75);
	while (!sim_done(a.s))
		sim_step(a.s, UINT64_MAX);
	while (!sim_done(b.s))
		sim_step(b.s, UINT64_MAX);
	CHECK_EQ(sim_cycle(b.s), sim_cycle(a.s));
	CHECK(sim_state_hash(b.s) == sim_state_hash(a.s));
	tk_end(&a);
	tk_end(&b);
}

/* `why warp` during the CTA launch window names the latency and the cycle. */
TEST(launch_cta_latency_why_names_it)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.cta_launch_latency = 40;
	REQUIRE(tk_start(&t, 64, 1, BODY));
	sim_step(t.s, 10);
	struct why_link l[8];
	int n = inspect_why_warp(t.s, 0, 0, l, 8);
	REQUIRE(n >= 2);
	CHECK(strstr(l[0].text, "waits for its CTA to launch") != NULL);
	CHECK(strstr(l[1].text, "its warps issue from cycle 40 (core.cta_launch_latency 40)") != NULL);
	tk_end(&t);
}
