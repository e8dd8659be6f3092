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

#include <stddef.h>
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

/* The MSHR files are allocated at their capacity and their entry counts are
 * limits (config.h l1_mshr_cap): the fork is built with s's capacities unless
 * cfg changes those keys itself, so its entry counts may go down, or up to
 * the capacity, and the layout stays s's. NULL with *err when a count asks
 * for more than s has. */
static bool pin_mshr_capacity(const struct sim *s, struct sim_cfg *c, char **err)
{
	static const struct {
		const char *key, *cap_key, *what;
		size_t entries, capacity; /* offsets in struct sim_cfg */
	} f[] = {
		{"l1.mshr.entries", "l1.mshr.capacity", "each L1's MSHR file", offsetof(struct sim_cfg, l1.mshr_entries),
		 offsetof(struct sim_cfg, l1.mshr_capacity)},
		{"l2.mshr.entries", "l2.mshr.capacity", "each L2 bank's MSHR file", offsetof(struct sim_cfg, l2.mshr_entries),
		 offsetof(struct sim_cfg, l2.mshr_capacity)},
	};
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		const int *se = (const int *)((const char *)&s->cfg + f[i].entries);
		const int *sc = (const int *)((const char *)&s->cfg + f[i].capacity);
		int *ce = (int *)((char *)c + f[i].entries), *cc = (int *)((char *)c + f[i].capacity);
		if (*cc != *sc)
			continue; /* the capacity itself changes: the layout check below refuses it */
		int cap = *se > *sc ? *se : *sc;
		if (*ce > cap) {
			set_err(err,
				"%s=%d is more than the %d entries %s was built with (a fork can lower it, or raise it "
				"up to that; %s=%d at the start leaves room)",
				f[i].key, *ce, cap, f[i].what, f[i].cap_key, *ce);
			return false;
		}
		*cc = cap;
	}
	return true;
}

struct sim *sim_fork(const struct sim *s, const struct sim_cfg *cfg_in, bool *cfg_ok, char **err)
{
	*cfg_ok = true;
	struct sim_cfg pinned = *cfg_in, *cfg = &pinned;
	if (!pin_mshr_capacity(s, cfg, err)) {
		*cfg_ok = false;
		return NULL;
	}
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
	stats_sync(&s->stats);
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
	/* A clear fetch bit (core_masks.c fwant) says the warp's buffer holds
	 * its next instruction's code address, which core.inst_size decides:
	 * under another size the fetch unit looks at every warp again. */
	if (t->cfg.l1i.inst_size != s->cfg.l1i.inst_size)
		for (int i = 0; i < t->cfg.core.sms; i++)
			t->sms[i].fwant = ~0ull;
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
