/*
 * frc.h: the Fetch and Replacement Cache, one per L2 bank (FRC thesis §2;
 * ../shared/papers/notes/000-frc-thesis.md). A small set-associative
 * structure next to the L2 tags that starts a miss's fetch at once, holds
 * the incoming block until it is swapped into the L2, and then holds the
 * victim while it is evicted, so the L2 line is never transient.
 *
 *   FRC of one bank: sets x ways entries, set from the block's line number
 *   within the bank by l2.frc.index (frc_set_of; default xor)
 *
 *        way 0        way 1     ...
 *   set0 [FETCHING B] [FREE]
 *   set1 [EVICTING A] [SWAPPING C]
 *
 *   FREE --miss in L2 and FRC, free way--> FETCHING (fetch sent at once)
 *   FETCHING --data back: requesters answered--> SWAPPING (swap_cycles)
 *   SWAPPING --L2 line now holds the block--> EVICTING (victim dirty)
 *                                             or FREE (clean / empty)
 *   EVICTING --L1 copies' acks in (coherence), write-back handed--> FREE
 *
 * With a coherence protocol the swap also moves the victim's directory entry
 * into the FRC entry (frc.dir[i]), resets the L2 line's for the new block and
 * sends the victim's invalidations from the entry (coh_dir.c: coh_frc_*);
 * the entry frees after the last ack (and the dirty write-back).
 *
 * A miss whose FRC set is full takes the conventional path (`frc.fallback`).
 * Requests for a block being fetched wait on its entry (`frc.hits_fetching`).
 * Each counter is kept per bank (l2.bankN.frc.*, l2.c registers them) and
 * machine-wide (frc.*, sim.c), the sum of the banks' (frc_check_stat_sums).
 */
#ifndef GPUSTEP_FRC_H
#define GPUSTEP_FRC_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/req.h"

enum frc_state { FRC_FREE, FRC_FETCHING, FRC_SWAPPING, FRC_EVICTING };

#define FRC_TAG 0x80000000u /* marks req.mshr as an FRC entry index */

struct frc_entry {
	uint64_t tag;      /* incoming block; after the swap: the victim block */
	uint64_t incoming; /* block fetched (kept for display) */
	uint64_t t_alloc, t_state, t_done;
	struct reqq wait;
	uint32_t mask;  /* sectors fetched */
	uint32_t wmask; /* sectors written by waiters (dirty after the swap) */
	uint32_t victim_sd;
	uint64_t t_handed; /* miss latency split: cycle the early fetch reached memory */
	uint64_t t_swap;   /* cycle the victim left the L2 line (EVICTING phases) */
	uint64_t t_acked;  /* cycle the victim's last invalidation ack came in */
	int32_t set;    /* L2 set */
	int16_t way;    /* L2 victim way, -1 until chosen */
	uint8_t state;  /* enum frc_state */
	uint8_t victim_valid;
	uint16_t nwait;
	uint16_t acks;  /* l2.sharers: the victim's L1 invalidation acks still due */
	uint32_t mreq;  /* request slot kept from the fill for the victim's write-back (REQ_NIL none) */
};

struct frc {
	struct frc_entry *e;
	int n, ways, sets;
	int set_bits, l2_set_bits; /* log2(sets), log2(l2.sets): for l2.frc.index */
	int active;    /* entries not FREE */
	int swapping;  /* entries SWAPPING */
	int evicting;  /* entries EVICTING */
	struct coh_dent *dir; /* coherence: the victim's directory entry per FRC entry, or NULL */
};

struct sim;
struct l2bank;
struct coh_dent;

void frc_init(struct sim *s, struct l2bank *b);
/* After an L2 tag miss with no MSHR entry for the line: wait on a fetching
 * entry, be served from an evicting one, or allocate. false = take the
 * conventional path. */
bool frc_access(struct sim *s, struct l2bank *b, uint32_t ri, int set);
/* Only wait on an entry fetching the request's block (writes use this). */
bool frc_join(struct sim *s, struct l2bank *b, uint32_t ri);
/* Memory completed an FRC fetch (req.mshr has FRC_TAG). */
void frc_fill(struct sim *s, struct l2bank *b, uint32_t mi);
/* An FRC write-back was handed to memory. */
void frc_handed(struct sim *s, struct l2bank *b, uint32_t mi);
/* Finish swaps that are due. */
void frc_tick(struct sim *s, struct l2bank *b);
const char *frc_state_name(unsigned st);
/* FRC set of block `addr` in bank b (l2.frc.index). */
int frc_set_of(const struct sim *s, const struct l2bank *b, uint64_t addr);
/* The EVICTING entry holding victim block `line`, or -1. */
int frc_victim_entry(const struct l2bank *b, uint64_t line);
/* Coherence: the victim's last invalidation ack is in (coh_dir.c). */
void frc_evict_acked(struct sim *s, struct l2bank *b, int i);

/* Each entry in one valid state and the bank's active/swapping/evicting
 * counters equal to the entries'; a block incoming in at most one entry and
 * not also a valid L2 line; a block in at most one entry (with coherence; see
 * frc.c). 0, or -1 with *err set. */
int frc_check_invariants(const struct sim *s, const struct l2bank *b, char **err);
/* The banks' l2.bankN.frc.<counter> sum to each machine-wide frc.<counter>.
 * 0, or -1 with *err set. */
int frc_check_stat_sums(const struct sim *s, char **err);

/* l2.c helpers for the FRC */
uint64_t l2_local_addr(const struct sim *s, uint64_t addr); /* bank-select bits removed */
void l2_nack_transient(struct sim *s, struct l2bank *b, uint32_t ri);
void l2_miss_lat_frc(struct sim *s, struct l2bank *b, const struct frc_entry *e); /* at the fill */

#endif
