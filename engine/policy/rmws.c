/*
 * rmws.c: RMWS (see rmws.h). The score itself is regfile.c's rf_score (it
 * knows the bank queues and write-buffer hits); this file orders warps.
 */
#include "rmws.h"

#include <limits.h>

#include "sim/sim_int.h"

uint64_t rmws_bml_pp(unsigned bml, unsigned seg)
{
	uint64_t ones = bml + 1 >= 64 ? ~0ull : (1ull << (bml + 1)) - 1;
	return ones << (seg - 1 - bml);
}

uint64_t rmws_norm_dist(uint64_t a, uint64_t b)
{
	uint64_t x = a ^ b;
	if (!x)
		return 0;
	while (!(x & 1))
		x >>= 1;
	return x;
}

int rmws_column_scan(const uint64_t *unary, int n)
{
	for (int col = 0; col < 64 && n > 0; col++)
		for (int r = 0; r < n; r++)
			if (!(unary[r] >> col & 1))
				return r;
	return n > 0 ? 0 : -1;
}

/* Is a better than b among equal scores? */
static bool tie_before(const struct sim *s, const struct sm *sm, int last, int a, int b)
{
	int n = s->cfg.core.warps_per_sm;
	switch (s->cfg.rf.tiebreak) {
	case RF_TIE_LRR: {
		int da = (a - last - 1 + 2 * n) % n, db = (b - last - 1 + 2 * n) % n;
		return da < db;
	}
	case RF_TIE_GTO:
		if (a == last)
			return true;
		if (b == last)
			return false;
		/* fall through */
	case RF_TIE_OLDEST:
	default:
		return sm->w[a].age < sm->w[b].age;
	}
}

/* rf.rmws_no_reads = last: does warp i's instruction have no register to
 * score (bar, exit, every source in the write buffer)? It then ranks after
 * every warp that reads a bank; the tie-break orders those among themselves. */
static bool unscored_last(const struct sim *s, const struct sm *sm, int i)
{
	int nscored;
	if (s->cfg.rf.rmws_no_reads != RF_NOREAD_LAST)
		return false;
	rf_score_n(s, sm, i, &sm->w[i].ib, &nscored);
	return nscored == 0;
}

static void rank(const struct sim *s, const struct sm *sm, uint64_t ready, int last, int *best, int *second,
		 unsigned *bscore)
{
	unsigned ss = 0;
	*best = *second = -1;
	*bscore = 0;
	for (int i = 0; i < s->cfg.core.warps_per_sm; i++) {
		if (!(ready >> i & 1))
			continue;
		unsigned sc = rf_score(s, sm, i, &sm->w[i].ib);
		if (unscored_last(s, sm, i))
			sc = UINT_MAX; /* above every distance */
		if (*best < 0 || sc < *bscore || (sc == *bscore && tie_before(s, sm, last, i, *best))) {
			*second = *best;
			ss = *bscore;
			*best = i;
			*bscore = sc;
		} else if (*second < 0 || sc < ss || (sc == ss && tie_before(s, sm, last, i, *second))) {
			*second = i;
			ss = sc;
		}
	}
}

int rmws_pick(const struct sim *s, const struct sm *sm, uint64_t ready, int last)
{
	int best, second;
	unsigned sc;
	rank(s, sm, ready, last, &best, &second, &sc);
	return best;
}

void rmws_explain(const struct sim *s, const struct sm *sm, uint64_t ready, int last, int pick, unsigned *score,
		  int *runner_up, int *gto)
{
	int best, second;
	rank(s, sm, ready, last, &best, &second, score);
	*score = rf_score(s, sm, pick, &sm->w[pick].ib); /* the score itself, not the rank key */
	*runner_up = best == pick ? second : best;
	if (last >= 0 && (ready >> last & 1)) {
		*gto = last;
		return;
	}
	*gto = -1;
	for (int i = 0; i < s->cfg.core.warps_per_sm; i++)
		if ((ready >> i & 1) && (*gto < 0 || sm->w[i].age < sm->w[*gto].age))
			*gto = i;
}
