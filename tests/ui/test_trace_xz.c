/*
 * test_trace_xz.c: .traceg.xz kernels (load/trace_io.c): a good stream
 * replays exactly like the plain file, also through a window smaller than
 * the text (blocks dropped and decoded again, a rewind restarting the
 * decoder); a truncated and a corrupt stream fail with the file and the
 * compressed position; a thread block larger than trace.xz_window_mb is
 * refused; unknown opcodes are listed once in the warning.
 *
 * The .xz files are made here with liblzma, so the tests need no xz tool.
 */
#include <inttypes.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/config.h"
#include "debug/snapshot.h"
#include "test.h"
#include "vtest.h"
#include "load/trace_io.h"
#include "sim/util.h"

/* A kernel of n CTAs of 64 threads (2 warps), each warp 10 lines with
 * per-CTA addresses (so replaying the wrong block changes the counts), plus
 * `extra` ALU lines in warp 0 of CTA 0. Heap text. The three arrays are
 * 8 MiB apart: at 0x10000000, 0x20000000, 0x30000000 (as before issue 20's
 * trace check) they shared DRAM locations on the 128 MiB teaching DRAM and
 * sim_new refuses them. The 1 MB window's "no restart" below depends on how
 * long the oldest CTA lives: with the arrays 16 MiB or more apart it gets
 * one restart (measured). */
static char *gen_trace(unsigned n, unsigned extra, size_t *len)
{
	size_t cap = 4096 + (size_t)n * 1200 + (size_t)extra * 64, u = 0;
	char *t = xmalloc(cap);
	u += (size_t)snprintf(
	    t + u, cap - u,
	    "-kernel name = xzgen\n-grid dim = (%u,1,1)\n-block dim = (64,1,1)\n-nregs = 16\n"
	    "-accelsim tracer version = 4\n\n",
	    n);
	for (unsigned b = 0; b < n; b++) {
		u += (size_t)snprintf(t + u, cap - u, "#BEGIN_TB\nthread block = %u,0,0\n", b);
		for (unsigned w = 0; w < 2; w++) {
			unsigned i = (b * 64 + w * 32) * 4 + (b % 7) * 4096;
			unsigned x = b == 0 && w == 0 ? extra : 0;
			u += (size_t)snprintf(t + u, cap - u, "warp = %u\ninsts = %u\n", w, 10 + x);
			for (unsigned j = 0; j < x; j++)
				u += (size_t)snprintf(t + u, cap - u,
				                      "0008 ffffffff 1 R7 IADD3 2 R7 R7 0 0\n");
			u += (size_t)snprintf(
			    t + u, cap - u,
			    "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0\n0010 ffffffff 1 R6 S2R 0 0 0\n"
			    "0020 ffffffff 1 R3 S2R 0 0 0\n0030 ffffffff 1 R6 IMAD 2 R3 R6 0 0\n"
			    "0040 ffffffff 0 ISETP.GE.AND 1 R6 0 0\n"
			    "0050 ffffffff 1 R2 LDG.E.SYS 1 R2 4 1 0x%x 4 0\n"
			    "0060 ffffffff 1 R4 LDG.E.SYS 1 R4 4 1 0x%x 4 0\n"
			    "0070 ffffffff 1 R9 FADD 2 R2 R4 0 0\n"
			    "0080 ffffffff 0 STG.E.SYS 2 R6 R9 4 1 0x%x 4 0\n0090 ffffffff 0 EXIT 0 0 0\n",
			    0x800000u + i, 0x1000000u + i, 0x1800000u + i);
		}
		u += (size_t)snprintf(t + u, cap - u, "#END_TB\n");
	}
	REQUIRE(u < cap);
	*len = u;
	return t;
}

static uint8_t *xz_compress(const char *text, size_t len, size_t *out_len)
{
	size_t cap = len + len / 2 + 4096, pos = 0;
	uint8_t *out = xmalloc(cap);
	REQUIRE(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)text, len, out, &pos,
	                                cap) == LZMA_OK);
	*out_len = pos;
	return out;
}

static char *write_file(const char *dir, const char *name, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	REQUIRE(f);
	REQUIRE(fwrite(data, 1, len, f) == len);
	fclose(f);
	return path;
}

struct run {
	uint64_t cycles, hash, l1_acc, insts;
};

static uint64_t stat_of(const struct sim *s, const char *name)
{
	const struct stats *st = sim_stats_c(s);
	int i = stats_find(st, name);
	REQUIRE(i >= 0);
	return stats_value(st, (uint32_t)i);
}

/* Run kernel 0 of `path` to the end on cfg (with snapshots if rewind_to:
 * then go back to that cycle and run to the end again). */
static struct run run_trace(const char *path, const struct sim_cfg *cfg, uint64_t rewind_to,
                            struct trace_list **keep)
{
	char *err = NULL;
	unsigned first;
	struct trace_list *tl = trace_list_open(path, &first, &err);
	if (!tl)
		test_fail(__FILE__, __LINE__, "open %s: %s", path, err);
	REQUIRE(tl);
	struct workload *wl = trace_workload_new(tl, 0, cfg, &err);
	REQUIRE(wl);
	struct sim *s = sim_new(cfg, wl, &err);
	REQUIRE(s);
	if (rewind_to)
		sim_snapshots_enable(s, 64u << 20);
	sim_step(s, UINT64_MAX);
	struct run r = {sim_cycle(s), sim_state_hash(s), stat_of(s, "l1.accesses"),
	                stat_of(s, "sim.warp_insts")};
	if (rewind_to) {
		REQUIRE(sim_goto(s, rewind_to, &err) == 0);
		CHECK_EQ(sim_cycle(s), rewind_to);
		sim_step(s, UINT64_MAX);
		CHECK_EQ(sim_cycle(s), r.cycles);
		CHECK(sim_state_hash(s) == r.hash);
	}
	sim_free(s);
	free(wl);
	if (keep)
		*keep = tl;
	else
		trace_list_free(tl);
	return r;
}

TEST(trace_xz_replays_like_the_plain_file_through_a_small_window)
{
	size_t len, zlen;
	char *text = gen_trace(1500, 0, &len);
	REQUIRE(len > (1u << 20) + (1u << 18)); /* more than the 1 MB window below */
	uint8_t *z = xz_compress(text, len, &zlen);
	char *dir = vt_tmpdir("xz");
	char *plain = write_file(dir, "kernel-1.traceg", text, len);
	char *xzp = write_file(dir, "kernel-1.traceg.xz", z, zlen);
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	/* How long the oldest CTA lives decides whether a 1 MB window still holds
	 * its blocks; the expectations below were set on an L2 whose replacements
	 * neither invalidate L1 copies nor wait for write-backs (issue 18). */
	cfg.l2.sharers = L2SH_OFF;
	cfg.l2.evict_order = L2EV_OVERLAP;
	cfg.l2.fill_port_cycles = 0;
	cfg.l2.fill_reply = L2FR_AT_ONCE;
	struct run a = run_trace(plain, &cfg, 0, NULL);
	CHECK_EQ(a.insts, 1500 * 2 * 10); /* 10 lines per warp, EXIT included */

	/* Default window (256 MB): everything fits, the file is decoded once. */
	struct trace_list *tl;
	struct run b = run_trace(xzp, &cfg, 0, &tl);
	CHECK_EQ(b.cycles, a.cycles);
	CHECK(b.hash == a.hash);
	CHECK_EQ(b.l1_acc, a.l1_acc);
	uint64_t loads, restarts, peak;
	trace_list_xz_stats(tl, &loads, &restarts, &peak);
	CHECK_EQ(loads, 1500);
	CHECK_EQ(restarts, 0);
	CHECK_EQ(peak, len - (size_t)(strstr(text, "#BEGIN_TB") - text)); /* every block, no header */
	trace_list_free(tl);

	/* 1 MB: blocks are dropped, never more than 1 MB held, same machine. */
	cfg.trace.xz_window_mb = 1;
	struct run c = run_trace(xzp, &cfg, 0, &tl);
	CHECK_EQ(c.cycles, a.cycles);
	CHECK(c.hash == a.hash);
	trace_list_xz_stats(tl, &loads, &restarts, &peak);
	CHECK_EQ(restarts, 0); /* CTAs launch in file order */
	CHECK(peak <= 1u << 20);
	CHECK(peak > (1u << 20) - 2048);
	trace_list_free(tl);

	/* Rewinding to cycle 50 needs the first blocks again: the decoder restarts. */
	struct run d = run_trace(xzp, &cfg, 50, &tl);
	CHECK_EQ(d.cycles, a.cycles);
	trace_list_xz_stats(tl, &loads, &restarts, &peak);
	CHECK(restarts >= 1);
	CHECK(peak <= 1u << 20);
	trace_list_free(tl);

	unlink(plain);
	unlink(xzp);
	rmdir(dir);
	free(plain);
	free(xzp);
	free(dir);
	free(z);
	free(text);
}

/* Thread blocks need not be in CTA order in a file (Accel-Sim writes them
 * as they finished): the window decodes in file order, so it must sort the
 * blocks by offset. Here they are in reverse order; replay matches the
 * plain file, through a window that holds a few blocks only. */
TEST(trace_xz_thread_blocks_out_of_cta_order)
{
	size_t len, zlen;
	char *text = gen_trace(300, 0, &len);
	const char *first = strstr(text, "#BEGIN_TB");
	REQUIRE(first);
	size_t hdr = (size_t)(first - text);
	char *rev = xmalloc(len + 1), *w = rev;
	memcpy(w, text, hdr);
	w += hdr;
	const char *end = text + len;
	while (end > first) { /* copy the blocks last first */
		const char *b = end - 1;
		while (b > first && !(b[-1] == '\n' && strncmp(b, "#BEGIN_TB", 9) == 0))
			b--;
		memcpy(w, b, (size_t)(end - b));
		w += end - b;
		end = b;
	}
	REQUIRE((size_t)(w - rev) == len);
	REQUIRE(strstr(rev, "thread block = 299,0,0") < strstr(rev, "thread block = 0,0,0"));
	uint8_t *z = xz_compress(rev, len, &zlen);
	char *dir = vt_tmpdir("xzrev");
	char *plain = write_file(dir, "kernel-1.traceg", rev, len);
	char *xzp = write_file(dir, "kernel-1.traceg.xz", z, zlen);
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	struct run a = run_trace(plain, &cfg, 0, NULL);
	CHECK_EQ(a.insts, 300 * 2 * 10);
	struct trace_list *tl;
	struct run b = run_trace(xzp, &cfg, 0, &tl);
	CHECK_EQ(b.cycles, a.cycles);
	CHECK(b.hash == a.hash);
	CHECK_EQ(b.l1_acc, a.l1_acc);
	uint64_t loads, restarts, peak;
	trace_list_xz_stats(tl, &loads, &restarts, &peak);
	CHECK_EQ(restarts, 0); /* one pass: every block was kept on the way to CTA 0 at the end */
	CHECK_EQ(peak, len - hdr);
	trace_list_free(tl);
	unlink(plain);
	unlink(xzp);
	rmdir(dir);
	free(plain);
	free(xzp);
	free(dir);
	free(z);
	free(rev);
	free(text);
}

/* What liblzma makes of the first n bytes of z: bytes out before it stops. */
static uint64_t decodable(const uint8_t *z, size_t n)
{
	lzma_stream st = LZMA_STREAM_INIT;
	REQUIRE(lzma_stream_decoder(&st, UINT64_MAX, 0) == LZMA_OK);
	static uint8_t out[1 << 16];
	st.next_in = z;
	st.avail_in = n;
	lzma_ret r;
	do {
		st.next_out = out;
		st.avail_out = sizeof out;
		r = lzma_code(&st, LZMA_FINISH);
	} while (r == LZMA_OK);
	uint64_t o = st.total_out;
	lzma_end(&st);
	return o;
}

TEST(trace_xz_truncated_and_corrupt_streams_name_file_and_position)
{
	size_t len, zlen;
	char *text = gen_trace(200, 0, &len);
	uint8_t *z = xz_compress(text, len, &zlen);
	char *dir = vt_tmpdir("xz");
	unsigned first;
	char *err = NULL, want[512];

	/* Cut in the middle of the compressed data: the whole file is read. */
	size_t cut = zlen / 2;
	char *p = write_file(dir, "kernel-1.traceg.xz", z, cut);
	uint64_t out = decodable(z, cut);
	CHECK(out > 0 && out < len);
	CHECK(trace_list_open(p, &first, &err) == NULL);
	snprintf(want, sizeof want,
	         "%s: truncated xz data (the file ends inside the stream) at compressed byte %zu (%" PRIu64
	         " bytes decompressed)",
	         p, cut, out);
	CHECK_STR(err, want);
	free(err);
	err = NULL;
	unlink(p);
	free(p);

	/* A flipped bit in the block header (after the 12-byte stream header):
	 * its CRC32 fails once the header, (z[12] + 1) * 4 bytes, is read. */
	uint8_t *bad = xmalloc(zlen);
	memcpy(bad, z, zlen);
	bad[13] ^= 0x01;
	p = write_file(dir, "kernel-2.traceg.xz", bad, zlen);
	CHECK(trace_list_open(p, &first, &err) == NULL);
	snprintf(want, sizeof want, "%s: corrupt xz data at compressed byte %u (0 bytes decompressed)", p,
	         12 + (z[12] + 1u) * 4);
	CHECK_STR(err, want);
	free(err);
	err = NULL;
	unlink(p);
	free(p);

	/* Not xz at all: liblzma reads the 12-byte stream header before it says so. */
	p = write_file(dir, "kernel-3.traceg.xz", text, 100);
	CHECK(trace_list_open(p, &first, &err) == NULL);
	snprintf(want, sizeof want, "%s: not an xz file at compressed byte 12 (0 bytes decompressed)", p);
	CHECK_STR(err, want);
	free(err);
	err = NULL;
	unlink(p);
	free(p);

	/* A good stream holding a malformed line: the text error wins, with the line. */
	char *t2 = xstrdup(text);
	char *l = strstr(t2, "0070 ffffffff 1 R9 FADD 2 R2 R4 0 0");
	REQUIRE(l);
	memcpy(l + 26, "X2", 2); /* "2 X2 R4": not a register */
	size_t z2len;
	uint8_t *z2 = xz_compress(t2, len, &z2len);
	p = write_file(dir, "kernel-4.traceg.xz", z2, z2len);
	CHECK(trace_list_open(p, &first, &err) == NULL);
	unsigned line = 1;
	for (const char *q = t2; q < l; q++)
		line += *q == '\n';
	snprintf(want, sizeof want,
	         "kernel-4.traceg.xz:%u: column 27: expected a source register (R0..R255), got 'X2'", line);
	CHECK_STR(err, want);
	free(err);
	unlink(p);
	free(p);
	free(z2);
	free(t2);

	rmdir(dir);
	free(dir);
	free(bad);
	free(z);
	free(text);
}

TEST(trace_xz_thread_block_larger_than_the_window_is_refused)
{
	size_t len, zlen;
	char *text = gen_trace(3, 30000, &len); /* CTA 0 holds 30000 extra lines */
	uint8_t *z = xz_compress(text, len, &zlen);
	char *dir = vt_tmpdir("xz");
	char *p = write_file(dir, "kernel-1.traceg.xz", z, zlen);
	const char *b0 = strstr(text, "#BEGIN_TB"), *e0 = strstr(text, "#END_TB\n") + 8;
	uint64_t bytes = (uint64_t)(e0 - b0);
	REQUIRE(bytes > (1u << 20) && bytes < (2u << 20));
	unsigned first;
	char *err = NULL, want[512];
	struct trace_list *tl = trace_list_open(p, &first, &err);
	REQUIRE(tl);
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	cfg.trace.xz_window_mb = 1;
	CHECK(trace_workload_new(tl, 0, &cfg, &err) == NULL);
	snprintf(want, sizeof want,
	         "%s: thread block (0,0,0) is %" PRIu64
	         " bytes of text, more than trace.xz_window_mb = 1 MB can hold; "
	         "raise it (-s trace.xz_window_mb=2) or decompress the file (xz -dk)",
	         p, bytes);
	CHECK_STR(err, want);
	free(err);
	cfg.trace.xz_window_mb = 2;
	err = NULL;
	struct workload *wl = trace_workload_new(tl, 0, &cfg, &err);
	CHECK(wl != NULL);
	free(wl);
	trace_list_free(tl);
	unlink(p);
	rmdir(dir);
	free(p);
	free(dir);
	free(z);
	free(text);
}

TEST(trace_unknown_opcodes_listed_once_in_the_warning)
{
	static const char t[] =
	    "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 4\n"
	    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 6\n"
	    "0000 ffffffff 1 R1 FOOP 0 0\n0010 ffffffff 0 ZORK.X 1 R1 0\n0020 ffffffff 1 R1 FOOP 0 0\n"
	    "0000 ffffffff 1 R1 FOOP 0 0\n0030 ffffffff 1 R2 IADD3 1 R1 0\n0040 ffffffff 0 EXIT 0 0\n"
	    "#END_TB\n";
	char *dir = vt_tmpdir("xz");
	char *p = write_file(dir, "kernel-1.traceg", t, sizeof t - 1);
	unsigned first;
	char *err = NULL, w[512];
	struct trace_list *tl = trace_list_open(p, &first, &err);
	REQUIRE(tl);
	trace_list_warnings(tl, 0, NULL, w, sizeof w);
	/* 4 instructions in all, each opcode named once, in order of appearance */
	CHECK_STR(w, "kernel-1.traceg: unknown opcodes replayed as ALU (4 instructions): FOOP, ZORK.X\n");
	trace_list_free(tl);
	unlink(p);
	rmdir(dir);
	free(p);
	free(dir);
}
