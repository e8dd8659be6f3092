#!/bin/sh
# gpustep model [CONFIG] -w WORKLOAD: the names scripts rely on (`hit rate`,
# `miss rate`), --threads, a .trc trace by -w, the `model` command at the
# prompt in batch mode, and clear errors with exit 2 (usage) / 1 (batch).
. "$(dirname "$0")/lib.sh"

# a built-in kernel: model and simulator lines, exit 0
out=$("$BIN" model gtx480 -w vecadd --no-ablation) || fail "model vecadd: exit $?"
expect_contains "$out" "model hit rate   0.0000"
expect_contains "$out" "model miss rate  1.0000"
expect_contains "$out" "simulated hit rate"
expect_contains "$out" "simulated miss rate  1.0000"
expect_contains "$out" "coalesced loads of all 8192 of 8192 threads, one core"
expect_contains "$out" "simulation time"

# --threads: the paper's default cap (8192) against all threads (0)
out=$("$BIN" model gtx480 -w vecadd -p n=65536 --no-sim --no-ablation) || fail "model n=65536: exit $?"
expect_contains "$out" "512 coalesced loads of the first 8192 of 65536 threads"
case "$out" in *"simulated"*) fail "--no-sim still simulated" ;; esac
out=$("$BIN" model gtx480 -w vecadd -p n=65536 --threads 0 --no-sim --no-ablation) || fail "--threads 0: exit $?"
expect_contains "$out" "4096 coalesced loads of all 65536 of 65536 threads"
out=$("$BIN" model gtx480 -w vecadd -p n=65536 --threads 100 --no-sim --no-ablation) || fail "--threads 100: exit $?"
expect_contains "$out" "16 coalesced loads of the first 256 of 65536 threads" # whole blocks, at least one
"$BIN" model gtx480 -w vecadd --threads -3 >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "--threads -3: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "--threads: expected a thread count (0 = all threads)"

# a .trc thread-address trace: 64 threads, each loads one int twice and
# stores one; the model drops the store, so 2 warps x 2 loads = 4 requests
{
	echo "blocksize: 64 1 1"
	t=0
	while [ $t -lt 64 ]; do
		echo "$t 0 $((4096 + t * 4)) 4"
		echo "$t 0 $((4096 + t * 4)) 4"
		echo "$t 1 $((65536 + t * 4)) 4"
		t=$((t + 1))
	done
} >"$E2E_TMP/k.trc"
out=$("$BIN" model gtx480 -w "$E2E_TMP/k.trc") || fail "model k.trc: exit $?"
expect_contains "$out" "model: k.trc, 4 coalesced loads of all 64 of 64 threads"
expect_contains "$out" "model hit rate   0.5000"
expect_contains "$out" "model miss rate  0.5000"
expect_contains "$out" "model ablation   compulsory 0.5000"
expect_contains "$out" "simulated miss rate  0.6667" # the store is an L1 lookup in the simulator
expect_contains "$out" "(l1, 15 SMs, 6 lookups,"
printf 'blocksize: 64 1 1\n0 0 4096\n' >"$E2E_TMP/bad.trc"
"$BIN" model gtx480 -w "$E2E_TMP/bad.trc" >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "bad.trc: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "bad.trc:2: column"

# `model` at the prompt in batch mode, on the session's machine and trace
printf 'model\nmodel --threads 0 --no-sim\n' >"$E2E_TMP/ok.gps"
out=$("$BIN" gtx480 -w "$E2E_TMP/k.trc" -x "$E2E_TMP/ok.gps" 2>&1) || fail "batch model: exit $?"
expect_contains "$out" "(gpustep) model"
expect_contains "$out" "model hit rate   0.5000"
expect_contains "$out" "simulated hit rate"
n=$(printf '%s\n' "$out" | grep -c "^model miss rate")
[ "$n" = 2 ] || fail "batch: expected 2 model reports, got $n"
printf 'model --threads x\n' >"$E2E_TMP/bad.gps"
"$BIN" -w vecadd -x "$E2E_TMP/bad.gps" >"$E2E_TMP/out" 2>&1
[ $? = 1 ] || fail "batch model --threads x: expected exit 1"
expect_contains "$(cat "$E2E_TMP/out")" "model: --threads: expected a thread count (0 = all threads), got 'x'"
exit 0
