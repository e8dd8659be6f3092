/*
 * trace.c: Accel-Sim .traceg kernels: the one-pass indexer behind
 * trace_wl_ops (see trace.h for the layout and docs/TRACES.md for the format
 * subset). One instruction line is parsed in trace_line.c (its format is
 * described there), the replay in trace_replay.c.
 *
 * Replay: kwarp.tpos is the byte offset of the warp's next instruction line,
 * kwarp.tleft how many remain; kwarp.pc and kwarp.mask are the next line's
 * statement (distinct PC) and mask, for the warps panel.
 */
#include "trace.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "trace_int.h"
#include "sim/util.h"

/* ---- PC table ------------------------------------------------------------ */

static uint32_t pc_hash(uint64_t pc, uint32_t cap) { return (uint32_t)((pc * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1); }

bool trace_streamed(const struct trace_kernel *k) { return k->text == NULL; }

int trace_pc_find(const struct trace_kernel *k, uint64_t pc)
{
	if (!k->hcap)
		return -1;
	for (uint32_t i = pc_hash(pc, k->hcap);; i = (i + 1) & (k->hcap - 1)) {
		if (!k->hval[i])
			return -1;
		if (k->hkey[i] == pc)
			return (int)k->hval[i] - 1;
	}
}

static void pc_insert(struct trace_kernel *k, uint64_t pc, unsigned stmt)
{
	if ((k->nst + 1) * 2 > k->hcap) {
		uint32_t oc = k->hcap, nc = oc ? oc * 2 : 256;
		uint64_t *ok = k->hkey;
		uint32_t *ov = k->hval;
		k->hkey = xcalloc(nc, sizeof *k->hkey);
		k->hval = xcalloc(nc, sizeof *k->hval);
		k->hcap = nc;
		for (uint32_t i = 0; i < oc; i++)
			if (ov[i]) {
				uint32_t j = pc_hash(ok[i], nc);
				while (k->hval[j])
					j = (j + 1) & (nc - 1);
				k->hkey[j] = ok[i];
				k->hval[j] = ov[i];
			}
		free(ok);
		free(ov);
	}
	uint32_t j = pc_hash(pc, k->hcap);
	while (k->hval[j])
		j = (j + 1) & (k->hcap - 1);
	k->hkey[j] = pc;
	k->hval[j] = stmt + 1;
}

static unsigned intern_op(struct trace_kernel *k, const char *op, size_t n)
{
	for (unsigned i = 0; i < k->nop; i++)
		if (strlen(k->op[i].name) == n && memcmp(k->op[i].name, op, n) == 0)
			return i;
	if (k->nop == k->capop) {
		k->capop = k->capop ? k->capop * 2 : 32;
		k->op = xrealloc(k->op, k->capop * sizeof *k->op);
	}
	struct topc *o = &k->op[k->nop];
	o->name = xmalloc(n + 1);
	memcpy(o->name, op, n);
	o->name[n] = 0;
	unsigned size, flags;
	o->cls = (uint8_t)trace_classify(op, n, &size, &flags);
	o->unit = (uint8_t)trace_unit(op, n, o->cls);
	o->size = (uint8_t)size;
	o->flags = (uint8_t)flags;
	if (o->cls == TC_UNKNOWN) {
		char *u = k->info.unknown;
		size_t ul = strlen(u);
		if (ul + n + 3 < sizeof k->info.unknown)
			snprintf(u + ul, sizeof k->info.unknown - ul, "%s%s", ul ? ", " : "", o->name);
		else if (ul + 5 < sizeof k->info.unknown && !strstr(u, "..."))
			snprintf(u + ul, sizeof k->info.unknown - ul, ", ...");
	}
	return k->nop++;
}

/* Statement of (pc, opcode); -1 with *why when the PC was seen with another opcode. */
static int stmt_of(struct trace_kernel *k, const struct tline *t, const char **why)
{
	int s = trace_pc_find(k, t->pc);
	if (s >= 0) {
		const char *nm = k->op[k->st_op[s]].name;
		if (strlen(nm) != t->oplen || memcmp(nm, t->op, t->oplen) != 0) {
			*why = nm;
			return -1;
		}
		return s;
	}
	if (k->nst >= MAX_STMTS) {
		*why = NULL;
		return -1;
	}
	if (k->nst == k->capst) {
		k->capst = k->capst ? k->capst * 2 : 64;
		k->st_pc = xrealloc(k->st_pc, k->capst * sizeof *k->st_pc);
		k->st_op = xrealloc(k->st_op, k->capst * sizeof *k->st_op);
		k->st_text = xrealloc(k->st_text, k->capst * sizeof *k->st_text);
	}
	unsigned o = intern_op(k, t->op, t->oplen);
	k->st_pc[k->nst] = t->pc;
	k->st_op[k->nst] = (uint16_t)o;
	snprintf(k->st_text[k->nst], sizeof k->st_text[0], "%04" PRIx64 " %s", t->pc, k->op[o].name);
	pc_insert(k, t->pc, k->nst);
	return (int)k->nst++;
}

/* ---- index pass ----------------------------------------------------------- */

struct ix {
	struct trace_kernel *k;
	const char *b0;      /* the text held now; b0[0] is byte `base` of the trace */
	uint64_t base;
	const char *p, *end; /* next line; [b0, end) is what is held */
	const char *ls, *le; /* current line [ls, le) */
	uint64_t line;
	char **err;
	/* streaming (trace_index_stream): the window is buf[0, cap) */
	trace_read_fn rd;
	void *rctx;
	char *buf;
	size_t cap;
	bool eof, rfail;
};

#define IX_MAX_LINE (16u << 20)

/* Offset in the trace of a pointer into the held text. */
static uint64_t ix_off(const struct ix *x, const char *q) { return x->base + (uint64_t)(q - x->b0); }

/* Streaming: keep the unread tail [p, end), read more after it. */
static bool refill(struct ix *x)
{
	size_t keep = (size_t)(x->end - x->p);
	x->base += (uint64_t)(x->p - x->b0);
	if (keep == x->cap) {
		if (x->cap >= IX_MAX_LINE) {
			x->rfail = true;
			set_err(x->err, "%s: byte %" PRIu64 ": a line longer than %u MB: not an Accel-Sim trace?", x->k->file,
				x->base, IX_MAX_LINE >> 20);
			return false;
		}
		char *nb = xmalloc(x->cap * 2);
		memcpy(nb, x->p, keep);
		free(x->buf);
		x->buf = nb;
		x->cap *= 2;
	} else {
		memmove(x->buf, x->p, keep);
	}
	long n = x->rd(x->rctx, x->buf + keep, x->cap - keep, x->err);
	if (n < 0) {
		x->rfail = true;
		return false;
	}
	x->eof = n == 0;
	x->b0 = x->p = x->buf;
	x->end = x->buf + keep + n;
	return true;
}

static bool next_line(struct ix *x)
{
	const char *nl;
	for (;;) {
		nl = x->p < x->end ? memchr(x->p, '\n', (size_t)(x->end - x->p)) : NULL;
		if (nl || !x->rd || x->eof)
			break;
		if (!refill(x))
			return false;
	}
	if (x->p >= x->end)
		return false;
	x->ls = x->p;
	x->le = nl ? nl : x->end;
	x->p = nl ? nl + 1 : x->end;
	x->line++;
	while (x->le > x->ls && (x->le[-1] == '\r' || x->le[-1] == ' ' || x->le[-1] == '\t'))
		x->le--;
	while (x->ls < x->le && (*x->ls == ' ' || *x->ls == '\t'))
		x->ls++;
	return true;
}

/* "file:line: msg" */
static int ix_err(struct ix *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ix_err(struct ix *x, const char *fmt, ...)
{
	if (x->rfail)
		return -1; /* the reader's message (an .xz error with its position) stands */
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return set_err(x->err, "%s:%" PRIu64 ": %s", x->k->file, x->line, msg);
}

/* The token at p, quoted for messages ('' = end of line). */
static const char *tok_at(const char *p, const char *e, char *buf, size_t n)
{
	size_t i = 0;
	while (p < e && *p != ' ' && *p != '\t' && i + 1 < n && i < 40)
		buf[i++] = *p++;
	buf[i] = 0;
	return i ? buf : "end of line";
}

static bool starts(const char *s, const char *e, const char *w)
{
	size_t n = strlen(w);
	return (size_t)(e - s) >= n && memcmp(s, w, n) == 0;
}

/* "key = value" after a prefix word: returns the value start or NULL. */
static const char *after_eq(const char *s, const char *e)
{
	const char *q = memchr(s, '=', (size_t)(e - s));
	if (!q)
		return NULL;
	q++;
	while (q < e && (*q == ' ' || *q == '\t'))
		q++;
	return q;
}

static bool parse_u64(const char *s, const char *e, int base, uint64_t *v)
{
	char buf[40];
	size_t n = (size_t)(e - s);
	if (n == 0 || n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	char *end;
	if (buf[0] == '-')
		return false;
	unsigned long long x = strtoull(buf, &end, base);
	while (*end == ' ')
		end++;
	if (end == buf || *end)
		return false;
	*v = x;
	return true;
}

static bool parse_dim3(const char *s, const char *e, uint32_t d[3], bool paren)
{
	char buf[80];
	size_t n = (size_t)(e - s);
	if (n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	unsigned long a, b, c;
	int used = 0;
	int got = paren ? sscanf(buf, " (%lu , %lu , %lu ) %n", &a, &b, &c, &used)
			: sscanf(buf, " %lu , %lu , %lu %n", &a, &b, &c, &used);
	if (got != 3 || buf[used] || strchr(buf, '-') || a > 0x7fffffffUL || b > 0xffffUL || c > 0xffffUL)
		return false;
	d[0] = (uint32_t)a;
	d[1] = (uint32_t)b;
	d[2] = (uint32_t)c;
	return true;
}

static int header_line(struct ix *x)
{
	struct trace_hdr *h = &x->k->h;
	const char *s = x->ls + 1, *e = x->le, *v = after_eq(s, e);
	if (!v)
		return ix_err(x, "expected a header line '-key = value', got '%.*s'", (int)MIN(e - x->ls, 60), x->ls);
	uint64_t u = 0;
	bool ok = true;
	if (starts(s, e, "kernel name")) {
		snprintf(h->name, sizeof h->name, "%.*s", (int)(e - v), v);
	} else if (starts(s, e, "kernel id")) {
		ok = parse_u64(v, e, 10, &u) && u <= 0xffffffffu;
		h->kernel_id = (unsigned)u;
	} else if (starts(s, e, "grid dim")) {
		if (!parse_dim3(v, e, h->grid, true) || !h->grid[0] || !h->grid[1] || !h->grid[2])
			return ix_err(x, "expected '-grid dim = (x,y,z)' with positive sizes, got '%.*s'", (int)MIN(e - v, 40), v);
	} else if (starts(s, e, "block dim")) {
		if (!parse_dim3(v, e, h->block, true) || !h->block[0] || !h->block[1] || !h->block[2] ||
		    (uint64_t)h->block[0] * h->block[1] * h->block[2] > 4096)
			return ix_err(x, "expected '-block dim = (x,y,z)' with 1 to 4096 threads, got '%.*s'", (int)MIN(e - v, 40), v);
	} else if (starts(s, e, "shmem base_addr")) {
		ok = parse_u64(v, e, 16, &h->shmem_base);
	} else if (starts(s, e, "shmem")) {
		ok = parse_u64(v, e, 10, &u) && u <= (1u << 24);
		h->shmem = (unsigned)u;
	} else if (starts(s, e, "nregs")) {
		ok = parse_u64(v, e, 10, &u) && u <= 256;
		h->nregs = (unsigned)u;
	} else if (starts(s, e, "binary version")) {
		ok = parse_u64(v, e, 10, &u) && u <= 100000;
		h->binary_version = (unsigned)u;
	} else if (starts(s, e, "local mem base_addr")) {
		ok = parse_u64(v, e, 16, &h->local_base);
	} else if (starts(s, e, "accelsim tracer version")) {
		ok = parse_u64(v, e, 10, &u) && u <= 1000;
		h->tracer_version = (unsigned)u;
		if (ok && u < 3)
			return ix_err(x, "tracer version %u: lines that start with thread-block ids (versions 1-2) are "
					 "not supported; re-run the Accel-Sim post-traces-processing tool", (unsigned)u);
	} else if (starts(s, e, "enable lineinfo")) {
		ok = parse_u64(v, e, 10, &u) && u <= 1;
		h->lineinfo = (int)u;
	} /* other keys (cuda stream id, nvbit version, ...) are informational */
	if (!ok) {
		const char *ke = memchr(x->ls, '=', (size_t)(e - x->ls));
		while (ke > x->ls && (ke[-1] == ' ' || ke[-1] == '\t'))
			ke--;
		return ix_err(x, "bad value '%.*s' for '%.*s'", (int)MIN(e - v, 40), v, (int)MIN(ke - x->ls, 40), x->ls);
	}
	return 0;
}

/* Size checks once the header is complete (at the first #BEGIN_TB). */
static int header_done(struct ix *x)
{
	struct trace_kernel *k = x->k;
	if (!k->h.grid[0])
		return ix_err(x, "expected a '-grid dim = (x,y,z)' header line before the first #BEGIN_TB");
	if (!k->h.block[0])
		return ix_err(x, "expected a '-block dim = (x,y,z)' header line before the first #BEGIN_TB");
	uint64_t n = (uint64_t)k->h.grid[0] * k->h.grid[1] * k->h.grid[2];
	/* Every thread block takes at least "#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n". */
	if (k->len ? n > k->len / 32 + 1 : n > (1u << 24))
		return ix_err(x, "grid (%u,%u,%u) has %" PRIu64 " thread blocks, more than a %zu-byte file can hold",
			      k->h.grid[0], k->h.grid[1], k->h.grid[2], n, k->len);
	k->nctas = (uint32_t)n;
	k->tpc = k->h.block[0] * k->h.block[1] * k->h.block[2];
	k->wpc = (k->tpc + TLANES - 1) / TLANES;
	size_t nw = (size_t)k->nctas * k->wpc;
	k->woff = xmalloc(nw * sizeof *k->woff);
	k->cbeg = xcalloc(k->nctas, sizeof *k->cbeg);
	k->cend = xcalloc(k->nctas, sizeof *k->cend);
	k->wn = xcalloc(nw, sizeof *k->wn);
	for (size_t i = 0; i < nw; i++)
		k->woff[i] = UINT64_MAX;
	k->info.ctas = k->nctas;
	k->info.warps_per_cta = k->wpc;
	return 0;
}

/* The n instruction lines of one warp. */
static int warp_insts(struct ix *x, size_t wi, uint64_t n, uint64_t insts_line, const char *where)
{
	struct trace_kernel *k = x->k;
	struct tline t;
	k->woff[wi] = ix_off(x, x->p);
	k->wn[wi] = (uint32_t)n;
	for (uint64_t i = 0; i < n; i++) {
		do {
			if (!next_line(x))
				return ix_err(x, "file ends after %" PRIu64 " of the %" PRIu64 " instructions of %s "
						 "('insts' at line %" PRIu64 "): truncated?", i, n, where, insts_line);
		} while (x->ls == x->le);
		if (*x->ls == '#' || starts(x->ls, x->le, "warp") || starts(x->ls, x->le, "insts"))
			return ix_err(x, "expected instruction %" PRIu64 " of %" PRIu64 " of %s ('insts' at line %" PRIu64
					 "), got '%.*s'", i + 1, n, where, insts_line, (int)MIN(x->le - x->ls, 40), x->ls);
		struct cur c = {x->ls, x->le, NULL, NULL};
		if (!trace_parse_inst(&c, k->h.lineinfo, &t)) {
			char b[48];
			return ix_err(x, "column %d: expected %s, got '%s'%s", (int)(c.at - x->ls) + 1, c.what,
				      tok_at(c.at, x->le, b, sizeof b),
				      x->p >= x->end ? " (the last line of the file: truncated?)" : "");
		}
		const char *why = NULL;
		int s = stmt_of(k, &t, &why);
		if (s < 0)
			return why ? ix_err(x, "PC %04" PRIx64 " is %.*s here but %s earlier", t.pc, (int)MIN(t.oplen, 40),
					    t.op, why)
				   : ix_err(x, "more than %d distinct PCs", MAX_STMTS);
		const struct topc *o = &k->op[k->st_op[s]];
		k->info.insts++;
		k->info.by_class[o->cls]++;
		trace_foot_note(k, &t, o);
		if ((o->flags & (TF_CG | TF_CV)) && (o->cls == TC_LDG || o->cls == TC_STG || o->cls == TC_LD || o->cls == TC_ST ||
						   o->cls == TC_LDL || o->cls == TC_STL))
			k->info.cg++;
	}
	return 0;
}

static int tb_body(struct ix *x, uint64_t begin_line)
{
	struct trace_kernel *k = x->k;
	int64_t cta = -1, warp = -1;
	uint32_t tb[3] = {0, 0, 0};
	uint64_t beg = ix_off(x, x->ls);
	char where[96];
	while (next_line(x)) {
		const char *s = x->ls, *e = x->le;
		if (s == e)
			continue;
		if (starts(s, e, "#END_TB")) {
			if (cta < 0)
				return ix_err(x, "#END_TB without a 'thread block = x,y,z' line (block opened at line %" PRIu64 ")",
					      begin_line);
			uint64_t end = ix_off(x, x->p);
			k->cbeg[cta] = beg;
			k->cend[cta] = end;
			if (end - beg > k->info.max_tb_bytes) {
				k->info.max_tb_bytes = end - beg;
				k->info.max_tb = (uint32_t)cta;
			}
			return 0;
		}
		if (starts(s, e, "#BEGIN_TB"))
			return ix_err(x, "#BEGIN_TB before the #END_TB of the thread block opened at line %" PRIu64, begin_line);
		if (*s == '#')
			continue;
		const char *v = after_eq(s, e);
		if (starts(s, e, "thread block") && v) {
			if (cta >= 0)
				return ix_err(x, "a second 'thread block' line in the block opened at line %" PRIu64, begin_line);
			if (!parse_dim3(v, e, tb, false))
				return ix_err(x, "expected 'thread block = x,y,z', got '%.*s'", (int)MIN(e - s, 40), s);
			if (tb[0] >= k->h.grid[0] || tb[1] >= k->h.grid[1] || tb[2] >= k->h.grid[2])
				return ix_err(x, "thread block (%u,%u,%u) is outside the grid (%u,%u,%u)", tb[0], tb[1], tb[2],
					      k->h.grid[0], k->h.grid[1], k->h.grid[2]);
			cta = tb[0] + (int64_t)k->h.grid[0] * (tb[1] + (int64_t)k->h.grid[1] * tb[2]);
			if (k->woff[(size_t)cta * k->wpc] != UINT64_MAX)
				return ix_err(x, "thread block (%u,%u,%u) appears twice", tb[0], tb[1], tb[2]);
			/* Mark present: warps absent from the block have no instructions. */
			for (uint32_t w = 0; w < k->wpc; w++)
				k->woff[(size_t)cta * k->wpc + w] = UINT64_MAX - 1;
		} else if (starts(s, e, "warp") && v) {
			uint64_t w;
			if (cta < 0)
				return ix_err(x, "'warp' before the 'thread block = x,y,z' line");
			if (!parse_u64(v, e, 10, &w) || w >= k->wpc)
				return ix_err(x, "expected 'warp = N' with N < %u (block of %u threads), got '%.*s'", k->wpc,
					      k->tpc, (int)MIN(e - s, 40), s);
			if (k->woff[(size_t)cta * k->wpc + w] != UINT64_MAX - 1)
				return ix_err(x, "warp %" PRIu64 " appears twice in thread block (%u,%u,%u)", w, tb[0], tb[1], tb[2]);
			warp = (int64_t)w;
		} else if (starts(s, e, "insts") && v) {
			uint64_t n;
			if (warp < 0)
				return ix_err(x, "'insts' before a 'warp = N' line");
			if (!parse_u64(v, e, 10, &n) || n > 0xffffffffu)
				return ix_err(x, "expected 'insts = N', got '%.*s'", (int)MIN(e - s, 40), s);
			snprintf(where, sizeof where, "warp %" PRId64 " of thread block (%u,%u,%u)", warp, tb[0], tb[1], tb[2]);
			if (warp_insts(x, (size_t)cta * k->wpc + (size_t)warp, n, x->line, where))
				return -1;
			warp = -1;
		} else {
			return ix_err(x, "expected 'thread block = x,y,z', 'warp = N', 'insts = N' or #END_TB, got '%.*s'",
				      (int)MIN(e - s, 40), s);
		}
	}
	return ix_err(x, "file ends inside the thread block opened at line %" PRIu64 " (no #END_TB): truncated?", begin_line);
}

static struct trace_kernel *index_run(struct ix *x);

struct trace_kernel *trace_index(const char *text, size_t len, const char *file, char **err)
{
	struct trace_kernel *k = xcalloc(1, sizeof *k);
	k->text = text;
	k->len = len;
	snprintf(k->file, sizeof k->file, "%s", file ? file : "trace");
	struct ix x = {.k = k, .b0 = text, .p = text, .end = text + len, .err = err};
	return index_run(&x);
}

struct trace_kernel *trace_index_stream(trace_read_fn rd, void *ctx, uint64_t size, const char *file, char **err)
{
	struct trace_kernel *k = xcalloc(1, sizeof *k);
	k->len = size;
	snprintf(k->file, sizeof k->file, "%s", file ? file : "trace");
	struct ix x = {.k = k, .err = err, .rd = rd, .rctx = ctx, .cap = 1u << 20};
	x.buf = xmalloc(x.cap);
	x.b0 = x.p = x.end = x.buf;
	k = index_run(&x);
	free(x.buf);
	return k;
}

static struct trace_kernel *index_run(struct ix *x_)
{
	struct ix x = *x_;
	struct trace_kernel *k = x.k;
	bool in_header = true;
	trace_foot_init(k);
	uint64_t ntb = 0;
	while (next_line(&x)) {
		const char *s = x.ls, *e = x.le;
		if (s == e)
			continue;
		if (*s == '-') {
			if (!in_header) {
				ix_err(&x, "header line after the first thread block");
				goto fail;
			}
			if (header_line(&x))
				goto fail;
		} else if (starts(s, e, "#BEGIN_TB")) {
			if (in_header && header_done(&x))
				goto fail;
			in_header = false;
			if (tb_body(&x, x.line))
				goto fail;
			ntb++;
		} else if (*s != '#') {
			ix_err(&x, "expected %s, got '%.*s'", in_header ? "a header line '-key = value' or #BEGIN_TB" : "#BEGIN_TB",
			       (int)MIN(e - s, 40), s);
			goto fail;
		}
	}
	if (x.rfail)
		goto fail;
	if (in_header) {
		ix_err(&x, "no thread blocks (#BEGIN_TB) in the file: truncated or not an Accel-Sim .traceg?");
		goto fail;
	}
	if (ntb < k->nctas) {
		size_t nw = (size_t)k->nctas * k->wpc;
		size_t i = 0;
		while (i < nw && k->woff[i] != UINT64_MAX)
			i += k->wpc;
		uint32_t c = (uint32_t)(i / k->wpc);
		ix_err(&x, "thread block (%u,%u,%u) is missing: the file has %" PRIu64 " of the %u blocks of grid (%u,%u,%u); truncated?",
		       c % k->h.grid[0], c / k->h.grid[0] % k->h.grid[1], c / k->h.grid[0] / k->h.grid[1], ntb, k->nctas,
		       k->h.grid[0], k->h.grid[1], k->h.grid[2]);
		goto fail;
	}
	/* Warps a block did not list have no instructions. */
	for (size_t i = 0; i < (size_t)k->nctas * k->wpc; i++)
		if (k->woff[i] >= UINT64_MAX - 1) {
			k->woff[i] = 0;
			k->wn[i] = 0;
		}
	k->info.bytes = ix_off(&x, x.end);
	k->len = (size_t)k->info.bytes;
	k->info.lines = x.line;
	k->info.nopcodes = k->nop;
	k->info.nstmts = k->nst;
	trace_foot_done(k);
	x_->buf = x.buf; /* refill may have grown it */
	return k;
fail:
	x_->buf = x.buf;
	trace_free(k);
	return NULL;
}

void trace_free(struct trace_kernel *k)
{
	if (!k)
		return;
	for (unsigned i = 0; i < k->nop; i++)
		free(k->op[i].name);
	free(k->op);
	free(k->st_pc);
	free(k->st_op);
	free(k->st_text);
	free(k->hkey);
	free(k->hval);
	free(k->woff);
	free(k->wn);
	free(k->cbeg);
	free(k->cend);
	free(k);
}

const struct trace_hdr *trace_hdr(const struct trace_kernel *k) { return &k->h; }
const struct trace_info *trace_get_info(const struct trace_kernel *k) { return &k->info; }
const char *trace_file(const struct trace_kernel *k) { return k->file; }

void trace_tb_range(const struct trace_kernel *k, uint32_t cta, uint64_t *beg, uint64_t *end)
{
	*beg = cta < k->nctas ? k->cbeg[cta] : 0;
	*end = cta < k->nctas ? k->cend[cta] : 0;
}

void trace_set_fetch(struct trace_kernel *k, trace_fetch_fn fetch, void *ctx)
{
	k->fetch = fetch;
	k->fctx = ctx;
}
