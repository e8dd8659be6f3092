/*
 * coalesce.c: turn one warp memory instruction into line requests.
 *
 *   fermi  all lanes together; one request per distinct l1.line-sized line
 *          (its sector mask covers the bytes touched)
 *   volta  lanes in groups of core.coalesce_group (8: 0-7, 8-15, ...); each
 *          group makes one request per distinct 32 B sector it touches (Volta
 *          memory paper §3.1: 8; GPGPU-Sim's code for -gpgpu_coalesce_arch
 *          40 and up coalesces the whole warp into 32 B segments: 32)
 *   si     64-wide wavefronts in subwavefronts of 16 lanes; each makes one
 *          request per distinct line, and subwavefront k reaches the L1 k
 *          cycles after the first (FRC thesis §1.4)
 *
 * Requests enter the SM's L1 queue in lane order of their first lane, ready
 * the cycle after issue.
 */
#include "coalesce.h"

#include <string.h>

#include "mem/coh_eng.h"
#include "sim/sim_int.h"

/* The 32 B chunks of a line that bytes [addr, addr + size) touch, the part
 * past the line's end left out (the next line's request carries it): bit i =
 * bytes 32i..32i+31 of the line (a line of at most 32 B is chunk 0). Unlike
 * the sector mask it does not depend on l1.sector: icnt.payload = segment
 * sizes a packet from it. */
static uint32_t chunk_mask(const struct cache *c, uint64_t addr, unsigned size)
{
	unsigned line = (unsigned)c->line, off = (unsigned)(addr & (uint64_t)(line - 1));
	unsigned end = off + (size ? size : 1); /* exclusive */
	if (end > line)
		end = line;
	unsigned first = off / 32, last = (end - 1) / 32; /* last <= 31: lines are at most 1024 B */
	return (uint32_t)((2ull << last) - (1ull << first));
}

/* GPGPU-Sim 3.x's first segment for a lane access of size bytes
 * (memory_coalescing_arch: 1 B -> 32, 2 B -> 64, 4, 8, 16 B -> 128; other
 * sizes, possible in traces only, as 4 B). */
static unsigned first_segment(unsigned lane_bytes) { return lane_bytes == 1 ? 32 : lane_bytes == 2 ? 64 : 128; }

/* One segment of seg bytes whose touched chunks are q (bit 0 = its first
 * 32 B): halve while they lie in one half (memory_coalescing_arch_reduce_
 * and_send); the chunks the result covers, in the segment's bits. */
static uint32_t reduce_segment(unsigned seg, uint32_t q)
{
	unsigned lo = 0; /* the result covers chunks [lo, lo + seg / 32) */
	while (seg > 32) {
		unsigned half = seg / 64; /* chunks in half of the segment */
		uint32_t low = ((1u << half) - 1) << lo, high = low << half;
		if (q & low && q & high)
			break;
		if (!(q & low))
			lo += half;
		seg /= 2;
	}
	return ((1u << (seg / 32)) - 1) << lo;
}

uint32_t coal_segment_chunks(unsigned line, uint32_t chunks, unsigned lane_bytes)
{
	unsigned top = first_segment(lane_bytes), n = line / 32;
	if (line <= 32 || !chunks)
		return chunks ? 1 : 0;
	unsigned blk = line < top ? line : top, per = blk / 32; /* chunks per block, 1..4 */
	uint32_t out = 0, bm = (1u << per) - 1;
	for (unsigned b = 0; b < n; b += per) {
		uint32_t q = chunks >> b & bm;
		if (q)
			out |= reduce_segment(blk, q) << b;
	}
	return out;
}

unsigned icnt_segment_bytes(unsigned line, uint32_t chunks, unsigned lane_bytes)
{
	if (line <= 32 || !chunks)
		return line;
	return 32u * (unsigned)__builtin_popcount(coal_segment_chunks(line, chunks, lane_bytes));
}

/* Index of the request for line in v[from..*n), added if new. */
static int add(struct coal_req *v, int *n, int from, uint64_t line, uint32_t mask, uint32_t chunks, unsigned delay,
	       int lane)
{
	for (int k = from; k < *n; k++)
		if (v[k].line == line) {
			v[k].mask |= mask;
			v[k].chunks |= chunks;
			return k;
		}
	v[*n] = (struct coal_req){line, mask, chunks, (uint8_t)delay, (int8_t)lane};
	return (*n)++;
}

/* Group the active lanes into requests (the mode's rule, above); for each
 * lane the request(s) it went into (a lane crossing a line boundary touches
 * two). Pure: the engine and `info coalesce` (coalesce_inspect) use it. */
static void coalesce_plan(const struct cache *c, int mode, int ws, int coal_group, const struct winst *in,
			  struct coal_plan *p)
{
	int n = 0;
	unsigned size = in->size ? in->size : 4;
	int group = mode == COAL_VOLTA ? coal_group : mode == COAL_SI ? 16 : ws;
	memset(p->lane_req, -1, sizeof p->lane_req); /* v[] is written up to n only */
	p->group = group;
	uint64_t act = ws >= 64 ? in->active : in->active & ((1ull << ws) - 1);
	for (int g = 0; g < ws; g += group) {
		int from = n;
		uint64_t prev_sec = 1; /* never a sector address (those are 32-aligned) */
		int prev_k = -1;
		/* The group's active lanes, ascending. */
		for (uint64_t gm = group >= 64 ? act >> g : (act >> g) & ((1ull << group) - 1); gm; gm &= gm - 1) {
			int l = g + __builtin_ctzll(gm);
			uint64_t a = in->addr[l];
			if (mode == COAL_VOLTA) {
				/* One request per 32 B sector: key the sector, keep its line mask. */
				uint64_t sec = a & ~(uint64_t)31;
				if (sec == prev_sec) { /* the usual case: the lane before it, same sector */
					p->lane_req[l][0] = (int8_t)prev_k;
					continue;
				}
				uint64_t line = cache_line_addr(c, a);
				uint32_t m = cache_sector_mask(c, sec, 32);
				int k = from;
				while (k < n && !(p->v[k].line == line && p->v[k].mask == m))
					k++;
				if (k == n)
					p->v[n++] = (struct coal_req){line, m, chunk_mask(c, sec, 32), 0, (int8_t)l};
				p->lane_req[l][0] = (int8_t)k;
				prev_sec = sec;
				prev_k = k;
				continue;
			}
			uint64_t line = cache_line_addr(c, a);
			uint32_t m = cache_sector_mask(c, a, size);
			unsigned delay = mode == COAL_SI ? (unsigned)(g / group) : 0;
			p->lane_req[l][0] = (int8_t)add(p->v, &n, from, line, m, chunk_mask(c, a, size), delay, l);
			/* An access crossing a line boundary touches the next line too. */
			uint64_t end = a + size - 1, l2 = cache_line_addr(c, end);
			if (l2 != line)
				p->lane_req[l][1] =
					(int8_t)add(p->v, &n, from, l2, cache_sector_mask(c, l2, (unsigned)(end - l2 + 1)),
						    chunk_mask(c, l2, (unsigned)(end - l2 + 1)), delay, l);
		}
	}
	p->n = n;
}

int coalesce_issue(struct sim *s, struct sm *sm, int slot, const struct winst *in, int vmb)
{
	struct coal_plan plan;
	coalesce_plan(&sm->l1.c, s->cfg.core.coalescer, s->cfg.core.warp_size, s->cfg.core.coalesce_group, in, &plan);
	const struct coal_req *v = plan.v;
	int n = plan.n;
	/* What `info coalesce` shows: the last instruction this SM coalesced. */
	memcpy(&sm->coal_in, in, sizeof *in); /* padding too: the arena is hashed */
	sm->coal_slot = (int16_t)slot;
	sm->coal_cycle = s->st->now;
	sm->coal_valid = 1;
	uint64_t now = s->st->now;
	uint8_t type = in->op == KOP_LD ? RQ_LD : in->op == KOP_ST ? RQ_ST : RQ_ATOM;
	for (int k = 0; k < n; k++) {
		uint32_t ri = req_alloc(&s->pool);
		if (ri == REQ_NIL) /* the pool's per-SM term covers mem_inflight instructions of 2 x warp_size requests */
			l2_pool_exhausted(s, "a coalesced request");
		struct req *r = &s->pool.r[ri];
		r->addr = v[k].line;
		r->mask = v[k].mask;
		r->chunks = v[k].chunks;
		r->lane_bytes = (uint8_t)(in->size ? in->size : 4);
		r->type = type;
		if (in->cop != KCOP_DEFAULT)
			r->flags = (uint8_t)(REQF_BYP_L1 | (in->cop == KCOP_SLC ? REQF_NOALLOC_L2 : 0));
		r->sm = (uint16_t)sm->id;
		r->warp = (uint16_t)slot;
		r->vmb = (uint16_t)vmb;
		r->t_issue = now;
		r->t_ready = now + 1 + v[k].delay;
		if (s->cv)
			coh_values_coalesce(s, sm, ri, in); /* the words the lanes touch (coherence.check_values) */
		reqq_insert_timed(&sm->l1.lsu, s->pool.r, ri);
		sim_act_sm(s, sm);
	}
	EV_EMIT(&s->ev, EV_COALESCE, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)slot,
		.addr = n ? v[0].line : 0, .a = n, .b = __builtin_popcountll(in->active));
	return n;
}

bool inspect_coalesce(const struct sim *s, int smi, struct coal_info *o)
{
	memset(o, 0, sizeof *o);
	if (smi < 0 || smi >= s->cfg.core.sms)
		return false;
	const struct sm *sm = &s->sms[smi];
	if (!sm->coal_valid)
		return true;
	const struct winst *in = &sm->coal_in;
	o->valid = true;
	o->cycle = sm->coal_cycle;
	o->warp = sm->coal_slot;
	o->op = in->op;
	o->size = in->size ? in->size : 4;
	o->mode = s->cfg.core.coalescer;
	o->warp_size = s->cfg.core.warp_size;
	o->line = sm->l1.c.line;
	o->sector = sm->l1.c.sector;
	o->segment = s->cfg.icnt.payload == ICNT_PAYLOAD_SEGMENT && !s->cfg.l2.sector;
	o->active = in->active;
	memcpy(o->addr, in->addr, sizeof o->addr);
	coalesce_plan(&sm->l1.c, o->mode, o->warp_size, s->cfg.core.coalesce_group, in, &o->plan);
	return true;
}
