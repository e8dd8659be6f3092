#!/bin/sh
# With l2.when_busy = queue (gtx480 and titanv by default; teaching and rx540
# set here, without an FRC) the L2 must never refuse a request: l2_wait.c
# predicts every refusal of the lookup and miss path (l2.c, l2_repl.c)
# without their side effects, and a request it lets through is taken. If
# the two drift apart, a request passes the wait test and is NACKed anyway,
# and `l2.nacks` is no longer 0. Every built-in kernel at default size on
# four machines (about 5 s).
. "$(dirname "$0")/lib.sh"
runs=0
for m in "gtx480" "titanv" "teaching -s l2.when_busy=queue" "rx540 -s l2.when_busy=queue -s l2.frc.entries=0"; do
	for k in $("$BIN" --list-kernels | awk '{print $1}'); do
		# shellcheck disable=SC2086 # $m is a preset and options
		"$BIN" $m -w "$k" --run --stats "$E2E_TMP/s.json" >/dev/null 2>"$E2E_TMP/err" ||
			fail "$m -w $k: exit $? ($(cat "$E2E_TMP/err"))"
		n=$(sed -n 's/^ *"l2.nacks": \([0-9]*\),\{0,1\}$/\1/p' "$E2E_TMP/s.json")
		[ -n "$n" ] || fail "$m -w $k: no l2.nacks in the stats"
		[ "$n" = 0 ] || fail "$m -w $k: $n NACKs with l2.when_busy = queue (l2_wait.c let a request through that the L2 refused)"
		runs=$((runs + 1))
	done
done
echo "l2.when_busy = queue: $runs runs, no NACK"
