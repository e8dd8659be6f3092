#!/bin/sh
# tui_bypass.sh BIN: locality bypassing in the interactive screen: break on
# l1.tag_promote, the cache panel shows the promoted block's tag with a data
# way (P mark) beside the data store. SM leaders, so that the title names
# SM 0's dueling role.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }

tmux_start 132 40 "GPUSTEP_HISTORY= $BIN -w matmul_naive -s l1.bypass=locality -s l1.bypass_leaders=sms; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"
type_line 'layout cache'
tmux_wait_for 'decoupled leader' 3 || fail "tag-store view missing"
type_line 'break l1.tag_promote'
type_line 'continue'
tmux_wait_for 'stopped at breakpoint 1: l1.tag_promote' 5 || fail "no stop at l1.tag_promote"
# b = data way; the promoted tag shows "P<tag> <way> <rc>" in its set's row.
way=$(tmux_capture | head -1 | sed -n 's/.*l1.tag_promote .* way=\([0-9]*\).*/\1/p')
[ -n "$way" ] || fail "no data way in the stop reason"
tmux_capture | grep -Eq "P[0-9a-f]+ $way +[0-9]+" || fail "promoted tag with data way $way not shown"
type_line 'quit'
tmux_wait_exit 5 || fail "did not quit"
grep -q 'EXIT=0' "$E2E_TMP/exit" || fail "exit status $(cat "$E2E_TMP/exit")"
exit 0
