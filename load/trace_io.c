/*
 * trace_io.c: files behind trace workloads (see trace_io.h). The engine gets
 * one read-only text buffer per kernel and never touches a file.
 *
 * Plain .traceg files are mmap'd, so replaying a multi-gigabyte trace reads
 * pages as warps reach them and the kernel may drop them again; memory stays
 * the index (12 bytes per warp) plus what is resident. .xz files are never
 * held whole: trace_xz.c indexes them in one streaming pass and serves thread
 * blocks from the list's bounded window (trace.xz_window_mb).
 */
#include "trace_io.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "embedded.h"
#include "trace_xz.h"
#include "sysmem.h"
#include "reuse/trc.h"
#include "sim/util.h"

struct tkern {
	char *path;            /* as opened */
	char *text;            /* mmap'd (plain .traceg); NULL for .xz */
	size_t len;
	bool mapped;
	struct trace_kernel *k;
	struct trc *trc;       /* a .trc thread-address trace instead (engine/reuse/trc.h) */
	struct xz_kernel *xz;  /* .xz: served through the list's window (trace_xz.h) */
};

struct trace_list {
	char *spec;
	unsigned at; /* @N of the spec (1-based), 0 = none: the whole list */
	unsigned n;
	struct tkern *kern;
	struct wl_copy *copies; /* MemcpyHtoD lines in list order; .kernel = kernels before it */
	unsigned ncopies;
	struct xz_window *xw; /* the .xz kernels' window (trace_xz.h) */
};

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

static bool ends_with_n(const char *s, int n, const char *suf)
{
	int b = (int)strlen(suf);
	return n >= b && memcmp(s + n - b, suf, (size_t)b) == 0;
}

/* Copy of spec without a trailing "@N"; *n = N (0 if absent). */
static char *split_at(const char *spec, unsigned *n)
{
	char *s = xstrdup(spec);
	char *at = strrchr(s, '@');
	*n = 0;
	if (at && at[1] && strspn(at + 1, "0123456789") == strlen(at + 1) && strlen(at + 1) < 9) {
		*n = (unsigned)atoi(at + 1);
		*at = 0;
	}
	return s;
}

bool trace_is_spec(const char *spec)
{
	unsigned n;
	char *s = split_at(spec, &n);
	const char *base = strrchr(s, '/');
	base = base ? base + 1 : s;
	bool r = ends_with(s, ".traceg") || ends_with(s, ".traceg.xz") || ends_with(s, ".g") ||
		 ends_with(s, ".trc") || ends_with(s, ".trc.xz") || strncmp(base, "kernelslist", 11) == 0;
	free(s);
	return r;
}

void trace_list_xz_stats(const struct trace_list *tl, uint64_t *loads, uint64_t *restarts, uint64_t *peak)
{
	xz_window_stats(tl->xw, loads, restarts, peak);
}

/* Read a whole (optionally .xz) file into memory. */
static char *trace_read_file(const char *path, size_t *len, char **err) { return trace_read_file_max(path, SIZE_MAX, len, err); }

size_t trace_text_limit(void)
{
	uint64_t avail = sysmem_available(NULL, 0) / 3; /* the text, then the parsed trace beside it */
	return avail < TRACE_TEXT_MAX ? (size_t)avail : (size_t)TRACE_TEXT_MAX;
}

/* A built-in trace (configs/traces/, embedded.h) when path is not on disk:
 * a copy the caller frees, or NULL. */
static char *embedded_copy(const char *path, size_t *len)
{
	const struct embedded_file *e = errno == ENOENT ? embedded_find(path) : NULL;
	if (!e || e->size == 0)
		return NULL;
	char *buf = xmalloc(e->size);
	memcpy(buf, e->data, e->size);
	*len = e->size;
	return buf;
}

char *trace_read_file_max(const char *path, size_t max, size_t *len, char **err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		char *b = embedded_copy(path, len);
		if (!b)
			set_err(err, "%s: %s", path, strerror(errno));
		return b;
	}
	char *buf = NULL;
	struct stat st;
	if (ends_with(path, ".xz")) {
		fclose(f);
		return xz_read_max(path, max, len, err);
	} else if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		fclose(f);
		set_err(err, "%s: %llu MB, more than the %zu MB a trace read whole may hold (docs/TRACES.md)", path,
			(unsigned long long)(st.st_size >> 20), max >> 20);
		return NULL;
	} else {
		size_t cap = 1 << 16, n = 0, r;
		buf = xmalloc(cap);
		while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
			n += r;
			if (n == cap)
				buf = xrealloc(buf, cap *= 2);
		}
		*len = n;
	}
	fclose(f);
	return buf;
}

static bool is_trc(const char *path) { return ends_with(path, ".trc") || ends_with(path, ".trc.xz"); }

/* A .trc trace is parsed into per-thread lists; its text is freed at once. */
static int trc_load(struct tkern *t, char **err)
{
	size_t len;
	char *text = trace_read_file_max(t->path, trace_text_limit(), &len, err);
	if (!text)
		return -1;
	const char *base = strrchr(t->path, '/');
	t->trc = trc_parse(text, len, base ? base + 1 : t->path, err);
	free(text);
	return t->trc ? 0 : -1;
}

static int kern_load(struct tkern *t, struct xz_window *xw, char **err)
{
	if (is_trc(t->path))
		return trc_load(t, err);
	const char *base = strrchr(t->path, '/');
	if (ends_with(t->path, ".xz")) {
		if (!(t->xz = xz_kernel_open(xw, t->path, base ? base + 1 : t->path, err)))
			return -1;
		t->k = xz_kernel_trace(t->xz);
		t->len = (size_t)trace_get_info(t->k)->bytes;
		return 0;
	}
	{
		int fd = open(t->path, O_RDONLY);
		struct stat sb;
		if (fd < 0 && (t->text = embedded_copy(t->path, &t->len)) != NULL)
			goto indexed; /* built in: a heap copy, freed by kern_unload */
		if (fd < 0 || fstat(fd, &sb)) {
			set_err(err, "%s: %s", t->path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		t->len = (size_t)sb.st_size;
		if (t->len == 0) {
			close(fd);
			return set_err(err, "%s: empty file", t->path);
		}
		void *m = mmap(NULL, t->len, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
		if (m == MAP_FAILED)
			return set_err(err, "%s: mmap: %s", t->path, strerror(errno));
		madvise(m, t->len, MADV_SEQUENTIAL);
		t->text = m;
		t->mapped = true;
	}
indexed:
	t->k = trace_index(t->text, t->len, base ? base + 1 : t->path, err);
	if (!t->k) {
		if (t->mapped)
			munmap(t->text, t->len);
		else
			free(t->text);
		t->text = NULL;
		return -1;
	}
	return 0;
}

static void kern_unload(struct tkern *t)
{
	trc_free(t->trc);
	t->trc = NULL;
	if (t->xz)
		xz_kernel_close(t->xz); /* frees t->k too */
	else
		trace_free(t->k);
	t->xz = NULL;
	t->k = NULL;
	if (t->mapped)
		munmap(t->text, t->len);
	else
		free(t->text);
	t->text = NULL;
	t->mapped = false;
}

static int kern_get(struct trace_list *tl, unsigned i, char **err);

static void add_kernel(struct trace_list *tl, char *path)
{
	tl->kern = xrealloc(tl->kern, (tl->n + 1) * sizeof *tl->kern);
	tl->kern[tl->n++] = (struct tkern){.path = path};
}

/* What is at c in [c, e), for messages: "end of line" or up to 40 characters. */
static const char *got_at(const char *c, const char *e, char *buf, size_t n)
{
	if (c >= e)
		return "end of line";
	snprintf(buf, n, "%.*s", (int)MIN(e - c, 40), c);
	return buf;
}

/* Digits of base 10 or 16 at *c; false if none or on overflow. */
static bool parse_u64(const char **c, const char *e, int base, unsigned long long *v)
{
	const char *q = *c;
	unsigned long long x = 0;
	for (; q < e; q++) {
		int d = *q >= '0' && *q <= '9' ? *q - '0'
			: base == 16 && *q >= 'a' && *q <= 'f' ? *q - 'a' + 10
			: base == 16 && *q >= 'A' && *q <= 'F' ? *q - 'A' + 10
								   : -1;
		if (d < 0)
			break;
		if (x > (ULLONG_MAX - (unsigned)d) / (unsigned)base)
			return false;
		x = x * (unsigned)base + (unsigned)d;
	}
	if (q == *c)
		return false;
	*c = q;
	*v = x;
	return true;
}

/* "MemcpyHtoD,0xADDR,BYTES" in [p, e) (the tracer writes the address in hex
 * with 0x, the size in decimal): a copy made before the next kernel line. */
static int parse_memcpy(struct trace_list *tl, const char *path, unsigned line, const char *p, const char *e,
			char **err)
{
	const char *c = p + 10;
	char g[48];
	unsigned long long addr, bytes;
	if (c >= e || *c != ',')
		return set_err(err, "%s:%u: column %d: expected ',' after MemcpyHtoD, got '%s'", path, line,
			       (int)(c - p) + 1, got_at(c, e, g, sizeof g));
	c++;
	const char *a = c;
	if (e - c > 2 && c[0] == '0' && (c[1] == 'x' || c[1] == 'X'))
		c += 2;
	if (!parse_u64(&c, e, 16, &addr))
		return set_err(err, "%s:%u: column %d: expected a hex device address (0x...) after 'MemcpyHtoD,', got '%s'",
			       path, line, (int)(a - p) + 1, got_at(a, e, g, sizeof g));
	if (c >= e || *c != ',')
		return set_err(err, "%s:%u: column %d: expected ',' and the byte count after the address, got '%s'", path,
			       line, (int)(c - p) + 1, got_at(c, e, g, sizeof g));
	c++;
	const char *b = c;
	if (!parse_u64(&c, e, 10, &bytes))
		return set_err(err, "%s:%u: column %d: expected a decimal byte count, got '%s'", path, line,
			       (int)(b - p) + 1, got_at(b, e, g, sizeof g));
	if (c < e)
		return set_err(err, "%s:%u: column %d: expected the end of the line after the byte count, got '%s'", path,
			       line, (int)(c - p) + 1, got_at(c, e, g, sizeof g));
	if (bytes > UINT64_MAX - addr)
		return set_err(err, "%s:%u: 0x%llx + %llu bytes runs past the end of the address space", path, line, addr,
			       bytes);
	tl->copies = xrealloc(tl->copies, (tl->ncopies + 1) * sizeof *tl->copies);
	tl->copies[tl->ncopies++] = (struct wl_copy){.addr = addr, .bytes = bytes, .kernel = tl->n, .line = line};
	return 0;
}

/* kernelslist.g: one command per line, kernel paths relative to the list. */
static int parse_list(struct trace_list *tl, const char *path, char **err)
{
	size_t len;
	char *text = trace_read_file(path, &len, err);
	if (!text)
		return -1;
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	unsigned line = 0;
	int rc = 0;
	for (char *p = text, *end = text + len; p < end && rc == 0;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *le = nl ? nl : end;
		line++;
		while (le > p && (le[-1] == '\r' || le[-1] == ' ' || le[-1] == '\t'))
			le--;
		while (p < le && (*p == ' ' || *p == '\t'))
			p++;
		int n = (int)(le - p);
		if (n == 0 || *p == '#') {
			/* blank or comment */
		} else if (n >= 10 && strncmp(p, "MemcpyHtoD", 10) == 0) {
			rc = parse_memcpy(tl, path, line, p, le, err);
		} else if (n >= 6 && strncmp(p, "kernel", 6) == 0 && memchr(p, ' ', (size_t)n) == NULL) {
			if (!(ends_with_n(p, n, ".traceg") || ends_with_n(p, n, ".traceg.xz")))
				rc = set_err(err, "%s:%u: expected a kernel-N.traceg or kernel-N.traceg.xz file name, got '%.*s'",
					     path, line, MIN(n, 60), p);
			else
				add_kernel(tl, xasprintf("%.*s%.*s", *p == '/' ? 0 : dirlen, path, n, p));
		} else if (n >= 10 && strncmp(p, "MemcpyDtoH", 10) == 0) {
			/* copies back to the host do not touch the GPU caches */
		} else {
			rc = set_err(err, "%s:%u: expected 'MemcpyHtoD,ADDR,BYTES' or a kernel-N.traceg line, got '%.*s'", path,
				     line, MIN(n, 60), p);
		}
		p = nl ? nl + 1 : end;
	}
	free(text);
	if (rc == 0 && tl->n == 0)
		rc = set_err(err, "%s: no kernel-N.traceg lines", path);
	return rc;
}

struct trace_list *trace_list_open(const char *spec, unsigned *first, char **err)
{
	unsigned at;
	char *path = split_at(spec, &at);
	struct trace_list *tl = xcalloc(1, sizeof *tl);
	tl->spec = xstrdup(spec);
	tl->at = at;
	tl->xw = xz_window_new(256ull << 20); /* the trace.xz_window_mb default until a config sets it */
	int rc;
	if (ends_with(path, ".traceg") || ends_with(path, ".traceg.xz") || is_trc(path)) {
		add_kernel(tl, xstrdup(path));
		rc = 0;
	} else {
		rc = parse_list(tl, path, err);
	}
	if (rc == 0 && at > tl->n)
		rc = set_err(err, "%s: kernel @%u requested, the list has %u", path, at, tl->n);
	free(path);
	if (rc) {
		trace_list_free(tl);
		return NULL;
	}
	*first = at ? at - 1 : 0;
	/* Back to back, every kernel is indexed now, so errors show at load. */
	bool all = trace_list_back_to_back(tl);
	for (unsigned i = all ? 0 : *first; i < (all ? tl->n : *first + 1); i++)
		if (kern_get(tl, i, err)) {
			trace_list_free(tl);
			return NULL;
		}
	return tl;
}

void trace_list_free(struct trace_list *tl)
{
	if (!tl)
		return;
	for (unsigned i = 0; i < tl->n; i++) {
		if (tl->kern[i].k || tl->kern[i].trc)
			kern_unload(&tl->kern[i]);
		free(tl->kern[i].path);
	}
	free(tl->kern);
	xz_window_free(tl->xw);
	free(tl->copies);
	free(tl->spec);
	free(tl);
}

unsigned trace_list_count(const struct trace_list *tl) { return tl->n; }

bool trace_list_back_to_back(const struct trace_list *tl) { return tl && tl->n > 1 && tl->at == 0; }

/* Load kernel i (an Accel-Sim kernel or a .trc trace) if needed. */
static int kern_get(struct trace_list *tl, unsigned i, char **err)
{
	if (i >= tl->n)
		return set_err(err, "no kernel %u in %s (%u kernels)", i + 1, tl->spec, tl->n);
	if (!tl->kern[i].k && !tl->kern[i].trc && kern_load(&tl->kern[i], tl->xw, err))
		return -1;
	return 0;
}

/* Kernel i, indexed on first use (NULL with *err naming the file and line,
 * or saying that it is a .trc trace). */
static const struct trace_kernel *trace_list_kernel(struct trace_list *tl, unsigned i, char **err)
{
	if (kern_get(tl, i, err))
		return NULL;
	if (!tl->kern[i].k)
		set_err(err, "%s: a .trc thread-address trace, not an Accel-Sim kernel", tl->kern[i].path);
	return tl->kern[i].k;
}

const struct trc *trace_list_trc(struct trace_list *tl, unsigned i, char **err)
{
	if (kern_get(tl, i, err))
		return NULL;
	return tl->kern[i].trc;
}

struct trace_wl {
	struct workload wl;
	struct trace_view view;
	struct wl_copy copies[]; /* the list's copies made just before this kernel, renumbered to kernel 0 */
};

/* Copies in list order that precede kernel i directly (after kernel i-1):
 * tl->copies[*first .. *first + return). */
static unsigned copies_before(const struct trace_list *tl, unsigned i, unsigned *first)
{
	unsigned a = 0;
	while (a < tl->ncopies && tl->copies[a].kernel < i)
		a++;
	unsigned b = a;
	while (b < tl->ncopies && tl->copies[b].kernel == i)
		b++;
	*first = a;
	return b - a;
}

/* Copies after the last kernel line: nothing runs after them. */
static unsigned copies_after_last(const struct trace_list *tl)
{
	unsigned k = 0;
	for (unsigned j = 0; j < tl->ncopies; j++)
		k += tl->copies[j].kernel >= tl->n;
	return k;
}

/* trace.xz_window_mb of cfg becomes the list's window; every .xz kernel's
 * largest thread block must fit in it. */
static int xz_window(struct trace_list *tl, const struct sim_cfg *cfg, char **err)
{
	xz_window_set_limit(tl->xw, (uint64_t)cfg->trace.xz_window_mb << 20);
	for (unsigned i = 0; i < tl->n; i++) {
		const struct tkern *t = &tl->kern[i];
		if (!t->xz)
			continue;
		const struct trace_info *in = trace_get_info(t->k);
		if (in->max_tb_bytes > xz_window_limit(tl->xw)) {
			const uint32_t *g = trace_hdr(t->k)->grid;
			uint32_t c = in->max_tb;
			return set_err(err, "%s: thread block (%u,%u,%u) is %" PRIu64 " bytes of text, more than "
					    "trace.xz_window_mb = %d MB can hold; raise it (-s trace.xz_window_mb=%" PRIu64 ") or "
					    "decompress the file (xz -dk)",
				       t->path, c % g[0], c / g[0] % g[1], c / g[0] / g[1], in->max_tb_bytes, cfg->trace.xz_window_mb,
				       (in->max_tb_bytes >> 20) + 1);
		}
	}
	return 0;
}

struct workload *trace_workload_new(struct trace_list *tl, unsigned i, const struct sim_cfg *cfg, char **err)
{
	if (kern_get(tl, i, err))
		return NULL;
	if (tl->kern[i].trc) { /* the .trc replay needs no config: the impl is the parsed trace */
		struct workload *wl = xcalloc(1, sizeof *wl);
		snprintf(wl->name, sizeof wl->name, "%.63s", trc_file(tl->kern[i].trc));
		wl->ops = &trc_wl_ops;
		wl->impl = tl->kern[i].trc;
		return wl;
	}
	if (cfg->core.warp_size != 32) {
		set_err(err, "%s: NVIDIA traces have 32-thread warps; this config has core.warp_size %d", tl->spec,
			cfg->core.warp_size);
		return NULL;
	}
	const struct trace_kernel *k = trace_list_kernel(tl, i, err);
	if (!k || xz_window(tl, cfg, err))
		return NULL;
	unsigned c0, nc = copies_before(tl, i, &c0);
	struct trace_wl *t = xcalloc(1, sizeof *t + nc * sizeof t->copies[0]);
	for (unsigned j = 0; j < nc; j++) {
		t->copies[j] = tl->copies[c0 + j];
		t->copies[j].kernel = 0;
	}
	t->wl.copies = nc ? t->copies : NULL;
	t->wl.ncopies = nc;
	trace_view_init(&t->view, k, &cfg->trace);
	const char *nm = trace_hdr(k)->name;
	snprintf(t->wl.name, sizeof t->wl.name, "%.63s", *nm ? nm : trace_file(k));
	t->wl.ops = &trace_wl_ops;
	t->wl.impl = &t->view;
	return &t->wl;
}

/* Every kernel of the list in one simulator, back to back (trace.h
 * trace_multi): one heap block holding the workload, the views and tables. */
struct trace_mwl {
	struct workload wl;
	struct trace_multi m;
};

struct workload *trace_workload_all(struct trace_list *tl, const struct sim_cfg *cfg, char **err)
{
	if (tl->n == 1)
		return trace_workload_new(tl, 0, cfg, err);
	if (cfg->core.warp_size != 32) {
		set_err(err, "%s: NVIDIA traces have 32-thread warps; this config has core.warp_size %d", tl->spec,
			cfg->core.warp_size);
		return NULL;
	}
	const struct trace_kernel **ks = xcalloc(tl->n, sizeof *ks);
	for (unsigned i = 0; i < tl->n; i++)
		if (!(ks[i] = trace_list_kernel(tl, i, err))) {
			free(ks);
			return NULL;
		}
	if (xz_window(tl, cfg, err)) {
		free(ks);
		return NULL;
	}
	size_t views = (sizeof(struct trace_mwl) + _Alignof(struct trace_view) - 1) / _Alignof(struct trace_view) *
		_Alignof(struct trace_view);
	size_t tables = views + tl->n * sizeof(struct trace_view);
	tables = (tables + 3) & ~(size_t)3;
	char *mem = xcalloc(1, tables + 2 * (tl->n + 1) * sizeof(uint32_t));
	struct trace_mwl *t = (struct trace_mwl *)(void *)mem;
	uint32_t *first = (uint32_t *)(void *)(mem + tables);
	trace_multi_init(&t->m, (struct trace_view *)(void *)(mem + views), first, first + tl->n + 1, ks, tl->n,
			 &cfg->trace);
	free(ks);
	const char *base = strrchr(tl->spec, '/');
	snprintf(t->wl.name, sizeof t->wl.name, "%.63s", base ? base + 1 : tl->spec);
	t->wl.ops = &trace_multi_wl_ops;
	t->wl.impl = &t->m;
	/* The list owns the copies (it outlives the sim); those after the last
	 * kernel are left out. */
	t->wl.ncopies = tl->ncopies - copies_after_last(tl);
	t->wl.copies = t->wl.ncopies ? tl->copies : NULL;
	return &t->wl;
}

/* One line: "kernel 1/3 kernel-1.traceg: _Z6vecAdd..., grid (4,1,1) x block (256,1,1), ..." */
static void trace_list_describe(struct trace_list *tl, unsigned i, char *buf, size_t n)
{
	const struct trc *r = i < tl->n ? tl->kern[i].trc : NULL;
	if (r) {
		const struct trc_info *in = trc_get_info(r);
		snprintf(buf, n, ".trc thread-address trace %s: %u threads in %u blocks of (%u,%u,%u), %" PRIu64
			 " loads, %" PRIu64 " stores, up to %u accesses per thread",
			 trc_file(r), in->threads, in->blocks, in->block[0], in->block[1], in->block[2], in->loads,
			 in->stores, in->max_per_thread);
		return;
	}
	const struct trace_kernel *k = i < tl->n ? tl->kern[i].k : NULL;
	if (!k) {
		snprintf(buf, n, "kernel %u/%u (not loaded)", i + 1, tl->n);
		return;
	}
	const struct trace_hdr *h = trace_hdr(k);
	const struct trace_info *in = trace_get_info(k);
	snprintf(buf, n, "Accel-Sim trace, kernel %u/%u %s: grid (%u,%u,%u) x block (%u,%u,%u), %" PRIu64
		 " warp instructions, sm_%u, tracer v%u",
		 i + 1, tl->n, trace_file(k), h->grid[0], h->grid[1], h->grid[2], h->block[0], h->block[1], h->block[2],
		 in->insts, h->binary_version, h->tracer_version);
}

void trace_list_warnings(struct trace_list *tl, unsigned i, const struct sim_cfg *cfg, char *buf, size_t n)
{
	buf[0] = 0;
	const struct trace_kernel *k = i < tl->n ? tl->kern[i].k : NULL;
	if (!k)
		return;
	const struct trace_info *in = trace_get_info(k);
	size_t u = 0;
	if (in->unknown[0])
		u += (size_t)snprintf(buf + u, n - u, "%s: unknown opcodes replayed as ALU (%" PRIu64 " instructions): %s\n",
				      trace_file(k), in->by_class[TC_UNKNOWN], in->unknown);
	if (in->cg && u < n)
		u += (size_t)snprintf(buf + u, n - u, "%s: %" PRIu64 " .CG/.CV loads and stores replayed as glc (they bypass the L1)\n",
				      trace_file(k), in->cg);
	/* Copies: said once, with the first kernel that runs. */
	bool all = trace_list_back_to_back(tl);
	if (all && i != 0)
		return;
	unsigned c0, nc = all ? tl->ncopies - copies_after_last(tl) : copies_before(tl, i, &c0);
	if (all)
		c0 = 0;
	uint64_t bytes = 0;
	for (unsigned j = 0; j < nc; j++)
		bytes += tl->copies[c0 + j].bytes;
	if (nc && u < n && (!cfg || cfg->trace.memcpy_mode == TRACE_MEMCPY_IGNORE))
		u += (size_t)snprintf(buf + u, n - u,
				      "%s: %u MemcpyHtoD (%" PRIu64 " bytes) ignored (trace.memcpy = ignore): the L2 does not see them\n",
				      tl->spec, nc, bytes);
	unsigned late = copies_after_last(tl);
	if (late && u < n && (all || i + 1 == tl->n))
		snprintf(buf + u, n - u, "%s: %u MemcpyHtoD after the last kernel ignored: nothing runs after them\n",
			 tl->spec, late);
}

int trace_list_fill_src(struct trace_list *tl, unsigned i, struct kernel_src *k, char **err)
{
	if (kern_get(tl, i, err))
		return -1;
	if (trace_list_back_to_back(tl)) { /* the list as one workload */
		memset(k, 0, sizeof *k);
		const char *base = strrchr(tl->spec, '/');
		snprintf(k->name, sizeof k->name, "%.63s", base ? base + 1 : tl->spec);
		uint64_t ctas = 0, insts = 0;
		for (unsigned j = 0; j < tl->n; j++)
			if (tl->kern[j].k) {
				ctas += trace_get_info(tl->kern[j].k)->ctas;
				insts += trace_get_info(tl->kern[j].k)->insts;
			}
		snprintf(k->desc, sizeof k->desc,
			 "Accel-Sim trace list %.60s: %u kernels back to back in one machine, %" PRIu64 " CTAs, %" PRIu64
			 " warp instructions",
			 k->name, tl->n, ctas, insts);
		return 0;
	}
	if (tl->kern[i].trc) {
		memset(k, 0, sizeof *k);
		snprintf(k->name, sizeof k->name, "%.63s", trc_file(tl->kern[i].trc));
		trace_list_describe(tl, i, k->desc, sizeof k->desc);
		return 0;
	}
	const struct trace_kernel *t = trace_list_kernel(tl, i, err);
	if (!t)
		return -1;
	memset(k, 0, sizeof *k);
	const char *nm = trace_hdr(t)->name;
	snprintf(k->name, sizeof k->name, "%.63s", *nm ? nm : trace_file(t));
	trace_list_describe(tl, i, k->desc, sizeof k->desc);
	return 0;
}
