#!/bin/sh
# No built-in kernel deadlocks the model under any policy option set of
# tools/deadlock_sweep.sh on the teaching preset (about 15 s; a deadlock is
# `--run` exiting 1 with "the model deadlocked"), nor the gtx480 cases that
# once did: MRPB bypassing on gather_random, locality bypassing on bfs_like
# and stencil2d. Before invalidation Acks got their own virtual channel
# (icnt.ack_channel = separate), six teaching runs deadlocked here
# (locality: bfs_like, matmul_naive, vws_thrash; mrpb: bfs_like,
# gather_random, l2_set_burst at cycle 117), and they still do with
# `SETS="l1.bypass=mrpb icnt.ack_channel=shared"`.
. "$(dirname "$0")/lib.sh"
out=$(B="$BIN" sh tools/deadlock_sweep.sh teaching 2>&1) || fail "teaching sweep: $(echo "$out" | grep -v '^SKIP')"
expect_contains "$out" "deadlock_sweep: 0 failing runs"
for run in "gather_random -s l1.bypass=mrpb" "bfs_like -s l1.bypass=locality" "stencil2d -s l1.bypass=locality"; do
	# shellcheck disable=SC2086
	"$BIN" gtx480 -w $run --run --stats /dev/null >/dev/null 2>"$E2E_TMP/err" ||
		fail "gtx480 -w $run: exit $? ($(cat "$E2E_TMP/err"))"
done
echo "no deadlock: $(echo "$out" | tail -1)"
