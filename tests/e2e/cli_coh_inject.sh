#!/bin/sh
# gpustep stress-coherence's failure path: with a deliberately broken
# behaviour injected (test-only --inject-bug N, enum cs_bug), the tester exits 1
# and names the first violation's cycle, line, L1 and what went wrong; with
# the same seed and no bug it exits 0. Bad --inject-bug values exit 2.
. "$(dirname "$0")/lib.sh"

check_violation() { # protocol bug seed accesses expected-text
	"$BIN" stress-coherence --protocol "$1" --inject-bug "$2" --seed "$3" --accesses "$4" >"$E2E_TMP/out" 2>&1
	rc=$?
	out=$(cat "$E2E_TMP/out")
	[ $rc = 1 ] || fail "$1 --inject-bug $2: expected exit 1, got $rc: $out"
	expect_contains "$out" "stress-coherence $1 seed $3: VIOLATION at cycle "
	printf '%s\n' "$out" | grep -Eq "VIOLATION at cycle [0-9]+, line [0-9]+, L1 [0-9]+: " ||
		fail "$1 --inject-bug $2: no 'cycle N, line N, L1 N:' in: $out"
	expect_contains "$out" "$5"
	expect_contains "$out" "  after "
	"$BIN" stress-coherence --protocol "$1" --seed "$3" --accesses "$4" >"$E2E_TMP/ok" 2>&1 ||
		fail "$1 without the bug: exit $?: $(cat "$E2E_TMP/ok")"
	expect_contains "$(cat "$E2E_TMP/ok")" "stress-coherence $1 seed $3: ok, $4 accesses"
}

# 1: an atomic skips the invalidations; 2: it reads memory, not the L2 line
check_violation moesi 1 1 20000 "atomic on word"
check_violation si 2 1 20000 "atomic on word"
# 3: no acquire at a kernel boundary; 4: no release
check_violation si 3 1 200000 "after a kernel boundary"
check_violation nmoesi 4 1 200000 "after a kernel boundary"
# the exact first violation is deterministic for a seed
out=$("$BIN" stress-coherence --protocol moesi --inject-bug 1 --seed 1 --accesses 200000)
[ $? = 1 ] || fail "moesi bug 1 seed 1: expected exit 1"
expect_contains "$out" "stress-coherence moesi seed 1: VIOLATION at cycle 1803, line 7, L1 1: atomic on word 0 read"

"$BIN" stress-coherence --protocol si --inject-bug 9 >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "--inject-bug 9: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "--inject-bug: expected a number in 0..4, got 9"
exit 0
