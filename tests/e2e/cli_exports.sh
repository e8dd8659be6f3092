#!/bin/sh
# --trace-out, --sample/--csv and `save trace` (docs/EXPORTS.md) from the
# command line: the stats of a run are the same with and without them, the
# cap and the window are honoured and said, bad options are refused.
# (The trace's structure is validated in tests/ui/test_export_trace.c.)
. "$(dirname "$0")/lib.sh"
T=$E2E_TMP
M="teaching -w vecadd -s l2.frc.entries=8 -s coherence.protocol=moesi --run"
"$BIN" $M --stats "$T/plain.json" >/dev/null || fail "plain run"
"$BIN" $M --stats "$T/traced.json" --trace-out "$T/t.json" --sample 100 --csv "$T/s.csv" >/dev/null 2>"$T/err" ||
	fail "traced run: $(cat "$T/err")"
cmp -s "$T/plain.json" "$T/traced.json" || fail "stats differ with --trace-out/--sample: $(diff "$T/plain.json" "$T/traced.json" | head)"
expect_contains "$(cat "$T/err")" "trace: $T/t.json, cycles 0 to "
head -c 20 "$T/t.json" | grep -q '^{"traceEvents":\[' || fail "trace header: $(head -c 80 "$T/t.json")"
tail -1 "$T/t.json" | grep -q '"time_unit":"1 us = 1 core cycle".*"capped":false' || fail "trace tail: $(tail -1 "$T/t.json")"
grep -q '"name":"row ' "$T/t.json" || fail "no DRAM row slices"
grep -q '"cat":"l2.mshr"' "$T/t.json" || fail "no L2 MSHR slices"
grep -q '"name":"fetching"' "$T/t.json" || fail "no FRC entry slices"
grep -q '"ph":"s","cat":"coh"' "$T/t.json" || fail "no coherence flows"
cycles=$(grep '"cycles":' "$T/plain.json" | sed 's/[^0-9]//g')
[ "$(tail -1 "$T/s.csv" | cut -d, -f1)" = "$cycles" ] || fail "last CSV row is not the end ($cycles)"
[ "$(wc -l <"$T/s.csv")" = "$(( (cycles + 99) / 100 + 1 ))" ] || fail "CSV rows: $(wc -l <"$T/s.csv") for $cycles cycles"

# window and cap
"$BIN" $M --trace-out "$T/w.json" --trace-from 1000 --trace-to 1500 >/dev/null 2>"$T/err" || fail "window"
expect_contains "$(cat "$T/err")" "cycles 1000 to 1500"
out=$("$BIN" $M --trace-out "$T/c.json" --trace-max-events 500 2>&1 >/dev/null) || fail "capped run"
expect_contains "$out" "the file reached its cap of 500 events"
tail -1 "$T/c.json" | grep -q '"capped":true' || fail "capped not recorded"

# save trace at the prompt leaves the session as it was
out=$(printf 'step 700\nsave trace %s 200 600\nprint sim.cycles\nsave trace %s 600 200\n' "$T/p.json" "$T/q.json" |
	"$BIN" --batch - -w vecadd 2>&1)
expect_contains "$out" "trace: $T/p.json, cycles 200 to 600"
expect_contains "$out" "sim.cycles = 700"
expect_contains "$out" "FROM (600) must be before TO (200)"
[ -f "$T/q.json" ] && fail "a refused save trace wrote a file"

# bad options
for args in "--run --sample 10" "--run --csv x.csv" "--sample 10 --csv x.csv" "--run --trace-to 5" \
	"--trace-out x.json" "--run --trace-out x.json --trace-from 9 --trace-to 3" "--run --sample 0 --csv x.csv" \
	"--run --sample-stats sim.*"; do
	"$BIN" $args >"$T/out" 2>&1
	[ $? = 2 ] || fail "gpustep $args: not exit 2: $(cat "$T/out")"
done
out=$("$BIN" --run --sample 10 --csv "$T/x.csv" --sample-stats 'nope.*' 2>&1) && fail "unknown sample stat accepted"
expect_contains "$out" "matches no stat"
exit 0
