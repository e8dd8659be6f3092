/*
 * test_trace.c: the Accel-Sim trace indexer and replay (engine/trace*.c) on
 * hand-written in-memory traces: the three address modes, masks with
 * inactive lanes, partial warps, opcode classes, generic and local windows,
 * lineinfo, malformed lines, truncation at every byte, and a whole sim run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "sim/sim.h"
#include "test.h"
#include "trace/trace.h"

#define HDR(grid, block)                                                                           \
	"-kernel name = k\n-kernel id = 1\n-grid dim = (" grid ")\n-block dim = (" block ")\n"         \
	"-shmem = 1024\n-nregs = 20\n-binary version = 70\n-shmem base_addr = 0x00007f0675000000\n"   \
	"-local mem base_addr = 0x00007f0677000000\n-accelsim tracer version = 4\n\n#traces format = ...\n\n"

static struct trace_kernel *ix(const char *text, char **err)
{
	*err = NULL;
	return trace_index(text, strlen(text), "t.traceg", err);
}

/* Replay warp w of CTA c into out[], returning the instruction count. */
static int replay(const struct trace_kernel *k, uint32_t c, uint32_t w, struct winst *out, int max)
{
	struct trace_view v;
	struct trace_cfg cfg = {.alu_cycles = 4, .sfu_cycles = 8, .dp_cycles = 9, .tensor_cycles = 16,
				.branch_cycles = 2, .misc_cycles = 5};
	trace_view_init(&v, k, &cfg);
	struct kwarp kw;
	trace_wl_ops.warp_start(&v, &kw, c, w, 32);
	int n = 0;
	while (n < max) {
		memset(&out[n], 0, sizeof out[n]);
		bool more = trace_wl_ops.warp_next(&v, &kw, &out[n]);
		n++;
		if (!more)
			break;
	}
	return n;
}

static const char *modes_trace = HDR("1,1,1", "40,1,1")
	"#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 7\n"
	"0000 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x1000 4 0\n"          /* mode 1, all lanes */
	"0010 0000ff00 1 R3 LDG.E.64 1 R4 8 1 0x2000 -8 0\n"         /* mode 1, lanes 8-15, negative stride */
	"0020 f0f0f0f0 1 R5 LDG.E.U8 1 R4 1 2 0x3000 1 1 1 61 1 1 1 -100 1 1 1 61 1 1 1\n" /* mode 2, 16 lanes */
	"0030 80000001 0 STG.E.CG 2 R4 R5 4 0 0x4000 0x0000000000004abc 0\n" /* mode 0, lanes 0 and 31 */
	"0040 00000000 1 R6 LDG.E 1 R4 4 0 0\n"                       /* no active lane */
	"0050 ffffffff 0 BAR.SYNC 0 0 0\n"
	"0060 ffffffff 0 EXIT 0 0 0\n"
	"warp = 1\ninsts = 2\n"
	"0000 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x1080 4 0\n"
	"0060 000000ff 0 EXIT 0 0 0\n"
	"#END_TB\n";

TEST(trace_address_modes_and_masks)
{
	char *err;
	struct trace_kernel *k = ix(modes_trace, &err);
	if (!k)
		fprintf(stderr, "%s\n", err);
	REQUIRE(k);
	struct winst in[10];
	int n = replay(k, 0, 0, in, 10);
	CHECK_EQ(n, 7);
	CHECK_EQ(in[0].op, KOP_LD);
	CHECK_EQ(in[0].active, 0xffffffffull);
	CHECK_EQ(in[0].addr[31], 0x1000 + 31 * 4);
	CHECK_EQ(in[0].size, 4);
	CHECK_EQ(in[0].ndst, 1);
	CHECK_EQ(in[0].dst, 2);
	CHECK_EQ(in[0].nsrc, 1);
	CHECK_EQ(in[0].src[0], 4);
	CHECK_EQ(in[1].active, 0xff00ull);
	CHECK_EQ(in[1].size, 8);
	CHECK_EQ(in[1].addr[8], 0x2000);
	CHECK_EQ(in[1].addr[15], 0x2000 - 7 * 8);
	CHECK_EQ(in[2].size, 1);
	CHECK_EQ(in[2].active, 0xf0f0f0f0ull);
	CHECK_EQ(in[2].addr[4], 0x3000);
	CHECK_EQ(in[2].addr[7], 0x3003);
	CHECK_EQ(in[2].addr[12], 0x3003 + 61);
	CHECK_EQ(in[2].addr[20], 0x3003 + 61 + 3 - 100);
	CHECK_EQ(in[2].addr[31], 0x3003 + 61 + 3 - 100 + 3 + 61 + 3);
	CHECK_EQ(in[3].op, KOP_ST);
	CHECK_EQ(in[3].ndst, 0);
	CHECK_EQ(in[3].nsrc, 2);
	CHECK_EQ(in[3].active, 0x80000001ull);
	CHECK_EQ(in[3].addr[0], 0x4000);
	CHECK_EQ(in[3].addr[31], 0x4abc);
	CHECK_EQ(in[4].op, KOP_LD);
	CHECK_EQ(in[4].active, 0);
	CHECK_EQ(in[5].op, KOP_BAR);
	CHECK_EQ(in[6].op, KOP_EXIT);
	/* Partial last warp: 40 threads -> warp 1 has lanes 0-7 only. */
	n = replay(k, 0, 1, in, 10);
	CHECK_EQ(n, 2);
	CHECK_EQ(in[0].active, 0xffull);
	CHECK_EQ(in[1].op, KOP_EXIT);
	const struct trace_info *info = trace_get_info(k);
	CHECK_EQ(info->insts, 9);
	CHECK_EQ(info->cg, 1);
	CHECK_EQ(info->ctas, 1);
	CHECK_EQ(info->warps_per_cta, 2);
	CHECK_EQ(trace_hdr(k)->shmem, 1024);
	CHECK_EQ(trace_hdr(k)->nregs, 20);
	CHECK_EQ(trace_wl_ops.nstmts(&(struct trace_view){.k = k}), 7);
	CHECK_STR(trace_wl_ops.stmt_text(&(struct trace_view){.k = k}, 1), "0010 LDG.E.64");
	trace_free(k);
}

TEST(trace_opcode_classes)
{
	unsigned sz, fl;
	CHECK_EQ(trace_classify("LDG.E.128.CONSTANT.SYS", 22, &sz, &fl), TC_LDG);
	CHECK_EQ(sz, 16);
	CHECK_EQ(trace_classify("LDG.E.S16", 9, &sz, &fl), TC_LDG);
	CHECK_EQ(sz, 2);
	CHECK_EQ(trace_classify("LDG.E.CG", 8, &sz, &fl), TC_LDG);
	CHECK_EQ(fl, TF_CG);
	CHECK_EQ(sz, 4);
	CHECK_EQ(trace_classify("STG.E.CS.64", 11, &sz, &fl), TC_STG);
	CHECK_EQ(fl, TF_CS);
	CHECK_EQ(sz, 8);
	CHECK_EQ(trace_classify("ATOM.E.ADD.F32.FTZ.RN", 21, &sz, &fl), TC_ATOM);
	CHECK_EQ(trace_classify("RED.E.ADD", 9, &sz, &fl), TC_ATOM);
	CHECK_EQ(trace_classify("ATOMS.ADD", 9, &sz, &fl), TC_ATOMS);
	CHECK_EQ(trace_classify("LDS.U.128", 9, &sz, &fl), TC_LDS);
	CHECK_EQ(trace_classify("STS", 3, &sz, &fl), TC_STS);
	CHECK_EQ(trace_classify("LDL.LU", 6, &sz, &fl), TC_LDL);
	CHECK_EQ(trace_classify("STL.64", 6, &sz, &fl), TC_STL);
	CHECK_EQ(trace_classify("BAR.SYNC.DEFER_BLOCKING", 23, &sz, &fl), TC_BAR);
	CHECK_EQ(trace_classify("BAR.ARV", 7, &sz, &fl), TC_MISC);
	CHECK_EQ(trace_classify("MUFU.RSQ", 8, &sz, &fl), TC_SFU);
	CHECK_EQ(trace_classify("DFMA", 4, &sz, &fl), TC_DP);
	CHECK_EQ(trace_classify("HMMA.884.F32.F32.STEP0", 22, &sz, &fl), TC_TENSOR);
	CHECK_EQ(trace_classify("BRA", 3, &sz, &fl), TC_BRANCH);
	CHECK_EQ(trace_classify("EXIT", 4, &sz, &fl), TC_EXIT);
	CHECK_EQ(trace_classify("IMAD.WIDE.U32", 13, &sz, &fl), TC_ALU);
	CHECK_EQ(trace_classify("FROBNICATE.X", 12, &sz, &fl), TC_UNKNOWN);
	CHECK_EQ(trace_classify("LD", 2, &sz, &fl), TC_LD);
	CHECK_EQ(trace_classify("L", 1, &sz, &fl), TC_UNKNOWN);
}

TEST(trace_alu_classes_generic_local_lineinfo)
{
	const char *t = "-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-shmem base_addr = 0x7f0675000000\n"
			"-local mem base_addr = 0x7f0677000000\n-enable lineinfo = 1\n"
			"#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 8\n"
			"12 0000 ffffffff 1 R1 MUFU.EX2 1 R2 0\n"
			"12 0010 ffffffff 1 R1 FROB 1 R2 0\n"
			"13 0020 ffffffff 1 R1 LD.E 1 R2 4 1 0x7f0675000010 4\n"
			"13 0030 ffffffff 0 ST.E 2 R2 R1 4 1 0x7f0677000008 0\n"
			"14 0040 00000003 1 R1 LDL 1 R2 4 1 0x20 0\n"
			"14 0050 ffffffff 1 R3 LD.E 1 R2 4 1 0x10000 4\n"
			"15 0060 ffffffff 0 BRA 0 0\n"
			"15 0070 ffffffff 0 EXIT 0 0\n"
			"#END_TB\n#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n";
	char *err;
	struct trace_kernel *k = ix(t, &err);
	if (!k)
		fprintf(stderr, "%s\n", err);
	REQUIRE(k);
	CHECK_STR(trace_get_info(k)->unknown, "FROB");
	struct winst in[10];
	CHECK_EQ(replay(k, 1, 0, in, 10), 8);
	CHECK_EQ(in[0].op, KOP_ALU);
	CHECK_EQ(in[0].alu_cycles, 8);
	CHECK_EQ(in[1].alu_cycles, 4); /* unknown: ALU */
	CHECK_EQ(in[2].op, KOP_LDSH);  /* generic address in the shared window */
	CHECK_EQ(in[2].addr[0], 0x10);
	CHECK_EQ(in[2].addr[1], 0x14);
	/* generic store in the local window, and LDL: per-thread interleaved words */
	uint64_t threads = 64, tid0 = 32;
	CHECK_EQ(in[3].op, KOP_ST);
	CHECK_EQ(in[3].addr[0], TRACE_LOCAL_REGION + 2 * threads * 4 + tid0 * 4);
	CHECK_EQ(in[3].addr[5], TRACE_LOCAL_REGION + 2 * threads * 4 + (tid0 + 5) * 4);
	CHECK_EQ(in[4].op, KOP_LD);
	CHECK_EQ(in[4].active, 3);
	CHECK_EQ(in[4].addr[1], TRACE_LOCAL_REGION + 8 * threads * 4 + (tid0 + 1) * 4);
	CHECK_EQ(in[5].op, KOP_LD); /* generic outside the windows: global */
	CHECK_EQ(in[5].addr[2], 0x10008);
	CHECK_EQ(in[6].alu_cycles, 2);
	CHECK_EQ(in[7].op, KOP_EXIT);
	/* CTA 0 listed no warps: it exits at once. */
	CHECK_EQ(replay(k, 0, 0, in, 10), 1);
	CHECK_EQ(in[0].op, KOP_EXIT);
	trace_free(k);
}

struct bad {
	const char *text, *msg;
};

TEST(trace_malformed_lines_name_file_line_and_expectation)
{
#define G "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
#define TB(body) G "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n" body "#END_TB\n"
	static const struct bad cases[] = {
		{TB("insts = 1\n0000 fffffffff 0 NOP 0 0\n"), "t.traceg:7: column 6: expected a hex active mask of at most 32 lanes, got 'fffffffff'"},
		{TB("insts = 1\n0000 ffffffff 0 LDG 1 R1 4 1 0x100\n"), "t.traceg:7: column 35: expected a decimal stride (address mode 1), got 'end of line'"},
		{TB("insts = 1\n0000 ffffffff 0 LDG 1 R1 4 3 0x100 4\n"), "expected an address mode of 0 (list), 1 (base+stride) or 2 (base+deltas)"},
		{TB("insts = 1\n0000 00000003 0 LDG 1 R1 4 0 0x100\n"), "one hex address per active lane (address mode 0)"},
		{TB("insts = 1\n0000 00000007 0 LDG 1 R1 4 2 0x100 4\n"), "one decimal delta per active lane after the first"},
		{TB("insts = 1\n0000 ffffffff 1 X1 MOV 0 0\n"), "column 17: expected a destination register (R0..R255), got 'X1'"},
		{TB("insts = 1\n0000 ffffffff 0 mov 0 0\n"), "expected an opcode"},
		{TB("insts = 1\n0000 ffffffff 0 MOV 1 R256 0\n"), "expected a source register (R0..R255)"},
		{TB("insts = 2\n0000 ffffffff 0 MOV 0 0\n"), "t.traceg:8: expected instruction 2 of 2 of warp 0 of thread block (0,0,0)"},
		{TB("insts = 2\n0000 ffffffff 0 MOV 0 0\n0000 ffffffff 0 IADD 0 0\n"), "t.traceg:8: PC 0000 is IADD here but MOV earlier"},
		{TB("insts = 0\nwarp = 0\n"), "warp 0 appears twice"},
		{TB("warp = 1\n"), "expected 'warp = N' with N < 1"},
		{TB("inst = 3\n"), "t.traceg:6: expected 'thread block = x,y,z', 'warp = N', 'insts = N' or #END_TB"},
		{G "#BEGIN_TB\nthread block = 0,1,0\n#END_TB\n", "t.traceg:4: thread block (0,1,0) is outside the grid (1,1,1)"},
		{G "#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n", "t.traceg:7: thread block (0,0,0) appears twice"},
		{G "#BEGIN_TB\nthread block = 0,0,0\n#BEGIN_TB\n", "t.traceg:5: #BEGIN_TB before the #END_TB of the thread block opened at line 3"},
		{G "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n0000 ffffffff 0 MOV 0 0\n",
		 "t.traceg:7: file ends after 1 of the 3 instructions of warp 0 of thread block (0,0,0) ('insts' at line 6): truncated?"},
		{G "#BEGIN_TB\nthread block = 0,0,0\n", "t.traceg:4: file ends inside the thread block opened at line 3 (no #END_TB): truncated?"},
		{"-grid dim = (2,1,1)\n-block dim = (32,1,1)\n#BEGIN_TB\nthread block = 1,0,0\n#END_TB\n",
		 "thread block (0,0,0) is missing: the file has 1 of the 2 blocks of grid (2,1,1); truncated?"},
		{"-block dim = (32,1,1)\n#BEGIN_TB\n", "t.traceg:2: expected a '-grid dim = (x,y,z)' header line before the first #BEGIN_TB"},
		{"-grid dim = (1,1,1)\n-block dim = (0,1,1)\n", "t.traceg:2: expected '-block dim = (x,y,z)' with 1 to 4096 threads, got '(0,1,1)'"},
		{"-grid dim = (1,1,1)\n-accelsim tracer version = 2\n", "tracer version 2: lines that start with thread-block ids"},
		{"-grid dim = (1,1,1)\n-block dim = (32,1,1)\n", "t.traceg:2: no thread blocks (#BEGIN_TB) in the file"},
		{"-grid dim = (100000,1,1)\n-block dim = (32,1,1)\n#BEGIN_TB\n", "more than a 57-byte file can hold"},
		{"hello\n", "t.traceg:1: expected a header line '-key = value' or #BEGIN_TB, got 'hello'"},
		{"-nregs = many\n", "t.traceg:1: bad value 'many' for '-nregs'"},
		{"", "no thread blocks"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *err;
		struct trace_kernel *k = ix(cases[i].text, &err);
		CHECK(k == NULL);
		if (!err) {
			test_fail(__FILE__, __LINE__, "case %zu: no error", i);
			trace_free(k);
			continue;
		}
		if (!strstr(err, cases[i].msg))
			test_fail(__FILE__, __LINE__, "case %zu: \"%s\" lacks \"%s\"", i, err, cases[i].msg);
		free(err);
	}
}

/* Fuzzing found it (tests/fuzz/traceg/): an opcode holding NUL bytes made
 * the opcode lookup read past the name table (a global-buffer-overflow
 * under ASan, silent otherwise). A mnemonic is letters, digits, '.', '_'. */
TEST(trace_opcode_with_nul_bytes_is_refused)
{
	unsigned sz, fl;
	CHECK_EQ(trace_classify("EXIT\0\0\0\0", 8, &sz, &fl), TC_UNKNOWN);
	CHECK_EQ(trace_classify("EXIT\0", 5, &sz, &fl), TC_UNKNOWN);
	CHECK_EQ(trace_classify("EXITX", 5, &sz, &fl), TC_UNKNOWN);
	CHECK_EQ(trace_classify("EXI", 3, &sz, &fl), TC_UNKNOWN);
	static const char text[] = G "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
				   "0000 ffffffff 0 EXIT\0\0\0\0 0 0 0\n#END_TB\n";
	char *err = NULL;
	struct trace_kernel *k = trace_index(text, sizeof text - 1, "t.traceg", &err);
	CHECK(k == NULL);
	CHECK_CONTAINS(err, "t.traceg:7: column 17: expected an opcode");
	free(err);
	trace_free(k);
}

TEST(trace_truncated_at_every_byte_fails_cleanly)
{
	size_t len = strlen(modes_trace);
	char *buf = malloc(len);
	int ok = 0;
	for (size_t n = 0; n < len; n++) {
		memcpy(buf, modes_trace, n); /* not NUL-terminated: the indexer must stay in bounds */
		char *err = NULL;
		struct trace_kernel *k = trace_index(buf, n, "t.traceg", &err);
		if (k) {
			ok++;
			trace_free(k);
		} else {
			CHECK(err != NULL);
			free(err);
		}
	}
	/* Only "...#END_TB" without its final newline indexes. */
	CHECK_EQ(ok, 1);
	free(buf);
}

TEST(trace_runs_in_the_simulator)
{
	const char *t = "-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-nregs = 16\n"
			"#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
			"0000 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000000 4 0\n"
			"0010 ffffffff 0 STG.E 2 R4 R2 4 1 0x20000000 4 0\n0020 ffffffff 0 EXIT 0 0\n"
			"warp = 1\ninsts = 3\n"
			"0000 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000080 4 0\n"
			"0010 ffffffff 0 STG.E 2 R4 R2 4 1 0x20000080 4 0\n0020 ffffffff 0 EXIT 0 0\n#END_TB\n"
			"#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 2\n"
			"0000 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000100 4 0\n0020 ffffffff 0 EXIT 0 0\n#END_TB\n";
	char *err;
	struct trace_kernel *k = ix(t, &err);
	REQUIRE(k);
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	cfg.dram.rows *= 4; /* 0x10000000 and 0x20000000 alias on 128 MiB: a DRAM that holds both */
	struct trace_view v;
	trace_view_init(&v, k, &cfg.trace);
	struct workload wl = {.name = "t", .ops = &trace_wl_ops, .impl = &v};
	struct sim *s = sim_new(&cfg, &wl, &err);
	REQUIRE(s);
	while (!sim_done(s))
		sim_step(s, 1000000);
	const struct stats *st = sim_stats_c(s);
	CHECK_EQ(stats_value(st, (uint32_t)stats_find(st, "l1.accesses")), 5);
	CHECK_EQ(stats_value(st, (uint32_t)stats_find(st, "sim.warp_insts")), 9); /* + the exit of warp 1 of CTA 1, which has no lines */
	CHECK_EQ(stats_value(st, (uint32_t)stats_find(st, "core.ld_insts")), 3);
	CHECK(sim_check_invariants(s, &err) == 0);
	sim_free(s);
	trace_free(k);
}

/* Trace registers feed the register file: per issued instruction its
 * distinct source registers other than RZ are bank reads and a destination
 * is a bank write. Hand counts for one CTA of two warps:
 *
 *   warp 0  IMAD.MOV R1 <- RZ,RZ       0 reads  1 write
 *           IADD3 R2 <- R1,R1,R0       2        1     (R1 once)
 *           LDG R3 <- [R2]             1        1
 *           STG [R2] <- R3             2        0
 *           EXIT (last line)           0        0
 *   warp 1  IMAD.MOV R1 <- RZ,RZ       0        1
 *           FFMA R4 <- R1,R5,R6        3        1     (16 lanes: still one warp register each)
 *           ISETP <- R4,R4             1        0
 *           MUFU.RCP R8 <- R4          1        1
 *           EXIT                       0        0
 *                                     10        6
 */
static const char *rf_trace = "-grid dim = (1,1,1)\n-block dim = (64,1,1)\n-nregs = 16\n-accelsim tracer version = 4\n"
			      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 5\n"
			      "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0\n"
			      "0010 ffffffff 1 R2 IADD3 3 R1 R1 R0 0\n"
			      "0020 ffffffff 1 R3 LDG.E 1 R2 4 1 0x10000000 4 0\n"
			      "0030 ffffffff 0 STG.E 2 R2 R3 4 1 0x20000000 4 0\n"
			      "0040 ffffffff 0 EXIT 0 0\n"
			      "warp = 1\ninsts = 5\n"
			      "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0\n"
			      "0050 0000ffff 1 R4 FFMA 3 R1 R5 R6 0\n"
			      "0060 ffffffff 0 ISETP.GE.AND 2 R4 R4 0\n"
			      "0070 ffffffff 1 R8 MUFU.RCP 1 R4 0\n"
			      "0040 ffffffff 0 EXIT 0 0\n#END_TB\n";

static uint64_t stat_at(const struct sim *s, const char *name)
{
	const struct stats *st = sim_stats_c(s);
	int i = stats_find(st, name);
	REQUIRE(i >= 0);
	return stats_value(st, (uint32_t)i);
}

/* Run rf_trace on cfg; the cycle count. */
static uint64_t rf_run(const struct sim_cfg *cfg, uint64_t *reads, uint64_t *writes, uint64_t *wb_reads,
		       uint64_t *wb_drained)
{
	char *err;
	struct trace_kernel *k = ix(rf_trace, &err);
	REQUIRE(k);
	struct trace_view v;
	trace_view_init(&v, k, &cfg->trace);
	struct workload wl = {.name = "t", .ops = &trace_wl_ops, .impl = &v};
	struct sim *s = sim_new(cfg, &wl, &err);
	REQUIRE(s);
	while (!sim_done(s))
		sim_step(s, 1000000);
	*reads = stat_at(s, "rf.reads");
	*writes = stat_at(s, "rf.writes");
	*wb_reads = stat_at(s, "rf.wb.reads");
	*wb_drained = stat_at(s, "rf.wb.direct") + stat_at(s, "rf.wb.piggyback") + stat_at(s, "rf.wb.overflow");
	CHECK_EQ(stat_at(s, "sim.warp_insts"), 10);
	CHECK(sim_check_invariants(s, &err) == 0);
	uint64_t c = sim_cycle(s);
	sim_free(s);
	trace_free(k);
	return c;
}

TEST(trace_registers_feed_the_register_file)
{
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	cfg.dram.rows *= 4; /* 0x10000000 and 0x20000000 alias on 128 MiB: a DRAM that holds both */
	uint64_t r, w, wr, wd;
	uint64_t free_cycles = rf_run(&cfg, &r, &w, &wr, &wd); /* the default free SRAM path */
	CHECK_EQ(r, 10);
	CHECK_EQ(w, 6);
	CHECK_EQ(wr, 0);
	/* Racetrack without the write buffer: the same accesses, now timed (shifts, 2 RF cycles per write). */
	cfg.rf.kind = RF_RACETRACK;
	cfg.rf.wb_entries = 0;
	uint64_t rt_cycles = rf_run(&cfg, &r, &w, &wr, &wd);
	CHECK_EQ(r, 10);
	CHECK_EQ(w, 6);
	CHECK_EQ(wr, 0);
	CHECK(rt_cycles > free_cycles);
	/* With the write buffer (the racetrack default, 32 entries): a source
	 * written earlier by the same warp is still buffered and read there (RAW).
	 * Bank reads: R0 (warp 0), R5 and R6 (warp 1) = 3; buffer reads: R1 and
	 * R2, R2 and R3 (warp 0), R1, R4, R4 (warp 1) = 7. The 6 writes all fit
	 * in the buffer and none is drained before the end: 0 bank writes. */
	cfg.rf.wb_entries = 32;
	rf_run(&cfg, &r, &w, &wr, &wd);
	CHECK_EQ(r, 3);
	CHECK_EQ(wr, 7);
	CHECK_EQ(w, 0);
	CHECK_EQ(wd, 0);
}

/* Thread instructions of a trace: the sum over its instruction lines (they
 * start with a hex PC) of the active lanes in the MASK token after it. */
static uint64_t traced_lanes(const char *text)
{
	uint64_t n = 0;
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		if ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')) {
			char *q;
			strtoull(p, &q, 16);
			n += (uint64_t)__builtin_popcountll(strtoull(q, NULL, 16));
		}
		p = *e ? e + 1 : e;
	}
	return n;
}

/* The final EXIT counts the lanes of its trace line (Accel-Sim counts every
 * line's mask), not the warp's width: warp 0's lanes 16-31 exit early, its
 * last EXIT has lanes 0-15; warp 2 (80 threads) has lanes 0-15 and exits
 * with 0-7 of them; warp 1 has no lines, so its exit has no traced lane. */
static const char *exit_trace = HDR("1,1,1", "80,1,1")
	"#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
	"0000 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000000 4 0\n"
	"0010 ffff0000 0 EXIT 0 0\n"
	"0020 0000ffff 0 STG.E 2 R4 R2 4 1 0x10800000 4 0\n" /* 8 MiB from the loads: no DRAM aliasing */
	"0030 0000ffff 0 EXIT 0 0\n"
	"warp = 2\ninsts = 2\n"
	"0000 0000ffff 1 R2 LDG.E 1 R4 4 1 0x10000080 4 0\n"
	"0030 000000ff 0 EXIT 0 0\n"
	"#END_TB\n";

TEST(trace_final_exit_counts_its_traced_lanes)
{
	char *err;
	struct trace_kernel *k = ix(exit_trace, &err);
	if (!k)
		fprintf(stderr, "%s\n", err);
	REQUIRE(k);
	struct winst in[8];
	CHECK_EQ(replay(k, 0, 0, in, 8), 4);
	CHECK_EQ(in[1].op, KOP_ALU); /* an EXIT before the last line */
	CHECK_EQ(in[1].active, 0xffff0000ull);
	CHECK_EQ(in[3].op, KOP_EXIT);
	CHECK_EQ(in[3].active, 0xffffull);
	CHECK_EQ(replay(k, 0, 1, in, 8), 1);
	CHECK_EQ(in[0].op, KOP_EXIT);
	CHECK_EQ(in[0].active, 0);
	CHECK_EQ(replay(k, 0, 2, in, 8), 2);
	CHECK_EQ(in[1].op, KOP_EXIT);
	CHECK_EQ(in[1].active, 0xffull);

	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	struct trace_view v;
	trace_view_init(&v, k, &cfg.trace);
	struct workload wl = {.name = "t", .ops = &trace_wl_ops, .impl = &v};
	struct sim *s = sim_new(&cfg, &wl, &err);
	REQUIRE(s);
	while (!sim_done(s))
		sim_step(s, 1000000);
	const struct stats *st = sim_stats_c(s);
	CHECK_EQ(traced_lanes(exit_trace), 32 + 16 + 16 + 16 + 16 + 8);
	CHECK_EQ(stats_value(st, (uint32_t)stats_find(st, "sim.thread_insts")), traced_lanes(exit_trace));
	CHECK_EQ(stats_value(st, (uint32_t)stats_find(st, "sim.warp_insts")), 6 + 1); /* the lines + warp 1's exit */
	CHECK(sim_check_invariants(s, &err) == 0);
	sim_free(s);
	trace_free(k);
}
