/* util.c: see util.h. */
#define _GNU_SOURCE
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void oom(size_t n)
{
	fprintf(stderr, "gpustep: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		oom(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);
	memcpy(p, s, n);
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		n = 0;
	char *p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n = p[0] >= 0xf0 && p[0] <= 0xf4   ? 4
		 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
		 : p[0] >= 0xc2 && p[0] <= 0xdf ? 2
						: 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		return 0; /* U+0080..U+009F: C1 controls (0x9b is CSI in some terminals) */
	return n;
}

/* Replace control bytes (but newline and tab) and invalid UTF-8 by ?, in place. */
static void str_printable(char *s)
{
	unsigned char *p = (unsigned char *)s;
	while (*p) {
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f) {
			*p++ = '?';
		} else if (*p < 0x80) {
			p++;
		} else {
			size_t n = utf8_len(p);
			if (n)
				p += n;
			else
				*p++ = '?';
		}
	}
}

int set_err(char **err, const char *fmt, ...)
{
	if (err && !*err) {
		va_list ap;
		va_start(ap, fmt);
		*err = xvasprintf(fmt, ap);
		va_end(ap);
		/* Messages quote input (file lines, tokens): a binary file's control
		 * bytes and broken UTF-8 must not reach the terminal. */
		str_printable(*err);
	}
	return -1;
}

/* ---- arena ---------------------------------------------------------- */
#define ARENA_CHUNK_MIN ((size_t)2 << 20)  /* first chunk; also the huge page size */
#define ARENA_CHUNK_MAX ((size_t)64 << 20) /* growth stops doubling here */

#if defined(MAP_ANONYMOUS) || defined(MAP_ANON)
#define ARENA_MMAP 1
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif
#else
#define ARENA_MMAP 0
#endif

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->total = 0;
	a->ptrs = NULL;
	a->nptrs = a->ptrs_cap = 0;
	a->heap = false;
}

static void chunk_free(struct arena_chunk *c) { xmap_free(c, c->map_len); }

void arena_fini(struct arena *a)
{
	struct arena_chunk *c = a->head;
	while (c) {
		struct arena_chunk *n = c->next;
		chunk_free(c);
		c = n;
	}
	free(a->ptrs);
	bool heap = a->heap;
	arena_init(a);
	a->heap = heap;
}

#if ARENA_MMAP
/* A zeroed mapping of len bytes (a multiple of ARENA_CHUNK_MIN) starting on
 * an ARENA_CHUNK_MIN boundary, so every 2 MB of it can be one huge page; NULL
 * when the system says no. */
static void *map_aligned(size_t len)
{
	const size_t al = ARENA_CHUNK_MIN;
	if (len > SIZE_MAX - al)
		return NULL;
	unsigned char *p = mmap(NULL, len + al, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	size_t lead = (al - (uintptr_t)p % al) % al; /* bytes before the boundary */
	if (lead)
		munmap(p, lead);
	if (al - lead)
		munmap(p + lead + len, al - lead);
	p += lead;
#ifdef MADV_HUGEPAGE
	/* Advice only: without transparent huge pages (or with them off) the
	 * mapping works as it is, one 4 KB page per fault. */
	(void)madvise(p, len, MADV_HUGEPAGE);
#endif
	return p;
}
#endif

void *xcalloc_aligned(size_t align, size_t n)
{
	void *p = NULL;
	if (posix_memalign(&p, align, n ? n : 1))
		oom(n);
	memset(p, 0, n);
	return p;
}

void *xmap_zeroed(size_t n, size_t *map_len)
{
	*map_len = 0;
#if ARENA_MMAP
	if (n >= XMAP_MIN && n <= SIZE_MAX - ARENA_CHUNK_MIN) {
		size_t len = (n + ARENA_CHUNK_MIN - 1) / ARENA_CHUNK_MIN * ARENA_CHUNK_MIN;
		void *p = map_aligned(len);
		if (p) {
			*map_len = len;
			return p;
		}
	}
#endif
	return xcalloc(1, n);
}

void xmap_free(void *p, size_t map_len)
{
#if ARENA_MMAP
	if (map_len) {
		munmap(p, map_len);
		return;
	}
#endif
	free(p);
}

/* A zeroed chunk with at least n usable bytes. */
static struct arena_chunk *chunk_new(const struct arena *a, size_t n)
{
	size_t want = a->head ? a->head->size + sizeof(struct arena_chunk) : ARENA_CHUNK_MIN / 2;
	want = want >= ARENA_CHUNK_MAX / 2 ? ARENA_CHUNK_MAX : 2 * want;
	if (n > SIZE_MAX - sizeof(struct arena_chunk) - ARENA_CHUNK_MIN)
		oom(n);
	if (want < sizeof(struct arena_chunk) + n)
		want = sizeof(struct arena_chunk) + n;
	size_t len = (want + ARENA_CHUNK_MIN - 1) / ARENA_CHUNK_MIN * ARENA_CHUNK_MIN;
	size_t map_len = 0;
	struct arena_chunk *c = a->heap ? xcalloc(1, len) : xmap_zeroed(len, &map_len);
	c->map_len = map_len;
	c->size = len - sizeof *c;
	c->used = 0;
	return c;
}

void *arena_alloc(struct arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (n == 0)
		n = 16;
	struct arena_chunk *c = a->head;
	if (!c || c->size - c->used < n) {
		c = chunk_new(a, n);
		c->next = a->head;
		a->head = c;
	}
	void *p = c->data + c->used;
	c->used += n;
	a->total += n;
	return p;
}

size_t arena_bytes(const struct arena *a)
{
	size_t n = 0;
	for (const struct arena_chunk *c = a->head; c; c = c->next)
		n += c->used;
	return n;
}

void arena_save(const struct arena *a, void *buf)
{
	unsigned char *p = buf;
	for (const struct arena_chunk *c = a->head; c; c = c->next) {
		memcpy(p, c->data, c->used);
		p += c->used;
	}
}

void arena_load(struct arena *a, const void *buf)
{
	const unsigned char *p = buf;
	for (struct arena_chunk *c = a->head; c; c = c->next) {
		memcpy(c->data, p, c->used);
		p += c->used;
	}
}

static bool in_chunks(const struct arena *a, const void *p)
{
	for (const struct arena_chunk *c = a->head; c; c = c->next)
		if ((uintptr_t)p >= (uintptr_t)c->data && (uintptr_t)p < (uintptr_t)c->data + c->used)
			return true;
	return false;
}

void arena_note_ptr(struct arena *a, const void *slot)
{
	if (!in_chunks(a, slot))
		return;
	if (a->nptrs == a->ptrs_cap) {
		a->ptrs_cap = a->ptrs_cap ? 2 * a->ptrs_cap : 64;
		a->ptrs = xrealloc(a->ptrs, a->ptrs_cap * sizeof *a->ptrs);
	}
	/* kept sorted: noted while building, in mostly rising order */
	size_t i = a->nptrs;
	while (i > 0 && (uintptr_t)a->ptrs[i - 1] >= (uintptr_t)slot) {
		if (a->ptrs[i - 1] == slot)
			return;
		i--;
	}
	memmove(a->ptrs + i + 1, a->ptrs + i, (a->nptrs - i) * sizeof *a->ptrs);
	a->ptrs[i] = slot;
	a->nptrs++;
}

/* First noted slot at or above p. */
static size_t first_ptr(const struct arena *a, const void *p)
{
	size_t lo = 0, hi = a->nptrs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((uintptr_t)a->ptrs[mid] < (uintptr_t)p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Chunks oldest first (allocation order). Caller frees. */
static const struct arena_chunk **chunks_in_order(const struct arena *a, size_t *n)
{
	size_t k = 0;
	for (const struct arena_chunk *c = a->head; c; c = c->next)
		k++;
	const struct arena_chunk **ch = xcalloc(k ? k : 1, sizeof *ch);
	*n = k;
	for (const struct arena_chunk *c = a->head; c; c = c->next)
		ch[--k] = c;
	return ch;
}

uint64_t arena_hash(const struct arena *a)
{
	size_t nch;
	const struct arena_chunk **ch = chunks_in_order(a, &nch);
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < nch; i++) {
		const struct arena_chunk *c = ch[i];
		size_t k = first_ptr(a, c->data);
		for (size_t off = 0; off + 8 <= c->used; off += 8) {
			uint64_t w;
			if (k < a->nptrs && a->ptrs[k] == (const void *)(c->data + off)) {
				w = 0x5a5a5a5a5a5a5a5aull; /* a pointer field: same in every instance */
				k++;
			} else {
				memcpy(&w, c->data + off, 8);
			}
			h = (h ^ w) * 1099511628211ull;
			h ^= h >> 29;
		}
	}
	free(ch);
	return h;
}

#if defined(__linux__) && defined(__GNUC__)
/* The program image, code to bss (symbols GNU ld defines). */
extern const char image_start_[] __asm__("__executable_start");
extern const char image_end_[] __asm__("end");
#define IMAGE_LO ((uintptr_t)image_start_)
#define IMAGE_HI ((uintptr_t)image_end_)
#else
#define IMAGE_LO ((uintptr_t)0)
#define IMAGE_HI ((uintptr_t)0)
#endif

int arena_check_ptrs(const struct arena *a, const void *ext, size_t ext_len, char **err)
{
	size_t nch;
	const struct arena_chunk **ch = chunks_in_order(a, &nch);
	uintptr_t lo = UINTPTR_MAX, hi = 0; /* quick test before the chunk walk */
	for (size_t i = 0; i < nch; i++) {
		uintptr_t b = (uintptr_t)ch[i]->data;
		lo = b < lo ? b : lo;
		hi = b + ch[i]->used > hi ? b + ch[i]->used : hi;
	}
	int rc = 0;
	size_t base = 0; /* offset of chunk i in allocation order */
	for (size_t i = 0; i < nch && !rc; base += ch[i]->used, i++) {
		const struct arena_chunk *c = ch[i];
		size_t k = first_ptr(a, c->data);
		for (size_t off = 0; off + 8 <= c->used; off += 8) {
			if (k < a->nptrs && a->ptrs[k] == (const void *)(c->data + off)) {
				k++;
				continue;
			}
			uintptr_t w;
			memcpy(&w, c->data + off, sizeof w);
			const char *what = w >= lo && w < hi && in_chunks(a, (const void *)w)				? "into the arena"
					   : w >= (uintptr_t)ext && w < (uintptr_t)ext + ext_len ? "into its owner"
					   : w >= IMAGE_LO && w < IMAGE_HI			    ? "into the program image"
												    : NULL;
			if (what) {
				rc = set_err(err, "arena byte %zu holds a pointer %s that was not noted (arena_note_ptr)",
					     base + off, what);
				break;
			}
		}
	}
	free(ch);
	return rc;
}

/* ---- PRNG ------------------------------------------------------------ */
void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		seed = mix64(seed);
		r->s[i] = seed;
	}
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	/* Rejection keeps it unbiased; loops rarely. */
	uint64_t lim = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;
	do
		x = rng_next(r);
	while (x >= lim);
	return x % n;
}

/* ---- strbuf ------------------------------------------------------------ */
void sb_init(struct strbuf *sb)
{
	sb->s = xmalloc(64);
	sb->s[0] = 0;
	sb->len = 0;
	sb->cap = 64;
}

static void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n <= 0)
		return;
	if (sb->len + (size_t)n + 1 > sb->cap) {
		while (sb->len + (size_t)n + 1 > sb->cap)
			sb->cap *= 2;
		sb->s = xrealloc(sb->s, sb->cap);
	}
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

void sb_puts(struct strbuf *sb, const char *s) { sb_printf(sb, "%s", s); }

void sb_fini(struct strbuf *sb)
{
	free(sb->s);
	sb->s = NULL;
	sb->len = sb->cap = 0;
}

unsigned str_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return 99;
	unsigned row[64];
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}
