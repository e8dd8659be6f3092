/*
 * trace_xz.c: .xz trace files without holding them whole (see trace_xz.h;
 * docs/TRACES.md, "Memory and speed").
 *
 *   open:   one streaming pass through liblzma feeds trace_index_stream(),
 *           which records every thread block's range [beg, end) in
 *           decompressed offsets; the text is dropped as it is indexed
 *   replay: xz_at() serves a thread block's text from a window of whole
 *           blocks (the trace list's, trace.xz_window_mb; a clock sweep drops
 *           blocks not used since it last passed them). A block not held is
 *           decoded by the window's one live decoder, which runs forward,
 *           keeping the blocks it passes while they fit; a block behind it (a
 *           rewind, a straggler, another kernel) restarts the decoder at the
 *           file's start (liblzma cannot resume inside an xz block).
 *
 * CTAs launch in order and the tracer writes them in order, so replay decodes
 * the file about once. Truncated or corrupt .xz data fails at open with the
 * compressed byte offset.
 */
#include "trace_xz.h"

#include <errno.h>
#include <inttypes.h>
#include <lzma.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "sim/util.h"

/* An xz decoder over one file. */
struct xzdec {
	FILE *f;
	const char *path;
	lzma_stream st;
	lzma_action act;
	bool done;
	uint8_t in[1 << 16];
};

/* One .xz kernel: its index, and its thread blocks while the window holds them. */
struct xz_kernel {
	struct xz_window *w;
	char *path;
	struct trace_kernel *k;
	char **tb;        /* per CTA: its text while held, else NULL */
	uint8_t *ref;     /* per CTA: used since the clock hand last passed it */
	uint32_t *order;  /* CTAs by position in the file */
	bool xz_opened;   /* the window's decoder has read this file before */
};

/* The window of decompressed thread blocks and its one live decoder. */
struct xz_window {
	uint64_t limit, used;
	unsigned hand; /* the clock hand over res */
	struct xzres {
		struct xz_kernel *t;
		uint32_t cta;
	} *res; /* blocks held */
	unsigned nres, capres;
	struct xz_kernel *dk; /* the kernel the decoder is in, NULL = none */
	struct xzdec dec;
	uint64_t dpos;    /* decompressed bytes produced so far */
	uint32_t cur;     /* next block (index into dk->order) at or after dpos */
	char *pend;       /* the block being filled (cur), NULL = skipped */
	size_t ooff, olen; /* out[ooff, olen): decoded, not yet consumed (text at dpos) */
	uint64_t loads, restarts, peak;
	char out[1 << 16];
};

static int xzdec_open(struct xzdec *d, const char *path, char **err)
{
	memset(d, 0, offsetof(struct xzdec, in));
	d->path = path;
	d->st = (lzma_stream)LZMA_STREAM_INIT;
	d->act = LZMA_RUN;
	if (!(d->f = fopen(path, "rb")))
		return set_err(err, "%s: %s", path, strerror(errno));
	if (lzma_stream_decoder(&d->st, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
		fclose(d->f);
		d->f = NULL;
		return set_err(err, "%s: cannot start the xz decoder", path);
	}
	return 0;
}

static void xzdec_close(struct xzdec *d)
{
	if (!d->f)
		return;
	lzma_end(&d->st);
	fclose(d->f);
	d->f = NULL;
}

/* Up to n decompressed bytes into buf (trace_read_fn): the count, 0 at the
 * end of the stream, -1 with *err naming the file and the compressed byte. */
static long xzdec_read(void *ctx, char *buf, size_t n, char **err)
{
	struct xzdec *d = ctx;
	if (d->done || n == 0)
		return 0;
	d->st.next_out = (uint8_t *)buf;
	d->st.avail_out = n;
	while (d->st.avail_out == n) {
		if (d->st.avail_in == 0 && d->act == LZMA_RUN) {
			d->st.next_in = d->in;
			d->st.avail_in = fread(d->in, 1, sizeof d->in, d->f);
			if (ferror(d->f))
				return set_err(err, "%s: read error at compressed byte %" PRIu64 ": %s", d->path,
					       (uint64_t)d->st.total_in, strerror(errno));
			if (feof(d->f))
				d->act = LZMA_FINISH;
		}
		lzma_ret r = lzma_code(&d->st, d->act);
		if (r == LZMA_STREAM_END) {
			d->done = true;
			break;
		}
		if (r != LZMA_OK) {
			const char *why = r == LZMA_BUF_ERROR	 ? "truncated xz data (the file ends inside the stream)"
					  : r == LZMA_FORMAT_ERROR ? "not an xz file"
					  : r == LZMA_DATA_ERROR   ? "corrupt xz data"
					  : r == LZMA_MEM_ERROR	   ? "out of memory"
								   : "xz decoding failed";
			return set_err(err, "%s: %s at compressed byte %" PRIu64 " (%" PRIu64 " bytes decompressed)", d->path,
				       why, (uint64_t)d->st.total_in, (uint64_t)d->st.total_out);
		}
	}
	return (long)(n - d->st.avail_out);
}

/* Decompressed size from the xz index at the file's end (0 if it cannot be
 * read: the streaming pass then reports what is wrong, with the position). */
static uint64_t xz_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	uint64_t r = 0;
	lzma_stream st = LZMA_STREAM_INIT;
	lzma_index *idx = NULL;
	struct stat sb;
	uint8_t in[8192];
	if (fstat(fileno(f), &sb) == 0 && lzma_file_info_decoder(&st, &idx, UINT64_MAX, (uint64_t)sb.st_size) == LZMA_OK) {
		for (int stuck = 0; stuck < 4;) {
			if (st.avail_in == 0) {
				st.next_in = in;
				st.avail_in = fread(in, 1, sizeof in, f);
				stuck += st.avail_in == 0;
			}
			lzma_ret ret = lzma_code(&st, LZMA_RUN);
			if (ret == LZMA_SEEK_NEEDED) {
				if (fseeko(f, (off_t)st.seek_pos, SEEK_SET))
					break;
				st.avail_in = 0;
			} else if (ret == LZMA_STREAM_END) {
				r = lzma_index_uncompressed_size(idx);
				break;
			} else if (ret != LZMA_OK) {
				break;
			}
		}
	}
	if (idx)
		lzma_index_end(idx, NULL);
	lzma_end(&st);
	fclose(f);
	return r;
}

char *xz_read_max(const char *path, size_t max, size_t *len, char **err)
{
	struct xzdec d;
	if (xzdec_open(&d, path, err))
		return NULL;
	size_t cap = 1 << 20, used = 0;
	char *out = xmalloc(cap);
	for (;;) {
		if (used > max) { /* decoded in pieces: never more than max + one piece */
			set_err(err, "%s: decompresses to more than %zu MB, the most a trace read whole may hold "
				     "(docs/TRACES.md)",
				path, max >> 20);
			break;
		}
		if (used == cap)
			out = xrealloc(out, cap *= 2);
		long n = xzdec_read(&d, out + used, cap - used, err);
		if (n < 0)
			break;
		if (n == 0) {
			xzdec_close(&d);
			*len = used;
			return out;
		}
		used += (size_t)n;
	}
	xzdec_close(&d);
	free(out);
	return NULL;
}

/* ---- the .xz window --------------------------------------------------------- */

static void xw_stop(struct xz_window *w)
{
	xzdec_close(&w->dec);
	if (w->pend && w->dk) {
		uint64_t b, e;
		trace_tb_range(w->dk->k, w->dk->order[w->cur], &b, &e);
		w->used -= e - b;
	}
	free(w->pend);
	w->pend = NULL;
	w->dk = NULL;
}

/* Drop held blocks until `need` more bytes fit: the clock (second-chance)
 * approximation of least recently used, O(1) per block. */
static void xw_make_room(struct xz_window *w, uint64_t need)
{
	while (w->used + need > w->limit && w->nres) {
		if (w->hand >= w->nres)
			w->hand = 0;
		struct xz_kernel *t = w->res[w->hand].t;
		uint32_t c = w->res[w->hand].cta;
		if (t->ref[c]) {
			t->ref[c] = 0;
			w->hand++;
			continue;
		}
		uint64_t b, e;
		trace_tb_range(t->k, c, &b, &e);
		free(t->tb[c]);
		t->tb[c] = NULL;
		w->used -= e - b;
		w->res[w->hand] = w->res[--w->nres];
	}
}

static void xw_hold(struct xz_window *w, struct xz_kernel *t, uint32_t c, char *text)
{
	if (w->nres == w->capres) {
		w->capres = w->capres ? w->capres * 2 : 64;
		w->res = xrealloc(w->res, w->capres * sizeof *w->res);
	}
	w->res[w->nres++] = (struct xzres){t, c};
	t->tb[c] = text;
}

/* Decode forward in kernel t until block `want` is held: blocks passed on
 * the way are kept while they fit beside it, as if used now (they are
 * usually the next to launch). */
static int xw_decode(struct xz_window *w, struct xz_kernel *t, uint32_t want, char **err)
{
	const struct trace_kernel *k = t->k;
	uint32_t n = trace_get_info(k)->ctas;
	uint64_t wb, we;
	trace_tb_range(k, want, &wb, &we);
	while (!t->tb[want]) {
		if (w->ooff == w->olen) {
			long got = xzdec_read(&w->dec, w->out, sizeof w->out, err);
			if (got <= 0)
				return got < 0 ? -1
					       : set_err(err, "%s: ends at byte %" PRIu64 ", before thread block %u (changed since it was opened?)",
							 t->path, w->dpos, want);
			w->ooff = 0;
			w->olen = (size_t)got;
		}
		/* out[ooff, olen) is the text at [dpos, o1) */
		uint64_t o1 = w->dpos + (w->olen - w->ooff), pos = w->dpos;
		while (pos < o1 && w->cur < n && !t->tb[want]) {
			uint32_t c = t->order[w->cur];
			uint64_t b, e;
			trace_tb_range(k, c, &b, &e);
			if (b >= o1) {
				pos = o1;
				break;
			}
			uint64_t s = b > pos ? b : pos, x = e < o1 ? e : o1;
			if (s == b) { /* the block starts here: keep it? */
				bool fits = w->used + (e - b) + (c == want ? 0 : we - wb) <= w->limit;
				w->pend = NULL;
				if (!t->tb[c] && (c == want || fits)) {
					w->pend = xmalloc(e - b ? e - b : 1);
					w->used += e - b;
				}
			}
			if (w->pend)
				memcpy(w->pend + (s - b), w->out + w->ooff + (s - w->dpos), x - s);
			pos = x;
			if (x == e) {
				if (w->pend) {
					xw_hold(w, t, c, w->pend);
					t->ref[c] = 1;
					w->pend = NULL;
				}
				w->cur++;
			}
		}
		if (w->cur >= n)
			pos = o1;
		w->ooff += (size_t)(pos - w->dpos);
		w->dpos = pos;
	}
	if (w->used > w->peak)
		w->peak = w->used;
	return 0;
}

/* trace_fetch_fn for .xz kernels. */
static const char *xz_at(void *ctx, uint32_t cta, uint64_t off, const char **end)
{
	struct xz_kernel *t = ctx;
	struct xz_window *w = t->w;
	uint64_t b, e;
	trace_tb_range(t->k, cta, &b, &e);
	if (!t->tb[cta]) {
		char *err = NULL;
		w->loads++;
		xw_make_room(w, e - b);
		if (w->dk != t || w->dpos > b) {
			w->restarts += t->xz_opened;
			t->xz_opened = true;
			xw_stop(w);
			if (xzdec_open(&w->dec, t->path, &err) == 0) {
				w->dk = t;
				w->dpos = 0;
				w->cur = 0;
				w->ooff = w->olen = 0;
			}
		}
		if (!err && xw_decode(w, t, cta, &err) && !t->tb[cta])
			xw_stop(w);
		if (err || !t->tb[cta]) {
			/* The file was checked when opened: it changed or cannot be read. */
			fprintf(stderr, "gpustep: %s\n", err ? err : "trace read failed");
			free(err);
			*end = "";
			return *end;
		}
	}
	t->ref[cta] = 1;
	*end = t->tb[cta] + (e - b);
	return t->tb[cta] + (off - b);
}

struct tb_at {
	uint64_t off; /* where the thread block's text starts (distinct per block) */
	uint32_t cta;
};

static int by_offset(const void *a, const void *b)
{
	const struct tb_at *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

struct xz_kernel *xz_kernel_open(struct xz_window *w, const char *path, const char *file, char **err)
{
	struct xzdec d;
	if (xzdec_open(&d, path, err))
		return NULL;
	struct trace_kernel *k = trace_index_stream(xzdec_read, &d, xz_size(path), file, err);
	xzdec_close(&d);
	if (!k)
		return NULL;
	struct xz_kernel *t = xcalloc(1, sizeof *t);
	t->w = w;
	t->path = xstrdup(path);
	t->k = k;
	uint32_t n = trace_get_info(k)->ctas;
	t->tb = xcalloc(n, sizeof *t->tb);
	t->ref = xcalloc(n, sizeof *t->ref);
	t->order = xmalloc(n * sizeof *t->order);
	struct tb_at *at = xmalloc(n * sizeof *at);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t e;
		trace_tb_range(k, i, &at[i].off, &e);
		at[i].cta = i;
	}
	qsort(at, n, sizeof *at, by_offset);
	for (uint32_t i = 0; i < n; i++)
		t->order[i] = at[i].cta;
	free(at);
	trace_set_fetch(k, xz_at, t);
	return t;
}

struct trace_kernel *xz_kernel_trace(const struct xz_kernel *t) { return t->k; }

void xz_kernel_close(struct xz_kernel *t)
{
	if (!t)
		return;
	struct xz_window *w = t->w;
	if (w->dk == t)
		xw_stop(w);
	for (unsigned i = 0; i < w->nres;) {
		if (w->res[i].t != t) {
			i++;
			continue;
		}
		uint64_t b, e;
		trace_tb_range(t->k, w->res[i].cta, &b, &e);
		free(t->tb[w->res[i].cta]);
		w->used -= e - b;
		w->res[i] = w->res[--w->nres];
	}
	trace_free(t->k);
	free(t->tb);
	free(t->ref);
	free(t->order);
	free(t->path);
	free(t);
}

struct xz_window *xz_window_new(uint64_t limit)
{
	struct xz_window *w = xcalloc(1, sizeof *w);
	w->limit = limit;
	return w;
}

void xz_window_free(struct xz_window *w)
{
	if (!w)
		return;
	xw_stop(w);
	free(w->res);
	free(w);
}

void xz_window_set_limit(struct xz_window *w, uint64_t limit) { w->limit = limit; }

uint64_t xz_window_limit(const struct xz_window *w) { return w->limit; }

void xz_window_stats(const struct xz_window *w, uint64_t *loads, uint64_t *restarts, uint64_t *peak)
{
	*loads = w->loads;
	*restarts = w->restarts;
	*peak = w->peak;
}
