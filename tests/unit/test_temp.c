/*
 * test_temp.c: TEMP's thread batches, SM-bound banks and first-touch page
 * colouring at the DRAM (dram.page_alloc = temp, dram_enqueue_from), with
 * the batching-layout toy cases of notes 002 §5.2 item 6 (Fig. 32, Fig. 34),
 * and the interleaved baseline with dram.local_stats.
 *
 * The CTAs' accesses are fed straight to the DRAM as the L2 would hand its
 * misses over: CTA c belongs to batch c / stride, batches go to the 2 SMs
 * in turn (serial dispatch of batches), and the CTAs run concurrently (one
 * 64 B line of each CTA in turn).
 */
#include "test_dram_harness.h"

#define PAGE 4096u

static void temp_cfg(struct dh *h, int alloc)
{
	dh_cfg(&h->cfg);
	h->cfg.core.sms = 2;
	h->cfg.dram.banks = 2;     /* SM 0 owns bank 0, SM 1 bank 1 */
	h->cfg.dram.columns = 512; /* 8 KB rows: two 4 KB pages per row */
	h->cfg.dram.page_alloc = alloc;
	h->cfg.dram.local_stats = true;
}

/* CTA c touches the `nreg` byte ranges region(c, k) = [start, start + len). */
struct toy {
	unsigned ctas, stride;
	uint64_t start[4][2], len;
	unsigned nreg;
};

static void feed_toy(struct dh *h, const struct toy *t)
{
	uint64_t off[4][2] = {{0}};
	uint32_t tag = 0;
	bool more = true;
	while (more) {
		more = false;
		for (unsigned c = 0; c < t->ctas; c++)
			for (unsigned k = 0; k < t->nreg; k++) {
				if (off[c][k] >= t->len)
					continue;
				uint64_t a = t->start[c][k] + off[c][k];
				int sm = (int)((c / t->stride) % 2);
				while (!dram_can_accept(h->d, a, false)) {
					h->now++;
					dh_pop(h);
				}
				dram_enqueue_from(h->d, a, false, tag++, sm);
				off[c][k] += 64;
				more = true;
			}
	}
	dh_run(h, 0, true);
}

static unsigned bank_of(struct dh *h, uint64_t addr)
{
	unsigned ch, bank;
	dram_decode(h->d, addr, &ch, &bank, NULL, NULL);
	return bank;
}

/* Fig. 32: 4 CTAs, CTA b reads matrix row b (`rowb` bytes). */
static void fig32(unsigned rowb, unsigned stride, uint64_t *local, uint64_t *remote, unsigned bank[4])
{
	struct dh h;
	temp_cfg(&h, DRAM_ALLOC_TEMP);
	if (!dh_init(&h))
		return;
	struct toy t = {.ctas = 4, .stride = stride, .len = rowb, .nreg = 1};
	for (unsigned c = 0; c < 4; c++)
		t.start[c][0] = (uint64_t)c * rowb;
	feed_toy(&h, &t);
	*local = dh_stat(&h, "dram.local_accesses");
	*remote = dh_stat(&h, "dram.remote_accesses");
	for (unsigned p = 0; p < 4; p++)
		bank[p] = bank_of(&h, (uint64_t)p * PAGE);
	dh_fini(&h);
}

TEST(temp_batching_fig32_contiguous)
{
	uint64_t l, r;
	unsigned b[4];
	/* Page = one matrix row: stride 1 is already perfect; pages follow their CTA's SM. */
	fig32(PAGE, 1, &l, &r, b);
	CHECK_EQ(l, 4 * 64);
	CHECK_EQ(r, 0);
	CHECK_EQ(b[0], 0);
	CHECK_EQ(b[1], 1);
	CHECK_EQ(b[2], 0);
	CHECK_EQ(b[3], 1);
	/* Page = two matrix rows, stride 1: CTAs 0 and 1 (SMs 0 and 1) share page 0,
	 * CTA 0's SM touched it first, so CTA 1's half is remote; same for page 1. */
	fig32(PAGE / 2, 1, &l, &r, b);
	CHECK_EQ(l, 64);
	CHECK_EQ(r, 64);
	CHECK_EQ(b[0], 0);
	CHECK_EQ(b[1], 0);
	/* Stride 2: batch {0,1} on SM 0 with page 0 in bank 0, batch {2,3} on SM 1
	 * with page 1 in bank 1: every access local. */
	fig32(PAGE / 2, 2, &l, &r, b);
	CHECK_EQ(l, 128);
	CHECK_EQ(r, 0);
	CHECK_EQ(b[0], 0);
	CHECK_EQ(b[1], 1);
}

/* Fig. 34: a 2 x 2 grid of CTAs (bx, by), linear id bx + 2 by; CTA (bx, by)
 * covers half bx of matrix rows 2 by and 2 by + 1, one row per page. */
static void fig34(unsigned stride, uint64_t *local, uint64_t *remote, unsigned bank[4], unsigned row[4])
{
	struct dh h;
	temp_cfg(&h, DRAM_ALLOC_TEMP);
	if (!dh_init(&h))
		return;
	struct toy t = {.ctas = 4, .stride = stride, .len = PAGE / 2, .nreg = 2};
	for (unsigned c = 0; c < 4; c++) {
		unsigned bx = c % 2, by = c / 2;
		for (unsigned k = 0; k < 2; k++)
			t.start[c][k] = (uint64_t)(2 * by + k) * PAGE + bx * (PAGE / 2);
	}
	feed_toy(&h, &t);
	*local = dh_stat(&h, "dram.local_accesses");
	*remote = dh_stat(&h, "dram.remote_accesses");
	for (unsigned p = 0; p < 4; p++) {
		uint32_t rw;
		unsigned ch;
		dram_decode(h.d, (uint64_t)p * PAGE, &ch, &bank[p], &rw, NULL);
		row[p] = rw;
	}
	CHECK_EQ(dh_stat(&h, "dram.temp.pages"), 4);
	dh_fini(&h);
}

TEST(temp_batching_fig34_2d)
{
	uint64_t l, r;
	unsigned b[4], rw[4];
	/* Stride 2: batches {(0,0,0),(1,0,0)} and {(0,1,0),(1,1,0)}: pages 0-1 in
	 * bank 0 (one DRAM row), pages 2-3 in bank 1; no remote access. */
	fig34(2, &l, &r, b, rw);
	CHECK_EQ(b[0], 0);
	CHECK_EQ(b[1], 0);
	CHECK_EQ(b[2], 1);
	CHECK_EQ(b[3], 1);
	CHECK_EQ(rw[0], rw[1]);
	CHECK_EQ(rw[2], rw[3]);
	CHECK_EQ(l, 4 * 2 * 32);
	CHECK_EQ(r, 0);
	/* Stride 1: CTAs (0,0,0) and (1,0,0) sit on different SMs and share pages
	 * 0 and 1: the second SM's half of every page is remote. */
	fig34(1, &l, &r, b, rw);
	CHECK_EQ(l, 4 * 32);
	CHECK_EQ(r, 4 * 32);
}

/* The interleaved map with local_stats: pages follow the address map (bank =
 * page mod 2 here), so the Fig. 34 layout with stride 2 is half remote:
 * batch {0,1} on SM 0 touches pages 0 and 1, one of them in SM 1's bank. */
TEST(temp_interleave_baseline_counts_remote)
{
	struct dh h;
	temp_cfg(&h, DRAM_ALLOC_INTERLEAVE);
	strcpy(h.cfg.dram.mapping, "row:col[1]:bank:col[8]");
	if (!dh_init(&h))
		return;
	struct toy t = {.ctas = 4, .stride = 2, .len = PAGE / 2, .nreg = 2};
	for (unsigned c = 0; c < 4; c++)
		for (unsigned k = 0; k < 2; k++)
			t.start[c][k] = (uint64_t)(2 * (c / 2) + k) * PAGE + (c % 2) * (PAGE / 2);
	feed_toy(&h, &t);
	CHECK_EQ(dh_stat(&h, "dram.local_accesses"), 128);
	CHECK_EQ(dh_stat(&h, "dram.remote_accesses"), 128);
	CHECK(dh_value(&h, "dram.local_ratio") > 0.49 && dh_value(&h, "dram.local_ratio") < 0.51);
	dh_fini(&h);
}

/* Requests without an origin place a page by its colour; a later request
 * from an SM keeps that place and counts as remote if the bank is not its. */
TEST(temp_no_origin_and_page_table_full)
{
	struct dh h;
	temp_cfg(&h, DRAM_ALLOC_TEMP);
	h.cfg.dram.temp_pages = 2;
	if (!dh_init(&h))
		return;
	dram_enqueue_from(h.d, 1 * PAGE, true, 0, -1); /* colour of page 1: bank 1 */
	dram_enqueue_from(h.d, 1 * PAGE + 64, false, 1, 0);
	dram_enqueue_from(h.d, 2 * PAGE, false, 2, 0);
	dram_enqueue_from(h.d, 3 * PAGE, false, 3, 0); /* table full: colour map, bank 1 */
	dh_run(&h, 0, true);
	CHECK_EQ(dh_stat(&h, "dram.temp.pages"), 2);
	CHECK_EQ(dh_stat(&h, "dram.temp.no_origin"), 1);
	CHECK_EQ(dh_stat(&h, "dram.temp.overflow"), 1);
	CHECK_EQ(bank_of(&h, 1 * PAGE), 1);
	CHECK_EQ(bank_of(&h, 2 * PAGE), 0);
	CHECK_EQ(dh_stat(&h, "dram.local_accesses"), 1);
	CHECK_EQ(dh_stat(&h, "dram.remote_accesses"), 2);
	struct dram_bank_info bi;
	REQUIRE(dram_bank_info(h.d, 0, 1, &bi));
	CHECK_EQ(bi.owner, 1);
	CHECK_EQ(bi.remote, 2);
	CHECK(bi.last_remote);
	dh_fini(&h);
}

/* Default configs register none of this (golden stats unchanged). */
TEST(temp_off_by_default)
{
	struct dh h;
	dh_cfg(&h.cfg);
	if (!dh_init(&h))
		return;
	CHECK(stats_find(&h.st, "dram.local_ratio") < 0);
	struct dram_bank_info bi;
	REQUIRE(dram_bank_info(h.d, 0, 0, &bi));
	CHECK_EQ(bi.owner, -1);
	dh_fini(&h);
}
