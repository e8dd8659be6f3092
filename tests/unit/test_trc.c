/*
 * test_trc.c: `.trc` thread-address traces (engine/reuse/trc.h): parsing (good
 * files, malformed lines, truncation at every byte), replay as a workload
 * (instruction stream of a warp, counts in the simulator), the model's input
 * from the same trace, and the note's TV8 (stride check, exact), TV9 (MSHR
 * micro-benchmark: not reproducible by the model, see below) and TV11 (MSHR
 * relevance, qualitative: reproduced for 256 and 512 threads only).
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "reuse/rdmodel.h"
#include "simtest.h"
#include "sim/stats.h"
#include "test.h"
#include "reuse/trc.h"
#include "sim/util.h"

static struct trc *parse(const char *s, char **err) { return trc_parse(s, strlen(s), "t.trc", err); }

/* Warp 0: t0 ld 0, ld 4096, ld 0; t1 ld 4, st 8192; t2 ld 256 (8 B).
 * Warp 1: t32 ld 128, t33 ld 132. Block 1: t64 ld 0 (its warp 1 is empty). */
static const char tiny[] = "# a comment\n"
			   "blocksize: 64 1 1\n"
			   "0 0 0 4\n"
			   "33 0 132 4\n"
			   "1 0 4 4\r\n"
			   "2 0 0x100 8\n"
			   "\n"
			   "0 0 4096 4\n"
			   "32 0 128 4\n"
			   "1 1 8192 4\n"
			   "64 0 0 4\n"
			   "0 0 0 4"; /* no final newline */

TEST(trc_parse_good_file)
{
	char *err = NULL;
	struct trc *t = parse(tiny, &err);
	CHECK(t != NULL);
	if (!t) {
		free(err);
		return;
	}
	const struct trc_info *in = trc_get_info(t);
	CHECK_EQ(in->tpb, 64);
	CHECK_EQ(in->threads, 65);
	CHECK_EQ(in->blocks, 2);
	CHECK_EQ(in->accesses, 9);
	CHECK_EQ(in->loads, 8);
	CHECK_EQ(in->stores, 1);
	CHECK_EQ(in->max_per_thread, 3);
	uint32_t n;
	const struct trc_acc *a = trc_thread(t, 0, &n); /* file order within a thread */
	CHECK_EQ(n, 3);
	CHECK_EQ(a[0].addr, 0);
	CHECK_EQ(a[1].addr, 4096);
	CHECK_EQ(a[2].addr, 0);
	a = trc_thread(t, 2, &n);
	CHECK_EQ(n, 1);
	CHECK_EQ(a[0].addr, 256);
	CHECK_EQ(a[0].bytes, 8);
	a = trc_thread(t, 1, &n);
	CHECK_EQ(a[1].store, 1);
	trc_thread(t, 40, &n);
	CHECK_EQ(n, 0);
	trc_free(t);
	t = parse("blocksize 2 2 1\n3 0 12 16\n", &err); /* no colon */
	CHECK(t && trc_get_info(t)->tpb == 4 && trc_get_info(t)->blocks == 1);
	trc_free(t);
}

TEST(trc_malformed_files_name_file_line_and_expectation)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"", "t.trc:1: empty file: expected the header 'blocksize: X Y Z'"},
		{"\n# only a comment\n", "empty file"},
		{"0 0 0 4\n", "t.trc:1: column 1: expected the header 'blocksize: X Y Z', got '0'"},
		{"blocksize: 32 1\n", "t.trc:1: column 16: expected the block size Z, got 'end of line'"},
		{"blocksize: 32 0 1\n", "the block size Y must be 1 to 65536, got 0"},
		{"blocksize: 1024 1024 1\n", "block of 1048576 threads, at most 65536"},
		{"blocksize: 32 1 1 x\n", "column 19: expected end of line after 'blocksize X Y Z', got 'x'"},
		{"blocksize: 32 1 1\n", "t.trc:1: no accesses after the header"},
		{"blocksize: 32 1 1\n0 0 0 4\n0 2 0 4\n", "t.trc:3: column 3: expected a direction (0 load, 1 store), got 2"},
		{"blocksize: 32 1 1\n0 0 0 3\n", "t.trc:2: column 7: expected an access size of 1, 2, 4, 8 or 16 bytes, got 3"},
		{"blocksize: 32 1 1\n0 0 zz 4\n", "t.trc:2: column 5: expected a byte address, got 'zz'"},
		{"blocksize: 32 1 1\n-1 0 0 4\n", "expected a thread id, got '-1'"},
		{"blocksize: 32 1 1\n99999999 0 0 4\n", "thread id 99999999 out of range"},
		{"blocksize: 32 1 1\n0 0 0 4 5\n", "expected end of line after 'thread dir addr bytes', got '5'"},
		{"blocksize: 32 1 1\n0 0 99999999999999999999 4\n", "expected a byte address"},
		{"blocksize: 32 1 1\n0 0 0 4\n1 0 12", "t.trc:3: column 7: expected an access size in bytes, got 'end of file (truncated?)'"},
		{"blocksize: 32 1 1\n0 0 0 4\n1 0\n", "t.trc:3: column 4: expected a byte address, got 'end of line'"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *err = NULL;
		struct trc *t = parse(bad[i].text, &err);
		CHECK(t == NULL);
		CHECK_CONTAINS(err, bad[i].msg);
		free(err);
		trc_free(t);
	}
}

TEST(trc_truncated_at_every_byte_parses_or_fails_cleanly)
{
	size_t len = strlen(tiny);
	for (size_t n = 0; n < len; n++) {
		char *buf = xmalloc(n + 1); /* exact size: the sanitizers catch overreads */
		memcpy(buf, tiny, n);
		char *err = NULL;
		struct trc *t = trc_parse(buf, n, "t.trc", &err);
		CHECK(t != NULL || (err && strncmp(err, "t.trc:", 6) == 0));
		if (t)
			CHECK(trc_get_info(t)->accesses <= 9);
		free(err);
		trc_free(t);
		free(buf);
	}
}

TEST(trc_replay_instruction_stream)
{
	char *err = NULL;
	struct trc *t = parse(tiny, &err);
	CHECK(t != NULL);
	if (!t)
		return;
	const struct wl_ops *o = &trc_wl_ops;
	CHECK_EQ(o->ctas(t), 2);
	CHECK_EQ(o->threads_per_cta(t), 64);
	struct kwarp w;
	struct winst *in = xmalloc(sizeof *in);
	o->warp_start(t, &w, 0, 0, 32);
	CHECK_EQ(w.full_mask, 0xffffffffull);
	/* index 0 splits by size (4 B lanes 0-1, then 8 B lane 2); index 1 by
	 * direction; index 2 only thread 0 */
	static const struct {
		unsigned op, size;
		uint64_t active, a0;
		unsigned nsrc;
	} want[] = {
		{KOP_LD, 4, 0x3, 0, 0}, {KOP_LD, 8, 0x4, 0, 1}, {KOP_LD, 4, 0x1, 4096, 1},
		{KOP_ST, 4, 0x2, 0, 1}, {KOP_LD, 4, 0x1, 0, 1},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		CHECK(o->warp_next(t, &w, in));
		CHECK_EQ(in->op, want[i].op);
		CHECK_EQ(in->size, want[i].size);
		CHECK_EQ(in->active, want[i].active);
		CHECK_EQ(in->nsrc, want[i].nsrc);                  /* waits for the previous load */
		CHECK_EQ(in->ndst, want[i].op == KOP_LD ? 1 : 0); /* loads write r1 */
		if (want[i].op == KOP_LD && want[i].active & 1)
			CHECK_EQ(in->addr[0], want[i].a0);
	}
	CHECK_EQ(in->addr[0], 0);
	CHECK(!o->warp_next(t, &w, in));
	CHECK_EQ(in->op, KOP_EXIT);
	CHECK(w.exited);
	o->warp_start(t, &w, 1, 1, 32); /* threads 96-127: none in the trace */
	CHECK(!o->warp_next(t, &w, in));
	free(in);
	trc_free(t);
}

TEST(trc_runs_in_the_simulator)
{
	char *err = NULL;
	struct trc *t = parse(tiny, &err);
	CHECK(t != NULL);
	if (!t)
		return;
	struct sim_cfg cfg;
	tk_base_cfg(&cfg);
	struct workload wl = {.name = "tiny", .ops = &trc_wl_ops, .impl = t};
	struct sim *s = sim_new(&cfg, &wl, &err);
	CHECK(s != NULL);
	if (!s) {
		free(err);
		trc_free(t);
		return;
	}
	sim_step(s, UINT64_MAX);
	CHECK(sim_done(s));
	const struct stats *st = sim_stats_c(s);
#define V(n) stats_value(st, (uint32_t)stats_find(st, n))
	CHECK_EQ(V("core.ld_insts"), 6);  /* 5 in warp 0 of CTA 0 (one store), 1 each in warp 1 and CTA 1 */
	CHECK_EQ(V("core.st_insts"), 1);
	CHECK_EQ(V("sim.warp_insts"), 11); /* 7 + one exit per warp (4 warps) */
	CHECK_EQ(V("l1.accesses"), 7);     /* one line request per instruction: each touches one 128 B line */
	CHECK(V("l1.hits") >= 1);          /* thread 0's last load of line 0, after its own miss returned */
#undef V
	char *ierr = NULL;
	CHECK(sim_check_invariants(s, &ierr) == 0);
	free(ierr);
	sim_free(s);
	trc_free(t);
}

TEST(trc_model_input_and_run)
{
	char *err = NULL;
	struct trc *t = parse(tiny, &err);
	CHECK(t != NULL);
	if (!t)
		return;
	struct rdm_cfg c = {.line = 128, .sets = 1, .ways = 4, .set_fn = RDM_MODULO, .warp_size = 32,
			    .max_blocks = 8, .max_threads = 1536, .thread_cap = 8192, .seed = 1};
	struct rdm_trace *r = trc_rdm_trace(t, &c);
	/* stores dropped; warp 0: {0, 2} (8 B: half-warp group of lanes 0-15), {32}, {0};
	 * warp 1: {1}; block 1: {0} */
	CHECK_EQ(rdm_trace_requests(r), 6);
	struct rdm_result *res = xmalloc(sizeof *res);
	rdm_run(&c, r, res);
	CHECK_EQ(res->accesses, 6);
	/* queue w0 w1 w2(block 1) ...: 0 2 | 1 | 0 (d 2: hit) | 32 | 0 (hit) */
	CHECK_EQ(res->cls[RDM_COMPULSORY], 4);
	CHECK_EQ(res->cls[RDM_HIT], 2);
	free(res);
	rdm_trace_free(r);
	c.thread_cap = 64; /* the first block only */
	r = trc_rdm_trace(t, &c);
	CHECK_EQ(rdm_trace_requests(r), 5);
	rdm_trace_free(r);
	trc_free(t);
}
