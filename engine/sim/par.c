/*
 * par.c: the per-thread and per-SM buffers of the threaded SM phases (par.h).
 */
#include "par.h"

#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "stats.h"

_Thread_local struct par_thr *par_cur;
_Thread_local struct par_sm *par_sm_cur;

void par_stat_add(uint32_t slot, uint64_t v)
{
	struct par_thr *t = par_cur;
	if (!v)
		return;
	if (!t->dval[slot])
		t->dlist[t->nd++] = slot;
	t->dval[slot] += v;
}

void par_hist_add(uint32_t cell)
{
	struct par_thr *t = par_cur;
	if (!t->dhist[cell])
		t->hlist[t->nh++] = cell;
	t->dhist[cell]++;
}

void par_stat_max(uint32_t slot, uint64_t v)
{
	struct par_thr *t = par_cur;
	if (v <= t->dmax[slot])
		return;
	if (!t->dmax[slot])
		t->mlist[t->nmx++] = slot;
	t->dmax[slot] = v;
}

void par_ev_push(const struct event *e)
{
	struct par_sm *m = par_cur->sm;
	m->dirty = true;
	if (m->nev == m->evcap) {
		m->evcap = m->evcap ? m->evcap * 2 : 64;
		m->ev = xrealloc(m->ev, m->evcap * sizeof *m->ev);
	}
	m->ev[m->nev++] = *e;
}

void par_occ_push(uint32_t id, bool add, uint64_t v)
{
	struct par_sm *m = par_cur->sm;
	m->dirty = true;
	if (m->nocc == m->occcap) {
		m->occcap = m->occcap ? m->occcap * 2 : 64;
		m->occ = xrealloc(m->occ, m->occcap * sizeof *m->occ);
	}
	m->occ[m->nocc++] = (struct par_occ){id, add, v};
}

void par_thr_init(struct par_thr *t, const struct stats *st)
{
	memset(t, 0, sizeof *t);
	size_t nc = st->ncounters ? st->ncounters : 1, nh = st->nhist_cells ? st->nhist_cells : 1;
	t->dval = xcalloc(nc, sizeof *t->dval);
	t->dlist = xcalloc(nc, sizeof *t->dlist);
	t->dhist = xcalloc(nh, sizeof *t->dhist);
	t->hlist = xcalloc(nh, sizeof *t->hlist);
	t->dmax = xcalloc(nc, sizeof *t->dmax);
	t->mlist = xcalloc(nc, sizeof *t->mlist);
	t->next_event = UINT64_MAX;
}

void par_thr_free(struct par_thr *t)
{
	free(t->dval);
	free(t->dlist);
	free(t->dhist);
	free(t->hlist);
	free(t->dmax);
	free(t->mlist);
	memset(t, 0, sizeof *t);
}

void par_thr_merge_stats(struct par_thr *t, struct stats *st)
{
	for (uint32_t i = 0; i < t->nd; i++) {
		uint32_t slot = t->dlist[i];
		st->vals[slot] += t->dval[slot];
		t->dval[slot] = 0;
	}
	t->nd = 0;
	for (uint32_t i = 0; i < t->nh; i++) {
		uint32_t c = t->hlist[i];
		st->hist[c] += t->dhist[c];
		t->dhist[c] = 0;
	}
	t->nh = 0;
	for (uint32_t i = 0; i < t->nmx; i++) {
		uint32_t slot = t->mlist[i];
		if (t->dmax[slot] > st->vals[slot])
			st->vals[slot] = t->dmax[slot];
		t->dmax[slot] = 0;
	}
	t->nmx = 0;
}
