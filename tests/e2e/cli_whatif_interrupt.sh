#!/bin/sh
# cli_whatif_interrupt.sh BIN: Ctrl-C stops a whatif and leaves the machine.
# Headless: `gpustep whatif` on titanv matmul_naive n=256 (two full runs,
# seconds) gets SIGINT once its report has not come after a moment: it
# exits 1 saying it was interrupted and writes no --json file. In the TUI
# (tmux): at `break cycle 100`, the same whatif is stopped by Ctrl-C (a key
# in the screen's raw mode); the machine is still at cycle 100 with the same
# state hash (a saved session before and after), and a short whatif then
# runs to its report.
. "$(dirname "$0")/lib.sh"

# ---- headless --------------------------------------------------------------
"$BIN" whatif titanv -w matmul_naive -p n=256 -s l2.hit_latency=60 --json "$E2E_TMP/o.json" \
	>"$E2E_TMP/out" 2>"$E2E_TMP/err" &
pid=$!
sleep 2
grep -q '^verdict' "$E2E_TMP/out" && fail "the whatif ended within a second: nothing to interrupt"
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 1 ] || fail "headless whatif after SIGINT: exit $rc, want 1 ($(cat "$E2E_TMP/err"))"
grep -q 'interrupted (Ctrl-C)' "$E2E_TMP/err" || fail "no 'interrupted' message: $(cat "$E2E_TMP/err")"
[ -e "$E2E_TMP/o.json" ] && fail "an interrupted whatif wrote its --json file"

# ---- the TUI -----------------------------------------------------------------
type_line() { tmux_send -l "$1" && tmux_send Enter; }
state_hash() { grep '^stats-hash ' "$1"; }
tmux_start 120 40 "GPUSTEP_HISTORY= $BIN titanv -w matmul_naive -p n=256; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 10 || fail "no prompt"
type_line 'break cycle 100'
type_line 'continue'
tmux_wait_for ' cycle 100 | stopped at breakpoint 1: cycle 100' 10 || fail "no stop at cycle 100"
type_line "save session $E2E_TMP/before.gps"
tmux_wait_for "wrote $E2E_TMP/before.gps" 5 || fail "save session before"
type_line 'whatif l2.hit_latency=60'
sleep 1
tmux_send C-c
tmux_wait_for 'whatif: interrupted (Ctrl-C)' 20 || fail "Ctrl-C did not stop the whatif"
tmux_wait_for ' cycle 100 | stopped at breakpoint 1' 2 || fail "status bar after the interrupted whatif"
type_line "save session $E2E_TMP/after.gps"
tmux_wait_for "wrote $E2E_TMP/after.gps" 5 || fail "save session after"
[ "$(state_hash "$E2E_TMP/before.gps")" = "$(state_hash "$E2E_TMP/after.gps")" ] ||
	fail "state hash changed by the interrupted whatif"
type_line 'whatif l2.hit_latency=60 --cycles 50'
tmux_wait_for '  B: stopped at cycle 150' 60 || fail "a whatif after the interrupted one did not report"
type_line 'quit'
tmux_wait_exit 5 || fail "quit did not exit"
exit 0
