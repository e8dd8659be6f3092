/*
 * test_dram_trace.c: DRAM behaviour over request streams (row-buffer
 * locality, schedulers, page policies, exact skip-ahead) and the DRAM-trace
 * reader and runner.
 */
#include <stdio.h>
#include <unistd.h>

#include "dram/dram_trace.h"
#include "sim/sim.h"
#include "debug/snapshot.h"
#include "test_dram_harness.h"

#define NREQ 2048

static struct dh_req reqs[NREQ];

static void seq_trace(struct dh *h, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		reqs[i] = (struct dh_req){(uint64_t)i * (uint64_t)h->cfg.l2.line, false};
}

static void random_trace(uint32_t n, uint64_t span, double write_frac, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	for (uint32_t i = 0; i < n; i++)
		reqs[i] = (struct dh_req){rng_below(&r, span) & ~(uint64_t)63, rng_below(&r, 1000) < write_frac * 1000};
}

TEST(dram_sequential_row_hit_rate)
{
	struct dh h;
	dh_cfg(&h.cfg);
	REQUIRE(dh_init(&h));
	seq_trace(&h, NREQ);
	dh_feed(&h, reqs, NREQ, true);
	/* 2 KB rows / 64 B lines = 32 lines per row: 1 - 1/32 */
	CHECK_NEAR(dh_value(&h, "dram.row_hit_rate"), 1.0 - 1.0 / 32, 0.002);
	CHECK_EQ(dh_stat(&h, "dram.reads"), NREQ);
	CHECK_EQ(h.ndone, NREQ);
	dh_fini(&h);
}

TEST(dram_random_mostly_conflicts)
{
	struct dh h;
	dh_cfg(&h.cfg);
	REQUIRE(dh_init(&h));
	random_trace(NREQ, 64u << 20, 0.0, 7);
	dh_feed(&h, reqs, NREQ, true);
	CHECK(dh_stat(&h, "dram.row_conflicts") > NREQ * 8 / 10);
	CHECK(dh_stat(&h, "dram.row_hits") < NREQ / 20);
	dh_fini(&h);
}

/* Two streams, each walking its own row of bank 0, interleaved request by request. */
static void mixed_trace(struct dh *h, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		unsigned stream = i & 1, k = i / 2;
		unsigned row = stream * 8 + (k / 32) % 8, col = (k % 32) * 4;
		reqs[i] = (struct dh_req){dh_addr(h, 0, 0, row, col), false};
	}
}

TEST(dram_frfcfs_beats_fcfs)
{
	struct dh a, b;
	dh_cfg(&a.cfg);
	a.cfg.dram.scheduler = DRAM_SCHED_FCFS;
	REQUIRE(dh_init(&a));
	mixed_trace(&a, 1024);
	dh_feed(&a, reqs, 1024, true);
	dh_cfg(&b.cfg);
	b.cfg.dram.scheduler = DRAM_SCHED_FRFCFS;
	REQUIRE(dh_init(&b));
	mixed_trace(&b, 1024);
	dh_feed(&b, reqs, 1024, true);
	CHECK(dh_stat(&b, "dram.row_hits") > 2 * dh_stat(&a, "dram.row_hits"));
	CHECK(dh_value(&b, "dram.read_latency_mean") < dh_value(&a, "dram.read_latency_mean"));
	CHECK(b.now < a.now);
	dh_fini(&a);
	dh_fini(&b);
}

TEST(dram_row_hit_cap_bounds_starvation)
{
	/* With a cap of 4 an old conflicting request waits for at most 4 hits. */
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.row_hit_cap = 4;
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
	dh_run(&h, 1, false);
	dram_enqueue(h.d, dh_addr(&h, 0, 0, 2, 0), false, 1); /* conflict, old */
	for (unsigned i = 0; i < 10; i++)
		dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 4 + 4 * i), false, 2 + i);
	dh_run(&h, 0, false);
	unsigned before = 0;
	for (unsigned i = 0; i < 10; i++)
		before += h.done_at[2 + i] < h.done_at[1];
	CHECK_EQ(before, 3); /* the first request used one of the 4 */
	dh_fini(&h);
}

TEST(dram_closed_page_turns_hits_into_misses)
{
	struct dh h;
	dh_cfg(&h.cfg);
	h.cfg.dram.page_policy = DRAM_PAGE_CLOSED;
	REQUIRE(dh_init(&h));
	seq_trace(&h, 512);
	dh_feed(&h, reqs, 512, true);
	CHECK_EQ(dh_stat(&h, "dram.row_hits"), 0);
	CHECK_EQ(dh_stat(&h, "dram.row_misses"), 512);
	CHECK_EQ(dh_stat(&h, "dram.precharges"), 512);
	dh_fini(&h);
}

static void compare_modes(struct sim_cfg *cfg, double write_frac, uint64_t seed)
{
	static struct dh a, b;
	a.cfg = *cfg;
	b.cfg = *cfg;
	REQUIRE(dh_init(&a));
	REQUIRE(dh_init(&b));
	random_trace(NREQ, 1u << 20, write_frac, seed);
	/* spread arrivals: a burst, a pause long enough for refreshes, a burst */
	dh_feed(&a, reqs, NREQ / 2, false);
	dh_feed(&b, reqs, NREQ / 2, true);
	CHECK_EQ(a.now, b.now);
	a.now += 5000;
	b.now += 5000;
	dh_feed(&a, reqs + NREQ / 2, NREQ / 2, false);
	dh_feed(&b, reqs + NREQ / 2, NREQ / 2, true);
	CHECK_EQ(a.now, b.now);
	dram_tick(a.d);
	dram_tick(b.d);
	for (uint32_t i = 0; i < NREQ / 2; i++)
		CHECK_EQ(a.done_at[i], b.done_at[i]);
	REQUIRE(a.st.n == b.st.n);
	unsigned diff = 0;
	for (uint32_t i = 0; i < a.st.n; i++)
		if (stats_value(&a.st, i) != stats_value(&b.st, i)) {
			if (!diff++)
				test_fail(__FILE__, __LINE__, "stat %s: %g (every cycle) vs %g (skip)", a.st.defs[i].name,
					  stats_value(&a.st, i), stats_value(&b.st, i));
		}
	CHECK_EQ(diff, 0);
	CHECK(dh_stat(&a, "dram.requests") == NREQ);
	dh_fini(&a);
	dh_fini(&b);
}

TEST(dram_skip_ahead_is_exact)
{
	struct sim_cfg c;
	dh_cfg(&c);
	c.dram.refresh = DRAM_REFRESH_ALL_BANK;
	c.dram.timing.tREFI = 300;
	c.dram.write_high = 12;
	c.dram.write_low = 4;
	compare_modes(&c, 0.3, 11);

	dh_cfg(&c);
	c.dram.refresh = DRAM_REFRESH_PER_BANK;
	c.dram.timing.tREFI = 800;
	c.dram.page_policy = DRAM_PAGE_TIMEOUT;
	c.dram.page_timeout = 30;
	c.dram.tck_ps = 1337; /* non-integer ratio */
	c.dram.channels = 2;
	c.dram.ranks = 2;
	c.dram.bank_groups = 2;
	c.dram.timing.tCCD_L = 5;
	c.dram.timing.tRRD_L = 3;
	c.dram.timing.tWTR_L = 3;
	strcpy(c.dram.mapping, "row:rank:bank:ch:col");
	c.dram.bank_xor = true;
	compare_modes(&c, 0.5, 12);

	dh_cfg(&c);
	c.dram.scheduler = DRAM_SCHED_FCFS;
	c.dram.page_policy = DRAM_PAGE_CLOSED;
	c.dram.tck_ps = 667;
	c.core.clock_mhz = 1400;
	compare_modes(&c, 0.2, 13);

	/* the DRAMSim3 rules: per-bank command queues, full_or_idle drain,
	 * tRCDWR, tPPD, t32AW, refresh, two channels at a non-integer ratio */
	dh_cfg(&c);
	c.dram.queue_model = DRAM_QUEUE_PER_BANK;
	c.dram.cmd_queue = 3;
	c.dram.write_drain = DRAM_DRAIN_FULL_OR_IDLE;
	c.dram.row_hit_cap = 4;
	c.dram.refresh = DRAM_REFRESH_ALL_BANK;
	c.dram.timing.tREFI = 300;
	c.dram.timing.tRCDWR = 3;
	c.dram.timing.tPPD = 2;
	c.dram.timing.t32AW = 40;
	c.dram.channels = 2;
	c.dram.tck_ps = 667;
	c.core.clock_mhz = 1400;
	compare_modes(&c, 0.3, 14);
}

TEST(dram_default_config_read)
{
	/* Built-in GDDR5 (thesis DRAMSim2 set): 128 B line = 2 bursts of 64 B
	 * (4 B x BL16, tBL 8). RD at tRCD 18 and 26 (bus), data ends at
	 * 26 + tCL 18 + 8 = 52 DRAM cycles = 34.7 ns -> core cycle 35 at 1 GHz. */
	struct dh h;
	cfg_defaults(&h.cfg);
	REQUIRE(dh_init(&h));
	dram_enqueue(h.d, 0x12340000, false, 0);
	dh_run(&h, 0, true);
	CHECK_EQ(h.done_at[0], 35);
	dh_fini(&h);
}

static char *write_tmp(const char *text)
{
	char *path = xstrdup("/tmp/gpustep_dtrace_XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return path;
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

TEST(dram_trace_formats_and_errors)
{
	char *err = NULL;
	char *p = write_tmp("# comment\n0x1000 READ 0\n\n0x2000 WRITE 10\n0x3000 read 10\n");
	struct dram_trace *t = dram_trace_open(p, NULL, &err);
	REQUIRE(t);
	CHECK_EQ(dram_trace_format(t), DTF_DRAMSIM);
	CHECK_EQ(dram_trace_count(t), 3);
	struct dram_trace_rec r;
	CHECK_EQ(dram_trace_next(t, &r), 1);
	CHECK_EQ(r.addr, 0x1000);
	CHECK_EQ(dram_trace_next(t, &r), 1);
	CHECK(r.is_write && r.cycle == 10);
	dram_trace_close(t);
	unlink(p);
	free(p);

	p = write_tmp("LD 0x40\nST 0x80\nLD 0xc0\n");
	t = dram_trace_open(p, NULL, &err);
	REQUIRE(t);
	CHECK_EQ(dram_trace_format(t), DTF_RAMULATOR);
	CHECK_EQ(dram_trace_count(t), 3);
	dram_trace_close(t);
	unlink(p);
	free(p);

	p = write_tmp("0x1000 READ 0\n0x2000 WRITE 10\n0x3000 FETCH 12\n");
	CHECK(!dram_trace_open(p, NULL, &err));
	char want[256];
	snprintf(want, sizeof want, "%s:3: expected \"ADDR READ|WRITE CYCLE\"", p);
	CHECK_CONTAINS(err, want);
	free(err);
	err = NULL;
	unlink(p);
	free(p);

	p = write_tmp("LD 0x40\nLD zz\n");
	CHECK(!dram_trace_open(p, NULL, &err));
	CHECK_CONTAINS(err, ":2: expected a hex address");
	free(err);
	err = NULL;
	unlink(p);
	free(p);
}

TEST(dram_trace_run_batch)
{
	struct strbuf sb;
	sb_init(&sb);
	for (unsigned i = 0; i < 1000; i++)
		sb_printf(&sb, "0x%x %s %u\n", i * 128, i % 4 == 3 ? "WRITE" : "READ", i * 2);
	char *p = write_tmp(sb.s);
	sb_fini(&sb);
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	struct dram_trace_run *r = dram_trace_run(&c, p, &err);
	REQUIRE(r);
	CHECK_EQ(r->requests, 1000);
	CHECK_EQ(r->writes, 250);
	CHECK(r->now >= 1998);
	CHECK(dram_idle(r->dram));
	int id = stats_find(&r->stats, "dram.row_hit_rate");
	REQUIRE(id >= 0);
	CHECK(stats_value(&r->stats, (uint32_t)id) > 0.9);
	struct strbuf out;
	sb_init(&out);
	dram_trace_summary(r, &out);
	CHECK_CONTAINS(out.s, "1000 requests (750 reads, 250 writes)");
	sb_fini(&out);
	dram_trace_run_free(r);
	unlink(p);
	free(p);
}

TEST(dram_trace_without_requests_refused)
{
	char *err = NULL;
	char *p = write_tmp("# only a comment\n\n   \n");
	CHECK(!dram_trace_open(p, NULL, &err));
	CHECK_CONTAINS(err, ": no requests");
	free(err);
	err = NULL;
	CHECK(!dram_trace_load(p, NULL, &err));
	CHECK_CONTAINS(err, ": no requests");
	free(err);
	unlink(p);
	free(p);
}

/* A mixed DRAMSim trace: bursts that overfill the queues, a gap, reads and
 * writes over a few rows of every bank. */
static char *mixed_file(unsigned n)
{
	struct strbuf sb;
	sb_init(&sb);
	struct rng r;
	rng_seed(&r, 11);
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = i % 3 ? (uint64_t)i * 64 : rng_below(&r, 8u << 20);
		sb_printf(&sb, "0x%llx %s %u\n", (unsigned long long)a, rng_below(&r, 10) < 3 ? "WRITE" : "READ",
			  i < n / 2 ? i / 8 : 4000 + i);
	}
	char *p = write_tmp(sb.s);
	sb_fini(&sb);
	return p;
}

static struct sim *dram_only_sim(const struct sim_cfg *c, const struct dram_reqs *q, struct workload *wl)
{
	memset(wl, 0, sizeof *wl);
	snprintf(wl->name, sizeof wl->name, "dtrace");
	wl->dram_reqs = q;
	char *err = NULL;
	struct sim *s = sim_new(c, wl, &err);
	if (!s)
		fprintf(stderr, "sim_new: %s\n", err);
	free(err);
	return s;
}

/* The simulator's DRAM-trace mode gives the batch runner's dram.* stats, and
 * the same state whether run, stepped cycle by cycle, or rewound. */
TEST(dram_trace_sim_matches_batch_and_rewinds)
{
	char *p = mixed_file(600);
	struct sim_cfg c;
	cfg_defaults(&c);
	c.dram.channels = 2;
	c.mem.model = MEM_FIXED; /* a DRAM trace builds the DRAM anyway */
	char *err = NULL;
	struct dram_trace_run *r = dram_trace_run(&c, p, &err);
	REQUIRE(r);
	struct dram_reqs *q = dram_trace_load(p, NULL, &err);
	REQUIRE(q);
	CHECK_EQ(q->n, 600);
	struct workload wa, wb;
	struct sim *a = dram_only_sim(&c, q, &wa), *b = dram_only_sim(&c, q, &wb);
	REQUIRE(a && b);
	CHECK(sim_dram_only(a));
	CHECK_EQ(sim_step(a, UINT64_MAX), SIM_STOP_DONE);
	CHECK_EQ(sim_cycle(a), r->now); /* both count cycles completed, the last completion's included */
	const struct stats *sa = sim_stats_c(a);
	unsigned compared = 0;
	for (uint32_t i = 0; i < stats_count(&r->stats); i++) {
		const char *name = stats_def(&r->stats, i)->name;
		int id = stats_find(sa, name);
		REQUIRE(id >= 0);
		bool occ = stats_def(&r->stats, i)->kind == STAT_OCC;
		if (stats_value(&r->stats, i) != stats_value(sa, (uint32_t)id) ||
		    (occ && stats_occ(&r->stats, i)->integral != stats_occ(sa, (uint32_t)id)->integral))
			test_fail(__FILE__, __LINE__, "%s: batch %g, sim %g", name, stats_value(&r->stats, i),
				  stats_value(sa, (uint32_t)id));
		compared++;
	}
	CHECK(compared > 20); /* every stat equal, occupancy means and integrals included */
	CHECK_EQ(stats_value(sa, (uint32_t)stats_find(sa, "dram_trace.completed")), 600);
	CHECK(stats_value(sa, (uint32_t)stats_find(sa, "dram.queue_full")) > 0);
	/* Stepped one cycle at a time, with rewinds on the way. */
	sim_snapshots_enable(b, 4u << 20);
	while (!sim_done(b)) {
		sim_step(b, 1);
		if (sim_cycle(b) == 900) {
			uint64_t h = sim_state_hash(b);
			REQUIRE(sim_goto(b, 123, &err) == 0);
			REQUIRE(sim_goto(b, 900, &err) == 0);
			CHECK_EQ(sim_state_hash(b), h);
		}
	}
	CHECK_EQ(sim_cycle(b), sim_cycle(a));
	CHECK_EQ(sim_state_hash(b), sim_state_hash(a));
	REQUIRE(sim_goto(b, 300, &err) == 0);
	CHECK_EQ(stats_value(sim_stats_c(b), (uint32_t)stats_find(sim_stats_c(b), "sim.cycles")), 300);
	sim_step(b, UINT64_MAX);
	CHECK_EQ(sim_state_hash(b), sim_state_hash(a));
	sim_free(a);
	sim_free(b);
	dram_reqs_free(q);
	dram_trace_run_free(r);
	unlink(p);
	free(p);
}
