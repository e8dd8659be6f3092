#!/bin/sh
# Batch mode runs the command table from stdin or a file.
. "$(dirname "$0")/lib.sh"

out=$(printf 'step 10\nprint sim.cycles\n' | "$BIN" --batch -) || fail "batch exited $?"
expect_contains "$out" "sim.cycles = 10"

# Enter-style repeat is not used in scripts; comments and blank lines are skipped.
printf '# a comment\n\nstep 5\nstep\nprint sim.cycles\nquit\nstep 100\n' >"$E2E_TMP/s.gdb"
out=$("$BIN" --batch "$E2E_TMP/s.gdb") || fail "batch file exited $?"
expect_contains "$out" "sim.cycles = 6"
expect_not_contains "$out" "step 100"

# A bad command: message on stderr, non-zero exit, later commands still run.
printf 'frobnicate\nprint sim.cycles\n' | "$BIN" --batch - >"$E2E_TMP/out" 2>"$E2E_TMP/err"
rc=$?
[ "$rc" = 1 ] || fail "bad command: expected exit 1, got $rc"
expect_contains "$(cat "$E2E_TMP/err")" "unknown command 'frobnicate'"
expect_contains "$(cat "$E2E_TMP/out")" "sim.cycles = 0"

# Screen-only commands are named as such, not as unknown.
printf 'layout frc\nzoom\n' | "$BIN" --batch - >"$E2E_TMP/out" 2>"$E2E_TMP/err" && fail "layout in batch succeeded"
expect_contains "$(cat "$E2E_TMP/err")" "layout: a screen command, only in the TUI (batch mode has no screen)"
expect_contains "$(cat "$E2E_TMP/err")" "zoom: a screen command, only in the TUI"

# Bad arguments name the problem.
printf 'step abc\n' | "$BIN" --batch - 2>"$E2E_TMP/err" >/dev/null && fail "step abc succeeded"
expect_contains "$(cat "$E2E_TMP/err")" "usage: step [N]"
printf 'break l1.mis\n' | "$BIN" --batch - 2>"$E2E_TMP/err" >/dev/null && fail "bad break succeeded"
expect_contains "$(cat "$E2E_TMP/err")" "did you mean l1.miss"

# Missing script file is a usage error.
"$BIN" --batch "$E2E_TMP/nope" >/dev/null 2>&1
[ $? = 2 ] || fail "missing batch file: expected exit 2"
exit 0
