/*
 * trc.c: `.trc` thread-address traces (see trc.h for the format and the
 * replay/model choices): parser, replay as a workload, model input.
 *
 *   text ─ trc_parse ─▶ records (gid, access) in file order
 *        ─ counting sort by gid (stable) ─▶ first[gid] .. first[gid+1) in acc[]
 *
 * Replay keeps a warp's position in struct kwarp (tpos = access index k,
 * tleft = sub-instructions of index k already issued), so the trace object
 * is immutable and snapshots rewind replay exactly.
 */
#include "trc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "rdmodel.h"
#include "sim/util.h"

struct trc {
	char file[256];
	struct trc_info info;
	uint32_t *first;     /* threads + 1 entries */
	struct trc_acc *acc; /* accesses, grouped by thread, file order within one */
};

/* ---- parser ------------------------------------------------------------ */
struct px {
	const char *p, *end, *ls, *le; /* cursor; current line [ls, le) */
	uint64_t line;
	const char *file;
	char **err;
};

static int px_err(struct px *x, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int px_err(struct px *x, const char *at, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (at)
		return set_err(x->err, "%s:%" PRIu64 ": column %d: %s", x->file, x->line, (int)(at - x->ls) + 1, msg);
	return set_err(x->err, "%s:%" PRIu64 ": %s", x->file, x->line, msg);
}

/* Next non-blank, non-comment line into [ls, le); false at the end. */
static bool next_line(struct px *x)
{
	while (x->p < x->end) {
		const char *nl = memchr(x->p, '\n', (size_t)(x->end - x->p));
		x->ls = x->p;
		x->le = nl ? nl : x->end;
		x->p = nl ? nl + 1 : x->end;
		x->line++;
		while (x->le > x->ls && (x->le[-1] == '\r' || x->le[-1] == ' ' || x->le[-1] == '\t'))
			x->le--;
		while (x->ls < x->le && (*x->ls == ' ' || *x->ls == '\t'))
			x->ls++;
		if (x->ls < x->le && *x->ls != '#')
			return true;
	}
	return false;
}

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* The token at p for messages: "end of line", or "end of file (truncated?)"
 * when the line is the file's last and has no newline. */
static const char *tok_at(const struct px *x, const char *p, char *buf, size_t n)
{
	size_t i = 0;
	while (p < x->le && *p != ' ' && *p != '\t' && i + 1 < n && i < 40)
		buf[i++] = *p++;
	buf[i] = 0;
	if (i)
		return buf;
	return x->le == x->end ? "end of file (truncated?)" : "end of line";
}

/* An unsigned number (decimal, or hex after 0x when hex_ok) at *pp ending at
 * a blank or the line's end; false on anything else or overflow. */
static bool number(const struct px *x, const char **pp, bool hex_ok, uint64_t *v)
{
	const char *p = *pp;
	unsigned base = 10;
	if (hex_ok && x->le - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	const char *s = p;
	uint64_t r = 0;
	for (; p < x->le && *p != ' ' && *p != '\t'; p++) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			return false;
		if (r > (UINT64_MAX - d) / base)
			return false;
		r = r * base + d;
	}
	if (p == s)
		return false;
	*v = r;
	*pp = p;
	return true;
}

static int field(struct px *x, const char **pp, bool hex_ok, const char *what, uint64_t *v)
{
	char b[48];
	*pp = skip_ws(*pp, x->le);
	const char *at = *pp;
	if (!number(x, pp, hex_ok, v))
		return px_err(x, at, "expected %s, got '%s'", what, tok_at(x, at, b, sizeof b));
	return 0;
}

struct rec {
	uint64_t addr;
	uint32_t gid;
	uint8_t store, bytes;
};

static int header(struct px *x, struct trc_info *in)
{
	char b[48];
	if (!next_line(x)) {
		x->line = x->line ? x->line : 1;
		return px_err(x, NULL, "empty file: expected the header 'blocksize: X Y Z'");
	}
	const char *p = x->ls;
	static const char kw[] = "blocksize";
	if ((size_t)(x->le - p) < sizeof kw - 1 || memcmp(p, kw, sizeof kw - 1) != 0)
		return px_err(x, p, "expected the header 'blocksize: X Y Z', got '%s'", tok_at(x, p, b, sizeof b));
	p += sizeof kw - 1;
	if (p < x->le && *p == ':')
		p++;
	static const char *const dims[3] = {"the block size X", "the block size Y", "the block size Z"};
	uint64_t tpb = 1;
	for (int i = 0; i < 3; i++) {
		uint64_t v;
		const char *at = skip_ws(p, x->le);
		if (field(x, &p, false, dims[i], &v))
			return -1;
		if (v == 0 || v > TRC_MAX_BLOCK)
			return px_err(x, at, "%s must be 1 to %u, got %" PRIu64, dims[i], TRC_MAX_BLOCK, v);
		in->block[i] = (uint32_t)v;
		tpb *= v;
	}
	p = skip_ws(p, x->le);
	if (p < x->le)
		return px_err(x, p, "expected end of line after 'blocksize X Y Z', got '%s'", tok_at(x, p, b, sizeof b));
	if (tpb > TRC_MAX_BLOCK)
		return px_err(x, NULL, "block of %" PRIu64 " threads, at most %u", tpb, TRC_MAX_BLOCK);
	in->tpb = (uint32_t)tpb;
	return 0;
}

static int access_line(struct px *x, struct rec *r)
{
	char b[48];
	const char *p = x->ls, *at;
	uint64_t gid, dir, addr, bytes;
	at = p;
	if (field(x, &p, false, "a thread id", &gid))
		return -1;
	if (gid >= TRC_MAX_THREADS)
		return px_err(x, at, "thread id %" PRIu64 " out of range (below %u)", gid, TRC_MAX_THREADS);
	at = skip_ws(p, x->le);
	if (field(x, &p, false, "a direction (0 load, 1 store)", &dir))
		return -1;
	if (dir > 1)
		return px_err(x, at, "expected a direction (0 load, 1 store), got %" PRIu64, dir);
	if (field(x, &p, true, "a byte address", &addr))
		return -1;
	at = skip_ws(p, x->le);
	if (field(x, &p, false, "an access size in bytes", &bytes))
		return -1;
	if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
		return px_err(x, at, "expected an access size of 1, 2, 4, 8 or 16 bytes, got %" PRIu64, bytes);
	p = skip_ws(p, x->le);
	if (p < x->le)
		return px_err(x, p, "expected end of line after 'thread dir addr bytes', got '%s'", tok_at(x, p, b, sizeof b));
	*r = (struct rec){addr, (uint32_t)gid, (uint8_t)dir, (uint8_t)bytes};
	return 0;
}

struct trc *trc_parse(const char *text, size_t len, const char *file, char **err)
{
	struct trc *t = xcalloc(1, sizeof *t);
	snprintf(t->file, sizeof t->file, "%s", file ? file : "trace");
	struct px x = {.p = text, .end = text + len, .file = t->file, .err = err};
	struct trc_info *in = &t->info;
	struct rec *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t lines = 0;
	if (header(&x, in))
		goto fail;
	while (next_line(&x)) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			v = xrealloc(v, cap * sizeof *v);
		}
		if (access_line(&x, &v[n]))
			goto fail;
		if (v[n].gid + 1 > in->threads)
			in->threads = v[n].gid + 1;
		n++;
	}
	lines = x.line;
	if (n == 0) {
		x.line = lines;
		px_err(&x, NULL, "no accesses after the header: expected 'thread dir addr bytes' lines (truncated?)");
		goto fail;
	}
	in->lines = lines;
	in->accesses = n;
	in->blocks = (uint32_t)((in->threads + in->tpb - 1) / in->tpb);
	t->first = xcalloc((size_t)in->threads + 1, sizeof *t->first);
	for (size_t i = 0; i < n; i++) {
		t->first[v[i].gid + 1]++;
		in->stores += v[i].store;
	}
	in->loads = n - in->stores;
	in->addr_lo = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		uint64_t a = v[i].addr, last = a > UINT64_MAX - (v[i].bytes - 1u) ? UINT64_MAX : a + (v[i].bytes - 1u);
		in->addr_lo = MIN(in->addr_lo, a);
		in->addr_last = MAX(in->addr_last, last);
	}
	for (uint32_t g = 0; g < in->threads; g++) {
		if (t->first[g + 1] > in->max_per_thread)
			in->max_per_thread = t->first[g + 1];
		t->first[g + 1] += t->first[g];
	}
	t->acc = xmalloc(n * sizeof *t->acc);
	uint32_t *fill = xmalloc((size_t)in->threads * sizeof *fill);
	memcpy(fill, t->first, (size_t)in->threads * sizeof *fill);
	for (size_t i = 0; i < n; i++)
		t->acc[fill[v[i].gid]++] = (struct trc_acc){v[i].addr, v[i].store, v[i].bytes};
	free(fill);
	free(v);
	return t;
fail:
	free(v);
	trc_free(t);
	return NULL;
}

void trc_free(struct trc *t)
{
	if (!t)
		return;
	free(t->first);
	free(t->acc);
	free(t);
}

const struct trc_info *trc_get_info(const struct trc *t) { return &t->info; }
const char *trc_file(const struct trc *t) { return t->file; }

const struct trc_acc *trc_thread(const struct trc *t, uint32_t gid, uint32_t *n)
{
	if (gid >= t->info.threads) {
		*n = 0;
		return NULL;
	}
	*n = t->first[gid + 1] - t->first[gid];
	return t->acc + t->first[gid];
}

/* ---- replay ------------------------------------------------------------ */
enum { STMT_LD, STMT_ST, NSTMTS };
#define TRC_REG 1 /* every load writes it, every later access reads it */

static uint32_t r_ctas(const void *impl) { return ((const struct trc *)impl)->info.blocks; }
static uint32_t r_tpc(const void *impl) { return ((const struct trc *)impl)->info.tpb; }
static unsigned r_nregs(const void *impl) { (void)impl; return 8; }
static unsigned r_shmem(const void *impl) { (void)impl; return 0; }
static unsigned r_nstmts(const void *impl) { (void)impl; return NSTMTS; }
static const char *r_text(const void *impl, unsigned stmt)
{
	(void)impl;
	return stmt == STMT_LD ? "ld (trc: each thread's next access)"
	       : stmt == STMT_ST ? "st (trc: each thread's next access)" : "exit";
}

/* The instruction at (access index *k, sub-instruction *sub) of warp w, or
 * the first one after it: lanes whose k-th access has the sub-th distinct
 * (direction, size) of index k, in lane order. Advances *k / *sub past empty
 * positions; false when no lane has an access at *k or later. */
static bool inst_at(const struct trc *t, const struct kwarp *w, uint64_t *k, uint32_t *sub, struct winst *o)
{
	uint64_t tid0 = (uint64_t)w->cta * t->info.tpb + (uint64_t)w->warp_in_cta * w->warp_size;
	for (;;) {
		uint16_t cls[KMAX_LANES]; /* (store << 8 | bytes) of each lane's k-th access, 0 = none */
		uint16_t seen[KMAX_LANES];
		unsigned nseen = 0, more = 0;
		for (unsigned l = 0; l < w->warp_size; l++) {
			cls[l] = 0;
			uint32_t n;
			const struct trc_acc *a = (w->full_mask >> l & 1) && tid0 + l < t->info.threads
							  ? trc_thread(t, (uint32_t)(tid0 + l), &n) : NULL;
			if (!a || n <= *k)
				continue;
			more++;
			cls[l] = (uint16_t)(a[*k].store << 8 | a[*k].bytes);
			unsigned j = 0;
			while (j < nseen && seen[j] != cls[l])
				j++;
			if (j == nseen)
				seen[nseen++] = cls[l];
		}
		if (!more)
			return false;
		if (*sub >= nseen) {
			++*k;
			*sub = 0;
			continue;
		}
		uint16_t want = seen[*sub];
		o->active = 0;
		for (unsigned l = 0; l < w->warp_size; l++)
			if (cls[l] == want) {
				uint32_t n;
				o->active |= 1ull << l;
				o->addr[l] = trc_thread(t, (uint32_t)(tid0 + l), &n)[*k].addr;
			}
		bool st = want >> 8;
		o->op = st ? KOP_ST : KOP_LD;
		o->cop = KCOP_DEFAULT;
		o->size = (uint8_t)(want & 0xff);
		o->stmt = st ? STMT_ST : STMT_LD;
		o->pc = WINST_PC_STMT;
		o->alu_cycles = 0;
		o->ndst = !st;
		o->dst = TRC_REG;
		o->nsrc = *k > 0 || *sub > 0; /* the first access of a warp waits for nothing */
		o->src[0] = TRC_REG;
		return true;
	}
}

/* Show the next instruction (statement and lanes) in the warps panel. */
static void peek(const struct trc *t, struct kwarp *w)
{
	struct winst o;
	uint64_t k = w->tpos;
	uint32_t sub = w->tleft;
	if (!w->exited && inst_at(t, w, &k, &sub, &o)) {
		w->pc = o.stmt;
		w->mask = o.active;
	} else {
		w->pc = NSTMTS;
	}
}

static void r_start(const void *impl, struct kwarp *w, uint32_t cta, uint32_t wic, unsigned warp_size)
{
	const struct trc *t = impl;
	memset(w, 0, sizeof *w);
	w->cta = cta;
	w->warp_in_cta = wic;
	w->warp_size = (uint8_t)warp_size;
	uint32_t first = wic * warp_size, lanes = first < t->info.tpb ? t->info.tpb - first : 0;
	if (lanes > warp_size)
		lanes = warp_size;
	w->full_mask = lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
	w->mask = w->full_mask;
	peek(t, w);
}

static bool r_next(const void *impl, struct kwarp *w, struct winst *o)
{
	const struct trc *t = impl;
	uint64_t k = w->tpos;
	uint32_t sub = w->tleft;
	if (w->exited || !inst_at(t, w, &k, &sub, o)) {
		w->exited = true;
		w->pc = NSTMTS;
		o->op = KOP_EXIT;
		o->cop = KCOP_DEFAULT;
		o->pc = WINST_PC_NONE;
		o->active = w->full_mask;
		o->ndst = o->nsrc = 0;
		return false;
	}
	w->tpos = k;
	w->tleft = sub + 1;
	peek(t, w);
	return true;
}

static bool r_range(const void *impl, unsigned i, struct wl_range *out)
{
	const struct trc *t = impl;
	if (i)
		return false;
	*out = (struct wl_range){t->info.addr_lo, t->info.addr_last, t->file, "global"};
	return true;
}

const struct wl_ops trc_wl_ops = {
	.ctas = r_ctas,
	.threads_per_cta = r_tpc,
	.nregs = r_nregs,
	.shmem_bytes = r_shmem,
	.warp_start = r_start,
	.warp_next = r_next,
	.stmt_text = r_text,
	.nstmts = r_nstmts,
	.range = r_range,
};

/* ---- model input --------------------------------------------------------- */
struct rdm_trace *trc_rdm_trace(const struct trc *t, const struct rdm_cfg *c)
{
	struct rdm_trace *r = rdm_trace_new();
	uint32_t B = t->info.tpb, ws = c->warp_size;
	if (ws == 0 || ws > KMAX_LANES)
		return r;
	uint32_t nb = rdm_blocks_modelled(c, B, t->info.blocks);
	uint32_t A = MAX(1u, MIN(c->max_blocks, c->max_threads / B));
	uint32_t wpb = (B + ws - 1) / ws;
	const struct trc_acc *acc[KMAX_LANES];
	uint32_t n[KMAX_LANES], pos[KMAX_LANES];
	uint64_t seen[KMAX_LANES];
	bool shift = is_pow2(c->line); /* line = address / line size, as a shift when it can */
	unsigned sh = shift ? (unsigned)__builtin_ctz(c->line) : 0;
	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t w = 0; w < wpb; w++) {
			rdm_trace_warp(r, b / A);
			for (uint32_t l = 0; l < ws; l++) {
				uint32_t tib = w * ws + l;
				acc[l] = tib < B ? trc_thread(t, b * B + tib, &n[l]) : NULL;
				if (!acc[l])
					n[l] = 0;
				pos[l] = 0;
			}
			for (;;) { /* instruction k: each lane's next load */
				unsigned bytes = 0;
				for (uint32_t l = 0; l < ws; l++) {
					while (pos[l] < n[l] && acc[l][pos[l]].store)
						pos[l]++;
					if (pos[l] < n[l])
						bytes = MAX(bytes, acc[l][pos[l]].bytes);
				}
				if (!bytes)
					break;
				rdm_trace_inst(r);
				unsigned g = bytes <= 4 ? ws : bytes <= 8 ? 16 : 8;
				for (uint32_t g0 = 0; g0 < ws; g0 += g) {
					unsigned ns = 0;
					for (uint32_t l = g0; l < g0 + g && l < ws; l++) {
						if (pos[l] >= n[l])
							continue;
						uint64_t a = acc[l][pos[l]++].addr;
						uint64_t line = shift ? a >> sh : a / c->line;
						unsigned j = 0;
						while (j < ns && seen[j] != line)
							j++;
						if (j == ns) {
							seen[ns++] = line;
							rdm_trace_line(r, line);
						}
					}
				}
			}
		}
	return r;
}
