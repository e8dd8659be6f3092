#!/bin/sh
# A lesson walked in the TUI at 80x24: `gpustep lesson coalescing` opens on the
# lesson's machine with the lesson pane above the panels (step text, what to
# do, the hint after `hint`, the verdict after `answer`); answers, a report,
# hiding the pane and an action step's "Not yet" in the pane; a long output's
# pager opens below the pane, which stays on screen.
. "$(dirname "$0")/lib.sh"

XDG_STATE_HOME="$E2E_TMP/state"
export XDG_STATE_HOME
tmux_start 80 24 "$BIN" lesson coalescing
tmux_wait_for 'step 1 of 8' 5 || fail "the lesson's first step is not shown"
# The pane: row 1 its title, then the step's text ending with its question
# (its first row cut, the title says so and names PgUp), the > line kept.
tmux_wait_for 'lesson  coalescing: step 1 of 8' 3 || fail "no lesson pane title"
row2=$(tmux_capture | sed -n 2p)
case "$row2" in *'lesson  coalescing: step 1 of 8  '*'1 line above (PgUp)'*) ;; *) fail "pane title not on row 2: $row2" ;; esac
row3=$(tmux_capture | sed -n 3p)
case "$row3" in 'L1 lines and the Fermi coalescer'*) ;; *) fail "pane text not on row 3: $row3" ;; esac
expect_contains "$(tmux_capture)" 'How many requests will warp 0'
expect_contains "$(tmux_capture)" '> answer N with your prediction'
# PgUp on the empty prompt shows the text's first row; PgDn the question again.
tmux_send PPage
tmux_wait_for '1 below (PgDn)' 3 || fail "PgUp did not scroll the lesson pane"
row3=$(tmux_capture | sed -n 3p)
case "$row3" in 'The kernel is B[i] = A[i*stride]'*) ;; *) fail "PgUp: pane text not on row 3: $row3" ;; esac
tmux_send NPage
tmux_wait_for '1 line above (PgUp)' 3 || fail "PgDn did not scroll the lesson pane back"
tmux_send -l 'hint'
tmux_send Enter
tmux_wait_for 'Hint: 32 lanes x 4 bytes' 3 || fail "hint not shown in the pane"
tmux_send -l 'answer 1'
tmux_send Enter
tmux_wait_for 'step 2 of 8' 5 || fail "no step 2 after answer 1"
tmux_wait_for 'Step 1: right, event.reqs is 1.' 3 || fail "the pane does not show the verdict"
tmux_send -l 'answer 31'
tmux_send Enter
tmux_wait_for 'step 3 of 8' 5 || fail "no step 3 after a wrong answer"
tmux_wait_for 'Step 2: you predicted 31' 3 || fail "the pane does not show the wrong prediction"
tmux_send -l 'answer 9'
tmux_send Enter
tmux_wait_for 'step 4 of 8' 5 || fail "no step 4"
# The answer's run stopped at its `until`: the status bar says so (it kept
# the stop before the answer), and the output names the commands the lesson
# ran, then the stop, not each command's messages.
tmux_wait_for 'stopped at temporary breakpoint 3: coalesce' 1 || fail "the status bar does not show the answer's stop"
tmux_wait_for 'lesson ran: run 0; set param.stride 8; until coalesce sm=0 warp=0' 1 || fail "no compact transcript of the answer's run"
expect_not_contains "$(tmux_capture)" 'param.stride = 8'
# That output is 5 rows: the pager opens below the pane, whose title stays
# on row 2 and whose > line stays above the pager's frame.
tmux_wait_for 'output of: answer 9' 1 || fail "no pager for a 5-row output"
row2=$(tmux_capture | sed -n 2p)
case "$row2" in *'lesson  coalescing: step 4 of 8'*) ;; *) fail "the pager covers the lesson pane: $row2" ;; esac
pane_end=$(tmux_capture | grep -n '^> answer N with your prediction' | cut -d: -f1)
pager_top=$(tmux_capture | grep -n 'output of: answer 9' | cut -d: -f1)
[ -n "$pane_end" ] && [ "$pager_top" = $((pane_end + 1)) ] || fail "pager not right below the pane (> line $pane_end, pager $pager_top)"
tmux_send Escape
tmux_wait_gone 'output of: answer 9' 3 || fail "Esc did not close the pager"
tmux_send -l 'lesson report'
tmux_send Enter
tmux_wait_for 'coalescing: 1 of 8 steps passed, 2 failed' 3 || fail "lesson report summary"
tmux_send Escape
[ -f "$XDG_STATE_HOME/gpustep/lessons/coalescing" ] || fail "no progress written by the TUI"
# Hidden, the panels take the rows back; shown again.
tmux_send -l 'lesson hide'
tmux_send Enter
tmux_wait_gone 'lesson  coalescing: step 4 of 8' 3 || fail "lesson hide left the pane"
tmux_send -l 'lesson show'
tmux_send Enter
tmux_wait_for 'lesson  coalescing: step 4 of 8' 3 || fail "lesson show did not bring the pane back"
tmux_send -l 'quit'
tmux_send Enter
exit 0
