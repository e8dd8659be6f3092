/*
 * coh.h: coherence protocols as tables (FRC thesis §1.7, §3.4; issue 9).
 *
 * A protocol is two tables, one file each (coh_si.c, coh_nmoesi.c,
 * coh_moesi.c):
 *
 *   L1 table   (L1 line state, event)        -> actions, next state
 *   dir table  (directory state, message)    -> actions, next state
 *
 * The same rows drive the controllers (coh.c), the `protocol` panel and
 * `help protocol`; a row that is absent means "stall: retry the access later"
 * for core events and is a protocol error for messages.
 *
 * The directory is blocking (Multi2Sim-style): an entry is locked from the
 * first request of a multi-step transaction (invalidations, owner recall,
 * memory fetch, exclusive/N grant waiting for the requester's Unblock) until
 * it completes; requests that find it locked get NACK `dir_locked` and the
 * L1 retries them. Shared-data grants do not lock.
 *
 * Transport assumption (the crossbar gives it, the random tester keeps it):
 * messages between one L1 and one directory are delivered in send order.
 *
 *   L1 ──GetS/GetX/Upg/GetN/PutE/PutM/PutN/WT/Ack/Unblock──▶ directory (L2)
 *   L1 ◀──DataS/DataE/DataX/DataN/Inv/Recall/WBAck/WTAck/Nack── directory
 */
#ifndef GPUSTEP_COH_H
#define GPUSTEP_COH_H

#include <stdbool.h>
#include <stdint.h>

enum coh_proto_id { COH_NONE, COH_SI, COH_NMOESI, COH_MOESI, COH__COUNT };

/* L1 line states; stable first, then transient (X_Y: from X going to Y). */
enum coh_state {
	CS_I, CS_S, CS_E, CS_O, CS_M, CS_N, CS_V,
	CS_IS_D,  /* GetS sent, waiting for data */
	CS_IM_D,  /* GetX sent, waiting for exclusive data */
	CS_SM_D,  /* Upg sent from S */
	CS_OM_D,  /* Upg sent from O */
	CS_IN_D,  /* GetN sent (NMOESI) */
	CS_SN_D,  /* UpgN sent from S (NMOESI: first local write) */
	CS_MI_A,  /* Put sent, data kept until WBAck */
	CS_II_A,  /* Put sent, data already handed over, waiting for WBAck/Nack */
	CS__COUNT
};

/* What happens to an L1 line: core accesses, replacement, messages. */
enum coh_event {
	CE_LOAD, CE_STORE, CE_REPLACE,
	CE_DATA_S, CE_DATA_E, CE_DATA_X, CE_DATA_N,
	CE_INV, CE_RECALL, CE_WB_ACK, CE_NACK,
	CE__COUNT
};

/* Message types on the crossbar (counted per type as coh.msg.<name>). */
enum coh_msg {
	CM_GETS, CM_GETX, CM_UPG, CM_GETN, CM_UPGN, CM_PUTE, CM_PUTM, CM_PUTN, CM_WT, CM_ACK, CM_ACKD,
	CM_UNBLOCK,
	CM_DATA_S, CM_DATA_E, CM_DATA_X, CM_DATA_N, CM_INV, CM_RECALL, CM_WB_ACK, CM_WT_ACK, CM_NACK,
	CM_L2_REPL, /* not a message: the L2 replaces the line (directory table only) */
	CM__COUNT
};

/* L1 actions (bits). */
enum coh_l1_act {
	A_HIT = 1u << 0,      /* perform the access on the local copy */
	A_GETS = 1u << 1,     /* send GetS */
	A_GETX = 1u << 2,     /* send GetX */
	A_UPG = 1u << 3,      /* send Upg (S/O -> M) */
	A_GETN = 1u << 4,     /* send GetN (NMOESI write miss) */
	A_UPGN = 1u << 5,     /* send UpgN (NMOESI first local write on S) */
	A_PUTE = 1u << 6,     /* send PutE (clean exclusive eviction) */
	A_PUTM = 1u << 7,     /* send PutM with the line (M/O eviction) */
	A_PUTN = 1u << 8,     /* send PutN with the dirty words (N eviction, byte-mask merge) */
	A_WT = 1u << 9,       /* write the stored words through (SI) */
	A_ACK = 1u << 10,     /* answer Inv/Recall; data if the copy is dirty */
	A_FILL = 1u << 11,    /* install the arrived data, complete the waiting access */
	A_UNBLOCK = 1u << 12, /* tell the directory the grant arrived */
	A_RETRY = 1u << 13,   /* re-send the NACKed request after the retry delay */
	A_DROP = 1u << 14,    /* the NACKed Put is stale: forget it */
	A_FREE = 1u << 15,    /* the way becomes free */
	A_DIRTY = 1u << 16,   /* the performed store dirties the local words */
};

struct coh_l1_row {
	uint8_t state, ev, next;
	uint32_t act;
	const char *note;
};

/* Directory states: what the L2 entry believes about the L1 copies. */
enum coh_dstate {
	DS_I,    /* no L1 copy (sharer bits may be stale supersets: silent S evictions) */
	DS_S,    /* sharers only; L2 data current */
	DS_X,    /* one owner in E or M; L2 data may be stale */
	DS_O,    /* owner in O plus sharers; L2 data stale */
	DS_N,    /* NMOESI: sharers of which some may hold N (unmerged) words */
	DS__COUNT
};

/* Directory actions (bits). */
enum coh_dir_act {
	D_DATA_S = 1u << 0,   /* reply DataS (requester joins the sharers) */
	D_DATA_E = 1u << 1,   /* reply DataE (requester becomes owner), lock until Unblock */
	D_DATA_X = 1u << 2,   /* reply DataX after invalidating the others, lock until Unblock */
	D_DATA_N = 1u << 3,   /* reply DataN (requester joins the sharers), lock until Unblock */
	D_INV = 1u << 4,      /* invalidate every other copy, collect acks */
	D_RECALL = 1u << 5,   /* ask the owner for its data (downgrade), wait for it */
	D_WB = 1u << 6,       /* take the written-back line (PutM) */
	D_MERGE = 1u << 7,    /* merge the dirty words (PutN, WT) */
	D_WB_ACK = 1u << 8,   /* reply WBAck */
	D_WT_ACK = 1u << 9,   /* reply WTAck */
	D_CLR_OWNER = 1u << 10, /* the sender stops being owner/sharer */
	D_NO_SHARERS = 1u << 11, /* SI: reads do record sharers, writes and evictions do not touch them */
	D_STALE = 1u << 12,   /* a Put from a copy the directory no longer counts: ack, ignore */
};

struct coh_dir_row {
	uint8_t dstate, msg, next;
	uint32_t act;
	const char *note;
};

struct coh_proto {
	const char *name;
	const char *summary;
	const struct coh_l1_row *l1;
	unsigned nl1;
	const struct coh_dir_row *dir;
	unsigned ndir;
	bool inv_acks;   /* invalidations are acknowledged (SI: no, its copies are never dirty) */
	bool write_alloc; /* stores bring the line into the L1 */
};

extern const struct coh_proto coh_si_proto, coh_nmoesi_proto, coh_moesi_proto;

/* Protocol by id / by name ("si", "nmoesi", "moesi"); NULL for none/unknown. */
const struct coh_proto *coh_proto_get(unsigned id);
const struct coh_proto *coh_proto_find(const char *name);

const char *coh_state_name(unsigned st);
const char *coh_event_name(unsigned ev);
const char *coh_msg_name(unsigned m);
const char *coh_dstate_name(unsigned d);
/* One-letter state for the cache panel ('I','S','E','O','M','N','V', '~' transient). */
char coh_state_letter(unsigned st);
bool coh_state_stable(unsigned st);
/* Does the message carry a line (or words) of data? */
bool coh_msg_has_data(unsigned m, bool dirty_payload);

/* Row index for (state, event) in the L1 table, or -1 (stall / error). */
int coh_l1_lookup(const struct coh_proto *p, unsigned st, unsigned ev);
/* Row index for (dstate, msg) in the directory table, or -1. */
int coh_dir_lookup(const struct coh_proto *p, unsigned ds, unsigned msg);
/* A whole row, "state event -> next actions note" (the `protocol` command,
 * `help protocol` and the protocol panel print the same text). */
void coh_l1_row_text(const struct coh_l1_row *r, char *buf, unsigned n);
void coh_dir_row_text(const struct coh_dir_row *r, char *buf, unsigned n);

#endif
