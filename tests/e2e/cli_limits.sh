# cli_limits.sh: resource bounds at the command line (issue 27): the memory a
# machine needs (--check-config, --max-memory), --snapshot-mb within memory,
# --seed range, a .trc.xz that would not fit refused before it fills memory,
# saving into /proc, a breakpoint no unit can match. (Cancelling a load:
# tests/ui/test_limits.c and tests/e2e/tui_session_load.sh.)
. "$(dirname "$0")/lib.sh"

# --check-config reports the memory by structure.
out=$("$BIN" --check-config gtx480) || fail "check-config gtx480: exit $?"
expect_contains "$out" "memory: about "
expect_contains "$out" "L1 tag arrays"
expect_contains "$out" "request pool"

# A machine above --max-memory is a config error naming the structure; the
# same machine fits a larger limit.
"$BIN" -s core.sms=64 -s l1.sets=1024 -s l1.ways=16 --max-memory 100 --run >/dev/null 2>"$E2E_TMP/err"
rc=$?
[ "$rc" = 2 ] || fail "over --max-memory: exit $rc, expected 2"
err=$(cat "$E2E_TMP/err")
expect_contains "$err" "more than the limit of 100.0 MB (--max-memory 100 MB)"
expect_contains "$err" "the largest structure is the reuse profiler"
"$BIN" -s core.sms=64 -s l1.sets=1024 -s l1.ways=16 --max-memory 100 --check-config >/dev/null 2>&1 &&
	fail "--check-config accepted a machine over --max-memory"
"$BIN" -s core.sms=64 -s l1.sets=1024 -s l1.ways=16 --max-memory 1000 --check-config >/dev/null ||
	fail "the same machine under --max-memory 1000 was refused"
# The issue's example: about 1 TB, refused before anything is allocated.
"$BIN" -s core.sms=256 -s l1.sets=65536 -s l1.ways=256 --run >/dev/null 2>"$E2E_TMP/err" &&
	fail "a 1 TB machine was built"
expect_contains "$(cat "$E2E_TMP/err")" "the largest structure is the reuse profiler: 1.1 TB"
"$BIN" -s core.sms=256 -s l1.sets=65536 -s l1.ways=256 -s reuse.profile=false --run >/dev/null 2>"$E2E_TMP/err" &&
	fail "a 160 GB machine was built"
expect_contains "$(cat "$E2E_TMP/err")" "the largest structure is the L1 tag arrays: 160.0 GB (256 SMs x 65536 sets x 256 ways"
# `set` rebuilds under the same limit and leaves the machine as it was.
out=$(printf 'set l1.sets 65536\nprint l1.sets\n' | "$BIN" --max-memory 50 -x - 2>&1)
expect_contains "$out" "more than the limit of 50.0 MB"
expect_contains "$out" "l1.sets = 8"

# --snapshot-mb must fit in memory (and in --max-memory).
"$BIN" --snapshot-mb 1048576 --run >/dev/null 2>"$E2E_TMP/err" && fail "--snapshot-mb 1048576 accepted"
expect_contains "$(cat "$E2E_TMP/err")" "--snapshot-mb 1048576: more than"
"$BIN" --max-memory 100 --snapshot-mb 200 --run >/dev/null 2>"$E2E_TMP/err" && fail "--snapshot-mb over --max-memory accepted"
expect_contains "$(cat "$E2E_TMP/err")" "more than --max-memory"

# --seed: no silent saturation or wrap-around, the same rule for every subcommand.
for s in 99999999999999999999999 -1 18446744073709551616 1x; do
	"$BIN" --seed "$s" --check-config >/dev/null 2>"$E2E_TMP/err" && fail "--seed $s accepted"
	expect_contains "$(cat "$E2E_TMP/err")" "--seed: expected an integer from 0 to 18446744073709551615"
	"$BIN" stress-coherence --protocol si --accesses 10 --seed "$s" >/dev/null 2>&1 &&
		fail "stress-coherence --seed $s accepted"
done
"$BIN" --seed 18446744073709551615 --check-config >/dev/null || fail "--seed 2^64-1 refused"
"$BIN" stress-coherence --protocol si --accesses 10 --seed 18446744073709551615 >/dev/null ||
	fail "stress-coherence --seed 2^64-1 refused"

# save session into /proc: why, not "No such file or directory".
out=$(printf 'save session /proc/version\n' | "$BIN" -x - 2>&1)
expect_contains "$out" "/proc/version: cannot create a file in /proc"
case "$out" in *"No such file"*) fail "save into /proc: $out" ;; esac

# A breakpoint no unit of this machine can match says so.
out=$(printf 'break l1.miss sm=99999999999\nbreak l1.miss sm=1\n' | "$BIN" -x - 2>&1)
expect_contains "$out" "warning: breakpoint 1 can never fire: its sm filter asks for sm == 99999999999, and this machine has 2 SMs (0-1)"
case "$out" in *"breakpoint 2 can never"*) fail "sm=1 warned: $out" ;; esac

# A .trc.xz is read whole: past a third of the memory available (here a
# 40 MB address space) it is refused with a message instead of an abort.
(echo 'blocksize: 64 1 1'; yes '1 0 268435456 4' | head -n 1000000) | xz -0 >"$E2E_TMP/big.trc.xz" ||
	fail "xz failed"
if (ulimit -v 40000 && "$BIN" --version) >/dev/null 2>&1; then # not under ASan (its shadow needs the address space)
	(ulimit -v 40000 && exec "$BIN" --run --snapshot-mb 0 -w "$E2E_TMP/big.trc.xz") >/dev/null 2>"$E2E_TMP/err"
	rc=$?
	[ "$rc" = 2 ] || fail ".trc.xz over the limit: exit $rc, expected 2: $(cat "$E2E_TMP/err")"
	expect_contains "$(cat "$E2E_TMP/err")" "big.trc.xz: decompresses to more than"
fi
printf 'info\n' | "$BIN" --snapshot-mb 0 -w "$E2E_TMP/big.trc.xz" -x - >/dev/null 2>"$E2E_TMP/err" ||
	fail "the same .trc.xz with the memory available: $(cat "$E2E_TMP/err")" # loaded, not run (slow under ASan)

exit 0
