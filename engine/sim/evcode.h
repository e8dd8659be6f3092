/*
 * evcode.h: the values of the coded event fields, one enum per field.
 *
 * An event's kind-specific slot (a or b) sometimes holds a code rather than a
 * number: l2.nack's reason, l1.mshr_full's reason, frc.fallback's reason, ...
 * Emitters write these enumerators, and event.c's name tables are indexed by
 * them with designated initialisers and checked against each enum's __COUNT at
 * build time, so `break l2.nack reason=pool_full` and the log's "reason=..."
 * stay right when a code is added. (Codes named by other headers: warp.stall
 * reasons are the stall reasons below, coherence states and messages are
 * coh.h's, reuse classes are reuse.h's.)
 */
#ifndef GPUSTEP_EVCODE_H
#define GPUSTEP_EVCODE_H

/* warp.stall: reason (why a warp did not issue; the warps panel, `why`) */
enum stall_reason {
	STALL_NONE,
	STALL_MEM,        /* waiting for memory instruction buffer / L1 port */
	STALL_SCOREBOARD, /* a source register is pending a load */
	STALL_BARRIER,
	STALL_MSHR_FULL,
	STALL_ALU,        /* previous multi-cycle ALU op still executing */
	STALL_SHMEM,
	STALL_INACTIVE,   /* two-level: not in the active pool */
	STALL_DONE,
	STALL_RF,         /* register file: operands being read (shifts, bank conflicts), write buffer or arbitrator full */
	STALL_FETCH,      /* instruction buffer empty: the next instruction is being fetched (l1i.enabled) */
	STALL__COUNT,
};
const char *stall_reason_name(unsigned r); /* event.c */

/* warp.issue: op, the kind of instruction issued (the kernel language's
 * words; the values are kernel.h's enum kop, checked in core.c) */
enum ev_inst_op { EVO_LD, EVO_ST, EVO_ATOM, EVO_LDSH, EVO_STSH, EVO_ALU, EVO_BAR, EVO_EXIT, EVO__COUNT };

/* l1.access, l2.access: op */
enum ev_access { EVA_READ, EVA_WRITE, EVA_ATOMIC, EVA__COUNT };

/* l1.mshr_full: reason (also the b of l1.bypass reason=mrpb, with BYPR_RESERVED) */
enum ev_mshr_full {
	EVM_ENTRIES,  /* no free MSHR entry */
	EVM_MERGES,   /* the pending entry has no merge slot */
	EVM_PER_WARP, /* the warp's MSHR cap */
	EVM_ISSUE,    /* a warp held at issue by the full MSHR file */
	EVM__COUNT
};

/* l2.nack: reason (also struct req's nack_reason) */
enum nack_reason {
	NACK_MSHR_FULL,
	NACK_TRANSIENT,
	NACK_SET_ALL_TRANSIENT,
	NACK_QUEUE_FULL,
	NACK_DIR_LOCKED,
	NACK_MERGE_FULL,
	NACK_POOL_FULL,
	NACK__COUNT
};

/* frc.fallback: reason */
enum ev_frc_fallback {
	FRCFB_SET_FULL,
	FRCFB_MSHR_FULL,
	FRCFB_QUEUE_FULL,
	FRCFB_NO_VICTIM,
	FRCFB_POOL_FULL,
	FRCFB__COUNT
};

/* l1.bypass: reason */
enum ev_bypass { BYPEV_TAG_MISS, BYPEV_LOW_RC, BYPEV_ALL, BYPEV_MRPB, BYPEV__COUNT };

/* rf.wb_drain: how */
enum ev_drain { EVD_DIRECT, EVD_PIGGYBACK, EVD_FORCED, EVD__COUNT };

/* coh.kernel_flush: phase */
enum ev_kflush { EVK_RELEASE, EVK_ACQUIRE, EVK_DONE, EVK__COUNT };

/* icnt.stall: dir */
enum ev_icnt_dir { EVI_REQUEST, EVI_REPLY, EVI_ACK, EVI__COUNT }; /* EVI_ACK: icnt.ack_channel = separate */

#endif
