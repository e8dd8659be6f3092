/*
 * coh_stress.h: a small coherent system driven by the protocol tables (coh.h)
 * and a random tester over it (issue 9 "Reliability").
 *
 *   core 0 ─ L1 0 ─┐                                 ┌─ memory
 *   core 1 ─ L1 1 ─┼── per-pair FIFO channels ── directory + L2 (few lines)
 *   ...            │   random delay each message      │
 *   core n ─ L1 n ─┘                                 └─ fetch / write-back
 *
 * Each core issues one access at a time (load, store or atomic of one word of
 * one of `lines` lines) after a random pause. Every store and atomic writes a
 * unique value (sequence, word, core); every load is checked against what the
 * protocol's model allows, and the invariants are checked after every cycle:
 *   moesi   a load returns the latest stored value (SWMR + data value);
 *           one E/M/O owner at most, E/M exclusive; the directory's owner and
 *           sharers cover every copy.
 *   nmoesi  E/M exclusive (N copies are not); directory covers every copy;
 *           a load never returns its own core's overwritten value.
 *   si      no L1 copy is dirty; a load never returns its own core's
 *           overwritten value.
 *   all     values only come from stores to the same word; after the final
 *           flush memory holds, for every word written, a value stored to it
 *           (moesi: the latest), never a core's overwritten one; no deadlock.
 *   atomics run at the L2 (as in the engine: the L1 gives its copy back
 *           first, the directory invalidates every copy, merges their dirty
 *           words, then reads and writes the word) and read the latest value
 *           at the L2: with no write to the word since the previous atomic
 *           on it, that atomic's value (0 initially); otherwise one of the
 *           writes made since (moesi: the latest store). A write counts from
 *           when it is performed where the L2 must see it: at the L1 for
 *           moesi/nmoesi (the atomic's invalidation collects it), at its
 *           merge into the L2 for si's write-through.
 *   kernels (kernel_every): at a boundary the relaxed protocols release (si:
 *           write-throughs drained; nmoesi: N lines merged back with PutN)
 *           then acquire (S/V copies dropped; E/M stay: they are coherent);
 *           afterwards a load of a word nobody wrote since the boundary
 *           returns the word's value at the release (its owner's copy, else
 *           the L2's, else memory's) - kernel k+1 sees kernel k's writes.
 * The same code runs scripted (cs_access + cs_run) for the unit tests.
 */
#ifndef GPUSTEP_COH_STRESS_H
#define GPUSTEP_COH_STRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "coh.h"

#define CS_MAX_L1 16
#define CS_MAX_LINES 16
#define CS_WORDS 4

struct cs_cfg {
	const struct coh_proto *p;
	unsigned l1s;       /* <= CS_MAX_L1 */
	unsigned lines;     /* distinct lines accessed, <= CS_MAX_LINES */
	unsigned l1_ways;   /* lines per L1 (fully associative) */
	unsigned l2_lines;  /* lines in the L2 / directory entries */
	unsigned net_min, net_max; /* message delay range (cycles) */
	unsigned dir_latency;
	unsigned mem_latency;
	unsigned retry_max; /* NACK retry delay drawn from 1..retry_max */
	unsigned store_pct;
	unsigned atomic_pct; /* atomic read-modify-writes (exchange of a unique value) */
	unsigned bug;        /* enum cs_bug: deliberately broken behaviour for the tests */
	uint64_t kernel_every; /* accesses per kernel: a kernel boundary (release, acquire) after each; 0 = one kernel */
	unsigned pause_max; /* cycles between a core's accesses, 0..pause_max */
	uint64_t accesses;  /* total, all cores */
	uint64_t seed;
};

/* Broken behaviours the tests use to prove the atomic rule can fail. */
enum cs_bug {
	CS_BUG_NONE,
	CS_BUG_ATOM_NO_INV,    /* the directory performs an atomic without invalidating the copies */
	CS_BUG_ATOM_READS_MEM, /* an atomic reads memory instead of the (possibly dirty) L2 line */
	CS_BUG_NO_ACQUIRE,     /* kernel boundary: the L1s keep their S/V copies */
	CS_BUG_NO_RELEASE,     /* kernel boundary: N lines keep their unmerged words */
};

/* Defaults: 4 L1s of 2 lines, 8 lines, a 4-line L2, delays 1..6, 40 % stores,
 * 10 % atomics, a kernel boundary every 1000 accesses. */
void cs_default_cfg(struct cs_cfg *c, const struct coh_proto *p);

struct cs_result {
	bool ok;
	uint64_t cycle;     /* of the first violation, or the end */
	int line, l1;       /* -1 when not about one */
	char why[320];      /* the violation with the states involved */
	uint64_t accesses, loads, stores, atomics, l1_hits, nacks, transitions, dir_transitions;
	uint64_t kernels, kb_writebacks, kb_invalidations; /* boundaries, N lines merged, copies dropped */
	uint64_t msgs[CM__COUNT];
};

struct cs_sys;
struct cs_sys *cs_new(const struct cs_cfg *c);
void cs_free(struct cs_sys *s);
/* One-shot: build, run, free. */
void cs_stress(const struct cs_cfg *c, struct cs_result *out);

/* Scripted use: start an access on core `l1` (false when the core is busy),
 * then run until every queue is empty (or max cycles). */
bool cs_access(struct cs_sys *s, unsigned l1, unsigned line, unsigned word, bool store);
/* An atomic exchange on core `l1`; after cs_run, cs_atomic_read gives the
 * value it read at the L2 and *wrote the value it left there. */
bool cs_atomic(struct cs_sys *s, unsigned l1, unsigned line, unsigned word);
uint32_t cs_atomic_read(const struct cs_sys *s, unsigned l1, uint32_t *wrote);
/* The value core l1's last load read. */
uint32_t cs_load_read(const struct cs_sys *s, unsigned l1);
/* A kernel boundary now (the system must be quiet): si/nmoesi release (N
 * lines merged back to the L2, write-throughs drained) then acquire (S/V
 * copies dropped); moesi: nothing. Then loads of a word nobody wrote since
 * must return its value at the release. false if it did not drain. */
bool cs_kernel_boundary(struct cs_sys *s);
bool cs_run(struct cs_sys *s, uint64_t max_cycles);
/* Run exactly n cycles. */
void cs_step(struct cs_sys *s, uint64_t n);
unsigned cs_l1_state(const struct cs_sys *s, unsigned l1, unsigned line);
/* Directory entry of a line: false when the L2 does not hold it. */
bool cs_dir(const struct cs_sys *s, unsigned line, unsigned *ds, int *owner, uint64_t *sharers, bool *locked);
const struct cs_result *cs_stats(const struct cs_sys *s);
/* Make the L2 replace a line now (the tests' dirty-eviction case). */
bool cs_l2_evict(struct cs_sys *s, unsigned line);
/* Evict a line from one L1 (its REPLACE row). */
bool cs_l1_evict(struct cs_sys *s, unsigned l1, unsigned line);

#endif
