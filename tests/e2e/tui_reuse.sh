#!/bin/sh
# tui_reuse.sh BIN: the reuse panel end to end in tmux at 132x40: the `reuse`
# layout, `break reuse.class class=associativity` (an associativity miss) stops and the
# histogram marks the access's bin; the panel keys switch to all L2 banks.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }

tmux_start 132 40 "GPUSTEP_HISTORY= $BIN -w matmul_naive; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"
type_line 'layout reuse'
tmux_wait_for '─ reuse' 3 || fail "layout reuse shows no reuse panel"
tmux_wait_for 'cut-off: 4 ways' 2 || fail "no cut-off marker"

type_line 'break reuse.class class=associativity'
type_line 'continue'
tmux_wait_for 'stopped at breakpoint 1: reuse.class' 5 || fail "reuse.class breakpoint did not stop"
tmux_wait_for 'break' 2 || fail "no break marker"
out=$(tmux_capture)
expect_contains "$out" 'associativity'
echo "$out" | grep -E -q '^4 .*(◀|<) break' || fail "the access's bin (distance 4) is not marked"

# focus the panel and walk to all L2 banks (Right x3), fully associative view (PgDn)
type_line 'focus reuse'
tmux_send Right Right Right NPage
tmux_wait_for 'L2 all' 3 || fail "Right did not switch to all L2 banks"
tmux_wait_for '(FA LRU)' 2 || fail "PgDn did not switch to the fully associative view"

type_line 'quit'
tmux_wait_exit 5 || fail "did not quit"
grep -q 'EXIT=0' "$E2E_TMP/exit" || fail "exit status not 0"
echo "ok tui_reuse"
