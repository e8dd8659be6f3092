#!/bin/sh
# tui_rewind.sh BIN: rewinding in the real TUI (tmux, 120x40): break on an
# event, `rs 5` shows cycle - 5, `c` returns to the same breakpoint hit (same
# cycle, same hit count); F6 steps back, F9 returns to the previous stop;
# the status bar shows the rewind horizon; a saved session reopens with
# --session at the same cycle and layout.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }
status_cycle() { tmux_capture | head -1 | sed -n 's/^ cycle \([0-9]*\) .*/\1/p'; }
# The Hits column of breakpoint 1 in the last `info break` output.
hits_1() { tmux_capture | grep -E '^1 +breakpoint' | tail -1 | awk '{print $4}'; }

tmux_start 120 40 "GPUSTEP_HISTORY= $BIN; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"
tmux_wait_for 'rewind ≥ 0' 2 || tmux_wait_for 'rewind >= 0' 1 || fail "status bar does not show the rewind horizon"

type_line 'break dram.row_conflict'
type_line 'continue'
tmux_wait_for 'stopped at breakpoint 1: dram.row_conflict' 5 || fail "no breakpoint stop"
c1=$(status_cycle)
[ -n "$c1" ] && [ "$c1" -gt 5 ] || fail "no cycle in the status bar: '$c1'"
type_line 'info break'
tmux_wait_for '1    breakpoint' 2 || fail "info break"
h1=$(hits_1)
[ "$h1" = 1 ] || fail "hits after the first stop: '$h1'"

type_line 'rs 5'
tmux_wait_for " cycle $((c1 - 5)) | paused" 3 || fail "rs 5 did not show cycle $((c1 - 5))"
tmux_mark 1 || fail "mark 1"
type_line 'info break'
tmux_wait_after_mark 1 '^1 +breakpoint' 5 || fail "info break after rs 5"
[ "$(hits_1)" = 0 ] || fail "hits after rs 5: '$(hits_1)' (want 0: the hit has not happened yet)"

type_line 'c'
tmux_wait_for " cycle $c1 | stopped at breakpoint 1: dram.row_conflict" 5 || fail "c did not return to cycle $c1"
tmux_mark 2 || fail "mark 2"
type_line 'info break'
tmux_wait_after_mark 2 '^1 +breakpoint' 5 || fail "info break after returning"
[ "$(hits_1)" = "$h1" ] || fail "hit count after returning: '$(hits_1)', first time '$h1'"

# Keys: F6 back one cycle (Enter repeats), F9 back to the previous stop.
tmux_send F6
tmux_wait_for " cycle $((c1 - 1)) |" 3 || fail "F6 did not step back"
tmux_send Enter
tmux_wait_for " cycle $((c1 - 2)) |" 3 || fail "Enter did not repeat reverse-step"
type_line 'c'
tmux_wait_for " cycle $c1 | stopped at breakpoint 1" 5 || fail "c after F6"
type_line 'c'
i=0
while [ $i -lt 50 ] && [ "$(status_cycle)" = "$c1" ]; do sleep 0.1; i=$((i + 1)); done
c2=$(status_cycle)
[ "$c2" -gt "$c1" ] || fail "second stop not later: $c2"
tmux_send F9
tmux_wait_for " cycle $c1 | stopped at breakpoint 1: dram.row_conflict" 5 || fail "F9 did not go back to the stop at $c1"
tmux_wait_for "Breakpoint 1, dram.row_conflict" 1 || fail "no stop report after F9"

# goto, then save the session and reopen it.
type_line 'goto 2000'
tmux_wait_for ' cycle 2000 |' 5 || fail "goto 2000"
type_line 'layout dram'
tmux_wait_for '| dram' 2 || fail "layout dram"
type_line "save session $E2E_TMP/s.gps"
tmux_wait_for "wrote $E2E_TMP/s.gps" 3 || fail "save session"
type_line 'quit'
tmux_wait_exit 5 || fail "quit did not exit"
tmux_kill

tmux_start 120 40 "GPUSTEP_HISTORY= $BIN --session $E2E_TMP/s.gps; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for ' cycle 2000 |' 5 || fail "--session did not reopen at cycle 2000"
tmux_wait_for '| dram' 2 || fail "--session did not restore the layout"
type_line 'info break'
tmux_wait_for 'dram.row_conflict' 2 || fail "breakpoint not restored"
type_line 'quit'
tmux_wait_exit 5 || fail "quit did not exit"
exit 0
