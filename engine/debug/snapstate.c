/*
 * snapstate.c: the machine state as a portable blob, for session files that
 * open at their cycle instead of replaying from 0 (snapshot.h).
 *
 * The arena holds pointers (into itself, into struct sim, to functions and to
 * the workload), which differ between processes. They are all set when the
 * machine is built and never change (engine state uses indices otherwise), so
 * the blob stores the state XOR the state of the same machine at cycle 0 in
 * the writing process (its base snapshot: rewinding must be on); the reader XORs it onto its own freshly
 * built machine. A word that never changed since cycle 0 (every pointer) gives 0 and takes the reader's
 * value; every other word comes out as saved.
 *
 *   "GPSTATE1"  u64 arena bytes, cycle, pool used/free head/high water,
 *               event total, EV__COUNT, the event counts,
 *               breakpoints n, n x (id, hits, was_true)
 *   body        runs over the arena's 64-bit words of (state XOR cycle-0):
 *               u32 zero words, u32 literal words, the literal words ...
 *
 * Integers are in this machine's byte order; the reader checks every length
 * and count, and the session file carries a hash of the whole blob.
 */
#include <stdlib.h>
#include <string.h>

#include "rf/regfile.h"
#include "sim/sim_int.h"
#include "snapshot.h"

/* 2 since the request pool leaves slots never handed out all-zero (req.c):
 * a format-1 state, coded against a base whose every slot was linked into
 * the free list, would put a broken free list on this machine. */
#define MAGIC "GPSTATE2"

struct wbuf {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct wbuf *w, const void *v, size_t n)
{
	if (w->n + n > w->cap) {
		w->cap = MAX(w->cap * 2, w->n + n + 4096);
		w->p = xrealloc(w->p, w->cap);
	}
	memcpy(w->p + w->n, v, n);
	w->n += n;
}

static void put64(struct wbuf *w, uint64_t v)
{
	put(w, &v, 8);
}
static void put32(struct wbuf *w, uint32_t v)
{
	put(w, &v, 4);
}

int sim_state_export(const struct sim *s, unsigned char **out, size_t *len, char **err)
{
	stats_sync(&s->stats);
	size_t n = arena_bytes(&s->arena);
	/* The reference must be this very machine at cycle 0 (same addresses):
	 * the base snapshot. Another machine built for it would differ in every
	 * pointer. */
	size_t bl;
	const void *b0 = snapshot_base(s, &bl);
	if (!b0 || bl != n)
		return set_err(
		    err, "the machine's state at cycle 0 is not held (rewinding is off: --snapshot-mb 0)");
	unsigned char *cur = xmalloc(n);
	arena_save(&s->arena, cur);
	struct wbuf w = {0};
	put(&w, MAGIC, 8);
	put64(&w, n);
	put64(&w, s->st->now);
	put64(&w, s->pool.used);
	put64(&w, s->pool.free_head);
	put64(&w, s->pool.high_water);
	put64(&w, s->ev.total);
	put64(&w, EV__COUNT);
	for (unsigned k = 0; k < EV__COUNT; k++)
		put64(&w, s->ev.counts[k]);
	unsigned nb = s->bps ? s->bps->n : 0;
	put64(&w, nb);
	for (unsigned i = 0; i < nb; i++) {
		put64(&w, (uint64_t)(int64_t)s->bps->v[i].id);
		put64(&w, s->bps->v[i].hits);
		put64(&w, s->bps->v[i].was_true);
	}
	size_t nw = n / 8, i = 0;
	const unsigned char *bb = b0;
	while (i < nw) {
		uint64_t x, y;
		uint32_t z = 0, l = 0;
		for (; i < nw && z < UINT32_MAX; i++, z++) {
			memcpy(&x, cur + i * 8, 8);
			memcpy(&y, bb + i * 8, 8);
			if (x != y)
				break;
		}
		size_t l0 = i;
		/* Literals until two equal words in a row (a run worth its header). */
		for (; i < nw && l < UINT32_MAX; i++, l++) {
			memcpy(&x, cur + i * 8, 8);
			memcpy(&y, bb + i * 8, 8);
			if (x == y) {
				uint64_t x2, y2;
				if (i + 1 >= nw)
					break;
				memcpy(&x2, cur + (i + 1) * 8, 8);
				memcpy(&y2, bb + (i + 1) * 8, 8);
				if (x2 == y2)
					break;
			}
		}
		put32(&w, z);
		put32(&w, l);
		for (size_t k = l0; k < l0 + l; k++) {
			memcpy(&x, cur + k * 8, 8);
			memcpy(&y, bb + k * 8, 8);
			put64(&w, x ^ y);
		}
	}
	free(cur);
	*out = w.p;
	*len = w.n;
	return 0;
}

/* Where `p` (inside the arena) lands in arena_save's buffer. */
static size_t arena_offset(const struct arena *a, const void *p)
{
	size_t off = 0;
	for (const struct arena_chunk *c = a->head; c; c = c->next) {
		const unsigned char *b = c->data;
		if ((const unsigned char *)p >= b && (const unsigned char *)p < b + c->used)
			return off + (size_t)((const unsigned char *)p - b);
		off += c->used;
	}
	return 0;
}

struct rbuf {
	const unsigned char *p;
	size_t n, at;
};

static bool get(struct rbuf *r, void *v, size_t n)
{
	if (r->n - r->at < n)
		return false;
	memcpy(v, r->p + r->at, n);
	r->at += n;
	return true;
}

static bool get64(struct rbuf *r, uint64_t *v)
{
	return get(r, v, 8);
}

int sim_state_import(struct sim *s, const unsigned char *blob, size_t len, char **err)
{
	struct rbuf r = {blob, len, 0};
	char magic[8];
	if (!get(&r, magic, 8) || memcmp(magic, MAGIC, 7) != 0)
		return set_err(err, "not a gpustep machine state (bad header)");
	if (memcmp(magic, MAGIC, 8) != 0)
		return set_err(err, "a machine state of format %c from another gpustep build; this one reads format %c",
			       magic[7] >= '0' && magic[7] <= '9' ? magic[7] : '?', MAGIC[7]);
	if (sim_cycle(s) != 0)
		return set_err(err, "a machine state goes onto a machine at cycle 0");
	uint64_t n, cycle, used, head, high, total, nev, nb;
	size_t have = arena_bytes(&s->arena);
	if (!get64(&r, &n) || !get64(&r, &cycle) || !get64(&r, &used) || !get64(&r, &head) ||
	    !get64(&r, &high) || !get64(&r, &total) || !get64(&r, &nev))
		return set_err(err, "machine state cut short (header)");
	if (n != have)
		return set_err(
		    err, "machine state of %llu bytes, but this machine has %zu (another gpustep build?)",
		    (unsigned long long)n, have);
	if (nev != EV__COUNT)
		return set_err(
		    err, "machine state with %llu event kinds, this gpustep has %d (another gpustep build?)",
		    (unsigned long long)nev, EV__COUNT);
	if (used > s->pool.cap || (head >= s->pool.cap && head != REQ_NIL) || high > s->pool.cap || used > high)
		return set_err(err, "machine state: request pool counters out of range");
	uint64_t counts[EV__COUNT];
	for (unsigned k = 0; k < EV__COUNT; k++)
		if (!get64(&r, &counts[k]))
			return set_err(err, "machine state cut short (event counts)");
	if (!get64(&r, &nb) || nb > BP_MAX)
		return set_err(err, "machine state: bad breakpoint count");
	uint64_t bpv[BP_MAX][3];
	for (uint64_t i = 0; i < nb; i++)
		if (!get64(&r, &bpv[i][0]) || !get64(&r, &bpv[i][1]) || !get64(&r, &bpv[i][2]))
			return set_err(err, "machine state cut short (breakpoints)");
	rf_account(s); /* cycle 0's derived stats, as the writer's reference had them */
	stats_sync(&s->stats);
	unsigned char *cur = xmalloc(n);
	arena_save(&s->arena, cur);
	size_t nw = n / 8, i = 0;
	while (i < nw) {
		uint32_t z, l;
		if (!get(&r, &z, 4) || !get(&r, &l, 4) || z > nw - i || l > nw - i - z ||
		    r.n - r.at < (size_t)l * 8) {
			free(cur);
			return set_err(err, "machine state cut short or corrupt (at word %zu of %zu)", i, nw);
		}
		i += z;
		for (uint32_t k = 0; k < l; k++, i++) {
			uint64_t x, d;
			memcpy(&x, cur + i * 8, 8);
			get64(&r, &d);
			x ^= d;
			memcpy(cur + i * 8, &x, 8);
		}
		if (z == 0 && l == 0) {
			free(cur);
			return set_err(err, "machine state corrupt (empty run at word %zu)", i);
		}
	}
	if (r.at != r.n) {
		free(cur);
		return set_err(err, "machine state has %zu bytes after its end", r.n - r.at);
	}
	/* The cycle counter in the state must agree with the header. */
	uint64_t now;
	memcpy(&now, cur + arena_offset(&s->arena, &s->st->now), 8);
	if (now != cycle) {
		free(cur);
		return set_err(err, "machine state corrupt (cycle %llu in the header, %llu in the state)",
		               (unsigned long long)cycle, (unsigned long long)now);
	}
	/* Only now that everything checked out does the machine change. */
	arena_load(&s->arena, cur);
	free(cur);
	s->pool.used = (uint32_t)used;
	s->pool.free_head = (uint32_t)head;
	s->pool.high_water = (uint32_t)high;
	s->ev.total = total;
	memcpy(s->ev.counts, counts, sizeof counts);
	if (s->bps) {
		for (unsigned j = 0; j < s->bps->n; j++) {
			struct bp *b = &s->bps->v[j];
			b->hits = 0;
			b->was_true = false;
			for (uint64_t k = 0; k < nb; k++)
				if ((int64_t)bpv[k][0] == b->id) {
					b->hits = bpv[k][1];
					b->was_true = bpv[k][2] != 0;
				}
		}
		bp_resync_changes(s->bps);
		bp_clear_stop(s->bps);
	}
	snapshot_resume(s);
	return 0;
}
