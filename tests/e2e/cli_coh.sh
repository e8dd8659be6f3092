#!/bin/sh
# gpustep stress-coherence: exit 0 with a summary per protocol, 2 on bad arguments.
. "$(dirname "$0")/lib.sh"

for p in si nmoesi moesi; do
	out=$("$BIN" stress-coherence --protocol $p --accesses 20000 --seed 4) || fail "$p: exit $?"
	expect_contains "$out" "stress-coherence $p seed 4: ok, 20000 accesses"
	expect_contains "$out" "messages:"
	expect_contains "$out" " atomics, " # 10 % atomic read-modify-writes by default
done
out=$("$BIN" stress-coherence --protocol moesi --accesses 5000 --seed 2 --store-pct 0 --atomic-pct 100) || fail "all atomics: exit $?"
expect_contains "$out" "(0 loads, 0 stores, 5000 atomics, 0 L1 hits)"
"$BIN" stress-coherence --protocol si --store-pct 60 --atomic-pct 50 >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "--store-pct 60 --atomic-pct 50: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "is over 100"
"$BIN" stress-coherence --protocol none >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "--protocol none: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "expected si, nmoesi or moesi"
"$BIN" stress-coherence --protocol si --accesses zero >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "--accesses zero: expected exit 2"

# kernel boundary under nmoesi (two back-to-back trace kernels): the release
# writes kernel 1's 8 N lines back, the boundary costs cycles, stops on its event
# (mem.kernel_end=ctas: the release begins at kernel 1's last CTA; with the
# default drained it begins once the memory system is idle too)
out=$("$BIN" --run -w tests/traces/b2b/kernelslist.g -s coherence.protocol=nmoesi -s mem.kernel_end=ctas --stats -) || fail "b2b nmoesi: exit $?"
expect_contains "$out" '"coh.kernel_flush.boundaries": 1'
expect_contains "$out" '"coh.kernel_flush.writebacks": 8'
expect_contains "$out" '"coh.kernel_flush.cycles": 34'
out=$("$BIN" --run -w tests/traces/b2b/kernelslist.g -s coherence.protocol=nmoesi -s coherence.kernel_boundary=none --stats -) || fail "b2b none: exit $?"
case "$out" in *coh.kernel_flush*) fail "kernel_boundary none still registers coh.kernel_flush stats" ;; esac
printf 'break coh.kernel_flush phase=done\ncontinue\ninfo events 3\n' >"$E2E_TMP/kb.gps"
out=$("$BIN" -w tests/traces/b2b/kernelslist.g -s coherence.protocol=si -x "$E2E_TMP/kb.gps" 2>&1) || fail "kb batch: exit $?"
expect_contains "$out" "Breakpoint 1, coh.kernel_flush phase=done"

# history in batch mode: the line of the first transition to M, then a bad address
cat >"$E2E_TMP/hist.gps" <<'SCRIPT'
break coh.transition to=M
continue
history 0x10010400
history 0x1
history nope
SCRIPT
"$BIN" -s coherence.protocol=moesi -x "$E2E_TMP/hist.gps" >"$E2E_TMP/out" 2>&1
[ $? = 1 ] || fail "history batch: expected exit 1 (one command failed)"
out=$(cat "$E2E_TMP/out")
expect_contains "$out" "Breakpoint 1, coh.transition sm=1 addr=0x10010400 from=IM_D to=M"
expect_contains "$out" "history of line 0x10010400 (moesi): 6 transactions in the log, oldest first"
expect_contains "$out" "       215  sm1              L1    Store    I -> IM_D"
expect_contains "$out" "       404  bank0 (sm1)      dir   GetX     I -> X"
expect_contains "$out" "       425  sm1              L1    DataX    IM_D -> M"
expect_contains "$out" "record: the log keeps the last 512 transactions of all lines; it holds all 204 since cycle 0"
expect_contains "$out" "history of line 0x0 (moesi): no coherence transactions of this line in the log"
expect_contains "$out" "history: expected a line address (e.g. 0x10000080), got 'nope'"
exit 0
