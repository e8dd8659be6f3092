#!/bin/sh
# tui_lab.sh BIN: the screen at the sizes a lab uses (issue 22): at 80x24
# `help` opens in the pager from its first line, PgDn moves a page, typing
# closes it and goes on at the prompt; the default log leaves out the reuse.*
# triple; at 60x15 one panel fills the area; at 100x34 and 200x60 the dram
# layout shows the selected bank's queue with the next pick.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }

tmux_start 80 24 "GPUSTEP_HISTORY= $BIN; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"

type_line 'log'
tmux_wait_for 'log: all -reuse.access -reuse.inf -reuse.class (' 3 ||
	fail "the default log does not leave out the reuse.* events"

type_line 'help'
tmux_wait_for 'output of: help' 3 || fail "help did not open the pager"
tmux_capture | grep -q 'step  *advance N cycles' || fail "the pager does not start at help's first line"
tmux_send NPage
tmux_wait_for 'undisplay' 3 || fail "PgDn did not move a page"
tmux_capture | grep -q 'advance N cycles' && fail "PgDn moved less than a page"
type_line 'print sim.cycles'
tmux_wait_for 'sim.cycles = 0' 3 || fail "typing after the pager did not reach the prompt"
tmux_capture | grep -q 'output of: help' && fail "the pager stayed open"

tmux_resize 60 15
tmux_wait_for 'warps  [1 of 5 fits, Tab: next]' 3 || fail "60x15: no single panel"
tmux_capture | grep -q 'needs' && fail "60x15: 'needs' lines"

tmux_resize 100 34
type_line 'layout dram'
type_line 'goto 124'
tmux_wait_for 'next: PRE now for #0' 5 || fail "100x34: the dramq panel does not show the next pick"
tmux_resize 200 60
sleep 0.3
tmux_wait_for 'oldest; nothing waiting hits open row 0: precharge it (row conflict)' 3 ||
	fail "200x60: the reason is not shown whole"

type_line 'quit'
tmux_wait_exit 5 || fail "quit did not exit"
grep -q 'EXIT=0' "$E2E_TMP/exit" || fail "exit status $(cat "$E2E_TMP/exit")"
echo "ok tui_lab"
