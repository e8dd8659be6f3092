#!/bin/sh
# tui_frc.sh BIN: the FRC in the interactive screen: break on frc.swap_done,
# see the entry that swapped leave the fetching state in the frc panel; Right
# and Left switch the focused panel between its list and its grid.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }

tmux_start 132 50 "GPUSTEP_HISTORY= $BIN -w gather_random -s l2.frc.entries=16; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"
type_line 'layout frc'
tmux_wait_for '─ frc  bank 0  16 entries (2 sets x 8 ways)' 3 || fail "frc panel missing"
type_line 'break frc.fill'
type_line 'continue'
tmux_wait_for 'stopped at breakpoint 1: frc.fill' 5 || fail "no stop at frc.fill"
# The entry that just filled is swapping: its row says so.
tmux_wait_for 'swapping' 2 || fail "no swapping entry after frc.fill"
type_line 'delete'
type_line 'break frc.swap_done'
type_line 'continue'
tmux_wait_for 'stopped at breakpoint 2: frc.swap_done' 5 || fail "no stop at frc.swap_done"
# a = entry that swapped; its row (set.way) must no longer be swapping.
entry=$(tmux_capture | head -1 | sed -n 's/.*frc.swap_done .* entry=\([0-9]*\).*/\1/p')
[ -n "$entry" ] || fail "no entry number in the stop reason"
row="$((entry / 8)).$((entry % 8))"
line=$(tmux_capture | grep -E "^$row " | head -1)
[ -n "$line" ] || fail "entry $row not shown"
case "$line" in *swapping*) fail "entry $row still swapping after frc.swap_done: $line" ;; esac
# Right on the focused panel switches to the sets x ways grid (a row per
# set here, labelled with its number); Left goes back to the list.
type_line 'focus frc'
tmux_send Right
tmux_wait_for '  grid ─' 3 || fail "Right did not switch the frc panel to the grid"
tmux_wait_for 'SET  0 ' 2 || fail "no grid header"
cell=$(tmux_capture | grep -E "^ *$((entry / 8)) " | head -1)
[ -n "$cell" ] || fail "grid row of set $((entry / 8)) not shown"
tmux_send Left
tmux_wait_for '  list ─' 3 || fail "Left did not switch back to the list"
type_line 'quit'
tmux_wait_exit 5 || fail "did not quit"
grep -q 'EXIT=0' "$E2E_TMP/exit" || fail "exit status $(cat "$E2E_TMP/exit")"
exit 0
