/* bpfx.h: the breakpoint tests' machine-less fixture (test_bp.c,
 * test_bp_filters.c): a clock, an arena, two stats (l1.hits, the
 * l1.mshr.occupancy histogram) and an event log whose breakpoints are b. */
#ifndef GPUSTEP_TESTS_BPFX_H
#define GPUSTEP_TESTS_BPFX_H

#include "debug/bp.h"
#include "sim/event.h"
#include "sim/stats.h"

struct bpfx {
	uint64_t now;
	struct arena a;
	struct stats st;
	uint32_t occ, hits;
	struct events ev;
	struct bp_set b;
};

static inline void fx_init(struct bpfx *f)
{
	f->now = 0;
	arena_init(&f->a);
	stats_init(&f->st, &f->now);
	f->hits = stats_counter(&f->st, "l1.hits", "hits");
	f->occ = stats_occupancy(&f->st, "l1.mshr.occupancy", "mshr", 32);
	stats_freeze(&f->st, &f->a);
	events_init(&f->ev, &f->a, 64, &f->now);
	bp_init(&f->b, &f->st);
	f->ev.bps = &f->b;
}

static inline void fx_fini(struct bpfx *f)
{
	bp_fini(&f->b);
	stats_fini(&f->st);
	arena_fini(&f->a);
}

#endif
