/*
 * test_bypass.c: locality-driven L1 bypassing (notes 004): the single-set
 * trace of §2.6 access by access, the data-store eviction case, the RC
 * counted once for a request that waits, bypass-all, dueling and
 * step-vs-run determinism with dueling followers.
 */
#include <stdlib.h>

#include "sim/config.h"
#include "debug/inspect.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "test.h"

#define A0 0x10000000ull /* A[0] */
#define B0 0x10040000ull /* B[0]: the page after A's 256 KB */
#define C0 0x10080000ull
#define D0 0x100c0000ull

/* One SM, one L1 set of 4 data ways under 8 tag ways: every block shares the set. */
static void one_set_cfg(struct sim_cfg *c)
{
	tk_base_cfg(c);
	c->l1.sets = 1;
	c->l1.ways = 4;
	c->l1.bypass = L1B_LOCALITY;
	c->l1.bypass_tag_ways = 8;
	c->l1.bypass_threshold = 2;
}

static int tag_way(struct tk *t, uint64_t addr, struct btag_info *out)
{
	for (int w = 0; w < 8; w++)
		if (inspect_bypass_tag(t->s, 0, 0, w, out) && out->valid && out->addr == addr)
			return w;
	return -1;
}

static int free_lines(struct tk *t)
{
	int n = 0;
	for (int w = 0; w < 4; w++) {
		struct line_info li;
		inspect_cache_line(t->s, CACHE_L1, 0, 0, w, &li);
		n += !li.valid && !li.transient;
	}
	return n;
}

/* Run until the n-th l1.access event has happened (its cycle completed). */
static void run_to_access(struct tk *t, unsigned n)
{
	while (tk_count(t, EV_L1_ACCESS) < n && !sim_done(t->s))
		sim_step(t->s, 1);
}

/* Notes 004 §2.6: A A B A A A with T = 2. */
TEST(bypass_single_set_trace)
{
	struct tk t;
	one_set_cfg(&t.cfg);
	REQUIRE(tk_start(&t, 32, 1,
			 "ld A[0] -> r1; ld A[0] -> r2; ld B[0] -> r3; ld A[0] -> r4; ld A[0] -> r5; alu 1 <- r5; "
			 "ld A[0] -> r6"));
	struct btag_info a, b;
	/* 1: tag miss -> alloc A (RC 1), BYPASS */
	run_to_access(&t, 1);
	REQUIRE(tag_way(&t, A0, &a) >= 0);
	CHECK_EQ(a.rc, 1);
	CHECK_EQ(a.pos, -1);
	CHECK_EQ(free_lines(&t), 4);
	CHECK_EQ(tk_stat(&t, "l1.bypasses"), 1);
	const struct event *e = tk_event(&t, EV_L1_BYPASS, 0);
	REQUIRE(e);
	CHECK_EQ(e->a, 0);
	CHECK_EQ(e->b, 1);
	/* 2: candidate hit, RC 2 (not > 2): BYPASS */
	run_to_access(&t, 2);
	tag_way(&t, A0, &a);
	CHECK_EQ(a.rc, 2);
	CHECK_EQ(a.pos, -1);
	CHECK_EQ(tk_stat(&t, "l1.bypasses"), 2);
	CHECK_EQ(tk_stat(&t, "l1.tag_hits"), 1);
	/* 3: B tag miss -> RC 1, BYPASS */
	run_to_access(&t, 3);
	REQUIRE(tag_way(&t, B0, &b) >= 0);
	CHECK_EQ(b.rc, 1);
	CHECK_EQ(tk_stat(&t, "l1.bypasses"), 3);
	CHECK_EQ(tk_stat(&t, "l1.mshr_merges"), 0);
	/* 4: A RC 3 > 2 -> data way 0 reserved, MSHR, B aged 1 -> 0 */
	run_to_access(&t, 4);
	tag_way(&t, A0, &a);
	tag_way(&t, B0, &b);
	CHECK_EQ(a.rc, 3);
	CHECK_EQ(a.pos, 0);
	CHECK_EQ(b.rc, 0);
	CHECK_EQ(free_lines(&t), 3);
	CHECK_EQ(tk_stat(&t, "l1.bypasses"), 3);
	CHECK_EQ(tk_stat(&t, "l1.tag_promotes"), 1);
	CHECK_EQ(tk_count(&t, EV_L1_MISS), 1);
	e = tk_event(&t, EV_L1_TAG_PROMOTE, 0);
	REQUIRE(e);
	CHECK_EQ(e->addr, A0);
	CHECK_EQ(e->a, 3);
	CHECK_EQ(e->b, 0);
	/* 5: committed, pending -> merged into the MSHR entry (HIT_RESERVED), RC unchanged */
	run_to_access(&t, 5);
	tag_way(&t, A0, &a);
	CHECK_EQ(a.rc, 3);
	CHECK_EQ(tk_stat(&t, "l1.mshr_merges"), 1);
	CHECK_EQ(free_lines(&t), 3);
	/* 6: after the fill: HIT, RC 4 */
	run_to_access(&t, 6);
	tag_way(&t, A0, &a);
	CHECK_EQ(a.rc, 4);
	CHECK_EQ(tk_stat(&t, "l1.hits"), 1);
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	/* Every access is a hit or a miss; the L2 saw 3 bypasses + 1 fetch. */
	CHECK_EQ(tk_stat(&t, "l1.accesses"), 6);
	CHECK_EQ(tk_stat(&t, "l1.misses"), 5);
	CHECK_EQ(tk_stat(&t, "l2.accesses"), 4);
	CHECK_EQ(tk_stat(&t, "l1.tag_evicts"), 0);
	/* The hit took the extra tag-probe cycle: issue + hit_latency + 1. */
	const struct event *hit = tk_event(&t, EV_L1_HIT, 0), *rep = tk_event(&t, EV_MEM_REPLY, 5);
	REQUIRE(hit && rep);
	CHECK_EQ(rep->cycle, hit->cycle + (uint64_t)t.cfg.l1.hit_latency + 1);
	tk_end(&t);
}

/* Notes 004 §2.6 eviction case: four committed lines, a candidate X reaches
 * RC 3; the LRU line's owner Y becomes a candidate with RC 0, X takes its way. */
TEST(bypass_data_eviction_resets_owner)
{
	struct tk t;
	one_set_cfg(&t.cfg);
	/* P Q R S committed in ways 0..3 (each read 3 times), then X three times. */
	REQUIRE(tk_start(&t, 32, 1,
			 "loop i 0 3; ld A[0] -> r1; end; alu 1 <- r1; loop i 0 3; ld B[0] -> r2; end; alu 1 <- r2; "
			 "loop i 0 3; ld C[0] -> r3; end; alu 1 <- r3; loop i 0 3; ld D[0] -> r4; end; alu 1 <- r4; "
			 "loop i 0 3; ld A[32] -> r5; end"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	struct btag_info p, x;
	REQUIRE(tag_way(&t, A0, &p) >= 0);
	REQUIRE(tag_way(&t, A0 + 128, &x) >= 0);
	CHECK_EQ(p.pos, -1); /* P was the LRU data line */
	CHECK_EQ(p.rc, 0);
	CHECK_EQ(x.pos, 0); /* X took P's way */
	CHECK_EQ(x.rc, 3);
	CHECK_EQ(tk_stat(&t, "l1.tag_promotes"), 5);
	CHECK_EQ(tk_stat(&t, "l1.evictions"), 1);
	CHECK_EQ(free_lines(&t), 0);
	/* Q (way 1) was aged by S's allocation, X's eviction and X's allocation:
	 * 3 at its allocation, -1 (R), -1 (S), -2 (X): 0. */
	struct btag_info q;
	REQUIRE(tag_way(&t, B0, &q) >= 0);
	CHECK_EQ(q.pos, 1);
	CHECK_EQ(q.rc, 0);
	tk_end(&t);
}

/* l1.bypass_aging: the same trace; S (way 3, RC 3 when committed) is aged
 * only by X's replacement: 2 (eviction and allocation, the literal reading)
 * leaves it at 1, 1 (once per replacement) at 2. */
TEST(bypass_aging_per_replacement)
{
	for (int aging = 1; aging <= 2; aging++) {
		struct tk t;
		one_set_cfg(&t.cfg);
		t.cfg.l1.bypass_aging = aging;
		REQUIRE(tk_start(&t, 32, 1,
				 "loop i 0 3; ld A[0] -> r1; end; alu 1 <- r1; loop i 0 3; ld B[0] -> r2; end; alu 1 <- r2; "
				 "loop i 0 3; ld C[0] -> r3; end; alu 1 <- r3; loop i 0 3; ld D[0] -> r4; end; alu 1 <- r4; "
				 "loop i 0 3; ld A[32] -> r5; end"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		struct btag_info sd;
		REQUIRE(tag_way(&t, D0, &sd) >= 0);
		CHECK_EQ(sd.pos, 3);
		CHECK_EQ(sd.rc, 3 - aging);
		tk_end(&t);
	}
}

/* l1.bypass_gone_ages: A committed (read 3 times, RC 3), B a candidate read
 * twice (RC 2); then a store hits A and write-evicts its line. The paper
 * ages a set "upon an allocation or eviction in the data store": B drops to
 * RC 1 with the key on (default), stays at 2 with it off; A goes back to
 * candidate with RC 0 either way. */
TEST(bypass_write_evict_ages_the_set)
{
	for (int ages = 0; ages < 2; ages++) {
		struct tk t;
		one_set_cfg(&t.cfg);
		t.cfg.l1.bypass_gone_ages = ages;
		REQUIRE(tk_start(&t, 32, 1,
				 "loop i 0 3; ld A[0] -> r1; end; alu 1 <- r1; loop i 0 2; ld B[0] -> r2; end; "
				 "alu 1 <- r2; st A[0] <- r2; alu 1"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		struct btag_info a, b;
		REQUIRE(tag_way(&t, A0, &a) >= 0);
		REQUIRE(tag_way(&t, B0, &b) >= 0);
		CHECK_EQ(a.pos, -1);
		CHECK_EQ(a.rc, 0);
		CHECK_EQ(b.pos, -1);
		CHECK_EQ(b.rc, 2 - ages);
		CHECK_EQ(free_lines(&t), 4);
		tk_end(&t);
	}
}

/* A qualifying request that waits for an MSHR is looked up again every cycle;
 * its RC is committed once, when it allocates. (A's allocation ages C from 2
 * to 1, so C needs two more reads: 2 bypasses, 3 waits for A's entry.) */
TEST(bypass_rc_counted_once_while_waiting)
{
	struct tk t;
	one_set_cfg(&t.cfg);
	t.cfg.l1.mshr_entries = 1;
	REQUIRE(tk_start(&t, 32, 1,
			 "ld A[0] -> r1; ld A[0] -> r2; ld C[0] -> r3; ld C[0] -> r4; ld A[0] -> r5; ld C[0] -> r6; "
			 "ld C[0] -> r7"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.mshr_full"), 1); /* C waited for A's entry */
	const struct event *e = tk_event(&t, EV_L1_TAG_PROMOTE, 1);
	REQUIRE(e);
	CHECK_EQ(e->addr, C0);
	CHECK_EQ(e->a, 3);
	struct btag_info c;
	REQUIRE(tag_way(&t, C0, &c) >= 0);
	CHECK_EQ(c.rc, 3);
	tk_end(&t);
}

TEST(bypass_all_sends_every_load_down)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l1.bypass = L1B_ALL;
	REQUIRE(tk_start(&t, 64, 2, "loop i 0 4; ld A[tid] -> r1; alu 1 <- r1; end; st B[tid]"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.bypasses"), tk_stat(&t, "core.ld_insts"));
	CHECK_EQ(tk_stat(&t, "l1.hits"), 0);
	CHECK_EQ(tk_stat(&t, "l1.mshr_merges"), 0);
	CHECK_EQ(tk_stat(&t, "l1.accesses"), tk_stat(&t, "l1.misses"));
	tk_end(&t);
}

/* A streaming kernel: bypassing takes no data lines at all (notes 004 §5.6 case 1). */
TEST(bypass_streaming_allocates_nothing)
{
	struct tk t;
	one_set_cfg(&t.cfg);
	t.cfg.l1.sets = 8;
	t.cfg.l1.bypass_duel = false; /* every set decoupled */
	REQUIRE(tk_start(&t, 128, 4, "loop i 0 8; ld A[tid + i*512 + bx*4096] -> r1; end"));
	CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.tag_promotes"), 0);
	CHECK_EQ(tk_stat(&t, "l1.bypasses"), tk_stat(&t, "l1.accesses"));
	CHECK_EQ(tk_stat(&t, "l1.mshr_merges"), 0);
	tk_end(&t);
}

/* Dueling: a kernel that reads every block twice at short distance hits
 * half the time on a plain L1 and never on a decoupled one (T = 2), so the
 * followers stay plain; a streaming one switches them to decoupled. The same
 * with the paper's leader SMs (SM0, SM1) and with leader sets in every SM. */
TEST(bypass_dueling_followers)
{
	for (int leaders = 0; leaders < 2; leaders++)
		for (int streaming = 0; streaming < 2; streaming++) {
			struct tk t;
			tk_base_cfg(&t.cfg);
			t.cfg.core.sms = 4;
			t.cfg.l1.bypass = L1B_LOCALITY;
			t.cfg.l1.bypass_duel_interval = 200;
			t.cfg.l1.bypass_leaders = leaders ? BYPL_SETS : BYPL_SMS;
			/* the paper's SMs with the old NACK at the L2; sets with the queue */
			t.cfg.l1.bypass_at_l2 = leaders ? BYPL2_QUEUE : BYPL2_NACK;
			t.cfg.l1.bypass_duel_cold_hold = false; /* the paper's rule: a tie picks decoupled */
			t.cfg.l2.sharers = L2SH_OFF; /* the L1 misses alone decide the duel */
			t.cfg.l2.fill_port_cycles = 0; /* the duel thresholds were set on an L2 whose fills take no port */
			const char *body = streaming ? "loop i 0 24; ld A[tid + i*4096 + bx*128] -> r1; alu 2 <- r1; end"
						     : "loop i 0 24; ld A[tid + i*4096 + bx*128] -> r1; ld A[tid + i*4096 + bx*128] -> r2; alu 2 <- r2; end";
			REQUIRE(tk_start(&t, 64, 8, body));
			struct events *ev = sim_events(t.s); /* log only the switches: the ring is short */
			events_log_all(ev, false);
			ev->log_mask[EV_L1_DUEL_SWITCH >> 6] |= 1ull << (EV_L1_DUEL_SWITCH & 63);
			events_update_watch(ev);
			CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
			struct byp_info bi;
			REQUIRE(inspect_bypass(t.s, 2, &bi));
			CHECK_EQ(bi.role, leaders ? -1 : 2);
			CHECK_EQ(bi.leader_sets, leaders == 1);
			CHECK_EQ(bi.decoupled, streaming == 1);
			/* One leader set of each mode per SM sees few lookups per interval
			 * (and bypassed loads waiting at the one L2 bank thin them further):
			 * the followers may go and come back, but end where they belong. */
			if (leaders)
				CHECK_EQ(tk_stat(&t, "l1.duel_switches") % 2, (uint64_t)streaming);
			else
				CHECK_EQ(tk_stat(&t, "l1.duel_switches"), (uint64_t)streaming);
			if (streaming) {
				const struct event *e = tk_event(&t, EV_L1_DUEL_SWITCH, 0);
				REQUIRE(e);
				CHECK(e->cycle >= 200);
				CHECK(e->b <= 100); /* the decoupled leaders missed at most 10 points more */
				CHECK_EQ(e->a, 1);
			}
			tk_end(&t);
		}
}

/* l1.bypass_duel_cold_hold: in a streaming kernel every leader lookup
 * misses in both modes; the paper's rule calls that a tie and turns the
 * followers decoupled (above), the cold hold keeps them plain. */
TEST(bypass_duel_cold_hold)
{
	for (int hold = 0; hold < 2; hold++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.sms = 4;
		t.cfg.l1.bypass = L1B_LOCALITY;
		t.cfg.l1.bypass_duel_interval = 200;
		t.cfg.l2.sharers = L2SH_OFF; /* the L1 misses alone decide the duel */
		t.cfg.l2.fill_port_cycles = 0;
		t.cfg.l1.bypass_duel_cold_hold = hold;
		REQUIRE(tk_start(&t, 64, 8, "loop i 0 24; ld A[tid + i*4096 + bx*128] -> r1; alu 2 <- r1; end"));
		CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
		struct byp_info bi;
		REQUIRE(inspect_bypass(t.s, 2, &bi));
		CHECK_EQ(bi.decoupled, !hold);
		CHECK_EQ(tk_stat(&t, "l1.duel_switches"), (uint64_t)!hold);
		tk_end(&t);
	}
}

/* l1.bypass_threshold = 0 is the plain L1: no set is decoupled, so there is
 * no duel. The streaming kernel above, whose followers turn decoupled once
 * under the tie rule, runs exactly as with l1.bypass = none, with no
 * l1.duel_switch event, no switch counted and no leader set. */
TEST(bypass_threshold_zero_has_no_duel)
{
	uint64_t cycles[2];
	for (int plain = 0; plain < 2; plain++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.sms = 4;
		t.cfg.l1.bypass = plain ? L1B_NONE : L1B_LOCALITY;
		t.cfg.l1.bypass_threshold = 0;
		t.cfg.l1.bypass_duel_interval = 200;
		t.cfg.l2.sharers = L2SH_OFF;
		t.cfg.l2.fill_port_cycles = 0;
		REQUIRE(tk_start(&t, 64, 8, "loop i 0 24; ld A[tid + i*4096 + bx*128] -> r1; alu 2 <- r1; end"));
		struct events *ev = sim_events(t.s); /* log only the switches: the ring is short */
		events_log_all(ev, false);
		ev->log_mask[EV_L1_DUEL_SWITCH >> 6] |= 1ull << (EV_L1_DUEL_SWITCH & 63);
		events_update_watch(ev);
		CHECK_EQ(sim_step(t.s, 1000000), SIM_STOP_DONE);
		cycles[plain] = sim_cycle(t.s);
		CHECK_EQ(tk_count(&t, EV_L1_DUEL_SWITCH), 0);
		CHECK_EQ(tk_stat(&t, "l1.duel_switches"), 0);
		CHECK_EQ(tk_stat(&t, "l1.bypasses"), 0);
		for (int sm = 0; sm < 4; sm++)
			for (int set = 0; set < t.cfg.l1.sets; set++)
				CHECK_EQ(byp_role(t.s, &t.s->sms[sm], set), -1);
		tk_end(&t);
	}
	CHECK_EQ(cycles[0], cycles[1]);
}

/* Leader sets, l1.bypass_duel_sets = 2 on 8 sets (groups of P = 4) and 4 SMs.
 * fixed: sets 0 and 4 lead decoupled, 2 and 6 plain, in every SM.
 * complement (default): in group c of SM i the decoupled leader is offset
 * o = (c + i) mod 4 and the plain one 3 - o, so SM 0 leads sets 0, 5
 * decoupled and 3, 6 plain, SM 1 sets 1, 6 and 2, 5, ... A leader set keeps
 * its mode whatever the followers do. */
TEST(bypass_leader_sets_roles)
{
	static const int want[2][4][8] = {
		{{0, 2, 2, 1, 2, 0, 1, 2}, {2, 0, 1, 2, 2, 1, 0, 2}, {2, 1, 0, 2, 1, 2, 2, 0}, {1, 2, 2, 0, 0, 2, 2, 1}},
		{{0, 2, 1, 2, 0, 2, 1, 2}, {0, 2, 1, 2, 0, 2, 1, 2}, {0, 2, 1, 2, 0, 2, 1, 2}, {0, 2, 1, 2, 0, 2, 1, 2}},
	};
	for (int sel = 0; sel < 2; sel++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.sms = 4;
		t.cfg.l1.bypass = L1B_LOCALITY;
		t.cfg.l1.bypass_duel_sets = 2;
		if (sel)
			t.cfg.l1.bypass_leader_select = BYPLS_FIXED;
		REQUIRE(tk_start(&t, 32, 1, "ld A[0] -> r1"));
		for (int sm = 0; sm < 4; sm++)
			for (int set = 0; set < 8; set++) {
				CHECK_EQ(byp_role(t.s, &t.s->sms[sm], set), want[sel][sm][set]);
				CHECK_EQ(byp_set_decoupled(t.s, &t.s->sms[sm], set), want[sel][sm][set] == 0);
			}
		tk_end(&t);
	}
	struct sim_cfg c;
	tk_base_cfg(&c);
	c.l1.bypass = L1B_LOCALITY;
	c.l1.bypass_duel_sets = 3;
	char *err = NULL;
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK_STR(err, "l1.bypass_duel_sets: must be a power of two and at most l1.sets / 2 (4), got 3");
	free(err);
}

/* The gtx480 geometry (32 sets, one leader of each mode per SM, 15 SMs):
 * with complement-select every SM has exactly one leader of each mode and no
 * two SMs lead the same set decoupled (or plain), so the dueling samples 15
 * different sets of the index space instead of set 0 fifteen times. */
TEST(bypass_leader_sets_distinct_per_sm)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.core.sms = 15;
	t.cfg.l1.sets = 32;
	t.cfg.l1.bypass = L1B_LOCALITY;
	REQUIRE(tk_start(&t, 32, 1, "ld A[0] -> r1"));
	int owner[2][32];
	for (int set = 0; set < 32; set++)
		owner[0][set] = owner[1][set] = -1;
	for (int sm = 0; sm < 15; sm++) {
		int n[3] = {0, 0, 0};
		for (int set = 0; set < 32; set++) {
			int r = byp_role(t.s, &t.s->sms[sm], set);
			REQUIRE(r >= 0 && r <= 2);
			n[r]++;
			if (r < 2) {
				CHECK_EQ(owner[r][set], -1);
				owner[r][set] = sm;
			}
		}
		CHECK_EQ(n[0], 1);
		CHECK_EQ(n[1], 1);
	}
	tk_end(&t);
}

TEST(bypass_determinism_step_vs_run)
{
	const char *body = "loop i 0 6; ld A[(tid*7 + i*129) % 4096] -> r1; ld B[lane + (i % 2)*32] -> r2; "
			   "alu 3 <- r1; st C[tid + i*64]; end";
	uint64_t hash[3], cycles[3], byp[3];
	for (int mode = 0; mode < 3; mode++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.sms = 3;
		t.cfg.l2.banks = 2;
		t.cfg.mem.model = MEM_DRAM;
		t.cfg.l1.bypass = L1B_LOCALITY;
		t.cfg.l1.bypass_duel_interval = 100;
		REQUIRE(tk_start(&t, 128, 9, body));
		events_log_all(sim_events(t.s), false);
		tk_run_mode(t.s, mode);
		hash[mode] = sim_state_hash(t.s);
		cycles[mode] = sim_cycle(t.s);
		byp[mode] = tk_stat(&t, "l1.bypasses") * 1000003 + tk_stat(&t, "l1.duel_switches");
		tk_end(&t);
	}
	CHECK_EQ(cycles[0], cycles[1]);
	CHECK_EQ(cycles[0], cycles[2]);
	CHECK_EQ(byp[0], byp[1]);
	CHECK_EQ(byp[0], byp[2]);
	CHECK(hash[0] == hash[1]);
	CHECK(hash[0] == hash[2]);
}

/* l1.bypass = mrpb, MSHR full: with 2 MSHR entries, the first pass over four
 * blocks allocates A and B and sends C and D to the L2 as themselves (nothing
 * waits in the wait queue); the second pass hits A and B and misses C and D
 * again, which now find free MSHRs. The baseline instead parks C and D in the
 * wait queue, fills all four and hits all four on the second pass. */
TEST(bypass_mrpb_mshr_full)
{
	const char *body = "ld A[0] -> r1; ld B[0] -> r2; ld C[0] -> r3; ld D[0] -> r4; alu 1 <- r1, r2, r3; alu 1 <- r4; "
			   "ld A[0] -> r5; ld B[0] -> r6; ld C[0] -> r7; ld D[0] -> r8";
	for (int mrpb = 0; mrpb < 2; mrpb++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.l1.mshr_entries = 2;
		t.cfg.l1.bypass = mrpb ? L1B_MRPB : L1B_NONE;
		REQUIRE(tk_start(&t, 32, 1, body));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		CHECK_EQ(tk_stat(&t, "l1.accesses"), 8);
		CHECK_EQ(tk_stat(&t, "l1.hits"), mrpb ? 2 : 4);
		CHECK_EQ(tk_stat(&t, "l1.bypasses"), mrpb ? 2 : 0);
		CHECK_EQ(tk_stat(&t, "l1.bypasses_mshr"), mrpb ? 2 : 0);
		CHECK_EQ(tk_stat(&t, "l1.bypasses_resv"), 0);
		CHECK_EQ(tk_stat(&t, "l1.mshr_full"), mrpb ? 0 : 2);
		CHECK_EQ(tk_stat(&t, "l2.accesses"), mrpb ? 6 : 4);
		if (mrpb) {
			const struct event *e = tk_event(&t, EV_L1_BYPASS, 0);
			REQUIRE(e);
			CHECK_EQ(e->addr, C0);
			CHECK_EQ(e->a, 3);
			CHECK_EQ(e->b, 0); /* MSHR full */
			e = tk_event(&t, EV_L1_BYPASS, 1);
			REQUIRE(e);
			CHECK_EQ(e->addr, D0);
		}
		tk_end(&t);
	}
}

/* l1.bypass = mrpb, reservation failure: one set of two ways; A and B reserve
 * both ways, so C (and the D behind it) finds every way reserved and bypasses
 * at once instead of retrying until a fill frees a way. */
TEST(bypass_mrpb_reservation_fail)
{
	struct tk t;
	tk_base_cfg(&t.cfg);
	t.cfg.l1.sets = 1;
	t.cfg.l1.ways = 2;
	t.cfg.l1.bypass = L1B_MRPB;
	REQUIRE(tk_start(&t, 32, 1, "ld A[0] -> r1; ld B[0] -> r2; ld C[0] -> r3; ld D[0] -> r4; alu 1 <- r4"));
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	CHECK_EQ(tk_stat(&t, "l1.bypasses"), 2);
	CHECK_EQ(tk_stat(&t, "l1.bypasses_resv"), 2);
	CHECK_EQ(tk_stat(&t, "l1.reservation_fails"), 0);
	const struct event *e = tk_event(&t, EV_L1_BYPASS, 0);
	REQUIRE(e);
	CHECK_EQ(e->addr, C0);
	CHECK_EQ(e->b, 3); /* every way reserved */
	/* C and D did not wait for A's fill: D's load issued three cycles after A's,
	 * so the kernel ends one miss latency after D's L1 lookup. */
	const struct event *a = tk_event(&t, EV_L1_ACCESS, 0), *d = tk_event(&t, EV_L1_ACCESS, 3);
	REQUIRE(a && d);
	CHECK(d->cycle - a->cycle < 10);
	tk_end(&t);
}

TEST(bypass_mrpb_needs_the_l1_and_is_deterministic)
{
	struct sim_cfg c;
	tk_base_cfg(&c);
	char *err = NULL;
	CHECK_EQ(cfg_set_value(&c, "l1.bypass", "mrpb", &err), 0);
	c.l1.enabled = false;
	CHECK(cfg_validate(&c, &err) != 0);
	CHECK_STR(err, "l1.bypass: mrpb needs l1.enabled true");
	free(err);
	const char *body = "loop i 0 6; ld A[(tid*7 + i*129) % 4096] -> r1; ld B[lane + (i % 2)*32] -> r2; "
			   "alu 3 <- r1; st C[tid + i*64]; end";
	uint64_t hash[3], byp[3];
	for (int mode = 0; mode < 3; mode++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.core.sms = 2;
		t.cfg.mem.model = MEM_DRAM;
		t.cfg.l1.mshr_entries = 4;
		t.cfg.l1.bypass = L1B_MRPB;
		REQUIRE(tk_start(&t, 128, 6, body));
		events_log_all(sim_events(t.s), false);
		tk_run_mode(t.s, mode);
		hash[mode] = sim_state_hash(t.s);
		byp[mode] = tk_stat(&t, "l1.bypasses");
		tk_end(&t);
	}
	CHECK(byp[0] > 0);
	CHECK_EQ(byp[0], byp[1]);
	CHECK_EQ(byp[0], byp[2]);
	CHECK(hash[0] == hash[1]);
	CHECK(hash[0] == hash[2]);
}

/* l1.bypass_at_l2: one L2 MSHR entry and four bypassed loads to four lines
 * of the one bank. queue: the loads wait in turn at the head of the bank's
 * input queue: no NACK, one request packet each, every one counted once in
 * l2.bypass_waits but the first. nack: the bank refuses them, the L1
 * re-sends, and every retry is one more request packet. */
TEST(bypass_waits_at_l2_instead_of_nack)
{
	for (int nack = 0; nack < 2; nack++) {
		struct tk t;
		tk_base_cfg(&t.cfg);
		t.cfg.l1.bypass = L1B_ALL;
		t.cfg.l2.mshr_entries = 1;
		t.cfg.l1.bypass_at_l2 = nack ? BYPL2_NACK : BYPL2_QUEUE;
		REQUIRE(tk_start(&t, 32, 1, "ld A[0] -> r1; ld B[0] -> r2; ld C[0] -> r3; ld D[0] -> r4; alu 1 <- r1, r2; alu 1 <- r3, r4"));
		CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
		CHECK_EQ(tk_stat(&t, "l1.bypasses"), 4);
		uint64_t nacks = tk_stat(&t, "l1.nacks");
		CHECK_EQ(tk_stat(&t, "icnt.req_packets"), 4 + nacks);
		if (nack) {
			CHECK(nacks >= 3);
			CHECK_EQ(tk_stat(&t, "l2.bypass_waits"), 0);
		} else {
			CHECK_EQ(nacks, 0);
			CHECK_EQ(tk_stat(&t, "l2.bypass_waits"), 3);
		}
		tk_end(&t);
	}
}

/* An L2 replacement invalidates a committed L1 line (l2.sharers, issue 18):
 * the block's tag goes back to candidate with RC 0 and the data way is free
 * again, as for any data eviction. A committed tag left pointing at an empty
 * way made a tag set fill up with committed entries and the LFU victim
 * search came back empty (stencil2d -p n=512 on gtx480 crashed). A's second
 * round of three loads needs three references again before it gets a line. */
TEST(bypass_l2_invalidation_frees_the_tag)
{
	struct tk t;
	one_set_cfg(&t.cfg);
	t.cfg.l2.sets = 1;
	t.cfg.l2.ways = 1;
	REQUIRE(tk_start(&t, 32, 1,
			 "loop i 0 3; ld A[0] -> r1; end; alu 1 <- r1; ld B[0] -> r2; alu 1 <- r2; "
			 "loop i 0 3; ld A[0] -> r3; end; alu 1 <- r3"));
	struct btag_info a;
	run_to_access(&t, 4); /* A committed and filled (alu waited on r1), B bypassed */
	while (tk_stat(&t, "l2.sharers.l1_dropped") == 0 && !sim_done(t.s))
		sim_step(t.s, 1);
	CHECK_EQ(tk_stat(&t, "l2.sharers.l1_dropped"), 1);
	REQUIRE(tag_way(&t, A0, &a) >= 0);
	CHECK_EQ(a.pos, -1);
	CHECK_EQ(a.rc, 0);
	CHECK_EQ(free_lines(&t), 4);
	char *err = NULL;
	CHECK_EQ(sim_check_invariants(t.s, &err), 0);
	free(err);
	CHECK_EQ(sim_step(t.s, 100000), SIM_STOP_DONE);
	/* second round: RC 1, 2 bypass, 3 allocates */
	CHECK_EQ(tk_stat(&t, "l1.bypasses"), 2 + 1 + 2);
	CHECK_EQ(tk_stat(&t, "l1.tag_promotes"), 2);
	tk_end(&t);
}
