/*
 * fork.c: copy a machine's state onto a machine built from another
 * configuration (fork.h).
 *
 * The arena's words are copied in allocation order (arena_save's order);
 * the words noted as pointers (arena_note_ptr) keep the new machine's own
 * values: they point into its own arena, struct sim and workload, set at
 * build time and never changed. The few mutable fields of struct sim outside
 * the arena (request-pool header, event totals) are copied as
 * sim_state_import does, and so is the event-log filter (the ring is
 * state: a fork that logged other kinds would hash differently).
 */
#include "fork.h"

#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

/* Offset of arena slot p in arena_save's buffer, or SIZE_MAX. */
static size_t save_offset(const struct arena *a, const void *p)
{
	size_t off = 0;
	for (const struct arena_chunk *c = a->head; c; c = c->next) {
		const unsigned char *b = c->data;
		if ((const unsigned char *)p >= b && (const unsigned char *)p < b + c->used)
			return off + (size_t)((const unsigned char *)p - b);
		off += c->used;
	}
	return SIZE_MAX;
}

/* Same chunk sizes in the same order: arena_save buffers line up word for word. */
static bool same_layout(const struct arena *x, const struct arena *y)
{
	const struct arena_chunk *a = x->head, *b = y->head;
	for (; a && b; a = a->next, b = b->next)
		if (a->used != b->used)
			return false;
	return !a && !b && x->nptrs == y->nptrs;
}

struct sim *sim_fork(const struct sim *s, const struct sim_cfg *cfg, bool *cfg_ok, char **err)
{
	*cfg_ok = true;
	struct sim *t = sim_new(cfg, &s->wl, err);
	if (!t)
		return NULL;
	/* The reference: s's own configuration, built afresh, at cycle 0. */
	struct sim *ref = sim_new(&s->cfg, &s->wl, err);
	if (!ref) {
		sim_free(t);
		return NULL;
	}
	bool ok = same_layout(&t->arena, &ref->arena) && same_layout(&t->arena, &s->arena) &&
		  arena_hash(&t->arena) == arena_hash(&ref->arena) && stats_count(&t->stats) == stats_count(&ref->stats);
	sim_free(ref);
	if (!ok) {
		sim_free(t);
		*cfg_ok = false;
		set_err(err, "it sizes or fills a structure when the machine is built");
		return NULL;
	}
	size_t n = arena_bytes(&s->arena);
	unsigned char *buf = xmalloc(n);
	arena_save(&s->arena, buf);
	for (size_t i = 0; i < t->arena.nptrs; i++) {
		size_t o = save_offset(&t->arena, t->arena.ptrs[i]);
		if (o != SIZE_MAX && o + sizeof(void *) <= n)
			memcpy(buf + o, t->arena.ptrs[i], sizeof(void *));
	}
	arena_load(&t->arena, buf);
	free(buf);
	t->pool.used = s->pool.used;
	t->pool.free_head = s->pool.free_head;
	t->pool.high_water = s->pool.high_water;
	t->ev.total = s->ev.total;
	memcpy(t->ev.counts, s->ev.counts, sizeof t->ev.counts);
	/* The log filter too: the ring is state, so what it takes must match. */
	memcpy(t->ev.log_mask, s->ev.log_mask, sizeof t->ev.log_mask);
	events_update_watch(&t->ev);
	return t;
}
