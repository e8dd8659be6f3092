/*
 * test_payload.c: icnt.payload = segment (coalesce.h): GPGPU-Sim 3.x's
 * segment reduction on its own (the vectors of memory_coalescing_arch_
 * reduce_and_send, other line and lane sizes), then on a machine: a load
 * that skips the L1 gets a header + its segment's flits back, a store sends
 * them, the whole line with `line` or a sectored L2. Expected flits come
 * from icnt.flit_bytes, l1.line and the rule, not from a run.
 */
#include <string.h>

#include "core/coalesce.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

/* Chunks {first..last} of a line. */
static uint32_t ch(unsigned first, unsigned last) { return (uint32_t)((2ull << last) - (1ull << first)); }

TEST(payload_segment_rule_128_byte_line)
{
	/* 4 B lanes: the segment starts at 128 B */
	CHECK_EQ(icnt_segment_bytes(128, ch(0, 3), 4), 128); /* both halves */
	CHECK_EQ(icnt_segment_bytes(128, ch(0, 1), 4), 64);  /* lower half only */
	CHECK_EQ(coal_segment_chunks(128, ch(0, 1), 4), ch(0, 1));
	CHECK_EQ(icnt_segment_bytes(128, ch(2, 3), 4), 64); /* upper half only */
	CHECK_EQ(coal_segment_chunks(128, ch(2, 3), 4), ch(2, 3));
	for (unsigned q = 0; q < 4; q++) { /* one quarter: 32 B at its own offset */
		CHECK_EQ(icnt_segment_bytes(128, 1u << q, 4), 32);
		CHECK_EQ(coal_segment_chunks(128, 1u << q, 4), 1u << q);
	}
	CHECK_EQ(icnt_segment_bytes(128, 0x9, 4), 128); /* chunks {0,3}: both halves, no gap skipping */
	CHECK_EQ(coal_segment_chunks(128, 0x9, 4), ch(0, 3));
	CHECK_EQ(icnt_segment_bytes(128, 0x6, 4), 128); /* {1,2}: straddles the halves */
	CHECK_EQ(icnt_segment_bytes(128, 0x5, 4), 128);
	CHECK_EQ(icnt_segment_bytes(128, 0xA, 16), 128); /* 8 and 16 B lanes start at 128 too */
	CHECK_EQ(icnt_segment_bytes(128, 0x4, 8), 32);
	/* 2 B lanes: 64 B segments, each reduced alone */
	CHECK_EQ(icnt_segment_bytes(128, 0x9, 2), 64); /* {0} and {3}: 32 + 32 */
	CHECK_EQ(coal_segment_chunks(128, 0x9, 2), 0x9u);
	CHECK_EQ(icnt_segment_bytes(128, ch(0, 3), 2), 128);
	CHECK_EQ(icnt_segment_bytes(128, 0x2, 2), 32);
	CHECK_EQ(icnt_segment_bytes(128, 0x7, 2), 96); /* 64 + 32 */
	/* 1 B lanes: 32 B segments, the chunks themselves */
	CHECK_EQ(icnt_segment_bytes(128, 0x9, 1), 64);
	CHECK_EQ(coal_segment_chunks(128, 0xB, 1), 0xBu);
	CHECK_EQ(icnt_segment_bytes(128, 0, 4), 128); /* no chunks recorded: the line */
}

TEST(payload_segment_rule_other_lines)
{
	/* 64 B line: the line is the first segment (GPGPU-Sim's 128 B segment
	 * spans two gpustep requests, each reduced in its line) */
	CHECK_EQ(icnt_segment_bytes(64, ch(0, 1), 4), 64);
	CHECK_EQ(icnt_segment_bytes(64, 0x1, 4), 32);
	CHECK_EQ(coal_segment_chunks(64, 0x2, 4), 0x2u);
	/* 256 B line: two 128 B blocks, each reduced alone */
	CHECK_EQ(icnt_segment_bytes(256, ch(0, 7), 4), 256);
	CHECK_EQ(icnt_segment_bytes(256, ch(0, 3), 4), 128);
	CHECK_EQ(icnt_segment_bytes(256, 0x81, 4), 64); /* {0} and {7}: 32 + 32, not the whole line */
	CHECK_EQ(coal_segment_chunks(256, 0x81, 4), 0x81u);
	CHECK_EQ(icnt_segment_bytes(256, 0x30, 4), 64); /* {4,5}: the lower half of the upper block */
	CHECK_EQ(coal_segment_chunks(256, 0x30, 4), 0x30u);
	CHECK_EQ(icnt_segment_bytes(256, 0x90, 4), 128); /* {4,7} */
	/* 1024 B line: 32 chunks, the top one */
	CHECK_EQ(icnt_segment_bytes(1024, 1u << 31, 4), 32);
	CHECK_EQ(coal_segment_chunks(1024, 1u << 31, 4), 1u << 31);
	CHECK_EQ(icnt_segment_bytes(1024, 0xFFFFFFFFu, 4), 1024);
	/* 32 B and 16 B lines: the line */
	CHECK_EQ(icnt_segment_bytes(32, 1, 4), 32);
	CHECK_EQ(icnt_segment_bytes(16, 1, 4), 16);
}

/* One warp of `threads` lanes, 4 B each from A[off + tid], on gtx480's
 * crossbar and line geometry (32 B flits, 128 B lines, unsectored L2); the
 * crossbar's request and reply flits. */
static void run_flits(const char *body, unsigned threads, int payload, int l2_sector, uint64_t *req, uint64_t *rep)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l1.line = 128;
	t.cfg.l2.line = 128;
	t.cfg.l1.sector = t.cfg.l2.sector = l2_sector;
	t.cfg.l1.write_policy = L1W_WRITE_EVICT;
	t.cfg.l1.bypass = L1B_ALL;
	t.cfg.icnt.payload = payload;
	*req = *rep = 0;
	REQUIRE(tk_start(&t, threads, 1, body));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	*req = tk_stat(&t, "icnt.req_flits");
	*rep = tk_stat(&t, "icnt.reply_flits");
	CHECK_EQ(tk_stat(&t, "icnt.req_packets"), 1);
	CHECK_EQ(tk_stat(&t, "icnt.reply_packets"), 1);
	tk_end(&t);
}

static uint64_t data_flits(unsigned bytes, unsigned fb) { return (bytes + fb - 1) / fb; }

TEST(payload_bypassed_load_reply_and_store_carry_the_segment)
{
	struct sim_cfg c;
	tk_base_cfg(&c);
	const unsigned fb = (unsigned)c.icnt.flit_bytes, line = 128;
	static const struct {
		const char *ld, *st;
		unsigned threads, seg; /* the rule: bytes [4 off, 4 (off + threads)) of a 128 B line */
	} cases[] = {
		{"ld A[tid] -> r1; alu 1 <- r1", "st A[tid]", 8, 32},            /* chunk 0 */
		{"ld A[tid + 16] -> r1; alu 1 <- r1", "st A[tid + 16]", 8, 32},  /* chunk 2 */
		{"ld A[tid] -> r1; alu 1 <- r1", "st A[tid]", 16, 64},           /* chunks 0-1 */
		{"ld A[tid + 16] -> r1; alu 1 <- r1", "st A[tid + 16]", 16, 64}, /* chunks 2-3 */
		{"ld A[tid + 8] -> r1; alu 1 <- r1", "st A[tid + 8]", 16, 128},  /* chunks 1-2 */
		{"ld A[tid * 24] -> r1; alu 1 <- r1", "st A[tid * 24]", 2, 128}, /* chunks 0 and 3 */
		{"ld A[tid] -> r1; alu 1 <- r1", "st A[tid]", 32, 128},          /* the whole line */
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint64_t req, rep;
		/* load: a 1-flit request, the reply header + the segment */
		run_flits(cases[i].ld, cases[i].threads, ICNT_PAYLOAD_SEGMENT, 0, &req, &rep);
		CHECK_EQ(req, 1);
		CHECK_EQ(rep, 1 + data_flits(cases[i].seg, fb));
		run_flits(cases[i].ld, cases[i].threads, ICNT_PAYLOAD_LINE, 0, &req, &rep);
		CHECK_EQ(rep, 1 + data_flits(line, fb));
		/* store: header + the segment down, a 1-flit acknowledgement back */
		run_flits(cases[i].st, cases[i].threads, ICNT_PAYLOAD_SEGMENT, 0, &req, &rep);
		CHECK_EQ(req, 1 + data_flits(cases[i].seg, fb));
		CHECK_EQ(rep, 1);
		run_flits(cases[i].st, cases[i].threads, ICNT_PAYLOAD_LINE, 0, &req, &rep);
		CHECK_EQ(req, 1 + data_flits(line, fb));
	}
}

/* An L1 miss asks for the whole line whatever the payload (GPGPU-Sim's
 * fetch is line sized); a sectored L2 keeps its per-sector rule. */
TEST(payload_segment_leaves_fetches_and_sectored_l2_alone)
{
	struct sim_cfg c;
	tk_base_cfg(&c);
	const unsigned fb = (unsigned)c.icnt.flit_bytes;
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l1.line = t.cfg.l2.line = 128;
	t.cfg.l2.sector = 0;
	t.cfg.icnt.payload = ICNT_PAYLOAD_SEGMENT;
	REQUIRE(tk_start(&t, 8, 1, "ld A[tid] -> r1; alu 1 <- r1"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.misses"), 1);
	CHECK_EQ(tk_stat(&t, "icnt.reply_flits"), 1 + data_flits(128, fb));
	tk_end(&t);
	/* l2.sector = 32 (l1.sector too): lanes 0 and 1 at bytes 0 and 96 take
	 * sectors 0 and 3, 2 sectors' flits, not the segment's 128 B */
	uint64_t req, rep;
	for (int p = ICNT_PAYLOAD_LINE; p <= ICNT_PAYLOAD_SEGMENT; p++) {
		run_flits("ld A[tid * 24] -> r1; alu 1 <- r1", 2, p, 32, &req, &rep);
		CHECK_EQ(rep, 1 + data_flits(2 * 32, fb));
		run_flits("st A[tid * 24]", 2, p, 32, &req, &rep);
		CHECK_EQ(req, 1 + data_flits(2 * 32, fb));
	}
}

/* The chunks the coalescer records (inspect_coalesce replans the SM's last
 * instruction as the engine did): an access crossing a line boundary gives
 * each line only its own part, on 128, 256 and 1024 B lines; a Volta request
 * is its 32 B sector's chunk. */
static const struct coal_req *plan_of(struct tk *t, unsigned line, int mode, unsigned size, int n, const uint64_t *addr,
				      struct coal_info *ci)
{
	tk_base_cfg(&t->cfg);
	t->cfg.l1.line = t->cfg.l2.line = (int)line;
	t->cfg.core.coalescer = mode;
	if (t->cfg.l2.interleave < (int)line)
		t->cfg.l2.interleave = (int)line;
	if (!tk_start(t, 32, 1, "alu 1"))
		return NULL;
	struct sm *sm = &t->s->sms[0];
	memset(&sm->coal_in, 0, sizeof sm->coal_in);
	sm->coal_in.op = KOP_LD;
	sm->coal_in.size = (uint8_t)size;
	for (int l = 0; l < n; l++) {
		sm->coal_in.active |= 1ull << l;
		sm->coal_in.addr[l] = addr[l];
	}
	sm->coal_valid = 1;
	if (!inspect_coalesce(t->s, 0, ci) || !ci->valid)
		return NULL;
	return ci->plan.v;
}

/* Chunks of the request for line address ln in ci's plan (0: none). */
static uint32_t chunks_of(const struct coal_info *ci, uint64_t ln)
{
	for (int k = 0; k < ci->plan.n; k++)
		if (ci->plan.v[k].line == ln)
			return ci->plan.v[k].chunks;
	return 0;
}

TEST(payload_chunks_of_line_crossing_accesses)
{
	const uint64_t base = 0x10000000ull;
	static const unsigned lines[] = {128, 256, 1024};
	for (unsigned i = 0; i < 3; i++) {
		unsigned L = lines[i], last = L / 32 - 1;
		struct tk t;
		struct coal_info ci;
		/* lane 0: 8 B at L - 4 (its last chunk and the next line's first);
		 * lane 1: 8 B at 2L + 60 (chunks 1 and 2 of the line after) */
		uint64_t addr[2] = {base + L - 4, base + 2 * L + 60};
		REQUIRE(plan_of(&t, L, COAL_FERMI, 8, 2, addr, &ci));
		CHECK_EQ(ci.plan.n, 3);
		CHECK_EQ(chunks_of(&ci, base), 1u << last);
		CHECK_EQ(chunks_of(&ci, base + L), 1u);
		CHECK_EQ(chunks_of(&ci, base + 2 * L), 0x6u);
		CHECK_EQ(icnt_segment_bytes(L, chunks_of(&ci, base), 8), 32);
		CHECK_EQ(icnt_segment_bytes(L, chunks_of(&ci, base + 2 * L), 8), 128); /* {1,2}: both halves of a 128 B block */
		tk_end(&t);
	}
	/* Volta: lanes 0-7 read bytes 64-95 of one line: one request, chunk 2 */
	struct tk t;
	struct coal_info ci;
	uint64_t addr[8];
	for (int l = 0; l < 8; l++)
		addr[l] = base + 64 + 4 * (uint64_t)l;
	REQUIRE(plan_of(&t, 128, COAL_VOLTA, 4, 8, addr, &ci));
	CHECK_EQ(ci.plan.n, 1);
	CHECK_EQ(ci.plan.v[0].chunks, 0x4u);
	tk_end(&t);
}
