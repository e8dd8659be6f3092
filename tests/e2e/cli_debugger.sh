#!/bin/sh
# Breakpoints, watchpoints, until, displays and determinism through batch mode.
. "$(dirname "$0")/lib.sh"

out=$(printf 'break dram.row_conflict\ncontinue\ninfo break\n' | "$BIN" --batch -) || fail "exit $?"
expect_contains "$out" "Breakpoint 1: dram.row_conflict"
expect_contains "$out" "Breakpoint 1, dram.row_conflict ch="
expect_contains "$out" "breakpoint  y    1"

out=$(printf 'display sim.cycles\nuntil l2.miss\nbreak cycle 500\ncontinue\n' | "$BIN" --batch -) || fail "exit $?"
expect_contains "$out" "Temporary breakpoint 1, l2.miss"
expect_contains "$out" "Breakpoint 2, cycle 500 at cycle 500"
expect_contains "$out" "1: sim.cycles = 500"

out=$(printf 'watch l1.accesses > 10\ncontinue\nprint l1.accesses\n' | "$BIN" --batch -) || fail "exit $?"
expect_contains "$out" "Watchpoint 1, l1.accesses > 10"

out=$(printf 'log dram.*\nstep 2000\ninfo events 3\nlog -dram.* +l1.miss\nlog none\n' | "$BIN" --batch -) || fail "exit $?"
expect_contains "$out" " dram."
expect_contains "$out" "log: l1.miss"
expect_contains "$out" "log: none"

# set only at cycle 0; run 0 goes back.
printf 'step 5\nset l1.ways 2\n' | "$BIN" --batch - >/dev/null 2>"$E2E_TMP/err" && fail "set after start succeeded"
expect_contains "$(cat "$E2E_TMP/err")" "run 0"
out=$(printf 'step 5\nrun 0\nset l1.ways 2\nprint l1.ways\n' | "$BIN" --batch -) || fail "run 0 + set"
expect_contains "$out" "l1.ways = 2"

# Every command has help with an example.
for c in $(printf 'list commands\n' | "$BIN" --batch - | sed -n 's/^  \([a-z][a-z-]*\).*/\1/p'); do
	h=$(printf 'help %s\n' "$c" | "$BIN" --batch -) || fail "help $c"
	expect_contains "$h" "Example:"
done

# Stepping in pieces gives the same stats as one run.
"$BIN" --run -w vecadd --stats "$E2E_TMP/a.json" >/dev/null || fail "run a"
printf 'step 137\nstep 1000\nbreak l1.miss\ncontinue\ndelete\ncontinue\n' |
	"$BIN" --batch - -w vecadd --stats "$E2E_TMP/b.json" >/dev/null || fail "run b"
cmp -s "$E2E_TMP/a.json" "$E2E_TMP/b.json" || fail "stepped run differs from one run: $(diff "$E2E_TMP/a.json" "$E2E_TMP/b.json" | head)"
exit 0
