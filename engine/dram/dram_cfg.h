/*
 * dram_cfg.h: configuration of the DRAM model (organisation, clock, timing,
 * controller, address mapping, refresh). The parameter table (`dram.*`), the
 * cross-field validator and the derived-value printer are in dram_cfg.c.
 *
 * Units: every dram.timing.* value is in DRAM clock cycles (tCK), as
 * datasheets and DRAMSim-style configs give them; tck_ps converts them to
 * time. `banks` counts banks per rank (all bank groups together); inside a
 * channel a bank is numbered rank * banks + bank.
 *
 *   channel ─┬─ rank 0 ─┬─ bank group 0 ─┬─ bank 0 ── rows x columns
 *            │          │                └─ bank 1
 *            │          └─ bank group 1 ── ...
 *            └─ rank 1 ── ...
 */
#ifndef GPUSTEP_DRAM_CFG_H
#define GPUSTEP_DRAM_CFG_H

#include <stdbool.h>
#include <stdint.h>

#define DRAM_CFG_STR_MAX 128

enum dram_sched_kind { DRAM_SCHED_FCFS, DRAM_SCHED_FRFCFS };
enum dram_page_policy { DRAM_PAGE_OPEN, DRAM_PAGE_CLOSED, DRAM_PAGE_TIMEOUT };
enum dram_refresh_mode { DRAM_REFRESH_NONE, DRAM_REFRESH_ALL_BANK, DRAM_REFRESH_PER_BANK };
enum dram_page_alloc { DRAM_ALLOC_INTERLEAVE, DRAM_ALLOC_TEMP };
enum dram_trace_clock { DRAM_TRACE_CORE, DRAM_TRACE_DRAM };
/* per_bank, per_rank: DRAMSim3's controller (transaction queues feeding command
 * queues, queue_structure PER_BANK / PER_RANK) */
enum dram_queue_model { DRAM_QUEUE_CHANNEL, DRAM_QUEUE_PER_BANK, DRAM_QUEUE_PER_RANK };
enum dram_write_drain { DRAM_DRAIN_WATERMARK, DRAM_DRAIN_FULL_OR_IDLE };

/* All in DRAM clock cycles. */
struct dram_timing {
	int tCL;    /* READ to first data beat (CAS latency) */
	int tCWL;   /* WRITE to first data beat (write latency) */
	int tRCD;   /* ACT to READ/WRITE, same bank */
	int tRP;    /* PRE to ACT, same bank */
	int tRAS;   /* ACT to PRE, same bank */
	int tRC;    /* ACT to ACT, same bank */
	int tRRD;   /* ACT to ACT, different banks of a rank (tRRD_S with bank groups) */
	int tRRD_L; /* ACT to ACT, same bank group (used when bank_groups > 1) */
	int tFAW;   /* window holding at most four ACTs per rank */
	int tCCD;   /* column to column (tCCD_S with bank groups) */
	int tCCD_L; /* column to column, same bank group (used when bank_groups > 1) */
	int tWR;    /* end of write data to PRE (write recovery) */
	int tWTR;   /* end of write data to READ, same rank (tWTR_S with bank groups) */
	int tWTR_L; /* same, same bank group (used when bank_groups > 1) */
	int tRTW;   /* READ to WRITE command, any bank of the channel (bus turnaround included) */
	int tRTRS;  /* rank to rank switch on the data bus */
	int tRTP;   /* READ to PRE, same bank */
	int tRFC;   /* all-bank REFRESH duration */
	int tRFCpb; /* per-bank REFRESH duration */
	int tREFI;  /* refresh interval (per-bank mode: each bank once per tREFI) */
	int t32AW;  /* window holding at most 32 ACTs per rank (GDDR5/6; 0 = none) */
	int tPPD;   /* PRE to PRE, different banks of a rank (GDDR, LPDDR4; 0 = none) */
	int tRCDWR; /* ACT to WRITE, same bank (0 = tRCD; tRCD is the ACT to READ value) */
};

struct dram_cfg {
	/* organisation */
	int channels;
	int ranks;
	int bank_groups;     /* 1 = no bank groups */
	int banks;           /* per rank, all groups together */
	int rows;            /* per bank */
	int columns;         /* per row, each bus_bytes wide */
	int bus_bytes;       /* data bus width per channel */
	int burst;           /* burst length in beats (BL) */
	int data_rate;       /* beats per tCK: 2 DDR, 4 GDDR5 (data clock 2x CK, DDR) */
	int tck_ps;          /* DRAM command clock period in picoseconds */
	/* controller */
	int scheduler;       /* enum dram_sched_kind */
	int page_policy;     /* enum dram_page_policy */
	int page_timeout;    /* timeout policy: DRAM cycles an idle open row stays open */
	int row_hit_cap;     /* FR-FCFS: max consecutive hits served while older misses wait (0 = no cap) */
	int read_queue;      /* entries per channel */
	int write_queue;     /* entries per channel */
	int write_high;      /* start draining writes at this write-queue depth */
	int write_low;       /* stop draining at this depth */
	int write_drain;     /* enum dram_write_drain */
	int queue_model;     /* enum dram_queue_model */
	int cmd_queue;       /* command-queue entries per bank (per_bank) or per rank (per_rank) */
	bool dual_cmd;       /* a row (ACT/PRE/REF) and a column (RD/WR) command may share a DRAM cycle */
	/* address mapping */
	char mapping[DRAM_CFG_STR_MAX]; /* field order MSB first, e.g. "row:rank:bank:ch:col" */
	bool bank_xor;       /* bank ^= low row bits */
	bool page_colour;    /* keep channel/bank bits above the 4 KB page offset */
	/* TEMP (notes 002 §4.4; engine/dram/dram_temp.c) */
	int page_alloc;      /* enum dram_page_alloc */
	int temp_pages;      /* page-table capacity (4 KB pages) under temp */
	bool local_stats;    /* count local/remote accesses (SM-bound banks) without temp too */
	/* NUMA fabric (engine/dram/dram_numa.c): SMs and banks in nodes; 0 or 1 node = uniform */
	int numa_nodes;      /* nodes; SM s is in node s mod N, a bank in its bound SM's node */
	int numa_latency;    /* core cycles a remote access adds (the fabric round trip) */
	int numa_link_bytes; /* bytes per core cycle of a node's fabric link each way (0: unlimited) */
	/* DRAM-trace mode */
	bool trace_wrap;     /* addresses >= capacity wrap modulo it (else the trace is refused) */
	int trace_cycles;    /* enum dram_trace_clock: the DRAMSim cycle column counts core or DRAM cycles */
	/* refresh */
	int refresh;         /* enum dram_refresh_mode */
	struct dram_timing timing;
};

struct sim_cfg;
/* DRAM cycles one line access holds its bank, ACTIVATE to the end of the
 * PRECHARGE after it (dram_cfg.c): refresh must leave this much room
 * between two REFs, or no request ever completes. */
int dram_access_cycles(const struct sim_cfg *c);

#endif
