#!/bin/sh
# tui_session.sh BIN: the interactive screen end to end, in tmux at 200x60:
# start with no arguments, step, break + continue with the reason shown,
# Enter repeats, Ctrl-C stops a long continue, resizes down to 40x12, quit 0.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }

tmux_start 200 60 "GPUSTEP_HISTORY= $BIN; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"
tmux_wait_for ' cycle 0 | paused' 2 || fail "status bar does not show cycle 0"
for p in '─ warps' '─ mshr' '─ l2' '─ dram' '─ events'; do
	tmux_capture | grep -F -q -- "$p" || fail "overview lacks panel '$p'"
done

type_line 'step 10'
tmux_wait_for ' cycle 10 |' 3 || fail "step 10 did not reach cycle 10"

type_line 'break dram.row_conflict'
type_line 'continue'
tmux_wait_for 'stopped at breakpoint 1: dram.row_conflict' 5 || fail "breakpoint stop not shown in the status bar"
tmux_wait_for 'Breakpoint 1, dram.row_conflict' 2 || fail "stop report missing"
first=$(tmux_capture | head -1)

# Enter on an empty line repeats `continue`: a second stop, later.
tmux_send Enter
i=0
while [ $i -lt 50 ]; do
	[ "$(tmux_capture | grep -c 'Breakpoint 1, dram.row_conflict')" -ge 2 ] && break
	sleep 0.1
	i=$((i + 1))
done
[ "$(tmux_capture | grep -c 'Breakpoint 1, dram.row_conflict')" -ge 2 ] || fail "Enter did not repeat continue"
[ "$(tmux_capture | head -1)" != "$first" ] || fail "status bar did not move after the repeat"

# Ctrl-C stops a long continue and keeps the program.
type_line 'delete'
type_line 'workload matmul_naive'
type_line 'set param.n 512'
type_line 'continue'
tmux_wait_for 'running' 3 || fail "continue did not start running"
tmux_send C-c
tmux_wait_for ' | interrupted' 3 || fail "Ctrl-C did not stop the run"
tmux_wait_for 'Interrupted at cycle' 2 || fail "no interrupt report"
type_line 'step 5'
tmux_wait_for '(gpustep) step 5' 2 || fail "prompt not usable after Ctrl-C"

# Resizing at any size keeps it alive.
for size in "80 24" "40 12" "20 5" "120 40" "80 24"; do
	tmux_resize $size
	sleep 0.3
	[ "$(tmux -L "$TMUX_SOCK" display-message -p -t "$TMUX_TARGET" '#{pane_dead}')" = 0 ] || fail "died at $size"
done
tmux_wait_for ' cycle ' 2 || fail "no status bar after resizing"
tmux_resize 40 12
tmux_wait_for 'fits, Tab: next' 3 || fail "40x12: a layout that does not fit should show one panel and say so"

type_line 'quit'
tmux_wait_exit 5 || fail "quit did not exit"
[ "$(cat "$E2E_TMP/exit" 2>/dev/null)" = "EXIT=0" ] || fail "exit status: $(cat "$E2E_TMP/exit" 2>/dev/null)"
exit 0
