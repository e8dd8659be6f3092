/*
 * test_fastpath.c: the per-cycle shortcuts of core_tick and l1_tick change
 * speed only (docs/PERFORMANCE.md "Fewer instructions per cycle").
 *
 *   warp masks       (core.c) sm->wact / sm->sb_wait / sm->rdy: active
 *                    warps, and warps whose scoreboard wait or readiness
 *                    needs no re-evaluation
 *   refused lookups  (l1.c) l1->wait_refused / l1->lsu_refused: queue
 *                    heads not looked up again until something changed;
 *                    l1->wait_mq_refused / l1->lsu_mq_refused: heads
 *                    refused for a full miss queue, not looked up again
 *                    while it stays full
 *   fetch mask       (fetch.c) sm->fwant: warps the fetch unit looks at
 *                    (l1i.enabled); a warp found buffered leaves it until
 *                    it issues
 *
 * Each is checked against the behaviour without it: a second simulator,
 * stepped one cycle at a time, has the shortcut state wiped before every
 * cycle (every warp re-evaluated, every head retried, as before the
 * shortcuts); both must end with the same cycle count, every stat and every
 * event count equal. The invariants (sim_check_invariants) hold every cycle,
 * and the shortcuts must actually have engaged, or the test proves nothing.
 * Locality bypassing, where refused lookups are always retried, is
 * compared too (the warp masks); on this one-SM machine it ended in a model
 * deadlock until the invalidation Acks got their own channel
 * (icnt.ack_channel, test_deadlock.c), and the golden case
 * bypass_locality_gtx480 compares it whole-run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"
#include "sim/event.h"
#include "sim/sim_int.h"
#include "simtest.h"
#include "debug/snapshot.h"
#include "test.h"

/* Loads that many warps share (A rows, few lines: merges) and that every
 * warp needs at once (scoreboard waits), on a small MSHR file and wait
 * queue so that lookups are refused. */
#define BODY "ld A[tid / 64] -> r1; ld B[tid * 8] -> r2; alu 2 <- r1, r2; ld C[tid * 33] -> r3; st D[tid] <- r3"

/* Stores into the sectors other warps load. */
#define BODY_WT "ld B[tid * 4] -> r1; st B[(tid + 32) * 4 + 1] <- r1; ld B[tid * 4 + 2] -> r2; st D[tid] <- r2"

static const char *body = BODY;

static bool start(struct tk *t, int sched, const char *extra)
{
	tk_base_cfg(&t->cfg);
	t->cfg.core.scheduler = sched;
	t->cfg.l1.mshr_entries = 4;
	t->cfg.l1.mshr_merges = 2;
	t->cfg.l1.wait_queue = 2;
	/* extra: "name=value" settings separated by spaces, or NULL */
	char buf[256];
	snprintf(buf, sizeof buf, "%s", extra ? extra : "");
	for (char *set = strtok(buf, " "); set; set = strtok(NULL, " ")) {
		char *err = NULL, *eq = strchr(set, '=');
		*eq = 0;
		if (cfg_set_value(&t->cfg, set, eq + 1, &err)) {
			test_fail(__FILE__, __LINE__, "%s: %s", set, err ? err : "?");
			free(err);
			return false;
		}
	}
	return tk_start(t, 256, 4, body);
}

/* What the simulator did before these shortcuts: nothing remembered. */
static void forget(struct sim *s)
{
	for (int i = 0; i < s->cfg.core.sms; i++) {
		s->sms[i].sb_wait = s->sms[i].rdy = 0;
		s->sms[i].fwant = ~0ull;
		s->sms[i].l1.wait_refused = s->sms[i].l1.lsu_refused = REQ_NIL;
		s->sms[i].l1.wait_mq_refused = s->sms[i].l1.lsu_mq_refused = REQ_NIL;
	}
}

struct seen {
	bool sb, rdy, wait, lsu, mq, fetch;
};

static void note(const struct sim *s, struct seen *n)
{
	for (int i = 0; i < s->cfg.core.sms; i++) {
		n->sb |= s->sms[i].sb_wait != 0;
		n->rdy |= s->sms[i].rdy != 0;
		n->wait |= s->sms[i].l1.wait_refused != REQ_NIL;
		n->lsu |= s->sms[i].l1.lsu_refused != REQ_NIL;
		n->mq |= s->sms[i].l1.wait_mq_refused != REQ_NIL || s->sms[i].l1.lsu_mq_refused != REQ_NIL;
		n->fetch |= (s->sms[i].wact & ~s->sms[i].fwant) != 0;
	}
}

static bool same_results(struct tk *a, struct tk *b)
{
	const struct stats *x = &a->s->stats, *y = &b->s->stats;
	bool ok = sim_cycle(a->s) == sim_cycle(b->s);
	CHECK_EQ(sim_cycle(a->s), sim_cycle(b->s));
	for (uint32_t id = 0; id < x->n; id++)
		if (stats_value(x, id) != stats_value(y, id) && !(isnan(stats_value(x, id)) && isnan(stats_value(y, id)))) {
			test_fail(__FILE__, __LINE__, "stat %s: %g with the shortcuts, %g without", x->defs[id].name,
				  stats_value(x, id), stats_value(y, id));
			ok = false;
			break;
		}
	for (unsigned k = 0; k < EV__COUNT; k++)
		if (tk_count(a, k) != tk_count(b, k)) {
			test_fail(__FILE__, __LINE__, "event kind %u: %llu with the shortcuts, %llu without", k,
				  (unsigned long long)tk_count(a, k), (unsigned long long)tk_count(b, k));
			ok = false;
			break;
		}
	return ok;
}

/* One scheduler (and option): returns what engaged. */
static struct seen compare(int sched, const char *extra)
{
	struct tk a, b;
	struct seen n = {0};
	if (!start(&a, sched, extra) || !start(&b, sched, extra))
		return n;
	bool bad = false;
	while (!sim_done(a.s) && sim_cycle(a.s) < 200000 && !bad) {
		sim_step(a.s, 1);
		note(a.s, &n);
		char *err = NULL;
		if (sim_check_invariants(a.s, &err)) {
			test_fail(__FILE__, __LINE__, "sched %d, cycle %llu: %s", sched, (unsigned long long)sim_cycle(a.s),
				  err ? err : "?");
			free(err);
			bad = true;
		}
	}
	while (!sim_done(b.s) && sim_cycle(b.s) < 200000) {
		forget(b.s);
		sim_step(b.s, 1);
	}
	CHECK(sim_done(a.s));
	CHECK(sim_done(b.s));
	CHECK(same_results(&a, &b));
	tk_end(&a);
	tk_end(&b);
	return n;
}

TEST(fastpath_same_results_as_without)
{
	struct seen n = compare(SCHED_GTO, NULL);
	CHECK(n.sb);   /* scoreboard waits skipped */
	CHECK(n.rdy);  /* ready warps not re-evaluated */
	CHECK(n.wait); /* wait-queue heads not retried */
	CHECK(n.lsu);  /* coalescer-queue heads not retried (wait queue full) */
	n = compare(SCHED_LRR, NULL);
	CHECK(n.sb && n.wait);
	n = compare(SCHED_GTO, "l1.mshr.per_warp=1");
	CHECK(n.wait);
	n = compare(SCHED_GTO, "l1.bypass=mrpb");
	CHECK(n.sb);
	/* A one-entry miss queue behind one-credit L2 input queues: heads
	 * refused for the full miss queue, from both queues, plain and with
	 * mrpb (whose bypass also needs miss-queue room). */
	n = compare(SCHED_GTO, "l1.miss_queue=1 l2.queue=1");
	CHECK(n.mq);
	n = compare(SCHED_LRR, "l1.miss_queue=1 l2.queue=1 l1.bypass=mrpb");
	CHECK(n.mq);
	n = compare(SCHED_GTO, "l1.miss_queue=1 l2.queue=1 l1.write_policy=write_through l1.sector=32 l2.sector=32");
	CHECK(n.mq);
	n = compare(SCHED_GTO, "l1.bypass=locality"); /* finishes since the Acks' channel (test_deadlock.c) */
	CHECK(n.sb);
	/* Stores writing through fill sectors of present lines, which can turn
	 * a refused lookup into a hit. */
	body = BODY_WT;
	n = compare(SCHED_GTO, "l1.write_policy=write_through l1.sector=32 l2.sector=32");
	CHECK(n.wait);
	body = BODY;
	/* Policies whose decisions can change a waiting warp's reason before
	 * its registers arrive: no scoreboard shortcut (the invariant checks
	 * the bit stays clear), results unchanged. */
	static const int others[] = {SCHED_TWO_LEVEL, SCHED_CCWS, SCHED_VWS, SCHED_TBAS};
	for (unsigned i = 0; i < ARRAY_LEN(others); i++) {
		n = compare(others[i], NULL);
		CHECK(!n.sb && !n.rdy);
		CHECK(n.wait);
	}
	n = compare(SCHED_RMWS, "rf.kind=racetrack");
	CHECK(n.sb && !n.rdy); /* a timed register file can hold a ready warp back */
	compare(SCHED_GTO, "coherence.protocol=moesi");
}

/* The fetch mask: buffered warps passed over, under one and four
 * schedulers, a one-instruction buffer (a fetch per issue), a two-lookup
 * fetch unit and operand collection (rf_collect). */
TEST(fastpath_fetch_mask_same_results_as_without)
{
	struct seen n = compare(SCHED_GTO, "l1i.enabled=true");
	CHECK(n.fetch && n.sb);
	n = compare(SCHED_LRR, "l1i.enabled=true core.warps_per_sm=16 core.schedulers=4 core.ibuffer=1");
	CHECK(n.fetch);
	n = compare(SCHED_TWO_LEVEL, "l1i.enabled=true core.fetch_width=2");
	CHECK(n.fetch);
	n = compare(SCHED_RMWS, "l1i.enabled=true rf.kind=racetrack");
	CHECK(n.fetch);
}

/* The invariant check catches masks that disagree with the warps. */
TEST(fastpath_masks_checked)
{
	struct tk t;
	REQUIRE(start(&t, SCHED_GTO, NULL));
	struct sim *s = t.s;
	struct sm *sm = &s->sms[0];
	uint64_t sb = 0;
	for (int c = 0; c < 2000 && !sb; c++) {
		sim_step(s, 1);
		sb = sm->sb_wait;
	}
	REQUIRE(sb != 0);
	char *err = NULL;
	REQUIRE(sim_check_invariants(s, &err) == 0);
	int w = __builtin_ctzll(sb);
	/* A warp that is not waiting on a register must not be skipped. */
	uint8_t nsrc = sm->w[w].ibh.nsrc, ndst = sm->w[w].ibh.ndst;
	sm->w[w].ibh.nsrc = sm->w[w].ibh.ndst = 0;
	CHECK(sim_check_invariants(s, &err) != 0);
	CHECK(err && strstr(err, "scoreboard bit set"));
	free(err);
	err = NULL;
	sm->w[w].ibh.nsrc = nsrc;
	sm->w[w].ibh.ndst = ndst;
	/* An active warp missing from the active mask. */
	uint64_t wact = sm->wact;
	sm->wact &= ~(1ull << w);
	CHECK(sim_check_invariants(s, &err) != 0);
	CHECK(err && strstr(err, "active bit"));
	free(err);
	err = NULL;
	sm->wact = wact;
	/* A warp marked ready while it waits on a register. */
	sm->rdy |= 1ull << w;
	CHECK(sim_check_invariants(s, &err) != 0);
	CHECK(err && strstr(err, "scoreboard bit set"));
	free(err);
	sm->rdy &= ~(1ull << w);
	tk_end(&t);
	/* A warp left out of the fetch mask while its buffer lacks its next
	 * instruction. */
	REQUIRE(start(&t, SCHED_GTO, "l1i.enabled=true"));
	s = t.s;
	sm = &s->sms[0];
	sim_step(s, 1); /* the first fetch is in flight */
	err = NULL;
	REQUIRE(sim_check_invariants(s, &err) == 0);
	w = __builtin_ctzll(sm->wact);
	sm->fwant &= ~(1ull << w);
	CHECK(sim_check_invariants(s, &err) != 0);
	CHECK(err && strstr(err, "fetch bit clear"));
	free(err);
	sm->fwant |= 1ull << w;
	tk_end(&t);
}

/* Rewinding restores the masks and refused lookups with the rest of the
 * arena: going back to a cycle gives the state (hash) of getting there
 * forwards, and the run from there ends as the uninterrupted one. */
TEST(fastpath_rewind)
{
	struct tk a, b;
	REQUIRE(start(&a, SCHED_GTO, NULL));
	REQUIRE(start(&b, SCHED_GTO, NULL));
	sim_snapshots_enable(b.s, 64u << 20);
	sim_step(a.s, 700);
	uint64_t h = sim_state_hash(a.s);
	struct seen n = {0};
	note(a.s, &n);
	CHECK(n.sb || n.rdy || n.wait); /* something to restore */
	sim_step(b.s, 200000);
	REQUIRE(sim_done(b.s));
	uint64_t end = sim_cycle(b.s);
	char *err = NULL;
	REQUIRE(sim_goto(b.s, 700, &err) == 0);
	CHECK(sim_state_hash(b.s) == h);
	sim_step(b.s, 200000);
	CHECK_EQ(sim_cycle(b.s), end);
	tk_end(&a);
	tk_end(&b);
}

/* cache_find compares tags first, four ways a step: a way holding the tag
 * but neither valid nor reserved (a stale tag left by an invalidation) is
 * no hit, a valid or reserved way after it is, at any position including
 * the ways past the last full step of four. */
TEST(fastpath_cache_find_stale_tags)
{
	static const int ways_of[] = {1, 3, 4, 6, 64};
	for (unsigned k = 0; k < ARRAY_LEN(ways_of); k++) {
		int ways = ways_of[k];
		struct arena a;
		arena_init(&a);
		struct cache c;
		cache_init(&c, &a, 4, ways, 128, 0, REPL_LRU, IDX_LINEAR);
		const uint64_t x = 0x1000; /* set 0 of 4 (128 B lines) */
		for (int w = 0; w < ways; w++) {
			CHECK_EQ(cache_find(&c, 0, x), -1);
			cache_install(&c, 0, w, x); /* valid */
			CHECK_EQ(cache_find(&c, 0, x), w);
			cache_line(&c, 0, w)->valid = 0; /* invalidated: the tag stays */
			CHECK_EQ(cache_find(&c, 0, x), -1);
			cache_line(&c, 0, w)->reserved = 1; /* reserved for a fill */
			CHECK_EQ(cache_find(&c, 0, x), w);
			cache_line(&c, 0, w)->reserved = 0;
		}
		/* Every way has the stale tag; only the last is valid. */
		cache_line(&c, 0, ways - 1)->valid = 1;
		CHECK_EQ(cache_find(&c, 0, x), ways - 1);
		CHECK_EQ(cache_find(&c, 0, x + 128 * 4), -1); /* same set, another line */
		arena_fini(&a);
	}
}

/* cache_victim reads a way's flags as one word: the same way as testing
 * them one by one (the first invalid unheld way, else the unheld way with
 * the smallest stamp), over random flags and stamps, the bytes it must
 * ignore (touch, coh) set too. */
static int victim_by_flags(const struct cache *c, int set)
{
	const struct cline *l = &c->l[(size_t)set * (size_t)c->ways];
	int best = -1;
	for (int w = 0; w < c->ways; w++) {
		if (l[w].reserved || l[w].transient || l[w].swap_pending || l[w].pinned || l[w].fetching)
			continue;
		if (!l[w].valid)
			return w;
		if (best < 0 || l[w].stamp < l[best].stamp)
			best = w;
	}
	return best;
}

TEST(fastpath_cache_victim_flags_word)
{
	struct arena a;
	arena_init(&a);
	struct cache c;
	cache_init(&c, &a, 2, 64, 128, 0, REPL_LRU, IDX_LINEAR);
	uint64_t x = 88172645463325252ull;
	int seen_none = 0, seen_invalid = 0, seen_lru = 0;
	for (int round = 0; round < 4000; round++) {
		int held_pct = round % 5 == 0 ? 100 : 20 + round % 60;
		for (int w = 0; w < 64; w++) {
			struct cline *l = cache_line(&c, 1, w);
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			l->valid = (x & 63) != 0; /* mostly valid */
			bool held = (int)((x >> 8) % 100) < held_pct;
			unsigned which = (unsigned)(x >> 16) % 5;
			l->reserved = held && which == 0;
			l->transient = held && which == 1;
			l->swap_pending = held && which == 2;
			l->pinned = held && which == 3;
			l->fetching = held && which == 4;
			l->touch = (uint8_t)(x >> 24);
			l->coh = (uint8_t)(x >> 32);
			l->stamp = (x >> 40) % 50; /* ties: the first way wins */
		}
		int want = victim_by_flags(&c, 1), got = cache_victim(&c, 1, NULL);
		if (got != want) {
			test_fail(__FILE__, __LINE__, "round %d: way %d, flag by flag %d", round, got, want);
			break;
		}
		seen_none += want < 0;
		seen_invalid += want >= 0 && !cache_line(&c, 1, want)->valid;
		seen_lru += want >= 0 && cache_line(&c, 1, want)->valid;
	}
	CHECK(seen_none && seen_invalid && seen_lru);
	arena_fini(&a);
}
