#!/bin/sh
# --check-config prints derived values; bad configs exit 2 naming the key or position.
. "$(dirname "$0")/lib.sh"

out=$("$BIN" --check-config configs/teaching.json) || fail "teaching.json: exit $?"
expect_contains "$out" "config OK"
expect_contains "$out" "="
out=$("$BIN" --check-config) || fail "built-in: exit $?"
expect_contains "$out" "config OK"
"$BIN" --check-config teaching >/dev/null || fail "preset by name"

# check NAME JSON EXPECTED-MESSAGE
check() {
	printf '%s\n' "$2" >"$E2E_TMP/$1.json"
	"$BIN" --check-config "$E2E_TMP/$1.json" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
	rc=$?
	[ "$rc" = 2 ] || fail "$1: expected exit 2, got $rc"
	expect_contains "$(cat "$E2E_TMP/err")" "$3"
}
check typo '{"l1": {"wyas": 4}}' "typo.json:1: l1.wyas: unknown key (did you mean l1.ways?)"
check type '{"l1": {"sets": "many"}}' "l1.sets: expected an integer, got a string"
check range '{"l1.ways": 0}' "l1.ways: must be between 1 and"
check pow2 '{"l2": {"sets": 48}}' "l2.sets: must be a power of two, got 48"
check enum '{"core": {"scheduler": "gtx"}}' "core.scheduler: unknown value 'gtx' (one of lrr, gto, two_level, vws, rmws, tbas, ccws)"
check inconsistent '{"l1": {"line": 64}}' "l1.line: must equal l2.line"
check malformed '{
  "l1": {
    "sets": 64,,
  }
}' "malformed.json:3:"
check cycle '{"extends": "cycle.json"}' "extends cycle"
check scheds '{"core": {"schedulers": 3}}' "core.schedulers: must be 1, 2 or 4, got 3"
check wrrbanks '{"core.schedulers": 4, "rf": {"banks": 6, "write_buffer.entries": 12, "warp_reg_remap": true}}' "rf.warp_reg_remap: rf.banks (6) must be a multiple of core.schedulers (4)"
check badext '{"extends": "no-such-preset"}' "no file or preset 'no-such-preset'"

# -s overrides go through the same checks.
"$BIN" --check-config -s l2.sets=48 2>"$E2E_TMP/err" >/dev/null
[ $? = 2 ] || fail "-s l2.sets=48 should exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "l2.sets: must be a power of two, got 48"
"$BIN" --check-config -s nonsense 2>"$E2E_TMP/err" >/dev/null
[ $? = 2 ] || fail "-s without = should exit 2"
out=$("$BIN" --dump-config -s l1.ways=8) || fail "--dump-config"
expect_contains "$out" '"ways": 8'

# Missing file, unknown option, stray argument.
"$BIN" --check-config "$E2E_TMP/none.json" 2>/dev/null
[ $? = 2 ] || fail "missing config should exit 2"
"$BIN" --bogus 2>/dev/null
[ $? = 2 ] || fail "unknown option should exit 2"
exit 0
