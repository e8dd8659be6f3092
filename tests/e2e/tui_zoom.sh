#!/bin/sh
# tui_zoom.sh BIN: tmux-style zoom at 80x24. In layout frc at a frc.swap_done
# stop the frc panel shows 2 of 16 entries; Alt-z zooms it to the whole panel
# area (more entry rows, [Z layout frc] in its title), resizing to 200x60
# keeps the zoom (all 16 rows), Esc unzooms to the layout. Then F12, `zoom`
# with Tab completion and a bad panel, Tab unzooming, Alt-z during a run.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }
# Entry rows of the frc list ("0.3   fetching ...") on screen.
entry_rows() { tmux_capture | grep -cE '^[0-9]+\.[0-9]+ +(free|fetching|swapping|evicting)( |$)'; }

tmux_start 80 24 "GPUSTEP_HISTORY= $BIN rx540 -w l2_set_burst -s l2.frc.entries=16; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"
type_line 'layout frc'
tmux_wait_for '─ frc  bank 0  16 entries' 3 || fail "frc panel missing"
type_line 'break frc.swap_done'
type_line 'c'
tmux_wait_for 'stopped at breakpoint 1: frc.swap_done' 5 || fail "no stop at frc.swap_done"
before=$(entry_rows)
[ "$before" -ge 1 ] || fail "no frc entry rows before zooming"

# Alt-z: the frc panel (the layout's first; the prompt has the focus) fills the area.
tmux_send M-z
tmux_wait_for '─ frc  [Z layout frc]' 3 || fail "Alt-z did not zoom the frc panel"
tmux_capture | grep -q '─ events ' && fail "events panel still shown while zoomed"
tmux_capture | grep -q '─ l2cache ' && fail "l2cache panel still shown while zoomed"
after=$(entry_rows)
[ "$after" -gt "$before" ] || fail "zooming showed $after entry rows, not more than $before"
[ "$after" -ge 12 ] || fail "zoomed at 80x24: only $after entry rows"

# Resize while zoomed: still zoomed, every entry fits at 200x60.
tmux_resize 200 60
tmux_wait_for 'fallbacks 25  evictions 0' 3 || fail "no one-line counters at 200x60"
tmux_wait_for '─ frc  [Z layout frc]' 2 || fail "zoom lost on resize"
tmux_wait_for '| frc Z' 2 || fail "status bar does not show the zoom at 200 columns"
n=$(entry_rows)
[ "$n" = 16 ] || fail "zoomed at 200x60: $n entry rows, want all 16"
tmux_capture | grep -q '─ events ' && fail "events panel shown while zoomed at 200x60"
tmux_resize 80 24
i=0
while [ $i -lt 30 ] && [ "$(entry_rows)" != "$after" ]; do sleep 0.1; i=$((i + 1)); done
[ "$(entry_rows)" = "$after" ] || fail "back at 80x24: $(entry_rows) entry rows, want $after"

# Esc unzooms: the layout's four panels again, the frc panel as before.
tmux_send Escape
tmux_wait_for '─ events ' 3 || fail "Esc did not unzoom"
tmux_wait_for '─ l2cache ' 1 || fail "no l2cache panel after unzoom"
tmux_capture | grep -q '\[Z layout' && fail "zoom mark still shown after unzoom"
[ "$(entry_rows)" = "$before" ] || fail "after unzoom: $(entry_rows) entry rows, want $before"

# F12 toggles as Alt-z does.
tmux_send F12
tmux_wait_for '[Z layout frc]' 2 || fail "F12 did not zoom"
tmux_send F12
tmux_wait_for '─ events ' 2 || fail "F12 did not unzoom"

# `zoom` completes the layout's panels.
tmux_send -l 'zoom l2c'
tmux_send Tab
tmux_wait_for '(gpustep) zoom l2cache' 2 || fail "Tab did not complete 'zoom l2c'"
tmux_send Enter
tmux_wait_for '─ l2cache  [Z layout frc]' 2 || fail "zoom l2cache did not zoom it"
type_line 'zoom warps'
tmux_wait_for "panel 'warps' is not in layout frc (its panels: frc, l2, l2cache," 2 ||
	fail "zoom of a panel outside the layout not reported"
tmux_capture | grep -q '─ l2cache  \[Z layout frc\]' || fail "a bad zoom changed the zoom"
# Tab on the empty prompt moves the focus on and unzooms (tmux's pane switch).
tmux_send Tab
tmux_wait_for '─ events ' 2 || fail "Tab did not unzoom"
# `layout` unzooms too.
type_line 'zoom'
tmux_wait_for '─ events  [Z layout frc]' 2 || fail "zoom did not take the focused events panel"
type_line 'layout frc'
tmux_wait_for '─ l2cache ' 2 || fail "layout did not unzoom"

# Alt-z works during a run, like the layout keys; Esc then stops the run and
# keeps the zoom.
type_line 'delete'
type_line 'workload matmul_naive'
type_line 'set param.n 512'
type_line 'continue'
tmux_wait_for 'running' 3 || fail "continue did not start running"
tmux_send M-z
tmux_wait_for '[Z layout frc]' 3 || fail "Alt-z did not zoom during the run"
tmux_capture | grep -q 'running' || fail "the run ended too soon to test keys while running"
tmux_send Escape
tmux_wait_for ' | interrupted' 3 || fail "Esc did not stop the run"
tmux_capture | grep -q '\[Z layout frc\]' || fail "stopping the run unzoomed"
tmux_send Escape
tmux_wait_for '─ l2cache ' 2 || fail "Esc after the run did not unzoom"

type_line 'quit'
tmux_wait_exit 5 || fail "did not quit"
grep -q 'EXIT=0' "$E2E_TMP/exit" || fail "exit status $(cat "$E2E_TMP/exit")"
exit 0
