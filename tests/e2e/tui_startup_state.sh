# tui_startup_state.sh: start-up and sessions with state (issue 26). The
# terminal says what is being built before the machine exists (the line is
# caught by tmux pipe-pane, since the screen replaces it at once); a session
# saved with --state opens in the TUI at its cycle without a replay (no
# "loading" progress, the state hash of the saved session) and goes on to the
# same end as the session it was saved from; a damaged state says so and
# replays. No fixed sleeps: the program waits for a file before starting.
. "$(dirname "$0")/lib.sh"

type_line() { tmux_send -l "$1" && tmux_send Enter; }

# Sessions saved in batch mode at cycle 3000 of titanv matmul_naive (n=64):
# one with its machine state, one without; the run to the end gives stats.
printf 'goto 3000\nsave session %s/st.gps --state\nsave session %s/plain.gps\ncontinue\nsave stats %s/end.json\n' \
	"$E2E_TMP" "$E2E_TMP" "$E2E_TMP" | "$BIN" titanv -w matmul_naive -p n=64 -x - >/dev/null 2>&1 || fail "could not save the sessions"
head -1 "$E2E_TMP/st.gps" | grep -q '^gpustep-session 3$' || fail "a session with state is not version 3: $(head -1 "$E2E_TMP/st.gps")"
grep -q '^state [0-9]* fnv1a64 ' "$E2E_TMP/st.gps" || fail "no state line"
grep -q '^state' "$E2E_TMP/plain.gps" && fail "a session without --state has state lines"

# Batch: opens at the cycle without notes and runs on to the same statistics.
out=$(printf 'info\ncontinue\nsave stats %s/end2.json\n' "$E2E_TMP" | "$BIN" --session "$E2E_TMP/st.gps" -x - 2>&1)
expect_contains "$out" "cycle     3000 (stopped)"
case "$out" in *note:*) fail "notes when opening a session with state: $out" ;; esac
cmp -s "$E2E_TMP/end.json" "$E2E_TMP/end2.json" || fail "the session opened from its state ends differently: $(diff "$E2E_TMP/end.json" "$E2E_TMP/end2.json" | head)"

# A damaged state (one base64 character; the checksum skips state-data lines):
# said, then replayed to the same place.
awk 'done != 1 && /^state-data / { $0 = substr($0, 1, 40) (substr($0, 41, 1) == "A" ? "B" : "A") substr($0, 42); done = 1 } { print }' \
	"$E2E_TMP/st.gps" >"$E2E_TMP/bad.gps"
out=$(printf 'info\n' | "$BIN" --session "$E2E_TMP/bad.gps" -x - 2>&1)
expect_contains "$out" "the saved machine state is damaged (its hash does not match"
expect_contains "$out" "replaying from cycle 0 instead"
expect_contains "$out" "cycle     3000 (stopped)"

# The TUI: the building line first (caught from the pane's output), then
# the screen.
start_piped() {
	rm -f "$E2E_TMP/go" "$E2E_TMP/pane.log"
	tmux_start 120 40 "while [ ! -e $E2E_TMP/go ]; do sleep 0.05; done; GPUSTEP_HISTORY= $BIN $*"
	tmux -L "$TMUX_SOCK" pipe-pane -o -t "$TMUX_TARGET" "cat >>$E2E_TMP/pane.log" || fail "pipe-pane"
	: >"$E2E_TMP/go"
}
start_piped titanv -w matmul_naive -p n=64
tmux_wait_for ' cycle 0 | paused' 20 || fail "the TUI did not start"
grep -q 'gpustep: building titanv: 80 SMs, 48 L2 banks, about ' "$E2E_TMP/pane.log" ||
	fail "no building line before the screen: $(head -c 300 "$E2E_TMP/pane.log")"
type_line 'quit'
tmux_wait_exit 10 || fail "quit"
tmux_kill

# The session with state opens at its cycle at once: no replay progress.
start_piped --session "$E2E_TMP/st.gps"
tmux_wait_for ' cycle 3000 | ' 20 || fail "the session did not open at cycle 3000"
tmux_wait_for 'loaded session' 5 || fail "no 'loaded session' report"
grep -q "gpustep: opening session $E2E_TMP/st.gps" "$E2E_TMP/pane.log" || fail "no opening line before the screen"
grep -q 'loading st.gps: cycle' "$E2E_TMP/pane.log" && fail "the session with state was replayed (a loading progress line was drawn)"
type_line "save session $E2E_TMP/again.gps"
tmux_wait_for "wrote $E2E_TMP/again.gps" 5 || fail "save session"
[ "$(grep '^stats-hash ' "$E2E_TMP/again.gps")" = "$(grep '^stats-hash ' "$E2E_TMP/plain.gps")" ] ||
	fail "the opened session's stats differ from the saved one"
type_line 'quit'
tmux_wait_exit 10 || fail "quit"
exit 0
