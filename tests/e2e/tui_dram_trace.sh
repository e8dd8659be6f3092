#!/bin/sh
# tui_dram_trace.sh BIN: the TUI opens a DRAM-level trace (gpustep
# --dram-trace FILE on a terminal): the DRAM panel shows banks, open rows and
# queue depths as it steps; panels of cores and caches say they have nothing
# to show; a breakpoint on dram.row_conflict stops and selects its bank;
# `rs 1` and `c` rewind and return to the same stop; the trace runs to its
# end; a session cannot be saved but `workload` switches to a kernel; the
# hbm2 preset shows its 24 channels; quitting exits 0 (under ASan: no leak);
# a trace without requests is refused with exit status 2.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }
status_cycle() { tmux_capture | head -1 | sed -n 's/^ cycle \([0-9]*\) .*/\1/p'; }

# 300 requests, one every 2 cycles: two in three walk the rows of bank 0..,
# one in three jumps far away (row conflicts); every fourth is a write.
awk 'BEGIN { print "# tui_dram_trace.sh"; x = 12345
	for (i = 0; i < 300; i++) {
		x = (x * 1103515245 + 12345) % 2147483648
		a = (i % 3) ? i * 64 : (x % 131072) * 64
		printf "0x%x %s %d\n", a, (i % 4 == 3) ? "WRITE" : "READ", i * 2 } }' >"$E2E_TMP/t.trc"

tmux_start 120 40 "GPUSTEP_HISTORY= $BIN --dram-trace $E2E_TMP/t.trc; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt"
tmux_wait_for '| t.trc | dram' 2 || fail "status bar does not show the trace and the dram layout"
tmux_wait_for 'BANK  STATE' 2 || fail "no DRAM panel"

type_line 'step 40'
tmux_wait_for ' cycle 40 |' 3 || fail "step 40"
tmux_wait_for 'ch0  read q ' 2 || fail "no channel queue line"
scr=$(tmux_capture)
echo "$scr" | grep -Eq '^0\.0 +active +0 +[1-9][0-9]* +(ACT|RD|WR)' || fail "bank 0.0 does not show row 0 open with a queue"
echo "$scr" | grep -Eq 'read q [1-9][0-9]*/32' || fail "read queue depth not shown"
echo "$scr" | grep -q 'dram.rd ' || fail "no dram.rd in the event log"

type_line 'layout overview'
tmux_wait_for 'warps: nothing to show: a DRAM-trace session has no cores' 2 || fail "warps panel does not say it is empty"
tmux_wait_for 'mshr: nothing to show' 1 || fail "mshr panel does not say it is empty"
type_line 'layout dram'
tmux_wait_for '| dram' 2 || fail "layout dram"

type_line 'break dram.row_conflict'
type_line 'continue'
tmux_wait_for 'stopped at breakpoint 1: dram.row_conflict' 5 || fail "no row-conflict stop"
c1=$(status_cycle)
[ -n "$c1" ] && [ "$c1" -gt 40 ] || fail "stop cycle '$c1'"
bank=$(tmux_capture | head -1 | sed -n 's/.*dram.row_conflict ch=0 bank=\([0-9]*\) .*/\1/p')
[ -n "$bank" ] || fail "no bank in the stop message"
tmux_wait_for "selected ch0 bank$bank " 2 || fail "the stop did not select bank $bank"
type_line 'info bank'
tmux_wait_for "channel 0 bank $bank: " 2 || fail "info bank"
tmux_capture | grep -Eq "channel 0 bank $bank: .*, last PRE at $((c1 - 1)), .* conflicts [1-9]" ||
	fail "info bank does not show the conflict's precharge"

type_line 'rs 1'
tmux_wait_for " cycle $((c1 - 1)) | paused" 3 || fail "rs 1 did not show cycle $((c1 - 1))"
type_line 'c'
tmux_wait_for " cycle $c1 | stopped at breakpoint 1: dram.row_conflict ch=0 bank=$bank " 5 ||
	fail "c did not return to the stop at cycle $c1"

type_line 'delete'
type_line 'continue'
tmux_wait_for 'DRAM trace t.trc finished at cycle' 10 || fail "the trace did not finish"
type_line 'print dram_trace.completed'
tmux_wait_for 'dram_trace.completed = 300' 2 || fail "not every request completed"

type_line "save session $E2E_TMP/s.gps"
tmux_wait_for 'a DRAM-trace session cannot be saved' 2 || fail "save session was not refused"
type_line 'workload vecadd'
tmux_wait_for 'workload vecadd:' 3 || fail "workload vecadd"
type_line 'layout overview'
tmux_wait_for 'IPC ' 2 || fail "no IPC for the kernel"
tmux_capture | grep -q 'nothing to show' && fail "kernel panels still empty after workload vecadd"
type_line 'quit'
tmux_wait_exit 5 || fail "quit did not exit"
grep -q 'EXIT=0' "$E2E_TMP/exit" || fail "exit status after workload vecadd: $(cat "$E2E_TMP/exit")"
tmux_kill

# Quit while still on the trace (the session frees it), then a trace with no
# request is refused before the TUI starts.
tmux_start 120 40 "GPUSTEP_HISTORY= $BIN --dram-trace $E2E_TMP/t.trc dram/hbm2; echo EXIT=\$? >$E2E_TMP/exit"
tmux_wait_for '(gpustep)' 5 || fail "no prompt with dram/hbm2"
tmux_wait_for 'dram  24 channels' 2 || fail "the hbm2 preset's 24 channels are not shown"
type_line 'step 100'
tmux_wait_for ' cycle 100 |' 3 || fail "step 100 on hbm2"
type_line 'quit'
tmux_wait_exit 5 || fail "quit did not exit"
grep -q 'EXIT=0' "$E2E_TMP/exit" || fail "exit status on the trace: $(cat "$E2E_TMP/exit")"
tmux_kill

printf '# nothing\n\n' >"$E2E_TMP/empty.trc"
rm -f "$E2E_TMP/exit"
tmux_start 120 40 "GPUSTEP_HISTORY= $BIN --dram-trace $E2E_TMP/empty.trc; echo EXIT=\$? >$E2E_TMP/exit; sleep 5"
tmux_wait_for 'empty.trc: no requests' 3 || fail "an empty trace was not refused"
i=0
while [ ! -s "$E2E_TMP/exit" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
grep -q 'EXIT=2' "$E2E_TMP/exit" || fail "exit status for an empty trace: $(cat "$E2E_TMP/exit")"
exit 0
