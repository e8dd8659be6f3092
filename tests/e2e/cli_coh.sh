#!/bin/sh
# gpustep stress-coherence: exit 0 with a summary per protocol, 2 on bad arguments.
. "$(dirname "$0")/lib.sh"

for p in si nmoesi moesi; do
	out=$("$BIN" stress-coherence --protocol $p --accesses 20000 --seed 4) || fail "$p: exit $?"
	expect_contains "$out" "stress-coherence $p seed 4: ok, 20000 accesses"
	expect_contains "$out" "messages:"
done
"$BIN" stress-coherence --protocol none >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "--protocol none: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "expected si, nmoesi or moesi"
"$BIN" stress-coherence --protocol si --accesses zero >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "--accesses zero: expected exit 2"
exit 0
