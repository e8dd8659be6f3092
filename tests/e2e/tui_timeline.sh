#!/bin/sh
# tui_timeline.sh BIN: the timeline layout on the FRC thesis's fig. 6.2 case:
# step, see NACK waits and fetch bars for the selected set; with the FRC on,
# FRC fetch bars and no NACK waits.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }

tmux_start 132 40 "GPUSTEP_HISTORY= $BIN -w l2_set_burst -p ctas=1 -p iters=3 -s l2.ways=1 -s mem.model=fixed; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"
type_line 'layout timeline'
tmux_wait_for '─ timeline  l2 bank 0' 3 || fail "timeline panel missing"
type_line 'timeline l2 0 0'
tmux_wait_for 'timeline: l2 bank 0 set 0' 3 || fail "timeline command did not answer"
type_line 'step 400'
tmux_wait_for 'cycle 400' 5 || fail "step did not finish"
tmux_wait_for 'cycles 0-400' 3 || fail "no time axis up to cycle 400"
screen=$(tmux_capture)
row=$(printf '%s\n' "$screen" | grep -E '^0x10002000 ' | head -1)
[ -n "$row" ] || fail "block 0x10002000 not charted"
expect_contains "$row" "nnnFFF"
expect_contains "$row" "*"
type_line 'run 0'
type_line 'set l2.frc.ways 4'
type_line 'set l2.frc.entries 4'
type_line 'step 400'
tmux_wait_for 'RRRR' 5 || fail "no FRC fetch bars with the FRC on"
row=$(tmux_capture | grep -E '^0x10002000 ' | head -1)
expect_contains "$row" "RRR"
expect_not_contains "$row" "nnn"
type_line 'quit'
tmux_wait_exit 5 || fail "did not quit"
grep -q 'EXIT=0' "$E2E_TMP/exit" || fail "exit status $(cat "$E2E_TMP/exit")"
exit 0
