/*
 * event.h: every micro-architectural event kind, listed once in event.c's
 * table (name, description, which record fields mean something). The same
 * table feeds the event log panel, `break`, `help`, --list-events and trace
 * export.
 *
 * Emitting costs one bit test unless someone watches the kind (the log filter,
 * a breakpoint or a watchpoint): use EV_EMIT(), which builds the record only
 * when ev_on() says so.
 *
 * The log is a bounded ring in the simulator arena (memory never grows with
 * run length, and rewinding restores it).
 */
#ifndef GPUSTEP_EVENT_H
#define GPUSTEP_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "evcode.h"
#include "util.h"

/* X(enum suffix, "name", fields, "description") */
#define EVENT_LIST(X)                                                                              \
	X(WARP_ISSUE, "warp.issue", EVF_SM | EVF_WARP | EVF_A | EVF_B, "a warp issued an instruction (stmt = its statement, counted from 0 over the kernel's lines as `list` and `info warp` number them; op = ld, st, atom, ldsh, stsh, alu, bar)") \
	X(WARP_STALL, "warp.stall", EVF_SM | EVF_WARP | EVF_A, "a warp cannot issue for a new reason (reason = the state the warps panel shows: mem, scoreboard, mshr_full, barrier, alu, ...)") \
	X(WARP_DONE, "warp.done", EVF_SM | EVF_WARP, "a warp executed its exit")                       \
	X(CTA_LAUNCH, "cta.launch", EVF_SM | EVF_A, "a CTA was dispatched to an SM (cta = linear CTA id)")     \
	X(CTA_DONE, "cta.done", EVF_SM | EVF_A, "every warp of a CTA finished (cta = linear CTA id)")          \
	X(BARRIER, "warp.barrier", EVF_SM | EVF_A, "all warps of a CTA reached a barrier (cta = linear CTA id)") \
	X(COALESCE, "coalesce", EVF_SM | EVF_WARP | EVF_ADDR | EVF_A | EVF_B, "a memory instruction became reqs requests from lanes active lanes") \
	X(SHMEM_CONFLICT, "shmem.conflict", EVF_SM | EVF_WARP | EVF_A, "a shared-memory access needed passes passes (bank conflict when > 1)") \
	X(L1_ACCESS, "l1.access", EVF_SM | EVF_WARP | EVF_ADDR | EVF_SET | EVF_A, "an L1 lookup (op = read, write, atomic)") \
	X(L1_HIT, "l1.hit", EVF_SM | EVF_WARP | EVF_ADDR | EVF_SET, "an L1 lookup hit")                \
	X(L1_MISS, "l1.miss", EVF_SM | EVF_WARP | EVF_ADDR | EVF_SET, "an L1 lookup missed and allocated an MSHR entry") \
	X(L1_MSHR_MERGE, "l1.mshr_merge", EVF_SM | EVF_WARP | EVF_ADDR | EVF_A, "a miss merged into a pending MSHR entry (merged = requests now in the entry)") \
	X(L1_MSHR_FULL, "l1.mshr_full", EVF_SM | EVF_WARP | EVF_ADDR | EVF_A, "a miss found no free MSHR entry or merge slot (reason = entries, merges, per_warp: the per-warp limit; issue: a warp's global access is held at issue by the full MSHR file, once per stall)") \
	X(L1_FILL, "l1.fill", EVF_SM | EVF_ADDR | EVF_SET | EVF_A, "a reply filled an L1 line and woke woken waiting requests") \
	X(L1_EVICT, "l1.evict", EVF_SM | EVF_ADDR | EVF_SET, "an L1 line was evicted")                 \
	X(L1_RETRY, "l1.retry", EVF_SM | EVF_ADDR, "the L1 re-sent a request the L2 refused")         \
	X(ICNT_STALL, "icnt.stall", EVF_UNIT | EVF_A, "a crossbar port could not accept a packet (unit = port, dir = request, reply)") \
	X(L2_ACCESS, "l2.access", EVF_SM | EVF_UNIT | EVF_ADDR | EVF_SET | EVF_A, "an L2 bank lookup (unit = bank, op = read, write, atomic)") \
	X(L2_HIT, "l2.hit", EVF_SM | EVF_UNIT | EVF_ADDR | EVF_SET, "an L2 lookup hit")               \
	X(L2_MISS, "l2.miss", EVF_SM | EVF_UNIT | EVF_ADDR | EVF_SET, "an L2 lookup missed")          \
	X(L2_NACK, "l2.nack", EVF_SM | EVF_UNIT | EVF_ADDR | EVF_A, "the L2 refused a request (reason = mshr_full, transient, set_all_transient, queue_full, dir_locked, merge_full, pool_full)") \
	X(L2_TRANSIENT, "l2.transient", EVF_UNIT | EVF_ADDR | EVF_SET | EVF_A, "an L2 victim line became transient (way = its way)") \
	X(L2_SET_ALL_TRANSIENT, "l2.set_all_transient", EVF_UNIT | EVF_ADDR | EVF_SET, "every way of an L2 set is transient: new misses to it block") \
	X(L2_FILL, "l2.fill", EVF_UNIT | EVF_ADDR | EVF_SET, "memory data filled an L2 line")          \
	X(L2_WRITEBACK, "l2.writeback", EVF_UNIT | EVF_ADDR | EVF_SET, "a dirty L2 victim was written back to memory") \
	X(FRC_LOOKUP, "frc.lookup", EVF_UNIT | EVF_ADDR | EVF_SET, "an L2 miss looked up the bank's FRC (set = FRC set)") \
	X(FRC_ALLOC, "frc.alloc", EVF_UNIT | EVF_ADDR | EVF_SET | EVF_A, "an FRC entry took a miss and sent its fetch at once") \
	X(FRC_FALLBACK, "frc.fallback", EVF_UNIT | EVF_ADDR | EVF_SET | EVF_A, "the miss took the conventional path (reason = set_full: FRC set full, mshr_full: MSHRs shared and full, queue_full: memory queue full, no_victim, pool_full: request pool without room)") \
	X(FRC_ALL_BUSY, "frc.all_busy", EVF_UNIT, "every FRC entry of the bank is busy") \
	X(FRC_FILL, "frc.fill", EVF_UNIT | EVF_ADDR | EVF_A, "fetched data reached an FRC entry; its requesters are answered") \
	X(FRC_SWAP_START, "frc.swap_start", EVF_UNIT | EVF_ADDR | EVF_SET | EVF_A | EVF_B, "an FRC entry starts swapping with its L2 victim (way = L2 way, -1 = none free yet)") \
	X(FRC_SWAP_DONE, "frc.swap_done", EVF_UNIT | EVF_ADDR | EVF_SET | EVF_A | EVF_B, "the L2 line now holds the fetched block (way = L2 way)") \
	X(FRC_EVICT_DONE, "frc.evict_done", EVF_UNIT | EVF_ADDR | EVF_A, "the victim held by an FRC entry was written back") \
	X(FRC_FREE, "frc.free", EVF_UNIT | EVF_A, "an FRC entry became free") \
	X(DRAM_ENQUEUE, "dram.enqueue", EVF_CH | EVF_BANK | EVF_ROW | EVF_ADDR | EVF_A, "a request entered a DRAM controller queue (write = 1 for a write)") \
	X(DRAM_QUEUE_FULL, "dram.queue_full", EVF_CH | EVF_BANK | EVF_ROW | EVF_ADDR | EVF_A, "a DRAM queue refused a request (write = 1: the write queue; bank, row = -1: a TEMP page not placed yet)") \
	X(DRAM_ACT, "dram.act", EVF_CH | EVF_BANK | EVF_ROW, "ACTIVATE opened a row")                  \
	X(DRAM_RD, "dram.rd", EVF_CH | EVF_BANK | EVF_ROW | EVF_ADDR, "READ column command")             \
	X(DRAM_WR, "dram.wr", EVF_CH | EVF_BANK | EVF_ROW | EVF_ADDR, "WRITE column command")           \
	X(DRAM_PRE, "dram.pre", EVF_CH | EVF_BANK | EVF_ROW, "PRECHARGE closed a row")                  \
	X(DRAM_REF, "dram.ref", EVF_CH | EVF_BANK, "REFRESH (bank = -1: all banks)")                   \
	X(DRAM_ROW_HIT, "dram.row_hit", EVF_CH | EVF_BANK | EVF_ROW | EVF_ADDR, "a request found its row open") \
	X(DRAM_ROW_MISS, "dram.row_miss", EVF_CH | EVF_BANK | EVF_ROW | EVF_ADDR, "a request found its bank closed") \
	X(DRAM_ROW_CONFLICT, "dram.row_conflict", EVF_CH | EVF_BANK | EVF_ROW | EVF_ADDR | EVF_A, "a request found another row open (open_row = the row it found)") \
	X(DRAM_DONE, "dram.done", EVF_CH | EVF_BANK | EVF_ADDR | EVF_A, "a DRAM request completed (latency in core cycles)") \
	X(MEM_REPLY, "mem.reply", EVF_SM | EVF_WARP | EVF_ADDR | EVF_A, "a load's data reached its warp (latency in core cycles)") \
	/* register file (regfile.h): unit = RF bank of the SM; BMLs are offsets in a port segment */ \
	X(RF_SHIFT_START, "rf.shift_start", EVF_SM | EVF_WARP | EVF_UNIT | EVF_A | EVF_B, "a racetrack bank starts shifting for a request of warp (from, to = BMLs)") \
	X(RF_SHIFT_DONE, "rf.shift_done", EVF_SM | EVF_WARP | EVF_UNIT | EVF_A | EVF_B, "a racetrack bank's ports reached the requested BML (dist = distance in bits)") \
	X(RF_SHIFT_STALL, "rf.shift_stall", EVF_SM | EVF_WARP | EVF_UNIT | EVF_A | EVF_B, "a register request of warp waits behind a shifting bank (wait = RF cycles it waits)") \
	X(RF_BANK_CONFLICT, "rf.bank_conflict", EVF_SM | EVF_WARP | EVF_UNIT | EVF_A | EVF_B, "a register request found its bank busy (ahead = requests ahead of it)") \
	X(RF_RMWS_PICK, "rf.rmws_pick", EVF_SM | EVF_WARP | EVF_UNIT | EVF_A | EVF_B, "RMWS issued warp (score = its score, runner_up = runner-up warp or -1, unit = the warp GTO would have picked)") \
	X(RF_WB_ALLOC, "rf.wb_alloc", EVF_SM | EVF_WARP | EVF_UNIT | EVF_A | EVF_B, "an issued instruction claimed a write-buffer entry for its destination register") \
	X(RF_WB_RAW, "rf.wb_raw", EVF_SM | EVF_WARP | EVF_UNIT | EVF_A, "a source register was read from the write buffer, not the bank") \
	X(RF_WB_VOID, "rf.wb_void", EVF_SM | EVF_WARP | EVF_UNIT | EVF_A, "a buffered write was voided by a newer write to the same register") \
	X(RF_WB_DRAIN, "rf.wb_drain", EVF_SM | EVF_WARP | EVF_UNIT | EVF_A | EVF_B, "a buffered write went to the bank (how = direct, piggyback, forced: overflow)") \
	X(RF_WB_FULL, "rf.wb_full", EVF_SM | EVF_WARP | EVF_UNIT, "issue blocked: the destination bank's write-buffer ways are all waiting for data") \
	X(RF_SCHED_HAZARD, "rf.schedule_hazard", EVF_SM | EVF_WARP | EVF_UNIT | EVF_A | EVF_B, "two schedulers queued reads moving racetrack bank unit in opposite directions this cycle; warp's read completed the pair (scored_bml = the BML they scored against; scheduler = warp mod core.schedulers)") \
	/* reuse profiler (reuse.h): unit = L2 bank or -1 for an L1; a = distance in the set, -1 = inf; b = class */ \
	X(REUSE_ACCESS, "reuse.access", EVF_SM | EVF_WARP | EVF_UNIT | EVF_ADDR | EVF_SET | EVF_A | EVF_B, "a profiled lookup (unit = L2 bank, -1 = L1 of sm; dist = reuse distance in its set, -1 = inf; class = hit, compulsory, capacity, associativity, latency, other)") \
	X(REUSE_INF, "reuse.inf", EVF_SM | EVF_WARP | EVF_UNIT | EVF_ADDR | EVF_SET | EVF_A | EVF_B, "a lookup with infinite reuse distance (class = compulsory: never seen, latency: line in flight)") \
	X(REUSE_CLASS, "reuse.class", EVF_SM | EVF_WARP | EVF_UNIT | EVF_ADDR | EVF_SET | EVF_A | EVF_B, "a profiled miss was classified (class = compulsory, capacity, associativity, latency, other; dist = distance, -1 = inf)") \
	/* locality bypassing (bypass.h) */ \
	X(L1_BYPASS, "l1.bypass", EVF_SM | EVF_WARP | EVF_ADDR | EVF_SET | EVF_A | EVF_B, "a load went to the L2 without an L1 line or MSHR (reason = tag_miss, low_rc: RC at or below the threshold, all: bypass all, mrpb: resource failure; rc = RC, or for mrpb 0 MSHR full, 1 merge slots full, 2 per-warp MSHR cap, 3 every way reserved)") \
	X(L1_TAG_PROMOTE, "l1.tag_promote", EVF_SM | EVF_ADDR | EVF_SET | EVF_A | EVF_B, "a candidate tag crossed the threshold and got a data line (way = data way)") \
	X(L1_TAG_EVICT, "l1.tag_evict", EVF_SM | EVF_ADDR | EVF_SET | EVF_A | EVF_B, "the LFU candidate left the tag store (rc = its RC, way = tag way)") \
	X(L1_DUEL_SWITCH, "l1.duel_switch", EVF_SM | EVF_A | EVF_B, "the follower SMs changed mode (decoupled = 1, 0 plain; diff_permille = SM0 - SM1 miss rate of the interval just closed)") \
	/* TEMP / TBAS (dram_temp.c, tbas.c) */ \
	X(DRAM_PAGE_ALLOC, "dram.page_alloc", EVF_SM | EVF_CH | EVF_BANK | EVF_ROW | EVF_ADDR | EVF_A, "TEMP placed a page at its first touch in a bank of the requesting SM (addr = page, frame = frame in the bank; sm = -1: origin unknown)") \
	X(DRAM_REMOTE, "dram.remote", EVF_SM | EVF_CH | EVF_BANK | EVF_ROW | EVF_ADDR | EVF_A, "a request went to a bank bound to another SM (owner = owning SM)") \
	X(TBAS_SWAP, "tbas.swap", EVF_SM | EVF_A | EVF_B, "TBAS replaced the running thread batch (demoted = batch, -1 none; promoted = batch)") \
	X(CCWS_THROTTLE, "ccws.throttle", EVF_SM | EVF_A | EVF_B, "CCWS changed the warps whose loads are held back (held = how many, mask = their slots)") \
	/* coherence (coh_l1.c, coh_dir.c; states and types numbered as in coh.h) */ \
	X(COH_TRANSITION, "coh.transition", EVF_SM | EVF_ADDR | EVF_A | EVF_B, "an L1 copy changed protocol state (from, to = I S E O M N V, transient IS_D IM_D SM_D OM_D IN_D SN_D MI_A II_A)") \
	X(COH_MSG, "coh.msg", EVF_SM | EVF_UNIT | EVF_ADDR | EVF_A, "a coherence message was sent (sm = L1, unit = L2 bank, type = GetS GetX Upg GetN UpgN PutE PutM PutN WT Ack AckD Unblock DataS DataE DataX DataN Inv Recall WBAck WTAck Nack)") \
	X(COH_NACK, "coh.nack", EVF_SM | EVF_UNIT | EVF_ADDR | EVF_A, "the directory refused a request: its entry is locked (dir_locked; type = the request's type)") \
	X(KERNEL_START, "kernel.start", EVF_A, "a kernel of a back-to-back list began: every CTA of the previous one has finished (kernel = index, from 0)") \
	X(TRACE_MEMCPY, "trace.memcpy", EVF_ADDR | EVF_A | EVF_B, "a host-to-device copy (MemcpyHtoD) was applied before the next kernel (addr = start, lines = L2 lines installed; 0 with trace.memcpy = ignore)") \
	X(COH_KFLUSH, "coh.kernel_flush", EVF_A | EVF_B, "kernel boundary under si/nmoesi (coherence.kernel_boundary = flush): phase = release began, acquire began (lines = lines written back), done (lines = L1 copies invalidated); the next kernel starts after done") \
	X(COH_VALUE_VIOLATION, "coh.value_violation", EVF_SM | EVF_ADDR | EVF_A | EVF_B, "coherence.check_values: a load (or atomic) read a value the protocol's consistency model does not allow (addr = line, word = word in the line, value = value read); the run stops") \
	X(L2_INV, "l2.inv", EVF_SM | EVF_UNIT | EVF_ADDR, "coherence.protocol none, l2.sharers record: the L2 sent an invalidation to an L1 recorded as holding a line it replaces (conventional miss or FRC victim)") \
	X(L1I_MISS, "l1i.miss", EVF_SM | EVF_WARP | EVF_ADDR | EVF_SET | EVF_A, "a warp's instruction fetch missed the L1I (l1i.enabled; addr = code line; merged = 1: it joined the fetch already pending for the line, 0: it sent one to the L2)") \
	X(L1I_FILL, "l1i.fill", EVF_SM | EVF_ADDR | EVF_SET | EVF_A, "an instruction line reached the L1I and filled the buffers of woken warps waiting for it")

#define EV_ENUM(e, n, f, d) EV_##e,
enum ev_kind { EVENT_LIST(EV_ENUM) EV__COUNT };
#undef EV_ENUM

/* Which record fields an event kind fills (others are meaningless). */
enum ev_field_bit {
	EVF_SM = 1u << 0,   /* SM / L1 index; for L2 events the requesting SM */
	EVF_WARP = 1u << 1, /* warp slot within the SM */
	EVF_UNIT = 1u << 2, /* L2 bank, crossbar port */
	EVF_CH = 1u << 3,   /* DRAM channel */
	EVF_BANK = 1u << 4, /* DRAM bank within the channel */
	EVF_ROW = 1u << 5,  /* DRAM row */
	EVF_ADDR = 1u << 6, /* byte address (line-aligned where a line is meant) */
	EVF_SET = 1u << 7,  /* cache set */
	EVF_A = 1u << 8,    /* kind-specific, see description */
	EVF_B = 1u << 9,
};

struct event {
	uint64_t cycle;
	uint64_t addr;
	uint16_t kind;
	int16_t sm, warp, unit;
	int16_t ch, bank;
	int32_t row, set;
	int32_t spare; /* named so EV_EMIT's initializer zeroes it: the ring lives in the arena, which sim_state_hash hashes (unnamed padding kept stack garbage) */
	int64_t a, b;
};

struct event_def {
	const char *name;
	unsigned fields;
	const char *desc;
};

extern const struct event_def event_defs[EV__COUNT];
/* Kind by name, or -1. */
int event_find(const char *name);
/* Field names used by filters: "sm", "warp", "unit", "ch", "bank", "row",
 * "addr", "set", "a", "b". Returns the EVF_ bit or 0. */
unsigned event_field_bit(const char *name);
int64_t event_field_value(const struct event *e, unsigned bit);
/* "cycle 1234 l1.miss sm=0 warp=3 addr=0x1000 set=2" into buf. */
void event_format(const struct event *e, char *buf, size_t n);
/* Same without the cycle: "l1.miss sm=0 warp=3 addr=0x1000 set=2". */
void event_format_fields(const struct event *e, char *buf, size_t n);
/* A kind's name for a field: its named slot ("to", "dist", "reason") for a
 * and b where the kind names them, else the generic name. */
const char *event_field_name_of(unsigned kind, unsigned bit);
/* Field of a kind by name: generic ("sm", "a") or the kind's own ("to");
 * 0 if the kind has no such field. */
unsigned event_field_resolve(unsigned kind, const char *name);
/* Value name of a coded field ("M", "associativity", "Inv", "dir_locked"):
 * case-insensitive, '_' also matching ' ' and '-'. 0 and *out set, or -1. */
int event_field_code(unsigned kind, unsigned bit, const char *text, int64_t *out);
/* Name of a coded field's value ("M" for to=4 of coh.transition), or NULL. */
const char *event_field_code_name(unsigned kind, unsigned bit, int64_t v);
/* Space-separated value names of a coded field ("" if it has none). */
void event_field_codes(unsigned kind, unsigned bit, char *buf, size_t n);
/* Space-separated field names of a kind, with its own names for a and b:
 * "ch bank row addr open_row". */
void event_field_list(unsigned kind, char *buf, size_t n);
/* Kinds matching a glob ("l1.*", "dram.act"): sets bits in mask, returns how many. */
int event_match(const char *glob, uint64_t *mask);

#define EV_MASK_WORDS ((EV__COUNT + 63) / 64)

struct bp_set; /* breakpoints, see bp.h */

struct events {
	uint64_t watch[EV_MASK_WORDS]; /* kinds that anyone watches (log | breakpoints) */
	uint64_t log_mask[EV_MASK_WORDS];
	struct event *ring;            /* arena */
	uint32_t cap;                  /* power of two */
	uint64_t total;                /* events ever logged; ring holds the last cap */
	const uint64_t *now;
	struct bp_set *bps;            /* may be NULL */
	uint64_t counts[EV__COUNT];    /* per kind, logged or watched */
};

void events_init(struct events *ev, struct arena *a, uint32_t cap, const uint64_t *now);
/* Recompute watch from log_mask and breakpoints. */
void events_update_watch(struct events *ev);
void events_log_all(struct events *ev, bool on);
/* Log filter as text: "all", "none", or the logged kind names. Caller frees. */
char *events_log_filter_text(const struct events *ev);

static inline bool ev_on(const struct events *ev, unsigned kind)
{
	return (ev->watch[kind >> 6] >> (kind & 63)) & 1u;
}

/* Record (if the log wants it) and test breakpoints. */
void ev_emit(struct events *ev, struct event *e);

/* EV_EMIT(ev, EV_L1_MISS, .sm = s, .addr = a): fields by designated initialiser. */
#define EV_EMIT(evs, K, ...)                                                                      \
	do {                                                                                      \
		if (ev_on((evs), (K))) {                                                          \
			struct event ev_rec_ = {.kind = (K), __VA_ARGS__};                         \
			ev_emit((evs), &ev_rec_);                                                 \
		}                                                                                 \
	} while (0)

/* i-th most recent logged event (0 = newest), NULL past the ring. */
const struct event *events_recent(const struct events *ev, uint64_t i);
uint64_t events_logged(const struct events *ev);

#endif
