/*
 * ccws.h: Cache-Conscious Wavefront Scheduling (Rogers, O'Connor, Aamodt,
 * MICRO 2012) as a core.scheduler policy. Parameters and their sources:
 * docs/POLICIES.md "CCWS". Per SM:
 *
 *   VTA      a victim tag array per warp slot: core.ccws_vta_entries tags in
 *            sets of core.ccws_vta_ways (set = line address mod sets), FIFO
 *            replacement. When the L1 replaces a line, its tag goes into the
 *            VTA of the warp whose miss allocated it (the line's owner).
 *            A store drops its line from every warp's VTA.
 *   lost     a load of warp w that misses in the L1 (data not present and
 *   locality no MSHR entry already fetching it) and finds its line in w's
 *            own VTA.
 *   LLS      each live warp's lost-locality score, base B = ccws_base_score.
 *            A lost-locality hit adds
 *              floor(H * K_throttle * C / I)
 *            with H = lost-locality hits and I = instructions issued by the
 *            SM's live warps, C = the cutoff. With ccws_kcap > 0 the score is
 *            then capped at max(B, floor(H * K_cap * C / I)). Above B the
 *            score falls by core.ccws_decay points per cycle (1, the
 *            release's) down to B (kept lazily: score at a reference
 *            cycle, so skipped cycles need no work).
 *   cutoff   C = live warps x B. Live warps sorted by LLS (ties: older
 *            first) are admitted while the running sum is below C; the rest
 *            are throttled: their next global load may not issue (other
 *            instructions still issue). With every LLS at B all are
 *            admitted. Issue among the others is greedy-then-oldest.
 *
 *     LLS  366 |####   w3   C = 4 x 100 = 400: w3 (366), then w0 (466 >= C)
 *          100 |#      w0   are admitted; w1 and w2 are throttled. 67 cycles
 *          100 |#      w1   later w3 is at 299, 299 + 100 < C, so w1 is
 *          100 |#      w2   admitted too (499): only w2 stays throttled.
 *
 * The throttle mask is a function of the scores and the cycle; ccws_eval
 * recomputes it when the SM evaluates and reports the next cycle at which
 * decay alone would change it (the SM is woken then).
 */
#ifndef GPUSTEP_CCWS_H
#define GPUSTEP_CCWS_H

#include <stdbool.h>
#include <stdint.h>

#define CCWS_MAX_WARPS 64

struct ccws_vta_ent {
	uint64_t tag;   /* line address | 1 when valid, 0 = empty */
	uint64_t stamp; /* insertion order (FIFO) */
};

struct ccws_sm {
	int32_t score[CCWS_MAX_WARPS]; /* LLS at score_at[w] */
	uint64_t score_at[CCWS_MAX_WARPS];
	uint32_t hits[CCWS_MAX_WARPS]; /* lost-locality hits of the warp in the slot */
	uint64_t thr;        /* throttled warp slots (last evaluation) */
	uint64_t next_change; /* cycle decay alone changes thr, UINT64_MAX = never */
	uint64_t stamp;      /* VTA insertion counter */
	uint64_t lost;       /* lost-locality hits of this SM */
	int32_t cutoff;      /* C at the last evaluation */
	int32_t spare;
	struct ccws_vta_ent *vta; /* [warp * entries + set * ways + way] (arena) */
	int16_t *owner;      /* L1 line (set * ways + way) -> allocating warp, -1 (arena) */
	uint64_t last_eval;  /* cycle of the last ccws_eval (thr held since then) */
	uint64_t adm;        /* live warp slots admitted (last evaluation) */
	uint32_t st_lost, st_insert, st_changes, st_pct; /* stat ids */
	uint32_t st_thr_cycles, st_held, st_adm;
};

struct sim;
struct sm;

void ccws_init(struct sim *s, struct sm *sm);
/* A warp was launched into slot w: base score, empty VTA. */
void ccws_on_launch(struct sim *s, struct sm *sm, int w);
/* ccws_attach (sim_new) registers the victim tag arrays on the L1's probes
 * (sim/probe.h): PP_L1_ACCESS (load misses not merged into a pending miss,
 * stores), PP_L1_FILL, PP_L1_EVICT. Their listeners call: a fill of
 * (set, way) for warp's miss; (set, way) about to be replaced; a load of
 * warp that missed in the L1; a store (tests call them directly). */
void ccws_attach(struct sim *s);
void ccws_on_fill(struct sim *s, struct sm *sm, int set, int way, int warp);
void ccws_on_evict(struct sim *s, struct sm *sm, int set, int way);
void ccws_on_load_miss(struct sim *s, struct sm *sm, int warp, uint64_t addr);
void ccws_on_store(struct sim *s, struct sm *sm, uint64_t addr);
/* Recompute the throttle mask (core_tick, evaluated cycles). */
void ccws_eval(struct sim *s, struct sm *sm);
/* Is addr's line in warp w's VTA? */
bool ccws_vta_has(const struct sim *s, const struct sm *sm, int w, uint64_t addr);

#endif
