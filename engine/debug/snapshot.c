/* snapshot.c: periodic snapshots, restore and replay; see snapshot.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rf/regfile.h"
#include "snapshot.h"
#include "sim/sim_int.h"

struct snap_bp {
	int id;
	uint64_t hits;
	bool was_true;
};

/* A snapshot other than the base (the first) is stored as the blocks that
 * differ from the base: map holds 2 bits per SNAP_BLK-byte block (SAME as
 * the base, ZERO, or DATA, whose bytes follow in `data` in block order). */
struct snap {
	uint64_t cycle;
	void *data;
	size_t len;     /* bytes of the state it stands for */
	size_t stored;  /* bytes it takes: data + map */
	uint8_t *map;   /* NULL: data is the whole state */
	size_t data_map; /* data's mapping length (xmap_zeroed), 0: from malloc */
	uint64_t ev_total;
	uint64_t ev_counts[EV__COUNT];
	struct req_pool pool; /* the pool header lives in struct sim, not the arena */
	struct snap_bp *bps;
	unsigned nbps;
};

struct snapshots {
	struct snap *v; /* ascending cycle */
	size_t n, cap;
	size_t bytes, budget;
	uint64_t interval;
	uint64_t next_at;
	double wall_last; /* when the last snapshot was taken (monotonic seconds) */
	double busy;      /* seconds spent in sim_step since the last snapshot */
	double step_t0;   /* when the running sim_step began (0: none running) */
	uint64_t cyc_last; /* cycle of the last snapshot taken */
	uint64_t max_gap;  /* replay bound (cycles) inside the window; 0: automatic */
	uint64_t auto_gap; /* the automatic bound, from the measured speed (UINT64_MAX until measured) */
	double copy_s;     /* how long the last snapshot took (seconds) */
	uint8_t *base_zero; /* one bit per block: the base's block is all zero (encode reads only the state there) */
	struct snap origin; /* an open back search's starting state (origin.data != NULL) */
	uint64_t restores, replayed; /* sim_rewind_work */
};

/* Copying a snapshot may cost at most this fraction of the time spent
 * simulating since the previous one; above it the interval doubles. */
#define SNAP_OVERHEAD 0.03
#define SNAP_MAX_INTERVAL (1ull << 32)
/* Automatic replay bound: at most this many seconds of simulation (at the
 * speed measured between snapshots, rounded down to a multiple of 1024)
 * from a snapshot to any target ... */
#define SNAP_REPLAY_S 0.16
/* ... or, when one snapshot takes longer than 1/20 of that, twenty times
 * the snapshot's time (snapshots then cost at most about 5 %). */
#define SNAP_MAX_OVERHEAD 0.05
#define SNAP_MIN_GAP 1024u
#define SNAP_BLK 64u
#define SNAP_SPAN 4096u /* encode compares spans of this many bytes first */
enum { BLK_SAME, BLK_ZERO, BLK_DATA };

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void snap_free(struct snap *p)
{
	xmap_free(p->data, p->data_map);
	free(p->map);
	free(p->bps);
}

/* The replay bound in force: the explicit one, else the measured one. */
static uint64_t gap_bound(const struct snapshots *ss) { return ss->max_gap ? ss->max_gap : ss->auto_gap; }

static inline unsigned map_get(const uint8_t *m, size_t b) { return (m[b >> 2] >> ((b & 3) * 2)) & 3u; }

/* Whole blocks compared a word at a time, inline (a libc call per 64 bytes
 * costs more than the comparison). Chunks are 16-byte aligned and a multiple
 * of 16 long, so only a chunk's last block can be short. */
static inline bool blk_same(const unsigned char *x, const unsigned char *y, size_t n)
{
	if (n != SNAP_BLK)
		return memcmp(x, y, n) == 0;
	uint64_t acc = 0;
	for (unsigned k = 0; k < SNAP_BLK / 8; k++) {
		uint64_t a, b;
		memcpy(&a, x + 8 * k, 8);
		memcpy(&b, y + 8 * k, 8);
		acc |= a ^ b;
	}
	return acc == 0;
}

static inline bool blk_zero(const unsigned char *x, size_t n)
{
	uint64_t acc = 0;
	for (size_t k = 0; k + 8 <= n; k += 8) {
		uint64_t a;
		memcpy(&a, x + k, 8);
		acc |= a;
	}
	return acc == 0;
}

/* The span is all zero (checked a block at a time, stopping at the first
 * nonzero one). */
static bool span_zero(const unsigned char *x, size_t n)
{
	for (size_t off = 0; off < n; off += SNAP_BLK)
		if (!blk_zero(x + off, MIN(SNAP_BLK, n - off)))
			return false;
	return true;
}

/* The whole state (arena_save's bytes) into a fresh zeroed buffer: a
 * huge-page mapping when large (xmap_zeroed; docs/PERFORMANCE.md, "Building
 * a machine"), where filling 70 MB costs 35 page faults instead of 17,000.
 * Spans that are all zero in the arena are not copied, the buffer holds
 * zeros there already, so the bytes are arena_save's; a fresh machine is
 * mostly such spans (the request pool's never-used slots), which then cost
 * neither a copy nor resident memory. */
static void save_whole(struct snap *p, const struct arena *a)
{
	unsigned char *d = xmap_zeroed(p->len, &p->data_map);
	p->data = d;
	for (const struct arena_chunk *c = a->head; c; c = c->next) {
		for (size_t off = 0; off < c->used; off += SNAP_SPAN) {
			size_t n = MIN(SNAP_SPAN, c->used - off);
			if (!span_zero(c->data + off, n))
				memcpy(d + off, c->data + off, n);
		}
		d += c->used;
	}
}

/* Store the arena's state in p as its difference from the base (ss->v[0]),
 * block by block straight from the arena's chunks (in arena_save's order, so
 * the base's bytes line up); a state of another size is kept whole. */
static void encode(struct snapshots *ss, struct snap *p, const struct arena *a)
{
	const struct snap *base = ss->n ? &ss->v[0] : NULL;
	if (!base || base->map || base->len != p->len) {
		save_whole(p, a);
		p->stored = p->len;
		return;
	}
	size_t nblk = 0;
	for (const struct arena_chunk *c = a->head; c; c = c->next)
		nblk += (c->used + SNAP_BLK - 1) / SNAP_BLK;
	if (!ss->base_zero) { /* most of a fresh machine is zero: remember where */
		ss->base_zero = xcalloc((nblk + 7) / 8, 1);
		size_t k = 0;
		const unsigned char *b0 = base->data;
		for (const struct arena_chunk *c = a->head; c; c = c->next) {
			for (size_t off = 0; off < c->used; off += SNAP_BLK, k++)
				if (blk_zero(b0 + off, MIN(SNAP_BLK, c->used - off)))
					ss->base_zero[k >> 3] |= (uint8_t)(1u << (k & 7));
			b0 += c->used;
		}
	}
	p->map = xcalloc((nblk + 3) / 4, 1);
	size_t cap = p->len / 8 + SNAP_BLK, nd = 0, i = 0;
	unsigned char *d = xmalloc(cap);
	const unsigned char *b = base->data;
	for (const struct arena_chunk *c = a->head; c; c = c->next) {
		for (size_t off = 0; off < c->used; off += SNAP_BLK, i++) {
			/* Whole spans equal to the base first: libc's memcmp is fast
			 * on long runs, and most of the state has not changed. */
			if (off % SNAP_SPAN == 0 && c->used - off >= SNAP_SPAN &&
			    memcmp(c->data + off, b + off, SNAP_SPAN) == 0) {
				off += SNAP_SPAN - SNAP_BLK;
				i += SNAP_SPAN / SNAP_BLK - 1;
				continue;
			}
			size_t n = MIN(SNAP_BLK, c->used - off);
			const unsigned char *cur = c->data + off;
			bool bz = (ss->base_zero[i >> 3] >> (i & 7)) & 1u;
			if (bz ? blk_zero(cur, n) : blk_same(cur, b + off, n))
				continue; /* BLK_SAME */
			if (!bz && blk_zero(cur, n)) {
				p->map[i >> 2] |= (uint8_t)(BLK_ZERO << ((i & 3) * 2));
				continue;
			}
			p->map[i >> 2] |= (uint8_t)(BLK_DATA << ((i & 3) * 2));
			if (nd + n > cap)
				d = xrealloc(d, cap *= 2);
			memcpy(d + nd, cur, n);
			nd += n;
		}
		b += c->used;
	}
	p->data = xrealloc(d, nd ? nd : 1);
	p->stored = nd + (nblk + 3) / 4;
}

/* The end (exclusive, at most `lim`) of the run of blocks of one kind that
 * starts at block i; map bytes of four SAME blocks (0) are skipped whole. */
static size_t run_end(const uint8_t *m, size_t i, size_t lim, unsigned kind)
{
	size_t j = i + 1;
	while (j < lim) {
		if (kind == BLK_SAME && (j & 3) == 0 && j + 4 <= lim && m[j >> 2] == 0) {
			j += 4;
			continue;
		}
		if (map_get(m, j) != kind)
			break;
		j++;
	}
	return j;
}

/* Put p's state into the arena, one memcpy or memset per run of blocks of
 * one kind (most of the state is long runs equal to the base). */
static void decode(const struct snapshots *ss, const struct snap *p, struct arena *a)
{
	if (!p->map) {
		arena_load(a, p->data);
		return;
	}
	const unsigned char *b = ss->v[0].data, *d = p->data;
	size_t i = 0;
	for (struct arena_chunk *c = a->head; c; c = c->next) {
		size_t nb = (c->used + SNAP_BLK - 1) / SNAP_BLK;
		for (size_t k = 0; k < nb;) {
			unsigned kind = map_get(p->map, i + k);
			size_t e = run_end(p->map, i + k, i + nb, kind) - i;
			size_t off = k * SNAP_BLK, n = MIN(e * SNAP_BLK, c->used) - off;
			if (kind == BLK_SAME) {
				memcpy(c->data + off, b + off, n);
			} else if (kind == BLK_ZERO) {
				memset(c->data + off, 0, n);
			} else {
				memcpy(c->data + off, d, n);
				d += n;
			}
			k = e;
		}
		i += nb;
		b += c->used;
	}
}

/* Within the budget: drop every other snapshot of the older half where the
 * gap left stays within the replay bound (thinning with age), and when no
 * snapshot can go without breaking the bound, the oldest but the base (the
 * window whose replays are bounded then starts later; the base, snapshot 0,
 * keeps every cycle reachable). */
static void drop(struct snapshots *ss, size_t r)
{
	ss->bytes -= ss->v[r].stored;
	snap_free(&ss->v[r]);
	memmove(&ss->v[r], &ss->v[r + 1], (ss->n - r - 1) * sizeof(*ss->v));
	ss->n--;
}

static void thin(struct snapshots *ss)
{
	uint64_t bound = gap_bound(ss);
	while (ss->bytes > ss->budget && ss->n > 2) {
		size_t half = ss->n / 2, dropped = 0;
		for (size_t r = 1; r + 1 < ss->n && r < half; r++) {
			if (ss->v[r + 1].cycle - ss->v[r - 1].cycle > bound)
				continue;
			drop(ss, r);
			dropped++;
			half--;
		}
		if (!dropped)
			drop(ss, 1); /* the oldest but the base */
		if (ss->interval * 2 <= bound)
			ss->interval *= 2;
	}
}

/* The counters kept outside the arena. */
static void capture_extra(const struct sim *s, struct snap *p)
{
	p->ev_total = s->ev.total;
	p->pool = s->pool;
	memcpy(p->ev_counts, s->ev.counts, sizeof p->ev_counts);
	if (s->bps && s->bps->n) {
		p->nbps = s->bps->n;
		p->bps = xcalloc(p->nbps, sizeof(*p->bps));
		for (unsigned i = 0; i < p->nbps; i++)
			p->bps[i] = (struct snap_bp){s->bps->v[i].id, s->bps->v[i].hits, s->bps->v[i].was_true};
	}
}

/* Copy the whole state as it is now into *p (whole, not encoded). */
static void capture(const struct sim *s, struct snap *p)
{
	stats_sync(&s->stats); /* the threads' pending counts are part of the state */
	*p = (struct snap){.cycle = s->st->now, .len = arena_bytes(&s->arena)};
	save_whole(p, &s->arena);
	p->stored = p->len;
	capture_extra(s, p);
}

/* The same, stored as its difference from the base snapshot. */
static void capture_encoded(struct sim *s, struct snap *p)
{
	stats_sync(&s->stats);
	*p = (struct snap){.cycle = s->st->now, .len = arena_bytes(&s->arena)};
	encode(s->snaps, p, &s->arena);
	capture_extra(s, p);
}

static void take(struct sim *s)
{
	struct snapshots *ss = s->snaps;
	uint64_t now = s->st->now;
	size_t pos = ss->n;
	while (pos > 0 && ss->v[pos - 1].cycle > now)
		pos--;
	/* Already held (we are replaying after a rewind): same state, keep it. */
	if (!(pos > 0 && ss->v[pos - 1].cycle == now)) {
		double t0 = wall_s();
		/* Derived stats that sim_step refreshes when it returns: bring them to
		 * this cycle first, or the snapshot would hold whatever the last
		 * sim_step boundary left (it depends on how the run was stepped). */
		rf_account(s);
		struct snap p;
		capture_encoded(s, &p);
		if (ss->n == ss->cap) {
			ss->cap = ss->cap ? ss->cap * 2 : 64;
			ss->v = xrealloc(ss->v, ss->cap * sizeof(*ss->v));
		}
		memmove(&ss->v[pos + 1], &ss->v[pos], (ss->n - pos) * sizeof(*ss->v));
		ss->v[pos] = p;
		ss->n++;
		ss->bytes += p.stored;
		/* The speed simulated since the last snapshot (time inside sim_step
		 * only, not the user's pauses) sets the automatic replay bound. */
		double busy = ss->busy + (ss->step_t0 > 0 ? t0 - MAX(ss->step_t0, ss->wall_last) : 0);
		if (now > ss->cyc_last && busy > 1e-3) {
			/* Snapshots every G cycles cost (copy time) / (time to simulate
			 * G); a slow copy (a big state, a loaded machine) widens G. */
			double win = MAX(SNAP_REPLAY_S, ss->copy_s / SNAP_MAX_OVERHEAD);
			double g = (double)(now - ss->cyc_last) / busy * win;
			/* A multiple of SNAP_MIN_GAP (not a power of two: as close to
			 * the window as that allows, so no more snapshots than needed). */
			g = MIN(g, (double)SNAP_MAX_INTERVAL);
			uint64_t gap = MAX(1u, (uint64_t)(g / SNAP_MIN_GAP)) * SNAP_MIN_GAP;
			/* The slowest phase so far: a G measured in a fast one would
			 * let a rewind into a slow one replay for too long. */
			ss->auto_gap = MIN(ss->auto_gap, gap);
		}
		thin(ss);
		/* Keep the copying cheap next to the simulation: a big machine that
		 * simulates slowly per byte of state gets fewer snapshots, but never
		 * further apart than the replay bound. Only the positions depend on
		 * the clock, never the results. */
		double t1 = wall_s();
		ss->copy_s = t1 - t0;
		if (ss->wall_last > 0 && t1 - t0 > SNAP_OVERHEAD * busy && ss->interval < SNAP_MAX_INTERVAL &&
		    ss->interval * 2 <= gap_bound(ss))
			ss->interval *= 2;
		if (ss->interval > gap_bound(ss))
			ss->interval = gap_bound(ss);
		ss->wall_last = t1;
		ss->busy = 0;
		ss->cyc_last = now;
	}
	ss->next_at = (now / ss->interval + 1) * ss->interval;
}

void snapshot_step_begin(struct sim *s)
{
	if (s->snaps)
		s->snaps->step_t0 = wall_s();
}

void snapshot_step_end(struct sim *s)
{
	struct snapshots *ss = s->snaps;
	if (ss && ss->step_t0 > 0) {
		ss->busy += wall_s() - MAX(ss->step_t0, ss->wall_last);
		ss->step_t0 = 0;
	}
}

void sim_snapshots_set_max_gap(struct sim *s, uint64_t cycles)
{
	struct snapshots *ss = s->snaps;
	if (!ss)
		return;
	ss->max_gap = cycles;
	if (ss->interval > gap_bound(ss))
		ss->interval = gap_bound(ss);
	ss->next_at = MIN(ss->next_at, (s->st->now / ss->interval + 1) * ss->interval);
}

uint64_t sim_snapshots_max_gap(const struct sim *s) { return s->snaps ? gap_bound(s->snaps) : 0; }

uint64_t sim_replay_distance(const struct sim *s, uint64_t cycle)
{
	const struct snapshots *ss = s->snaps;
	if (!ss || !ss->n || cycle < ss->v[0].cycle)
		return UINT64_MAX;
	if (cycle >= s->st->now)
		return 0; /* forwards: no replay */
	size_t i = ss->n;
	while (i > 1 && ss->v[i - 1].cycle > cycle)
		i--;
	return cycle - ss->v[i - 1].cycle;
}

uint64_t sim_rewind_window(const struct sim *s)
{
	const struct snapshots *ss = s->snaps;
	if (!ss || !ss->n)
		return s->st->now;
	uint64_t bound = gap_bound(ss);
	size_t i = ss->n - 1;
	while (i > 0 && ss->v[i].cycle - ss->v[i - 1].cycle <= bound)
		i--;
	return ss->v[i].cycle;
}

const void *snapshot_base(const struct sim *s, size_t *len)
{
	const struct snapshots *ss = s->snaps;
	if (!ss || !ss->n || ss->v[0].cycle != 0 || ss->v[0].map)
		return NULL;
	*len = ss->v[0].len;
	return ss->v[0].data;
}

void snapshot_resume(struct sim *s)
{
	if (!s->snaps)
		return;
	s->snaps->cyc_last = s->st->now;
	s->snaps->next_at = s->st->now;
	take(s);
}

void snapshot_tick(struct sim *s)
{
	if (s->snaps && s->st->now >= s->snaps->next_at)
		take(s);
}

uint64_t snapshot_next_at(const struct sim *s) { return s->snaps ? s->snaps->next_at : UINT64_MAX; }

void snapshot_free_all(struct sim *s)
{
	struct snapshots *ss = s->snaps;
	if (!ss)
		return;
	for (size_t i = 0; i < ss->n; i++)
		snap_free(&ss->v[i]);
	free(ss->v);
	snap_free(&ss->origin);
	free(ss->base_zero);
	free(ss);
	s->snaps = NULL;
}

void sim_snapshots_enable(struct sim *s, size_t budget)
{
	snapshot_free_all(s);
	if (!budget)
		return;
	s->snaps = xcalloc(1, sizeof(*s->snaps));
	s->snaps->budget = budget;
	s->snaps->auto_gap = UINT64_MAX;
	/* Start fine-grained; thinning doubles it as the run grows. */
	s->snaps->interval = SNAP_MIN_GAP;
	s->snaps->cyc_last = s->st->now;
	take(s);
}

void sim_snapshots_info(const struct sim *s, size_t *count, size_t *bytes, uint64_t *interval)
{
	const struct snapshots *ss = s->snaps;
	*count = ss ? ss->n : 0;
	*bytes = ss ? ss->bytes : 0;
	*interval = ss ? ss->interval : 0;
}

uint64_t sim_rewind_horizon(const struct sim *s)
{
	return s->snaps && s->snaps->n ? s->snaps->v[0].cycle : s->st->now;
}

static void restore(struct sim *s, const struct snap *p)
{
	s->snaps->restores++;
	stats_sync(&s->stats); /* settle them before the state they belong to goes */
	decode(s->snaps, p, &s->arena);
	s->ev.total = p->ev_total;
	s->pool = p->pool;
	memcpy(s->ev.counts, p->ev_counts, sizeof p->ev_counts);
	if (s->bps) {
		for (unsigned i = 0; i < s->bps->n; i++) {
			struct bp *b = &s->bps->v[i];
			b->hits = 0;
			b->was_true = false;
			for (unsigned k = 0; k < p->nbps; k++)
				if (p->bps[k].id == b->id) {
					b->hits = p->bps[k].hits;
					b->was_true = p->bps[k].was_true;
				}
		}
		bp_resync_changes(s->bps);
		bp_clear_stop(s->bps);
	}
	s->interrupt = 0;
	s->snaps->next_at = (p->cycle / s->snaps->interval + 1) * s->snaps->interval;
}

/* Run forward to `cycle` without stopping at breakpoints; records the cycles at
 * which breakpoints stopped the machine in *last_break (UINT64_MAX if none). */
static void replay_to(struct sim *s, uint64_t cycle, uint64_t *last_break)
{
	if (last_break)
		*last_break = UINT64_MAX;
	while (s->st->now < cycle) {
		enum sim_stop why = sim_step(s, cycle - s->st->now);
		if (why == SIM_STOP_BREAK) {
			if (last_break && s->st->now <= cycle)
				*last_break = s->st->now;
			continue;
		}
		if (why == SIM_STOP_DONE)
			break;
		if (why == SIM_STOP_INTERRUPT)
			continue; /* a replay must reach its target */
	}
}

static const struct snap *nearest(const struct sim *s, uint64_t cycle)
{
	const struct snapshots *ss = s->snaps;
	const struct snap *best = NULL;
	for (size_t i = 0; i < ss->n && ss->v[i].cycle <= cycle; i++)
		best = &ss->v[i];
	return best;
}

int sim_goto(struct sim *s, uint64_t cycle, char **err)
{
	if (cycle >= s->st->now) {
		replay_to(s, cycle, NULL);
		return 0;
	}
	if (!s->snaps)
		return set_err(err, "rewinding is off (snapshots disabled)");
	const struct snap *p = nearest(s, cycle);
	if (!p)
		return set_err(err, "cycle %llu is before the rewind horizon (cycle %llu)", (unsigned long long)cycle,
			       (unsigned long long)sim_rewind_horizon(s));
	uint64_t from = p->cycle; /* p may move: replaying can take snapshots */
	restore(s, p);
	replay_to(s, cycle, NULL);
	s->snaps->replayed += s->st->now - from;
	return 0;
}

void sim_rewind_work(const struct sim *s, uint64_t *restores, uint64_t *replayed)
{
	*restores = s->snaps ? s->snaps->restores : 0;
	*replayed = s->snaps ? s->snaps->replayed : 0;
}

/* The newest snapshot strictly before `limit`, or NULL. */
static const struct snap *newest_before(const struct sim *s, uint64_t limit)
{
	const struct snapshots *ss = s->snaps;
	for (size_t i = ss->n; i-- > 0;)
		if (ss->v[i].cycle < limit)
			return &ss->v[i];
	return NULL;
}

void sim_back_search_begin(struct sim *s, struct sim_back_search *b)
{
	uint64_t now = s->st->now;
	*b = (struct sim_back_search){.origin = now, .limit = now, .last_break = UINT64_MAX, .found = UINT64_MAX};
	if (!s->snaps || !s->bps || now == 0) {
		b->done = true;
		return;
	}
	snap_free(&s->snaps->origin);
	capture(s, &s->snaps->origin);
}

enum sim_search_status sim_back_search_step(struct sim *s, struct sim_back_search *b, uint64_t budget)
{
	uint64_t used = 0;
	if (budget == 0)
		budget = 1;
	while (!b->done && used < budget) {
		if (s->interrupt) { /* before a restore, which would clear it */
			s->interrupt = 0;
			return SIM_SEARCH_INTERRUPTED;
		}
		if (!b->in_interval) {
			/* The first interval ends just before the origin (the stop at
			 * the origin itself is not a previous one); each next one ends
			 * at the snapshot the last one started from. */
			const struct snap *p = newest_before(s, b->limit);
			if (!p) {
				b->done = true;
				break;
			}
			restore(s, p);
			b->from = p->cycle;
			b->end = b->limit == b->origin ? b->origin - 1 : b->limit;
			b->last_break = UINT64_MAX;
			b->in_interval = true;
			used++;
		}
		bool over = false;
		while (s->st->now < b->end && used < budget) {
			uint64_t c0 = s->st->now;
			enum sim_stop why = sim_step(s, MIN(b->end - c0, budget - used));
			used += s->st->now - c0;
			b->replayed += s->st->now - c0;
			s->snaps->replayed += s->st->now - c0;
			if (why == SIM_STOP_BREAK) {
				if (s->st->now <= b->end)
					b->last_break = s->st->now;
			} else if (why == SIM_STOP_DONE) {
				over = true;
				break;
			} else if (why == SIM_STOP_INTERRUPT) {
				return SIM_SEARCH_INTERRUPTED;
			}
		}
		if (!over && s->st->now < b->end)
			break; /* budget used up inside the interval */
		b->in_interval = false;
		if (b->last_break != UINT64_MAX) {
			b->found = b->last_break;
			b->done = true;
		} else if (b->from == 0) {
			b->done = true;
		} else {
			b->limit = b->from;
		}
	}
	return b->done ? SIM_SEARCH_DONE : SIM_SEARCH_MORE;
}

void sim_back_search_end(struct sim *s, struct sim_back_search *b)
{
	b->in_interval = false;
	b->done = true;
	if (!s->snaps || !s->snaps->origin.data)
		return; /* nothing was moved */
	restore(s, &s->snaps->origin);
	snap_free(&s->snaps->origin);
	memset(&s->snaps->origin, 0, sizeof s->snaps->origin);
}

uint64_t sim_prev_break(struct sim *s)
{
	struct sim_back_search b;
	sim_back_search_begin(s, &b);
	/* An interrupt does not end it: like any replay it reaches its target. */
	while (sim_back_search_step(s, &b, UINT64_MAX) != SIM_SEARCH_DONE)
		;
	sim_back_search_end(s, &b);
	return b.found;
}
