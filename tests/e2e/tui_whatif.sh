#!/bin/sh
# tui_whatif.sh BIN: whatif in the TUI: Tab completes config keys after
# `whatif` (at any position), `help whatif` has an example, and the report
# opens in the pager; the status bar still shows the stop's cycle after it.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }

tmux_start 100 30 "$BIN teaching -w vecadd; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"

type_line 'step 50'
tmux_wait_for ' cycle 50 |' 3 || fail "step 50 did not reach cycle 50"

tmux_send -l 'whatif l2.hit_lat'
tmux_send Tab
tmux_wait_for '(gpustep) whatif l2.hit_latency=' 2 || fail "Tab did not complete the key after whatif"
tmux_send -l '60 l1.mshr.entr'
tmux_send Tab
tmux_wait_for '(gpustep) whatif l2.hit_latency=60 l1.mshr.entries=' 2 || fail "Tab did not complete a second key"
tmux_send C-u

type_line 'help whatif'
tmux_wait_for 'Example: whatif' 3 || fail "help whatif has no example"
tmux_send q
sleep 0.3

type_line 'whatif l2.hit_latency=60 --to-end'
tmux_wait_for 'output of: whatif' 10 || fail "the whatif report did not open in the pager"
tmux_wait_for 'where they part' 2 || fail "the pager does not show where they part"
tmux_send q
tmux_wait_gone 'output of: whatif' 3 || fail "the pager did not close"
tmux_wait_for ' cycle 50 |' 2 || fail "the status bar no longer shows cycle 50"
type_line 'quit'
tmux_wait_exit 5 || fail "quit did not exit"
exit 0
