/*
 * req.h: memory requests and the queues they travel through.
 *
 * A request is one cache-line (or sector-group) access. All requests live in
 * one pool allocated at sim_new; everything else refers to them by index, and
 * queues are intrusive singly linked FIFOs through req.next. A request is in
 * at most one queue at a time.
 *
 *   warp request  (RQ_LD/RQ_ST/RQ_ATOM)  made by the coalescer, retired when
 *                                          its warp instruction is told
 *   fetch         (RQ_FETCH)             an L1 MSHR entry's request to the L2
 *                                          (REQF_IFETCH: the L1I's, l1i.c)
 *   write-back    (RQ_WB)                dirty data going down a level
 *   coherence     (RQ_COH)               Ack/AckD/Unblock, Inv/Recall (coh_eng.h)
 *
 * Timed queues: every entry carries t_ready (the cycle it may leave); a
 * queue is kept in t_ready order, so its head tells when it next has work.
 */
#ifndef GPUSTEP_REQ_H
#define GPUSTEP_REQ_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

#define REQ_NIL UINT32_MAX

/* RQ_COH: a coherence control message (Ack/AckD/Unblock up, Inv/Recall down). */
enum req_type { RQ_LD, RQ_ST, RQ_ATOM, RQ_FETCH, RQ_WB, RQ_COH };
/* RP_COH: a message the directory starts (Inv, Recall) travelling to an L1. */
enum reply_kind { RP_NONE, RP_DATA, RP_ACK, RP_NACK, RP_COH };
enum req_flags {
	REQF_COUNTED = 1, /* the L1 already counted this access (it is waiting or retrying) */
	REQF_FULL_SEEN = 2, /* l1.mshr_full / reservation fail already counted */
	REQF_ICNT_SEEN = 4, /* icnt.stalls already counted for this packet */
	REQF_COH = 8, /* a coherence message: coh_msg holds its enum coh_msg type */
	REQF_BYP_L1 = 16, /* cache operator glc/slc: the access bypasses the L1 */
	REQF_NOALLOC_L2 = 32, /* cache operator slc: an L2 miss does not allocate a line */
	REQF_L2_WAITED = 64, /* l2.bypass_waits / l2.head_waits already counted for this request (l2_wait.c) */
	REQF_IFETCH = 128, /* an RQ_FETCH of the L1 instruction cache (l1i.c): its reply fills the L1I */
};

struct req {
	uint64_t addr;     /* line address at the level it is in */
	uint64_t t_ready;  /* cycle it may leave its current queue */
	uint64_t t_issue;  /* cycle the warp issued the instruction (warp requests) */
	uint32_t next;     /* queue link */
	uint32_t mask;     /* sector mask within the line */
	uint32_t mshr;     /* L1 MSHR entry (fetch) */
	uint16_t sm, warp; /* origin */
	uint16_t vmb;      /* vector-memory-buffer slot of the instruction */
	uint16_t bank;     /* L2 bank */
	uint8_t type;      /* enum req_type */
	uint8_t reply;     /* enum reply_kind while travelling back */
	uint8_t nack_reason;
	uint8_t in_use;
	uint8_t flags;     /* REQF_* */
	uint8_t coh_msg;   /* enum coh_msg (REQF_COH) */
	uint8_t coh_aux;   /* Ack: what the L1 kept (0 gone, 1 S, 2 O); Data*: 1 = carries the line */
	uint8_t lane_bytes; /* warp requests: bytes per lane of the instruction (icnt.payload = segment) */
	uint32_t chunks;   /* warp requests: 32 B chunks of the line the lanes touch (icnt.payload = segment) */
};

struct req_pool {
	struct req *r;
	uint32_t cap, used;
	uint32_t free_head;
	uint32_t high_water;
	/* Stashes (req.c): per SM a free list of its own (arena). */
	uint32_t *stash_head, *stash_n;
	uint32_t nstash, stash_spare;
};

void req_pool_init(struct req_pool *p, struct arena *a, uint32_t cap);
/* REQ_NIL when exhausted (callers treat it as a structural stall). */
uint32_t req_alloc(struct req_pool *p);
void req_free(struct req_pool *p, uint32_t i);
/* Room for n more requests in the pool (and, in a threaded SM phase, in
 * the SM's stash). */
bool req_room(const struct req_pool *p, uint32_t n);
/* nsm stashes (every machine has them, used or not, so arenas line up). */
void req_stash_init(struct req_pool *p, struct arena *a, uint32_t nsm);
/* After a phase: bring SM sm's stash to at least lo and at most hi slots
 * from / to the pool's free list. */
struct sim_cfg;
/* The bounds sim.c settles a stash between. */
void req_stash_bounds(const struct sim_cfg *cfg, uint32_t *lo, uint32_t *hi);
void req_stash_settle(struct req_pool *p, uint32_t sm, uint32_t lo, uint32_t hi);

struct reqq {
	uint32_t head, tail;
	uint32_t n;
};

static inline void reqq_init(struct reqq *q)
{
	q->head = q->tail = REQ_NIL;
	q->n = 0;
}

static inline bool reqq_empty(const struct reqq *q) { return q->n == 0; }

static inline void reqq_push(struct reqq *q, struct req *r, uint32_t i)
{
	r[i].next = REQ_NIL;
	if (q->tail == REQ_NIL)
		q->head = i;
	else
		r[q->tail].next = i;
	q->tail = i;
	q->n++;
}

static inline uint32_t reqq_pop(struct reqq *q, struct req *r)
{
	uint32_t i = q->head;
	if (i == REQ_NIL)
		return REQ_NIL;
	q->head = r[i].next;
	if (q->head == REQ_NIL)
		q->tail = REQ_NIL;
	q->n--;
	r[i].next = REQ_NIL;
	return i;
}

static inline void reqq_push_front(struct reqq *q, struct req *r, uint32_t i)
{
	r[i].next = q->head;
	q->head = i;
	if (q->tail == REQ_NIL)
		q->tail = i;
	q->n++;
}

/* Insert keeping t_ready order (stable: equal times keep arrival order). */
void reqq_insert_timed(struct reqq *q, struct req *r, uint32_t i);

/* Head ready at `now`? */
static inline bool reqq_ready(const struct reqq *q, const struct req *r, uint64_t now)
{
	return q->head != REQ_NIL && r[q->head].t_ready <= now;
}

/* t_ready of the head, UINT64_MAX when empty. */
static inline uint64_t reqq_next_time(const struct reqq *q, const struct req *r)
{
	return q->head == REQ_NIL ? UINT64_MAX : r[q->head].t_ready;
}

struct sim_cfg;
/* In-flight request slots the machine preallocates (the request pool). */
uint64_t sim_req_pool_slots(const struct sim_cfg *cfg);

#endif
