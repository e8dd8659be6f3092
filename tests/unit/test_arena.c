/*
 * test_arena.c: the arena's chunks (engine/sim/util.c). They grow from 2 MB
 * by doubling, are their own 2 MB aligned mappings marked for transparent
 * huge pages where the system has them, and come from calloc otherwise
 * (struct arena.heap forces that path). Whichever way a chunk was made,
 * allocations are zeroed, 16-byte aligned and disjoint, and the bytes
 * arena_save writes, arena_load reads back and arena_hash sums are the same.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "sim/util.h"

#define MB ((size_t)1 << 20)

/* An allocation sequence that crosses several chunk boundaries: small
 * objects, odd sizes, one larger than any chunk would be by growth. */
static size_t seq_size(unsigned i)
{
	if (i == 40)
		return 70 * MB; /* alone in a chunk of its own size */
	if (i % 7 == 3)
		return 3 * MB + 5;   /* does not fit what is left of a 2 or 4 MB chunk */
	return 1 + (size_t)i * 977 % 60000;
}
#define SEQ_N 60u

struct seq {
	unsigned char *p[SEQ_N];
	size_t n[SEQ_N];
};

/* Fill the arena with the sequence: every allocation zeroed and aligned
 * when handed out, then written with its own byte (only the first and last
 * 64 KB of large ones: the rest stays untouched, as a request pool's does). */
static void fill(struct arena *a, struct seq *q)
{
	for (unsigned i = 0; i < SEQ_N; i++) {
		size_t n = seq_size(i);
		unsigned char *p = arena_alloc(a, n);
		REQUIRE(p);
		CHECK_EQ((uintptr_t)p % 16, 0);
		size_t head = n > 128 * 1024 ? 64 * 1024 : n;
		bool zero = true;
		for (size_t k = 0; k < head; k++)
			zero &= p[k] == 0;
		for (size_t k = n - head; k < n; k++)
			zero &= p[k] == 0;
		CHECK(zero);
		memset(p, (int)(i + 1), head);
		memset(p + n - head, (int)(i + 1), head);
		q->p[i] = p;
		q->n[i] = n;
	}
}

/* No allocation overlaps another: each still holds its own byte. */
static bool intact(const struct seq *q)
{
	for (unsigned i = 0; i < SEQ_N; i++) {
		size_t head = q->n[i] > 128 * 1024 ? 64 * 1024 : q->n[i];
		for (size_t k = 0; k < head; k++)
			if (q->p[i][k] != (unsigned char)(i + 1) || q->p[i][q->n[i] - 1 - k] != (unsigned char)(i + 1))
				return false;
	}
	return true;
}

static size_t nchunks(const struct arena *a)
{
	size_t n = 0;
	for (const struct arena_chunk *c = a->head; c; c = c->next)
		n++;
	return n;
}

TEST(arena_chunks_zeroed_aligned_disjoint_either_way)
{
	for (int heap = 0; heap < 2; heap++) {
		struct arena a;
		arena_init(&a);
		a.heap = heap;
		struct seq q;
		fill(&a, &q);
		CHECK(intact(&q));
		size_t want = 0;
		for (unsigned i = 0; i < SEQ_N; i++)
			want += (q.n[i] + 15) & ~(size_t)15;
		CHECK_EQ(arena_bytes(&a), want);
		CHECK_EQ(a.total, want);
		/* Chunks double from 2 MB (a mapping or a calloc of a whole number
		 * of 2 MB, header included); an allocation larger than the next
		 * size gets a chunk of its own size. About 100 MB of allocations
		 * therefore take a handful of chunks, not one per megabyte. */
		for (const struct arena_chunk *c = a.head; c; c = c->next) {
			CHECK(c->used <= c->size);
			CHECK_EQ((c->size + sizeof *c) % (2 * MB), 0);
			CHECK_EQ((uintptr_t)c->data % 16, 0);
			if (heap)
				CHECK_EQ(c->map_len, 0);
		}
		size_t n = nchunks(&a);
		CHECK(n >= 4 && n <= 8);
		const struct arena_chunk *first = a.head;
		while (first->next)
			first = first->next;
		CHECK_EQ(first->size + sizeof *first, 2 * MB);
		arena_fini(&a);
		CHECK(a.head == NULL && a.total == 0);
		CHECK_EQ(a.heap, heap); /* kept for the next use */
	}
}

/* Where the system gives mappings, a chunk is one, starting on a 2 MB
 * boundary and a whole number of 2 MB long, so every 2 MB of it can be
 * a huge page; with transparent huge pages on (always or madvise, as here)
 * the kernel says it is eligible for them. */
static int thp_mode(void) /* 0 never or unknown, 1 madvise, 2 always */
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (!f)
		return 0;
	char buf[128] = "";
	if (!fgets(buf, sizeof buf, f))
		buf[0] = 0;
	fclose(f);
	return strstr(buf, "[always]") ? 2 : strstr(buf, "[madvise]") ? 1 : 0;
}

/* The THPeligible line of the mapping that holds p in /proc/self/smaps,
 * or -1. */
static int thp_eligible(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	char line[512];
	bool in = false;
	int r = -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long long lo, hi;
		char dash;
		if (sscanf(line, "%llx%c%llx ", &lo, &dash, &hi) == 3 && dash == '-') {
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		int v;
		if (in && sscanf(line, "THPeligible: %d", &v) == 1) {
			r = v;
			break;
		}
	}
	fclose(f);
	return r;
}

TEST(arena_chunks_mapped_aligned_and_huge_page_eligible)
{
	struct arena a;
	arena_init(&a);
	CHECK(!a.heap);
	unsigned char *p = arena_alloc(&a, 100);
	unsigned char *big = arena_alloc(&a, 5 * MB);
	big[5 * MB - 1] = 1;
	p[0] = 1;
	size_t mapped = 0;
	for (const struct arena_chunk *c = a.head; c; c = c->next) {
		if (!c->map_len)
			continue; /* calloc'd: this system refused the mapping */
		mapped++;
		CHECK_EQ((uintptr_t)c % (2 * MB), 0);
		CHECK_EQ(c->map_len % (2 * MB), 0);
		CHECK_EQ(c->map_len, c->size + sizeof *c);
		int e = thp_eligible(c->data);
		if (thp_mode() && e >= 0)
			CHECK_EQ(e, 1);
	}
#ifdef __linux__
	CHECK_EQ(mapped, 2); /* Linux always has anonymous mappings */
#endif
	arena_fini(&a);
}

/* Two arenas filled alike, one from mappings and one from calloc: the same
 * bytes saved, the same hash, and loading one's bytes into the other gives
 * it the first's state (what rewind and sim_fork do). */
TEST(arena_save_load_hash_same_for_mapped_and_heap_chunks)
{
	struct arena m, h;
	arena_init(&m);
	arena_init(&h);
	h.heap = true;
	struct seq qm, qh;
	fill(&m, &qm);
	fill(&h, &qh);
	/* a pointer field in each, noted, pointing into its own arena */
	void **slot_m = arena_alloc(&m, sizeof(void *)), **slot_h = arena_alloc(&h, sizeof(void *));
	ARENA_PTR(&m, *slot_m, qm.p[5]);
	ARENA_PTR(&h, *slot_h, qh.p[5]);
	CHECK_EQ(m.nptrs, 1);
	CHECK_EQ(h.nptrs, 1);
	CHECK(arena_check_ptrs(&m, NULL, 0, NULL) == 0);
	size_t n = arena_bytes(&m);
	REQUIRE(n == arena_bytes(&h));
	CHECK(arena_hash(&m) == arena_hash(&h));

	unsigned char *bm = xmalloc(n), *bh = xmalloc(n);
	arena_save(&m, bm);
	arena_save(&h, bh);
	/* equal but for the pointer's own value */
	size_t diff = 0;
	for (size_t i = 0; i < n; i++)
		diff += bm[i] != bh[i];
	CHECK(diff <= sizeof(void *));

	/* a state change moves the hash; loading the saved bytes restores it */
	uint64_t h0 = arena_hash(&m);
	qm.p[SEQ_N - 1][0] ^= 0x5a;
	qm.p[40][70 * MB - 1] ^= 0x5a; /* in the chunk of its own */
	CHECK(arena_hash(&m) != h0);
	arena_load(&m, bm);
	CHECK(arena_hash(&m) == h0);
	CHECK(intact(&qm));

	/* h takes m's state, its own pointer kept (sim_fork's way) */
	qm.p[7][3] = 0xee;
	arena_save(&m, bm);
	REQUIRE((unsigned char *)slot_h >= h.head->data && (unsigned char *)slot_h < h.head->data + h.head->used);
	/* arena_save writes the newest chunk first: the slot's offset is its
	 * offset in h's head chunk */
	memcpy(bm + ((unsigned char *)slot_h - h.head->data), slot_h, sizeof(void *));
	arena_load(&h, bm);
	CHECK_EQ(qh.p[7][3], 0xee);
	CHECK(*slot_h == qh.p[5]);
	CHECK(arena_hash(&h) == arena_hash(&m));
	free(bm);
	free(bh);
	arena_fini(&m);
	arena_fini(&h);
}
