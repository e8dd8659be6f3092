/*
 * coh_si.c: the AMD Southern Islands protocol (FRC thesis §1.7). Two L1
 * states (V valid, I); the L1 is write-through with no write-allocate: a
 * store updates a valid local copy and always writes its words through (WT,
 * word mask = the thesis's dirty byte mask); the L2 is write-back. The
 * directory records readers only, so that an L2 replacement can invalidate
 * their copies; writes and L1 evictions never touch it, and invalidations are
 * not acknowledged (an SI copy is never dirty). A load to a line with
 * unacknowledged write-throughs waits (same-address order in the L1).
 */
#include "coh.h"

#define R(st, ev, nx, act, note) {CS_##st, CE_##ev, CS_##nx, (act), (note)}
static const struct coh_l1_row l1[] = {
	R(I, LOAD, IS_D, A_GETS, "read miss"),
	R(I, STORE, I, A_WT, "no write-allocate: write through"),
	R(I, INV, I, 0, "stale reader bit"),
	R(V, LOAD, V, A_HIT, "read hit"),
	R(V, STORE, V, A_HIT | A_WT, "update and write through"),
	R(V, REPLACE, I, A_FREE, "silent eviction (never dirty)"),
	R(V, INV, I, A_FREE, "L2 replaced the line"),
	R(IS_D, DATA_S, V, A_FILL, "data"),
	R(IS_D, INV, IS_D, 0, "stale reader bit"),
	R(IS_D, NACK, IS_D, A_RETRY, "L2 line busy"),
};
#undef R

#define D(ds, m, nx, act, note) {DS_##ds, CM_##m, DS_##nx, (act), (note)}
static const struct coh_dir_row dir[] = {
	D(I, GETS, S, D_DATA_S, "record the reader"),
	D(S, GETS, S, D_DATA_S, "record the reader"),
	D(I, WT, I, D_MERGE | D_WT_ACK | D_NO_SHARERS, "merge words, no directory update"),
	D(S, WT, S, D_MERGE | D_WT_ACK | D_NO_SHARERS, "merge words, no directory update"),
	D(I, L2_REPL, I, 0, "write back if dirty"),
	D(S, L2_REPL, I, D_INV, "invalidate readers (no acks), write back if dirty"),
};
#undef D

const struct coh_proto coh_si_proto = {
	.name = "si",
	.summary = "Southern Islands: write-through L1, no write-allocate, no directory updates on writes",
	.l1 = l1,
	.nl1 = sizeof l1 / sizeof l1[0],
	.dir = dir,
	.ndir = sizeof dir / sizeof dir[0],
	.inv_acks = false,
	.write_alloc = false,
};
