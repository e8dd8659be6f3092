#!/bin/sh
# A lesson walked in the TUI at 80x24: `gpustep lesson coalescing` opens on the
# lesson's machine with step 1 in the log; hint, answers and an action step.
. "$(dirname "$0")/lib.sh"

XDG_STATE_HOME="$E2E_TMP/state"
export XDG_STATE_HOME
tmux_start 80 24 "$BIN" lesson coalescing
tmux_wait_for 'step 1 of 8' 5 || fail "the lesson's first step is not shown"
tmux_send -l 'hint'
tmux_send Enter
tmux_wait_for '32 lanes x 4 bytes' 3 || fail "hint not shown"
tmux_send -l 'answer 1'
tmux_send Enter
tmux_wait_for 'step 2 of 8' 5 || fail "no step 2 after answer 1"
tmux_send -l 'answer 31'
tmux_send Enter
tmux_wait_for 'step 3 of 8' 5 || fail "no step 3 after a wrong answer"
tmux_send -l 'answer 9'
tmux_send Enter
tmux_wait_for 'step 4 of 8' 5 || fail "no step 4"
tmux_wait_for 'teaching | strided' 1 || fail "not on the lesson's machine"
tmux_send -l 'lesson report'
tmux_send Enter
tmux_wait_for 'coalescing: 1 of 8 steps passed, 2 failed' 3 || fail "lesson report summary"
[ -f "$XDG_STATE_HOME/gpustep/lessons/coalescing" ] || fail "no progress written by the TUI"
tmux_send -l 'quit'
tmux_send Enter
exit 0
