/*
 * coalesce.c: turn one warp memory instruction into line requests.
 *
 *   fermi  all lanes together; one request per distinct l1.line-sized line
 *          (its sector mask covers the bytes touched)
 *   volta  lanes in groups of 8 (0-7, 8-15, ...); each group makes one request
 *          per distinct 32 B sector it touches (Volta memory paper §3.1)
 *   si     64-wide wavefronts in subwavefronts of 16 lanes; each makes one
 *          request per distinct line, and subwavefront k reaches the L1 k
 *          cycles after the first (FRC thesis §1.4)
 *
 * Requests enter the SM's L1 queue in lane order of their first lane, ready
 * the cycle after issue.
 */
#include "coh_eng.h"
#include "sim_int.h"

struct creq {
	uint64_t line;
	uint32_t mask;
	unsigned delay;
};

static int add(struct creq *v, int n, int from, uint64_t line, uint32_t mask, unsigned delay)
{
	for (int k = from; k < n; k++)
		if (v[k].line == line) {
			v[k].mask |= mask;
			return n;
		}
	v[n] = (struct creq){line, mask, delay};
	return n + 1;
}

int coalesce_issue(struct sim *s, struct sm *sm, int slot, const struct winst *in, int vmb)
{
	const struct cache *c = &sm->l1.c;
	struct creq v[KMAX_LANES * 2];
	int n = 0;
	unsigned size = in->size ? in->size : 4;
	int mode = s->cfg.core.coalescer;
	int ws = s->cfg.core.warp_size;
	int group = mode == COAL_VOLTA ? 8 : mode == COAL_SI ? 16 : ws;
	for (int g = 0; g < ws; g += group) {
		int from = n;
		for (int l = g; l < g + group && l < ws; l++) {
			if (!(in->active >> l & 1))
				continue;
			uint64_t a = in->addr[l];
			if (mode == COAL_VOLTA) {
				/* One request per 32 B sector: key the sector, keep its line mask. */
				uint64_t sec = a & ~(uint64_t)31;
				uint64_t line = cache_line_addr(c, a);
				uint32_t m = cache_sector_mask(c, sec, 32);
				bool seen = false;
				for (int k = from; k < n; k++)
					if (v[k].line == line && v[k].mask == m) {
						seen = true;
						break;
					}
				if (!seen)
					v[n++] = (struct creq){line, m, 0};
				continue;
			}
			uint64_t line = cache_line_addr(c, a);
			uint32_t m = cache_sector_mask(c, a, size);
			/* An access crossing a line boundary touches the next line too. */
			n = add(v, n, from, line, m, mode == COAL_SI ? (unsigned)(g / group) : 0);
			uint64_t end = a + size - 1;
			if (cache_line_addr(c, end) != line)
				n = add(v, n, from, cache_line_addr(c, end), cache_sector_mask(c, cache_line_addr(c, end), (unsigned)(end - cache_line_addr(c, end) + 1)),
					mode == COAL_SI ? (unsigned)(g / group) : 0);
		}
	}
	uint64_t now = s->st->now;
	uint8_t type = in->op == KOP_LD ? RQ_LD : in->op == KOP_ST ? RQ_ST : RQ_ATOM;
	for (int k = 0; k < n; k++) {
		uint32_t ri = req_alloc(&s->pool);
		if (ri == REQ_NIL)
			return k; /* cannot happen: the pool is sized for the worst case */
		struct req *r = &s->pool.r[ri];
		r->addr = v[k].line;
		r->mask = v[k].mask;
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
