/*
 * dram_temp.c: TEMP's SM-bound banks and first-touch page colouring (Mao
 * 2016 ch. 5, notes 002 §4.4), and local/remote access accounting.
 *
 *   global bank g = (rank * banks + bank) * channels + ch   (channel fastest)
 *   owner(g)      = g mod N_SM           when there are at least N_SM banks
 *                 = every SM s with s mod T = g   otherwise (T banks)
 *
 * dram.page_alloc = temp: the first request to a 4 KB page (the "page fault")
 * takes a free frame in one of the requesting SM's banks, round robin over
 * that SM's banks page by page; frames of a bank fill its rows in order
 * (row = frame / pages_per_row), so pages first touched one after another
 * share a row. The in-page offset keeps its column bits (the page-colour
 * layout of addrmap.h: colour bits above the page offset). Every later
 * request to the page goes to that frame, whoever sends it.
 *
 * Choices where the thesis is silent: a request whose origin SM is unknown
 * (a write-back, an FRC fetch) and that first touches a page gets a frame in
 * the bank the page-colour map gives its virtual address; when the page
 * table (dram.temp_pages entries) is full, new pages are not placed and use
 * the page-colour map directly (they may then share frames with placed
 * pages: a timing model has no data, only rows). A bank whose frames are all
 * used passes the page to the SM's next bank.
 *
 * Local access = a request from SM s to a bank s owns (the thesis's Fig. 39
 * metric); counted for every request with a known origin when tracking
 * (temp, or dram.local_stats with the interleaved map).
 */
#include <string.h>

#include "dram_int.h"

static uint32_t gbank(const struct dram *d, const struct dram_addr *x)
{
	return (x->rank * (uint32_t)d->c.banks + x->bank) * d->nch + x->ch;
}

static bool owns(const struct dram_temp *t, uint32_t sm, uint32_t g)
{
	return t->ngb >= t->nsm ? g % t->nsm == sm : g == sm % t->ngb;
}

int dram_bank_owner(const struct dram *d, uint32_t ch, uint32_t bank)
{
	const struct dram_temp *t = &d->tp;
	if (!t->track)
		return -1;
	uint32_t g = bank * d->nch + ch;
	return t->ngb >= t->nsm ? (int)(g % t->nsm) : (int)g;
}

int dram_temp_init(struct dram *d, struct arena *a, const struct sim_cfg *cfg, char **err)
{
	struct dram_temp *t = &d->tp;
	t->on = d->c.page_alloc == DRAM_ALLOC_TEMP;
	t->track = t->on || d->c.local_stats;
	if (!t->track)
		return 0;
	t->nsm = cfg->core.sms > 0 ? (uint32_t)cfg->core.sms : 1;
	t->ngb = d->nch * d->nbanks;
	ARENA_SET(a, t->local, uint64_t, t->ngb);
	ARENA_SET(a, t->remote, uint64_t, t->ngb);
	ARENA_SET(a, t->last_remote, uint8_t, t->ngb);
	struct stats *st = d->st;
	t->st_local = stats_counter(st, "dram.local_accesses", "requests from an SM to a bank bound to it");
	t->st_remote = stats_counter(st, "dram.remote_accesses", "requests from an SM to a bank bound to another SM");
	t->st_sm_acc = stats_counter(st, "dram.sm_accesses", "requests with a known origin SM (local + remote)");
	stats_ratio(st, "dram.local_ratio", "local-access ratio: local / (local + remote)", "dram.local_accesses",
		    "dram.sm_accesses", 1.0);
	stats_ratio(st, "dram.access_delay", "DRAM access delay: mean read latency, enqueue to data (core cycles)",
		    "dram.read_latency_sum", "dram.reads", 1.0);
	if (!t->on)
		return 0;
	struct dram_cfg vc = d->c;
	vc.page_colour = true;
	if (addrmap_init(&t->vmap, &vc, err))
		return -1;
	t->page_cols = ADDRMAP_PAGE_BYTES / (uint32_t)d->c.bus_bytes;
	t->pages_per_row = (uint32_t)d->c.columns / t->page_cols;
	t->frames_per_bank = t->pages_per_row * (uint32_t)d->c.rows;
	t->maxpages = (uint32_t)d->c.temp_pages;
	t->cap = 1;
	while (t->cap < 2 * t->maxpages)
		t->cap <<= 1;
	ARENA_SET(a, t->pt, struct dram_page, t->cap);
	ARENA_SET(a, t->next_frame, uint32_t, t->ngb);
	ARENA_SET(a, t->sm_rr, uint32_t, t->nsm);
	t->st_pages = stats_counter(st, "dram.temp.pages", "pages placed by first touch");
	t->st_no_origin = stats_counter(st, "dram.temp.no_origin",
					"pages first touched by a request without an origin SM (placed by colour)");
	t->st_overflow = stats_counter(st, "dram.temp.overflow", "requests to pages the full page table could not place");
	return 0;
}

static uint32_t slot_of(const struct dram_temp *t, uint64_t vp)
{
	uint64_t h = (vp + 1) * 0x9E3779B97F4A7C15ull;
	uint32_t i = (uint32_t)(h >> 32) & (t->cap - 1);
	while (t->pt[i].key && t->pt[i].key != vp + 1)
		i = (i + 1) & (t->cap - 1);
	return i;
}

static void frame_addr(const struct dram *d, uint32_t g, uint32_t f, uint64_t addr, struct dram_addr *x)
{
	const struct dram_temp *t = &d->tp;
	uint32_t b = g / d->nch;
	x->ch = g % d->nch;
	x->rank = b / (uint32_t)d->c.banks;
	x->bank = b % (uint32_t)d->c.banks;
	x->row = f / t->pages_per_row;
	x->col = (f % t->pages_per_row) * t->page_cols + (uint32_t)((addr % ADDRMAP_PAGE_BYTES) >> t->vmap.byte_bits);
}

bool dram_lookup(const struct dram *d, uint64_t addr, struct dram_addr *x)
{
	const struct dram_temp *t = &d->tp;
	if (!t->on) {
		addrmap_decode(&d->map, addr, x);
		return true;
	}
	const struct dram_page *p = &t->pt[slot_of(t, addr / ADDRMAP_PAGE_BYTES)];
	if (!p->key) {
		addrmap_decode(&t->vmap, addr, x);
		return false;
	}
	frame_addr(d, p->g, p->f, addr, x);
	return true;
}

/* A free frame for a new page: in the SM's banks round robin, else (no
 * origin) in the bank its colour gives. UINT32_MAX when every candidate is full. */
static uint32_t take_frame(struct dram *d, int sm, uint64_t addr, uint32_t *f)
{
	struct dram_temp *t = &d->tp;
	uint32_t cand[64], n = 0;
	if (sm >= 0) {
		uint32_t s = (uint32_t)sm % t->nsm;
		for (uint32_t g = t->ngb >= t->nsm ? s : s % t->ngb; g < t->ngb && n < 64; g += t->nsm)
			cand[n++] = g;
		uint32_t k0 = t->sm_rr[s]++;
		for (uint32_t k = 0; k < n; k++) {
			uint32_t g = cand[(k0 + k) % n];
			if (t->next_frame[g] < t->frames_per_bank) {
				*f = t->next_frame[g]++;
				return g;
			}
		}
		return UINT32_MAX;
	}
	struct dram_addr v;
	addrmap_decode(&t->vmap, addr, &v);
	uint32_t g = gbank(d, &v);
	if (t->next_frame[g] >= t->frames_per_bank)
		return UINT32_MAX;
	*f = t->next_frame[g]++;
	return g;
}

void dram_route(struct dram *d, uint64_t addr, int sm, struct dram_addr *x)
{
	struct dram_temp *t = &d->tp;
	if (t->on && !dram_lookup(d, addr, x)) {
		uint64_t vp = addr / ADDRMAP_PAGE_BYTES;
		uint32_t f = 0, g = t->npages < t->maxpages ? take_frame(d, sm, addr, &f) : UINT32_MAX;
		if (g == UINT32_MAX) {
			stat_inc(d->st, t->st_overflow);
		} else {
			struct dram_page *p = &t->pt[slot_of(t, vp)];
			*p = (struct dram_page){.key = vp + 1, .g = g, .f = f};
			t->npages++;
			stat_inc(d->st, t->st_pages);
			if (sm < 0)
				stat_inc(d->st, t->st_no_origin);
			frame_addr(d, g, f, addr, x);
			EV_EMIT(d->ev, EV_DRAM_PAGE_ALLOC, .cycle = *d->now, .sm = (int16_t)sm, .ch = (int16_t)x->ch,
				.bank = (int16_t)(x->rank * (uint32_t)d->c.banks + x->bank), .row = (int32_t)x->row,
				.addr = vp * ADDRMAP_PAGE_BYTES, .a = f);
		}
	} else if (!t->on) {
		addrmap_decode(&d->map, addr, x);
	}
	if (!t->track || sm < 0)
		return;
	uint32_t g = gbank(d, x);
	bool local = owns(t, (uint32_t)sm % t->nsm, g);
	stat_inc(d->st, local ? t->st_local : t->st_remote);
	stat_inc(d->st, t->st_sm_acc);
	if (local) {
		t->local[g]++;
		t->last_remote[g] = 0;
		return;
	}
	t->remote[g]++;
	t->last_remote[g] = 1;
	EV_EMIT(d->ev, EV_DRAM_REMOTE, .cycle = *d->now, .sm = (int16_t)sm, .ch = (int16_t)x->ch,
		.bank = (int16_t)(x->rank * (uint32_t)d->c.banks + x->bank), .row = (int32_t)x->row, .addr = addr,
		.a = dram_bank_owner(d, x->ch, x->rank * (uint32_t)d->c.banks + x->bank));
}
