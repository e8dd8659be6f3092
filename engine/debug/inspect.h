/*
 * inspect.h: read-only accessors for panels, `info` commands and tests. Views
 * never touch engine internals; they fill these small plain structs.
 * Every function takes `const struct sim *` and changes nothing.
 */
#ifndef GPUSTEP_INSPECT_H
#define GPUSTEP_INSPECT_H

#include <stdbool.h>
#include <stdint.h>

#include "dram/dram.h"
#include "sim/evcode.h"
#include "sim/sim.h"

/* ---- cores and warps ------------------------------------------------- */
enum warp_state {
	WS_EMPTY,      /* slot holds no warp */
	WS_READY,      /* can issue this cycle */
	WS_STALLED,    /* see stall reason */
	WS_DONE,       /* exited; slot waits for its CTA to finish */
};

/* enum stall_reason and stall_reason_name(): sim/evcode.h */

struct warp_info {
	int slot;
	int cta;            /* linear CTA id, -1 if empty */
	int warp_in_cta;
	enum warp_state state;
	enum stall_reason stall;
	int next_stmt;      /* -1 if none */
	const char *next_text;  /* statement text without its indentation, static for the kernel's life */
	uint64_t next_active;   /* lane mask of the next instruction */
	int outstanding;    /* memory requests in flight for this warp */
	int order;          /* position in its scheduler's order, 0 = looked at first; -1 if not eligible */
	int sched;          /* its scheduler (slot mod core.schedulers) */
	bool issued_now;    /* issued in the last simulated cycle */
	uint64_t insts;     /* instructions issued so far */
	uint64_t stall_cycles;
	/* Cycles since launch (to the exit's issue cycle once done), split into
	 * memory stalls (a load's register, memory buffer full, MSHR full) and
	 * the rest (compute = resident - mem_stall; other_stall is the part of it
	 * the warp could not issue). The stall in progress is included by its
	 * current reason. */
	uint64_t resident_cycles, mem_stall_cycles, other_stall_cycles;
};

int inspect_sms(const struct sim *s);
int inspect_schedulers(const struct sim *s); /* core.schedulers */
int inspect_warp_slots(const struct sim *s);
/* Returns false if sm/slot is out of range. */
bool inspect_warp(const struct sim *s, int sm, int slot, struct warp_info *out);
/* Active CTAs and warps on an SM; CTAs waiting to be dispatched overall. */
void inspect_sm_summary(const struct sim *s, int sm, int *ctas, int *warps, uint64_t *insts);
void inspect_cta_progress(const struct sim *s, uint32_t *dispatched, uint32_t *done, uint32_t *total);

/* `why warp` (inspect_why.c): the causal chain from a warp to what it waits
 * on, one link per structure, link 0 the warp itself. */
enum why_target {
	WT_NONE,
	WT_WARP,      /* sm, entry = warp slot */
	WT_L1_MSHR,   /* sm, entry = L1 MSHR entry (-1: the file) */
	WT_L2_BANK,   /* unit = L2 bank */
	WT_L2_MSHR,   /* unit = L2 bank, entry = its MSHR entry */
	WT_FRC,       /* unit = L2 bank, entry = FRC entry */
	WT_DIR_LINE,  /* unit = L2 bank, addr = the line whose directory entry is locked */
	WT_DRAM_BANK, /* unit = channel, entry = bank */
	WT_RF_BANK,   /* sm, unit = register bank */
	WT_LINE,      /* unit = L2 bank of addr */
};
struct why_link {
	uint64_t since;     /* cycle the link's condition began, UINT64_MAX = unknown */
	char text[256];
	/* The structure the link names, for the front end to select (`why go N`). */
	uint8_t target;     /* enum why_target */
	int16_t sm, unit, entry;
	uint64_t addr;
};
/* Links written (<= max); 0 if sm/slot are out of range. */
int inspect_why_warp(const struct sim *s, int sm, int slot, struct why_link *out, int max);
/* `why ADDR`: where the line is in flight (sm's L1 only when sm >= 0, every
 * L1 when -1), then the L2 bank and memory. */
int inspect_why_line(const struct sim *s, uint64_t addr, int sm, struct why_link *out, int max);
/* `why` at a stop on an event that names a DRAM bank or an L2 bank but no
 * warp or line: the bank's state, the request at the head of its queue and
 * what the scheduler does next / the L2 bank's MSHRs, queues and FRC. */
int inspect_why_dram_bank(const struct sim *s, int ch, int bank, struct why_link *out, int max);
int inspect_why_l2_bank(const struct sim *s, int bank, struct why_link *out, int max);
/* SM-cycles without an issue, by the reason the SM was charged (core.stall.*
 * for one SM). */
void inspect_sm_stalls(const struct sim *s, int sm, uint64_t out[STALL__COUNT]);

/* ---- caches ----------------------------------------------------------- */
enum cache_id_kind { CACHE_L1, CACHE_L2 };

struct cache_geom {
	int sets, ways, line, sector; /* sector 0 = not sectored */
	int sectors_per_line;
};

enum touch { TOUCH_NONE, TOUCH_HIT, TOUCH_MISS, TOUCH_FILL };

struct line_info {
	bool valid, dirty;
	bool transient;       /* L2: victim in the middle of replacement */
	uint64_t tag;
	uint64_t addr;        /* line address */
	int lru_rank;         /* 0 = most recently used */
	uint32_t sector_valid; /* bit per sector */
	uint32_t sector_dirty;
	enum touch touched;   /* in the last simulated cycle */
	int coh_state;        /* L1 with a coherence protocol: enum coh_state (coh.h); -1 otherwise */
};

/* unit = SM index for L1, bank for L2. false if out of range/disabled. */
bool inspect_cache_geom(const struct sim *s, enum cache_id_kind k, int unit, struct cache_geom *g);
bool inspect_cache_line(const struct sim *s, enum cache_id_kind k, int unit, int set, int way,
			struct line_info *out);
int inspect_l2_banks(const struct sim *s);

/* ---- locality bypassing: the decoupled tag store (bypass.h) ------------ */
struct byp_info {
	int mode;          /* enum l1_bypass */
	int sets, ways;    /* tag store; 0 when not locality */
	int threshold;
	bool decoupled;    /* this SM's current mode (of its follower sets with leader sets) */
	int role;          /* dueling: 0 leader decoupled, 1 leader plain, 2 follower, -1 no dueling (leader sets: set 0's) */
	bool leader_sets;  /* l1.bypass_leaders = sets: roles are per set (bypass_role) */
	int last_diff;     /* last closed interval: decoupled - plain leaders' miss rate, per mille */
	uint64_t bypasses;
};

enum btag_touch_kind { BTT_NONE, BTT_ALLOC, BTT_INC, BTT_PROMOTE, BTT_HIT, BTT_RESET };

struct btag_info {
	bool valid;
	uint64_t addr;     /* block address */
	int rc;
	int pos;           /* data way, -1 = candidate */
	int lru_rank;      /* 0 = most recently used among valid tags */
	enum btag_touch_kind touched; /* in the last simulated cycle */
};

bool inspect_bypass(const struct sim *s, int sm, struct byp_info *out);

/* Locality bypassing's duel (one for the machine): the last interval whose
 * leaders both made load lookups, and the rule applied to it. */
struct duel_info {
	bool followers_decoupled;
	uint64_t last_at;          /* its end (0: none closed yet) */
	uint64_t closed_at;        /* the cycle it was closed in: its first lookup after last_at */
	uint32_t acc[2], miss[2];  /* [0] decoupled leaders, [1] plain leaders */
	int diff_permille;         /* decoupled - plain miss rate of the last decided interval */
	int limit_points;          /* l1.bypass_duel_diff */
	int interval;              /* l1.bypass_duel_interval */
	double margin_points;      /* 95 % margin of the difference from acc/miss (byp_duel_margin_points) */
	bool unsure;               /* the limit lies within it (byp_duel_unsure) */
	bool unsure_hold;          /* l1.bypass_duel_unsure_hold */
	bool cold_hold;            /* l1.bypass_duel_cold_hold */
	uint64_t open_end;         /* the end of the interval being counted now */
	uint32_t open_acc[2], open_miss[2]; /* its counts so far */
	uint32_t closed;           /* intervals closed so far */
};
/* One closed interval of the duel (`info duel`). outcome: enum byp_iv_outcome
 * (bypass.h): 0 a group made no lookup, 1 cold hold, 2 kept, 3 switched,
 * 4 unsure hold. */
struct duel_iv_info {
	uint64_t end;
	uint32_t acc[2], miss[2];
	int diff_permille;     /* outcome >= 2 */
	double margin_points;  /* 95 % margin of the difference (both groups looked up) */
	bool unsure;           /* outcome >= 2 and the limit lies within the margin */
	int outcome;
	bool followers_decoupled; /* after it */
};
/* The last closed intervals, oldest first, at most max (and at most the
 * engine's history of BYP_DUEL_HISTORY); returns how many. */
int inspect_duel_history(const struct sim *s, struct duel_iv_info *out, int max);
/* false without dueling (l1.bypass != locality, l1.bypass_duel off,
 * l1.bypass_threshold 0, or one leader group). */
bool inspect_duel(const struct sim *s, struct duel_info *out);

/* ---- VWS (vws.h) ---------------------------------------------------------- */
struct vws_info {
	bool post;          /* post-sampling */
	int nact, npred;
	uint32_t ws_x256, rr_x256; /* working set (blocks) and re-reference degree, x 256 */
	uint32_t finished;
	uint64_t active_mask; /* warp slots allowed to issue (level 1 with InterCL, else the window) */
	uint64_t window_mask; /* the IWL/IntraCL window (first N_act warps) */
	bool intercl;         /* two-level pool on */
	int level1, level1_cap; /* warps in level 1 (InterCL) and min(core.vws_level1, N_act) */
};
/* false unless core.scheduler = vws. */
bool inspect_vws(const struct sim *s, int sm, struct vws_info *out);

struct vws_warp_info {
	int level;          /* 0 = no live warp, 1, 2 = in the window, outside level 1; 3 = outside the window */
	const char *why;    /* level 1 under InterCL: why promoted ("same", "pred", "succ", "old"); else "-" */
	uint64_t promoted_at; /* cycle of that promotion */
	int acc, miss;      /* the warp's IWL counters: L1 accesses, AMT-filtered misses (its WS) */
	uint32_t rr_x256;   /* its RRDegr = acc / max(miss, 1), x 256 */
};
/* false unless core.scheduler = vws and sm/slot are in range. */
bool inspect_vws_warp(const struct sim *s, int sm, int slot, struct vws_warp_info *out);
bool inspect_bypass_tag(const struct sim *s, int sm, int set, int way, struct btag_info *out);
/* Dueling role of a set of SM sm: 0 decoupled leader, 1 plain leader, 2
 * follower, -1 no dueling (or not locality bypassing). */
int inspect_bypass_set_role(const struct sim *s, int sm, int set);

/* ---- TBAS (tbas.h) -------------------------------------------------------- */
#define TBAS_INFO_BATCHES 8
struct tbas_info {
	int32_t running;      /* the running batch, -1 = none */
	int in_set, cap;      /* warps in the running set, core.tbas_running */
	int threshold, stride; /* core.tbas_threshold, core.batch_stride */
	bool successor;       /* core.tbas_promote = successor */
	int nbatches;         /* batches resident on the SM (live warps) */
	struct {
		int32_t id;
		int live, active; /* warps not exited; of them, active (tbas.c) */
	} batch[TBAS_INFO_BATCHES]; /* the first nbatches (at most 8), by id */
};
/* false unless core.scheduler = tbas. */
bool inspect_tbas(const struct sim *s, int sm, struct tbas_info *out);

enum tbas_warp_role { TBW_NONE, TBW_RUN, TBW_ACTIVE, TBW_LOAD, TBW_BARRIER };
struct tbas_warp_info {
	int32_t batch;             /* -1 = no live warp in the slot */
	enum tbas_warp_role role;  /* in the running set, else why not (active = may be promoted) */
};
/* false unless core.scheduler = tbas and sm/slot are in range. */
bool inspect_tbas_warp(const struct sim *s, int sm, int slot, struct tbas_warp_info *out);

/* ---- CCWS (ccws.h) ------------------------------------------------------- */
struct ccws_info {
	int cutoff;           /* live warps x base score */
	int live, throttled;  /* live warps; those whose loads are held back */
	uint64_t thr_mask;    /* throttled warp slots */
	uint64_t lost;        /* lost-locality hits of this SM */
	uint64_t next_change; /* cycle decay alone changes the mask, UINT64_MAX = never */
};
/* false unless core.scheduler = ccws. */
bool inspect_ccws(const struct sim *s, int sm, struct ccws_info *out);

struct ccws_warp_info {
	bool live;
	int lls;         /* lost-locality score now */
	bool throttled;  /* its loads are held back */
	uint32_t hits;   /* lost-locality hits */
	int vta_used;    /* valid victim tag array entries */
};
/* false unless core.scheduler = ccws and sm/slot are in range. */
bool inspect_ccws_warp(const struct sim *s, int sm, int slot, struct ccws_warp_info *out);

/* ---- MSHRs -------------------------------------------------------------- */
#define INSPECT_MAX_WAITERS 16

struct mshr_entry_info {
	bool valid;
	uint64_t addr;         /* block address */
	uint32_t sectors;      /* sectored cache: the sectors this entry fetches (bit i = sector i); 0 = whole line */
	int sector_bytes;      /* 0 = not sectored */
	int merged;            /* requests attached (including the first) */
	int nwaiters;
	int waiters[INSPECT_MAX_WAITERS]; /* warp slots (L1) or requesting SMs (L2) */
	uint64_t age;          /* cycles since allocation */
	bool sent;             /* request has left toward the next level */
};

struct mshr_info {
	int entries, used;          /* entries: slots allocated (l1_mshr_cap), inspect_mshr_entry's range */
	int limit;                  /* the configured entry count, used may exceed it after a whatif lowers it */
	int wait_queue, wait_cap;   /* requests waiting for an entry */
	int retry_queue;            /* NACKed requests waiting to be re-sent */
	int miss_queue;             /* waiting for the crossbar */
	int ack_queue;              /* invalidation Acks on their own channel: L1 waiting for the crossbar, L2 its input (icnt.ack_channel) */
	int head_wait;              /* L2: why the head of the input queue waits there (enum nack_reason, l2.when_busy = queue); -1 none */
	uint64_t full_events;
};

bool inspect_mshr(const struct sim *s, enum cache_id_kind k, int unit, struct mshr_info *out);
bool inspect_mshr_entry(const struct sim *s, enum cache_id_kind k, int unit, int i,
			struct mshr_entry_info *out);
/* Occupancy over the last n cycles ending at the current cycle (oldest first);
 * returns the number of samples written (<= n). */
int inspect_mshr_history(const struct sim *s, enum cache_id_kind k, int unit, uint16_t *vals, int n);

struct l2_bank_info {
	int valid_lines, total_lines;
	int transient_lines;
	int mshr_used, mshr_entries; /* mshr_entries: the limit, l2.mshr.entries */
	int queue;             /* requests waiting at the bank's input */
	uint64_t accesses, hits, misses, nacks;
};
bool inspect_l2_bank(const struct sim *s, int bank, struct l2_bank_info *out);

/* ---- FRC (frc.h) ------------------------------------------------------ */
struct frc_info {
	int entries, ways, sets, busy;
	/* This bank's l2.bankN.frc.* counters and l2.bankN.misses (share =
	 * allocs / l2_misses, the l2.bankN.frc.share stat). */
	uint64_t allocs, fallbacks, hits_fetching, swaps, evictions;
	uint64_t l2_misses;
	/* Machine-wide frc.allocs and l2.misses (the frc.share stat). */
	uint64_t all_allocs, all_l2_misses;
};

struct frc_entry_info {
	int state;          /* enum frc_state; frc_state_name() */
	uint64_t incoming;  /* block fetched */
	uint64_t victim;    /* block swapped out (EVICTING), 0 if none */
	uint64_t age;       /* cycles in the current state */
	int waiters;
	int l2_set, l2_way; /* way -1 until chosen */
	int pending_inv;    /* EVICTING, coherence: invalidation acks still due for the victim */
	bool wb_pending;    /* EVICTING: the victim is dirty, its write-back not yet handed to memory */
};

/* false when the bank has no FRC (l2.frc.entries = 0) or is out of range. */
bool inspect_frc(const struct sim *s, int bank, struct frc_info *out);
bool inspect_frc_entry(const struct sim *s, int bank, int i, struct frc_entry_info *out);

/* ---- DRAM: structs in dram.h ------------------------------------------- */
/* 0 when the sim uses fixed-latency memory. */
int inspect_dram_channels(const struct sim *s);
bool inspect_dram_channel(const struct sim *s, int ch, struct dram_chan_info *out);
bool inspect_dram_bank(const struct sim *s, int ch, int bank, struct dram_bank_info *out);

/* ---- reuse-distance profiler (inspect_reuse.c; reuse.h) ------------------ */
#define REUSE_INFO_MAX_BINS 1024
enum reuse_view { RV_SET, RV_FA, RV_ONESET, RV__COUNT };

struct reuse_info {
	int units;            /* caches summed (1, or every L1 / L2 bank) */
	int sets, ways, lines;
	int nbins;            /* finite bins; then bins[nbins + 0] >= cap, +1 inf never seen, +2 inf in flight */
	int bin_width;        /* distances per bin: 1 (set views), sets (FA view) */
	int cutoff;           /* first bin that misses in an LRU cache: ways (set views), ways (FA: N / width) */
	uint64_t cap;         /* distance of the ">=" bin */
	uint64_t bins[REUSE_INFO_MAX_BINS + 3];
	uint64_t cls[6];      /* enum reuse_class: hit, compulsory, capacity, associativity, latency, other */
	uint64_t accesses, hits_far, approx;
	size_t bytes;         /* profiler memory for these caches */
	bool has_last;        /* the most recent access (one unit only) */
	uint64_t last_addr, last_cycle;
	int last_set, last_cls;
	int64_t last_d, last_dfa;
};
/* k/unit: a cache (unit -1 = all L1s or all L2 banks); view: enum reuse_view;
 * set: for RV_ONESET. false if there is no such cache or no profiler. */
bool inspect_reuse(const struct sim *s, enum cache_id_kind k, int unit, int view, int set, struct reuse_info *out);
const char *inspect_reuse_class_name(int cls);

/* ---- register file (regfile.h; engine/debug/regfile_inspect.c) ---------------- */
struct rf_info {
	int kind;             /* enum rf_kind */
	bool timed;           /* banks and arbitration modelled */
	int banks, entries, ports, seg, ways; /* ways: write-buffer entries per bank */
	int remap;            /* enum rf_remap applied */
	int nregs, map_warps;
	const char *warning;  /* "" or the remap fallback warning */
	uint64_t rf_now;      /* RF cycle at the start of the current core cycle */
	/* Counters: all = the machine-wide rf.* stats; sm = this SM's smN.rf.*
	 * (per_sm: registered only when the register file is timed). */
	struct rf_counts {
		uint64_t reads, writes, shifts, shift_cycles, conflicts;
		uint64_t wb_reads, wb_voided, wb_direct, wb_piggy, wb_overflow;
	} all, sm;
	bool per_sm;
	uint64_t energy_fj;   /* dynamic + leakage so far, all SMs */
	int schedulers;       /* core.schedulers */
	bool warp_reg_remap;  /* rf.warp_reg_remap in effect: bank subsets per scheduler */
	uint64_t hazards;     /* rf.schedule_hazards (0 with one scheduler) */
};
struct rf_bank_info {
	int loc;              /* live bank BML (ports' offset in their segments) */
	int tail;             /* projected BML (newest queued request; RMWS) */
	int queued;           /* requests not yet finished */
	bool shifting;
	int from, to, remaining; /* shift in progress: remaining bits to go */
	int sched;            /* with rf.warp_reg_remap: the scheduler owning the bank, else -1 */
	bool hazard;          /* a schedule hazard hit this bank in the last simulated cycle */
};
struct rf_req_info {
	int warp, reg;
	bool write;
	int src;              /* enum rf_op_src */
	int bml, dist;        /* target BML, shift distance from the request ahead */
	bool in_service;
	uint64_t waited;      /* RF cycles waited so far (or in total once started) */
};
struct rf_wb_info {
	bool valid, ready;    /* V and R */
	int warp, reg, bml;
	bool at_port;         /* the bank's projected BML is the entry's: next request drains it */
};
bool inspect_rf(const struct sim *s, int sm, struct rf_info *out);
bool inspect_rf_bank(const struct sim *s, int sm, int bank, struct rf_bank_info *out);
/* i-th queued request (0 = head), false past the queue. */
bool inspect_rf_req(const struct sim *s, int sm, int bank, int i, struct rf_req_info *out);
bool inspect_rf_wb(const struct sim *s, int sm, int bank, int way, struct rf_wb_info *out);
/* Owner of a row: warp slot and register, false if unused. */
bool inspect_rf_owner(const struct sim *s, int bank, int row, int *warp, int *reg);
/* ---- one address across the hierarchy (`info line`) ----------------------- */
/* Appends one line per place the line lives: each L1, L2 bank/set/way, MSHRs,
 * DRAM channel/bank/row and queue. */
void inspect_line(const struct sim *s, uint64_t addr, struct strbuf *out);

/* ---- coherence (coh_eng.h): protocol, directory entries, transactions ---- */
struct coh_proto;
/* The protocol in use, NULL for none. */
const struct coh_proto *inspect_coh_proto(const struct sim *s);
struct coh_dir_info {
	bool present;        /* the L2 holds the line */
	int bank, set, way;
	unsigned dstate;     /* enum coh_dstate */
	int owner;           /* SM, -1 none */
	uint64_t sharers[4]; /* bit per SM */
	bool locked;
	const char *lock;    /* "none", "acks", "unblock", "evict" */
	unsigned acks, req_sm;
};
bool inspect_coh_dir(const struct sim *s, uint64_t addr, struct coh_dir_info *o);
/* The protocol state (enum coh_state) of SM sm's L1 copy of addr's line, -1 if it has none. */
int inspect_coh_l1_state(const struct sim *s, int sm, uint64_t addr);
struct coh_tx_info {
	uint64_t cycle, addr;
	int sm, bank;
	unsigned kind; /* 0 L1 transition, 1 directory transition, 2 message, 3 dir_locked NACK */
	unsigned from, to; /* L1: enum coh_state; directory and NACK: enum coh_dstate */
	unsigned msg;      /* L1: the enum coh_event of the row taken; others: enum coh_msg */
};
/* i-th most recent transaction (0 = newest); false past the log. */
bool inspect_coh_tx(const struct sim *s, uint64_t i, struct coh_tx_info *o);
/* How much the transaction log holds: entries kept (at most its capacity),
 * entries ever written since cycle 0, and the capacity (0 without a protocol). */
void inspect_coh_log_size(const struct sim *s, uint64_t *kept, uint64_t *total, unsigned *cap);
/* The last protocol row taken by an L1 transition: state from/to, the event
 * (enum coh_event) and its cycle (false if none). */
bool inspect_coh_last_transition(const struct sim *s, unsigned *from, unsigned *to, unsigned *ev, uint64_t *cycle);

#endif
