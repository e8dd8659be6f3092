/*
 * l2.c: the L2 banks (slices) and the memory below them.
 *
 * Each bank: a set-associative tag array (bank bits removed from the address
 * before set indexing), an MSHR file, an input queue fed by the crossbar, an
 * output queue of replies, and a queue toward memory.
 *
 * Per cycle, per bank (l2_tick):
 *   1. FRC swaps that are due complete (frc.c)
 *   2. requests waiting for memory are handed over while it accepts them
 *   3. up to l2.ports lookups from the input queue
 *
 * With an FRC (l2.frc.entries > 0), a read miss on an absent line goes to the
 * FRC first and takes the conventional path below only when its FRC set is
 * full (frc.h).
 *
 * Reads/atomics that miss take the *conventional miss path* (l2_repl.c: the
 * victim line turns transient, its L1 copies are invalidated, a dirty victim
 * is written back, and only then is the block fetched). When every way of a
 * set is transient, new misses to the set are refused (`set_all_transient`).
 * A full MSHR file (or a full merge slot) refuses with `mshr_full`, a full
 * memory queue with `queue_full`, a request pool without room for what the
 * miss will need with `pool_full`; the L1 retries NACKed requests after
 * l1.retry_delay. Without a coherence protocol the L2 still records which
 * L1s hold each line (l2.sharers, l2_sharers.c) and invalidates them.
 *
 * Ports: l2.ports lookups per cycle, less the port cycles owed by fills
 * (l2.fill_port_cycles) and FRC fills and swaps (l2.frc.fill_port_cycles,
 * swap_port_cycles), which use the same data array (b->port_debt).
 *
 * Writes are write-back, write-allocate. lazy_fetch (Volta): a write miss
 * allocates the line and marks only the written sectors valid and dirty,
 * fetching nothing; a later read of an unwritten sector fetches it.
 * fetch_on_write: a write miss fetches the line first, like a read.
 *
 * Memory: the DRAM model (dram.h) or a fixed latency (mem.latency cycles,
 * mem.queue requests in flight per bank). With the DRAM and l2.dram_latency
 * = L > 0, a fixed latency stage sits between them (GPGPU-Sim's DRAM
 * latency queue, docs/MODEL.md):
 *
 *   memq --(DRAM would take it)--> dlatq (FIFO, L core cycles) --(DRAM has room)--> DRAM queue
 *
 * A request leaves memq (is "handed to memory": counted, its miss's
 * contention cut taken) when the DRAM could take it now, waits L cycles in
 * dlatq, then enters the DRAM's queue as soon as that has room; a head that
 * finds no room holds the requests behind it. Replies come straight back.
 *
 * Miss latency split (l2.miss_lat.{conv,frc}.*): for each miss that takes an
 * MSHR entry (conventional) or an FRC entry, the cycles from the miss to the
 * fill, cut at: last invalidation ack (inval), victim write-back handed to
 * memory (evict), fetch handed to memory (contention), data back (dram).
 * b->mlat keeps the cut points per MSHR entry; frc_entry.t_handed for the FRC.
 */
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#include "coh_eng.h"
#include "frc.h"
#include "l2_int.h"
#include "l2_sharers.h"
#include "mem_probe.h"

static uint32_t bank_stat(struct sim *s, int b, const char *what, const char *desc)
{
	char name[64];
	snprintf(name, sizeof name, "l2.bank%d.%s", b, what);
	return stats_counter(&s->stats, name, desc);
}

void l2_init(struct sim *s, struct l2bank *b)
{
	const struct l2_cfg *c = &s->cfg.l2;
	cache_init(&b->c, &s->arena, c->sets, c->ways, c->line, c->sector, c->repl, c->index);
	mshr_init(&b->m, &s->arena, l2_mshr_cap(&s->cfg));
	reqq_init(&b->inq);
	reqq_init(&b->ackinq);
	reqq_init(&b->outq);
	reqq_init(&b->outq_now);
	reqq_init(&b->memq);
	reqq_init(&b->fixedq);
	reqq_init(&b->dlatq);
	int i = b->id;
	b->st.accesses = bank_stat(s, i, "accesses", "lookups in this bank");
	b->st.hits = bank_stat(s, i, "hits", "lookups that hit");
	b->st.misses = bank_stat(s, i, "misses", "lookups that missed (merges included)");
	b->st.merges = bank_stat(s, i, "mshr_merges", "misses merged into a pending MSHR entry");
	b->st.nacks = bank_stat(s, i, "nacks", "requests refused (NACK)");
	b->st.transient_blocks = bank_stat(s, i, "transient_blocks", "requests refused: their line is transient");
	b->st.set_all_transient = bank_stat(s, i, "set_all_transient", "misses refused: every way of the set is transient");
	b->st.writebacks = bank_stat(s, i, "writebacks", "dirty lines written back to memory");
	b->st.fills = bank_stat(s, i, "fills", "lines filled from memory");
	char name[64];
	snprintf(name, sizeof name, "l2.bank%d.mshr.occupancy", i);
	b->st.mshr_occ = stats_occupancy(&s->stats, name, "L2 MSHR entries in use", l2_mshr_cap(&s->cfg));
	/* Per MSHR entry, at the capacity (l2_mshr_cap): the limit may change in a fork. */
	size_t cap = l2_mshr_cap(&s->cfg);
	ARENA_SET(&s->arena, b->mlat, uint64_t, 3 * cap);
	ARENA_SET(&s->arena, b->mres, uint32_t, 2 * cap);
	for (size_t k = 0; k < 2 * cap; k++)
		b->mres[k] = REQ_NIL;
	ARENA_SET(&s->arena, b->inv_acks, uint16_t, cap);
	if (c->frc.entries) {
		snprintf(name, sizeof name, "l2.bank%d.frc.occupancy", i);
		b->st.frc_occ = stats_occupancy(&s->stats, name, "FRC entries busy", (uint64_t)c->frc.entries);
		/* The machine-wide frc.* counters (sim.c) are the sums of these. */
		b->st.frc_lookups = bank_stat(s, i, "frc.lookups", "FRC tag lookups in this bank (frc.lookups)");
		b->st.frc_allocs = bank_stat(s, i, "frc.allocs", "this bank's L2 misses handled by its FRC (frc.allocs)");
		b->st.frc_fallbacks = bank_stat(s, i, "frc.fallbacks",
						"this bank's L2 misses that took the conventional path (frc.fallbacks)");
		b->st.frc_hits_fetching = bank_stat(s, i, "frc.hits_fetching",
						    "requests that waited on an entry of this bank's FRC (frc.hits_fetching)");
		b->st.frc_evicting_hits = bank_stat(s, i, "frc.evicting_hits",
						    "requests served from a victim in this bank's FRC (frc.evicting_hits)");
		b->st.frc_fills = bank_stat(s, i, "frc.fills", "fetched blocks written into this bank's FRC (frc.fills)");
		b->st.frc_swaps = bank_stat(s, i, "frc.swaps", "FRC entry / L2 victim line swaps in this bank (frc.swaps)");
		b->st.frc_evictions = bank_stat(s, i, "frc.evictions",
						"dirty victims written back from this bank's FRC (frc.evictions)");
		char num[64], den[64];
		snprintf(name, sizeof name, "l2.bank%d.frc.share", i);
		snprintf(num, sizeof num, "l2.bank%d.frc.allocs", i);
		snprintf(den, sizeof den, "l2.bank%d.misses", i);
		stats_ratio(&s->stats, name, "share of this bank's L2 misses handled by its FRC (frc.share per bank)", num,
			    den, 1.0);
	}
}

enum { ML_INVAL, ML_EVICT, ML_CONT, ML_DRAM, ML_TOTAL, ML_MISSES };

void l2_register_stats(struct sim *s)
{
	struct stats *st = &s->stats;
	static const char *const path[2] = {"conv", "frc"};
	static const char *const part[6] = {"inval", "evict", "contention", "dram", "total", "misses"};
	static const char *const what[6] = {
		"cycles waiting for the victim's L1 invalidation acks",
		"cycles waiting for the victim's write-back to be handed to memory",
		"cycles waiting for memory to accept the fetch (FRC: includes the lookup)",
		"cycles from the fetch's hand-off to memory until its data came back",
		"cycles from the miss to its fill (the four parts)",
		"misses measured (one per MSHR / FRC entry allocated; merges not counted)",
	};
	for (int p = 0; p < 2; p++) {
		char name[64], num[64], den[64], desc[160];
		snprintf(den, sizeof den, "l2.miss_lat.%s.misses", path[p]);
		for (int k = 0; k < 6; k++) {
			snprintf(name, sizeof name, "l2.miss_lat.%s.%s", path[p], part[k]);
			snprintf(desc, sizeof desc, "L2 misses on the %s path: sum of %s",
				 p ? "FRC" : "conventional", what[k]);
			if (k == ML_MISSES)
				snprintf(desc, sizeof desc, "L2 misses on the %s path %s", p ? "FRC" : "conventional", what[k]);
			s->id.ml[p][k] = stats_counter(st, name, desc);
		}
		for (int k = 0; k < 5; k++) {
			snprintf(num, sizeof num, "l2.miss_lat.%s.%s", path[p], part[k]);
			snprintf(name, sizeof name, "l2.miss_lat.%s.avg_%s", path[p], part[k]);
			snprintf(desc, sizeof desc, "average %s cycles per miss on the %s path", part[k],
				 p ? "FRC" : "conventional");
			stats_ratio(st, name, desc, num, den, 1.0);
		}
	}
	if (s->cfg.l2.dram_latency && s->cfg.mem.model == MEM_DRAM) {
		s->id.dstage_reqs = stats_counter(st, "l2.dram_stage.requests",
						  "requests that passed the fixed DRAM latency stage (l2.dram_latency) into the DRAM's queue");
		s->id.dstage_cycles = stats_counter(st, "l2.dram_stage.cycles",
						    "cycles those requests spent in the stage: l2.dram_latency each, plus l2.dram_stage.blocked");
		s->id.dstage_blocked = stats_counter(st, "l2.dram_stage.blocked",
						     "cycles past l2.dram_latency that requests waited at the stage's exit for room in the DRAM's queue "
						     "(at its head, or behind a head that waited)");
		s->id.dstage_occ = stats_occupancy(st, "l2.dram_stage.occupancy", "requests in the fixed DRAM latency stage, all banks",
						   sim_req_pool_slots(&s->cfg));
		stats_ratio(st, "l2.dram_stage.avg_cycles", "mean cycles per request in the fixed DRAM latency stage",
			    "l2.dram_stage.cycles", "l2.dram_stage.requests", 1.0);
	}
	s->id.frc_inv_victims = stats_counter(st, "frc.inv_victims", "FRC swaps whose victim had L1 copies (Inv sent from the entry)");
	s->id.frc_ev_inval = stats_counter(st, "frc.evict_lat.inval",
					   "cycles FRC entries waited for their victim's invalidation acks (off the miss path)");
	s->id.frc_ev_wb = stats_counter(st, "frc.evict_lat.writeback",
					"cycles FRC entries waited for their dirty victim's write-back to be handed to memory");
	stats_ratio(st, "frc.evict_lat.avg_inval", "average invalidation wait per FRC victim with L1 copies",
		    "frc.evict_lat.inval", "frc.inv_victims", 1.0);
	stats_ratio(st, "frc.evict_lat.avg_writeback", "average write-back wait per dirty FRC victim",
		    "frc.evict_lat.writeback", "frc.evictions", 1.0);
	stats_ratio(st, "l2.mpki", "L2 misses (as l2.misses counts them) per 1000 warp instructions", "l2.misses",
		    "sim.warp_insts", 1000.0);
	s->id.l2sh_invs = stats_counter(st, "l2.sharers.invs",
					"invalidations sent to L1 copies of replaced lines without a coherence protocol (l2.sharers)");
	s->id.l2sh_l1_dropped = stats_counter(st, "l2.sharers.l1_dropped",
					      "L1 copies those invalidations found and dropped (the rest had left silently)");
	s->id.l2sh_stray_acks = stats_counter(st, "l2.sharers.stray_acks",
					      "invalidation acks nothing waited for (always 0 unless the model is wrong)");
	s->id.l2_head_waits = stats_counter(st, "l2.head_waits",
					    "L1 requests (not bypassed loads) that waited at the head of an L2 input queue for an MSHR "
					    "entry, merge slot, memory-queue or pool room or a line in transition (l2.when_busy = "
					    "queue; nack refuses them instead)");
	s->id.l2_pool_nacks = stats_counter(st, "l2.pool_nacks",
					    "misses refused because the request pool lacked room for what they will need");
	s->id.l2_port_fill = stats_counter(st, "l2.port_cycles.fill", "L2 port cycles taken by fills from memory");
	s->id.l2_port_frc = stats_counter(st, "l2.port_cycles.frc", "L2 port cycles taken by FRC fills and swaps");
	s->id.l2_sector_widen = stats_counter(st, "l2.sector_widen",
					      "extra fetches for sectors a merged request needed (sectored L2: no serial rounds)");
	s->id.mem_bytes = stats_counter(st, "mem.bytes", "bytes handed from the L2 to memory (reads and write-backs, by sector)");
	stats_ratio(st, "l2.mem_bytes_per_cycle", "L2 <-> memory bytes (mem.bytes) per core cycle", "mem.bytes",
		    "sim.cycles", 1.0);
}

void l2_miss_lat(struct sim *s, int p, uint64_t t0, uint64_t t_inv, uint64_t t_ev, uint64_t t_hand)
{
	uint64_t now = s->st->now;
	const uint32_t *id = s->id.ml[p];
	stat_add(&s->stats, id[ML_INVAL], t_inv - t0);
	stat_add(&s->stats, id[ML_EVICT], t_ev - t_inv);
	stat_add(&s->stats, id[ML_CONT], t_hand - t_ev);
	stat_add(&s->stats, id[ML_DRAM], now - t_hand);
	stat_add(&s->stats, id[ML_TOTAL], now - t0);
	stat_inc(&s->stats, id[ML_MISSES]);
}

void l2_miss_lat_frc(struct sim *s, struct l2bank *b, const struct frc_entry *e)
{
	(void)b;
	l2_miss_lat(s, 1, e->t_alloc, e->t_alloc, e->t_alloc, e->t_handed);
}

/* Address with the bank-select bits removed, for set indexing (with
 * sub-partitions, the channel digit and the sub-partition bits: GPGPU-Sim's
 * partition address). */
static uint64_t local_addr(const struct sim *s, uint64_t addr)
{
	if (s->part.nsub)
		return addrmap_partition_addr(&s->part, addr);
	uint64_t il = (uint64_t)s->cfg.l2.interleave, nb = (uint64_t)s->cfg.l2.banks;
	uint64_t chunk = addr / il;
	return (chunk / nb) * il + addr % il;
}

uint64_t l2_local_addr(const struct sim *s, uint64_t addr) { return local_addr(s, addr); }

static int bank_set(const struct sim *s, const struct l2bank *b, uint64_t addr)
{
	uint64_t *memo = &s->l2_set_memo[2 * (unsigned)b->id];
	if (memo[0] != addr) {
		memo[0] = addr;
		memo[1] = (uint64_t)cache_set(&b->c, local_addr(s, addr));
	}
	return (int)memo[1];
}

int l2_bank_set(const struct sim *s, const struct l2bank *b, uint64_t addr) { return bank_set(s, b, addr); }

uint32_t l2_memq_cap(const struct sim *s)
{
	return (uint32_t)(2 * s->cfg.l2.mshr_entries + 2 * s->cfg.l2.frc.entries + s->cfg.l2.queue);
}

bool l2_memq_room(const struct sim *s, const struct l2bank *b, uint32_t n) { return b->memq.n + n <= l2_memq_cap(s); }

uint64_t l2_fill_delay(const struct sim *s)
{
	return s->cfg.l2.fill_reply == L2FR_PIPELINE ? (uint64_t)s->cfg.l2.hit_latency : 0;
}

/* MSHR entries in use, counting FRC entries when they share the file. */
uint32_t l2_mshr_in_use(const struct sim *s, const struct l2bank *b)
{
	return b->m.used + (s->cfg.l2.frc.mshr == FRC_MSHR_SHARED ? (uint32_t)b->frc.active : 0);
}

void l2_mshr_changed(struct sim *s, struct l2bank *b)
{
	stat_occ_set(&s->stats, b->st.mshr_occ, b->m.used);
	occ_hist_set(&b->hist, s->st->now, (uint16_t)b->m.used);
}

void l2_reply(struct sim *s, struct l2bank *b, uint32_t ri, uint8_t kind, uint64_t delay)
{
	struct req *r = &s->pool.r[ri];
	if (r->type == RQ_WB) { /* write-backs from the L1 want no answer */
		req_free(&s->pool, ri);
		return;
	}
	if (s->coh)
		coh_l2_reply_note(s, b, r, kind); /* WTAck / Nack counts */
	if (s->cv && kind == RP_DATA)
		coh_values_l2_reply(s, b, ri); /* grants carry the line, atomics execute (coh_values.c) */
	if (kind == RP_DATA && b->shr)
		l2sh_note_reply(s, b, r); /* the L1 now holds a copy (l2.sharers) */
	r->reply = kind;
	r->t_ready = s->st->now + delay;
	/* Two FIFOs keep both in t_ready order without sorting: lookups (and,
	 * with l2.fill_reply = pipeline, the replies of a fill) all take
	 * hit_latency; refusals (and at_once fills) leave at once. */
	reqq_push(delay ? &b->outq : &b->outq_now, s->pool.r, ri);
	sim_act_l2(s, b);
}

static void nack(struct sim *s, struct l2bank *b, uint32_t ri, unsigned reason)
{
	struct req *r = &s->pool.r[ri];
	B_INC(s, b, nacks, l2_nacks);
	r->nack_reason = (uint8_t)reason;
	EV_EMIT(&s->ev, EV_L2_NACK, .cycle = s->st->now, .sm = (int16_t)r->sm, .unit = (int16_t)b->id, .addr = r->addr,
		.a = reason);
	l2_reply(s, b, ri, RP_NACK, 0);
}

void l2_nack(struct sim *s, struct l2bank *b, uint32_t ri, unsigned reason) { nack(s, b, ri, reason); }

void l2_nack_transient(struct sim *s, struct l2bank *b, uint32_t ri)
{
	B_INC(s, b, transient_blocks, l2_transient_blocks);
	nack(s, b, ri, NACK_TRANSIENT);
}

bool l2_pool_room(const struct sim *s, uint32_t n) { return req_room(&s->pool, n); }

void l2_pool_exhausted(struct sim *s, const char *what)
{
	fprintf(stderr,
		"gpustep: internal error at cycle %llu: no request slot for %s although room was made for it "
		"(%u of %u in use)\n",
		(unsigned long long)s->st->now, what, s->pool.used, s->pool.cap);
	abort();
}

void l2_mem_send(struct sim *s, struct l2bank *b, uint32_t mi, uint8_t type, uint64_t addr, uint32_t mask, uint32_t mshr)
{
	if (mi == REQ_NIL)
		l2_pool_exhausted(s, "a memory request whose slot was not reserved");
	struct req *m = &s->pool.r[mi];
	memset(m, 0, sizeof *m); /* a reserved or kept slot starts fresh, as from req_alloc */
	m->next = REQ_NIL;
	m->in_use = 1;
	m->type = type;
	m->addr = addr;
	m->mask = mask;
	m->mshr = mshr;
	m->bank = (uint16_t)b->id;
	m->t_issue = s->st->now;
	reqq_push(&b->memq, s->pool.r, mi);
	sim_act_l2(s, b);
}

/* A memory request whose room the caller checked (l2_pool_room): never fails. */
uint32_t l2_mem_req(struct sim *s, struct l2bank *b, uint8_t type, uint64_t addr, uint32_t mask, uint32_t mshr)
{
	uint32_t mi = req_alloc(&s->pool);
	if (mi == REQ_NIL)
		l2_pool_exhausted(s, type == RQ_WB ? "a write-back" : "a fetch");
	l2_mem_send(s, b, mi, type, addr, mask, mshr);
	return mi;
}

/* Write back a dirty victim not tied to a miss (lazy-fetch allocation, host copy). */
static void writeback(struct sim *s, struct l2bank *b, struct cline *cl, int set, uint32_t mshr)
{
	l2_writeback_slot(s, b, cl, set, mshr, REQ_NIL);
}

void l2_port_take(struct sim *s, struct l2bank *b, uint64_t c, uint32_t stat)
{
	if (!c)
		return;
	uint64_t now = s->st->now;
	if (b->port_t < now) { /* the ports idle since port_t paid the debt down */
		uint64_t paid = (now - b->port_t) * (uint64_t)s->cfg.l2.ports;
		b->port_debt = paid >= b->port_debt ? 0 : b->port_debt - paid;
		b->port_t = now;
	}
	b->port_debt += c;
	stat_add(&s->stats, stat, c);
}

/* Lookups the ports allow this cycle after the debt's share. */
static int ports_free(struct sim *s, struct l2bank *b)
{
	uint64_t now = s->st->now, p = (uint64_t)s->cfg.l2.ports;
	if (b->port_t < now) {
		uint64_t paid = (now - b->port_t) * p;
		b->port_debt = paid >= b->port_debt ? 0 : b->port_debt - paid;
	}
	uint64_t take = b->port_debt < p ? b->port_debt : p;
	b->port_debt -= take;
	b->port_t = now + 1;
	return (int)(p - take);
}

/* A lookup handled by the directory (coh_dir.c): the same counts and taps. */
void l2_count_access(struct sim *s, struct l2bank *b, uint32_t ri, int set, bool hit)
{
	struct req *r = &s->pool.r[ri];
	unsigned kind = r->type == RQ_ST || r->type == RQ_WB ? EVA_WRITE : r->type == RQ_ATOM ? EVA_ATOMIC : EVA_READ;
	B_INC(s, b, accesses, l2_accesses);
	EV_EMIT(&s->ev, EV_L2_ACCESS, .cycle = s->st->now, .sm = (int16_t)r->sm, .unit = (int16_t)b->id,
		.addr = r->addr, .set = set, .a = kind);
	l2_probe_access(s, b->id, r, set, hit, false);
	if (hit) {
		B_INC(s, b, hits, l2_hits);
		EV_EMIT(&s->ev, EV_L2_HIT, .cycle = s->st->now, .sm = (int16_t)r->sm, .unit = (int16_t)b->id,
			.addr = r->addr, .set = set);
	} else {
		B_INC(s, b, misses, l2_misses);
	}
}

void l2_apply_write(struct cline *cl, uint32_t mask)
{
	cl->sv |= mask;
	cl->sd |= mask;
}

enum { L2_DONE, L2_STALL };

/* lazy_fetch: a write miss with no MSHR entry for its line takes a victim
 * (written back if dirty, unless its L1 copies must go first) and keeps the
 * written sectors, without a fetch. */
static int write_lazy_allocate(struct sim *s, struct l2bank *b, uint32_t ri, int set, int way)
{
	struct req *r = &s->pool.r[ri];
	uint64_t now = s->st->now;
	int v = cache_victim(&b->c, set, &s->st->rng);
	if (v < 0) {
		B_INC(s, b, set_all_transient, l2_set_all_transient);
		nack(s, b, ri, NACK_SET_ALL_TRANSIENT);
		return L2_DONE;
	}
	struct cline *vl = cache_line(&b->c, set, v);
	if (vl->valid && (s->coh ? coh_l2_holders(b, set, v) : l2sh_has(s, b, set, v))) {
		l2_miss_path(s, b, ri, set, way); /* its L1 copies must go first */
		return L2_DONE;
	}
	l2sh_clear(s, b, set, v);
	if (s->coh)
		coh_l2_reset(b, set, v);
	if (vl->valid && vl->sd) {
		if (b->memq.n + 1 > l2_memq_cap(s) || !l2_pool_room(s, 1)) {
			nack(s, b, ri, b->memq.n + 1 > l2_memq_cap(s) ? NACK_QUEUE_FULL : NACK_POOL_FULL);
			return L2_DONE;
		}
		writeback(s, b, vl, set, REQ_NIL);
	}
	cache_install(&b->c, set, v, r->addr);
	if (s->cv)
		coh_values_l2_fill(s, b, set, v);
	l2_apply_write(vl, r->mask);
	if (s->cv)
		coh_values_l2_merge(s, b, ri, set, v, true);
	vl->touch = TOUCH_MISS;
	vl->touch_cycle = now;
	l2_reply(s, b, ri, RP_ACK, (uint64_t)s->cfg.l2.hit_latency);
	return L2_DONE;
}

/* A store or write-back: a present line takes the written sectors (no
 * valid sectors needed); a miss joins an FRC fetch, streams around the L2
 * (st.slc), takes the miss path (an entry for the line exists, or
 * fetch_on_write) or allocates lazily. */
static int write_access(struct sim *s, struct l2bank *b, uint32_t ri, int set, int way, bool present)
{
	struct req *r = &s->pool.r[ri];
	uint64_t now = s->st->now, lat = (uint64_t)s->cfg.l2.hit_latency;
	if (present) {
		struct cline *cl = cache_line(&b->c, set, way);
		B_INC(s, b, hits, l2_hits);
		EV_EMIT(&s->ev, EV_L2_HIT, .cycle = now, .sm = (int16_t)r->sm, .unit = (int16_t)b->id, .addr = r->addr,
			.set = set);
		l2_apply_write(cl, r->mask);
		if (s->cv)
			coh_values_l2_merge(s, b, ri, set, way, true);
		cache_touch(&b->c, set, way);
		cl->touch = TOUCH_HIT;
		cl->touch_cycle = now;
		l2_reply(s, b, ri, RP_ACK, lat);
		return L2_DONE;
	}
	B_INC(s, b, misses, l2_misses);
	EV_EMIT(&s->ev, EV_L2_MISS, .cycle = now, .sm = (int16_t)r->sm, .unit = (int16_t)b->id, .addr = r->addr,
		.set = set);
	if (frc_join(s, b, ri))
		return L2_DONE; /* the block is being fetched into the FRC */
	uint32_t e = mshr_find(&b->m, r->addr, 0);
	if (e == REQ_NIL && (r->flags & REQF_NOALLOC_L2) && !s->coh && !s->cfg.l2.frc.entries) {
		/* st.slc miss: write around (the written sectors go to memory), no line */
		if (b->memq.n + 1 > l2_memq_cap(s) || !l2_pool_room(s, 1)) {
			nack(s, b, ri, b->memq.n + 1 > l2_memq_cap(s) ? NACK_QUEUE_FULL : NACK_POOL_FULL);
			return L2_DONE;
		}
		stat_inc(&s->stats, s->id.l2_slc_streamed);
		l2_mem_req(s, b, RQ_WB, r->addr, r->mask, REQ_NIL);
		l2_reply(s, b, ri, RP_ACK, lat);
		return L2_DONE;
	}
	if (e != REQ_NIL || s->cfg.l2.write_fetch == L2W_FETCH_ON_WRITE) {
		l2_miss_path(s, b, ri, set, way);
		return L2_DONE;
	}
	return write_lazy_allocate(s, b, ri, set, way);
}

/* One lookup of a request from the crossbar: the directory's or the
 * sharer records' messages, else the tag lookup; writes (write_access),
 * read and atomic hits reply after the hit latency, misses go to the FRC
 * or the miss path (l2_repl.c). */
static int l2_access(struct sim *s, struct l2bank *b, uint32_t ri)
{
	struct req *r = &s->pool.r[ri];
	uint64_t now = s->st->now;
	if (s->coh && ((r->flags & REQF_COH) || r->type == RQ_ATOM) && coh_l2_access(s, b, ri))
		return L2_DONE; /* the directory (coh_dir.c) */
	if (r->type == RQ_COH) {
		l2sh_ack(s, b, ri); /* an invalidation's ack without a protocol (l2_sharers.c) */
		return L2_DONE;
	}
	int set = bank_set(s, b, r->addr);
	int way = cache_find(&b->c, set, r->addr);
	struct cline *cl = way >= 0 ? cache_line(&b->c, set, way) : NULL;
	unsigned kind = r->type == RQ_ST || r->type == RQ_WB ? EVA_WRITE : r->type == RQ_ATOM ? EVA_ATOMIC : EVA_READ;
	B_INC(s, b, accesses, l2_accesses);
	EV_EMIT(&s->ev, EV_L2_ACCESS, .cycle = now, .sm = (int16_t)r->sm, .unit = (int16_t)b->id, .addr = r->addr,
		.set = set, .a = kind);
	/* the old block of a line being replaced (transient) is a miss */
	bool present = cl && cl->valid && !cl->transient;
	bool hit = present && (kind == 1 || (cl->sv & r->mask) == r->mask); /* writes need no valid sectors */
	l2_probe_access(s, b->id, r, set, hit, mshr_find(&b->m, r->addr, 0) != REQ_NIL);
	if (cl && cl->valid && cl->transient) {
		B_INC(s, b, misses, l2_misses);
		B_INC(s, b, transient_blocks, l2_transient_blocks);
		nack(s, b, ri, NACK_TRANSIENT);
		return L2_DONE;
	}
	if (kind == 1)
		return write_access(s, b, ri, set, way, present);
	if (hit) {
		B_INC(s, b, hits, l2_hits);
		EV_EMIT(&s->ev, EV_L2_HIT, .cycle = now, .sm = (int16_t)r->sm, .unit = (int16_t)b->id, .addr = r->addr,
			.set = set);
		if (kind == 2)
			l2_apply_write(cl, r->mask);
		cache_touch(&b->c, set, way);
		cl->touch = TOUCH_HIT;
		cl->touch_cycle = now;
		l2_reply(s, b, ri, RP_DATA, (uint64_t)s->cfg.l2.hit_latency);
		return L2_DONE;
	}
	B_INC(s, b, misses, l2_misses);
	EV_EMIT(&s->ev, EV_L2_MISS, .cycle = now, .sm = (int16_t)r->sm, .unit = (int16_t)b->id, .addr = r->addr,
		.set = set);
	if (cl) {
		cl->touch = TOUCH_MISS;
		cl->touch_cycle = now;
	}
	if (kind == 0 && (r->flags & REQF_NOALLOC_L2) && !present && !s->cfg.l2.frc.entries &&
	    mshr_find(&b->m, r->addr, 0) == REQ_NIL) {
		l2_slc_stream(s, b, ri, set);
		return L2_DONE;
	}
	l2_miss_path(s, b, ri, set, way);
	return L2_DONE;
}

/* A request left the memory queue: an eviction that blocked a miss is done. */
static void handed_to_memory(struct sim *s, struct l2bank *b, uint32_t mi)
{
	struct req *m = &s->pool.r[mi];
	if (m->type == RQ_WB)
		stat_inc(&s->stats, s->id.mem_writes);
	else
		stat_inc(&s->stats, s->id.mem_reads);
	stat_add(&s->stats, s->id.mem_bytes, (uint64_t)__builtin_popcount(m->mask) * (uint64_t)b->c.sector);
	if (m->type == RQ_FETCH && m->mshr != REQ_NIL)
		*((m->mshr & FRC_TAG) ? &b->frc.e[m->mshr & ~FRC_TAG].t_handed : &b->mlat[3 * m->mshr + 2]) = s->st->now;
	if (m->type == RQ_WB && m->mshr != REQ_NIL && (m->mshr & FRC_TAG)) {
		frc_handed(s, b, mi);
	} else if (m->type == RQ_WB && m->mshr != REQ_NIL) {
		l2_wb_handed(s, b, mi); /* a conventional miss's victim (l2_repl.c) */
	}
}

static void mem_done(struct sim *s, uint32_t mi)
{
	struct req *m = &s->pool.r[mi];
	struct l2bank *b = &s->banks[m->bank];
	if (m->type == RQ_WB && m->mshr != REQ_NIL && !(m->mshr & FRC_TAG)) {
		l2_wb_done(s, b, mi); /* serial eviction: now the fetch (l2_repl.c) */
		sim_progress(s);
	} else if (m->type == RQ_WB) {
		req_free(&s->pool, mi);
		sim_progress(s);
	} else if (m->mshr & FRC_TAG) {
		frc_fill(s, b, mi);
	} else {
		l2_fill(s, b, mi);
	}
}

/* Whether the DRAM's queue has room for request mi now; a refusal is noted
 * once per request, so skipped idle cycles change nothing. */
static bool dram_room(struct sim *s, uint32_t mi)
{
	struct req *m = &s->pool.r[mi];
	bool wr = m->type == RQ_WB;
	if (dram_can_accept(s->dram, m->addr, wr))
		return true;
	if (!(m->flags & REQF_FULL_SEEN)) {
		m->flags |= REQF_FULL_SEEN;
		dram_note_full(s->dram, m->addr, wr);
	}
	return false;
}

/* Request mi enters the DRAM's queue (room checked by the caller). */
static void dram_hand(struct sim *s, struct l2bank *b, uint32_t mi)
{
	struct req *m = &s->pool.r[mi];
	bool wr = m->type == RQ_WB;
	/* The requesting SM (TEMP page colouring); unknown for write-backs
	 * and FRC fetches. */
	int from = wr || (m->mshr & FRC_TAG) ? -1 : (int)b->m.e[m->mshr].sm;
	uint32_t bytes = s->cfg.l2.sector && s->cfg.l2.sector_mem
				 ? (uint32_t)__builtin_popcount(m->mask) * (uint32_t)s->cfg.l2.sector
				 : 0;
	dram_enqueue_bytes(s->dram, m->addr, wr, mi, from, bytes);
}

/* l2.dram_latency: the stage's requests that have waited out the latency
 * enter the DRAM's queue in FIFO order while it has room. Each was handed
 * to memory (counted, its miss's cut taken) when it entered the stage. */
static void dram_stage_out(struct sim *s, struct l2bank *b)
{
	struct req *R = s->pool.r;
	uint64_t now = s->st->now, lat = (uint64_t)s->cfg.l2.dram_latency;
	while (reqq_ready(&b->dlatq, R, now) && dram_room(s, b->dlatq.head)) {
		uint32_t mi = reqq_pop(&b->dlatq, R);
		stat_occ_add(&s->stats, s->id.dstage_occ, -1);
		stat_inc(&s->stats, s->id.dstage_reqs);
		stat_add(&s->stats, s->id.dstage_cycles, now - (R[mi].t_ready - lat));
		stat_add(&s->stats, s->id.dstage_blocked, now - R[mi].t_ready);
		dram_hand(s, b, mi);
		sim_progress(s);
	}
}

void l2_tick(struct sim *s, struct l2bank *b)
{
	struct req *R = s->pool.r;
	uint64_t now = s->st->now;
	/* 1. FRC swaps that are due */
	frc_tick(s, b);
	/* 2. the fixed DRAM latency stage's due requests enter the DRAM's
	 * queue, then requests waiting for memory are handed over (to the
	 * stage, the DRAM or the fixed latency) while it accepts them (an early
	 * FRC fetch waits out the FRC lookup) */
	if (b->dlatq.n)
		dram_stage_out(s, b);
	uint64_t lat = (uint64_t)s->cfg.l2.dram_latency;
	while (reqq_ready(&b->memq, R, now)) {
		uint32_t mi = b->memq.head;
		if (s->dram) {
			if (!dram_room(s, mi))
				break;
			reqq_pop(&b->memq, R);
			if (lat) {
				R[mi].t_ready = now + lat;
				reqq_push(&b->dlatq, R, mi);
				stat_occ_add(&s->stats, s->id.dstage_occ, 1);
			} else {
				dram_hand(s, b, mi);
			}
		} else {
			if (b->fixedq.n >= (uint32_t)s->cfg.mem.queue)
				break;
			reqq_pop(&b->memq, R);
			R[mi].t_ready = now + (uint64_t)s->cfg.mem.latency;
			reqq_push(&b->fixedq, R, mi);
		}
		handed_to_memory(s, b, mi);
		sim_progress(s);
	}
	/* 3. lookups, on the ports fills and FRC swaps leave free: the Acks'
	 * channel first (icnt.ack_channel = separate; an Ack always completes,
	 * so that queue drains whatever waits in the other), then the input
	 * queue */
	if (reqq_ready(&b->ackinq, R, now) || reqq_ready(&b->inq, R, now)) {
		int ports = ports_free(s, b), p = 0;
		if (!ports)
			sim_wake_at(s, now + 1);
		for (; p < ports && reqq_ready(&b->ackinq, R, now); p++) {
			uint32_t ri = reqq_pop(&b->ackinq, R);
			icnt_ack_credit(s, b, -1);
			l2_access(s, b, ri);
			sim_progress(s);
		}
		for (; p < ports && reqq_ready(&b->inq, R, now); p++) {
			if (l2_head_waits(s, b, b->inq.head))
				break; /* waits at the head instead of a NACK (l2_wait.c) */
			uint32_t ri = reqq_pop(&b->inq, R);
			icnt_req_credit(s, b, -1);
			l2_access(s, b, ri);
			sim_progress(s);
		}
	}
	sim_wake_q(s, &b->ackinq);
	sim_wake_q(s, &b->inq);
	sim_wake_q(s, &b->memq);
	sim_wake_q(s, &b->outq);
	sim_wake_q(s, &b->outq_now);
	sim_wake_q(s, &b->fixedq);
	sim_wake_q(s, &b->dlatq);
}

void mem_tick(struct sim *s)
{
	if (s->dram) {
		dram_tick(s->dram);
		uint32_t tag;
		bool wr;
		while (dram_pop_done(s->dram, &tag, &wr))
			mem_done(s, tag);
		sim_wake_at(s, dram_next_event(s->dram));
		return;
	}
	struct req *R = s->pool.r;
	int nb = s->cfg.l2.banks; /* a bank with requests in memory is busy (sim.c) */
	for (int i = sim_act_next(s->act_l2, nb, 0); i < nb; i = sim_act_next(s->act_l2, nb, i + 1)) {
		struct l2bank *b = &s->banks[i];
		while (reqq_ready(&b->fixedq, R, s->st->now))
			mem_done(s, reqq_pop(&b->fixedq, R));
	}
}

/* A host copy wrote the whole line of addr (hostcopy.c): install it in its
 * bank, clean and fully valid, as a fill would, but without a request. Lines
 * that are busy (a pending fill or eviction, an FRC entry, a locked directory
 * entry, L1 copies under coherence: recalling them would need messages) are
 * left alone, and so is a dirty victim when the memory queue or the request
 * pool has no room for its write-back. Not an access: no hit/miss counts, no
 * reuse-profiler tap. */
int l2_install_line(struct sim *s, uint64_t addr)
{
	struct l2bank *b = &s->banks[icnt_bank_of(s, addr)];
	uint64_t la = cache_line_addr(&b->c, addr);
	int set = bank_set(s, b, la);
	if (mshr_find(&b->m, la, 0) != REQ_NIL)
		return L2I_SKIPPED;
	for (int i = 0; i < b->frc.n; i++) {
		const struct frc_entry *e = &b->frc.e[i];
		if (e->state != FRC_FREE && (e->tag == la || e->incoming == la))
			return L2I_SKIPPED;
	}
	int way = cache_find(&b->c, set, la);
	if (way >= 0) {
		struct cline *cl = cache_line(&b->c, set, way);
		if (!cl->valid || cl->reserved || cl->transient || cl->swap_pending || cl->pinned || cl->fetching ||
		    (s->coh && coh_l2_holders(b, set, way)))
			return L2I_SKIPPED; /* present and clean of L1 trouble: the record stays valid */
		cl->sv = b->c.all_sectors; /* the copy's data; still dirty if it was */
		cache_touch(&b->c, set, way);
		cl->touch = TOUCH_FILL;
		cl->touch_cycle = s->st->now;
		return L2I_PRESENT;
	}
	int v = cache_victim(&b->c, set, &s->st->rng);
	if (v < 0)
		return L2I_SKIPPED;
	struct cline *vl = cache_line(&b->c, set, v);
	if (vl->valid && (s->coh ? coh_l2_holders(b, set, v) : l2sh_has(s, b, set, v)))
		return L2I_SKIPPED; /* its L1 copies would need invalidating */
	int r = L2I_INSTALLED;
	if (vl->valid && vl->sd) {
		if (!l2_memq_room(s, b, 1) || s->pool.used >= s->pool.cap)
			return L2I_SKIPPED;
		writeback(s, b, vl, set, REQ_NIL);
		r = L2I_INSTALLED_WB;
	}
	if (s->coh)
		coh_l2_reset(b, set, v); /* no L1 sharers */
	l2sh_clear(s, b, set, v);
	cache_install(&b->c, set, v, la);
	vl->sv = b->c.all_sectors;
	if (s->cv)
		coh_values_l2_fill(s, b, set, v); /* host-copied data counts as the initial values */
	vl->touch = TOUCH_FILL;
	vl->touch_cycle = s->st->now;
	return r;
}
