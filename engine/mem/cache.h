/*
 * cache.h: a generic set-associative tag array (used by the L1s and the L2
 * banks). Holds tags and per-line state only; no data.
 *
 *   address:  | tag ........ | set index | line offset |
 *             the set index comes from the index function:
 *               linear      (line address) mod sets
 *               fermi_hash  line bits 0-4 XOR bits 6,7,8,10,12, plus 32 x bit 5,
 *                           mod sets (reuse-distance paper §5.1, generalised to
 *                           line addresses as in its reference implementation)
 *               ipoly       line address as a GF(2) polynomial modulo an
 *                           irreducible polynomial of degree log2(sets)
 *
 *   lines[set * ways + way]; LRU keeps a per-line stamp (larger = more recent),
 *   FIFO stamps only on fill, random draws from the simulator's PRNG.
 *
 * Sectors: a line of `line` bytes holds line/sector sectors, each with its own
 * valid and dirty bit (one sector covering the whole line when not sectored).
 */
#ifndef GPUSTEP_CACHE_H
#define GPUSTEP_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/util.h"

struct cline {
	uint64_t tag;     /* line address (addr with offset bits cleared) */
	uint64_t stamp;   /* replacement order */
	uint64_t touch_cycle;
	uint32_t sv, sd;  /* sector valid / dirty bits */
	uint8_t valid;    /* holds a tag (some sectors may be invalid) */
	uint8_t reserved; /* allocated for a pending fill (allocate-on-miss) */
	uint8_t transient; /* L2 conventional miss path: victim being replaced */
	uint8_t touch;    /* enum touch (inspect.h) of the last access */
	uint8_t swap_pending; /* L2: chosen as the victim of an FRC swap */
	uint8_t coh;      /* L1 with a coherence protocol: enum coh_state of the copy */
	uint8_t pinned;   /* coherence: L1 line being upgraded / L2 line whose directory
			   * entry is locked; never chosen as a victim */
	uint8_t fetching; /* a present line whose missing sectors are being fetched
			   * (sector miss): never a victim until that fill */
};

struct cache {
	int sets, ways, line, sector, nsect;
	int repl, index;
	unsigned off_bits, idx_bits;
	uint32_t all_sectors;
	uint64_t clock; /* replacement stamp source */
	struct cline *l;
};

void cache_init(struct cache *c, struct arena *a, int sets, int ways, int line, int sector, int repl,
		int index);

static inline uint64_t cache_line_addr(const struct cache *c, uint64_t addr)
{
	return addr & ~(uint64_t)(c->line - 1);
}
int cache_set(const struct cache *c, uint64_t addr);
/* Sector bits covering bytes [addr, addr + size) of its line. */
uint32_t cache_sector_mask(const struct cache *c, uint64_t addr, unsigned size);
/* Way holding (valid or reserved) the line of addr in its set, or -1. */
int cache_find(const struct cache *c, int set, uint64_t line_addr);
static inline struct cline *cache_line(struct cache *c, int set, int way)
{
	return &c->l[(size_t)set * (size_t)c->ways + (size_t)way];
}
/* Record a use for LRU. */
void cache_touch(struct cache *c, int set, int way);
/* Choose a victim among lines that are neither reserved, transient, pinned nor
 * promised to an FRC swap;
 * invalid lines first. -1 when every way is reserved/transient. */
int cache_victim(struct cache *c, int set, struct rng *rng);
/* Install line_addr in (set, way): valid, stamped, sectors cleared. */
void cache_install(struct cache *c, int set, int way, uint64_t line_addr);
/* 0 = most recently used ... ways-1 = LRU, among valid lines; -1 if invalid. */
int cache_lru_rank(const struct cache *c, int set, int way);

#endif
