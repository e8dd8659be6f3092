/*
 * coh_moesi.c: MOESI with a blocking L2 directory (FRC thesis §1.7: the CPU
 * baseline of Multi2Sim). Five stable L1 states; the owner (E/M/O) is
 * recalled for every read by another L1 (no cache-to-cache path on a GPU
 * crossbar: the data travels through the directory, the L2 copy stays stale
 * while an O owner exists). Clean S copies are dropped silently, so sharer
 * bits are a superset of the holders; an Inv to a non-holder is just acked.
 */
#include "coh.h"

#define R(st, ev, nx, act, note) {CS_##st, CE_##ev, CS_##nx, (act), (note)}
static const struct coh_l1_row l1[] = {
	R(I, LOAD, IS_D, A_GETS, "read miss"),
	R(I, STORE, IM_D, A_GETX, "write miss"),
	R(I, INV, I, A_ACK, "stale sharer bit (silent S eviction)"),
	R(S, LOAD, S, A_HIT, "read hit"),
	R(S, STORE, SM_D, A_UPG, "write hit on S: upgrade"),
	R(S, REPLACE, I, A_FREE, "silent eviction"),
	R(S, INV, I, A_ACK | A_FREE, "invalidated"),
	R(E, LOAD, E, A_HIT, "read hit"),
	R(E, STORE, M, A_HIT | A_DIRTY, "silent upgrade"),
	R(E, REPLACE, MI_A, A_PUTE, "clean exclusive eviction"),
	R(E, INV, I, A_ACK | A_FREE, "invalidated"),
	R(E, RECALL, S, A_ACK, "downgrade, clean"),
	R(O, LOAD, O, A_HIT, "read hit"),
	R(O, STORE, OM_D, A_UPG, "write hit on O: upgrade"),
	R(O, REPLACE, MI_A, A_PUTM, "dirty eviction"),
	R(O, INV, I, A_ACK | A_FREE, "invalidated, data to L2"),
	R(O, RECALL, O, A_ACK, "supply data, stay owner"),
	R(M, LOAD, M, A_HIT, "read hit"),
	R(M, STORE, M, A_HIT | A_DIRTY, "write hit"),
	R(M, REPLACE, MI_A, A_PUTM, "dirty eviction"),
	R(M, INV, I, A_ACK | A_FREE, "invalidated, data to L2"),
	R(M, RECALL, O, A_ACK, "supply data, keep ownership"),
	R(IS_D, DATA_S, S, A_FILL, "shared data"),
	R(IS_D, DATA_E, E, A_FILL | A_UNBLOCK, "exclusive data"),
	R(IS_D, INV, IS_D, A_ACK, "stale sharer bit"),
	R(IS_D, NACK, IS_D, A_RETRY, "directory locked"),
	R(IM_D, DATA_X, M, A_FILL | A_UNBLOCK | A_DIRTY, "exclusive data"),
	R(IM_D, INV, IM_D, A_ACK, "stale sharer bit"),
	R(IM_D, NACK, IM_D, A_RETRY, "directory locked"),
	R(SM_D, DATA_X, M, A_FILL | A_UNBLOCK | A_DIRTY, "upgrade granted"),
	R(SM_D, INV, IM_D, A_ACK, "lost the copy while upgrading"),
	R(SM_D, NACK, SM_D, A_RETRY, "directory locked"),
	R(OM_D, DATA_X, M, A_FILL | A_UNBLOCK | A_DIRTY, "upgrade granted"),
	R(OM_D, INV, IM_D, A_ACK, "lost the copy while upgrading, data to L2"),
	R(OM_D, RECALL, OM_D, A_ACK, "supply data while upgrading"),
	R(OM_D, NACK, OM_D, A_RETRY, "directory locked"),
	R(MI_A, WB_ACK, I, A_FREE, "eviction done"),
	R(MI_A, INV, II_A, A_ACK, "data handed over before the Put"),
	R(MI_A, RECALL, II_A, A_ACK, "data handed over before the Put"),
	R(MI_A, NACK, MI_A, A_RETRY, "directory locked"),
	R(II_A, WB_ACK, I, A_FREE, "stale Put acked"),
	R(II_A, NACK, I, A_DROP | A_FREE, "stale Put refused: nothing to resend"),
	R(II_A, INV, II_A, A_ACK, "stale sharer bit"),
};
#undef R

#define D(ds, m, nx, act, note) {DS_##ds, CM_##m, DS_##nx, (act), (note)}
static const struct coh_dir_row dir[] = {
	D(I, GETS, X, D_DATA_E, "no copies: exclusive"),
	D(S, GETS, S, D_DATA_S, "add sharer"),
	D(X, GETS, O, D_RECALL | D_DATA_S, "recall owner (M->O, E->S), forward data"),
	D(O, GETS, O, D_RECALL | D_DATA_S, "owner O supplies the data"),
	D(I, GETX, X, D_DATA_X, "exclusive"),
	D(S, GETX, X, D_INV | D_DATA_X, "invalidate sharers first"),
	D(X, GETX, X, D_INV | D_DATA_X, "invalidate the owner first"),
	D(O, GETX, X, D_INV | D_DATA_X, "invalidate owner and sharers first"),
	D(I, UPG, X, D_DATA_X, "upgrade from a lost copy = GetX"),
	D(S, UPG, X, D_INV | D_DATA_X, "invalidate the other sharers"),
	D(X, UPG, X, D_INV | D_DATA_X, "invalidate the owner first"),
	D(O, UPG, X, D_INV | D_DATA_X, "invalidate the others"),
	D(X, PUTE, I, D_CLR_OWNER | D_WB_ACK, "owner leaves, clean"),
	D(X, PUTM, I, D_WB | D_CLR_OWNER | D_WB_ACK, "owner writes back"),
	D(O, PUTM, S, D_WB | D_CLR_OWNER | D_WB_ACK, "owner writes back, sharers stay"),
	D(I, PUTE, I, D_STALE | D_WB_ACK, "stale Put"),
	D(S, PUTE, S, D_STALE | D_WB_ACK, "stale Put"),
	D(I, PUTM, I, D_STALE | D_WB_ACK, "stale Put"),
	D(S, PUTM, S, D_STALE | D_WB_ACK, "stale Put"),
	D(I, L2_REPL, I, 0, "no copies: write back if dirty"),
	D(S, L2_REPL, I, D_INV, "invalidate sharers, then write back"),
	D(X, L2_REPL, I, D_INV, "invalidate owner (data back), then write back"),
	D(O, L2_REPL, I, D_INV, "invalidate owner and sharers, then write back"),
};
#undef D

const struct coh_proto coh_moesi_proto = {
	.name = "moesi",
	.summary = "MOESI, blocking directory, invalidations acknowledged (CPU baseline)",
	.l1 = l1,
	.nl1 = sizeof l1 / sizeof l1[0],
	.dir = dir,
	.ndir = sizeof dir / sizeof dir[0],
	.inv_acks = true,
	.write_alloc = true,
};
