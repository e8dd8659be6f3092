#!/bin/sh
# tui_rc_interrupt.sh BIN: reverse-continue in the TUI searches in slices
# (tmux, 120x40). On titanv matmul_naive n=256, `rc` from the end of the
# kernel (cycle 82767 with l2.fill_reply=pipeline) back to `break cycle 100` replays for seconds: the
# status bar says "searching back: cycle N" meanwhile, Esc cancels it and
# leaves everything where it was (cycle, hit counts, the saved session's
# state hash); a second `rc` run to completion stops at cycle 100 with the
# same report as the first stop. No fixed sleeps: every wait polls for a
# screen state (a search that ended before the Esc arrived would show its
# stop report, not 'Interrupted'). The long waits are for the sanitizer build
# (invariants every cycle: about 2 k cycles/s on titanv); the -O2 binary
# takes a few seconds.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }
status_cycle() { tmux_capture | head -1 | sed -n 's/^ cycle \([0-9]*\) .*/\1/p'; }
hits_1() { tmux_capture | grep -E '^1 +breakpoint' | tail -1 | awk '{print $4}'; } # after a tmux_wait_after_mark
state_hash() { grep '^stats-hash ' "$1"; }

tmux_start 120 40 "GPUSTEP_HISTORY= $BIN titanv -w matmul_naive -p n=256; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 10 || fail "no prompt"
type_line 'break cycle 100'
type_line 'continue'
tmux_wait_for ' cycle 100 | stopped at breakpoint 1: cycle 100' 10 || fail "no stop at cycle 100"
type_line 'goto 300000'
tmux_wait_for 'Kernel matmul_naive finished at cycle' 300 || fail "goto did not reach the end"
END=$(tmux_capture | sed -n 's/.*Kernel matmul_naive finished at cycle \([0-9]*\).*/\1/p' | tail -1)
[ -n "$END" ] || fail "no end cycle in 'Kernel matmul_naive finished at cycle N'"
type_line "save session $E2E_TMP/before.gps"
tmux_wait_for "wrote $E2E_TMP/before.gps" 5 || fail "save session before"
state_hash "$E2E_TMP/before.gps" >/dev/null || fail "no stats-hash in the session file"

type_line 'rc'
tmux_wait_for 'searching back: cycle' 5 || fail "no 'searching back' status while rc runs"
tmux_wait_for 'running... Ctrl-C or Esc stops' 1 || fail "no running prompt during rc"
[ "$(status_cycle)" = "$END" ] || fail "the status bar cycle moved during the search: '$(status_cycle)'"
tmux_send Escape
tmux_wait_for "Interrupted at cycle $END" 3 || fail "Esc did not stop rc at cycle $END"
tmux_wait_for " cycle $END | finished" 2 || fail "status bar after the interrupt (the end of the kernel, as before rc)"
tmux_mark 1 || fail "mark 1"
type_line 'info break'
tmux_wait_after_mark 1 '^1 +breakpoint' 5 || fail "info break after the interrupted rc"
[ "$(hits_1)" = 1 ] || fail "hit count after the interrupted rc: '$(hits_1)', want 1"
type_line "save session $E2E_TMP/after.gps"
tmux_wait_for "wrote $E2E_TMP/after.gps" 5 || fail "save session after"
[ "$(state_hash "$E2E_TMP/before.gps")" = "$(state_hash "$E2E_TMP/after.gps")" ] ||
	fail "state hash changed by the interrupted rc: $(state_hash "$E2E_TMP/before.gps") -> $(state_hash "$E2E_TMP/after.gps")"
cmp -s "$E2E_TMP/before.gps" "$E2E_TMP/after.gps" || fail "the saved session differs after the interrupted rc: $(diff "$E2E_TMP/before.gps" "$E2E_TMP/after.gps")"

# Forwards still works from there, and a full rc finds the stop.
type_line 'rc'
tmux_wait_for ' cycle 100 | stopped at breakpoint 1: cycle 100' 300 || fail "rc did not go back to the stop at cycle 100"
tmux_wait_for 'Breakpoint 1, cycle 100 at cycle 100' 1 || fail "no stop report after rc"
tmux_mark 2 || fail "mark 2"
type_line 'info break'
tmux_wait_after_mark 2 '^1 +breakpoint' 5 || fail "info break after rc"
[ "$(hits_1)" = 1 ] || fail "hit count after rc: '$(hits_1)', want 1"
type_line 'quit'
tmux_wait_exit 5 || fail "quit did not exit"
exit 0
