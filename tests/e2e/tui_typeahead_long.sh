#!/bin/sh
# tui_typeahead_long.sh BIN: a command of more than 256 characters typed (or
# pasted) during a run is kept whole with its Enter and runs when the run
# stops (issue 22: it was cut at 256 characters and lost its Enter); Ctrl-D
# typed meanwhile is not shown as "?" and does not quit.
. "$(dirname "$0")/lib.sh"

tmux_start 80 24 "GPUSTEP_HISTORY= $BIN -w vecadd -p n=4194304; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"

long='log l1.access l1.hit l1.miss l1.fill l1.evict l2.access l2.hit l2.miss l2.fill l2.writeback dram.enqueue dram.rd dram.wr dram.row_hit dram.row_miss dram.row_conflict dram.done mem.reply warp.issue warp.stall warp.done coalesce l1.mshr_merge l1.retry l2.transient frc.alloc frc.fill l1.mshr_full l2.nack'
[ ${#long} -gt 300 ] || fail "the command is only ${#long} characters"

tmux_send -l 'c' && tmux_send Enter
tmux_wait_for 'running... Ctrl-C or Esc stops' 5 || fail "the run did not start"
tmux_send C-d
tmux_send -l "$long"
tmux_send Enter
# The prompt line shows the end of what was typed, Enter as ';', no '?'.
tmux_wait_for 'l1.mshr_full l2.nack;' 5 || fail "the end of the typeahead is not shown"
tmux_capture | tail -1 | grep -q '?' && fail "a control key is shown as '?'"
tmux_wait_for '| finished |' 60 || fail "the run did not finish"
tmux_wait_for 'log: warp.issue warp.stall warp.done coalesce' 10 || fail "the long command did not run whole"
out=$(tmux_capture)
expect_contains "$out" "dram.row_conflict dram.done mem.reply"
tmux_capture | tail -1 | grep -q 'l2.nack' && fail "the command is left on the prompt line"

tmux_send -l 'quit' && tmux_send Enter
tmux_wait_exit 5 || fail "quit did not exit"
grep -q 'EXIT=0' "$E2E_TMP/exit" || fail "exit status $(cat "$E2E_TMP/exit")"
echo "ok tui_typeahead_long"
