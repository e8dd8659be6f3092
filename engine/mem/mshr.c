/* mshr.c: MSHR file with hashed lookup; see mshr.h. */
#include <string.h>

#include "mshr.h"

#include <assert.h>

static inline uint32_t hash_line(const struct mshr *m, uint64_t line)
{
	return (uint32_t)(mix64(line) & (m->nbuckets - 1));
}

void mshr_init(struct mshr *m, struct arena *a, uint32_t entries)
{
	m->n = entries;
	m->used = 0;
	m->nbuckets = 1;
	while (m->nbuckets < entries * 2)
		m->nbuckets <<= 1;
	ARENA_SET(a, m->e, struct mshr_ent, entries);
	ARENA_SET(a, m->bucket, uint32_t, m->nbuckets);
	/* Through locals: a store through m->bucket or m->e could alias m's
	 * own fields, which would be reloaded at every step (a machine has
	 * tens of thousands of entries and buckets to set). The arena is
	 * zeroed, so state is ME_FREE already. */
	_Static_assert(REQ_NIL == UINT32_MAX, "empty buckets are all-ones bytes");
	_Static_assert(ME_FREE == 0, "a zeroed entry is free");
	memset(m->bucket, 0xff, (size_t)m->nbuckets * sizeof *m->bucket);
	struct mshr_ent *e = m->e;
	for (uint32_t i = 0; i < entries; i++) {
		e[i].hnext = i + 1;
		reqq_init(&e[i].wait);
	}
	if (entries)
		e[entries - 1].hnext = REQ_NIL;
	m->free_head = entries ? 0 : REQ_NIL;
}

uint32_t mshr_find(const struct mshr *m, uint64_t line, uint32_t mask)
{
	for (uint32_t i = m->bucket[hash_line(m, line)]; i != REQ_NIL; i = m->e[i].hnext)
		if (m->e[i].addr == line && (m->e[i].mask & mask) == mask)
			return i;
	return REQ_NIL;
}

uint32_t mshr_alloc(struct mshr *m, uint64_t line, uint32_t mask, uint64_t now)
{
	uint32_t i = m->free_head;
	if (i == REQ_NIL)
		return REQ_NIL;
	struct mshr_ent *e = &m->e[i];
	m->free_head = e->hnext;
	memset(e, 0, sizeof *e); /* padding too: entries are hashed (sim_state_hash) */
	e->addr = line;
	e->t_alloc = now;
	e->mask = mask;
	e->way = -1;
	e->set = -1;
	e->state = ME_FETCHING;
	reqq_init(&e->wait);
	uint32_t b = hash_line(m, line);
	e->hnext = m->bucket[b];
	m->bucket[b] = i;
	m->used++;
	return i;
}

void mshr_release(struct mshr *m, uint32_t i)
{
	struct mshr_ent *e = &m->e[i];
	assert(e->state != ME_FREE);
	uint32_t *pp = &m->bucket[hash_line(m, e->addr)];
	while (*pp != i) {
		assert(*pp != REQ_NIL);
		pp = &m->e[*pp].hnext;
	}
	*pp = e->hnext;
	e->state = ME_FREE;
	e->hnext = m->free_head;
	m->free_head = i;
	m->used--;
}

uint32_t mshr_count_warp(const struct mshr *m, uint16_t warp)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->n; i++)
		n += m->e[i].state != ME_FREE && m->e[i].warp == warp;
	return n;
}
