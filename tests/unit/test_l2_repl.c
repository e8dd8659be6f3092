/*
 * test_l2_repl.c: the L2's replacement path and its FRC options, on one or
 * two SMs, one L2 bank and fixed 100-cycle memory (tk_base_cfg): the
 * conventional miss serialised as invalidate -> evict -> fetch (l2.sharers,
 * l2.evict_order), fills and FRC swaps taking L2 port cycles, a store waiting
 * on a fetching FRC entry leaving its line dirty, l2.frc.mshr and
 * l2.frc.serve_evicting changing what happens, sectored merges fetching their
 * sectors at once, and a request pool too small for a miss refusing it
 * (pool_full) instead of losing a request. Expectations come from the config.
 */
#include "sim/config.h"
#include "sim/event.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

/* One line, one way: every miss replaces the only line. */
static void one_line_cfg(struct sim_cfg *c)
{
	tk_base_cfg(c);
	c->l2.sets = 1;
	c->l2.ways = 1;
}

/* SM0 writes X, reads it back (its L1 now holds X, the L2 line is dirty),
 * then misses on Y, whose only possible victim is X. */
#define CHURN "st A[lane]; ld A[lane] -> r1; ld B[lane] -> r2 <- r1"

static void serial_run(struct tk *t, int sharers, int order)
{
	one_line_cfg(&t->cfg);
	t->cfg.l2.sharers = sharers;
	t->cfg.l2.evict_order = order;
	REQUIRE(tk_start(t, 32, 1, CHURN));
	CHECK_EQ(sim_step(t->s, 100000), SIM_STOP_DONE);
}

TEST(l2_conv_miss_invalidates_then_evicts_then_fetches)
{
	struct tk t;
	serial_run(&t, L2SH_EXACT, L2EV_SERIAL);
	const uint64_t mem = (uint64_t)t.cfg.mem.latency;
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.conv.misses"), 1); /* Y (the store allocates without a fetch) */
	CHECK_EQ(tk_stat(&t, "l2.sharers.invs"), 1);
	CHECK_EQ(tk_stat(&t, "l2.sharers.l1_dropped"), 1);
	CHECK_EQ(tk_stat(&t, "l2.writebacks"), 1);
	const struct event *inv = tk_event(&t, EV_L2_INV, 0), *wb = tk_event(&t, EV_L2_WRITEBACK, 0),
	                   *tr = tk_event(&t, EV_L2_TRANSIENT, 0), *fill = tk_event(&t, EV_L2_FILL, 0);
	REQUIRE(inv && wb && tr && fill);
	/* 1. the Inv leaves at the miss; the ack comes back over the crossbar:
	 * at least the directory delay and a crossing each way. */
	CHECK_EQ(inv->cycle, tr->cycle);
	CHECK_EQ(inv->sm, 0);
	const uint64_t inval = tk_stat(&t, "l2.miss_lat.conv.inval");
	CHECK_EQ(wb->cycle - tr->cycle, inval);
	CHECK(inval >= (uint64_t)t.cfg.l2.hit_latency + (uint64_t)t.cfg.l2.coh.dir_latency +
	                   2 * (uint64_t)t.cfg.icnt.latency);
	/* 2. the write-back, queued at the ack's lookup, is handed to memory the
	 * next cycle and completes mem cycles later: only then 3. the fetch. */
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.conv.evict"), 1 + mem);
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.conv.contention"), 0);
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.conv.dram"), mem);
	CHECK_EQ(fill->cycle, wb->cycle + 1 + mem + mem);
	CHECK_EQ(tk_stat(&t, "l2.sharers.stray_acks"), 0);
	tk_end(&t);
}

TEST(l2_conv_miss_options_change_the_split)
{
	const uint64_t mem = 100;
	struct tk t;
	/* overlap: the fetch is queued right behind the write-back (the
	 * pre-issue-18 order): the eviction lasts until the hand-off only. */
	serial_run(&t, L2SH_EXACT, L2EV_OVERLAP);
	CHECK_EQ(t.cfg.mem.latency, (int)mem);
	CHECK(tk_stat(&t, "l2.miss_lat.conv.inval") > 0);
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.conv.evict"), 1);
	CHECK(tk_stat(&t, "l2.miss_lat.conv.evict") + tk_stat(&t, "l2.miss_lat.conv.contention") < mem);
	tk_end(&t);
	/* accepted: the fetch leaves once memory has taken the write-back. */
	serial_run(&t, L2SH_EXACT, L2EV_ACCEPTED);
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.conv.evict"), 1);
	tk_end(&t);
	/* no sharer record: nothing to invalidate, the copy stays in the L1. */
	serial_run(&t, L2SH_OFF, L2EV_SERIAL);
	CHECK_EQ(tk_stat(&t, "l2.sharers.invs"), 0);
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.conv.inval"), 0);
	CHECK_EQ(tk_stat(&t, "l2.miss_lat.conv.evict"), 1 + mem);
	tk_end(&t);
}

/* superset keeps every SM ever sent the line; exact only those whose L1
 * still holds it. SM0 reads X and then evicts it from its one-line L1. */
TEST(l2_sharers_exact_skips_evicted_copies)
{
	for (int mode = L2SH_EXACT; mode <= L2SH_SUPERSET; mode++) {
		struct tk t;
		one_line_cfg(&t.cfg);
		t.cfg.l2.ways = 2;
		t.cfg.l1.sets = 1;
		t.cfg.l1.ways = 1;
		t.cfg.l2.sharers = mode;
		REQUIRE(
		    tk_start(&t, 32, 1, "ld A[lane] -> r1; ld B[lane] -> r2 <- r1; ld C[lane] -> r3 <- r2"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		/* C's miss replaces A (LRU), which SM0's L1 dropped when B came. */
		CHECK_EQ(tk_stat(&t, "l2.sharers.invs"), mode == L2SH_EXACT ? 0 : 1);
		CHECK_EQ(tk_stat(&t, "l2.sharers.l1_dropped"), 0);
		tk_end(&t);
	}
}

/* A fill takes l2.fill_port_cycles of the bank's single port: the next
 * lookup waits for them. Likewise an FRC swap. */
TEST(l2_fill_and_frc_swap_take_port_cycles)
{
	for (int frc = 0; frc < 2; frc++) {
		for (int pc = 0; pc <= 60; pc += 60) {
			struct tk t;
			tk_base_cfg(&t.cfg);
			if (frc) {
				t.cfg.l2.frc.entries = 4;
				t.cfg.l2.frc.ways = 4;
				t.cfg.l2.frc.fill_port_cycles = 0;
				t.cfg.l2.frc.swap_port_cycles = pc;
			} else {
				t.cfg.l2.fill_port_cycles = pc;
			}
			REQUIRE(tk_start(&t, 32, 1, "ld A[lane] -> r1; ld B[lane] -> r2 <- r1"));
			CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
			const struct event *f = tk_event(&t, frc ? EV_FRC_SWAP_DONE : EV_L2_FILL, 0),
			                   *b = tk_event(&t, EV_L2_ACCESS, 1);
			REQUIRE(f && b);
			if (pc)
				CHECK_EQ(b->cycle, f->cycle + (uint64_t)pc); /* B arrived long before */
			else
				CHECK(b->cycle < f->cycle + 30);
			CHECK_EQ(tk_stat(&t, frc ? "l2.port_cycles.frc" : "l2.port_cycles.fill"),
			         2 * (uint64_t)pc);
			tk_end(&t);
		}
	}
}

/* Issue 18 item 6 / issue 25 mutation (a): a store that joins an FRC entry
 * while its fetch is out is answered at the fill; its sectors must be dirty
 * in the L2 line after the swap, so replacing the line writes them back. */
TEST(frc_store_waiting_on_fetching_entry_leaves_line_dirty)
{
	struct tk t;
	one_line_cfg(&t.cfg);
	t.cfg.l2.frc.entries = 2;
	t.cfg.l2.frc.ways = 2;
	t.cfg.core.sms = 2;
	REQUIRE(tk_start(&t, 32, 2,
	                 "if bx == 0; ld A[lane] -> r1; alu 400; ld B[lane] -> r2; else; st A[lane]; end"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "frc.hits_fetching"), 1); /* the store joined A's entry */
	CHECK_EQ(tk_stat(&t, "frc.allocs"), 2);
	/* B's swap evicts A from the only line: A is dirty, so it is written back. */
	CHECK_EQ(tk_stat(&t, "frc.evictions"), 1);
	CHECK_EQ(tk_stat(&t, "l2.writebacks"), 1);
	CHECK_EQ(tk_stat(&t, "mem.writes"), 1);
	tk_end(&t);
}

/* Issue 25 mutation (b): with l2.frc.mshr = shared an FRC entry uses up an
 * L2 MSHR slot. One MSHR, four independent misses: separate tracks all four
 * in the FRC; shared tracks one at a time and refuses the rest. */
TEST(frc_mshr_shared_uses_up_mshr_slots)
{
	for (int shared = 0; shared < 2; shared++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.l1.enabled = false;
		t.cfg.l2.mshr_entries = 1;
		t.cfg.l2.frc.entries = 4;
		t.cfg.l2.frc.ways = 4;
		t.cfg.l2.frc.mshr = shared ? FRC_MSHR_SHARED : FRC_MSHR_SEPARATE;
		REQUIRE(tk_start(&t, 32, 1,
		                 "ld A[lane] -> r1; ld B[lane] -> r2; ld C[lane] -> r3; ld D[lane] -> r4"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		CHECK_EQ(tk_stat(&t, "mem.reads"), 4);
		if (shared) {
			/* one slot for FRC and conventional misses together: the four
			 * fetches go to memory one after another */
			CHECK(tk_stat(&t, "sim.cycles") >= 4 * (uint64_t)t.cfg.mem.latency);
			CHECK(tk_stat(&t, "l2.nacks") > 0);
			CHECK(tk_stat(&t, "frc.fallbacks") > 0);
			CHECK(tk_count(&t, EV_FRC_FALLBACK) > 0 &&
			      tk_event(&t, EV_FRC_FALLBACK, 0)->a == 1); /* mshr_full */
		} else {
			CHECK_EQ(tk_stat(&t, "l2.nacks"), 0);
			CHECK_EQ(tk_stat(&t, "frc.allocs"), 4);
			CHECK_EQ(tk_stat(&t, "frc.fallbacks"), 0);
			CHECK(tk_stat(&t, "sim.cycles") < 2 * (uint64_t)t.cfg.mem.latency);
		}
		tk_end(&t);
	}
}

/* Issue 25 mutation (c): l2.frc.serve_evicting is reachable. SM1 reads A
 * (its L1 keeps a copy); SM0's miss on B swaps A out of the only line into
 * B's FRC entry, which stays EVICTING until SM1 acks the invalidation; SM0
 * reads A again meanwhile. Served from the entry, or fetched again. */
TEST(frc_serve_evicting_serves_the_victim)
{
	for (int serve = 0; serve < 2; serve++) {
		struct tk t;
		one_line_cfg(&t.cfg);
		t.cfg.core.sms = 2;
		t.cfg.l2.frc.entries = 2;
		t.cfg.l2.frc.ways = 2;
		t.cfg.l2.frc.serve_evicting = serve;
		REQUIRE(tk_start(&t, 32, 2,
		                 "if bx == 0; alu 300; ld B[lane] -> r1; ld A[lane] -> r2 <- r1; else; ld "
		                 "A[lane] -> r3; end"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		/* fetched again, A's swap also invalidates SM0's copy of B */
		CHECK_EQ(tk_stat(&t, "frc.inv_victims"), serve ? 1 : 2);
		CHECK_EQ(tk_stat(&t, "frc.evicting_hits"), (uint64_t)serve);
		CHECK_EQ(tk_stat(&t, "mem.reads"), serve ? 2 : 3);
		tk_end(&t);
	}
}

/* Item 4: on a sectored L2, a request that merges into a pending miss
 * needing other sectors fetches them at once instead of after the fill. */
TEST(l2_sectored_merge_fetches_its_sectors_at_once)
{
	for (int store = 0; store < 2; store++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.sms = 2;
		t.cfg.l1.enabled = false;
		t.cfg.l2.sector = 32;
		t.cfg.l1.sector = 32;
		t.cfg.l2.write_fetch = L2W_FETCH_ON_WRITE;
		/* sector 0 from SM0, sector 1 of the same line from SM1 */
		REQUIRE(tk_start(&t, 8, 2, store ? "st A[bx*8 + lane]" : "ld A[bx*8 + lane] -> r1"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		CHECK_EQ(tk_stat(&t, "mem.reads"), 2);
		CHECK_EQ(tk_stat(&t, "l2.sector_widen"), 1);
		CHECK_EQ(tk_count(&t, EV_L2_MISS), 2); /* no second round after the fill */
		CHECK_EQ(tk_count(&t, EV_L2_FILL), 1);
		const struct event *f = tk_event(&t, EV_L2_FILL, 0), *m = tk_event(&t, EV_L2_MISS, 1);
		REQUIRE(f && m);
		/* the fill waited for the second fetch, sent at the merge */
		CHECK(f->cycle >= m->cycle + (uint64_t)t.cfg.mem.latency);
		CHECK(f->cycle < m->cycle + 2 * (uint64_t)t.cfg.mem.latency);
		tk_end(&t);
	}
}

/* Issue 25: a miss whose later steps could not get a request slot is refused
 * (pool_full) and retried; nothing is lost once slots come back. */
TEST(l2_pool_exhaustion_refuses_misses_and_recovers)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 1, "ld A[lane] -> r1"));
	struct req_pool *p = &t.s->pool;
	/* Hold every slot but three: the warp request and the L1's fetch take
	 * two, leaving one, less than the miss needs (write-back + fetch + an
	 * invalidation round for one SM). */
	uint32_t held[1 << 16], n = 0;
	while (p->cap - p->used > 3 && n < (1u << 16))
		held[n++] = req_alloc(p);
	REQUIRE(p->cap - p->used == 3);
	sim_step(t.s, 500);
	CHECK(!sim_done(t.s));
	CHECK(tk_stat(&t, "l2.pool_nacks") > 0);
	CHECK_EQ(tk_stat(&t, "l2.pool_nacks"), tk_stat(&t, "l2.nacks"));
	CHECK_EQ(tk_stat(&t, "mem.reads"), 0);
	while (n)
		req_free(p, held[--n]);
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "mem.reads"), 1);
	tk_end(&t);
}

/* Item 5: mem.kernel_end. The dirty victim X leaves through the FRC entry of
 * Y after the warp has its data: `drained` waits for that write-back to
 * complete in memory, `ctas` ends at the last CTA. */
TEST(mem_kernel_end_drained_or_ctas)
{
	uint64_t cycles[2], cta_done[2];
	for (int m = 0; m < 2; m++) {
		struct tk t;
		one_line_cfg(&t.cfg);
		t.cfg.l1.enabled = false;
		t.cfg.l2.frc.entries = 1;
		t.cfg.l2.frc.ways = 1;
		t.cfg.mem.kernel_end = m ? MEMKE_CTAS : MEMKE_DRAINED;
		REQUIRE(tk_start(&t, 32, 1, "st A[lane] <- r9; ld B[lane] -> r1"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		CHECK_EQ(tk_stat(&t, "frc.evictions"), 1);
		const struct event *d = tk_event(&t, EV_CTA_DONE, 0);
		REQUIRE(d);
		cta_done[m] = d->cycle;
		cycles[m] = tk_stat(&t, "sim.cycles");
		tk_end(&t);
	}
	CHECK_EQ(cta_done[0], cta_done[1]);
	CHECK_EQ(cycles[1], cta_done[1] + 1); /* the cycle the last CTA finished in, counted */
	struct sim_cfg c;
	one_line_cfg(&c);
	/* + the write-back's memory latency, less the swap's head start and the
	 * fill's reply delay (l2.fill_reply), which the CTA waits for */
	CHECK(cycles[0] >= cycles[1] + (uint64_t)c.mem.latency - 10 - tk_fill_delay(&c));
}

/* A lazy store miss (l2.write_fetch = lazy) whose victim still has L1
 * copies takes the serial path (invalidate, then evict) and is then
 * installed with its sectors: it fetches nothing. SM0 reads X (its L1 keeps
 * a copy, the only L2 line holds X), then writes Y over the whole line. */
TEST(l2_lazy_store_after_invalidation_fetches_nothing)
{
	for (int fow = 0; fow < 2; fow++) {
		struct tk t;
		one_line_cfg(&t.cfg);
		t.cfg.l2.write_fetch = fow ? L2W_FETCH_ON_WRITE : L2W_LAZY_FETCH;
		REQUIRE(tk_start(&t, 32, 1, "ld A[lane] -> r1; st B[lane] <- r1"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		CHECK_EQ(tk_stat(&t, "l2.sharers.invs"), 1); /* X left SM0's L1 first */
		CHECK_EQ(tk_stat(&t, "mem.reads"), fow ? 2 : 1); /* X, and Y only when a write fetches */
		CHECK_EQ(tk_stat(&t, "l2.store_installs"), fow ? 0 : 1);
		tk_end(&t);
	}
}
