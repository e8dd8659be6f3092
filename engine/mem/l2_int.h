/*
 * l2_int.h: what l2.c (banks, lookups, memory hand-off) and l2_repl.c (the
 * conventional replacement path and fills) share. Not for other files.
 */
#ifndef GPUSTEP_L2_INT_H
#define GPUSTEP_L2_INT_H

#include "sim/sim_int.h"

/* l2.nack reasons (4 is dir_locked, coh_dir.c). */
/* enum nack_reason: evcode.h */

#define B_INC(s, b, field, agg)                                                                              \
	do {                                                                                                 \
		stat_inc(&(s)->stats, (b)->st.field);                                                        \
		stat_inc(&(s)->stats, (s)->id.agg);                                                          \
	} while (0)

uint32_t l2_memq_cap(const struct sim *s);
uint32_t l2_mshr_in_use(const struct sim *s, const struct l2bank *b);
void l2_mshr_changed(struct sim *s, struct l2bank *b);
/* Miss latency split of one miss on path p (0 conventional, 1 FRC), at its fill. */
void l2_miss_lat(struct sim *s, int p, uint64_t t0, uint64_t t_inv, uint64_t t_ev, uint64_t t_hand);
void l2_apply_write(struct cline *cl, uint32_t mask);
/* l2_repl.c */
void l2_miss_path(struct sim *s, struct l2bank *b, uint32_t ri, int set, int way);
void l2_slc_stream(struct sim *s, struct l2bank *b, uint32_t ri, int set);
void l2_fill(struct sim *s, struct l2bank *b, uint32_t mi);
/* A conventional miss's write-back was handed to memory / completed there. */
void l2_wb_handed(struct sim *s, struct l2bank *b, uint32_t mi);
void l2_wb_done(struct sim *s, struct l2bank *b, uint32_t mi);
/* Write a dirty victim back using request slot wi (REQ_NIL: allocate one). */
void l2_writeback_slot(struct sim *s, struct l2bank *b, struct cline *cl, int set, uint32_t mshr,
                       uint32_t wi);

#endif
