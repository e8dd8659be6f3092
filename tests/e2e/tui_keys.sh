#!/bin/sh
# tui_keys.sh BIN: key bindings, layouts, the help overlay, completion, focus
# and search, history, at 80x24 (the smallest comfortable size).
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }

HIST=$E2E_TMP/history
tmux_start 80 24 "GPUSTEP_HISTORY=$HIST $BIN; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"

tmux_send F10
tmux_wait_for ' cycle 1 |' 2 || fail "F10 did not step"
tmux_send Enter
tmux_wait_for ' cycle 2 |' 2 || fail "Enter after F10 did not repeat step"

# Layouts by key and by command; each shows its panels.
tmux_send F3
tmux_wait_for '─ cache ' 2 || fail "F3: no cache panel"
tmux_wait_for '─ l2cache ' 1 || fail "F3: no l2cache panel"
tmux_send F4
tmux_wait_for '─ dram ' 2 || fail "F4: no dram panel"
tmux_send F8
tmux_wait_for '─ stats ' 2 || fail "F8: no stats panel"
type_line 'layout events'
tmux_wait_for '| events' 2 || fail "layout events not in the status bar"
type_line 'layout nope'
tmux_wait_for "unknown layout 'nope'" 2 || fail "bad layout name not reported"
tmux_send F2
tmux_wait_for '─ warps ' 2 || fail "F2: back to overview"

# Help overlay: ? on an empty prompt, any key closes it.
tmux_send '?'
tmux_wait_for 'keys and commands' 2 || fail "? did not open the help overlay"
tmux_send Space
tmux_wait_gone 'keys and commands' 3 || fail "overlay did not close"

# Tab completes on a non-empty line.
tmux_send -l 'brea'
tmux_send Tab
tmux_wait_for '(gpustep) break' 2 || fail "Tab did not complete 'brea'"
tmux_send -l 'dram.row_con'
tmux_send Tab
tmux_wait_for '(gpustep) break dram.row_conflict' 2 || fail "Tab did not complete the event name"
# then that event's own fields (not l1's set=, sm=, nor a missing open_row=)
tmux_send Tab Tab
tmux_wait_for 'addr=  bank=  ch=  if  open_row=  row=' 2 || fail "Tab after an event did not list its fields"
tmux_send -l 'op'
tmux_send Tab
tmux_wait_for '(gpustep) break dram.row_conflict open_row=' 2 || fail "Tab did not complete the event's field open_row="
tmux_send C-c
i=0
while [ $i -lt 30 ] && tmux_capture | tail -1 | grep -q 'break'; do sleep 0.1; i=$((i + 1)); done
tmux_capture | tail -1 | grep -q 'break' && fail "Ctrl-C did not clear the line"

# Subcommand words come first: info, save, load, then what each takes.
tmux_send -l 'info '
tmux_send Tab Tab
# (80 columns: readline wraps the list after line)
tmux_wait_for 'bank  break  channel  coalesce  config  display  duel  events  frc  l2  line' 2 ||
	fail "Tab after 'info ' did not list its subjects"
tmux_capture | grep -qx 'mshr  rf  sm  stalls  stats  threads  warp *' || fail "Tab after 'info ' did not list mshr, rf, sm, stalls, stats, threads and warp"
tmux_send -l 'mshr l'
tmux_send Tab Tab
tmux_wait_for 'l1  l2' 2 || fail "Tab after 'info mshr l' did not offer l1 l2"
tmux_send C-u
# lesson names (and lesson's words), protocols
tmux_send -l 'lesson reset dram'
tmux_send Tab
tmux_wait_for '(gpustep) lesson reset dram_rows' 2 || fail "Tab did not complete a lesson name after 'lesson reset'"
tmux_send C-u
tmux_send -l 'select ms'
tmux_send Tab
tmux_wait_for '(gpustep) select mshr' 2 || fail "Tab did not complete 'select ms' (select mshr)"
tmux_send -l 'l'
tmux_send Tab Tab
tmux_wait_for 'l1  l2' 2 || fail "Tab after 'select mshr l' did not offer l1 l2"
tmux_send C-u
tmux_send -l 'protocol nm'
tmux_send Tab
tmux_wait_for '(gpustep) protocol nmoesi' 2 || fail "Tab did not complete a protocol after 'protocol'"
tmux_send C-u
tmux_send -l 'info stat'
tmux_send Tab
tmux_wait_for '(gpustep) info stats' 2 || fail "Tab did not complete 'info stat' (st: stalls or stats)"
tmux_send -l 'l1.mshr_me'
tmux_send Tab
tmux_wait_for '(gpustep) info stats l1.mshr_merges' 2 || fail "Tab did not complete a stat after 'info stats'"
tmux_send C-u
tmux_send -l 'save '
tmux_send Tab Tab
tmux_wait_for 'config  session  stats' 2 || fail "Tab after 'save ' did not offer stats config session"
tmux_send -l 'se'
tmux_send Tab
tmux_wait_for '(gpustep) save session' 2 || fail "Tab did not complete 'save se'"
tmux_send C-u
tmux_send -l 'load gtx4'
tmux_send Tab
tmux_wait_for '(gpustep) load gtx480' 2 || fail "Tab did not complete a preset after 'load'"
tmux_send C-u
tmux_send -l 'load ./READ'
tmux_send Tab
tmux_wait_for '(gpustep) load ./README.md' 2 || fail "Tab did not fall back to file names after 'load'"
tmux_send C-u

# Focus the stats panel and search it.
type_line 'layout stats'
type_line 'focus stats'
tmux_send '/'
tmux_send -l 'row_hit'
tmux_send Enter
tmux_wait_for 'filter: row_hit' 2 || fail "stats search did not apply"
tmux_capture | grep -q 'dram.row_hits' || fail "search result missing"
tmux_capture | grep -q 'sim.cycles' && fail "search did not filter"

# F5 runs to the end of the default workload.
tmux_send F5
tmux_wait_for ' | finished' 10 || fail "F5 did not run to the end"

type_line 'quit'
tmux_wait_exit 5 || fail "quit did not exit"
[ "$(cat "$E2E_TMP/exit" 2>/dev/null)" = "EXIT=0" ] || fail "exit status: $(cat "$E2E_TMP/exit" 2>/dev/null)"
grep -q '^layout events$' "$HIST" || fail "history not saved to GPUSTEP_HISTORY"
exit 0
