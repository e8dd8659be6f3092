#!/bin/sh
# tui_rf.sh BIN: the racetrack register file in the interactive screen: step
# 400, break on rf.shift_stall; the rf panel shows the stalled warp's request queued in
# the stopping bank behind a request that shifts, and the warps panel shows
# the warp stalled on `rf`; its counter line gives the selected SM's counts
# and the machine's, and follows `select sm`.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }

tmux_start 200 60 "GPUSTEP_HISTORY= $BIN -w matmul_tiled -s rf.kind=racetrack -s core.scheduler=rmws; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"
type_line 'layout rf'
tmux_wait_for '─ rf  sm 0  racetrack 4P seg 16  eq3_3' 3 || fail "rf panel missing"
type_line 'step 400'
tmux_wait_for 'cycle 400' 5 || fail "step 400 did not run"
type_line 'break rf.shift_stall'
type_line 'continue'
tmux_wait_for 'stopped at breakpoint 1: rf.shift_stall' 5 || fail "no stop at rf.shift_stall"
stop=$(tmux_capture | grep -m1 'rf.shift_stall')
sm=$(echo "$stop" | sed -n 's/.* sm=\([0-9]*\).*/\1/p')
warp=$(echo "$stop" | sed -n 's/.* warp=\([0-9]*\).*/\1/p')
bank=$(echo "$stop" | sed -n 's/.* unit=\([0-9]*\).*/\1/p')
reg=$(echo "$stop" | sed -n 's/.* reg=\([0-9]*\).*/\1/p')
[ -n "$warp" ] && [ -n "$bank" ] && [ -n "$reg" ] || fail "no warp/unit/b in the stop reason: $stop"
tmux_wait_for "─ rf  sm $sm " 2 || fail "rf panel does not follow the stop's SM $sm"
line=$(tmux_capture | grep -E "^b$bank +BML" | head -1)
[ -n "$line" ] || fail "bank $bank not shown"
case "$line" in *"w${warp}r${reg} R>"*) ;; *) fail "stalled request w${warp}r${reg} not queued in bank $bank: $line" ;; esac
echo "$line" | grep -qE ' d[1-9][0-9]*[* ]~' || fail "no shifting request in bank $bank's queue: $line"
# The counter line: the stop's SM first, then all SMs (the batch run of
# cli_info.sh stops at the same point: sm 0 has 68 of the 126 shifts).
hdr=$(tmux_capture | grep -m1 '^sm [0-9]*: reads')
case "$hdr" in "sm 0: reads 50 writes 20 shifts 68 (114 cyc) conflicts 14 | all SMs: reads 94 writes 36 shifts 126 (200 cyc) conflicts 24, 10 nJ | sm 0 wb raw 17"*) ;;
*) fail "rf counter line at the stop: $hdr" ;; esac
type_line 'select sm 1'
tmux_wait_for 'sm 1: reads 44 writes 16 shifts 58 (86 cyc) conflicts 10 | all SMs: reads 94 writes 36 shifts 126 (200 cyc)' 3 ||
	fail "rf counter line after select sm 1: $(tmux_capture | grep -m1 ': reads')"
type_line 'quit'
tmux_wait_exit 5 || fail "did not quit"
grep -q 'EXIT=0' "$E2E_TMP/exit" || fail "exit status $(cat "$E2E_TMP/exit")"
exit 0
