/* snapshot.c: periodic snapshots, restore and replay; see snapshot.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "regfile.h"
#include "snapshot.h"
#include "sim_int.h"

struct snap_bp {
	int id;
	uint64_t hits;
	bool was_true;
};

struct snap {
	uint64_t cycle;
	void *data;
	size_t len;
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
	struct snap origin; /* an open back search's starting state (origin.data != NULL) */
};

/* Copying a snapshot may cost at most this fraction of the time spent
 * simulating since the previous one; above it the interval doubles. */
#define SNAP_OVERHEAD 0.03
#define SNAP_MAX_INTERVAL (1ull << 32)

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void snap_free(struct snap *p)
{
	free(p->data);
	free(p->bps);
}

static void thin(struct snapshots *ss)
{
	while (ss->bytes > ss->budget && ss->n > 2) {
		/* Drop every other snapshot of the older half; snapshot 0 stays. */
		size_t half = ss->n / 2, w = 1;
		for (size_t r = 1; r < ss->n; r++) {
			if (r < half && r % 2 == 1) {
				ss->bytes -= ss->v[r].len;
				snap_free(&ss->v[r]);
				continue;
			}
			ss->v[w++] = ss->v[r];
		}
		if (w == ss->n) { /* two or three left: drop the oldest but 0 */
			ss->bytes -= ss->v[1].len;
			snap_free(&ss->v[1]);
			memmove(&ss->v[1], &ss->v[2], (ss->n - 2) * sizeof(*ss->v));
			w = ss->n - 1;
		}
		ss->n = w;
		ss->interval *= 2;
	}
}

/* Copy the whole state as it is now into *p. */
static void capture(const struct sim *s, struct snap *p)
{
	*p = (struct snap){.cycle = s->st->now, .len = arena_bytes(&s->arena)};
	p->data = xmalloc(p->len);
	arena_save(&s->arena, p->data);
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
		capture(s, &p);
		if (ss->n == ss->cap) {
			ss->cap = ss->cap ? ss->cap * 2 : 64;
			ss->v = xrealloc(ss->v, ss->cap * sizeof(*ss->v));
		}
		memmove(&ss->v[pos + 1], &ss->v[pos], (ss->n - pos) * sizeof(*ss->v));
		ss->v[pos] = p;
		ss->n++;
		ss->bytes += p.len;
		thin(ss);
		/* Keep the copying cheap next to the simulation: a big machine that
		 * simulates slowly per byte of state gets fewer snapshots. Only the
		 * positions depend on the clock, never the results. */
		double t1 = wall_s(), since = t0 - ss->wall_last;
		if (ss->wall_last > 0 && t1 - t0 > SNAP_OVERHEAD * since && ss->interval < SNAP_MAX_INTERVAL)
			ss->interval *= 2;
		ss->wall_last = t1;
	}
	ss->next_at = (now / ss->interval + 1) * ss->interval;
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
	/* Start fine-grained; thinning doubles it as the run grows. */
	s->snaps->interval = 1024;
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
	arena_load(&s->arena, p->data);
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
	restore(s, p);
	replay_to(s, cycle, NULL);
	return 0;
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
