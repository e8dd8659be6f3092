/*
 * rmws.h: racetrack-memory-aware warp scheduling (Mao 2016 §3.3.2, notes 002
 * §2.5), core.scheduler = rmws. Each ready warp's next instruction gets a
 * score = max over the source registers its banks must serve of
 * |register BML - projected bank BML| (projected = the BML of the newest
 * request queued at that bank, or the location register when none is); the
 * ready warp with the lowest score issues, ties broken by rf.rmws_tiebreak
 * (gto: the scheduler's last issued warp, then the oldest; oldest; lrr). An
 * instruction with no register to score (bar, exit, sources all in the write
 * buffer) scores 0 and ranks with the best, or, with rf.rmws_no_reads = last,
 * after every warp that has one. Warps that
 * cannot issue (scoreboard, full write buffer, ...) are not in the ready set,
 * which is the thesis's "continue the column scan".
 *
 * The hardware min-search of Fig. 8 is provided as plain functions for
 * teaching and tests: BML_pp thermometer codes, XOR, normalised unary
 * distance, OR over operands and the column scan over the score array.
 */
#ifndef GPUSTEP_RMWS_H
#define GPUSTEP_RMWS_H

#include <stdint.h>

struct sim;
struct sm;

/* Eq. 3.4 on a seg-bit word: BML + 1 leading ones (seg 8, BML 2 -> 0xE0). */
uint64_t rmws_bml_pp(unsigned bml, unsigned seg);
/* Normalised bit distance: (pp_a ^ pp_b) shifted right until its LSB is 1
 * (0 stays 0); popcount = |a - b|. */
uint64_t rmws_norm_dist(uint64_t pp_a, uint64_t pp_b);
/* Column scan (step 5): the first row (lowest index) holding a 0 in the
 * first column, from the LSB, whose AND over the rows is 0; i.e. a row
 * with the minimum unary score. -1 if n = 0. */
int rmws_column_scan(const uint64_t *unary, int n);

/* Pick among the ready warps (bit mask over slots; one scheduler's warps),
 * `last` = that scheduler's last issued warp slot (tie-breaks) or -1; -1 if none. */
int rmws_pick(const struct sim *s, const struct sm *sm, uint64_t ready, int last);
/* The decision explained: score of the pick, runner-up (-1), GTO's pick. */
void rmws_explain(const struct sim *s, const struct sm *sm, uint64_t ready, int last, int pick, unsigned *score,
		  int *runner_up, int *gto);

#endif
