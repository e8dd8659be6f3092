#!/bin/sh
# README's "A short tour", run as written: its (gpustep) lines through --batch
# with the command line it starts with; every command must succeed and the
# stops it shows must be the ones printed.
. "$(dirname "$0")/lib.sh"

tour=$(sed -n '/^## A short tour/,/^## /p' README.md)
[ -n "$tour" ] || fail "README has no 'A short tour' section"
cmdline=$(printf '%s\n' "$tour" | sed -n 's/^\$ build\/gpustep //p' | head -1)
[ -n "$cmdline" ] || fail "the tour does not start with '\$ build/gpustep ...'"
printf '%s\n' "$tour" | sed -n 's/^(gpustep) //p' | sed 's/ *#.*$//' >"$E2E_TMP/tour"
[ "$(wc -l <"$E2E_TMP/tour")" -ge 10 ] || fail "too few tour commands"
# shellcheck disable=SC2086
out=$(cd "$E2E_TMP" && "$BIN" $cmdline --batch tour 2>&1) || fail "tour failed (exit $?): $out"
expect_contains "$out" "wrote tour.gps"
[ -s "$E2E_TMP/tour.gps" ] || fail "no session file"
# Every stop line printed in the tour is what the program prints.
printf '%s\n' "$tour" | grep -E '^(Breakpoint|[0-9]+: )' | while IFS= read -r line; do
	printf '%s\n' "$out" | grep -F -x -q -- "$line" || fail "tour shows '$line', the program did not print it"
done || exit 1
# rc lands on the stop the tour names.
after_rc=$(printf '%s\n' "$out" | sed -n '/^(gpustep) rc$/,/^(gpustep) save/p')
expect_contains "$after_rc" "at cycle 2562"
echo ok
