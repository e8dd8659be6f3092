/*
 * hier_cfg.h: configuration of the cores and the cache hierarchy (SMs, warp
 * schedulers, coalescer, L1, crossbar, L2, fixed-latency memory). Parameter
 * tables and validators are in hier_cfg.c.
 */
#ifndef GPUSTEP_HIER_CFG_H
#define GPUSTEP_HIER_CFG_H

#include <stdbool.h>
#include <stdint.h>

enum sched_policy { SCHED_LRR, SCHED_GTO, SCHED_TWO_LEVEL, SCHED_VWS, SCHED_RMWS, SCHED_TBAS, SCHED_CCWS };
enum cta_dispatch { CTA_ROUND_ROBIN, CTA_SERIAL };
enum mem_release { MEMREL_IN_ORDER, MEMREL_COMPLETION };
enum coalesce_mode { COAL_FERMI, COAL_VOLTA, COAL_SI };
enum repl_policy { REPL_LRU, REPL_FIFO, REPL_RANDOM };
enum set_index { IDX_LINEAR, IDX_FERMI_HASH, IDX_IPOLY };
enum l1_write { L1W_WRITE_EVICT, L1W_WRITE_THROUGH, L1W_WRITE_BACK };
enum l2_write { L2W_LAZY_FETCH, L2W_FETCH_ON_WRITE };
enum bank_hash { BANKH_LINEAR, BANKH_XOR, BANKH_IPOLY };
enum mem_model { MEM_DRAM, MEM_FIXED };
enum l1_bypass { L1B_NONE, L1B_ALL, L1B_LOCALITY, L1B_MRPB };
enum tbas_order { TBAS_ORDER_GTO, TBAS_ORDER_RMWS };
enum byp_leaders { BYPL_SETS, BYPL_SMS };
enum byp_leader_select { BYPLS_COMPLEMENT, BYPLS_FIXED };
enum byp_at_l2 { BYPL2_QUEUE, BYPL2_NACK };
enum l2_when_busy { L2WB_NACK, L2WB_QUEUE }; /* l2_wait.c */
/* icnt.ack_channel: L1 -> L2 invalidation Acks (l2.sharers) on their own
 * virtual channel, or behind the requests (icnt.c). */
enum icnt_ack_channel { ICNT_ACK_SEPARATE, ICNT_ACK_SHARED };
/* icnt.payload: the data a warp's own load reply or store carries with an
 * unsectored L2 (l2.sector = 0): the whole line, or GPGPU-Sim 3.x's
 * coalescing segment (32, 64 or 128 B covering the 32 B chunks touched). */
enum icnt_payload { ICNT_PAYLOAD_LINE, ICNT_PAYLOAD_SEGMENT };
/* core.op_model: an ALU instruction keeps its warp busy for its cycles, or
 * runs on an execution unit with a latency and an initiation interval
 * (core/opunit.c). */
enum op_model { OPM_WARP_BUSY, OPM_UNITS };
#define OP_CLASSES 6 /* = kernel.h KU__COUNT: sp int dp sfu tensor branch */

struct core_cfg {
	int sms;
	int warps_per_sm;
	int warp_size;      /* 32 (NVIDIA) or 64 (AMD wavefront) */
	int simd_width;     /* lanes per cycle; warp_size/simd_width issue cycles */
	int ctas_per_sm;
	int threads_per_sm;
	int shmem_per_sm;   /* bytes */
	int scheduler;      /* enum sched_policy */
	int schedulers;     /* warp schedulers per SM (1, 2, 4): slot mod schedulers, one issue each per cycle */
	int active_pool;    /* two-level: warps in the active pool */
	int cta_dispatch;   /* enum cta_dispatch */
	int coalescer;      /* enum coalesce_mode */
	int coalesce_group; /* volta: lanes coalesced together (8 in the paper, the warp in GPGPU-Sim's code) */
	int mem_inflight;   /* vector memory buffer: in-flight memory instructions per SM */
	int mem_release;    /* enum mem_release: when an entry frees */
	bool nonblocking_stores;
	int shmem_latency;
	int shmem_banks;
	int clock_mhz;
	/* VWS (notes 002 §3; engine/policy/vws.c) */
	bool vws_iwl, vws_intracl, vws_intercl; /* ablation switches */
	int vws_alpha_pct;  /* sampling length, percent of the SM's warps */
	int vws_beta;       /* throttle aggressiveness */
	int vws_level1;     /* InterCL level-1 size */
	int vws_nact;       /* fixed window, 0 = estimate (IWL) */
	/* CCWS (Rogers et al., MICRO 2012; engine/policy/ccws.c; sources in docs/POLICIES.md) */
	int ccws_vta_entries, ccws_vta_ways; /* victim tag array per warp */
	int ccws_base_score;  /* LLS base; cutoff = live warps x base */
	int ccws_kthrottle;   /* LLS increment factor */
	int ccws_kcap;        /* LLS cap factor, 0 = no cap */
	int ccws_decay;       /* LLS points lost per cycle above the base */
	/* TBAS (notes 002 §4.5; engine/policy/tbas.c) */
	int batch_stride;   /* thread batch = floor(ctaid / batch_stride) */
	int tbas_running, tbas_threshold, tbas_promote; /* running-set warps, active warps to keep a batch, enum tbas_promote */
	int tbas_order;     /* enum tbas_order: the order inside the running set */
	/* Launch latency (GPGPU-Sim -gpgpu_kernel_launch_latency / -gpgpu_TB_launch_latency; core.c) */
	int kernel_launch_latency; /* cycles from a kernel's start to its first CTA dispatch */
	int cta_launch_latency;    /* cycles from a CTA's dispatch to its warps' first issue */
	/* Execution units (core.op_model = units; core/opunit.c), per class sp int dp sfu tensor branch */
	int op_model;              /* enum op_model */
	bool op_sub_core;          /* unit k serves scheduler k mod schedulers only */
	int op_latency[OP_CLASSES], op_initiation[OP_CLASSES], op_units[OP_CLASSES];
};

struct l1_cfg {
	bool enabled;
	int sets, ways, line;
	int sector;          /* 0 = not sectored, else sector bytes */
	int repl;            /* enum repl_policy */
	int index;           /* enum set_index */
	int hit_latency;
	int write_policy;    /* enum l1_write */
	bool streaming;      /* Volta allocate-on-fill streaming L1 */
	int ports;           /* lookups per cycle */
	int mshr_entries;    /* a limit, read on every allocation (l1_mshr_cap) */
	int mshr_capacity;   /* entries allocated (0 = mshr_entries); see l1_mshr_cap */
	int mshr_merges;     /* requests per entry (including the first) */
	int mshr_per_warp;   /* 0 = unlimited */
	int wait_queue;      /* requests waiting for an MSHR */
	int miss_queue;      /* requests waiting for the crossbar */
	int retry_delay;     /* cycles before re-sending a NACKed request */
	/* Locality-driven bypassing (notes 004; engine/policy/bypass.c). */
	int bypass;          /* enum l1_bypass */
	int bypass_tag_ways; /* decoupled tag store ways (same sets as the data store) */
	int bypass_threshold; /* a candidate gets a data line when RC > threshold */
	int bypass_aging;    /* RC decrements per replacement: 2 (evict + alloc) or 1 */
	bool bypass_gone_ages; /* a line leaving without a replacement (write-evict, invalidation) ages its set */
	int bypass_tag_cycles; /* extra hit latency of the larger tag probe */
	bool bypass_duel;    /* dueling (leaders decoupled / baseline, the others follow) */
	int bypass_duel_interval; /* cycles */
	int bypass_duel_diff; /* percentage points of miss rate */
	int bypass_leaders;  /* enum byp_leaders: leader sets in every SM, or SM0/SM1 */
	int bypass_duel_sets; /* leader sets of each kind per SM (bypass_leaders = sets) */
	int bypass_leader_select; /* enum byp_leader_select: where the leader sets lie (bypass_leaders = sets) */
	bool bypass_duel_cold_hold; /* an all-miss interval on both leader groups changes nothing */
	bool bypass_duel_unsure_hold; /* an interval whose counts cannot place the difference on either side of the limit changes nothing */
	int bypass_at_l2;    /* enum byp_at_l2: a bypassed load the L2 cannot take waits in its queue, or is NACKed */
};

/* Instruction fetch (engine/core/fetch.c, engine/mem/l1i.c; docs/MODEL.md
 * "Instruction cache and fetch"): keys l1i.* and core.ibuffer,
 * core.fetch_width, core.inst_size. Off: every warp's next instruction is
 * there when it is wanted (no fetch modelled). No effect with a coherence
 * protocol, whose directory knows no instruction lines (l1i_active,
 * config.h; info config and --check-config say so). */
struct l1i_cfg {
	bool enabled;
	bool perfect;        /* every lookup hits (GPGPU-Sim -gpgpu_perfect_inst_const_cache) */
	int sets, ways;      /* the line is l1.line (the L2's line) */
	int hit_latency;     /* cycles from the fetch's lookup to the instructions in the buffer */
	int mshr_entries;
	int mshr_merges;     /* warps per entry, the first included */
	int ibuffer;         /* instructions per warp buffer (core.ibuffer) */
	int fetch_width;     /* fetches per SM per cycle (core.fetch_width) */
	int inst_size;       /* bytes per built-in kernel statement (core.inst_size) */
};

enum coh_kernel_boundary { COH_KB_FLUSH, COH_KB_NONE }; /* coherence.kernel_boundary */

struct l2_cfg {
	int banks;
	int sets, ways, line;
	int sector;
	int repl;
	int index;
	int hit_latency;
	int interleave;      /* bytes of consecutive addresses per bank */
	int bank_hash;       /* enum bank_hash */
	int banks_per_channel; /* L2 sub-partitions per DRAM channel (0 = banks independent of the channels) */
	int mshr_entries;    /* a limit, read on every allocation (l2_mshr_cap) */
	int mshr_capacity;   /* entries allocated per bank (0 = mshr_entries) */
	int mshr_merges;
	int write_fetch;     /* enum l2_write */
	int queue;           /* input queue per bank */
	int ports;           /* lookups per cycle per bank */
	int when_busy;       /* enum l2_when_busy: a request the bank cannot take now is NACKed or waits at the head (l2_wait.c) */
	int sharers;         /* enum l2_sharers: L1 copies recorded and invalidated on replacement (protocol none) */
	int evict_order;     /* enum l2_evict_order: conventional miss: fetch after the write-back (serial) or with it */
	int fill_reply;      /* enum l2_fill_reply: replies a fill answers leave after hit_latency (pipeline) or at once */
	int fill_port_cycles; /* L2 port cycles a conventional fill takes (data array write) */
	int dram_latency;    /* core cycles a request waits between leaving the bank and the DRAM's queue (0 = none) */
	bool sector_mem;     /* sectored: a memory request moves only its sectors at the DRAM (whole bursts), not the line */
	struct frc_cfg {
		int entries;       /* per bank; 0 = no FRC */
		int ways;
		int swap_cycles;
		int lookup_cycles; /* after the L2 tag miss */
		int victim;        /* enum frc_victim */
		bool serve_evicting; /* hits on the victim held in an EVICTING entry are served */
		int mshr;          /* enum frc_mshr */
		int index;         /* enum frc_index: FRC set of a block */
		int fill_port_cycles; /* L2 port cycles an FRC fill takes */
		int swap_port_cycles; /* L2 port cycles an FRC swap takes (victim read + block write) */
	} frc;
	/* Coherence (issue 9; docs/COHERENCE.md): keys coherence.*, kept here
	 * because the directory lives in the L2 banks. */
	struct coh_cfg {
		int protocol;      /* enum coh_proto_id (coh.h): none, si, nmoesi, moesi */
		int dir_latency;   /* extra cycles on every directory message (on top of l2.hit_latency) */
		int kernel_boundary; /* enum coh_kernel_boundary: release/acquire between kernels (si, nmoesi) */
		int check_values;  /* shadow data values per word, every load checked (coh_values.c) */
		int value_words;   /* words the value store can track (fixed at sim_new: the arena cannot grow) */
	} coh;
};

enum frc_victim { FRC_VICTIM_AT_SWAP, FRC_VICTIM_AT_MISS };
enum frc_mshr { FRC_MSHR_SEPARATE, FRC_MSHR_SHARED };
enum l2_sharers { L2SH_EXACT, L2SH_SUPERSET, L2SH_OFF };
enum l2_evict_order { L2EV_SERIAL, L2EV_ACCEPTED, L2EV_OVERLAP };
enum l2_fill_reply { L2FR_PIPELINE, L2FR_AT_ONCE };
/* FRC set index from the bank-local line number (bank-select bits removed):
 * xor folds all its bits, linear takes the low bits (= the L2 set's low bits
 * under l2.index=linear), skip_l2_set_bits the bits above the L2 set index
 * (the low tag bits); global is line address mod sets (bank bits included). */
enum frc_index { FRC_IDX_XOR, FRC_IDX_LINEAR, FRC_IDX_SKIP_L2_SET_BITS, FRC_IDX_GLOBAL };

struct icnt_cfg {
	int latency;     /* cycles through the crossbar */
	int flit_bytes;
	int port_flits;  /* flits per cycle per port */
	int queue;       /* packets buffered per port and direction */
	int ack_channel; /* enum icnt_ack_channel */
	int payload;     /* enum icnt_payload */
};

/* The reuse-distance profiler (reuse.c): observes, never changes timing. */
struct reuse_cfg {
	bool profile;
};

struct mem_cfg {
	int model;   /* enum mem_model */
	int latency; /* fixed model: core cycles */
	int queue;   /* fixed model: in-flight requests per L2 bank */
	int kernel_end; /* enum mem_kernel_end: when the run ends */
};
enum mem_kernel_end { MEMKE_DRAINED, MEMKE_CTAS };

#endif
