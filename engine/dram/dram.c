/*
 * dram.c: the DRAM model below the L2: construction, the clock domain, the
 * request queues and completions, stats and panel accessors. Command
 * selection and timing are in dram_sched.c; address decoding in addrmap.c.
 *
 *   L2 ──enqueue──▶ channel ch ─┬─ read slots  ─┐  per bank: unstarted
 *                  (addrmap)    └─ write slots ─┘  requests, oldest first
 *                                      │ dram_sched.c: ACT/PRE/RD/WR/REF
 *                                      ▼
 *   L2 ◀──pop_done── completion heap (ordered by data-end cycle, then age)
 *
 * Clock domains. DRAM cycle d happens at d * tck_ps picoseconds, core cycle c
 * at c * 1e6 / clock_mhz ps; with k = tck_ps * clock_mhz the comparison is
 * d * k  vs  c * 1e6, exact in integers. At core cycle `now` the DRAM has
 * processed every DRAM cycle d with d * k < now * 1e6 (strictly before the
 * core edge), so a request enqueued at `now` can use the DRAM cycle that
 * coincides with it. A transfer ending at DRAM cycle d is visible to
 * dram_pop_done from core cycle ceil(d * k / 1e6). With a 1:1 clock a read
 * enqueued at cycle 0 to an idle bank pops at exactly tRCD + tCL + tBL.
 *
 * The state depends only on the calls that change it (enqueue, pop) and on
 * the commands issued, never on how often dram_tick runs: stepping and
 * skipping leave identical bytes in the arena.
 *
 * Idle cost: a channel with nothing to do leaves the active list; dram_tick
 * and dram_next_event only walk active channels. Refresh of an idle channel
 * is caught up when its next request arrives (dram_refresh_settle).
 *
 * A request holds its queue slot from enqueue until the L2 pops its
 * completion, so read_queue also bounds reads in flight (no unbounded
 * return queue).
 */
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram_int.h"
#include "sim/sim.h"

#define PS_PER_US 1000000u

/* ---- clock domain ------------------------------------------------------- */

/* floor or ceil of t * num / den in portable C11 (no 128-bit type): with
 * t = q * den + r, t * num / den = q * num + r * num / den, and r * num <
 * den * num fits in 64 bits for every clock the config accepts (k <= 1e5 ps x
 * 1e4 MHz). Saturates at UINT64_MAX, which callers treat as "never". */
static uint64_t muldiv(uint64_t t, uint64_t num, uint64_t den, bool up)
{
	uint64_t q = t / den, r = t % den, lo = r * num;
	if (q && num > UINT64_MAX / q)
		return UINT64_MAX;
	uint64_t hi = q * num, add = lo / den + (up && lo % den);
	return hi > UINT64_MAX - add ? UINT64_MAX : hi + add;
}

uint64_t dram_core_of(const struct dram *d, dcyc t) { return muldiv(t, d->k, PS_PER_US, true); }

/* The core cycle whose dram_tick processes DRAM cycle t. */
static uint64_t core_processing(const struct dram *d, dcyc t)
{
	uint64_t c = muldiv(t, d->k, PS_PER_US, false);
	return c == UINT64_MAX ? c : c + 1;
}

/* First DRAM cycle not before core cycle c. */
dcyc dram_of_core(const struct dram *d, uint64_t c) { return muldiv(c, PS_PER_US, d->k, true); }

/* ---- completion heap ---------------------------------------------------- */

static bool done_before(const struct dram_done *a, const struct dram_done *b)
{
	return a->done < b->done || (a->done == b->done && a->seq < b->seq);
}

void dram_complete(struct dram *d, uint32_t ch, int32_t slot)
{
	const struct dram_req *r = &d->ch[ch].req[slot];
	if (r->done > d->span) { /* dram.cycles: up to the end of the last transfer */
		stat_add(d->st, d->st_cycles, r->done - d->span);
		d->span = r->done;
	}
	uint32_t i = d->nheap++;
	struct dram_done x = {r->done, r->seq, ch, slot};
	while (i) {
		uint32_t p = (i - 1) / 2;
		if (!done_before(&x, &d->heap[p]))
			break;
		d->heap[i] = d->heap[p];
		i = p;
	}
	d->heap[i] = x;
}

static void heap_pop(struct dram *d)
{
	struct dram_done x = d->heap[--d->nheap];
	uint32_t i = 0, n = d->nheap;
	for (;;) {
		uint32_t l = 2 * i + 1, m = i;
		const struct dram_done *best = &x;
		if (l < n && done_before(&d->heap[l], best)) {
			m = l;
			best = &d->heap[l];
		}
		if (l + 1 < n && done_before(&d->heap[l + 1], best))
			m = l + 1;
		if (m == i)
			break;
		d->heap[i] = d->heap[m];
		i = m;
	}
	if (n)
		d->heap[i] = x;
}

/* ---- construction --------------------------------------------------------- */

static const uint64_t lat_edges[] = {0, 20, 40, 60, 80, 100, 150, 200, 300, 400, 600, 800, 1200, 1600, 3200, 6400};

static uint32_t reg_counter(struct stats *st, const char *desc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static uint32_t reg_counter(struct stats *st, const char *desc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *name = xvasprintf(fmt, ap);
	va_end(ap);
	uint32_t id = stats_counter(st, name, desc);
	free(name);
	return id;
}

static void register_stats(struct dram *d)
{
	struct stats *st = d->st;
	d->st_reads = stats_counter(st, "dram.reads", "read requests (lines) fully issued");
	d->st_writes = stats_counter(st, "dram.writes", "write requests (lines) fully issued");
	d->st_reqs = stats_counter(st, "dram.requests", "reads + writes");
	d->st_hit = stats_counter(st, "dram.row_hits", "requests that found their row open");
	d->st_miss = stats_counter(st, "dram.row_misses", "requests that found their bank closed (ACT only)");
	d->st_conf = stats_counter(st, "dram.row_conflicts", "requests that found another row open (PRE + ACT)");
	d->st_act = stats_counter(st, "dram.activates", "ACTIVATE commands");
	d->st_pre = stats_counter(st, "dram.precharges", "PRECHARGE commands (explicit, auto and for refresh)");
	d->st_ref = stats_counter(st, "dram.refreshes", "REFRESH commands (all-bank or per-bank)");
	d->st_full = stats_counter(st, "dram.queue_full", "requests refused because the channel queue was full");
	d->st_cycles = stats_counter(st, "dram.cycles", "DRAM clock cycles up to the end of the last data transfer");
	d->st_data = stats_counter(st, "dram.data_cycles", "DRAM cycles of data-bus transfer, all channels");
	d->st_busy = stats_counter(st, "dram.busy_bank_cycles", "sum over DRAM cycles of banks with unissued requests");
	d->st_any = stats_counter(st, "dram.any_busy_cycles", "channel-cycles with at least one such bank");
	d->st_rlat_sum = stats_counter(st, "dram.read_latency_sum", "sum of read latencies (core cycles)");
	d->st_rlat_dsum = stats_counter(st, "dram.read_latency_sum_dram",
					"sum of read latencies in DRAM cycles (enqueue to end of data)");
	d->st_wlat_sum = stats_counter(st, "dram.write_latency_sum", "sum of write latencies (core cycles)");
	d->st_rlat = stats_hist(st, "dram.read_latency", "read latency, enqueue to data (core cycles, queueing + service)",
				lat_edges, ARRAY_LEN(lat_edges));
	d->st_wlat = stats_hist(st, "dram.write_latency", "write latency, enqueue to data written (core cycles)", lat_edges,
				ARRAY_LEN(lat_edges));
	d->st_rq = stats_occupancy(st, "dram.read_queue", "read slots held, all channels",
				   (uint64_t)d->nch * (uint64_t)d->c.read_queue);
	d->st_wq = stats_occupancy(st, "dram.write_queue", "write slots held, all channels",
				   (uint64_t)d->nch * (uint64_t)d->c.write_queue);
	stats_ratio(st, "dram.row_hit_rate", "row hits / requests", "dram.row_hits", "dram.requests", 1.0);
	stats_ratio(st, "dram.read_latency_mean", "mean read latency (core cycles)", "dram.read_latency_sum", "dram.reads", 1.0);
	stats_ratio(st, "dram.read_latency_mean_dram", "mean read latency (DRAM cycles, whatever the core clock)",
		    "dram.read_latency_sum_dram", "dram.reads", 1.0);
	stats_ratio(st, "dram.write_latency_mean", "mean write latency (core cycles)", "dram.write_latency_sum", "dram.writes",
		    1.0);
	stats_ratio(st, "dram.bus_util", "data-bus utilisation, mean over channels", "dram.data_cycles", "dram.cycles",
		    1.0 / d->nch);
	stats_ratio(st, "dram.blp", "bank-level parallelism: mean banks with work while any has", "dram.busy_bank_cycles",
		    "dram.any_busy_cycles", 1.0);
	for (uint32_t i = 0; i < d->nch; i++) {
		struct dram_chan *c = &d->ch[i];
		char n1[64], n2[64], n3[64];
		c->st_reads = reg_counter(st, "reads of this channel", "dram.ch%u.reads", i);
		c->st_writes = reg_counter(st, "writes of this channel", "dram.ch%u.writes", i);
		c->st_hit = reg_counter(st, "row hits of this channel", "dram.ch%u.row_hits", i);
		c->st_miss = reg_counter(st, "row misses of this channel", "dram.ch%u.row_misses", i);
		c->st_conf = reg_counter(st, "row conflicts of this channel", "dram.ch%u.row_conflicts", i);
		c->st_act = reg_counter(st, "activates of this channel", "dram.ch%u.activates", i);
		c->st_data = reg_counter(st, "data-bus busy DRAM cycles", "dram.ch%u.data_cycles", i);
		c->st_busy = reg_counter(st, "sum of busy banks over DRAM cycles", "dram.ch%u.busy_bank_cycles", i);
		c->st_any = reg_counter(st, "DRAM cycles with a busy bank", "dram.ch%u.any_busy_cycles", i);
		snprintf(n1, sizeof n1, "dram.ch%u.read_queue", i);
		c->st_rq = stats_occupancy(st, n1, "read slots held", (uint64_t)d->c.read_queue);
		snprintf(n1, sizeof n1, "dram.ch%u.write_queue", i);
		c->st_wq = stats_occupancy(st, n1, "write slots held", (uint64_t)d->c.write_queue);
		snprintf(n1, sizeof n1, "dram.ch%u.bus_util", i);
		snprintf(n2, sizeof n2, "dram.ch%u.data_cycles", i);
		stats_ratio(st, n1, "data-bus utilisation of this channel", n2, "dram.cycles", 1.0);
		snprintf(n1, sizeof n1, "dram.ch%u.blp", i);
		snprintf(n2, sizeof n2, "dram.ch%u.busy_bank_cycles", i);
		snprintf(n3, sizeof n3, "dram.ch%u.any_busy_cycles", i);
		stats_ratio(st, n1, "bank-level parallelism of this channel", n2, n3, 1.0);
		for (uint32_t b = 0; b < c->nbanks; b++) {
			c->bank[b].st_hit = reg_counter(st, "row hits of this bank", "dram.ch%u.b%u.row_hits", i, b);
			c->bank[b].st_miss = reg_counter(st, "row misses of this bank", "dram.ch%u.b%u.row_misses", i, b);
			c->bank[b].st_conf = reg_counter(st, "row conflicts of this bank", "dram.ch%u.b%u.row_conflicts", i, b);
		}
	}
}

static void resolve_timing(struct dram *d)
{
	const struct dram_timing *t = &d->c.timing;
	bool bg = d->c.bank_groups > 1;
	d->t = (struct dram_timing_c){
		.CL = (dcyc)t->tCL, .CWL = (dcyc)t->tCWL, .RCD = (dcyc)t->tRCD,
		.RCDWR = (dcyc)(t->tRCDWR ? t->tRCDWR : t->tRCD), .AW32 = (dcyc)t->t32AW, .PPD = (dcyc)t->tPPD, .RP = (dcyc)t->tRP,
		.RAS = (dcyc)t->tRAS, .RC = (dcyc)t->tRC, .RRD = (dcyc)t->tRRD,
		.RRD_L = (dcyc)(bg ? t->tRRD_L : t->tRRD), .FAW = (dcyc)t->tFAW, .CCD = (dcyc)t->tCCD,
		.CCD_L = (dcyc)(bg ? t->tCCD_L : t->tCCD), .WR = (dcyc)t->tWR, .WTR = (dcyc)t->tWTR,
		.WTR_L = (dcyc)(bg ? t->tWTR_L : t->tWTR), .RTW = (dcyc)t->tRTW, .RTRS = (dcyc)t->tRTRS,
		.RTP = (dcyc)t->tRTP, .RFC = (dcyc)t->tRFC, .RFCpb = (dcyc)t->tRFCpb, .REFI = (dcyc)t->tREFI,
		.BL = (dcyc)(d->c.burst / d->c.data_rate),
	};
}

struct dram *dram_new(struct arena *a, const struct sim_cfg *cfg, struct stats *st, struct events *ev,
		      const uint64_t *now, char **err)
{
	if (dram_cfg_section.validate(cfg, err))
		return NULL;
	if (cfg->core.clock_mhz <= 0) {
		set_err(err, "core.clock_mhz: must be > 0, got %d", cfg->core.clock_mhz);
		return NULL;
	}
	struct dram *d = ARENA_NEW(a, struct dram, 1);
	d->c = cfg->dram;
	if (addrmap_init(&d->map, &d->c, err))
		return NULL;
	/* L2 sub-partitions: a request's channel is its L2 bank's (addrmap.h) */
	if (cfg->l2.banks_per_channel &&
	    addrmap_set_partition(&d->map, (unsigned)cfg->l2.banks_per_channel, cfg->l2.bank_hash, err))
		return NULL;
	resolve_timing(d);
	d->sched_kind = (uint8_t)d->c.scheduler;
	ARENA_PTR(a, d->st, st);
	ARENA_PTR(a, d->ev, ev);
	ARENA_PTR(a, d->now, now);
	d->k = (uint64_t)d->c.tck_ps * (uint64_t)cfg->core.clock_mhz;
	int atom = d->c.bus_bytes * d->c.burst, line = cfg->l2.line > 0 ? cfg->l2.line : 128;
	d->cmds_per_line = line <= atom ? 1 : (uint32_t)(line / atom);
	d->nch = (uint32_t)d->c.channels;
	d->nbanks = (uint32_t)(d->c.ranks * d->c.banks);
	ARENA_SET(a, d->ch, struct dram_chan, d->nch);
	ARENA_SET(a, d->active, uint32_t, d->nch);
	uint32_t slots = (uint32_t)(d->c.read_queue + d->c.write_queue);
	if (d->c.queue_model == DRAM_QUEUE_PER_BANK) /* + command queues + issued, not yet popped */
		slots += d->nbanks * (uint32_t)(d->c.cmd_queue + 2) + 64;
	else if (d->c.queue_model == DRAM_QUEUE_PER_RANK)
		slots += (uint32_t)(d->c.ranks * d->c.cmd_queue) + d->nbanks * 2 + 64;
	ARENA_SET(a, d->heap, struct dram_done, (size_t)slots * d->nch);
	for (uint32_t i = 0; i < d->nch; i++) {
		struct dram_chan *c = &d->ch[i];
		c->nbanks = d->nbanks;
		c->nslots = slots;
		ARENA_SET(a, c->bank, struct dram_bank, c->nbanks);
		ARENA_SET(a, c->rank, struct dram_rank, d->c.ranks);
		ARENA_SET(a, c->bg, struct dram_bg, d->c.ranks * d->c.bank_groups);
		ARENA_SET(a, c->req, struct dram_req, slots);
		ARENA_SET(a, c->cand, int32_t, c->nbanks);
		for (uint32_t s = 0; s < slots; s++)
			c->req[s].next = s + 1 < slots ? (int32_t)s + 1 : -1;
		c->free_head = 0;
		for (uint32_t b = 0; b < c->nbanks; b++) {
			struct dram_bank *bk = &c->bank[b];
			bk->head[0] = bk->head[1] = bk->tail[0] = bk->tail[1] = -1;
			bk->started = -1;
			bk->open_row = bk->shown_row = -1;
			bk->cand_pos = -1;
			bk->rank = (uint16_t)(b / (uint32_t)d->c.banks);
			bk->bg = (uint16_t)(bk->rank * d->c.bank_groups + (int)(b % (uint32_t)d->c.banks) % d->c.bank_groups);
		}
		c->bus_rank = -1;
		c->tq_head[0] = c->tq_head[1] = c->tq_tail[0] = c->tq_tail[1] = -1;
		c->next = DCYC_NEVER;
		c->active_pos = -1;
		c->ref_due = dram_ref_due(d, 0);
	}
	d->next_core = UINT64_MAX;
	register_stats(d);
	if (dram_temp_init(d, a, cfg, err))
		return NULL;
	dram_numa_init(d, a, cfg);
	return d;
}

int dram_check_span(const struct sim_cfg *cfg, const char *what, uint64_t lo, uint64_t hi, char **err)
{
	struct addrmap m;
	char *e = NULL;
	if (hi <= lo || addrmap_init(&m, &cfg->dram, &e)) {
		free(e);
		return 0; /* nothing to check, or the validator reports the map */
	}
	uint64_t cap = addrmap_capacity(&m);
	if (hi - lo <= cap)
		return 0;
	return set_err(err,
		       "%s: addresses 0x%" PRIx64 "..0x%" PRIx64 " span %" PRIu64 " bytes, more than the DRAM capacity (%" PRIu64
		       " bytes = dram.channels x ranks x banks x rows x columns x bus_bytes): two lines would share a DRAM location; raise dram.rows or dram.channels",
		       what, lo, hi - 1, hi - lo, cap);
}

static int range_cmp(const void *a, const void *b)
{
	const struct wl_range *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void range_name(char *buf, size_t n, const struct wl_range *r)
{
	snprintf(buf, n, "%s%s%s 0x%" PRIx64 "..0x%" PRIx64, r->src ? r->src : "", r->src ? " " : "", r->what, r->lo,
		 r->last);
}

int dram_check_ranges(const struct sim_cfg *cfg, const char *name, struct wl_range *r, unsigned n, char **err)
{
	struct addrmap m;
	char *e = NULL;
	if (addrmap_init(&m, &cfg->dram, &e)) {
		free(e);
		return 0; /* the validator reports the map */
	}
	uint64_t cap = addrmap_capacity(&m), L = cfg->l2.line > 0 ? (uint64_t)cfg->l2.line : 1;
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++) /* drop empty ranges, widen to whole lines */
		if (r[i].lo <= r[i].last) {
			r[k] = r[i];
			r[k].lo -= r[k].lo % L;
			r[k].last = r[k].last / L * L > UINT64_MAX - (L - 1) ? UINT64_MAX : r[k].last / L * L + (L - 1);
			k++;
		}
	if (!k)
		return 0;
	qsort(r, k, sizeof *r, range_cmp);
	unsigned w = 0; /* merge ranges that overlap or touch: the same lines */
	for (unsigned i = 1; i < k; i++) {
		if (r[w].last == UINT64_MAX || r[i].lo <= r[w].last + 1)
			r[w].last = MAX(r[w].last, r[i].last);
		else
			r[++w] = r[i];
	}
	k = w + 1;
	uint64_t lo = r[0].lo, last = r[k - 1].last;
	char a[300], b[300];
	for (unsigned i = 0; i < k; i++) {
		if (r[i].last - r[i].lo < cap)
			continue;
		range_name(a, sizeof a, &r[i]);
		return set_err(err,
			       "%s: %s spans %" PRIu64 " bytes, more than the DRAM capacity (%" PRIu64
			       " bytes = dram.channels x ranks x banks x rows x columns x bus_bytes): two lines would share a DRAM "
			       "location (0x%" PRIx64 " and 0x%" PRIx64 "); raise dram.rows or dram.channels",
			       name, a, r[i].last - r[i].lo == UINT64_MAX ? UINT64_MAX : r[i].last - r[i].lo + 1, cap, r[i].lo,
			       r[i].lo + cap);
	}
	/* Disjoint x < y: some x in A, y in B with y - x = j * cap (j >= 1)
	 * iff a multiple of cap lies in [B.lo - A.last, B.last - A.lo]. */
	for (unsigned i = 0; i < k; i++)
		for (unsigned j = i + 1; j < k; j++) {
			uint64_t dmin = r[j].lo - r[i].last, dmax = r[j].last - r[i].lo, rem = dmin % cap;
			uint64_t up = rem ? cap - rem : 0;
			if (up > UINT64_MAX - dmin || dmin + up > dmax)
				continue;
			uint64_t d = dmin + up, x = MAX(r[i].lo, r[j].lo - d);
			x -= x % L;
			range_name(a, sizeof a, &r[i]);
			range_name(b, sizeof b, &r[j]);
			return set_err(err,
				       "%s: the lines at 0x%" PRIx64 " (%s) and 0x%" PRIx64 " (%s) are %" PRIu64
				       " x the DRAM capacity apart (%" PRIu64
				       " bytes = dram.channels x ranks x banks x rows x columns x bus_bytes): two lines would share a "
				       "DRAM location; the addresses span 0x%" PRIx64 "..0x%" PRIx64
				       " in all; raise dram.rows or dram.channels",
				       name, x, a, x + d, b, d / cap, cap, lo, last);
		}
	return 0;
}

/* ---- the L2-facing API ------------------------------------------------------ */

void dram_decode(const struct dram *d, uint64_t addr, unsigned *ch, unsigned *bank, uint32_t *row, uint32_t *col)
{
	struct dram_addr x;
	dram_lookup(d, addr, &x);
	if (ch)
		*ch = x.ch;
	if (bank)
		*bank = x.rank * (unsigned)d->c.banks + x.bank;
	if (row)
		*row = x.row;
	if (col)
		*col = x.col;
}

bool dram_can_accept(const struct dram *d, uint64_t addr, bool is_write)
{
	uint32_t cap = (uint32_t)(is_write ? d->c.write_queue : d->c.read_queue);
	struct dram_addr x;
	if (!d->tp.on) /* the map's channel, without decoding the rest */
		x.ch = addrmap_channel(&d->map, addr);
	else if (!dram_lookup(d, addr, &x)) { /* TEMP places it on enqueue: any channel may take it */
		for (uint32_t i = 0; i < d->nch; i++)
			if (d->ch[i].held[is_write] >= cap || d->ch[i].free_head < 0)
				return false;
		return true;
	}
	return d->ch[x.ch].held[is_write] < cap && d->ch[x.ch].free_head >= 0;
}

void dram_note_full(struct dram *d, uint64_t addr, bool is_write)
{
	struct dram_addr x;
	/* Under TEMP a page not placed yet has no bank or row: -1 (the channel is
	 * its colour's, as dram_decode gives). */
	bool placed = dram_lookup(d, addr, &x);
	stat_inc(d->st, d->st_full);
	EV_EMIT(d->ev, EV_DRAM_QUEUE_FULL, .cycle = *d->now, .ch = (int16_t)x.ch,
		.bank = placed ? (int16_t)(x.rank * (unsigned)d->c.banks + x.bank) : -1,
		.row = placed ? (int32_t)x.row : -1, .addr = addr, .a = is_write);
}

static void activate(struct dram *d, struct dram_chan *c)
{
	c->active = true;
	c->active_pos = (int32_t)d->nactive;
	d->active[d->nactive++] = (uint32_t)(c - d->ch);
}

static void deactivate(struct dram *d, struct dram_chan *c)
{
	uint32_t last = d->active[--d->nactive];
	d->active[c->active_pos] = last;
	d->ch[last].active_pos = c->active_pos;
	c->active = false;
	c->active_pos = -1;
}

void dram_enqueue(struct dram *d, uint64_t addr, bool is_write, uint32_t tag)
{
	dram_enqueue_from(d, addr, is_write, tag, -1);
}

void dram_enqueue_from(struct dram *d, uint64_t addr, bool is_write, uint32_t tag, int sm)
{
	dram_enqueue_bytes(d, addr, is_write, tag, sm, 0);
}

void dram_enqueue_bytes(struct dram *d, uint64_t addr, bool is_write, uint32_t tag, int sm, uint32_t bytes)
{
	dram_tick(d);
	struct dram_addr x;
	dram_route(d, addr, sm, &x);
	struct dram_chan *c = &d->ch[x.ch];
	int q = is_write ? Q_WR : Q_RD;
	bool per_bank = d->c.queue_model != DRAM_QUEUE_CHANNEL; /* per_bank or per_rank */
	assert(c->held[q] < (uint32_t)(is_write ? d->c.write_queue : d->c.read_queue) && c->free_head >= 0);
	dcyc dnow = dram_of_core(d, *d->now);
	if (!c->active) {
		dram_refresh_settle(d, c, dnow);
		activate(d, c);
	}
	dram_blp_account(d, c, dnow);
	c->last_arrival = dnow;
	uint32_t bi = x.rank * (uint32_t)d->c.banks + x.bank;
	int32_t s = c->free_head;
	struct dram_req *r = &c->req[s];
	c->free_head = r->next;
	memset(r, 0, sizeof *r); /* field by field: padding must be zero (the arena is hashed) */
	r->addr = addr;
	r->seq = d->seq++;
	r->enq = *d->now;
	r->enq_d = dnow;
	r->tag = tag;
	r->row = x.row;
	r->col = x.col;
	r->bank = (uint16_t)bi;
	r->is_write = (uint8_t)is_write;
	uint32_t atom = (uint32_t)(d->c.bus_bytes * d->c.burst), cols = d->cmds_per_line;
	if (bytes && (bytes + atom - 1) / atom < cols)
		cols = (bytes + atom - 1) / atom;
	r->cols_left = (uint8_t)(cols ? cols : 1);
	r->bytes = (uint16_t)(bytes ? bytes : cols * atom);
	dram_numa_mark(d, &x, sm, r);
	if (per_bank) { /* the transaction queue; dram_sched.c moves it to its bank */
		r->prev = c->tq_tail[q];
		r->next = -1;
		if (c->tq_tail[q] >= 0)
			c->req[c->tq_tail[q]].next = s;
		else
			c->tq_head[q] = s;
		c->tq_tail[q] = s;
	} else {
		dram_bank_link(d, c, bi, s, q);
	}
	c->held[q]++;
	c->pend[q]++;
	d->held_total++;
	stat_occ_add(d->st, is_write ? d->st_wq : d->st_rq, 1);
	stat_occ_add(d->st, is_write ? c->st_wq : c->st_rq, 1);
	if (c->next > dnow) {
		c->next = dnow;
		uint64_t at = core_processing(d, dnow);
		if (at < d->next_core)
			d->next_core = at;
	}
	EV_EMIT(d->ev, EV_DRAM_ENQUEUE, .cycle = *d->now, .ch = (int16_t)x.ch, .bank = (int16_t)bi, .row = (int32_t)x.row,
		.addr = addr, .a = is_write);
}

/* A channel's step at DRAM cycle n is due at core cycle now when n < D =
 * dram_of_core(now), i.e. n * k < now * 1e6, i.e. core_processing(n) <= now. */
void dram_tick(struct dram *d)
{
	if (*d->now < d->next_core)
		return; /* no channel has a step due */
	dcyc D = dram_of_core(d, *d->now), first = DCYC_NEVER;
	for (uint32_t i = d->nactive; i-- > 0;) {
		struct dram_chan *c = &d->ch[d->active[i]];
		while (c->next < D)
			dram_chan_step(d, c, c->next);
		if (c->next == DCYC_NEVER) {
			assert(!c->pend[Q_RD] && !c->pend[Q_WR]);
			deactivate(d, c);
		} else if (c->next < first) {
			first = c->next;
		}
	}
	d->next_core = first == DCYC_NEVER ? UINT64_MAX : core_processing(d, first);
}

bool dram_next_check(const struct dram *d)
{
	dcyc first = DCYC_NEVER;
	for (uint32_t i = 0; i < d->nactive; i++)
		if (d->ch[d->active[i]].next < first)
			first = d->ch[d->active[i]].next;
	return d->next_core == (first == DCYC_NEVER ? UINT64_MAX : core_processing(d, first));
}

static bool dram_pop_one(struct dram *d, uint64_t vis, uint32_t *tag, bool *is_write);

bool dram_pop_done(struct dram *d, uint32_t *tag, bool *is_write)
{
	dram_tick(d);
	for (;;) { /* a remote completion goes on across the fabric (dram_numa.c) */
		if (!d->nheap)
			break;
		uint64_t vis = dram_core_of(d, d->heap[0].done);
		if (vis > *d->now)
			break;
		if (dram_pop_one(d, vis, tag, is_write))
			return true;
	}
	return dram_numa_pop(d, tag, is_write);
}

/* The completion at the heap's top, visible at core cycle vis: false when it
 * crosses the NUMA fabric first. */
static bool dram_pop_one(struct dram *d, uint64_t vis, uint32_t *tag, bool *is_write)
{
	struct dram_done top = d->heap[0];
	heap_pop(d);
	struct dram_chan *c = &d->ch[top.ch];
	struct dram_req *r = &c->req[top.slot];
	uint64_t lat = vis - r->enq;
	int q = r->is_write;
	stat_hist_add(d->st, q ? d->st_wlat : d->st_rlat, lat);
	stat_add(d->st, q ? d->st_wlat_sum : d->st_rlat_sum, lat);
	if (!q)
		stat_add(d->st, d->st_rlat_dsum, r->done - r->enq_d);
	stat_occ_add(d->st, q ? d->st_wq : d->st_rq, -1);
	stat_occ_add(d->st, q ? c->st_wq : c->st_rq, -1);
	EV_EMIT(d->ev, EV_DRAM_DONE, .cycle = *d->now, .ch = (int16_t)top.ch, .bank = (int16_t)r->bank, .addr = r->addr,
		.a = (int64_t)lat);
	if (d->c.queue_model == DRAM_QUEUE_CHANNEL)
		c->held[q]--;
	d->held_total--;
	*tag = r->tag;
	*is_write = q;
	r->next = c->free_head;
	c->free_head = top.slot;
	if (r->far) {
		dram_numa_send(d, r, vis);
		return false;
	}
	return true;
}

uint64_t dram_next_event(const struct dram *d)
{
	uint64_t m = d->next_core;
	if (d->nheap) {
		uint64_t v = dram_core_of(d, d->heap[0].done);
		if (v <= *d->now)
			v = *d->now + 1;
		if (v < m)
			m = v;
	}
	uint64_t f = dram_numa_next(d);
	if (f != UINT64_MAX) {
		if (f <= *d->now)
			f = *d->now + 1;
		if (f < m)
			m = f;
	}
	return m;
}

/* ---- livelock ---------------------------------------------------------------- */

static void oldest_on(const struct dram_chan *c, int32_t head, uint64_t *oldest, uint32_t *n)
{
	for (int32_t r = head, k = 0; r >= 0 && (uint32_t)k < c->nslots; r = c->req[r].next, k++) {
		if (c->req[r].enq < *oldest)
			*oldest = c->req[r].enq;
		(*n)++;
	}
}

bool dram_livelock(const struct dram *d, unsigned intervals, struct dram_livelock *out)
{
	if (d->c.refresh == DRAM_REFRESH_NONE || !intervals)
		return false;
	uint64_t refi = dram_core_of(d, d->t.REFI), now = *d->now;
	uint64_t limit = refi * intervals;
	for (uint32_t ch = 0; ch < d->nch; ch++) {
		const struct dram_chan *c = &d->ch[ch];
		uint64_t oldest = UINT64_MAX;
		uint32_t n = 0;
		for (int q = 0; q < 2; q++)
			oldest_on(c, c->tq_head[q], &oldest, &n);
		for (uint32_t b = 0; b < c->nbanks; b++)
			for (int q = 0; q < 2; q++)
				oldest_on(c, c->bank[b].head[q], &oldest, &n);
		if (!n)
			continue;
		dcyc last = 0;
		for (uint32_t b = 0; b < c->nbanks; b++)
			if (c->bank[b].last_col > last)
				last = c->bank[b].last_col;
		uint64_t last_core = last ? dram_core_of(d, last) : 0;
		uint64_t since = last_core > oldest ? last_core : oldest; /* waiting and nothing served since */
		if (now > since && now - since > limit) {
			if (out) {
				out->ch = (int)ch;
				out->waiting = n;
				out->since = since;
				out->refi = refi;
			}
			return true;
		}
	}
	return false;
}

uint64_t dram_refresh_period(const struct dram *d)
{
	return d->c.refresh == DRAM_REFRESH_NONE ? 0 : dram_core_of(d, d->t.REFI);
}

bool dram_idle(const struct dram *d) { return d->held_total == 0 && d->nm.nq == 0; }

uint64_t dram_trace_due(const struct dram *d, uint64_t cycle)
{
	return d->c.trace_cycles == DRAM_TRACE_DRAM ? dram_core_of(d, cycle) : cycle;
}

/* ---- panels ------------------------------------------------------------------- */

const char *dram_bank_state_name(unsigned st)
{
	static const char *const names[] = {"idle", "activating", "active", "precharging", "refreshing"};
	return st < ARRAY_LEN(names) ? names[st] : "?";
}

int dram_channels(const struct dram *d) { return (int)d->nch; }

bool dram_channel_info(const struct dram *d, int ch, struct dram_chan_info *o)
{
	if (ch < 0 || (uint32_t)ch >= d->nch)
		return false;
	const struct dram_chan *c = &d->ch[ch];
	uint64_t cyc = stats_counter_value(d->st, d->st_cycles);
	*o = (struct dram_chan_info){
		.banks = (int)c->nbanks,
		.read_q = (int)c->held[Q_RD],
		.read_cap = d->c.read_queue,
		.write_q = (int)c->held[Q_WR],
		.write_cap = d->c.write_queue,
		.draining_writes = c->draining,
		.reads = stats_counter_value(d->st, c->st_reads),
		.writes = stats_counter_value(d->st, c->st_writes),
		.bus_util = cyc ? (double)stats_counter_value(d->st, c->st_data) / (double)cyc : 0.0,
	};
	return true;
}

bool dram_bank_info(const struct dram *d, int ch, int bank, struct dram_bank_info *o)
{
	if (ch < 0 || (uint32_t)ch >= d->nch || bank < 0 || (uint32_t)bank >= d->nbanks)
		return false;
	const struct dram_chan *c = &d->ch[ch];
	const struct dram_bank *b = &c->bank[bank];
	dcyc D = dram_of_core(d, *d->now);
	memset(o, 0, sizeof *o);
	o->open_row = -1;
	if (b->ref_until > D) {
		o->state = DBS_REFRESHING;
	} else if (b->open_row >= 0) {
		o->state = D < b->act_at + d->t.RCD ? DBS_ACTIVATING : DBS_ACTIVE;
		o->open_row = b->open_row;
	} else if (b->pre_at > D && b->shown_row >= 0) { /* auto-precharge still ahead */
		o->state = DBS_ACTIVE;
		o->open_row = b->shown_row;
	} else if (b->last_cmd[0] && D < b->pre_at + d->t.RP) {
		o->state = DBS_PRECHARGING;
	} else {
		o->state = DBS_IDLE;
	}
	o->queue = (int)(b->nq[Q_RD] + b->nq[Q_WR] + (b->started >= 0));
	memcpy(o->last_cmd, b->last_cmd, sizeof o->last_cmd);
	o->last_cmd_cycle = dram_core_of(d, b->last_cmd_at);
	o->hits = stats_counter_value(d->st, b->st_hit);
	o->misses = stats_counter_value(d->st, b->st_miss);
	o->conflicts = stats_counter_value(d->st, b->st_conf);
	o->owner = dram_bank_owner(d, (uint32_t)ch, (uint32_t)bank);
	if (o->owner >= 0) {
		uint32_t g = (uint32_t)bank * d->nch + (uint32_t)ch;
		o->local = d->tp.local[g];
		o->remote = d->tp.remote[g];
		o->last_remote = d->tp.last_remote[g];
	}
	dcyc e;
	int32_t ri;
	if (dram_bank_next(d, c, (uint32_t)bank, &e, &ri) == DC_NONE) {
		o->next_legal = -1;
	} else {
		uint64_t at = dram_core_of(d, e), now = *d->now;
		o->next_legal = at > now ? (int)MIN(at - now, (uint64_t)INT32_MAX) : 0;
	}
	return true;
}
