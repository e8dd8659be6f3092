/*
 * test_coh_kflush.c: the kernel boundary as a release and an acquire under
 * the relaxed protocols (engine/mem/coh_kflush.c, coherence.kernel_boundary).
 * Two back-to-back trace kernels on the teaching machine (2 SMs, round
 * robin, so CTA 0 of each kernel runs on sm0 and CTA 1 on sm1):
 *
 *   kernel 1  sm0: load Y; load Z (needs Y); store X (needs Z)
 *             sm1: load X          (long before sm0's store: a copy of X)
 *   kernel 2  sm0: exit
 *             sm1: load X
 *
 * With flush, sm0's write of X reaches the L2 before kernel 2 starts (SI:
 * its write-through acked; NMOESI: its N line written back with PutN during
 * the release) and kernel 2's load on sm1 misses its L1 (its copy was
 * invalidated at the acquire) and fetches X from the L2: kernel 2 sees
 * kernel 1's value. With none, sm1 hits its stale copy. The boundary costs
 * cycles (stat coh.kernel_flush.cycles, events coh.kernel_flush); MOESI is
 * unaffected (every stat equal with flush and none). The values themselves:
 * coherence.check_values (coh_values_* at the end; the random tester's
 * kernel boundaries in test_coh.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coh/coh.h"
#include "sim/sim.h"
#include "debug/snapshot.h"
#include "simtest.h"
#include "test.h"
#include "trace/trace.h"

#define X_ADDR 0x7f0000200000ull

#define HDR(id, ctas)                                                                                        \
	"-kernel name = k" #id "\n-kernel id = " #id "\n-grid dim = (" #ctas ",1,1)\n-block dim = (32,1,1)\n"   \
	"-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n"                               \
	"-shmem base_addr = 0x00007f0675000000\n-local mem base_addr = 0x00007f0677000000\n"                  \
	"-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"

static const char k1_text[] = HDR(1, 2) "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 4\n"
				  "0000 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x7f0000100000 4 0\n"
				  "0010 ffffffff 1 R3 LDG.E.SYS 1 R2 4 1 0x7f0000180000 4 0\n"
				  "0020 ffffffff 0 STG.E.SYS 2 R6 R3 4 1 0x7f0000200000 4 0\n"
				  "0030 ffffffff 0 EXIT 0 0 0\n\n#END_TB\n\n"
				  "#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 0\ninsts = 2\n"
				  "0040 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x7f0000200000 4 0\n"
				  "0030 ffffffff 0 EXIT 0 0 0\n\n#END_TB\n";

static const char k2_text[] = HDR(2, 2) "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 1\n"
				  "0010 ffffffff 0 EXIT 0 0 0\n\n#END_TB\n\n"
				  "#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 0\ninsts = 2\n"
				  "0000 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x7f0000200000 4 0\n"
				  "0010 ffffffff 0 EXIT 0 0 0\n\n#END_TB\n";

struct kf {
	struct trace_kernel *k[2];
	struct trace_view v[2];
	uint32_t first[3], soff[3];
	struct trace_multi m;
	struct workload wl;
	struct sim_cfg cfg;
	struct sim *s;
};

static bool kf_values; /* coherence.check_values for the next kf_start */

static bool kf_start(struct kf *t, const char *proto, const char *boundary)
{
	memset(t, 0, sizeof *t);
	cfg_defaults(&t->cfg);
	char *err = NULL;
	if (cfg_set_value(&t->cfg, "coherence.protocol", proto, &err) ||
	    cfg_set_value(&t->cfg, "coherence.kernel_boundary", boundary, &err) ||
	    cfg_set_value(&t->cfg, "coherence.check_values", kf_values ? "true" : "false", &err)) {
		fprintf(stderr, "%s\n", err);
		free(err);
		return false;
	}
	const char *txt[2] = {k1_text, k2_text};
	for (int i = 0; i < 2; i++) {
		t->k[i] = trace_index(txt[i], strlen(txt[i]), i ? "k2" : "k1", &err);
		if (!t->k[i]) {
			fprintf(stderr, "%s\n", err);
			free(err);
			return false;
		}
	}
	const struct trace_kernel *ks[2] = {t->k[0], t->k[1]};
	trace_multi_init(&t->m, t->v, t->first, t->soff, ks, 2, &t->cfg.trace);
	t->wl = (struct workload){.name = "kflush", .ops = &trace_multi_wl_ops, .impl = &t->m};
	t->s = sim_new(&t->cfg, &t->wl, &err);
	if (!t->s) {
		fprintf(stderr, "%s\n", err);
		free(err);
		return false;
	}
	events_log_all(sim_events(t->s), true);
	return true;
}

static void kf_end(struct kf *t)
{
	char *err = NULL;
	if (!sim_value_violation(t->s) && sim_check_invariants(t->s, &err))
		test_fail(__FILE__, __LINE__, "invariants: %s", err);
	free(err);
	sim_free(t->s);
	for (int i = 0; i < 2; i++)
		trace_free(t->k[i]);
}

static uint64_t stat(const struct sim *s, const char *name)
{
	const struct stats *st = sim_stats_c(s);
	int id = stats_find(st, name);
	return id < 0 ? UINT64_MAX : (uint64_t)stats_value(st, (uint32_t)id);
}

/* What happened around the boundary, from the event log. */
struct seen {
	uint64_t last_done_k0, start1;            /* last cta.done of kernel 1, kernel.start 1 */
	uint64_t flush[3];                         /* coh.kernel_flush a = 0, 1, 2 (UINT64_MAX: none) */
	int sm1_hit_x, sm1_gets_x;                 /* kernel 2: sm1's L1 hit on X, its GetS for X */
	uint64_t sm0_wtack_x, sm0_putn_x;          /* cycles: WTAck to sm0 for X, sm0's PutN of X */
	uint64_t sm1_fill_x;                       /* kernel 2: sm1's fill of X */
};

static void look(const struct sim *s, struct seen *o)
{
	memset(o, 0, sizeof *o);
	o->start1 = o->sm0_wtack_x = o->sm0_putn_x = o->sm1_fill_x = UINT64_MAX;
	for (int i = 0; i < 3; i++)
		o->flush[i] = UINT64_MAX;
	const struct events *ev = sim_events_c(s);
	uint64_t total = events_logged(ev);
	REQUIRE(total <= ev->cap); /* nothing dropped */
	for (uint64_t i = total; i-- > 0;) { /* oldest first */
		const struct event *e = events_recent(ev, i);
		REQUIRE(e != NULL);
		bool x = (e->addr & ~127ull) == X_ADDR, k2 = e->cycle >= o->start1 && o->start1 != UINT64_MAX;
		switch (e->kind) {
		case EV_CTA_DONE:
			if (e->a < 2)
				o->last_done_k0 = e->cycle > o->last_done_k0 ? e->cycle : o->last_done_k0;
			break;
		case EV_KERNEL_START:
			if (e->a == 1)
				o->start1 = e->cycle;
			break;
		case EV_COH_KFLUSH:
			if (e->a >= 0 && e->a < 3)
				o->flush[e->a] = e->cycle;
			break;
		case EV_L1_HIT:
			o->sm1_hit_x += e->sm == 1 && x && k2;
			break;
		case EV_L1_FILL:
			if (e->sm == 1 && x && k2)
				o->sm1_fill_x = e->cycle;
			break;
		case EV_COH_MSG:
			if (e->sm == 1 && x && k2 && e->a == CM_GETS)
				o->sm1_gets_x++;
			if (e->sm == 0 && x && e->a == CM_WT_ACK)
				o->sm0_wtack_x = e->cycle;
			if (e->sm == 0 && x && e->a == CM_PUTN)
				o->sm0_putn_x = e->cycle;
			break;
		default:
			break;
		}
	}
}

static void run(struct sim *s)
{
	while (!sim_done(s))
		sim_step(s, UINT64_MAX);
}

/* kernel 2 on sm1 sees kernel 1's write by sm0 (flush), or its stale copy (none) */
static void relaxed(const char *proto)
{
	struct kf f, n;
	REQUIRE(kf_start(&f, proto, "flush"));
	REQUIRE(kf_start(&n, proto, "none"));
	run(f.s);
	run(n.s);
	struct seen a, b;
	look(f.s, &a);
	look(n.s, &b);
	bool si = strcmp(proto, "si") == 0;
	/* none: sm1 hits the copy it took in kernel 1 (stale: sm0 wrote X since) */
	CHECK_EQ(b.sm1_hit_x, 1);
	CHECK_EQ(b.sm1_gets_x, 0);
	CHECK_EQ(stat(n.s, "coh.kernel_flush.cycles"), UINT64_MAX); /* no such stats */
	CHECK_EQ(b.flush[0], UINT64_MAX);
	/* flush: sm0's write is at the L2 before kernel 2 starts ... */
	if (si) {
		CHECK(a.sm0_wtack_x < a.start1);
	} else {
		CHECK(a.sm0_putn_x >= a.flush[0] && a.sm0_putn_x < a.flush[1]); /* written back by the release */
		CHECK_EQ(stat(f.s, "coh.kernel_flush.writebacks"), 1);
	}
	/* ... and sm1's kernel-2 load misses (its copy went at the acquire) and fetches X from the L2 */
	CHECK_EQ(a.sm1_hit_x, 0);
	CHECK_EQ(a.sm1_gets_x, 1);
	CHECK(a.sm1_fill_x != UINT64_MAX && a.sm1_fill_x > a.start1);
	CHECK(stat(f.s, "coh.kernel_flush.invalidations") >= 1);
	/* the boundary costs cycles: release, then the tag walk (one L1 set per cycle) */
	CHECK_EQ(stat(f.s, "coh.kernel_flush.boundaries"), 1);
	CHECK(a.flush[0] <= a.flush[1] && a.flush[1] < a.flush[2] && a.flush[2] == a.start1);
	CHECK(a.flush[0] >= a.last_done_k0);
	CHECK_EQ(stat(f.s, "coh.kernel_flush.cycles"), a.flush[2] - a.flush[0]);
	CHECK(a.flush[2] - a.flush[1] >= (uint64_t)f.cfg.l1.sets);
	CHECK(a.start1 - a.last_done_k0 > b.start1 - b.last_done_k0);
	CHECK_EQ(stat(f.s, "coh.errors"), 0);
	kf_end(&f);
	kf_end(&n);
}

TEST(coh_kernel_boundary_si_publishes_kernel1_writes) { relaxed("si"); }
TEST(coh_kernel_boundary_nmoesi_publishes_kernel1_writes) { relaxed("nmoesi"); }

TEST(coh_kernel_boundary_moesi_unaffected)
{
	struct kf f, n;
	REQUIRE(kf_start(&f, "moesi", "flush"));
	REQUIRE(kf_start(&n, "moesi", "none"));
	run(f.s);
	run(n.s);
	const struct stats *a = sim_stats_c(f.s), *b = sim_stats_c(n.s);
	REQUIRE(a->n == b->n);
	for (uint32_t i = 0; i < a->n; i++)
		if (stats_value(a, i) != stats_value(b, i))
			test_fail(__FILE__, __LINE__, "%s: %g with flush, %g with none", a->defs[i].name,
				  (double)stats_value(a, i), (double)stats_value(b, i));
	CHECK_EQ(stat(f.s, "coh.kernel_flush.boundaries"), UINT64_MAX);
	struct seen s;
	look(f.s, &s);
	CHECK_EQ(s.flush[0], UINT64_MAX);
	/* coherent: sm0's store invalidated sm1's copy in kernel 1 already */
	CHECK_EQ(s.sm1_hit_x, 0);
	CHECK_EQ(s.sm1_gets_x, 1);
	kf_end(&f);
	kf_end(&n);
}

/* Same state whether run in one go, cycle by cycle or in chunks, and
 * rewinding into the middle of the release or the acquire replays exactly. */
TEST(coh_kernel_boundary_deterministic_and_rewinds)
{
	const char *protos[] = {"si", "nmoesi"};
	for (int p = 0; p < 2; p++) {
		uint64_t h[3];
		struct seen s;
		for (int mode = 0; mode < 3; mode++) {
			struct kf f;
			REQUIRE(kf_start(&f, protos[p], "flush"));
			tk_run_mode(f.s, mode);
			h[mode] = sim_state_hash(f.s);
			if (mode == 0)
				look(f.s, &s);
			kf_end(&f);
		}
		CHECK(h[0] == h[1] && h[1] == h[2]);
		REQUIRE(s.flush[2] != UINT64_MAX);
		struct kf a, b;
		REQUIRE(kf_start(&a, protos[p], "flush"));
		REQUIRE(kf_start(&b, protos[p], "flush"));
		sim_snapshots_enable(b.s, 64u << 20);
		run(b.s);
		CHECK(sim_state_hash(b.s) == h[0]);
		uint64_t at[] = {s.flush[0] + 1, s.flush[1], s.flush[1] + 2, s.flush[2]};
		char *err = NULL;
		for (unsigned i = 0; i < 4; i++) {
			if (at[i] < sim_cycle(a.s))
				continue;
			sim_step(a.s, at[i] - sim_cycle(a.s));
			CHECK_EQ(sim_goto(b.s, at[i], &err), 0);
			CHECK(sim_state_hash(a.s) == sim_state_hash(b.s));
		}
		run(a.s);
		run(b.s);
		CHECK(sim_state_hash(a.s) == h[0]);
		CHECK(sim_state_hash(b.s) == h[0]);
		free(err);
		kf_end(&a);
		kf_end(&b);
	}
}

/* ---- coherence.check_values (engine/mem/coh_values.c) ---------------------- */

/* Run to the end; the first stop's cycle (UINT64_MAX: none) and message. */
static uint64_t run_values(struct sim *s, char *msg, size_t n)
{
	uint64_t first = UINT64_MAX;
	msg[0] = 0;
	while (!sim_done(s)) {
		enum sim_stop why = sim_step(s, UINT64_MAX);
		if (why == SIM_STOP_BREAK && first == UINT64_MAX) {
			first = sim_cycle(s);
			snprintf(msg, n, "%s", sim_value_violation(s) ? sim_value_violation(s) : "?");
		}
	}
	return first;
}

/* Kernel 2's load of X on sm1 must return sm0's kernel-1 store: with flush
 * it does (no violation, every stat as without the checking), with none sm1
 * reads its stale copy and the checker stops there. MOESI: none either way. */
static void values_boundary(const char *proto)
{
	bool relaxed = strcmp(proto, "moesi") != 0;
	char msg[400];
	const char *bnd[2] = {"flush", "none"};
	for (int b = 0; b < 2; b++) {
		struct kf v, o;
		kf_values = true;
		REQUIRE(kf_start(&v, proto, bnd[b]));
		kf_values = false;
		REQUIRE(kf_start(&o, proto, bnd[b]));
		uint64_t at = run_values(v.s, msg, sizeof msg);
		run(o.s);
		CHECK(stat(v.s, "coh.value_checks") >= 2); /* sm1's two loads of X at least */
		if (b == 1 && relaxed) {
			CHECK(at != UINT64_MAX);
			CHECK(stat(v.s, "coh.value_violations") >= 1);
			CHECK(strstr(msg, "sm 1 L1 load of line 0x7f0000200000 word 0") != NULL);
			CHECK(strstr(msg, "before the boundary") != NULL);
			CHECK(strstr(msg, "sm 0's last store") != NULL);
			struct seen s;
			look(v.s, &s);
			CHECK(s.start1 != UINT64_MAX && at > s.start1);
			if (getenv("COH_VERBOSE"))
				printf("  %s/none: %s\n", proto, msg);
		} else {
			CHECK_EQ(at, UINT64_MAX);
			CHECK_EQ(stat(v.s, "coh.value_violations"), 0);
			CHECK(sim_value_violation(v.s) == NULL);
			/* shadow state only: every stat of the run without checking is equal */
			const struct stats *a = sim_stats_c(o.s), *c = sim_stats_c(v.s);
			CHECK_EQ(a->n + 3, c->n);
			for (uint32_t i = 0; i < a->n; i++) {
				int j = stats_find(c, a->defs[i].name);
				if (j < 0 || stats_value(a, i) != stats_value(c, (uint32_t)j))
					test_fail(__FILE__, __LINE__, "%s/%s: %s differs with check_values", proto, bnd[b],
						  a->defs[i].name);
			}
			CHECK(sim_state_hash(o.s) != sim_state_hash(v.s)); /* the values are in the arena */
		}
		kf_end(&v);
		kf_end(&o);
	}
}

TEST(coh_values_kernel_boundary_si) { values_boundary("si"); }
TEST(coh_values_kernel_boundary_nmoesi) { values_boundary("nmoesi"); }
TEST(coh_values_kernel_boundary_moesi) { values_boundary("moesi"); }

/* The checker can fail: deliberately broken data movement (test hooks in
 * coh_values.c) is caught with flush, where the correct engine passes.
 * bug 1: SI write-throughs lose their values (sm0's store never reaches the
 * L2); bug 3: Puts lose them (NMOESI's release PutN); bug 2: AckDs lose them
 * (MOESI: sm0's M copy is recalled for sm1's kernel-2 read). */
TEST(coh_values_catches_broken_data_movement)
{
	static const struct {
		const char *proto;
		int bug;
	} c[] = {{"si", 1}, {"nmoesi", 3}, {"moesi", 2}};
	char msg[400];
	for (unsigned i = 0; i < 3; i++) {
		struct kf v;
		kf_values = true;
		REQUIRE(kf_start(&v, c[i].proto, "flush"));
		kf_values = false;
		sim_test_value_bug(v.s, c[i].bug);
		uint64_t at = run_values(v.s, msg, sizeof msg);
		if (at == UINT64_MAX)
			test_fail(__FILE__, __LINE__, "%s with bug %d: not caught", c[i].proto, c[i].bug);
		CHECK(stat(v.s, "coh.value_violations") >= 1);
		CHECK(strstr(msg, "line 0x7f0000200000") != NULL);
		if (getenv("COH_VERBOSE"))
			printf("  %s bug %d: %s\n", c[i].proto, c[i].bug, msg);
		kf_end(&v);
	}
}

/* Values are arena state: run in one go, per cycle or in chunks, and after
 * rewinding into the release, the same state hash. */
TEST(coh_values_deterministic_and_rewinds)
{
	const char *protos[] = {"si", "nmoesi", "moesi"};
	kf_values = true;
	for (int p = 0; p < 3; p++) {
		uint64_t h[3];
		for (int mode = 0; mode < 3; mode++) {
			struct kf f;
			REQUIRE(kf_start(&f, protos[p], "flush"));
			tk_run_mode(f.s, mode);
			h[mode] = sim_state_hash(f.s);
			CHECK_EQ(stat(f.s, "coh.value_violations"), 0);
			kf_end(&f);
		}
		CHECK(h[0] == h[1] && h[1] == h[2]);
		struct kf a, b;
		REQUIRE(kf_start(&a, protos[p], "flush"));
		REQUIRE(kf_start(&b, protos[p], "flush"));
		sim_snapshots_enable(b.s, 64u << 20);
		run(b.s);
		char *err = NULL;
		uint64_t at[] = {60, 150, 200, 240};
		for (unsigned i = 0; i < 4; i++) {
			sim_step(a.s, at[i] - sim_cycle(a.s));
			CHECK_EQ(sim_goto(b.s, at[i], &err), 0);
			CHECK(sim_state_hash(a.s) == sim_state_hash(b.s));
		}
		run(a.s);
		run(b.s);
		CHECK(sim_state_hash(a.s) == h[0]);
		CHECK(sim_state_hash(b.s) == h[0]);
		free(err);
		kf_end(&a);
		kf_end(&b);
	}
	kf_values = false;
}
