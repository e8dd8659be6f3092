# tui_session_load.sh: a long session load on screen (issues 22.8, 27.4):
# `gpustep --session FILE` shows the screen at once with the replay's progress
# in the status bar; Ctrl-C cancels it (the program goes on, at the cycle
# reached); `load session` inside the TUI shows the same progress and Esc
# cancels it, leaving the session as it was.
. "$(dirname "$0")/lib.sh"

# FNV-1a 64 of stdin (the session file's checksum), in 64-bit shell arithmetic.
fnv1a64() {
	h=-3750763034362895579 # 0xcbf29ce484222325
	for b in $(od -An -tu1 -v); do
		h=$(((h ^ b) * 1099511628211))
	done
	printf '%016x\n' "$h"
}

# A session whose replay takes seconds: saved at cycle 100, then moved to
# cycle 20,000,000 (the kernel runs about 21 M cycles), re-checksummed.
printf 'break l1.miss sm=1\nstep 100\nsave session %s/s.gps\n' "$E2E_TMP" |
	"$BIN" -w vecadd -p n=16777216 -s dram.rows=32768 --snapshot-mb 0 -x - >/dev/null || fail "could not save a session"
grep -v '^checksum \|^stats-hash \|^cycle ' "$E2E_TMP/s.gps" >"$E2E_TMP/body"
echo "cycle 20000000" >>"$E2E_TMP/body"
{
	cat "$E2E_TMP/body"
	echo "checksum fnv1a64 $(fnv1a64 <"$E2E_TMP/body")"
} >"$E2E_TMP/long.gps"
# Batch: SIGINT cancels the replay (sent until it lands: a background job
# starts with SIGINT ignored, until gpustep installs its handler).
out=$(printf 'quit\n' | "$BIN" --session "$E2E_TMP/long.gps" -x - --snapshot-mb 0 2>&1 &
	pid=$!
	n=0
	while kill -0 "$pid" 2>/dev/null && [ "$n" -lt 300 ]; do
		sleep 0.2
		kill -INT "$pid" 2>/dev/null
		n=$((n + 1))
	done
	wait "$pid"
	echo "exit $?")
expect_contains "$out" "load cancelled at cycle "
expect_contains "$out" "exit 1"

tmux_start 100 30 "$BIN --session $E2E_TMP/long.gps; echo EXITED \$?; sleep 30"
tmux_wait_for "loading long.gps: cycle " 10 || fail "no progress in the status bar"
tmux_wait_for "(Ctrl-C cancels)" 2 || fail "no way out shown"
tmux_send C-c
tmux_wait_for "load cancelled at cycle " 10 || fail "Ctrl-C did not cancel the load"
tmux_wait_for "| paused |" 5 || fail "not paused after the cancel"
screen=$(tmux_capture)
case "$screen" in *EXITED*) fail "Ctrl-C ended the program" ;; esac
expect_contains "$screen" "vecadd"
expect_contains "$screen" "loaded session "
# Where it stopped: a real cycle, and the breakpoint from the file.
tmux_send 'info break' Enter
tmux_wait_for "l1.miss sm=1" 5 || fail "the session's breakpoint is missing"
# The file says `log none` (saved in batch mode): on screen every kind is
# logged, as when the session was loaded before the screen came up.
tmux_send 'log' Enter
tmux_wait_for "log: all" 5 || fail "the loaded session does not log for the events panel"

# load session inside the TUI: progress, then Esc leaves everything as it was.
tmux_send 'step 7' Enter
tmux_send "load session $E2E_TMP/long.gps" Enter
tmux_wait_for "loading long.gps: cycle " 10 || fail "load session shows no progress"
tmux_send Escape
tmux_wait_for "the current session is unchanged" 10 || fail "Esc did not cancel load session"
tmux_send 'quit' Enter
tmux_wait_for "EXITED 0" 5 || fail "did not quit cleanly"
exit 0
