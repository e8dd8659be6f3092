/*
 * util.h: allocation wrappers that never return NULL, a chunked arena that
 * holds every byte of mutable simulator state, a seeded PRNG and hashing.
 *
 * The arena is what makes snapshots cheap: sim_new() allocates all state from
 * one arena, chunks never move, so copying the chunks out and back restores the
 * whole machine while every pointer inside it stays valid.
 */
#ifndef GPUSTEP_UTIL_H
#define GPUSTEP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Allocation: abort with a message on exhaustion. Caller frees with free(). */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* n zeroed bytes at a multiple of align (a power of two, at least
 * sizeof(void *)); free() them. */
void *xcalloc_aligned(size_t align, size_t n);
/* Large zeroed buffers: from XMAP_MIN bytes (and where POSIX mmap works) an
 * anonymous mapping of whole 2 MB units on a 2 MB boundary, marked
 * MADV_HUGEPAGE on Linux like the arena's chunks (below), so filling it
 * costs one page fault per 2 MB instead of one per 4 KB, and pages never
 * written stay virtual; otherwise calloc. *map_len is the mapping's length,
 * 0 when the buffer came from calloc; free it with xmap_free(p, *map_len)
 * (never free()). Never NULL. */
#define XMAP_MIN ((size_t)2 << 20)
void *xmap_zeroed(size_t n, size_t *map_len);
void xmap_free(void *p, size_t map_len);
/* printf into a new heap string; caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);

/* Set *err (if err != NULL and *err == NULL) to a formatted message. Returns -1. */
int set_err(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- arena ---------------------------------------------------------- */
/* Chunks grow from 2 MB, doubling up to 64 MB (or one allocation's size).
 * Where POSIX mmap is available a chunk is its own anonymous mapping, 2 MB
 * aligned and a whole number of 2 MB long, and on Linux marked
 * MADV_HUGEPAGE: a machine's state is tens of megabytes first touched while
 * it is built, and one fault per 2 MB huge page instead of one per 4 KB page
 * is most of what building costs otherwise (docs/PERFORMANCE.md, "Building a
 * machine"). Untouched parts (a request pool's unused slots) stay virtual.
 * Otherwise, or when mmap fails, chunks come from calloc (xmap_zeroed). Where a chunk
 * lives changes nothing else: arena_save's bytes, the hash and every offset
 * are the sequence of allocations, whatever the chunk boundaries. */
struct arena_chunk {
	struct arena_chunk *next;
	size_t size;    /* usable bytes in data[] */
	size_t used;
	size_t map_len; /* bytes of the mapping that holds the chunk, 0 = calloc'd */
	_Alignas(16) unsigned char data[];
};

struct arena {
	struct arena_chunk *head; /* newest first */
	size_t total;             /* bytes handed out, all chunks */
	const void **ptrs;        /* pointer fields inside the chunks (heap, sorted by address) */
	size_t nptrs, ptrs_cap;
	bool heap;                /* chunks from calloc only (set after arena_init; tests) */
};

void arena_init(struct arena *a);
void arena_fini(struct arena *a);
/* Zeroed, 16-byte aligned, lives until arena_fini(). */
void *arena_alloc(struct arena *a, size_t n);
#define ARENA_NEW(a, type, n) ((type *)arena_alloc((a), sizeof(type) * (size_t)(n)))
/* The word at slot (a field of an object in the arena) holds a pointer: set
 * once while the simulator is built, the same in every instance's own
 * terms, so the state hash leaves it out (what it points to is hashed where
 * it lives). A slot outside the arena is ignored. */
void arena_note_ptr(struct arena *a, const void *slot);
/* lhs = a fresh array of n type in the arena, lhs noted as a pointer field. */
#define ARENA_SET(a, lhs, type, n) (arena_note_ptr((a), &(lhs)), (lhs) = ARENA_NEW((a), type, (n)))
/* lhs = v (a pointer set while building), lhs noted as a pointer field. */
#define ARENA_PTR(a, lhs, v) (arena_note_ptr((a), &(lhs)), (lhs) = (v))
/* Bytes of state (sum of used parts of all chunks). */
size_t arena_bytes(const struct arena *a);
/* Copy all used bytes into buf (arena_bytes() long) / back from buf. */
void arena_save(const struct arena *a, void *buf);
void arena_load(struct arena *a, const void *buf);
/* A hash of the state the arena holds: every used 8-byte word in allocation
 * order, the noted pointer fields left out (arena_note_ptr). It depends on
 * values and offsets only, never on where memory lives, so equal states hash
 * alike across instances and processes. Padding is hashed like data: the
 * arena starts zeroed and structs in it are written field by field or from
 * zeroed copies (memset), which DEBUG builds' audit cannot see but every
 * two-instance test would. */
uint64_t arena_hash(const struct arena *a);
/* The audit behind arena_note_ptr: 0, or -1 with *err naming the first word
 * that is not noted but holds an address inside the arena, inside
 * [ext, ext + ext_len) or inside the program's own image (code, tables): a
 * pointer field someone forgot to note. (This looks at values, so it is a
 * check for tests, not part of the hash.) */
int arena_check_ptrs(const struct arena *a, const void *ext, size_t ext_len, char **err);

/* ---- PRNG: xoshiro256** seeded by splitmix64 ------------------------- */
struct rng {
	uint64_t s[4];
};
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n), n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);

/* Stateless 64-bit mix (splitmix64 finaliser); used by the kernel hash()
 * and the MSHR files' hashed lookup (inline: it is on every L1/L2 miss). */
static inline uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }
/* floor(log2(x)), 0 for x <= 1 (index functions call it per access). */
static inline unsigned log2u(uint64_t x)
{
	return x > 1 ? 63u - (unsigned)__builtin_clzll(x) : 0u;
}

/* ---- growable string buffer (not for per-cycle use) ------------------- */
struct strbuf {
	char *s;
	size_t len, cap;
};
void sb_init(struct strbuf *sb);
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_puts(struct strbuf *sb, const char *s);
void sb_fini(struct strbuf *sb);

/* Levenshtein distance between two names, for "did you mean" (99 when
 * either is longer than 63 characters). */
unsigned str_edit_distance(const char *a, const char *b);

#endif
