/*
 * test_memcpy.c: host-to-device copies (sim.h wl_copy, engine/mem/hostcopy.c,
 * l2.c l2_install_line) on hand-written traces: one warp loads (or stores)
 * a list of 128 B lines, one at a time (every load writes R2, so each waits
 * for the previous one), so the L2 hit counts follow from the copied ranges
 * alone. trace.memcpy = l2_fill against ignore, a copy larger than the L2, a
 * dirty victim written back, coherence and FRC, and determinism and rewind
 * across a copy made between two kernels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coh/coh.h"
#include "mem/coh_eng.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "debug/snapshot.h"
#include "test.h"
#include "trace/trace.h"

/* One CTA, one warp: a load (or a store) of every line in order, then EXIT. */
static char *mk_trace(const uint64_t *lines, int n, bool store)
{
	size_t cap = 256 + (size_t)n * 80, u = 0;
	char *t = malloc(cap);
	u += (size_t)snprintf(t + u, cap - u,
			      "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-nregs = 16\n"
			      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = %d\n",
			      n + 1);
	for (int i = 0; i < n; i++)
		u += (size_t)snprintf(t + u, cap - u,
				      store ? "%04x ffffffff 0 STG.E 2 R4 R2 4 1 0x%llx 4 0\n"
					    : "%04x ffffffff 1 R2 LDG.E 1 R4 4 1 0x%llx 4 0\n",
				      i * 16, (unsigned long long)lines[i]);
	snprintf(t + u, cap - u, "%04x ffffffff 0 EXIT 0 0\n#END_TB\n", n * 16);
	return t;
}

/* n consecutive lines from base */
static void seq(uint64_t *out, uint64_t base, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = base + (uint64_t)i * 128;
}

struct mt {
	char *text[2];
	struct trace_kernel *k[2];
	struct trace_view v[2];
	uint32_t first[3], soff[3];
	struct trace_multi m;
	struct workload wl;
	struct sim_cfg cfg;
	struct sim *s;
};

/* One SM, one L2 bank, fixed-latency memory; trace.memcpy as given. */
static void mt_cfg(struct mt *t, int mode)
{
	memset(t, 0, sizeof *t);
	tk_base_cfg(&t->cfg);
	t->cfg.trace.memcpy_mode = mode;
}

/* Index kernel i from its text (owned by t). */
static bool mt_kernel(struct mt *t, int i, char *text)
{
	char *err = NULL;
	t->text[i] = text;
	t->k[i] = trace_index(text, strlen(text), i ? "kernel-2.traceg" : "kernel-1.traceg", &err);
	if (!t->k[i]) {
		fprintf(stderr, "%s\n", err);
		free(err);
	}
	return t->k[i] != NULL;
}

/* The sim over the nk indexed kernels (back to back when 2) and the copies. */
static struct sim *mt_sim(struct mt *t, int nk, const struct wl_copy *c, uint32_t nc)
{
	char *err = NULL;
	if (nk == 1) {
		trace_view_init(&t->v[0], t->k[0], &t->cfg.trace);
		t->wl = (struct workload){.name = "one", .ops = &trace_wl_ops, .impl = &t->v[0]};
	} else {
		const struct trace_kernel *ks[2] = {t->k[0], t->k[1]};
		trace_multi_init(&t->m, t->v, t->first, t->soff, ks, 2, &t->cfg.trace);
		t->wl = (struct workload){.name = "two", .ops = &trace_multi_wl_ops, .impl = &t->m};
	}
	t->wl.copies = c;
	t->wl.ncopies = nc;
	t->s = sim_new(&t->cfg, &t->wl, &err);
	if (!t->s) {
		fprintf(stderr, "%s\n", err);
		free(err);
		return NULL;
	}
	events_log_all(sim_events(t->s), true);
	return t->s;
}

static void mt_free(struct mt *t)
{
	sim_free(t->s);
	for (int i = 0; i < 2; i++) {
		trace_free(t->k[i]);
		free(t->text[i]);
	}
}

static uint64_t st(const struct sim *s, const char *name)
{
	int id = stats_find(sim_stats_c(s), name);
	return id < 0 ? UINT64_MAX : (uint64_t)stats_value(sim_stats_c(s), (uint32_t)id);
}

static void run_checked(struct sim *s)
{
	char *err = NULL;
	CHECK_EQ(sim_step(s, 10000000), SIM_STOP_DONE);
	if (sim_check_invariants(s, &err)) {
		test_fail(__FILE__, __LINE__, "%s", err);
		free(err);
	}
}

/* The newest logged event of a kind, or NULL. */
static const struct event *last_event(const struct sim *s, unsigned kind, unsigned *count)
{
	const struct events *ev = sim_events_c(s);
	uint64_t total = events_logged(ev), avail = total < ev->cap ? total : ev->cap;
	const struct event *r = NULL;
	*count = 0;
	for (uint64_t i = 0; i < avail; i++) {
		const struct event *e = events_recent(ev, i);
		if (e->kind == kind) {
			if (!r)
				r = e;
			(*count)++;
		}
	}
	return r;
}

/* A copy of 1 KB at 0x10010 covers the 9 lines 0x10000 .. 0x10400 (it is not
 * line-aligned). The warp loads those 9 lines and 0x10480 (not copied). */
TEST(memcpy_l2_fill_makes_the_first_loads_hit_ignore_does_not)
{
	static const struct wl_copy c[] = {{.addr = 0x10010, .bytes = 1024, .kernel = 0, .line = 1}};
	uint64_t lines[10];
	seq(lines, 0x10000, 10);
	for (int mode = 0; mode < 2; mode++) {
		struct mt t;
		mt_cfg(&t, mode ? TRACE_MEMCPY_L2_FILL : TRACE_MEMCPY_IGNORE);
		REQUIRE(mt_kernel(&t, 0, mk_trace(lines, 10, false)));
		REQUIRE(mt_sim(&t, 1, c, 1));
		run_checked(t.s);
		CHECK_EQ(st(t.s, "trace.memcpy.copies"), 1);
		CHECK_EQ(st(t.s, "trace.memcpy.bytes"), 1024);
		CHECK_EQ(st(t.s, "l1.misses"), 10);
		CHECK_EQ(st(t.s, "l2.accesses"), 10);
		unsigned n;
		const struct event *e = last_event(t.s, EV_TRACE_MEMCPY, &n);
		REQUIRE(e);
		CHECK_EQ(n, 1);
		CHECK_EQ(e->cycle, 0); /* before the kernel's first CTA */
		CHECK_EQ(e->addr, 0x10010);
		CHECK_EQ(e->a, 1024);
		if (mode) {
			CHECK_EQ(st(t.s, "trace.memcpy.lines"), 9);
			CHECK_EQ(e->b, 9);
			CHECK_EQ(st(t.s, "l2.hits"), 9);
			CHECK_EQ(st(t.s, "l2.misses"), 1);
			CHECK_EQ(st(t.s, "mem.reads"), 1); /* only 0x10480 */
		} else {
			CHECK_EQ(st(t.s, "trace.memcpy.lines"), 0);
			CHECK_EQ(e->b, 0);
			CHECK_EQ(st(t.s, "l2.hits"), 0);
			CHECK_EQ(st(t.s, "mem.reads"), 10);
		}
		CHECK_EQ(st(t.s, "l2.fills"), mode ? 1 : 10); /* installs are not fills */
		mt_free(&t);
	}
}

/* A workload without copies has none of the trace.memcpy.* stats. */
TEST(memcpy_no_copies_no_stats)
{
	uint64_t lines[1] = {0x10000};
	struct mt t;
	mt_cfg(&t, TRACE_MEMCPY_L2_FILL);
	REQUIRE(mt_kernel(&t, 0, mk_trace(lines, 1, false)));
	REQUIRE(mt_sim(&t, 1, NULL, 0));
	run_checked(t.s);
	CHECK_EQ(st(t.s, "trace.memcpy.copies"), UINT64_MAX);
	CHECK_EQ(st(t.s, "l2.hits"), 0);
	mt_free(&t);
}

/* L2 of 4 sets x 2 ways x 128 B = 1 KB, linear index, LRU. A 4 KB copy at
 * 0x40000 installs 32 lines; line k goes to set k % 4, so each set keeps the
 * last two that map to it: exactly the last 1 KB (lines 24-31). The warp
 * loads lines 24-31 (8 hits), then 23 (a miss: it was evicted by 27). */
TEST(memcpy_larger_than_the_l2_keeps_the_last_capacity)
{
	static const struct wl_copy c[] = {{.addr = 0x40000, .bytes = 4096, .kernel = 0}};
	struct mt t;
	mt_cfg(&t, TRACE_MEMCPY_L2_FILL);
	t.cfg.l2.sets = 4;
	t.cfg.l2.ways = 2;
	uint64_t lines[9];
	seq(lines, 0x40000 + 24 * 128, 8);
	lines[8] = 0x40000 + 23 * 128;
	REQUIRE(mt_kernel(&t, 0, mk_trace(lines, 9, false)));
	REQUIRE(mt_sim(&t, 1, c, 1));
	sim_step(t.s, 1); /* the copy is made in cycle 0 */
	CHECK_EQ(st(t.s, "trace.memcpy.lines"), 32);
	const struct cache *l2 = &t.s->banks[0].c;
	int valid = 0;
	for (int i = 0; i < l2->sets * l2->ways; i++) {
		const struct cline *cl = &l2->l[i];
		if (!cl->valid)
			continue;
		valid++;
		CHECK(cl->tag >= 0x40000 + 3072 && cl->tag < 0x40000 + 4096);
		CHECK_EQ(cl->sd, 0);                   /* clean */
		CHECK_EQ(cl->sv, l2->all_sectors);     /* fully valid */
	}
	CHECK_EQ(valid, 8);
	run_checked(t.s);
	CHECK_EQ(st(t.s, "l2.hits"), 8);
	CHECK_EQ(st(t.s, "l2.misses"), 1);
	CHECK_EQ(st(t.s, "mem.reads"), 1);
	CHECK_EQ(st(t.s, "mem.writes"), 0); /* clean victims need no write-back */
	mt_free(&t);
}

/* Two kernels, the same 1 KB L2: kernel 1 stores to 8 lines at 0x80000,
 * which fill the L2 with dirty lines (lazy_fetch allocates them); a 1 KB copy
 * at 0x40000 before kernel 2 evicts all 8 and writes them back; kernel 2
 * loads the 8 copied lines: 8 L2 hits, no memory read. */
static bool two_kernels(struct mt *t, int mode, const struct wl_copy *c, uint32_t nc)
{
	mt_cfg(t, mode);
	t->cfg.l2.sets = 4;
	t->cfg.l2.ways = 2;
	uint64_t st_lines[8], ld_lines[8];
	seq(st_lines, 0x80000, 8);
	seq(ld_lines, 0x40000, 8);
	return mt_kernel(t, 0, mk_trace(st_lines, 8, true)) && mt_kernel(t, 1, mk_trace(ld_lines, 8, false)) &&
	       mt_sim(t, 2, c, nc);
}

static const struct wl_copy between[] = {{.addr = 0x40000, .bytes = 1024, .kernel = 1, .line = 2}};

TEST(memcpy_between_kernels_writes_dirty_victims_back)
{
	struct mt t;
	REQUIRE(two_kernels(&t, TRACE_MEMCPY_L2_FILL, between, 1));
	run_checked(t.s);
	CHECK_EQ(st(t.s, "trace.memcpy.lines"), 8);
	CHECK_EQ(st(t.s, "trace.memcpy.writebacks"), 8);
	CHECK_EQ(st(t.s, "trace.memcpy.skipped"), 0);
	CHECK_EQ(st(t.s, "l2.writebacks"), 8);
	CHECK_EQ(st(t.s, "mem.writes"), 8);
	CHECK_EQ(st(t.s, "mem.reads"), 0);
	CHECK_EQ(st(t.s, "l2.hits"), 8); /* kernel 2's loads */
	/* The copy comes after kernel 1 and before kernel 2 in the log. */
	unsigned n;
	const struct event *cp = last_event(t.s, EV_TRACE_MEMCPY, &n);
	REQUIRE(cp);
	CHECK_EQ(n, 1);
	const struct event *ks = last_event(t.s, EV_KERNEL_START, &n);
	REQUIRE(ks);
	CHECK_EQ(ks->a, 1);
	CHECK_EQ(cp->cycle, ks->cycle);
	CHECK(ks->cycle > 0);
	mt_free(&t);
	/* Ignored: kernel 2's 8 loads miss, evicting the dirty lines themselves. */
	REQUIRE(two_kernels(&t, TRACE_MEMCPY_IGNORE, between, 1));
	run_checked(t.s);
	CHECK_EQ(st(t.s, "l2.hits"), 0);
	CHECK_EQ(st(t.s, "mem.reads"), 8);
	CHECK_EQ(st(t.s, "trace.memcpy.writebacks"), 0);
	mt_free(&t);
}

TEST(memcpy_workload_errors_are_named)
{
	static const struct wl_copy late[] = {{.addr = 0, .bytes = 4, .kernel = 1, .line = 7}};
	static const struct wl_copy wrap[] = {{.addr = ~0ull - 3, .bytes = 8, .kernel = 0, .line = 3}};
	static const struct wl_copy order[] = {{.addr = 0, .bytes = 4, .kernel = 1, .line = 2},
					       {.addr = 0, .bytes = 4, .kernel = 0, .line = 5}};
	uint64_t lines[1] = {0x10000};
	struct mt t;
	char *err = NULL;
	mt_cfg(&t, TRACE_MEMCPY_L2_FILL);
	REQUIRE(mt_kernel(&t, 0, mk_trace(lines, 1, false)));
	trace_view_init(&t.v[0], t.k[0], &t.cfg.trace);
	t.wl = (struct workload){.name = "w", .ops = &trace_wl_ops, .impl = &t.v[0], .copies = late, .ncopies = 1};
	CHECK(sim_new(&t.cfg, &t.wl, &err) == NULL);
	CHECK_CONTAINS(err, "copy 1 (line 7) precedes kernel 2, the workload has 1");
	free(err);
	err = NULL;
	t.wl.copies = wrap;
	CHECK(sim_new(&t.cfg, &t.wl, &err) == NULL);
	CHECK_CONTAINS(err, "wraps around the address space");
	free(err);
	err = NULL;
	t.wl.copies = order;
	t.wl.ncopies = 2;
	CHECK(sim_new(&t.cfg, &t.wl, &err) == NULL);
	free(err);
	mt_free(&t);
}

/* Run in one go, one cycle at a time and in chunks: the same machine, with
 * copies before kernel 1 and between the kernels, on DRAM. */
static const struct wl_copy both[] = {{.addr = 0x80000, .bytes = 512, .kernel = 0, .line = 1},
				      {.addr = 0x40000, .bytes = 1024, .kernel = 1, .line = 3}};

TEST(memcpy_run_step_and_chunks_agree)
{
	uint64_t hash[3], cycles[3], wb[3];
	for (int mode = 0; mode < 3; mode++) {
		struct mt t;
		REQUIRE(two_kernels(&t, TRACE_MEMCPY_L2_FILL, both, 2));
		sim_free(t.s);
		t.cfg.mem.model = MEM_DRAM;
		REQUIRE(mt_sim(&t, 2, both, 2));
		tk_run_mode(t.s, mode);
		char *err = NULL;
		CHECK(sim_check_invariants(t.s, &err) == 0);
		free(err);
		hash[mode] = sim_state_hash(t.s);
		cycles[mode] = sim_cycle(t.s);
		wb[mode] = st(t.s, "trace.memcpy.writebacks");
		CHECK_EQ(st(t.s, "trace.memcpy.copies"), 2);
		CHECK_EQ(st(t.s, "trace.memcpy.lines"), 12);
		CHECK_EQ(st(t.s, "l2.hits"), 4 + 8); /* kernel 1's stores to the 4 copied lines, kernel 2's loads */
		mt_free(&t);
	}
	CHECK_EQ(cycles[0], cycles[1]);
	CHECK_EQ(cycles[0], cycles[2]);
	CHECK(hash[0] == hash[1]);
	CHECK(hash[0] == hash[2]);
	CHECK_EQ(wb[0], 8);
}

TEST(memcpy_rewind_across_a_copy_is_exact)
{
	struct mt a, b, c;
	REQUIRE(two_kernels(&c, TRACE_MEMCPY_L2_FILL, both, 2));
	run_checked(c.s);
	uint64_t boundary = st(c.s, "kernel0.cycles"), end = sim_cycle(c.s), end_hash = sim_state_hash(c.s);
	mt_free(&c);
	REQUIRE(boundary > 4 && boundary + 4 < end);
	REQUIRE(two_kernels(&a, TRACE_MEMCPY_L2_FILL, both, 2));
	REQUIRE(two_kernels(&b, TRACE_MEMCPY_L2_FILL, both, 2));
	sim_snapshots_enable(b.s, 64u << 20);
	while (!sim_done(b.s))
		sim_step(b.s, UINT64_MAX);
	CHECK(sim_state_hash(b.s) == end_hash);
	char *err = NULL;
	/* The copy before kernel 2 is made in the cycle kernel 2 starts: every
	 * point around it, reached by rewinding from the end and from cycle 0
	 * (before the first copy), equals a straight run. */
	uint64_t at[] = {1, boundary - 1, boundary, boundary + 1, boundary + 2, end - 1};
	for (unsigned i = 0; i < 6; i++) {
		sim_step(a.s, at[i] - sim_cycle(a.s));
		CHECK_EQ(sim_goto(b.s, at[i], &err), 0);
		CHECK_EQ(sim_cycle(b.s), at[i]);
		CHECK(sim_state_hash(a.s) == sim_state_hash(b.s));
		CHECK_EQ(st(a.s, "trace.memcpy.lines"), st(b.s, "trace.memcpy.lines"));
		CHECK_EQ(sim_goto(b.s, 0, &err), 0);
		CHECK_EQ(st(b.s, "trace.memcpy.copies"), 0);
		CHECK_EQ(sim_goto(b.s, at[i], &err), 0);
		CHECK(sim_state_hash(a.s) == sim_state_hash(b.s));
	}
	while (!sim_done(a.s))
		sim_step(a.s, UINT64_MAX);
	CHECK(sim_state_hash(a.s) == end_hash);
	CHECK_EQ(st(a.s, "trace.memcpy.copies"), 2);
	free(err);
	mt_free(&a);
	mt_free(&b);
}

/* MOESI: kernel 1 loads 0x40000 and 0x40080, so SM 0's L1 holds them and the
 * directory lists it. A copy of 0x40000-0x401ff before kernel 2 leaves those
 * two alone (their L1 copies would need invalidating) and installs the other
 * two with no sharer; kernel 2 loads all four: the two in the L1 hit there,
 * the two copied ones hit in the L2. */
TEST(memcpy_with_coherence_installs_lines_without_sharers)
{
	static const struct wl_copy c[] = {{.addr = 0x40000, .bytes = 512, .kernel = 1}};
	struct mt t;
	mt_cfg(&t, TRACE_MEMCPY_L2_FILL);
	t.cfg.l2.coh.protocol = COH_MOESI;
	uint64_t l1[2], l2[4];
	seq(l1, 0x40000, 2);
	seq(l2, 0x40000, 4);
	REQUIRE(mt_kernel(&t, 0, mk_trace(l1, 2, false)));
	REQUIRE(mt_kernel(&t, 1, mk_trace(l2, 4, false)));
	REQUIRE(mt_sim(&t, 2, c, 1));
	while (st(t.s, "trace.memcpy.copies") == 0 && !sim_done(t.s))
		sim_step(t.s, 1);
	CHECK_EQ(st(t.s, "trace.memcpy.lines"), 2);
	CHECK_EQ(st(t.s, "trace.memcpy.skipped"), 2);
	struct l2bank *b = &t.s->banks[0];
	for (int i = 2; i < 4; i++) {
		int set = l2_bank_set(t.s, b, l2[i]), way = cache_find(&b->c, set, l2[i]);
		REQUIRE(way >= 0);
		CHECK(!coh_l2_holders(b, set, way));
	}
	uint64_t hits_before = st(t.s, "l2.hits");
	run_checked(t.s);
	CHECK_EQ(st(t.s, "l2.hits") - hits_before, 2);
	CHECK_EQ(st(t.s, "mem.reads"), 2); /* kernel 1's two lines only */
	mt_free(&t);
}

/* With an FRC the copied lines are in the L2 proper: the same hits. */
TEST(memcpy_with_an_frc_hits_the_same)
{
	static const struct wl_copy c[] = {{.addr = 0x10000, .bytes = 1024, .kernel = 0}};
	uint64_t lines[10];
	seq(lines, 0x10000, 10);
	struct mt t;
	mt_cfg(&t, TRACE_MEMCPY_L2_FILL);
	t.cfg.l2.frc.entries = 8;
	REQUIRE(mt_kernel(&t, 0, mk_trace(lines, 10, false)));
	REQUIRE(mt_sim(&t, 1, c, 1));
	run_checked(t.s);
	CHECK_EQ(st(t.s, "l2.hits"), 8);
	CHECK_EQ(st(t.s, "frc.allocs"), 2);
	mt_free(&t);
}

/* trace.memcpy = l2_fill_addr32 (Accel-Sim): a copy of 512 B at
 * 0x7f0000010010 is walked in 32-byte steps (0x...10010, 0x...10030, ...,
 * 0x...101f0), each kept in 32 bits and installing the line of its own
 * address: the 4 lines 0x10000 .. 0x10180 (the copy's tail in 0x10200 starts
 * no step, as in GPGPU-Sim), not the kernel's lines above 4 GB. A copy of
 * 256 B at 0x1ffffff80 crosses 8 GB: its steps land on 0xffffff80 and, after
 * the wrap, on line 0. l2_fill installs the real lines instead (5 + 2). */
TEST(memcpy_l2_fill_addr32_lands_on_the_low_32_bits)
{
	static const struct wl_copy c[] = {{.addr = 0x7f0000010010ull, .bytes = 512, .kernel = 0, .line = 1},
					   {.addr = 0x1ffffff80ull, .bytes = 256, .kernel = 0, .line = 2}};
	uint64_t lines[16];
	seq(lines, 0x7f0000010000ull, 5); /* the real lines of the first copy */
	seq(lines + 5, 0x10000, 5);       /* their low 32 bits */
	lines[10] = 0xffffff80;           /* the second copy's first step, kept in 32 bits */
	lines[11] = 0;                    /* its fifth step, 0x200000000, kept in 32 bits */
	lines[12] = 0x80;                 /* beyond the copy */
	lines[13] = 0x1ffffff80ull;       /* the real lines of the second copy */
	lines[14] = 0x200000000ull;
	lines[15] = 0x10280;              /* never copied */
	for (int mode = 0; mode < 2; mode++) {
		struct mt t;
		mt_cfg(&t, mode ? TRACE_MEMCPY_L2_FILL_ADDR32 : TRACE_MEMCPY_L2_FILL);
		/* Each half of the list alone, so a hit says which lines the copy installed. */
		for (int half = 0; half < 2; half++) {
			uint64_t part[16];
			int n = 0;
			for (int i = 0; i < 16; i++)
				if ((i < 5 || i == 13 || i == 14) == (half == 0))
					part[n++] = lines[i];
			REQUIRE(mt_kernel(&t, 0, mk_trace(part, n, false)));
			REQUIRE(mt_sim(&t, 1, c, 2));
			run_checked(t.s);
			CHECK_EQ(st(t.s, "trace.memcpy.lines"), mode ? 4 + 2 : 5 + 2);
			CHECK_EQ(st(t.s, "l2.accesses"), n);
			if (half == 0) /* the real lines: l2_fill has all 7, addr32 none */
				CHECK_EQ(st(t.s, "l2.hits"), mode ? 0 : 5 + 2);
			else /* the low lines: addr32 has 0x10000 .. 0x10180, 0xffffff80 and 0 */
				CHECK_EQ(st(t.s, "l2.hits"), mode ? 4 + 2 : 0);
			if (!half) {
				mt_free(&t);
				mt_cfg(&t, mode ? TRACE_MEMCPY_L2_FILL_ADDR32 : TRACE_MEMCPY_L2_FILL);
			}
		}
		mt_free(&t);
	}
}
