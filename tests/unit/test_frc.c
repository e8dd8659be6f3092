/*
 * test_frc.c: the Fetch and Replacement Cache, cycle by cycle, on one SM /
 * one L2 bank with fixed 100-cycle memory (tk_base_cfg): each lifecycle step,
 * a request waiting on a fetching entry, a dirty victim evicted from the
 * entry, and the fallback to the conventional path when the FRC set is full;
 * the per-bank counters on two banks.
 */
#include "coh/coh.h"
#include "sim/config.h"
#include "sim/event.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void frc_cfg(struct sim_cfg *c, int entries, int ways)
{
	tk_base_cfg(c);
	c->l2.frc.entries = entries;
	c->l2.frc.ways = ways;
	c->l2.frc.swap_cycles = 3;
	c->l2.frc.lookup_cycles = 1;
}

TEST(frc_lifecycle_single_miss)
{
	struct tk t;
	frc_cfg(&t.cfg, 4, 4);
	REQUIRE(tk_start(&t, 32, 1, "ld A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	uint64_t arrive = 3 + 1 + (uint64_t)t.cfg.icnt.latency; /* L1 at 1, crossbar at 2 */
	const struct event *a = tk_event(&t, EV_FRC_ALLOC, 0), *f = tk_event(&t, EV_FRC_FILL, 0),
			   *ss = tk_event(&t, EV_FRC_SWAP_START, 0), *sd = tk_event(&t, EV_FRC_SWAP_DONE, 0),
			   *fr = tk_event(&t, EV_FRC_FREE, 0);
	REQUIRE(a && f && ss && sd && fr);
	CHECK_EQ(a->cycle, arrive - 1);
	/* The early fetch leaves after the FRC lookup (one cycle later than the
	 * conventional hand-off), memory answers mem.latency later. */
	CHECK_EQ(f->cycle, a->cycle + 1 + (uint64_t)t.cfg.l2.frc.lookup_cycles + (uint64_t)t.cfg.mem.latency);
	CHECK_EQ(ss->cycle, f->cycle);
	CHECK_EQ(sd->cycle, f->cycle + (uint64_t)t.cfg.l2.frc.swap_cycles);
	CHECK_EQ(fr->cycle, sd->cycle); /* the victim way was empty: nothing to evict */
	/* The requester was answered from the entry at fill time. */
	const struct event *r = tk_event(&t, EV_MEM_REPLY, 0);
	REQUIRE(r);
	CHECK_EQ(r->a, tk_miss_latency(&t.cfg) + (uint64_t)t.cfg.l2.frc.lookup_cycles);
	CHECK_EQ(tk_count(&t, EV_L2_TRANSIENT), 0); /* the L2 line is never transient */
	CHECK_EQ(tk_stat(&t, "frc.allocs"), 1);
	CHECK_EQ(tk_stat(&t, "frc.swaps"), 1);
	CHECK_EQ(tk_stat(&t, "frc.fallbacks"), 0);
	tk_end(&t);
}

/* Reply flits of one full line on the crossbar (header + data). */
static uint64_t rep_flits(const struct sim_cfg *c) { return 1 + (uint64_t)c->l2.line / (uint64_t)c->icnt.flit_bytes; }

TEST(frc_request_waits_on_fetching_entry)
{
	struct tk t;
	frc_cfg(&t.cfg, 4, 4);
	t.cfg.core.sms = 2; /* two L1s, so both requests reach the L2 */
	/* A swap longer than a reply's link time, so a waiter answered after the
	 * swap (from the L2 line) could not reach its SM at the same cycle as one
	 * answered from the entry at the fill. */
	t.cfg.l2.frc.swap_cycles = 20;
	REQUIRE(tk_start(&t, 32, 2, "ld A[lane]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "frc.allocs"), 1);
	CHECK_EQ(tk_stat(&t, "frc.hits_fetching"), 1);
	CHECK_EQ(tk_stat(&t, "mem.reads"), 1);
	const struct event *a = tk_event(&t, EV_FRC_ALLOC, 0), *f = tk_event(&t, EV_FRC_FILL, 0),
			   *sd = tk_event(&t, EV_FRC_SWAP_DONE, 0);
	REQUIRE(a && f && sd);
	/* sm0's request allocates; sm1's reaches the bank one cycle later (the
	 * bank takes one request a cycle from the crossbar) and joins the entry. */
	uint64_t arrive = 3 + 1 + (uint64_t)t.cfg.icnt.latency;
	CHECK_EQ(a->cycle, arrive - 1);
	CHECK_EQ(tk_count(&t, EV_FRC_LOOKUP), 2);
	CHECK_EQ(tk_event(&t, EV_FRC_LOOKUP, 1)->cycle, a->cycle + 1);
	CHECK_EQ(f->cycle, a->cycle + 1 + (uint64_t)t.cfg.l2.frc.lookup_cycles + (uint64_t)t.cfg.mem.latency);
	CHECK_EQ(sd->cycle, f->cycle + 20);
	/* Both requesters are answered from the entry at the fill: both replies
	 * leave the bank at f, one after the other on the bank's link, so the
	 * joined waiter (sm1) arrives one reply's flits after sm0, long before the
	 * swap is done. */
	const struct event *r0 = tk_event(&t, EV_MEM_REPLY, 0), *r1 = tk_event(&t, EV_MEM_REPLY, 1);
	REQUIRE(r0 && r1);
	CHECK_EQ(r0->sm, 0);
	CHECK_EQ(r1->sm, 1);
	uint64_t rf = rep_flits(&t.cfg);
	uint64_t fd = tk_fill_delay(&t.cfg); /* l2.fill_reply: the replies pass the pipeline */
	CHECK_EQ(r0->cycle, f->cycle + fd + rf + (uint64_t)t.cfg.icnt.latency);
	CHECK_EQ(r1->cycle, f->cycle + fd + 2 * rf + (uint64_t)t.cfg.icnt.latency);
	CHECK(f->cycle + fd < sd->cycle); /* both left the bank before the swap was done */
	/* latency = reply cycle - issue cycle (0 for both warps 0) */
	CHECK_EQ(r1->a, r1->cycle);
	tk_end(&t);
}

TEST(frc_dirty_victim_evicted_from_entry)
{
	struct tk t;
	frc_cfg(&t.cfg, 1, 1);
	t.cfg.l2.sets = 1;
	t.cfg.l2.ways = 1;
	t.cfg.l1.enabled = false;
	/* The store leaves X dirty in the only L2 line; the load of Y must swap
	 * X out of it. The alu keeps the load behind the store's acknowledgement. */
	REQUIRE(tk_start(&t, 32, 1, "st A[lane] <- r9; ld B[lane] -> r1"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "frc.allocs"), 1);
	CHECK_EQ(tk_stat(&t, "frc.evictions"), 1);
	CHECK_EQ(tk_stat(&t, "l2.writebacks"), 1);
	const struct event *a = tk_event(&t, EV_FRC_ALLOC, 0), *f = tk_event(&t, EV_FRC_FILL, 0),
			   *sd = tk_event(&t, EV_FRC_SWAP_DONE, 0), *ed = tk_event(&t, EV_FRC_EVICT_DONE, 0),
			   *fr = tk_event(&t, EV_FRC_FREE, 0), *st = tk_event(&t, EV_L2_ACCESS, 0);
	REQUIRE(a && f && sd && ed && fr && st);
	/* The store (header + 128 B of data on the crossbar) reaches the bank at
	 * 2 + its flits + icnt.latency and leaves X dirty in the only line at once
	 * (lazy_fetch); the load of Y, issued a cycle later, arrives right behind. */
	CHECK_EQ(st->cycle, 2 + rep_flits(&t.cfg) + (uint64_t)t.cfg.icnt.latency);
	CHECK_EQ(a->cycle, st->cycle + 1);
	CHECK_EQ(f->cycle, a->cycle + 1 + (uint64_t)t.cfg.l2.frc.lookup_cycles + (uint64_t)t.cfg.mem.latency);
	CHECK_EQ(sd->cycle, f->cycle + (uint64_t)t.cfg.l2.frc.swap_cycles);
	/* Swaps finish before the bank hands requests to memory (l2_tick steps
	 * 1 and 2), so the write-back of X leaves the cycle the swap completes,
	 * and the entry frees then. */
	CHECK_EQ(ed->cycle, sd->cycle);
	CHECK_EQ(ed->addr, st->addr); /* the victim written back is X */
	CHECK_EQ(fr->cycle, ed->cycle);
	CHECK_EQ(tk_count(&t, EV_L2_TRANSIENT), 0);
	tk_end(&t);
}

TEST(frc_full_set_falls_back_to_conventional_path)
{
	struct tk t;
	frc_cfg(&t.cfg, 1, 1);
	/* Two warps, two lines, one FRC entry: the second miss takes the
	 * conventional path and its L2 line becomes transient. */
	REQUIRE(tk_start(&t, 64, 1, "ld A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "frc.allocs"), 1);
	CHECK_EQ(tk_stat(&t, "frc.fallbacks"), 1);
	CHECK_EQ(tk_count(&t, EV_FRC_FALLBACK), 1);
	CHECK_EQ(tk_count(&t, EV_L2_TRANSIENT), 1);
	CHECK_EQ(tk_stat(&t, "mem.reads"), 2);
	/* Warp 0's line allocates the entry at arrive - 1; warp 1's, a cycle
	 * later, finds the set full: the fallback marks its L2 line transient at
	 * once and hands the fetch to memory the next cycle, like the FRC's early
	 * fetch without the lookup cycle, so both fills come back together. */
	uint64_t arrive = 3 + 1 + (uint64_t)t.cfg.icnt.latency;
	const struct event *a = tk_event(&t, EV_FRC_ALLOC, 0), *fb = tk_event(&t, EV_FRC_FALLBACK, 0),
			   *tr = tk_event(&t, EV_L2_TRANSIENT, 0), *lf = tk_event(&t, EV_L2_FILL, 0),
			   *ff = tk_event(&t, EV_FRC_FILL, 0);
	REQUIRE(a && fb && tr && lf && ff);
	CHECK_EQ(a->cycle, arrive - 1);
	CHECK_EQ(fb->cycle, arrive);
	CHECK_EQ(fb->a, 0); /* reason: no free way */
	CHECK_EQ(tr->cycle, fb->cycle);
	CHECK_EQ(tr->addr, fb->addr);
	CHECK_EQ(lf->cycle, tr->cycle + 1 + (uint64_t)t.cfg.mem.latency);
	CHECK_EQ(ff->cycle, lf->cycle);
	/* Both replies leave at that cycle; the FRC's (warp 0) goes first on the
	 * bank's link, the conventional one follows a reply's flits later. */
	const struct event *r0 = tk_event(&t, EV_MEM_REPLY, 0), *r1 = tk_event(&t, EV_MEM_REPLY, 1);
	REQUIRE(r0 && r1);
	CHECK_EQ(r0->addr, a->addr);
	CHECK_EQ(r1->addr, fb->addr);
	uint64_t rf = rep_flits(&t.cfg);
	uint64_t fd = tk_fill_delay(&t.cfg);
	CHECK_EQ(r0->cycle, ff->cycle + fd + rf + (uint64_t)t.cfg.icnt.latency);
	CHECK_EQ(r1->cycle, lf->cycle + fd + 2 * rf + (uint64_t)t.cfg.icnt.latency);
	CHECK_EQ(r1->a, r1->cycle - 1); /* warp 1 issued at cycle 1 */
	tk_end(&t);
}

/* With a coherence protocol the FRC's EVICTING step invalidates the victim's
 * L1 copies from the entry: the store leaves A in M in the L1 (and in the only
 * L2 line); the load of B swaps A out, Inv goes from the entry at the swap,
 * the AckD brings A's data, and only then is A written back and the entry
 * freed. B's requester is answered by B's new directory entry at the swap. */
TEST(frc_coherence_victim_invalidated_from_entry)
{
	struct tk t;
	frc_cfg(&t.cfg, 1, 1);
	t.cfg.l2.sets = 1;
	t.cfg.l2.ways = 1;
	t.cfg.l2.coh.protocol = COH_MOESI;
	REQUIRE(tk_start(&t, 32, 1, "st A[lane] <- r9; alu 400; ld B[lane] -> r1"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "frc.allocs"), 2); /* A's GetX, then B */
	CHECK_EQ(tk_stat(&t, "frc.inv_victims"), 1);
	CHECK_EQ(tk_stat(&t, "coh.invalidations"), 1);
	CHECK_EQ(tk_stat(&t, "coh.msgs.AckD"), 1);
	CHECK_EQ(tk_stat(&t, "frc.evictions"), 1); /* dirty through the AckD */
	CHECK_EQ(tk_stat(&t, "l2.writebacks"), 1);
	CHECK_EQ(tk_stat(&t, "coh.errors"), 0);
	CHECK_EQ(tk_count(&t, EV_L2_TRANSIENT), 0);
	/* the second swap (B in, A out) */
	const struct event *sd = tk_event(&t, EV_FRC_SWAP_DONE, 1), *ed = tk_event(&t, EV_FRC_EVICT_DONE, 0),
			   *fr = tk_event(&t, EV_FRC_FREE, 1);
	REQUIRE(sd && ed && fr);
	const struct event *inv = NULL, *ackd = NULL;
	for (unsigned i = 0; i < tk_count(&t, EV_COH_MSG); i++) {
		const struct event *m = tk_event(&t, EV_COH_MSG, i);
		if (m->a == CM_INV && !inv)
			inv = m;
		if (m->a == CM_ACKD && !ackd)
			ackd = m;
	}
	REQUIRE(inv && ackd);
	CHECK_EQ(inv->cycle, sd->cycle);  /* sent from the entry at the swap */
	/* The Inv leaves the bank after the lookup and directory latencies and
	 * reaches the L1 (one flit) icnt.latency later, where the AckD is sent at
	 * once; the AckD (header + A's data) reaches the bank 1 + its flits +
	 * icnt.latency later, and the write-back of A is handed to memory the
	 * cycle after: that is when the entry frees. */
	CHECK_EQ(ackd->cycle, inv->cycle + (uint64_t)t.cfg.l2.hit_latency + (uint64_t)t.cfg.l2.coh.dir_latency + 1 +
				      (uint64_t)t.cfg.icnt.latency);
	CHECK_EQ(ed->cycle, ackd->cycle + 1 + rep_flits(&t.cfg) + (uint64_t)t.cfg.icnt.latency + 1);
	CHECK_EQ(ed->addr, inv->addr);
	CHECK_EQ(fr->cycle, ed->cycle);
	/* the L1 lost A and got B */
	CHECK_EQ(tk_stat(&t, "coh.msgs.DataE"), 1);
	CHECK_EQ(tk_stat(&t, "coh.msgs.DataX"), 1);
	/* the miss latency split: no invalidation or eviction on the FRC path */
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.frc.misses"), 2);
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.frc.inval"), 0);
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.frc.evict"), 0);
	CHECK(tk_stat(&t, "frc.evict_lat.inval") >= 2 * (uint64_t)t.cfg.icnt.latency);
	tk_end(&t);
}

/* The same scenario without the FRC: the conventional path waits for the
 * invalidation (and the write-back) before the fetch, and the split shows it. */
TEST(frc_miss_latency_split_conventional_with_invalidation)
{
	struct tk t;
	frc_cfg(&t.cfg, 0, 1);
	t.cfg.l2.sets = 1;
	t.cfg.l2.ways = 1;
	t.cfg.l2.coh.protocol = COH_MOESI;
	REQUIRE(tk_start(&t, 32, 1, "st A[lane] <- r9; alu 400; ld B[lane] -> r1"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.conv.misses"), 2);
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.frc.misses"), 0);
	CHECK(tk_stat(&t, "l2.miss_lat.conv.inval") >= 2 * (uint64_t)t.cfg.icnt.latency);
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.conv.dram"), 2 * (uint64_t)t.cfg.mem.latency);
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.conv.total"),
		 tk_stat(&t, "l2.miss_lat.conv.inval") + tk_stat(&t, "l2.miss_lat.conv.evict") +
			 tk_stat(&t, "l2.miss_lat.conv.contention") + tk_stat(&t, "l2.miss_lat.conv.dram"));
	CHECK(tk_stat(&t, "mem.bytes") > 0);
	tk_end(&t);
}

/* The FRC part of sim_check_invariants: clean at every cycle of a busy run
 * (several entries fetching, swapping and evicting dirty victims at once), and
 * each rule fails with its message when the state is broken on purpose. */
TEST(frc_invariants_scan)
{
	struct tk t;
	frc_cfg(&t.cfg, 4, 2);
	t.cfg.l2.sets = 2;
	t.cfg.l2.ways = 2;
	t.cfg.l2.coh.protocol = COH_MOESI; /* victims stay EVICTING until their L1 copies' acks */
	REQUIRE(tk_start(&t, 256, 2, "st A[tid * 32] <- r9; ld B[tid * 32] -> r1; ld A[tid * 32 + 1024] -> r2"));
	struct l2bank *b = &t.s->banks[0];
	char *err = NULL;
	unsigned busy = 0, swapping = 0, evicting = 0;
	bool broke = false;
	while (!sim_done(t.s) && sim_step(t.s, 1) != SIM_STOP_DONE) {
		if (sim_check_invariants(t.s, &err)) {
			CHECK(!err);
			free(err);
			err = NULL;
			break;
		}
		swapping += b->frc.swapping > 0;
		evicting += b->frc.evicting > 0;
		busy += b->frc.active >= 2;
		if (broke || b->frc.active < 2)
			continue;
		/* Break each rule once, at the first cycle two entries are busy. */
		int i = -1, j = -1;
		for (int k = 0; k < b->frc.n; k++)
			if (b->frc.e[k].state == FRC_FETCHING)
				*(i < 0 ? &i : &j) = k;
		if (i < 0 || j < 0)
			continue;
		broke = true;
		struct frc_entry *e = &b->frc.e[i], *o = &b->frc.e[j];
		b->frc.swapping++;
		CHECK_EQ(sim_check_invariants(t.s, &err), -1);
		CHECK(err && strstr(err, "FRC counters"));
		free(err);
		err = NULL;
		b->frc.swapping--;
		uint8_t st = e->state;
		e->state = 9;
		CHECK_EQ(sim_check_invariants(t.s, &err), -1);
		CHECK(err && strstr(err, "state 9 is none of"));
		free(err);
		err = NULL;
		e->state = st;
		uint64_t tag = o->tag;
		o->tag = e->tag;
		CHECK_EQ(sim_check_invariants(t.s, &err), -1);
		CHECK(err && strstr(err, "is in FRC entries"));
		free(err);
		err = NULL;
		o->tag = tag;
		struct cline *l = cache_line(&b->c, e->set, 0), save = *l;
		l->tag = e->tag;
		l->valid = 1;
		l->transient = 0;
		CHECK_EQ(sim_check_invariants(t.s, &err), -1);
		CHECK(err && strstr(err, "also a valid L2 line"));
		free(err);
		err = NULL;
		*l = save;
		CHECK_EQ(sim_check_invariants(t.s, &err), 0);
	}
	CHECK(sim_done(t.s));
	CHECK(broke);
	CHECK(busy > 0 && swapping > 0 && evicting > 0);
	CHECK(tk_stat(&t, "frc.evictions") > 0);
	tk_end(&t);
}

/* l2.frc.index on the RX540's layout (2 banks, 256 B interleave, 64 B lines,
 * 128 L2 sets) with 64 entries x 8 ways = 8 FRC sets: where eight blocks that
 * share one L2 set (16 KB apart) and eight consecutive lines of bank 0 land. */
static unsigned frc_sets_used(struct sim *s, uint64_t base, uint64_t stride, unsigned n)
{
	unsigned used = 0;
	for (unsigned k = 0; k < n; k++) {
		uint64_t a = base + k * stride;
		CHECK_EQ((a / 256) % 2, 0); /* bank 0 */
		used |= 1u << frc_set_of(s, &s->banks[0], a);
	}
	return used;
}

TEST(frc_index_options)
{
	static const char *const names[] = {"xor", "linear", "skip_l2_set_bits", "global"};
	/* bitmaps of FRC sets used by {8 blocks of one L2 set, 8 consecutive bank lines} */
	static const unsigned want_same_l2set[] = {0xff, 0x01, 0xff, 0x01};
	static const unsigned want_stream[] = {0xff, 0xff, 0x01, 0x0f};
	for (unsigned i = 0; i < 4; i++) {
		struct tk t;
		frc_cfg(&t.cfg, 64, 8);
		t.cfg.l2.banks = 2;
		t.cfg.l2.line = 64;
		t.cfg.l1.line = 64;
		t.cfg.l2.sets = 128;
		t.cfg.l2.interleave = 256;
		char *err = NULL;
		CHECK_EQ(cfg_set_value(&t.cfg, "l2.frc.index", names[i], &err), 0);
		REQUIRE(tk_start(&t, 32, 1, "ld A[lane]"));
		const uint64_t base = 0x10000000, l2set_stride = 128u * 64 * 2; /* 128 lines of one bank */
		CHECK_EQ(frc_sets_used(t.s, base, l2set_stride, 8), want_same_l2set[i]);
		/* bank 0's consecutive lines: 4 per 256 B chunk, every other chunk */
		unsigned stream = 0;
		for (unsigned k = 0; k < 8; k++)
			stream |= frc_sets_used(t.s, base + (k / 4) * 512 + (k % 4) * 64, 0, 1);
		CHECK_EQ(stream, want_stream[i]);
		tk_end(&t);
	}
	/* (global: bank 0's 8 consecutive lines use sets 0-3 only, the aliasing.)
	 * skip_l2_set_bits is refused where the L2 set is not the low bits. */
	struct sim_cfg c;
	char *err = NULL;
	cfg_defaults(&c);
	CHECK_EQ(cfg_set_value(&c, "l2.frc.entries", "64", &err), 0);
	CHECK_EQ(cfg_set_value(&c, "l2.frc.index", "skip_l2_set_bits", &err), 0);
	CHECK_EQ(cfg_set_value(&c, "l2.index", "ipoly", &err), 0);
	CHECK_EQ(cfg_validate(&c, &err), -1);
	CHECK(err && strstr(err, "l2.frc.index: skip_l2_set_bits needs l2.index=linear"));
	free(err);
	err = NULL;
	CHECK_EQ(cfg_set_value(&c, "l2.frc.index", "modulo", &err), -1);
	CHECK(err && strstr(err, "l2.frc.index"));
	free(err);
}

/* Per-bank FRC counters (l2.bankN.frc.*) on two banks of one 1-entry FRC each,
 * one bank line apart (interleave = line): warps 0, 1, 2 load lines 0, 1, 2 of
 * A, so bank 0 gets lines 0 and 2 and bank 1 line 1. Line 0 takes bank 0's
 * only entry; line 1 bank 1's; line 2 reaches bank 0 while its entry is still
 * fetching and falls back (set_full). Each bank's counters match its events,
 * sum to the machine-wide frc.*, and l2.bankN.frc.share = allocs / the bank's
 * misses like frc.share = frc.allocs / l2.misses; the invariant scan catches a
 * per-bank counter out of step. */
TEST(frc_per_bank_counters)
{
	struct tk t;
	frc_cfg(&t.cfg, 1, 1);
	t.cfg.l2.banks = 2;
	t.cfg.l2.interleave = t.cfg.l2.line;
	REQUIRE(tk_start(&t, 96, 1, "ld A[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	uint64_t line = (uint64_t)t.cfg.l2.line;
	/* The events: where each lookup went and what became of it. */
	REQUIRE(tk_count(&t, EV_FRC_ALLOC) == 2 && tk_count(&t, EV_FRC_FALLBACK) == 1);
	const struct event *a0 = tk_event(&t, EV_FRC_ALLOC, 0), *a1 = tk_event(&t, EV_FRC_ALLOC, 1),
			   *fb = tk_event(&t, EV_FRC_FALLBACK, 0);
	uint64_t base = a0->addr;
	CHECK_EQ(a0->unit, 0);
	CHECK_EQ(a1->unit, 1);
	CHECK_EQ(a1->addr, base + line);
	CHECK_EQ(fb->unit, 0);
	CHECK_EQ(fb->addr, base + 2 * line);
	CHECK_EQ(fb->a, 0); /* set_full: bank 0's entry is still fetching line 0 */
	/* One request a cycle leaves the SM: line 0 at arrive - 1 (as in
	 * frc_lifecycle_single_miss), line 1 a cycle later, line 2 two. */
	uint64_t arrive = 3 + 1 + (uint64_t)t.cfg.icnt.latency;
	CHECK_EQ(a0->cycle, arrive - 1);
	CHECK_EQ(a1->cycle, arrive);
	CHECK_EQ(fb->cycle, arrive + 1);
	/* The counters, per bank and machine-wide. */
	CHECK_EQ(tk_stat(&t, "l2.bank0.misses"), 2);
	CHECK_EQ(tk_stat(&t, "l2.bank1.misses"), 1);
	CHECK_EQ(tk_stat(&t, "l2.bank0.frc.lookups"), 2);
	CHECK_EQ(tk_stat(&t, "l2.bank1.frc.lookups"), 1);
	CHECK_EQ(tk_stat(&t, "l2.bank0.frc.allocs"), 1);
	CHECK_EQ(tk_stat(&t, "l2.bank1.frc.allocs"), 1);
	CHECK_EQ(tk_stat(&t, "l2.bank0.frc.fallbacks"), 1);
	CHECK_EQ(tk_stat(&t, "l2.bank1.frc.fallbacks"), 0);
	CHECK_EQ(tk_stat(&t, "l2.bank0.frc.fills"), 1);
	CHECK_EQ(tk_stat(&t, "l2.bank1.frc.fills"), 1);
	CHECK_EQ(tk_stat(&t, "l2.bank0.frc.swaps"), 1);
	CHECK_EQ(tk_stat(&t, "l2.bank1.frc.swaps"), 1);
	CHECK_EQ(tk_stat(&t, "frc.allocs"), 2);
	CHECK_EQ(tk_stat(&t, "frc.fallbacks"), 1);
	static const char *const ctr[] = {"lookups", "allocs", "fallbacks", "hits_fetching",
					  "evicting_hits", "fills", "swaps", "evictions"};
	for (int k = 0; k < 8; k++) {
		char n0[64], n1[64], all[64];
		snprintf(n0, sizeof n0, "l2.bank0.frc.%s", ctr[k]);
		snprintf(n1, sizeof n1, "l2.bank1.frc.%s", ctr[k]);
		snprintf(all, sizeof all, "frc.%s", ctr[k]);
		CHECK_EQ(tk_stat(&t, n0) + tk_stat(&t, n1), tk_stat(&t, all));
	}
	const struct stats *st = sim_stats_c(t.s);
	int s0 = stats_find(st, "l2.bank0.frc.share"), s1 = stats_find(st, "l2.bank1.frc.share"),
	    sa = stats_find(st, "frc.share");
	REQUIRE(s0 >= 0 && s1 >= 0 && sa >= 0);
	CHECK(stats_value(st, (uint32_t)s0) == 0.5);
	CHECK(stats_value(st, (uint32_t)s1) == 1.0);
	CHECK(stats_value(st, (uint32_t)sa) == 2.0 / 3.0);
	/* A per-bank counter out of step with the machine-wide one is caught. */
	char *err = NULL;
	CHECK_EQ(sim_check_invariants(t.s, &err), 0);
	int id = stats_find(&t.s->stats, "l2.bank1.frc.fallbacks");
	REQUIRE(id >= 0);
	stat_inc(&t.s->stats, (uint32_t)id);
	CHECK_EQ(sim_check_invariants(t.s, &err), -1);
	CHECK(err && strstr(err, "l2.bank*.frc.fallbacks sum to 2 but frc.fallbacks is 1"));
	free(err);
	stat_add(&t.s->stats, (uint32_t)id, (uint64_t)-1);
	tk_end(&t);
}
