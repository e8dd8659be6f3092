/* req.c: request pool and timed queues; see req.h. */
#include <string.h>

#include "req.h"

#include "config.h"
#include "par.h"

#include <assert.h>

void req_pool_init(struct req_pool *p, struct arena *a, uint32_t cap)
{
	ARENA_SET(a, p->r, struct req, cap);
	p->cap = cap;
	p->used = 0;
	p->high_water = 0;
	p->free_head = REQ_NIL; /* slots never handed out stay zero: see req_alloc */
	p->stash_head = p->stash_n = NULL; /* none until req_stash_init */
	p->nstash = 0;
}

/* The free list holds freed slots (LIFO); with it empty every slot handed out
 * so far is in use (used == high_water), and the next is slot high_water.
 * That is the order a list threaded through every slot at the start gave,
 * but the slots never used stay all-zero, so the state's snapshots skip
 * them (a pool sized for core.mem_inflight = 256 is mostly that). */
/* A slot off the free list, or the first never handed out. (Without
 * stashes an empty free list means used == high_water; stashes hold slots
 * that are neither in use nor on the list, so high_water counts the slots
 * handed out, which is the same number without them.) */
static uint32_t take(struct req_pool *p, bool steal)
{
	uint32_t i = p->free_head;
	if (i != REQ_NIL) {
		p->free_head = p->r[i].next;
	} else if (p->high_water < p->cap) {
		i = p->high_water++;
	} else if (steal) {
		/* Every other free slot sits in a stash: the first SM's that has
		 * one (stashes are free slots; the room checks count them). */
		for (uint32_t sm = 0; sm < p->nstash; sm++)
			if (p->stash_n[sm]) {
				i = p->stash_head[sm];
				p->stash_head[sm] = p->r[i].next;
				p->stash_n[sm]--;
				break;
			}
	}
	return i;
}

uint32_t req_alloc(struct req_pool *p)
{
	struct par_sm *m = par_sm_cur;
	uint32_t i;
	if (m) { /* an SM phase: the SM's stash (par.h) */
		uint32_t sm = m->id;
		i = p->stash_head[sm];
		if (i == REQ_NIL)
			return REQ_NIL;
		p->stash_head[sm] = p->r[i].next;
		p->stash_n[sm]--;
		m->used++;
		m->dirty = true;
	} else {
		i = take(p, true);
		if (i == REQ_NIL)
			return REQ_NIL;
		p->used++;
	}
	struct req *q = &p->r[i];
	memset(q, 0, sizeof *q); /* padding too: the pool is hashed (sim_state_hash) */
	q->next = REQ_NIL;
	q->mshr = REQ_NIL;
	q->in_use = 1;
	return i;
}

void req_free(struct req_pool *p, uint32_t i)
{
	assert(i < p->cap && p->r[i].in_use);
	struct par_sm *m = par_sm_cur;
	p->r[i].in_use = 0;
	if (m) {
		uint32_t sm = m->id;
		p->r[i].next = p->stash_head[sm];
		p->stash_head[sm] = i;
		p->stash_n[sm]++;
		m->used--;
		m->dirty = true;
		return;
	}
	p->r[i].next = p->free_head;
	p->free_head = i;
	p->used--;
}

/* Stashes: in an SM phase (par.h; threaded, or sim_par.c's direct path for
 * one thread, which must hand out the same slots) an SM takes and returns
 * request slots through a free list of its own (par_sm_cur's), so its slots
 * do not depend on when other SMs run. Before and after the phase sim_par.c
 * settles each ticked SM's stash, in SM order, between two bounds (topped up from the pool's free
 * list, excess returned to it). Stashed slots are free slots: `used` and the
 * room checks count them as such, and a serial take with the free list and
 * the never-used slots exhausted takes one from a stash. The stashes live in
 * the arena, so snapshots and the state hash cover them. */
void req_stash_bounds(const struct sim_cfg *cfg, uint32_t *lo, uint32_t *hi)
{
	/* One SM's takes in one phase: its schedulers' coalesced requests (four
	 * schedulers, two lines a lane at most), instruction fetches, an L1's
	 * misses and write-backs. From the warp size alone, so that a whatif
	 * changing core.schedulers still finds the same pool. */
	*lo = 8 * (uint32_t)cfg->core.warp_size + 64;
	*hi = 2 * *lo;
}

bool req_room(const struct req_pool *p, uint32_t n)
{
	/* Slots not in use, stashed ones included; in an SM phase
	 * `used` is the count at the phase's start (nobody changes it during
	 * the phase) and the SM's own stash must hold the slots too, which it
	 * does unless the pool is nearly exhausted (its stash could not be
	 * topped up). */
	bool pool = p->cap - p->used >= n;
	const struct par_sm *m = par_sm_cur;
	if (m)
		return pool && p->stash_n[m->id] >= n;
	return pool;
}

void req_stash_init(struct req_pool *p, struct arena *a, uint32_t nsm)
{
	ARENA_SET(a, p->stash_head, uint32_t, nsm ? nsm : 1);
	ARENA_SET(a, p->stash_n, uint32_t, nsm ? nsm : 1);
	for (uint32_t i = 0; i < nsm; i++)
		p->stash_head[i] = REQ_NIL;
	p->nstash = nsm;
}

void req_stash_settle(struct req_pool *p, uint32_t sm, uint32_t lo, uint32_t hi)
{
	while (p->stash_n[sm] < lo) {
		uint32_t i = take(p, false);
		if (i == REQ_NIL)
			break;
		p->r[i].next = p->stash_head[sm];
		p->stash_head[sm] = i;
		p->stash_n[sm]++;
	}
	while (p->stash_n[sm] > hi) {
		uint32_t i = p->stash_head[sm];
		p->stash_head[sm] = p->r[i].next;
		p->stash_n[sm]--;
		p->r[i].next = p->free_head;
		p->free_head = i;
	}
}

void reqq_insert_timed(struct reqq *q, struct req *r, uint32_t i)
{
	if (q->tail == REQ_NIL || r[q->tail].t_ready <= r[i].t_ready) {
		reqq_push(q, r, i);
		return;
	}
	/* Rare: walk from the head to the first later entry. */
	uint32_t prev = REQ_NIL, cur = q->head;
	while (cur != REQ_NIL && r[cur].t_ready <= r[i].t_ready) {
		prev = cur;
		cur = r[cur].next;
	}
	r[i].next = cur;
	if (prev == REQ_NIL)
		q->head = i;
	else
		r[prev].next = i;
	q->n++;
}

/* The request pool a machine needs: every structure that holds requests at
 * its capacity (the pool is sized once, at sim_new). */
uint64_t sim_req_pool_slots(const struct sim_cfg *cfg)
{
	uint64_t ns = (uint64_t)cfg->core.sms, nb = (uint64_t)cfg->l2.banks;
	uint64_t pool = ns * ((uint64_t)cfg->core.mem_inflight * (uint64_t)cfg->core.warp_size * 2 +
			      (uint64_t)l1_mshr_cap(cfg) * 2 + 64) +
			nb * ((uint64_t)l2_mshr_cap(cfg) * 3 + (uint64_t)cfg->l2.frc.entries * 2 +
			      (uint64_t)cfg->l2.queue * 2 + 64);
	uint32_t lo, hi;
	req_stash_bounds(cfg, &lo, &hi);
	pool += ns * (uint64_t)(lo + hi); /* the SMs' stashes (threaded SM phases), free slots */
	if (l1i_active(cfg)) /* instruction-cache misses (l1i.c) */
		pool += ns * (uint64_t)cfg->l1i.mshr_entries;
	if (cfg->l2.sharers != L2SH_OFF && !cfg->l2.coh.protocol) /* Inv/Ack packets (l2_sharers.c) */
		pool += nb * ns * 4; /* four rounds per bank at once; a miss reserves its round (l2_repl.c miss_room) */
	if (cfg->l2.coh.protocol) /* Inv/Recall/Put/Ack packets (coh_eng.h) */
		pool += ns * ((uint64_t)cfg->l1.sets * (uint64_t)cfg->l1.ways + 64) + nb * ns * 4;
	return pool;
}
