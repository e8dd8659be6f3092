#!/bin/sh
# Two of notes 004 §5.6's reference cases that hold robustly on this model
# (docs/EXPERIMENTS.md "The paper's reference cases on this model";
# tools/bypass_cases.sh prints all of them), gtx480, each run well under 1 s:
# - case 2: one warp reads L consecutive lines R times with every set
#   decoupled. With threshold T a block's first T references bypass, the
#   (T+1)-th gives it a data line and every later one hits: blocks
#   referenced exactly twice (R = 2, T = 2) never get a line, and the hits
#   are L * max(0, R - T - 1). Derived from the parameters, checked for
#   T = 2 (default) and T = 1.
# - case 6 (traffic) on the thrashing kernel vws_thrash (48 warps x 8 lines
#   per SM against 128 L1 lines): locality bypassing sends no more requests
#   to the L2 (l2.accesses) than the plain L1.
. "$(dirname "$0")/lib.sh"
T=$E2E_TMP

# run NAME KERNEL OPTIONS...: gtx480, stats to $T/NAME.json (lib.sh)
run() { stats_run gtx480 "$@"; }
# stat NAME KEY: a number from $T/NAME.json
stat() { stats_num "$T/$1.json" "$2"; }

L=8
for t in 1 2; do
	for r in 2 4 6; do
		n=t${t}r$r
		run $n pow2_stride -p stride=32 -p lines=$L -p reps=$r -s l1.bypass=locality \
			-s l1.bypass_duel=false -s l1.bypass_threshold=$t
		hits=$((r > t + 1 ? L * (r - t - 1) : 0))
		lines=$((r > t ? L : 0))
		[ "$(stat $n l1.hits)" = $hits ] || fail "$n: $(stat $n l1.hits) L1 hits, expected $hits"
		[ "$(stat $n l1.tag_promotes)" = $lines ] || fail "$n: $(stat $n l1.tag_promotes) data lines given, expected $lines"
		byp=$((L * (r < t ? r : t)))
		[ "$(stat $n l1.bypasses)" = $byp ] || fail "$n: $(stat $n l1.bypasses) bypasses, expected $byp"
	done
done

run vnone vws_thrash -s l1.bypass=none
run vloc vws_thrash -s l1.bypass=locality
[ "$(stat vloc l1.bypasses)" -gt 0 ] || fail "vws_thrash: nothing bypassed"
[ "$(stat vloc l2.accesses)" -le "$(stat vnone l2.accesses)" ] ||
	fail "vws_thrash: $(stat vloc l2.accesses) L2 accesses with locality bypassing, $(stat vnone l2.accesses) without"
exit 0
