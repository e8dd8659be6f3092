/*
 * test_dram_harness.h: a DRAM with its own clock, stats and events for the
 * DRAM unit tests (included by tests/unit/test_dram*.c only).
 *
 * The timing config is chosen so every constraint is distinct and the
 * arithmetic is easy to follow: 1:1 clocks (1000 MHz core, 1000 ps tCK),
 * one channel, one rank, 8 banks, 64 B lines = one burst (16 B bus x BL4,
 * DDR, so tBL = 2), tCL 5, tCWL 3, tRCD 4, tRP 4, tRAS 10, tRC 14, tRRD 2,
 * tFAW 12, tCCD 4, tWR 3, tWTR 2, tRTW 6, tRTP 2.
 */
#ifndef TEST_DRAM_HARNESS_H
#define TEST_DRAM_HARNESS_H

#include <stdlib.h>
#include <string.h>

#include "dram/addrmap.h"
#include "sim/config.h"
#include "dram/dram.h"
#include "sim/event.h"
#include "sim/stats.h"
#include "test.h"

#define H_MAX_TAGS 4096

struct dh {
	struct sim_cfg cfg;
	struct arena arena;
	struct stats st;
	struct events ev;
	uint64_t now;
	struct dram *d;
	struct addrmap map;
	uint64_t done_at[H_MAX_TAGS];
	uint32_t ndone;
};

static inline void dh_cfg(struct sim_cfg *c)
{
	cfg_defaults(c);
	c->core.clock_mhz = 1000;
	c->l2.line = 64;
	c->l1.line = 64;
	struct dram_cfg *d = &c->dram;
	d->channels = 1;
	d->ranks = 1;
	d->bank_groups = 1;
	d->banks = 8;
	d->rows = 1024;
	d->columns = 128; /* 2 KB rows: 32 lines */
	d->bus_bytes = 16;
	d->burst = 4;
	d->data_rate = 2;
	d->tck_ps = 1000;
	d->scheduler = DRAM_SCHED_FRFCFS;
	d->page_policy = DRAM_PAGE_OPEN;
	d->row_hit_cap = 0;
	d->read_queue = 32;
	d->write_queue = 32;
	d->write_high = 24;
	d->write_low = 8;
	strcpy(d->mapping, "row:bank:ch:col");
	d->refresh = DRAM_REFRESH_NONE;
	d->timing = (struct dram_timing){.tCL = 5, .tCWL = 3, .tRCD = 4, .tRP = 4, .tRAS = 10, .tRC = 14, .tRRD = 2,
					 .tRRD_L = 2, .tFAW = 12, .tCCD = 4, .tCCD_L = 4, .tWR = 3, .tWTR = 2, .tWTR_L = 2,
					 .tRTW = 6, .tRTRS = 1, .tRTP = 2, .tRFC = 20, .tRFCpb = 8, .tREFI = 100};
}

/* Returns false (and prints) when the config is refused. */
static inline bool dh_init(struct dh *h)
{
	char *err = NULL;
	memset(&h->arena, 0, sizeof h->arena);
	arena_init(&h->arena);
	h->now = 0;
	h->ndone = 0;
	memset(h->done_at, 0xff, sizeof h->done_at);
	stats_init(&h->st, &h->now);
	events_init(&h->ev, &h->arena, 1024, &h->now);
	h->d = dram_new(&h->arena, &h->cfg, &h->st, &h->ev, &h->now, &err);
	if (!h->d || addrmap_init(&h->map, &h->cfg.dram, &err)) {
		test_fail(__FILE__, __LINE__, "dram_new: %s", err ? err : "?");
		free(err);
		return false;
	}
	stats_freeze(&h->st, &h->arena);
	return true;
}

static inline void dh_fini(struct dh *h)
{
	stats_fini(&h->st);
	arena_fini(&h->arena);
}

static inline uint64_t dh_addr(const struct dh *h, unsigned ch, unsigned bank, unsigned row, unsigned col)
{
	struct dram_addr a = {.ch = ch, .rank = 0, .bank = bank, .row = row, .col = col};
	return addrmap_encode(&h->map, &a);
}

static inline void dh_pop(struct dh *h)
{
	uint32_t tag;
	bool w;
	dram_tick(h->d);
	while (dram_pop_done(h->d, &tag, &w)) {
		if (tag < H_MAX_TAGS)
			h->done_at[tag] = h->now;
		h->ndone++;
	}
}

/* Advance to cycle `until` (or until idle when until == 0), one cycle at a
 * time or by dram_next_event. */
static inline void dh_run(struct dh *h, uint64_t until, bool skip)
{
	for (;;) {
		dh_pop(h);
		if (until ? h->now >= until : dram_idle(h->d))
			break;
		uint64_t n = skip ? dram_next_event(h->d) : h->now + 1;
		if (until && n > until)
			n = until;
		h->now = n;
	}
}

static inline uint64_t dh_stat(const struct dh *h, const char *name)
{
	int id = stats_find(&h->st, name);
	if (id < 0) {
		test_fail(__FILE__, __LINE__, "no stat %s", name);
		return 0;
	}
	return stats_counter_value(&h->st, (uint32_t)id);
}

static inline double dh_value(const struct dh *h, const char *name)
{
	int id = stats_find(&h->st, name);
	return id < 0 ? -1 : stats_value(&h->st, (uint32_t)id);
}

/* A trace fed as fast as the queues accept, run to completion. */
struct dh_req {
	uint64_t addr;
	bool write;
};

static inline void dh_feed(struct dh *h, const struct dh_req *r, uint32_t n, bool skip)
{
	uint32_t i = 0;
	for (;;) {
		dh_pop(h);
		while (i < n && dram_can_accept(h->d, r[i].addr, r[i].write)) {
			dram_enqueue(h->d, r[i].addr, r[i].write, i);
			i++;
		}
		if (i == n && dram_idle(h->d))
			break;
		h->now = skip ? dram_next_event(h->d) : h->now + 1;
	}
}

#endif
