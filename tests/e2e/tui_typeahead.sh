#!/bin/sh
# tui_typeahead.sh BIN: what is typed while a run goes on is kept, shown on
# the prompt line ("next: ..."), and run when the run stops, as gdb keeps
# typeahead; Backspace edits it; an interrupt (Esc) drops it.
. "$(dirname "$0")/lib.sh"

# The cycle the run ends at, from a headless run (the TUI must agree).
printf 'continue\nprint sim.cycles\n' | "$BIN" -w vecadd -p n=4194304 -x - >"$E2E_TMP/headless" 2>&1 || fail "headless run"
end=$(sed -n 's/^sim.cycles = \([0-9]*\)$/\1/p' "$E2E_TMP/headless")
[ -n "$end" ] || fail "no sim.cycles from the headless run: $(cat "$E2E_TMP/headless")"
tmux_start 80 24 "GPUSTEP_HISTORY= $BIN -w vecadd -p n=4194304; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"

# Typed during a run to the end: shown, then run after the finish.
tmux_send -l 'c' && tmux_send Enter
tmux_wait_for 'running... Ctrl-C or Esc stops' 3 || fail "the run did not start"
tmux_send -l 'print sim.cyclesX'
tmux_send BSpace
tmux_wait_for 'next: print sim.cycles' 3 || fail "typeahead not shown on the prompt line"
tmux_send Enter
tmux_wait_for "sim.cycles = $end" 30 || fail "typeahead not run when the run finished"
tmux_capture | grep -q 'sim.cyclesX' && fail "Backspace typed during the run was lost"

tmux_send -l 'quit' && tmux_send Enter
tmux_wait_exit 5 || fail "quit did not exit"
tmux_kill

# Typed during a run that is interrupted: dropped. (A run of about 85 M
# cycles, so the Esc surely comes before its end; its 768 MB need a 1 GB DRAM,
# or lines would share DRAM locations.)
tmux_start 80 24 "GPUSTEP_HISTORY= $BIN -w vecadd -p n=67108864 -s dram.rows=32768; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt (second start)"
tmux_send -l 'c' && tmux_send Enter
tmux_wait_for 'running... Ctrl-C or Esc stops' 3 || fail "run did not start again"
tmux_send -l 'print sim.warp_insts' && tmux_send Enter
tmux_wait_for 'next: print sim.warp_insts;' 3 || fail "typeahead with Enter not shown"
tmux_send Escape
tmux_wait_for 'interrupted' 5 || fail "Esc did not interrupt"
# Commands run in order: the typeahead, had it been kept, would print before the mark.
tmux_mark 1 || fail "the prompt did not take a command after the interrupt"
tmux_capture | grep -q 'sim.warp_insts =' && fail "typeahead ran after an interrupt"

tmux_send -l 'quit' && tmux_send Enter
tmux_wait_exit 5 || fail "quit did not exit"
grep -q 'EXIT=0' "$E2E_TMP/exit" || fail "exit status $(cat "$E2E_TMP/exit")"
echo "ok tui_typeahead"
