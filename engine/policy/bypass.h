/*
 * bypass.h: locality-driven L1 bypassing with a decoupled tag store (Li et
 * al., ICS 2015; notes 004 §2). One tag store per SM, beside the L1's data
 * store (the generic cache in l1.c), with the same sets and set index:
 *
 *        tag store (l1.sets x l1.bypass_tag_ways)     data store (l1.sets x l1.ways)
 *   set  way0           way1     ...  way7             way0  way1  way2  way3
 *    0   A rc=4 pos=0   B rc=0 pos=-  ...   ---------> [A ]  [  ]  [  ]  [  ]
 *        committed      candidate
 *
 * A tag entry holds a block address, a 6-bit reference count (RC, saturating
 * at 63), a position (the data way holding the block, -1 = none) and an LRU
 * stamp. Entries with a position are committed, the others candidates. Every
 * valid or reserved data line of a decoupled SM has exactly one committed
 * entry; l1.c keeps this when it allocates, evicts and write-evicts.
 *
 * Load lookup on a decoupled SM (l1.c access_read):
 *   tag miss              -> allocate a tag (RC 1; LFU victim among the
 *                            candidates, ties to the LRU), BYPASS to the L2
 *   candidate, RC+1 <= T  -> RC+1, BYPASS
 *   candidate, RC+1 >  T  -> normal miss path; when it allocates its data
 *                            line the entry is committed and the set ages
 *   committed             -> the plain L1 (hit, merge, ...); RC+1 on a hit
 * Side effects are applied only when the lookup is accepted (bypassed, hit,
 * merged or allocated), so a request that stalls and retries counts once.
 *
 * Aging: each data-store allocation and each eviction decrements the RC of
 * every other valid tag of the set (saturating at 0); a data eviction resets
 * its owner to a candidate with RC 0. With l1.bypass_aging = 1 a replacement
 * (evict + allocate) ages once.
 *
 * Dueling: leaders always decoupled and always plain, the rest (followers)
 * switch. l1.bypass_leaders = sets (default, set dueling after Qureshi):
 * in every SM, with n = l1.bypass_duel_sets and P = l1.sets / n, each group
 * c of P consecutive sets has one decoupled and one plain leader; with
 * l1.bypass_leader_select = complement (default) SM i's decoupled leader of
 * group c is offset o = (c + i) mod P and its plain leader P - 1 - o
 * (complement-select, rotated per SM: SMs lead different sets), with fixed
 * offsets 0 and P/2 in every SM; sms (the paper's literal choice): SM0 leads
 * decoupled, SM1 plain, the other SMs follow. Every l1.bypass_duel_interval cycles the followers become plain
 * if the decoupled leaders' miss rate (bypasses count as misses, merges as
 * hits; all SMs' leader sets together) exceeded the plain leaders' by more
 * than l1.bypass_duel_diff points, else decoupled; followers turning
 * decoupled rebuild their tags from their data lines. No dueling with
 * l1.bypass_threshold = 0 (the plain L1). An interval in which
 * a leader group made no load lookup changes nothing. Intervals are closed lazily, at the
 * first new L1 load lookup after their end (stores of a write-evict or
 * write-through L1 are forwarded before the duel is consulted, and count
 * nothing): nothing is counted in between, so the
 * outcome is the one of closing them on time, and first lookups happen at
 * the same cycles whether the machine is stepped or run (retries of stalled
 * lookups do not). The l1.duel_switch event carries that lookup's cycle.
 */
#ifndef GPUSTEP_BYPASS_H
#define GPUSTEP_BYPASS_H

#include <stdbool.h>
#include <stdint.h>

#define BYP_RC_MAX 63

struct btag {
	uint64_t tag;   /* line address */
	uint64_t stamp; /* LRU order within the set (larger = more recent) */
	uint8_t valid;
	uint8_t rc;
	int8_t pos;     /* data way, -1 = candidate */
	uint8_t touch;  /* enum btag_touch of the last event, for panels */
	uint64_t touch_cycle;
};

enum btag_touch { BT_NONE, BT_ALLOC, BT_INC, BT_PROMOTE, BT_HIT, BT_RESET };

/* Per-SM tag store (arena); t == NULL unless l1.bypass = locality. */
struct byp_tags {
	struct btag *t; /* [set * ways + way] */
	int sets, ways;
	uint64_t clock;
	uint8_t decoupled;       /* current mode of this SM's followers (every set without dueling) */
};

/* One closed dueling interval, as `info duel` lists it. */
enum byp_iv_outcome {
	BYPIV_NO_LOOKUP, /* a leader group made no load lookup: no decision */
	BYPIV_COLD_HELD, /* all misses on both sides, l1.bypass_duel_cold_hold: no decision */
	BYPIV_KEPT,      /* the rule chose the followers' current mode */
	BYPIV_SWITCHED,  /* the rule chose the other mode and the followers switched */
	BYPIV_UNSURE_HELD, /* the rule chose the other mode, within the margin, l1.bypass_duel_unsure_hold */
};
struct byp_iv {
	uint64_t end;                 /* the interval's end (a multiple of l1.bypass_duel_interval) */
	uint32_t acc[2], miss[2];     /* [0] decoupled leaders, [1] plain leaders */
	int32_t diff;                 /* per mille (decided intervals) */
	uint8_t outcome;              /* enum byp_iv_outcome */
	uint8_t followers;            /* the followers' mode after it (1 = decoupled) */
};
#define BYP_DUEL_HISTORY 32

struct byp_duel {
	uint64_t next_at;   /* end of the current interval */
	uint8_t followers;  /* 1 = decoupled */
	int32_t last_diff;  /* per mille, decoupled - plain leaders, of the last closed interval */
	uint64_t last_at;   /* boundary of the last closed interval with accesses */
	uint32_t iv_acc[2], iv_miss[2]; /* interval counters: [0] decoupled leaders, [1] plain leaders */
	uint32_t last_acc[2], last_miss[2]; /* the counters of the interval closed at last_at (`why`) */
	uint64_t last_closed; /* the cycle it was closed in (its first lookup after last_at; l1.duel_switch's cycle) */
	struct byp_iv hist[BYP_DUEL_HISTORY]; /* the last closed intervals, a ring */
	uint32_t hist_n;    /* intervals closed so far (hist[(hist_n - 1) % N] is the newest) */
};

/* Decision of a tag probe (no side effects). */
enum byp_kind { BYPK_PLAIN, BYPK_BYPASS, BYPK_ALLOC };
struct byp_probe {
	int kind;  /* enum byp_kind */
	int way;   /* tag way of the block, -1 = tag miss */
	int rc;    /* RC after the access would be accepted */
	int reason; /* BYPASS: 0 tag miss, 1 RC <= threshold */
};

struct sim;
struct sm;

void byp_init(struct sim *s, struct sm *sm);
void byp_register_stats(struct sim *s);
/* The mode of this SM's followers (of every set without dueling). */
bool byp_decoupled(const struct sim *s, const struct sm *sm);
/* Is this set of this SM's L1 decoupled now (leader role or followers' mode)? */
bool byp_set_decoupled(const struct sim *s, const struct sm *sm, int set);
/* Dueling role of a set: 0 decoupled leader, 1 plain leader, 2 follower, -1 no dueling. */
int byp_role(const struct sim *s, const struct sm *sm, int set);
/* The 95 % margin, in percentage points, of the difference of two leader
 * groups' miss rates m0/a0 - m1/a1 (Agresti and Caffo: one miss and one hit
 * added to each group, 1.96 standard errors). A limit within it is one the
 * interval's counts cannot place the difference on either side of. */
double byp_duel_margin_points(uint32_t m0, uint32_t a0, uint32_t m1, uint32_t a1);
/* Whether the limit (points) lies within that margin of the difference
 * diff_permille: the counts cannot tell the modes apart. */
bool byp_duel_unsure(int limit_points, int32_t diff_permille, uint32_t m0, uint32_t a0, uint32_t m1, uint32_t a1);
/* Whether the machine duels (locality, l1.bypass_duel, T > 0, two leader groups). */
bool byp_dueling(const struct sim *s);
/* Close dueling intervals that ended before now (call before a lookup). */
void byp_duel_update(struct sim *s);
/* Count a first load lookup for dueling (miss: bypass or MSHR-allocating miss). */
void byp_duel_count(struct sim *s, struct sm *sm, int set, bool miss);
void byp_probe(const struct sim *s, const struct sm *sm, int set, uint64_t addr, struct byp_probe *p);
/* Accepted bypass: allocate the tag or commit RC; stats and event. */
void byp_apply_bypass(struct sim *s, struct sm *sm, int set, uint64_t addr, int warp, const struct byp_probe *p);
/* Accepted lookup of a committed block: LRU, and RC+1 on a data hit. */
void byp_apply_committed(struct sim *s, struct sm *sm, int set, uint64_t addr, bool hit);
/* Accepted allocation into data way dway (call before l1.c evicts the line
 * there): data eviction bookkeeping for the victim's owner, commit, aging. */
void byp_apply_alloc(struct sim *s, struct sm *sm, int set, uint64_t addr, const struct byp_probe *p, int dway);
/* A data line left outside an allocation (write-evict, atomic). */
void byp_line_gone(struct sim *s, struct sm *sm, int set, uint64_t addr);
/* Count a bypass-all load. */
void byp_count_all(struct sim *s, struct sm *sm, int set, uint64_t addr, int warp);
/* sim_check_invariants: in every decoupled set each committed tag points to
 * a distinct data way holding (or reserved for) its block. */
int byp_check_invariants(const struct sim *s, char **err);
/* l1.bypass = mrpb: a load that hit a resource failure went to the L2 instead
 * (reason: 0 MSHR full, 1 merge slots full, 2 per-warp MSHR cap, BYPR_RESERVED). */
enum { BYPR_RESERVED = 3 };
void byp_count_resfail(struct sim *s, struct sm *sm, int set, uint64_t addr, int warp, int reason);

#endif
