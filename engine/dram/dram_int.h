/*
 * dram_int.h: state shared by dram.c (construction, the L2-facing API, the
 * clock domain, completions, panels) and dram_sched.c (per-channel command
 * selection, timing rules, refresh). Not for other modules: use dram.h.
 *
 * Index conventions: a bank is numbered within its channel as
 * rank * banks + bank; its bank group (for tCCD_L/tRRD_L/tWTR_L) is
 * rank * bank_groups + bank % bank_groups. Requests live in a per-channel
 * slot array (read_queue + write_queue slots); banks chain their unstarted
 * requests, oldest first, by slot index (one list for reads, one for writes).
 *
 *   channel ── slots[ ]  ◀── bank.head[RD] → req → req → ...   (arrival order)
 *                        ◀── bank.head[WR] → req → ...
 *              bank.started: the request between its first and last column
 *              command (a line takes several bursts)
 */
#ifndef GPUSTEP_DRAM_INT_H
#define GPUSTEP_DRAM_INT_H

#include "addrmap.h"
#include "dram.h"

typedef uint64_t dcyc; /* DRAM command-clock cycles */
#define DCYC_NEVER UINT64_MAX

enum dram_cmd { DC_NONE, DC_ACT, DC_PRE, DC_RD, DC_WR, DC_REF };
enum { Q_RD = 0, Q_WR = 1 };
enum dram_row_class { RC_NONE, RC_HIT, RC_MISS, RC_CONFLICT };

struct dram_req {
	uint64_t addr, seq;
	uint64_t enq;  /* core cycle of enqueue */
	dcyc enq_d;    /* first DRAM cycle at or after it */
	dcyc done;     /* DRAM cycle the data transfer ends */
	uint32_t tag, row, col;
	int32_t prev, next; /* bank list, or free list (next) */
	uint16_t bank;
	uint8_t is_write, cols_left, cls;
	uint8_t list;  /* bank list it is on: Q_RD/Q_WR, or 0 (both) under per_bank/per_rank */
	uint8_t far;   /* NUMA fabric: the bank is in another node than the requesting SM */
	uint8_t node;  /* NUMA fabric: the requesting SM's node (far only) */
	uint16_t bytes; /* bytes the request moves (a line, or its sectors) */
	uint64_t mseq; /* per_bank/per_rank: when it entered its command queue (queue order) */
};

struct dram_bank {
	int32_t head[2], tail[2];
	uint32_t nq[2];
	int32_t started;
	int64_t open_row;   /* -1: closed, or closing by a pending auto-precharge */
	int64_t shown_row;  /* last opened row (panels) */
	dcyc t_act, t_pre, t_rd, t_wr; /* earliest ACT / PRE / RD / WR by this bank's own rules */
	dcyc act_at, pre_at, ref_until, last_col;
	uint32_t hits_run;  /* requests started on the open row since its ACT */
	uint16_t rank, bg;
	int32_t cand_pos;   /* index in chan.cand, -1 when absent */
	/* What the bank wants by its own state (dram_sched.c bank_want): the
	 * command, the request it serves and the earliest cycle the bank's own
	 * rules allow; the channel's rules are applied on top at each scan.
	 * Valid while want_ok; cleared by every change it depends on (a command
	 * to the bank, a request linked or unlinked, the channel's read/write
	 * mode, a refresh becoming due or done). Part of the arena, so a
	 * snapshot restores it with the state it was computed from. */
	uint8_t want_ok, want_cmd;
	int32_t want_req;
	dcyc want_e;
	char last_cmd[8];
	dcyc last_cmd_at;   /* DRAM cycle of last_cmd */
	uint32_t st_hit, st_miss, st_conf;
};

struct dram_rank {
	dcyc t_act;    /* tRRD_S */
	dcyc t_rd;     /* tWTR_S */
	dcyc faw[4];   /* last four ACTs, oldest at faw_i */
	uint32_t faw_i, nact;
	dcyc aw32[32]; /* last 32 ACTs (t32AW), oldest at aw32_i */
	uint32_t aw32_i;
	uint32_t cmdq; /* per_rank: entries in the rank's command queue */
	dcyc t_pre;    /* tPPD */
};

struct dram_bg {
	dcyc t_act, t_ccd, t_rd; /* tRRD_L, tCCD_L, tWTR_L */
};

struct dram_chan {
	struct dram_bank *bank;
	struct dram_rank *rank;
	struct dram_bg *bg;
	struct dram_req *req;
	uint32_t nbanks, nslots;
	int32_t free_head;
	int32_t *cand;            /* banks that may want a command */
	uint32_t ncand;
	uint32_t held[2];         /* slots held (queue occupancy), by Q_RD/Q_WR */
	uint32_t pend[2];         /* requests not yet fully issued */
	uint32_t busy_banks;      /* banks with unissued requests (BLP) */
	dcyc blp_last;
	bool draining;
	uint32_t drain_left;      /* full_or_idle: writes this drain still issues (per_bank: moves) */
	int32_t tq_head[2], tq_tail[2]; /* per_bank: transaction queues (held[] counts them) */
	uint32_t cmdq_n;          /* requests on bank lists (per_bank/per_rank: in command queues) */
	uint32_t rr;              /* per_bank/per_rank: the command queue that issued last (round robin) */
	uint64_t mseq;            /* per_bank/per_rank: moves into command queues so far */
	dcyc last_arrival;        /* DRAM cycle of the latest enqueue */
	bool active;
	int32_t active_pos;
	dcyc next;                /* next DRAM cycle to step, DCYC_NEVER if inactive */
	dcyc t_cmd, t_ccd, t_wr_rtw, bus_free;
	dcyc t_col;               /* dual_cmd: the column command bus (t_cmd is then the row bus) */
	int bus_rank;
	uint64_t ref_idx;
	dcyc ref_due;
	bool ref_pending;
	uint32_t st_reads, st_writes, st_hit, st_miss, st_conf, st_act, st_data, st_busy, st_any, st_rq, st_wq;
};

struct dram_done {
	dcyc done;
	uint64_t seq;
	uint32_t ch;
	int32_t slot;
};

struct dram_sched_ops {
	const char *name;
	/* The request bank b serves next among its unstarted requests of queue q. */
	int32_t (*pick)(const struct dram *d, const struct dram_chan *c, const struct dram_bank *b, int q);
	/* Priority between banks whose commands are legal in the same cycle: lower first. */
	uint64_t (*key)(const struct dram_req *r, enum dram_cmd cmd);
};

extern const struct dram_sched_ops dram_sched_fcfs, dram_sched_frfcfs;
struct dram;
const struct dram_sched_ops *dram_sched_of(const struct dram *d);

/* TEMP page allocation and local/remote accounting (dram_temp.c). A global
 * bank is g = (rank * banks + bank) * channels + ch (channel fastest); with
 * T banks and N SMs, SM s owns the banks g = s, s + N, ... (T >= N), else
 * bank s mod T. */
struct dram_page {
	uint64_t key;  /* virtual page + 1, 0 = empty slot */
	uint32_t g, f; /* global bank, frame within the bank */
};

struct dram_temp {
	bool on, track;       /* page_alloc = temp; local/remote counting */
	struct addrmap vmap;  /* page-colour map: where an unplaced page would go */
	uint32_t nsm, ngb, page_cols, pages_per_row, frames_per_bank;
	uint32_t cap, npages, maxpages;
	struct dram_page *pt; /* open addressing, linear probing */
	uint32_t *next_frame; /* per global bank */
	uint32_t *sm_rr;      /* per SM: which of its banks takes its next new page */
	uint64_t *local, *remote; /* per global bank */
	uint8_t *last_remote;     /* per global bank: the last request came from another SM */
	uint32_t st_local, st_remote, st_sm_acc, st_pages, st_no_origin, st_overflow;
};

/* NUMA fabric (dram_numa.c): remote completions on their way back across
 * the fabric, a heap by the core cycle they reach the L2. */
struct dram_fab {
	uint64_t vis, seq;
	uint32_t tag;
	uint8_t is_write, pad[3];
};

struct dram_numa {
	uint32_t nodes;        /* > 1: the fabric is on */
	uint32_t nsm;          /* SMs (core.sms) */
	uint64_t *link_in;     /* per node: core cycle its link into the fabric's far side is free (reads) */
	uint64_t *link_out;    /* per node: the same for writes leaving it */
	struct dram_fab *q;    /* heap of completions crossing the fabric */
	uint32_t nq, cap;
	uint32_t st_far, st_far_sm, st_delay, st_wait;
};

struct dram_timing_c { /* timings in DRAM cycles, bank-group variants resolved */
	dcyc CL, CWL, RCD, RCDWR, RP, AW32, PPD, RAS, RC, RRD, RRD_L, FAW, CCD, CCD_L, WR, WTR, WTR_L, RTW, RTRS, RTP, RFC, RFCpb,
		REFI, BL;
};

struct dram {
	struct dram_cfg c;
	struct dram_timing_c t;
	struct addrmap map;
	struct dram_temp tp;
	struct dram_numa nm;
	/* The scheduler policy, as an index (a pointer into the program image would
	 * differ between runs and break state hashes): dram_sched_of(d). */
	uint8_t sched_kind;
	/* Tests: schedule without the shortcuts of dram_sched.c (the bank want
	 * cache, the scan's pruning, the skipped second scan of dual_cmd), the
	 * reference the shortcuts must match command for command. */
	bool exhaustive;
	struct stats *st;
	struct events *ev;
	const uint64_t *now;
	uint64_t k;          /* tck_ps * core clock MHz: DRAM cycle d is at d * k / 1e6 core cycles */
	dcyc span;           /* latest data-transfer end so far (dram.cycles) */
	uint32_t nch, nbanks, cmds_per_line;
	struct dram_chan *ch;
	uint32_t *active, nactive;
	/* The core cycle whose dram_tick has the first channel step to do:
	 * core_processing(min of the active channels' next), UINT64_MAX when none
	 * is active. Kept by dram_tick and dram_enqueue (the only places a
	 * channel's next moves), so a tick with nothing due returns at once. */
	uint64_t next_core;
	struct dram_done *heap;
	uint32_t nheap;
	uint64_t seq, held_total;
	uint32_t st_reads, st_writes, st_reqs, st_hit, st_miss, st_conf, st_act, st_pre, st_ref, st_full, st_cycles,
		st_data, st_busy, st_any, st_rlat, st_wlat, st_rlat_sum, st_wlat_sum, st_rq, st_wq, st_rlat_dsum;
};

/* dram_sched.c */
/* Put slot s on bank bi's list (q), as the newest. */
void dram_bank_link(struct dram *d, struct dram_chan *c, uint32_t bi, int32_t s, int q);
void dram_chan_step(struct dram *d, struct dram_chan *c, dcyc t);
void dram_refresh_settle(struct dram *d, struct dram_chan *c, dcyc dnow);
dcyc dram_ref_due(const struct dram *d, uint64_t idx);
void dram_cand_add(struct dram_chan *c, uint32_t b);
void dram_blp_account(struct dram *d, struct dram_chan *c, dcyc t);
/* Next command the bank wants and the earliest cycle it is legal (DC_NONE if none). */
enum dram_cmd dram_bank_next(const struct dram *d, const struct dram_chan *c, uint32_t b, dcyc *e, int32_t *req);
/* Tests: the first bank (ch * banks + bank) whose cached want (struct
 * dram_bank want_*) differs from what its state gives now, -1 if none. */
int dram_want_check(const struct dram *d);
/* Tests: schedule without the shortcuts (struct dram exhaustive). */
void dram_set_exhaustive(struct dram *d, bool on);
/* Tests: does next_core agree with the active channels' next? */
bool dram_next_check(const struct dram *d);

/* dram_numa.c */
int dram_numa_init(struct dram *d, struct arena *a, const struct sim_cfg *cfg);
/* Does a request from SM sm (-1: unknown) to x cross the fabric? Sets r->far / r->node. */
void dram_numa_mark(struct dram *d, const struct dram_addr *x, int sm, struct dram_req *r);
/* r's data left the DRAM at core cycle vis: send it across the fabric. */
void dram_numa_send(struct dram *d, const struct dram_req *r, uint64_t vis);
/* A completion that has crossed the fabric by now: true with its tag. */
bool dram_numa_pop(struct dram *d, uint32_t *tag, bool *is_write);
/* Core cycle the next fabric completion arrives, UINT64_MAX if none. */
uint64_t dram_numa_next(const struct dram *d);

/* dram_temp.c */
int dram_temp_init(struct dram *d, struct arena *a, const struct sim_cfg *cfg, char **err);
/* Where addr lives: placed by first touch under temp (sm < 0: origin unknown),
 * else the address map; counts local/remote when tracking. */
void dram_route(struct dram *d, uint64_t addr, int sm, struct dram_addr *x);
/* The same without side effects; false when temp has not placed the page yet. */
bool dram_lookup(const struct dram *d, uint64_t addr, struct dram_addr *x);
/* Owning SM of bank `bank` (within its channel) of channel ch, -1 without tracking. */
int dram_bank_owner(const struct dram *d, uint32_t ch, uint32_t bank);

/* Command-queue index of bank bi under per_bank (the bank) and per_rank (its rank). */
static inline uint32_t dram_cmdq_of(const struct dram *d, uint32_t bi)
{
	return d->c.queue_model == DRAM_QUEUE_PER_RANK ? bi / (uint32_t)d->c.banks : bi;
}

/* dram.c */
void dram_complete(struct dram *d, uint32_t ch, int32_t slot);
uint64_t dram_core_of(const struct dram *d, dcyc t); /* first core cycle at or after DRAM cycle t */
dcyc dram_of_core(const struct dram *d, uint64_t c);   /* first DRAM cycle at or after core cycle c */

#endif
