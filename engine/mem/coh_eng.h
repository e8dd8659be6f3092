/*
 * coh_eng.h: the coherence protocols of coh.h wired into the timing engine
 * (issue 9). The same tables that drive the random tester (coh_ctl.c) drive
 * the real L1s (coh_l1.c) and a blocking directory kept per L2 line
 * (coh_dir.c); coh_check.c has the invariants, the transaction log and the
 * inspection helpers. With coherence.protocol = none nothing here runs.
 *
 *   L1 --GetS/GetX/Upg/GetN/UpgN (RQ_FETCH), WT (RQ_ST), Put* (RQ_WB),
 *        Ack/AckD/Unblock (RQ_COH)--> crossbar --> L2 bank: directory
 *   L1 <--Data* (fetch reply), WTAck, Nack, Inv/Recall (RQ_COH, RP_COH)-- L2
 *
 * Engine choices (docs/COHERENCE.md "In the timing engine"):
 *   - every directory message leaves after l2.hit_latency +
 *     coherence.dir_latency through the bank's FIFO reply queue, so messages
 *     from one bank to one L1 arrive in send order (the tables assume it);
 *   - an L1 eviction sends its Put (PutE/PutM/PutN) and frees the way at once
 *     (the write-back buffer); the directory takes a Put from a recorded
 *     holder even while the entry is locked, so the L1 never waits in MI_A;
 *     no WBAck is sent;
 *   - L2 replacement of a line with L1 copies: the line turns transient, Inv
 *     goes to every holder, and the write-back / fetch leave when the last
 *     ack is in (SI: Invs are not acknowledged, the fetch leaves at once);
 *   - with the FRC, the swap moves the victim's entry into the FRC entry and
 *     its Invs leave from there; the entry frees after the acks (frc.c);
 *   - atomics execute at the L2 after the directory has invalidated every
 *     copy (a GetX without a grant); the requester's own copy leaves first.
 */
#ifndef GPUSTEP_COH_ENG_H
#define GPUSTEP_COH_ENG_H

#include "coh/coh.h"
#include "sim/sim_int.h"

enum { DB_NONE, DB_ACKS, DB_UNBLOCK, DB_EVICT };
enum { KEPT_GONE, KEPT_S, KEPT_O };

struct coh_dent {
	uint64_t sh[4];      /* sharer bit per SM (a superset: S evictions are silent) */
	int16_t owner;       /* SM holding E/M/O, -1 = none */
	uint8_t ds;          /* enum coh_dstate */
	uint8_t busy;        /* DB_*: the entry is locked unless DB_NONE */
	uint8_t owner_o, has_n;
	uint16_t acks;       /* Inv/Recall answers still due */
	uint16_t req_sm;     /* requester of the transaction in progress */
	uint32_t held;       /* its request, parked until the acks are in (REQ_NIL none) */
	uint32_t grant_act;  /* directory actions of the row being executed */
	uint32_t evict_mshr; /* DB_EVICT: L2 MSHR entry of the miss replacing the line */
};

#define COH_LOG 512
enum coh_tx_kind { TX_L1, TX_DIR, TX_MSG, TX_NACK };
struct coh_tx {
	uint64_t cycle, addr;
	int16_t sm, bank;
	uint8_t kind, from, to, msg; /* L1: states + event; dir: directory states + msg; msg: type */
};
struct coh_log {
	uint64_t total; /* entries ever written; tx[total % COH_LOG] is the next */
	struct coh_tx tx[COH_LOG];
};

/* coh_check.c */
void coh_init(struct sim *s);
void coh_count(struct sim *s, unsigned msg, int sm, int bank, uint64_t addr);
void coh_note(struct sim *s, unsigned kind, int sm, int bank, uint64_t addr, unsigned from, unsigned to,
	      unsigned msg);
int coh_check_invariants(const struct sim *s, char **err);
unsigned coh_request_of(unsigned st);

/* coh_kflush.c (coh_kernel_boundary is in sim_int.h for core.c) */
void coh_kflush_init(struct sim *s);

/* coh_l1.c */
int coh_l1_access(struct sim *s, struct sm *sm, uint32_t ri, bool from_wait); /* 0 done, 1 stall */
void coh_l1_fill(struct sim *s, struct sm *sm, uint32_t fi);
void coh_l1_msg(struct sim *s, struct sm *sm, uint32_t ri);
void coh_l1_evict(struct sim *s, struct sm *sm, int set, int way);
void coh_l1_retry(struct sim *s, struct sm *sm, uint32_t ri);
/* SI: a write-through of line `addr` was acknowledged (l1.c reply path). */
void coh_l1_wt_acked(struct sim *s, struct sm *sm, uint64_t addr);

/* coh_dir.c */
bool coh_l2_access(struct sim *s, struct l2bank *b, uint32_t ri);
void coh_l2_request(struct sim *s, struct l2bank *b, uint32_t ri, int set, int way);
bool coh_l2_holders(const struct l2bank *b, int set, int way);
void coh_l2_reset(struct l2bank *b, int set, int way);
bool coh_l2_start_evict(struct sim *s, struct l2bank *b, int set, int way, uint32_t mshr);
void coh_l2_reply_note(struct sim *s, struct l2bank *b, struct req *r, uint8_t kind);
/* FRC swap of (set, way): the victim's directory entry moves into FRC entry i
 * and Inv goes to its copies; true = wait for acks (frc_evict_acked). */
bool coh_frc_victim(struct sim *s, struct l2bank *b, int i, int set, int way);
static inline struct coh_dent *coh_dent_at(const struct l2bank *b, int set, int way)
{
	return &b->dir[(size_t)set * (size_t)b->c.ways + (size_t)way];
}
static inline bool coh_has(const struct coh_dent *d, unsigned i) { return d->sh[i >> 6] >> (i & 63) & 1; }

/* coh_values.c: coherence.check_values (shadow data values; s->cv NULL = off) */
void coh_values_init(struct sim *s);
void coh_values_free(struct sim *s);
bool coh_values_take_stop(struct sim *s);
int coh_values_invariant(const struct sim *s, char **err); /* violations counted, or the store full */
void coh_values_coalesce(struct sim *s, struct sm *sm, uint32_t ri, const struct winst *in);
void coh_values_l1_load(struct sim *s, struct sm *sm, uint32_t ri, int set, int way);
void coh_values_l1_store(struct sim *s, struct sm *sm, uint32_t ri, int set, int way, bool dirty, bool wt);
void coh_values_l1_fill(struct sim *s, struct sm *sm, uint32_t fi, int set, int way, bool data, bool upgrade);
void coh_values_l1_payload(struct sim *s, struct sm *sm, uint32_t ri, int set, int way);
void coh_values_l1_clean(struct sim *s, struct sm *sm, int set, int way);
void coh_values_l2_merge(struct sim *s, struct l2bank *b, uint32_t ri, int set, int way, bool dirty);
void coh_values_l2_fill(struct sim *s, struct l2bank *b, int set, int way);
void coh_values_l2_writeback(struct sim *s, struct l2bank *b, const struct cline *cl);
void coh_values_l2_reply(struct sim *s, struct l2bank *b, uint32_t ri);

/* helpers exported by l1.c / l2.c for the coherence files */
void l1_send_down(struct sim *s, struct l1 *l, uint32_t ri);
void l1_complete_after(struct sim *s, struct l1 *l, uint32_t ri, uint64_t lat);
void l1_mshr_changed(struct sim *s, struct sm *sm);
bool l1_missq_room(const struct sim *s, const struct l1 *l);
bool l1_pool_wait(struct sim *s, uint32_t need);
/* Replacing this L1 copy sends a Put (coh_l1.c). */
bool coh_l1_put_needed(const struct sim *s, const struct cline *cl);
int l2_bank_set(const struct sim *s, const struct l2bank *b, uint64_t addr);
void l2_nack(struct sim *s, struct l2bank *b, uint32_t ri, unsigned reason);
void l2_count_access(struct sim *s, struct l2bank *b, uint32_t ri, int set, bool hit);

#endif
