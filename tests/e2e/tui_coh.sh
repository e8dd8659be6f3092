#!/bin/sh
# tui_coh.sh BIN: coherence inspection in the interactive screen under MOESI:
# break on a transition to M (coh.transition to=M, see `help events`) to learn
# a line, then break on a transition to M of that one address from cycle 0;
# the coherence panel shows the line's directory entry (owner, lock) and the
# copy in M, the protocol panel marks the IM_D -> M row, `info line` agrees.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }

tmux_start 132 40 "GPUSTEP_HISTORY= $BIN -s coherence.protocol=moesi; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"
type_line 'layout coherence'
tmux_wait_for '─ coherence  moesi' 3 || fail "coherence panel missing"
tmux_wait_for '─ protocol  moesi' 3 || fail "protocol panel missing"
type_line 'break coh.transition to=M'
type_line 'continue'
tmux_wait_for 'stopped at breakpoint 1: coh.transition' 5 || fail "no stop at a transition to M"
addr=$(tmux_capture | head -1 | sed -n 's/.*coh\.transition .*addr=\(0x[0-9a-f]*\).*/\1/p')
[ -n "$addr" ] || fail "no address in the stop reason"
type_line 'delete'
type_line "break coh.transition to=M addr=$addr"
type_line 'run'
tmux_wait_for "stopped at breakpoint 2: coh.transition" 5 || fail "no stop at the transition to M of $addr"
tmux_capture | head -1 | grep -q "addr=$addr" || fail "stopped on another address than $addr"
# coherence panel: the stop selected the line; its entry names the owner
tmux_wait_for "line $addr (selected)" 2 || fail "coherence panel does not show line $addr"
dir=$(tmux_capture | grep -E '^dir X  owner sm[0-9]+' | head -1)
[ -n "$dir" ] || fail "no directory entry (state X, an owner) for $addr"
owner=$(printf '%s' "$dir" | sed -n 's/^dir X  owner \(sm[0-9]*\).*/\1/p')
tmux_capture | grep -q "^copies: $owner M" || fail "the owner's copy is not shown in M"
# the stop's transition is in the log, and the protocol table marks its row
tmux_capture | grep -q "$addr .* IM_D -> M" || fail "the IM_D -> M transition of $addr is not in the log"
tmux_capture | grep -q '> IM_D  DataX    -> M' || fail "the protocol panel does not mark IM_D DataX -> M"
# info line prints the same entry
type_line "info line $addr"
tmux_wait_for "directory (moesi): state X  owner $owner" 3 || fail "info line: no directory entry with owner $owner"
tmux_wait_for "state M" 2 || fail "info line: the copy is not in M"
# history: the line's last transactions (here the newest 3) and how far back the record goes
type_line "history $addr 3"
tmux_wait_for "history of line $addr (moesi):" 3 || fail "history: no header for $addr"
tmux_wait_for "(the newest 3 shown), oldest first" 2 || fail "history: N not applied"
tmux_wait_for "$owner              L1    DataX    IM_D -> M" 2 || fail "history: no IM_D -> M row for $owner"
tmux_wait_for "record: the log keeps the last 512 transactions of all lines" 2 || fail "history: no record extent"
type_line "history 0xnope"
tmux_wait_for "history: expected a line address (e.g. 0x10000080), got '0xnope'" 2 || fail "history: no message for a bad address"
# Tab after `history` offers the lines in the log: all but the last digit of the
# stop's line (128-byte lines end in 00 or 80: unique) completes to it
tmux_send -l "hist"
tmux_send Tab
tmux_wait_for '(gpustep) history' 2 || fail "Tab did not complete 'hist'"
tmux_send -l "$(printf '%s' "$addr" | cut -c1-9)"
tmux_send Tab
tmux_wait_for "(gpustep) history $addr" 2 || fail "Tab did not complete $addr after history"
tmux_send C-u
# the filter keeps one SM's rows
type_line 'focus coherence'
tmux_send '/'
tmux_send -l 'sm=9'
tmux_send Enter
tmux_wait_for 'filter: sm=9' 2 || fail "the / filter is not shown"
type_line 'quit'
tmux_wait_exit 5 || fail "did not quit"
grep -q 'EXIT=0' "$E2E_TMP/exit" || fail "exit status $(cat "$E2E_TMP/exit")"
exit 0
