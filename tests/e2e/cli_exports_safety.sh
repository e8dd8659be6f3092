#!/bin/sh
# The one output writer (load/outfile.c, docs/EXPORTS.md "Safety"):
# destinations checked before the run, symlinks / FIFOs / devices never
# replaced, stale temporaries cleaned (a planted symlink never followed),
# every export error reported, --csv streamed in flat memory; and configs
# whose refresh leaves no room for an access refused before the run.
. "$(dirname "$0")/lib.sh"
T=$E2E_TMP

# ---- a destination that cannot be written: exit 2 before simulating -------------
out=$("$BIN" --run --stats /nonexistent/s.json 2>&1)
[ $? = 2 ] || fail "--stats in a missing directory: not exit 2: $out"
expect_contains "$out" "--stats /nonexistent/s.json: directory /nonexistent does not exist"
case "$out" in *cycles*) fail "the run was simulated before the destination was checked: $out" ;; esac
mkdir -p "$T/adir"
out=$("$BIN" -w vecadd --run --trace-out "$T/adir" 2>&1)
[ $? = 2 ] || fail "--trace-out a directory: not exit 2"
expect_contains "$out" "is a directory"
ln -s "$T/nowhere/x.csv" "$T/dangling.csv"
out=$("$BIN" -w vecadd --run --sample 100 --csv "$T/dangling.csv" 2>&1)
[ $? = 2 ] || fail "--csv to a dangling symlink: not exit 2"
expect_contains "$out" "symbolic link to a file that does not exist"

# ---- symlinks stay symlinks, the file they name is written --------------------------
echo old >"$T/real.json"
ln -s "$T/real.json" "$T/link.json"
"$BIN" -w vecadd --run --stats "$T/link.json" >/dev/null 2>&1 || fail "--stats through a symlink"
[ -L "$T/link.json" ] || fail "the symlink was replaced"
grep -q '"cycles"' "$T/real.json" || fail "the file the link names was not written"

# ---- FIFOs and devices are written in place, never replaced --------------------------
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.out" &
reader=$!
"$BIN" -w vecadd --run --trace-out "$T/fifo" >/dev/null 2>&1 || fail "--trace-out to a FIFO"
wait "$reader"
[ -p "$T/fifo" ] || fail "the FIFO was replaced"
grep -q '"traceEvents"' "$T/fifo.out" || fail "the trace did not go through the FIFO"
"$BIN" -w vecadd --run --trace-out /dev/null --stats /dev/null >/dev/null 2>&1 || fail "--trace-out /dev/null"
[ -c /dev/null ] || fail "/dev/null is no longer a device"

# ---- stale temporaries: removed; a planted symlink is not followed --------------------
echo stale >"$T/t.json.tmpAbC123"
echo victim >"$T/victim"
ln -s "$T/victim" "$T/t.json.tmpXyZ789"
"$BIN" -w vecadd --run --trace-out "$T/t.json" >/dev/null 2>&1 || fail "--trace-out t.json"
[ -e "$T/t.json.tmpAbC123" ] && fail "a stale temporary was left"
[ -L "$T/t.json.tmpXyZ789" ] || fail "a symlink named like a temporary was removed or replaced"
[ "$(cat "$T/victim")" = victim ] || fail "the file a planted symlink names was written"
grep -q '"traceEvents"' "$T/t.json" || fail "no trace written"
[ "$(ls "$T" | grep -c '^t\.json\.tmp')" = 1 ] || fail "temporaries left: $(ls "$T")"

# ---- every export error is reported -------------------------------------------------
out=$("$BIN" -w vecadd --run --trace-out /dev/full --sample 50 --csv /dev/full 2>&1)
[ $? = 1 ] || fail "exports to /dev/full: not exit 1"
expect_contains "$out" "--trace-out: /dev/full: No space left on device"
expect_contains "$out" "--csv /dev/full: writing failed at the row of cycle 50: No space left on device"

# ---- --sample 1 --csv streams: memory does not grow with the rows ----------------------
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f %M -o "$T/rss.short" "$BIN" -w strided --run --sample 1 --csv "$T/short.csv" >/dev/null 2>&1 ||
		fail "short sampled run"
	/usr/bin/time -f %M -o "$T/rss.long" "$BIN" -w gather_random --run --sample 1 --csv "$T/long.csv" >/dev/null 2>&1 ||
		fail "long sampled run"
	short=$(tail -1 "$T/rss.short")
	long=$(tail -1 "$T/rss.long")
	grow=$(( $(wc -c <"$T/long.csv") - $(wc -c <"$T/short.csv") ))
	echo "max RSS: strided $short KB ($(wc -c <"$T/short.csv") B of CSV), gather_random $long KB ($(wc -c <"$T/long.csv") B)"
	[ "$grow" -gt 20000000 ] || fail "the long run's CSV is not much longer ($grow B): the test measures nothing"
	[ $((long - short)) -lt 8000 ] || fail "max RSS grew by $((long - short)) KB for $grow more bytes of CSV"
fi

# ---- refresh without room for an access: refused before the run ----------------------
start=$(date +%s)
out=$(timeout 20 "$BIN" teaching -w gather_random -s dram.timing.tRFC=590 -s dram.timing.tREFI=620 --run 2>&1)
rc=$?
[ $rc = 2 ] || fail "tRFC=590 tREFI=620: exit $rc, not 2: $out"
expect_contains "$out" "dram.timing.tREFI: refresh must leave room for an access"
[ $(( $(date +%s) - start )) -lt 10 ] || fail "the refusal took more than 10 s"
sed 's/^tRFC = .*/tRFC = 12400/' configs/dram/ddr4-3200.ini >"$T/bad.ini"
grep -q '^tRFC = 12400' "$T/bad.ini" || fail "could not write the .ini"
out=$(timeout 20 "$BIN" "$T/bad.ini" -w gather_random --run 2>&1)
[ $? = 2 ] || fail ".ini with tRFC 12400 of tREFI 12480: not exit 2: $out"
expect_contains "$out" "refresh must leave room for an access"

# ---- readers share a size cap (load/loader.h LOADER_TEXT_MAX): a message, not an OOM ---
truncate -s 70M "$T/big.json" || fail "truncate"
out=$("$BIN" "$T/big.json" --check-config 2>&1)
[ $? = 2 ] || fail "70 MB config: not exit 2"
expect_contains "$out" "big.json: 70.0 MB is more than a gpustep config may be (64 MB)"
out=$("$BIN" -w "$T/big.json" --run 2>&1)
[ $? = 2 ] || fail "70 MB kernel: not exit 2"
expect_contains "$out" "more than a gpustep kernel may be (64 MB)"
out=$("$BIN" sweep "$T/big.json" --list 2>&1)
[ $? = 2 ] || fail "70 MB sweep spec: not exit 2"
expect_contains "$out" "more than a gpustep sweep spec may be (64 MB)"
exit 0
