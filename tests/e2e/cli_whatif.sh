#!/bin/sh
# whatif in batch mode (issue 39): at a breakpoint stop, a change that may be
# made mid-run prints the parting cycle and event, the top changes, the stall
# mix and a verdict; `info` afterwards shows the stepped machine at the
# stop's cycle; fewer L1 MSHRs mid-run work (the Done-when example); more
# than the files were built with is refused with --from-start offered, and
# --from-start runs it.
. "$(dirname "$0")/lib.sh"

out=$(printf 'break l2.miss\ncontinue\nprint sim.cycles\nwhatif l2.hit_latency=60 --to-end\ninfo\nprint sim.cycles\n' |
	"$BIN" teaching -w vecadd --batch -) || fail "batch exited $?"
expect_contains "$out" "where they part: cycle "
expect_contains "$out" "what moved ("
expect_contains "$out" "stall mix (SM-cycles without an issue):"
expect_contains "$out" "verdict: B takes "
# The stop's cycle, printed before and after the whatif, is the same.
c1=$(printf '%s\n' "$out" | grep '^sim.cycles = ' | sed -n 1p)
c2=$(printf '%s\n' "$out" | grep '^sim.cycles = ' | sed -n 2p)
[ -n "$c1" ] && [ "$c1" = "$c2" ] || fail "the stepped machine moved: '$c1' then '$c2'"
cyc=${c1#sim.cycles = }
expect_contains "$out" "cycle     $cyc (stopped)"

# Issue 39's Done-when: fewer L1 MSHRs mid-run (a limit: engine/machine/fork.h).
out=$(printf 'break l2.miss\ncontinue\nprint sim.cycles\nwhatif l1.mshr.entries=2 --to-end\ninfo\n' |
	"$BIN" teaching -w vecadd --batch -) || fail "whatif l1.mshr.entries=2 mid-run exited $?"
cyc=$(printf '%s\n' "$out" | grep '^sim.cycles = ' | sed -n 1p)
cyc=${cyc#sim.cycles = }
[ -n "$cyc" ] || fail "no stop cycle"
part=$(printf '%s\n' "$out" | sed -n 's/^where they part: cycle \([0-9]*\) .*/\1/p')
[ -n "$part" ] && [ "$part" -ge "$cyc" ] || fail "parting cycle '$part' before the stop at $cyc"
expect_contains "$out" "  B: cycle $part l1.mshr_full "
expect_contains "$out" "what moved ("
expect_contains "$out" "stall mix (SM-cycles without an issue):"
expect_contains "$out" "cycle     $cyc (stopped)"
# More entries than the files were built with (l1.mshr.capacity) cannot.
printf 'break l2.miss\ncontinue\nwhatif l1.mshr.entries=64 --to-end\n' | "$BIN" teaching -w vecadd --batch - \
	>"$E2E_TMP/out" 2>"$E2E_TMP/err" && fail "more MSHRs than built mid-run succeeded"
expect_contains "$(cat "$E2E_TMP/err")" "l1.mshr.entries cannot change mid-run"
expect_contains "$(cat "$E2E_TMP/err")" "l1.mshr.capacity=64"
expect_contains "$(cat "$E2E_TMP/err")" "whatif l1.mshr.entries=64 --from-start"

out=$(printf 'break l2.miss\ncontinue\nwhatif l1.mshr.entries=2 --to-end --from-start\n' |
	"$BIN" teaching -w vecadd --batch -) || fail "--from-start exited $?"
expect_contains "$out" "B: cycle "
expect_contains "$out" "l1.mshr_full"
expect_contains "$out" "more mshr_full stalls"
exit 0
