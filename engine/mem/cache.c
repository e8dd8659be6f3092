/* cache.c: tag array, index functions and replacement; see cache.h. */
#include "cache.h"

#include <stddef.h>
#include <string.h>

#include "sim/hier_cfg.h"

void cache_init(struct cache *c, struct arena *a, int sets, int ways, int line, int sector, int repl,
		int index)
{
	c->sets = sets;
	c->ways = ways;
	c->line = line;
	c->sector = sector ? sector : line;
	c->nsect = line / c->sector;
	c->all_sectors = c->nsect >= 32 ? UINT32_MAX : (1u << c->nsect) - 1;
	c->repl = repl;
	c->index = index;
	c->off_bits = log2u((uint64_t)line);
	c->idx_bits = log2u((uint64_t)sets);
	c->clock = 0;
	ARENA_SET(a, c->l, struct cline, (size_t)sets * (size_t)ways);
}

/* Irreducible polynomials over GF(2), by degree (bit d set). */
static const uint32_t ipoly_tab[13] = {0,     0x3,   0x7,   0xB,   0x13,  0x25,  0x43,
				       0x89,  0x11D, 0x211, 0x409, 0x805, 0x1053};

/* x mod P (deg >= 1): long division over GF(2), one step per set bit at or
 * above deg, highest first (P's leading term clears that bit). */
static unsigned ipoly_mod(uint64_t x, unsigned deg)
{
	uint64_t p = ipoly_tab[deg];
	while (x >> deg)
		x ^= p << (63u - (unsigned)__builtin_clzll(x) - deg);
	return (unsigned)x;
}

int cache_set(const struct cache *c, uint64_t addr)
{
	uint64_t la = addr >> c->off_bits;
	unsigned mask = (unsigned)c->sets - 1;
	switch (c->index) {
	case IDX_FERMI_HASH: {
		unsigned lo = (unsigned)(la & 31);
		unsigned hi = (unsigned)(((la >> 6) & 7) | ((la >> 10) & 1) << 3 | ((la >> 12) & 1) << 4);
		unsigned v = (lo ^ hi) + 32u * (unsigned)((la >> 5) & 1);
		return (int)(v & mask);
	}
	case IDX_IPOLY:
		if (c->idx_bits == 0)
			return 0;
		return (int)(ipoly_mod(la, c->idx_bits) & mask);
	default:
		return (int)(la & mask);
	}
}

uint32_t cache_sector_mask(const struct cache *c, uint64_t addr, unsigned size)
{
	if (c->nsect == 1)
		return 1;
	unsigned off = (unsigned)(addr & (uint64_t)(c->line - 1));
	unsigned first = off / (unsigned)c->sector;
	unsigned last = (off + (size ? size : 1) - 1) / (unsigned)c->sector;
	if (last >= (unsigned)c->nsect)
		last = (unsigned)c->nsect - 1;
	/* Bits first..last (last <= 31: 2u << 31 wraps to 0, as wanted). */
	return (uint32_t)((2u << last) - (1u << first));
}

/* The first way holding the line. Wide sets (titanv's L1 has 64 ways) make
 * this the hottest loop of an L1 lookup, so the scan compares tags alone,
 * four ways a step, and only from the first equal tag on checks validity
 * (an invalid way may keep a stale tag). */
int cache_find(const struct cache *c, int set, uint64_t line_addr)
{
	const struct cline *l = &c->l[(size_t)set * (size_t)c->ways];
	int n = c->ways, w = 0;
	for (; w + 4 <= n; w += 4)
		if (l[w].tag == line_addr || l[w + 1].tag == line_addr || l[w + 2].tag == line_addr ||
		    l[w + 3].tag == line_addr)
			break;
	for (; w < n; w++)
		if (l[w].tag == line_addr && (l[w].valid || l[w].reserved))
			return w;
	return -1;
}

void cache_touch(struct cache *c, int set, int way)
{
	if (c->repl == REPL_LRU)
		cache_line(c, set, way)->stamp = ++c->clock;
}

/* The one-byte flags of struct cline from `valid` on, read as one word:
 * a way that may not be a victim has one of these bytes nonzero. */
_Static_assert(offsetof(struct cline, reserved) == offsetof(struct cline, valid) + 1 &&
		       offsetof(struct cline, transient) == offsetof(struct cline, valid) + 2 &&
		       offsetof(struct cline, swap_pending) == offsetof(struct cline, valid) + 4 &&
		       offsetof(struct cline, pinned) == offsetof(struct cline, valid) + 6 &&
		       offsetof(struct cline, fetching) == offsetof(struct cline, valid) + 7,
	       "cache_victim reads valid..fetching as one word");

static inline uint64_t cl_flags(const struct cline *l)
{
	uint64_t f;
	memcpy(&f, &l->valid, sizeof f);
	return f;
}

/* The word of the bytes given (in struct order, whatever the byte order). */
static inline uint64_t cl_bytes(const unsigned char b[8])
{
	uint64_t m;
	memcpy(&m, b, sizeof m);
	return m;
}

int cache_victim(struct cache *c, int set, struct rng *rng)
{
	struct cline *l = &c->l[(size_t)set * (size_t)c->ways];
	int best = -1, navail = 0;
	uint64_t best_stamp = 0;
	/* valid, reserved, transient, touch, swap_pending, coh, pinned, fetching */
	static const unsigned char held_b[8] = {0, 0xff, 0xff, 0, 0xff, 0, 0xff, 0xff}, valid_b[8] = {0xff};
	const uint64_t held = cl_bytes(held_b), valid = cl_bytes(valid_b);
	/* Wide sets (titanv's L1: 64 ways) make this a hot loop of every fill:
	 * the five flags in one test (cl_flags), the best stamp kept. */
	for (int w = 0; w < c->ways; w++) {
		uint64_t f = cl_flags(&l[w]);
		if (f & held)
			continue;
		if (!(f & valid))
			return w;
		navail++;
		if (best < 0 || l[w].stamp < best_stamp) {
			best = w;
			best_stamp = l[w].stamp;
		}
	}
	if (best >= 0 && c->repl == REPL_RANDOM) {
		uint64_t k = rng_below(rng, (uint64_t)navail);
		for (int w = 0; w < c->ways; w++) {
			if (l[w].reserved || l[w].transient || l[w].swap_pending || l[w].pinned || l[w].fetching)
				continue;
			if (k-- == 0)
				return w;
		}
	}
	return best;
}

void cache_install(struct cache *c, int set, int way, uint64_t line_addr)
{
	struct cline *l = cache_line(c, set, way);
	l->tag = line_addr;
	l->valid = 1;
	l->reserved = 0;
	l->transient = 0;
	l->swap_pending = 0;
	l->sv = l->sd = 0;
	l->stamp = ++c->clock;
}

int cache_lru_rank(const struct cache *c, int set, int way)
{
	const struct cline *l = &c->l[(size_t)set * (size_t)c->ways];
	if (!l[way].valid)
		return -1;
	int rank = 0;
	for (int w = 0; w < c->ways; w++)
		if (w != way && l[w].valid && l[w].stamp > l[way].stamp)
			rank++;
	return rank;
}
