/*
 * evlog.h: every event a machine logs, recorded in order, for the whatif
 * tests (test_whatif*.c) that find where two runs part without forking:
 * both machines are stepped one cycle at a time and their logs compared
 * pair by pair (evlog_same: every field).
 */
#ifndef TEST_EVLOG_H
#define TEST_EVLOG_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/event.h"
#include "sim/sim.h"
#include "test.h"

struct evlog {
	struct event *v;
	size_t n, cap;
};

/* Log every event kind and record them up to the end, or `limit` cycles. */
static inline void evlog_run(struct sim *s, uint64_t limit, struct evlog *l)
{
	events_log_all(sim_events(s), true);
	memset(l, 0, sizeof *l);
	while (!sim_done(s) && sim_cycle(s) < limit) {
		uint64_t before = events_logged(sim_events_c(s));
		sim_step(s, 1);
		uint64_t made = events_logged(sim_events_c(s)) - before;
		REQUIRE(made < 4096); /* the ring still holds them */
		for (uint64_t i = made; i-- > 0;) {
			if (l->n == l->cap) {
				l->cap = l->cap ? 2 * l->cap : 4096;
				l->v = realloc(l->v, l->cap * sizeof *l->v);
				REQUIRE(l->v);
			}
			l->v[l->n++] = *events_recent(sim_events_c(s), i);
		}
	}
}

static inline bool evlog_same(const struct event *x, const struct event *y)
{
	return x->cycle == y->cycle && x->kind == y->kind && x->addr == y->addr && x->sm == y->sm &&
	       x->warp == y->warp && x->unit == y->unit && x->ch == y->ch && x->bank == y->bank && x->row == y->row &&
	       x->set == y->set && x->a == y->a && x->b == y->b;
}

#endif
