/*
 * kernel_exec.c: runs a compiled kernel for one warp, one instruction per
 * call of kernel_warp_next(). This is on the core's issue path, so it never
 * allocates and evaluates each expression once per warp (kexpr.c's vector VM),
 * not once per lane.
 *
 * A warp walks the statement array from pc 0. Control statements are consumed
 * inside one call, without producing an instruction:
 *
 *   loop VAR FROM TO STEP  bounds evaluated on the first active lane (the loop
 *                          is warp-uniform); zero trips jump past the `end`,
 *                          else push {var, to, step, start_pc}
 *   end (loop)             var += step; back to start_pc while var < TO
 *                          (var > TO for a negative step), else pop
 *   if EXPR                taken = active lanes where EXPR != 0; push
 *                          {saved_mask, else_mask = active & ~taken};
 *                          run the then-part with taken, or, if no lane takes
 *                          it, go straight to the else-part (or past `end`
 *                          when no lane runs the else-part either)
 *   else                   switch to else_mask (or leave if it is empty)
 *   end (if)               restore saved_mask, pop
 *
 * A STEP that evaluates to 0 at run time gives a zero-trip loop.
 */
#include <assert.h>
#include <string.h>

#include "kernel_int.h"
#include "sim/util.h"

void kernel_warp_start(const struct kernel *k, struct kwarp *w, uint32_t cta, uint32_t warp_in_cta,
                       unsigned warp_size)
{
	assert(warp_size >= 1 && warp_size <= KMAX_LANES);
	assert(cta < k->ctas);
	memset(w, 0, sizeof(*w));
	w->cta = cta;
	w->warp_in_cta = warp_in_cta;
	w->warp_size = (uint8_t)warp_size;
	uint64_t first = (uint64_t)warp_in_cta * warp_size;
	unsigned n = first < k->threads ? (unsigned)MIN(warp_size, k->threads - first) : 0;
	w->full_mask = n == 64 ? ~0ull : (1ull << n) - 1;
	w->mask = w->full_mask;
	w->exited = n == 0;
}

static void env_init(const struct kernel *k, const struct kwarp *w, struct kexpr_env *env)
{
	uint32_t c = w->cta;
	env->uni[KU_BX] = c % k->grid[0];
	c /= k->grid[0];
	env->uni[KU_BY] = c % k->grid[1];
	env->uni[KU_BZ] = c / k->grid[1];
	env->uni[KU_WARP] = w->warp_in_cta;
	unsigned tid0 = w->warp_in_cta * w->warp_size;
	env->tid0 = tid0;
	env->tx = k->tx + tid0;
	env->ty = k->ty + tid0;
	env->tz = k->tz + tid0;
	for (unsigned d = 0; d < w->depth; d++)
		env->uni[KU_LOOP0 + d] = w->stk[d].var;
	env->val = w->val;
	env->idx = NULL;
}

static inline unsigned lowest(uint64_t m)
{
	return (unsigned)__builtin_ctzll(m);
}
static inline unsigned above_highest(uint64_t m)
{
	return 64u - (unsigned)__builtin_clzll(m);
}

/* The active lanes are lo, lo+1, ... with no hole (the usual case). */
static inline bool contiguous(uint64_t m, unsigned lo)
{
	return (((m >> lo) + 1) & (m >> lo)) == 0;
}

/* var + step stays strictly before `to` (no overflow). */
static bool loop_continues(int64_t var, int64_t to, int64_t step, int64_t *next)
{
	if (__builtin_add_overflow(var, step, next))
		return false;
	return step > 0 ? *next < to : *next > to;
}

static void fill_common(struct winst *out, const struct kstmt *s, unsigned pc, uint64_t mask)
{
	out->op = s->op;
	out->size = s->size;
	out->cop = s->cop;
	out->unit = s->unit;
	out->alu_cycles = s->alu_cycles;
	out->stmt = (uint16_t)pc;
	out->pc = WINST_PC_STMT;
	out->ndst = s->ndst;
	out->nsrc = s->nsrc;
	out->dst = s->dst;
	out->src[0] = s->src[0];
	out->src[1] = s->src[1];
	out->src[2] = s->src[2];
	out->active = mask;
}

static uint8_t dyn_reg(const struct kernel *k, const struct kstmt *s, const struct kexpr_env *env,
                       unsigned lane)
{
	int64_t r = kexpr_eval1(&k->code, &s->dst_e, env, lane) % (int64_t)k->nregs;
	return (uint8_t)(r < 0 ? r + k->nregs : r);
}

/* A memory statement's per-lane byte addresses into out->addr. */
static void mem_addrs(const struct kernel *k, const struct kstmt *s, const struct kexpr_env *env, uint64_t mask,
		      struct winst *out)
{
	struct kexpr_stack stk;
	bool uni;
	unsigned lo = lowest(mask), hi = above_highest(mask);
	const int64_t *r = kexpr_eval(&k->code, &s->e, env, lo, hi, &stk, &uni);
	const uint64_t base = s->base, elem = s->elem;
	if (uni) {
		uint64_t a = base + (uint64_t)r[0] * elem;
		for (uint64_t m = mask; m; m &= m - 1)
			out->addr[lowest(m)] = a;
	} else if (contiguous(mask, lo)) {
		for (unsigned i = lo; i < hi; i++)
			out->addr[i] = base + (uint64_t)r[i] * elem;
	} else {
		for (uint64_t m = mask; m; m &= m - 1) {
			unsigned i = lowest(m);
			out->addr[i] = base + (uint64_t)r[i] * elem;
		}
	}
}

/* A value load (`ld` from an array with init): each active lane's val
 * becomes the contents of the element it loaded. The address was computed
 * first, from the old val, as the hardware reads the address register
 * before the load writes its destination. */
static void load_values(const struct kernel *k, const struct kstmt *s, struct kwarp *w, struct kexpr_env *env,
			uint64_t mask)
{
	struct kexpr_stack stk;
	bool uni;
	int64_t idx[KMAX_LANES];
	unsigned lo = lowest(mask), hi = above_highest(mask);
	const int64_t *r = kexpr_eval(&k->code, &s->e, env, lo, hi, &stk, &uni);
	for (unsigned i = lo; i < hi; i++)
		idx[i] = uni ? r[0] : r[i];
	env->idx = idx;
	r = kexpr_eval(&k->code, &k->arrays[s->vload - 1].init, env, lo, hi, &stk, &uni);
	for (uint64_t m = mask; m; m &= m - 1) {
		unsigned i = lowest(m);
		w->val[i] = uni ? r[0] : r[i];
	}
	env->idx = NULL;
}

/* `loop`: an empty range skips past its end; else the loop frame is pushed.
 * Returns the next pc. */
static unsigned loop_enter(const struct kernel *k, const struct kstmt *s, struct kwarp *w, struct kexpr_env *env,
			   unsigned pc, unsigned lo)
{
	int64_t from = kexpr_eval1(&k->code, &s->e, env, lo);
	int64_t to = kexpr_eval1(&k->code, &s->to, env, lo);
	int64_t step = kexpr_eval1(&k->code, &s->step, env, lo);
	if (step > 0 ? from >= to : step < 0 ? from <= to : true)
		return s->match + 1u;
	unsigned d = s->depth;
	w->stk[d].is_loop = 1;
	w->stk[d].start_pc = (uint16_t)(pc + 1);
	w->stk[d].var = from;
	w->stk[d].to = to;
	w->stk[d].step = step;
	w->depth = (uint8_t)(d + 1);
	env->uni[KU_LOOP0 + d] = from;
	return pc + 1;
}

/* `if`: the lanes split into the then-part (first) and the else-part; a part
 * nobody runs is skipped. Returns the next pc. */
static unsigned if_enter(const struct kernel *k, const struct kstmt *s, struct kwarp *w, const struct kexpr_env *env,
			 unsigned pc)
{
	struct kexpr_stack stk;
	bool uni;
	uint64_t mask = w->mask;
	unsigned lo = lowest(mask), hi = above_highest(mask);
	const int64_t *r = kexpr_eval(&k->code, &s->e, env, lo, hi, &stk, &uni);
	uint64_t taken = 0;
	if (uni)
		taken = r[0] ? mask : 0;
	else if (contiguous(mask, lo))
		for (unsigned i = lo; i < hi; i++)
			taken |= (uint64_t)(r[i] != 0) << i;
	else
		for (uint64_t m = mask; m; m &= m - 1)
			if (r[lowest(m)])
				taken |= m & -m;
	unsigned d = s->depth;
	uint64_t other = s->else_pc != KNO_PC ? mask & ~taken : 0;
	if (!taken && !other)
		return s->match + 1u; /* nobody runs either part */
	w->stk[d].is_loop = 0;
	w->stk[d].saved_mask = mask;
	w->stk[d].else_mask = other;
	w->depth = (uint8_t)(d + 1);
	if (taken) {
		w->mask = taken;
		return pc + 1;
	}
	w->mask = other;
	return s->else_pc + 1u;
}

bool kernel_warp_next(const struct kernel *k, struct kwarp *w, struct winst *out)
{
	struct kexpr_env env;
	unsigned pc = w->pc;

	if (w->exited)
		goto exited;
	env_init(k, w, &env);
	for (;;) {
		if (pc >= k->nstmts) {
			w->exited = true;
			w->pc = (uint16_t)pc;
			goto exited;
		}
		const struct kstmt *s = &k->st[pc];
		uint64_t mask = w->mask;
		unsigned lo = lowest(mask);
		switch (s->kind) {
		case KS_NOP:
			pc++;
			continue;
		case KS_LD:
		case KS_ST:
		case KS_ATOM:
		case KS_LDSH:
		case KS_STSH: {
			fill_common(out, s, pc, mask);
			if (s->dst_dyn)
				out->dst = dyn_reg(k, s, &env, lo);
			mem_addrs(k, s, &env, mask, out);
			if (s->vload)
				load_values(k, s, w, &env, mask);
			w->pc = (uint16_t)(pc + 1);
			return true;
		}
		case KS_ALU:
		case KS_BAR:
			fill_common(out, s, pc, mask);
			if (s->dst_dyn)
				out->dst = dyn_reg(k, s, &env, lo);
			w->pc = (uint16_t)(pc + 1);
			return true;
		case KS_LOOP:
			pc = loop_enter(k, s, w, &env, pc, lo);
			continue;
		case KS_END_LOOP: {
			unsigned d = s->depth;
			int64_t next;
			if (loop_continues(w->stk[d].var, w->stk[d].to, w->stk[d].step, &next)) {
				w->stk[d].var = next;
				env.uni[KU_LOOP0 + d] = next;
				pc = w->stk[d].start_pc;
			} else {
				w->depth = (uint8_t)d;
				pc++;
			}
			continue;
		}
		case KS_IF:
			pc = if_enter(k, s, w, &env, pc);
			continue;
		case KS_ELSE: {
			unsigned d = s->depth;
			if (w->stk[d].else_mask) { /* we come from the then-part */
				w->mask = w->stk[d].else_mask;
				pc++;
			} else {
				w->mask = w->stk[d].saved_mask;
				w->depth = (uint8_t)d;
				pc = s->match + 1u;
			}
			continue;
		}
		case KS_END_IF: {
			unsigned d = s->depth;
			w->mask = w->stk[d].saved_mask;
			w->depth = (uint8_t)d;
			pc++;
			continue;
		}
		}
	}
exited:
	out->op = KOP_EXIT;
	out->size = 0;
	out->cop = 0;
	out->unit = 0;
	out->alu_cycles = 0;
	out->stmt = (uint16_t)k->nstmts;
	out->pc = WINST_PC_STMT; /* the exit sits after the last statement */
	out->ndst = out->nsrc = 0;
	out->active = 0;
	return false;
}
