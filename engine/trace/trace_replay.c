/*
 * trace_replay.c: an indexed Accel-Sim trace as a workload (trace_wl_ops).
 * Each warp_next() parses the warp's next instruction line straight from the
 * trace text at kwarp.tpos; nothing else changes, so snapshots of the sim
 * (which hold the kwarps) rewind replay exactly.
 *
 * Opcode class -> core instruction (docs/TRACES.md has the full table):
 *
 *   LDG LDGSTS TEX* SULD  -> KOP_LD      STG SUST   -> KOP_ST
 *   ATOM(G) RED SUATOM    -> KOP_ATOM    LDS LDSM ATOMS -> KOP_LDSH   STS -> KOP_STSH
 *   LDL / STL             -> KOP_LD / KOP_ST in the per-thread local region
 *   LD / ST / ATOM        -> by the first active lane's address: the shared
 *                            window, the local window, else global
 *   BAR (not BAR.ARV)     -> KOP_BAR     EXIT as a warp's last line -> KOP_EXIT
 *   everything else       -> KOP_ALU, trace.<class>_cycles, on the unit of
 *                            trace_unit (core.op_model = units times it there)
 *
 * Local memory: the tracer records a thread's local offsets (or generic
 * addresses in the local window), identical across threads. Each thread gets
 * a private copy, interleaved by 4-byte words as on NVIDIA GPUs so a warp's
 * accesses to one local variable are consecutive words:
 *
 *   addr = TRACE_LOCAL_REGION + (off / 4) * (threads * 4) + tid * 4 + off % 4
 */
#include <string.h>

#include "kernel/kernel.h"
#include "trace_int.h"

void trace_view_init(struct trace_view *v, const struct trace_kernel *k, const struct trace_cfg *c)
{
	memset(v, 0, sizeof *v);
	v->k = k;
	v->cycles[TC_ALU] = (uint16_t)c->alu_cycles;
	v->cycles[TC_SFU] = (uint16_t)c->sfu_cycles;
	v->cycles[TC_DP] = (uint16_t)c->dp_cycles;
	v->cycles[TC_TENSOR] = (uint16_t)c->tensor_cycles;
	v->cycles[TC_BRANCH] = (uint16_t)c->branch_cycles;
	v->cycles[TC_MISC] = (uint16_t)c->misc_cycles;
	v->cycles[TC_UNKNOWN] = (uint16_t)c->alu_cycles;
	for (unsigned i = TC_UNKNOWN + 1; i < TC__COUNT; i++)
		v->cycles[i] = (uint16_t)c->misc_cycles; /* memory lines without addresses */
	v->cycles[TC_EXIT] = (uint16_t)c->branch_cycles; /* EXIT before a warp's last line */
}

static const struct trace_kernel *K(const void *impl) { return ((const struct trace_view *)impl)->k; }

static uint32_t t_ctas(const void *impl) { return K(impl)->nctas; }
static uint32_t t_tpc(const void *impl) { return K(impl)->tpc; }
static unsigned t_nregs(const void *impl) { return K(impl)->h.nregs ? K(impl)->h.nregs : 32; }
static unsigned t_shmem(const void *impl) { return K(impl)->h.shmem; }
static unsigned t_nstmts(const void *impl) { return K(impl)->nst; }

static const char *t_text(const void *impl, unsigned stmt)
{
	const struct trace_kernel *k = K(impl);
	return stmt < k->nst ? k->st_text[stmt] : "exit";
}

/* Skip blank lines; the start of the next non-blank line at pos (in CTA
 * lcta), its end, and *next = the offset after it. */
static const char *line_at(const struct trace_kernel *k, uint32_t lcta, uint64_t pos, const char **le, uint64_t *next)
{
	const char *p, *end;
	if (k->text) {
		p = k->text + pos;
		end = k->text + k->len;
	} else {
		p = k->fetch(k->fctx, lcta, pos, &end);
	}
	const char *s = p;
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p < end && *p == '\n') {
			p++;
			continue;
		}
		break;
	}
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*le = nl ? nl : end;
	*next = pos + (uint64_t)(*le - s) + (*le < end);
	return p;
}

/* Statement `s` of a kernel whose statements are numbered from `soff`
 * (back-to-back lists number all kernels' statements in one space; past
 * 65534 they are shown as the end). */
static uint16_t stmt_id(uint32_t soff, uint32_t s)
{
	return (uint16_t)(soff + s > 0xfffe ? 0xffff : soff + s);
}

/* Show the next line's statement and mask in the warps panel. */
static void peek(const struct trace_kernel *k, uint32_t soff, uint32_t lcta, struct kwarp *w)
{
	if (w->tleft == 0) {
		w->pc = stmt_id(soff, k->nst);
		return;
	}
	uint64_t next;
	const char *le, *p = line_at(k, lcta, w->tpos, &le, &next);
	struct cur c = {p, le, NULL, NULL};
	uint64_t pc;
	uint32_t mask;
	if (trace_parse_head(&c, k->h.lineinfo, &pc, &mask)) {
		int s = trace_pc_find(k, pc);
		w->pc = stmt_id(soff, s < 0 ? k->nst : (uint32_t)s);
		w->mask = mask & w->full_mask;
	}
}

/* Warp `wic` of CTA `lcta` of kernel k (global CTA id `cta`). */
static void start_in(const struct trace_kernel *k, uint32_t soff, struct kwarp *w, uint32_t cta, uint32_t lcta,
		     uint32_t wic, unsigned warp_size)
{
	memset(w, 0, sizeof *w);
	w->cta = cta;
	w->warp_in_cta = wic;
	w->warp_size = (uint8_t)warp_size;
	uint32_t first = wic * TLANES, lanes = first < k->tpc ? k->tpc - first : 0;
	if (lanes > TLANES)
		lanes = TLANES;
	w->full_mask = lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
	w->mask = w->full_mask;
	/* Trace warps are 32 lanes; the front end refuses other warp sizes. */
	if (lcta < k->nctas && wic < k->wpc && warp_size == TLANES) {
		size_t i = (size_t)lcta * k->wpc + wic;
		w->tpos = k->woff[i];
		w->tleft = k->wn[i];
	}
	peek(k, soff, lcta, w);
}

static void t_start(const void *impl, struct kwarp *w, uint32_t cta, uint32_t wic, unsigned warp_size)
{
	start_in(K(impl), 0, w, cta, cta, wic, warp_size);
}

static bool finish(const struct trace_kernel *k, uint32_t soff, struct kwarp *w, struct winst *o)
{
	w->exited = true;
	w->tleft = 0;
	w->pc = stmt_id(soff, k->nst);
	o->op = KOP_EXIT;
	o->cop = KCOP_DEFAULT;
	o->active = 0; /* no trace line: no traced lanes (a traced EXIT sets its mask) */
	o->pc = WINST_PC_NONE; /* no trace line, no code to fetch (a traced EXIT sets its PC) */
	o->ndst = o->nsrc = 0;
	return false;
}

/* The next instruction of a warp of view v; lcta = its CTA within the kernel. */
static bool next_in(const struct trace_view *v, uint32_t soff, uint32_t lcta, struct kwarp *w, struct winst *o)
{
	const struct trace_kernel *k = v->k;
	if (w->exited || w->tleft == 0)
		return finish(k, soff, w, o);
	uint64_t next;
	const char *le, *p = line_at(k, lcta, w->tpos, &le, &next);
	struct tline t;
	struct cur c = {p, le, NULL, NULL};
	int s;
	/* Validated at load time; a file changed since then just ends the warp. */
	if (!trace_parse_inst(&c, k->h.lineinfo, &t) || (s = trace_pc_find(k, t.pc)) < 0)
		return finish(k, soff, w, o);
	w->tpos = next;
	w->tleft--;
	const struct topc *op = &k->op[k->st_op[s]];
	unsigned cls = op->cls;
	if (cls == TC_EXIT && w->tleft == 0) {
		/* The traced EXIT counts its line's lanes (as Accel-Sim counts
		 * each trace line's mask), not the warp's full width. */
		finish(k, soff, w, o);
		o->active = t.mask & w->full_mask;
		o->pc = t.pc;
		return false;
	}
	o->stmt = stmt_id(soff, (uint32_t)s);
	o->pc = t.pc; /* the trace line's PC (instruction fetch, l1i.enabled) */
	o->active = t.mask & w->full_mask;
	o->ndst = (uint8_t)t.ndst;
	o->dst = (uint8_t)t.dst;
	o->nsrc = (uint8_t)t.nsrc;
	for (unsigned i = 0; i < t.nsrc; i++)
		o->src[i] = (uint8_t)t.src[i];
	o->size = op->size;
	o->cop = KCOP_DEFAULT;
	o->alu_cycles = 0;
	bool mem = cls >= TC_LDG && t.width > 0;
	bool local = cls == TC_LDL || cls == TC_STL;
	if (mem && (cls == TC_LD || cls == TC_ST || cls == TC_ATOM) && o->active) {
		uint64_t a = t.addr[__builtin_ctzll(o->active)];
		const struct trace_hdr *h = &k->h;
		bool st = cls == TC_ST;
		if (h->shmem_base && a >= h->shmem_base && a - h->shmem_base < TRACE_WINDOW_BYTES)
			cls = st ? TC_STS : TC_LDS;
		else if (h->local_base && a >= h->local_base && a - h->local_base < TRACE_WINDOW_BYTES)
			local = true;
	}
	if (!mem) {
		o->op = cls == TC_BAR ? KOP_BAR : KOP_ALU;
		o->alu_cycles = v->cycles[cls == TC_BAR ? TC_MISC : cls];
		o->unit = op->unit;
		o->traced = 1;
		if (cls == TC_BAR)
			o->ndst = o->nsrc = 0;
	} else if (cls == TC_LDS || cls == TC_STS || cls == TC_ATOMS) {
		o->op = cls == TC_STS ? KOP_STSH : KOP_LDSH;
		uint64_t base = k->h.shmem_base;
		for (unsigned l = 0; l < TLANES; l++)
			if (o->active >> l & 1)
				o->addr[l] = base && t.addr[l] >= base ? t.addr[l] - base : t.addr[l];
	} else {
		o->op = cls == TC_STG || cls == TC_ST || cls == TC_STL ? KOP_ST
			: cls == TC_ATOMG || cls == TC_ATOM               ? KOP_ATOM
									  : KOP_LD;
		if (local && o->op == KOP_ATOM)
			o->op = KOP_LD;
		if (o->op == KOP_ST)
			o->ndst = 0;
		/* .CG / .CV: cache at the L2 only (PTX ld.cg / ld.cv) -> glc; .CS / .LU
		 * (evict-first hints) keep the default path. Atomics ignore operators. */
		if (o->op != KOP_ATOM && (op->flags & (TF_CG | TF_CV)))
			o->cop = KCOP_GLC;
		uint64_t threads = (uint64_t)k->nctas * k->tpc, lb = k->h.local_base;
		uint64_t tid0 = (uint64_t)lcta * k->tpc + (uint64_t)w->warp_in_cta * TLANES;
		for (unsigned l = 0; l < TLANES; l++) {
			if (!(o->active >> l & 1))
				continue;
			uint64_t a = t.addr[l];
			if (local) {
				uint64_t off = lb && a >= lb ? a - lb : a;
				a = TRACE_LOCAL_REGION + (off / 4) * (threads * 4) + (tid0 + l) * 4 + off % 4;
			}
			o->addr[l] = a;
		}
	}
	w->mask = o->active;
	peek(k, soff, lcta, w);
	return true;
}

static bool t_next(const void *impl, struct kwarp *w, struct winst *o)
{
	return next_in(impl, 0, w->cta, w, o);
}

static bool t_uses_cop(const void *impl) { return ((const struct trace_view *)impl)->k->info.cg > 0; }

/* ---- footprint (the DRAM aliasing check, sim_new) ----------------------- */

void trace_foot_init(struct trace_kernel *k)
{
	k->info.glob_lo = k->info.local_lo = UINT64_MAX;
	k->info.glob_last = k->info.local_last = 0;
	k->loff_min = UINT64_MAX;
	k->loff_max = 0;
	k->lsize_max = 0;
}

/* The spaces as next_in() places a line: shared accesses stay in the SM,
 * local ones are offsets into the per-thread region. */
void trace_foot_note(struct trace_kernel *k, const struct tline *t, const struct topc *o)
{
	unsigned cls = o->cls;
	if (cls < TC_LDG || t->width == 0 || !t->mask || cls == TC_LDS || cls == TC_STS || cls == TC_ATOMS)
		return;
	const struct trace_hdr *h = &k->h;
	bool local = cls == TC_LDL || cls == TC_STL;
	if (cls == TC_LD || cls == TC_ST || cls == TC_ATOM) {
		uint64_t a = t->addr[__builtin_ctzll(t->mask)];
		if (h->shmem_base && a >= h->shmem_base && a - h->shmem_base < TRACE_WINDOW_BYTES)
			return;
		local = h->local_base && a >= h->local_base && a - h->local_base < TRACE_WINDOW_BYTES;
	}
	unsigned size = o->size ? o->size : 1;
	for (unsigned l = 0; l < TLANES; l++) {
		if (!(t->mask >> l & 1))
			continue;
		uint64_t a = t->addr[l];
		if (local) {
			uint64_t off = h->local_base && a >= h->local_base ? a - h->local_base : a;
			k->loff_min = MIN(k->loff_min, off);
			k->loff_max = MAX(k->loff_max, off);
			k->lsize_max = MAX(k->lsize_max, size);
			continue;
		}
		uint64_t last = a > UINT64_MAX - (size - 1) ? UINT64_MAX : a + (size - 1);
		k->info.glob_lo = MIN(k->info.glob_lo, a);
		k->info.glob_last = MAX(k->info.glob_last, last);
	}
}

/* Local: TRACE_LOCAL_REGION + (off / 4) * (threads * 4) + tid * 4 + off % 4
 * for every thread; a sum that would pass 2^64 saturates (and is refused). */
void trace_foot_done(struct trace_kernel *k)
{
	if (k->loff_min > k->loff_max)
		return;
	uint64_t stride = (uint64_t)k->nctas * k->tpc * 4, lo, hi, top = UINT64_MAX;
	if (__builtin_mul_overflow(k->loff_min / 4, stride, &lo) || __builtin_add_overflow(lo, TRACE_LOCAL_REGION, &lo))
		lo = top;
	if (__builtin_mul_overflow(k->loff_max / 4 + 1, stride, &hi) ||
	    __builtin_add_overflow(hi, TRACE_LOCAL_REGION + 3 + k->lsize_max - 1, &hi))
		hi = top;
	k->info.local_lo = lo;
	k->info.local_last = hi;
}

static bool view_range(const struct trace_view *v, unsigned i, struct wl_range *out)
{
	const struct trace_info *in = &v->k->info;
	if (i > 1)
		return false;
	out->lo = i ? in->local_lo : in->glob_lo;
	out->last = i ? in->local_last : in->glob_last;
	out->what = i ? "local" : "global";
	out->src = v->k->file;
	return true;
}

static bool t_range(const void *impl, unsigned i, struct wl_range *out) { return view_range(impl, i, out); }

const struct wl_ops trace_wl_ops = {
	.ctas = t_ctas,
	.threads_per_cta = t_tpc,
	.nregs = t_nregs,
	.shmem_bytes = t_shmem,
	.warp_start = t_start,
	.warp_next = t_next,
	.stmt_text = t_text,
	.nstmts = t_nstmts,
	.uses_cop = t_uses_cop,
	.range = t_range,
};

/*
 * A list of kernels run back to back in one machine (trace_multi_wl_ops):
 * global CTA c belongs to the kernel k with first[k] <= c < first[k+1];
 * kwarp.cta keeps the global id, so the kernel is found again by a binary
 * search over the (few) kernels. Statements are numbered in one space,
 * kernel k's from soff[k].
 */
void trace_multi_init(struct trace_multi *m, struct trace_view *views, uint32_t *first, uint32_t *soff,
		      const struct trace_kernel *const *ks, unsigned n, const struct trace_cfg *c)
{
	m->n = n;
	m->v = views;
	m->first = first;
	m->soff = soff;
	m->nregs = 0;
	first[0] = soff[0] = 0;
	for (unsigned i = 0; i < n; i++) {
		trace_view_init(&views[i], ks[i], c);
		first[i + 1] = first[i] + ks[i]->nctas;
		soff[i + 1] = soff[i] + ks[i]->nst;
		unsigned r = ks[i]->h.nregs ? ks[i]->h.nregs : 32;
		if (r > m->nregs)
			m->nregs = r;
	}
}

static const struct trace_multi *M(const void *impl) { return impl; }

/* Kernel of global CTA c (c < first[n]). */
static unsigned m_kernel_of(const struct trace_multi *m, uint32_t c)
{
	unsigned lo = 0, hi = m->n - 1;
	while (lo < hi) {
		unsigned mid = (lo + hi + 1) / 2;
		if (m->first[mid] <= c)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static uint32_t m_ctas(const void *impl) { return M(impl)->first[M(impl)->n]; }
static uint32_t m_tpc(const void *impl) { return M(impl)->v[0].k->tpc; }
static unsigned m_nregs(const void *impl) { return M(impl)->nregs; }
static unsigned m_shmem(const void *impl) { return M(impl)->v[0].k->h.shmem; }
static unsigned m_nkernels(const void *impl) { return M(impl)->n; }

static unsigned m_nstmts(const void *impl)
{
	uint32_t n = M(impl)->soff[M(impl)->n];
	return n > 0xffff ? 0xffff : n;
}

static void m_shape(const void *impl, unsigned k, uint32_t *ctas, uint32_t *tpc, unsigned *shmem)
{
	const struct trace_kernel *t = M(impl)->v[k].k;
	*ctas = t->nctas;
	*tpc = t->tpc;
	*shmem = t->h.shmem;
}

static const char *m_text(const void *impl, unsigned stmt)
{
	const struct trace_multi *m = M(impl);
	if (stmt >= m_nstmts(impl))
		return "exit";
	unsigned lo = 0, hi = m->n - 1; /* the kernel with soff[k] <= stmt < soff[k+1] */
	while (lo < hi) {
		unsigned mid = (lo + hi + 1) / 2;
		if (m->soff[mid] <= stmt)
			lo = mid;
		else
			hi = mid - 1;
	}
	return t_text(&m->v[lo], stmt - m->soff[lo]);
}

static void m_start(const void *impl, struct kwarp *w, uint32_t cta, uint32_t wic, unsigned warp_size)
{
	const struct trace_multi *m = M(impl);
	if (cta >= m->first[m->n]) {
		memset(w, 0, sizeof *w);
		w->cta = cta;
		return;
	}
	unsigned k = m_kernel_of(m, cta);
	start_in(m->v[k].k, m->soff[k], w, cta, cta - m->first[k], wic, warp_size);
}

static bool m_next(const void *impl, struct kwarp *w, struct winst *o)
{
	const struct trace_multi *m = M(impl);
	unsigned k = m_kernel_of(m, w->cta < m->first[m->n] ? w->cta : m->first[m->n] - 1);
	return next_in(&m->v[k], m->soff[k], w->cta - m->first[k], w, o);
}

static bool m_uses_cop(const void *impl)
{
	for (unsigned i = 0; i < M(impl)->n; i++)
		if (t_uses_cop(&M(impl)->v[i]))
			return true;
	return false;
}

static bool m_range(const void *impl, unsigned i, struct wl_range *out)
{
	const struct trace_multi *m = M(impl);
	return i / 2 < m->n && view_range(&m->v[i / 2], i % 2, out);
}

const struct wl_ops trace_multi_wl_ops = {
	.ctas = m_ctas,
	.threads_per_cta = m_tpc,
	.nregs = m_nregs,
	.shmem_bytes = m_shmem,
	.warp_start = m_start,
	.warp_next = m_next,
	.stmt_text = m_text,
	.nstmts = m_nstmts,
	.nkernels = m_nkernels,
	.kernel_shape = m_shape,
	.uses_cop = m_uses_cop,
	.range = m_range,
};
