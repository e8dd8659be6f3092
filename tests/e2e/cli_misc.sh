#!/bin/sh
# --help, --version, listings, --run, --stats, and the not-a-terminal rule.
. "$(dirname "$0")/lib.sh"

out=$("$BIN" --help) || fail "--help exit $?"
for opt in --workload --set --batch --run --stats --seed --check-config --list-events --list-stats \
	--list-kernels --list-presets --list-config --version --dram-trace stress-coherence model; do
	expect_contains "$out" "$opt"
done
expect_contains "$("$BIN" --version)" "gpustep "

expect_contains "$("$BIN" --list-events)" "dram.row_conflict"
expect_contains "$("$BIN" --list-kernels)" "vecadd"
expect_contains "$("$BIN" --list-presets)" "teaching"
expect_contains "$("$BIN" --list-config)" "l1.ways"
expect_contains "$("$BIN" --list-stats)" "sim.cycles"

# No terminal and no headless flag: explain and exit 2.
"$BIN" </dev/null >"$E2E_TMP/out" 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "no terminal: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "not a terminal"

# --run prints a summary; --stats writes JSON with the required fields.
out=$("$BIN" --run -w vecadd --seed 3 --stats "$E2E_TMP/s.json") || fail "--run exit $?"
expect_contains "$out" "cycles"
expect_contains "$out" "L1 hit rate"
s=$(cat "$E2E_TMP/s.json")
for k in '"gpustep": ' '"config": "teaching"' '"workload": "vecadd"' '"seed": 3' '"cycles": ' '"stats": {' \
	'"sim.cycles": ' '"l1.hits": ' '"dram.row_hits": '; do
	expect_contains "$s" "$k"
done
if command -v python3 >/dev/null 2>&1; then
	python3 -m json.tool "$E2E_TMP/s.json" >/dev/null || fail "stats JSON does not parse"
fi
ls "$E2E_TMP"/s.json.tmp* >/dev/null 2>&1 && fail "temp file left behind"

# A FIFO (as /dev/null or a pipe would be) is written in place, never
# replaced by a renamed temp file; through a symlink the file it names is
# replaced and the link stays; a directory is refused by name.
mkfifo "$E2E_TMP/fifo" || fail "mkfifo"
cat "$E2E_TMP/fifo" >"$E2E_TMP/from_fifo" &
"$BIN" --run -w vecadd --stats "$E2E_TMP/fifo" >/dev/null || fail "--stats FIFO exit $?"
wait
[ -p "$E2E_TMP/fifo" ] || fail "--stats replaced the FIFO with a file"
expect_contains "$(cat "$E2E_TMP/from_fifo")" '"sim.cycles": '
: >"$E2E_TMP/target.json"
ln -s target.json "$E2E_TMP/link.json"
"$BIN" --run -w vecadd --stats "$E2E_TMP/link.json" >/dev/null || fail "--stats symlink exit $?"
[ -L "$E2E_TMP/link.json" ] || fail "--stats replaced the symlink"
expect_contains "$(cat "$E2E_TMP/target.json")" '"sim.cycles": '
"$BIN" --run -w vecadd --stats "$E2E_TMP" >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "--stats DIR: expected exit 2 (checked before the run)"
expect_contains "$(cat "$E2E_TMP/err")" "is a directory"

# Unwritable stats file: refused before the run (2) with the path.
"$BIN" --run -w vecadd --stats /nonexistent/dir/s.json >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "unwritable --stats: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "/nonexistent/dir/s.json"

# Unknown workload and bad kernel params are usage errors.
"$BIN" --run -w no_such_kernel >/dev/null 2>&1
[ $? = 2 ] || fail "unknown workload: expected exit 2"
"$BIN" --run -w vecadd --param nope=3 >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "unknown param: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "param.nope"
# A DRAM trace goes straight to the DRAM model; a bad trace names file:line.
printf '0x1000 READ 0\n0x1080 READ 5\n0x9000 WRITE 10\n' >"$E2E_TMP/t.trc"
out=$("$BIN" --dram-trace "$E2E_TMP/t.trc" --stats "$E2E_TMP/t.json") || fail "--dram-trace exit $?"
expect_contains "$(cat "$E2E_TMP/t.json")" '"dram.reads": 2'
# A batch script runs on a DRAM trace like at the prompt, and counts cycles
# and stats exactly as the run-to-the-end path does.
out=$(printf 'break dram.row_miss\ncontinue\ninfo bank\ncontinue\nprint dram.reads\n' |
	"$BIN" --dram-trace "$E2E_TMP/t.trc" -x - --stats "$E2E_TMP/tb.json") || fail "--dram-trace -x exit $?"
expect_contains "$out" "Breakpoint 1, dram.row_miss ch=0 bank="
expect_contains "$out" "dram.reads = 2"
[ "$(grep '"cycles"' "$E2E_TMP/t.json")" = "$(grep '"cycles"' "$E2E_TMP/tb.json")" ] ||
	fail "--dram-trace: --run and -x count cycles differently"
printf '0x1000 READ 0\nbogus line\n' >"$E2E_TMP/bad.trc"
"$BIN" --dram-trace "$E2E_TMP/bad.trc" >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "bad trace: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "bad.trc:2"
exit 0
