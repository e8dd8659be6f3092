/*
 * coh_nmoesi.c: NMOESI (Multi2Sim's GPU extension of MOESI; FRC thesis
 * §1.7). A GPU store takes the line in the non-coherent N state without
 * invalidating other copies: GetN on a miss, UpgN on the first local write
 * to an S copy; both lock the directory entry until the requester's Unblock
 * (the "lock on first local write"). An N copy is evicted with PutN carrying
 * only its dirty words, merged into the L2 under the directory lock (the
 * "byte-mask merge on replacement"). Loads never see other L1s' unmerged N
 * words (release consistency). Choice: a recalled E/M owner writes back and
 * drops to S, so O never arises here (an O owner's later PutM would
 * overwrite words merged from N copies).
 */
#include "coh.h"

#define R(st, ev, nx, act, note) {CS_##st, CE_##ev, CS_##nx, (act), (note)}
static const struct coh_l1_row l1[] = {
	R(I, LOAD, IS_D, A_GETS, "read miss"),
	R(I, STORE, IN_D, A_GETN, "write miss: non-coherent copy"),
	R(I, INV, I, A_ACK, "stale sharer bit (silent S eviction)"),
	R(S, LOAD, S, A_HIT, "read hit"),
	R(S, STORE, SN_D, A_UPGN, "first local write: lock the directory"),
	R(S, REPLACE, I, A_FREE, "silent eviction"),
	R(S, INV, I, A_ACK | A_FREE, "invalidated"),
	R(E, LOAD, E, A_HIT, "read hit"),
	R(E, STORE, M, A_HIT | A_DIRTY, "silent upgrade"),
	R(E, REPLACE, MI_A, A_PUTE, "clean exclusive eviction"),
	R(E, INV, I, A_ACK | A_FREE, "invalidated"),
	R(E, RECALL, S, A_ACK, "downgrade, clean"),
	R(M, LOAD, M, A_HIT, "read hit"),
	R(M, STORE, M, A_HIT | A_DIRTY, "write hit"),
	R(M, REPLACE, MI_A, A_PUTM, "dirty eviction"),
	R(M, INV, I, A_ACK | A_FREE, "invalidated, data to L2"),
	R(M, RECALL, S, A_ACK, "write back, downgrade to S"),
	R(N, LOAD, N, A_HIT, "read hit (own words current, others as fetched)"),
	R(N, STORE, N, A_HIT | A_DIRTY, "write hit, no directory update"),
	R(N, REPLACE, MI_A, A_PUTN, "merge dirty words into the L2"),
	R(N, INV, I, A_ACK | A_FREE, "invalidated, dirty words to L2"),
	R(IS_D, DATA_S, S, A_FILL, "shared data"),
	R(IS_D, DATA_E, E, A_FILL | A_UNBLOCK, "exclusive data"),
	R(IS_D, INV, IS_D, A_ACK, "stale sharer bit"),
	R(IS_D, NACK, IS_D, A_RETRY, "directory locked"),
	R(IN_D, DATA_N, N, A_FILL | A_UNBLOCK | A_DIRTY, "N data"),
	R(IN_D, INV, IN_D, A_ACK, "stale sharer bit"),
	R(IN_D, NACK, IN_D, A_RETRY, "directory locked"),
	R(SN_D, DATA_N, N, A_FILL | A_UNBLOCK | A_DIRTY, "first write granted"),
	R(SN_D, INV, IN_D, A_ACK, "lost the copy while upgrading"),
	R(SN_D, NACK, SN_D, A_RETRY, "directory locked"),
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
	D(N, GETS, N, D_DATA_S, "add sharer; N words stay unmerged"),
	D(X, GETS, S, D_RECALL | D_DATA_S, "owner writes back, drops to S"),
	D(I, GETN, N, D_DATA_N, "non-coherent copy, lock until Unblock"),
	D(S, GETN, N, D_DATA_N, "no invalidations"),
	D(N, GETN, N, D_DATA_N, "no invalidations"),
	D(X, GETN, N, D_RECALL | D_DATA_N, "owner writes back first"),
	D(I, UPGN, N, D_DATA_N, "first write from a lost copy = GetN"),
	D(S, UPGN, N, D_DATA_N, "first local write: lock, record"),
	D(N, UPGN, N, D_DATA_N, "first local write: lock, record"),
	D(X, UPGN, N, D_RECALL | D_DATA_N, "owner writes back first"),
	D(I, GETX, X, D_DATA_X, "atomics: exclusive"),
	D(S, GETX, X, D_INV | D_DATA_X, "invalidate sharers first"),
	D(N, GETX, X, D_INV | D_DATA_X, "invalidate (N words merge) first"),
	D(X, GETX, X, D_INV | D_DATA_X, "invalidate the owner first"),
	D(X, PUTE, I, D_CLR_OWNER | D_WB_ACK, "owner leaves, clean"),
	D(X, PUTM, I, D_WB | D_CLR_OWNER | D_WB_ACK, "owner writes back"),
	D(S, PUTN, S, D_MERGE | D_CLR_OWNER | D_WB_ACK, "merge dirty words"),
	D(N, PUTN, N, D_MERGE | D_CLR_OWNER | D_WB_ACK, "merge dirty words"),
	D(I, PUTN, I, D_MERGE | D_CLR_OWNER | D_WB_ACK, "merge dirty words"),
	D(I, L2_REPL, I, 0, "no copies: write back if dirty"),
	D(S, L2_REPL, I, D_INV, "invalidate sharers, then write back"),
	D(N, L2_REPL, I, D_INV, "invalidate, N words merge, then write back"),
	D(X, L2_REPL, I, D_INV, "invalidate owner (data back), then write back"),
};
#undef D

const struct coh_proto coh_nmoesi_proto = {
	.name = "nmoesi",
	.summary = "NMOESI: non-coherent N on GPU writes, byte-mask merge on eviction, directory locked on first write",
	.l1 = l1,
	.nl1 = sizeof l1 / sizeof l1[0],
	.dir = dir,
	.ndir = sizeof dir / sizeof dir[0],
	.inv_acks = true,
	.write_alloc = true,
};
