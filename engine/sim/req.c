/* req.c: request pool and timed queues; see req.h. */
#include <string.h>

#include "req.h"

#include "config.h"

#include <assert.h>

void req_pool_init(struct req_pool *p, struct arena *a, uint32_t cap)
{
	ARENA_SET(a, p->r, struct req, cap);
	p->cap = cap;
	p->used = 0;
	p->high_water = 0;
	p->free_head = REQ_NIL; /* slots never handed out stay zero: see req_alloc */
}

/* The free list holds freed slots (LIFO); with it empty every slot handed out
 * so far is in use (used == high_water), and the next is slot high_water.
 * That is the order a list threaded through every slot at the start gave,
 * but the slots never used stay all-zero, so the state's snapshots skip
 * them (a pool sized for core.mem_inflight = 256 is mostly that). */
uint32_t req_alloc(struct req_pool *p)
{
	uint32_t i = p->free_head;
	if (i != REQ_NIL)
		p->free_head = p->r[i].next;
	else if (p->high_water < p->cap && p->used == p->high_water)
		i = p->high_water;
	else
		return REQ_NIL;
	struct req *q = &p->r[i];
	memset(q, 0, sizeof *q); /* padding too: the pool is hashed (sim_state_hash) */
	q->next = REQ_NIL;
	q->mshr = REQ_NIL;
	q->in_use = 1;
	p->used++;
	if (p->used > p->high_water)
		p->high_water = p->used;
	return i;
}

void req_free(struct req_pool *p, uint32_t i)
{
	assert(i < p->cap && p->r[i].in_use);
	p->r[i].in_use = 0;
	p->r[i].next = p->free_head;
	p->free_head = i;
	p->used--;
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
	if (l1i_active(cfg)) /* instruction-cache misses (l1i.c) */
		pool += ns * (uint64_t)cfg->l1i.mshr_entries;
	if (cfg->l2.sharers != L2SH_OFF && !cfg->l2.coh.protocol) /* Inv/Ack packets (l2_sharers.c) */
		pool += nb * ns * 4; /* four rounds per bank at once; a miss reserves its round (l2_repl.c miss_room) */
	if (cfg->l2.coh.protocol) /* Inv/Recall/Put/Ack packets (coh_eng.h) */
		pool += ns * ((uint64_t)cfg->l1.sets * (uint64_t)cfg->l1.ways + 64) + nb * ns * 4;
	return pool;
}
