#!/bin/sh
# Accel-Sim traces end to end: the hand-written vecadd and matmul traces
# (tests/traces/gen_traces.py) on gtx480 and titanv, with cache and DRAM counts
# computed by hand, with the MemcpyHtoD lines ignored (cold caches) and filling the L2 (the
# presets' default); multi-kernel lists back to back (one with an .xz kernel); error messages for
# a malformed line, a malformed MemcpyHtoD, a truncated file and a truncated .xz; the workload command.
. "$(dirname "$0")/lib.sh"

stat() { sed -n "s/^    \"$1\": \([0-9]*\).*/\1/p" "$2"; }
check() { # FILE STAT EXPECTED WHY
	v=$(stat "$2" "$1")
	[ "$v" = "$3" ] || fail "$1: $2 = '$v', expected $3 ($4)"
}
run() { # PRESET WORKLOAD JSON [OPTIONS...]
	p=$1 w=$2 j=$3
	shift 3
	"$BIN" "$p" --run -w "$w" --stats "$j" "$@" >"$E2E_TMP/out" 2>"$E2E_TMP/err" || { cat "$E2E_TMP/err"; fail "$p $w: exit $?"; }
}
IGN="-s trace.memcpy=ignore" # cold caches: the MemcpyHtoD lines change nothing

T=tests/traces
# vecadd: 8 warps x (LDG A, LDG B, STG C), 4 bytes a lane, every warp on its own 128 B lines.
# The list copies A and B (1 KB each) first: counts below with the copies ignored.
run gtx480 $T/vecadd/kernelslist.g "$E2E_TMP/v480.json" $IGN
j="$E2E_TMP/v480.json"
check "$j" sim.warp_insts 80 "8 warps x 10 lines"
check "$j" l1.accesses 24 "fermi: 1 request per warp access, 24 accesses"
check "$j" l1.misses 24 "no line is reused"
# gtx480 fetches through its L1I: the trace's PCs 0x000-0x0f0 are 2 code lines,
# each one L1I fill from the L2 and DRAM (titanv's L1I is perfect: none).
check "$j" l1i.fills 2 "two code lines (PCs 0x000-0x0f0)"
check "$j" l2.accesses 26 "every miss and every store reaches the L2, + 2 code lines"
check "$j" dram.reads 26 "16 load lines + 8 store lines (l2 fetch_on_write) + 2 code lines"
expect_contains "$(cat "$E2E_TMP/err")" "2 MemcpyHtoD (2048 bytes) ignored (trace.memcpy = ignore)"
run titanv $T/vecadd/kernelslist.g "$E2E_TMP/vtv.json" $IGN
j="$E2E_TMP/vtv.json"
check "$j" l1.accesses 96 "volta: 4 sector requests per 8-lane groups x 24 accesses"
check "$j" l1.misses 96 "cold sectors"
check "$j" icnt.req_packets 96 "each miss and store goes to the L2"
check "$j" dram.reads 64 "16 load lines x 4 sectors; stores are lazy_fetch"
# The same with the presets' trace.memcpy = l2_fill: A and B are in the L2 when the kernel starts.
run gtx480 $T/vecadd/kernelslist.g "$E2E_TMP/f480.json"
j="$E2E_TMP/f480.json"
[ -s "$E2E_TMP/err" ] && fail "l2_fill: unexpected warnings: $(cat "$E2E_TMP/err")"
check "$j" trace.memcpy.copies 2 "two MemcpyHtoD lines"
check "$j" trace.memcpy.lines 16 "2 x 1024 B / 128 B lines"
check "$j" l2.accesses 26 "as cold: every L1 miss and store reaches the L2, + 2 code lines"
check "$j" l2.hits 16 "the 16 copied load lines hit"
check "$j" dram.reads 10 "only the 8 store lines (fetch_on_write) and the 2 code lines"
run titanv $T/vecadd/kernelslist.g "$E2E_TMP/ftv.json"
j="$E2E_TMP/ftv.json"
check "$j" trace.memcpy.lines 16 "2 x 1024 B / 128 B lines, all sectors valid"
check "$j" l2.accesses 96 "no refused (NACKed) retries: nothing misses on a load"
check "$j" l2.hits 88 "64 load sectors + 3 of each warp's 4 store sectors (the first allocates: lazy_fetch)"
check "$j" dram.reads 0 "loads hit, stores lazy_fetch"

# matmul 16x16: per warp 16 x (LDG A: 2 addresses in one line, LDG B: 64 B in one line) + 1 STG.
run gtx480 $T/matmul/kernelslist.g "$E2E_TMP/m480.json" $IGN
j="$E2E_TMP/m480.json"
check "$j" core.ld_insts 256 "8 warps x 32 loads"
check "$j" l1.accesses 264 "fermi: 1 request per access: 8 x 33"
check "$j" l1i.fills 7 "seven code lines"
check "$j" l2.accesses 31 "8 A lines + 8 B lines fetched once (16 KB L1 holds them) + 8 stores + 7 code lines"
check "$j" dram.reads 31 "16 lines + 8 store lines (fetch_on_write) + 7 code lines"
run titanv $T/matmul/kernelslist.g "$E2E_TMP/mtv.json" $IGN
j="$E2E_TMP/mtv.json"
check "$j" l1.accesses 1056 "volta: 4 groups x 264 accesses"
check "$j" icnt.req_packets 96 "32 A sectors + 32 B sectors + 32 store sectors"
check "$j" dram.reads 64 "64 loaded sectors; stores lazy_fetch"
run gtx480 $T/matmul/kernelslist.g "$E2E_TMP/fm480.json"
check "$E2E_TMP/fm480.json" dram.reads 15 "A and B were copied into the L2: only the 8 store lines and the 7 code lines"
run titanv $T/matmul/kernelslist.g "$E2E_TMP/fmtv.json"
check "$E2E_TMP/fmtv.json" dram.reads 0 "A and B copied; stores lazy_fetch"

# A list: memcpy (ignored, said once), kernel-1 (2 CTAs) then kernel-2.traceg.xz
# (80 threads), back to back in one simulator: one summary, shared caches.
out=$("$BIN" titanv --run -w $T/multi/kernelslist.g --stats "$E2E_TMP/multi.json" $IGN 2>"$E2E_TMP/err") || fail "multi: exit $?"
expect_contains "$out" "kernelslist.g on titanv"
expect_contains "$out" "trace: 2 kernels back to back in one simulator"
expect_contains "$(cat "$E2E_TMP/err")" "1 MemcpyHtoD (2048 bytes) ignored"
j="$E2E_TMP/multi.json"
check "$j" sim.kernels 2 "two kernels"
check "$j" l1.accesses 222 "16 warps x 3 accesses x 4 sectors + warps of 32, 32, 16 lanes: 12 + 12 + 6"
check "$j" l2.hits 78 "kernel 1's 48 + all 30 of kernel 2 (it re-reads A and B, re-writes C)"
check "$j" dram.reads 128 "kernel 1's 128 sectors; kernel 2's 20 (alone) are in the L2 already"
# The .xz kernel through a 1 MB window (trace.xz_window_mb, docs/TRACES.md):
# the same machine; a thread block larger than the window is refused by name
# and size: 10 + 21 + 9 + 14 (block, warp, insts lines) + 29999 x 37 + 25 + 8.
"$BIN" titanv --run -w $T/multi/kernelslist.g --stats "$E2E_TMP/multiw.json" $IGN -s trace.xz_window_mb=1 >/dev/null 2>&1 ||
	fail "multi, 1 MB window: exit $?"
check "$E2E_TMP/multiw.json" l2.hits 78 "as with the default window"
check "$E2E_TMP/multiw.json" dram.reads 128 "as with the default window"
{
	printf -- '-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 4\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 30000\n'
	awk 'BEGIN { for (i = 0; i < 29999; i++) print "0008 ffffffff 1 R7 IADD3 2 R7 R7 0 0"; print "0010 ffffffff 0 EXIT 0 0"; print "#END_TB" }'
} | xz >"$E2E_TMP/big.traceg.xz"
"$BIN" --run -w "$E2E_TMP/big.traceg.xz" -s trace.xz_window_mb=1 >/dev/null 2>"$E2E_TMP/err" && fail "a 1.1 MB thread block fit a 1 MB window"
expect_contains "$(cat "$E2E_TMP/err")" "big.traceg.xz: thread block (0,0,0) is 1110050 bytes of text, more than trace.xz_window_mb = 1 MB can hold"
"$BIN" --run -w "$E2E_TMP/big.traceg.xz" -s trace.xz_window_mb=2 >/dev/null 2>"$E2E_TMP/err" || fail "2 MB window: $(cat "$E2E_TMP/err")"
# With the copy of A (2 KB = 16 lines) in the L2 before kernel 1.
run titanv $T/multi/kernelslist.g "$E2E_TMP/fmulti.json"
check "$E2E_TMP/fmulti.json" trace.memcpy.lines 16 "2048 B / 128 B"
check "$E2E_TMP/fmulti.json" l2.hits 142 "78 + kernel 1's 64 A sectors"
check "$E2E_TMP/fmulti.json" dram.reads 64 "only B's 64 sectors"
# @2 picks kernel 2 alone, on cold caches.
out=$("$BIN" titanv --run -w "$T/multi/kernelslist.g@2" --stats "$E2E_TMP/m2.json") || fail "@2: exit $?"
expect_contains "$out" "_Z4tailPfS_S_i"
check "$E2E_TMP/m2.json" l1.accesses 30 "warps of 32, 32, 16 lanes: 12 + 12 + 6"
check "$E2E_TMP/m2.json" dram.reads 20 "cold: 10 A + 10 B sectors"
# b2b: kernel 2 (2 CTAs x 128 threads) reads the 8 lines kernel 1 (4 x 64) stored.
run gtx480 $T/b2b/kernelslist.g "$E2E_TMP/b2b.json"
# gtx480's L1Is fetch the code line once per SM that runs a CTA (6: kernel 1 on
# 4 SMs, kernel 2 on 2 more; both kernels' PCs share one region, as in
# Accel-Sim): one DRAM read, the others merge at the L2 or hit there.
check "$E2E_TMP/b2b.json" l1i.fills 6 "one code-line fill per SM that ran a CTA"
check "$E2E_TMP/b2b.json" l2.hits 10 "kernel 2's 8 C lines were left in the L2 by kernel 1's stores; 2 code-line fetches hit"
check "$E2E_TMP/b2b.json" dram.reads 25 "A 8 lines + C and D 8 lines each (fetch_on_write) + the code line; C is not read again"
"$BIN" --run -w "$T/multi/kernelslist.g@3" >/dev/null 2>"$E2E_TMP/err" && fail "@3 should fail"
expect_contains "$(cat "$E2E_TMP/err")" "kernel @3 requested, the list has 2"

# Errors: file, line, what was expected; truncation; corrupt xz; wrong warp size.
sed 's/^0050 ffffffff 1 R2 LDG.E.SYS 1 R2 4 1 0x7f0000000000 4 0$/0050 ffffffff 1 R2 LDG.E.SYS 1 R2 4 7 0x7f0000000000 4 0/' \
	$T/vecadd/kernel-1.traceg >"$E2E_TMP/bad.traceg"
"$BIN" --run -w "$E2E_TMP/bad.traceg" >/dev/null 2>"$E2E_TMP/err" && fail "bad mode accepted"
expect_contains "$(cat "$E2E_TMP/err")" "bad.traceg:28: column 37: expected an address mode of 0 (list), 1 (base+stride) or 2 (base+deltas), got '7'"
head -c 2000 $T/vecadd/kernel-1.traceg >"$E2E_TMP/cut.traceg"
"$BIN" --run -w "$E2E_TMP/cut.traceg" >/dev/null 2>"$E2E_TMP/err" && fail "truncated trace accepted"
expect_contains "$(cat "$E2E_TMP/err")" "cut.traceg:"
expect_contains "$(cat "$E2E_TMP/err")" "truncated?"
head -c 300 $T/multi/kernel-2.traceg.xz >"$E2E_TMP/cut.traceg.xz"
"$BIN" --run -w "$E2E_TMP/cut.traceg.xz" >/dev/null 2>"$E2E_TMP/err" && fail "truncated xz accepted"
expect_contains "$(cat "$E2E_TMP/err")" "cut.traceg.xz: truncated xz data"
xz -dc $T/multi/kernel-2.traceg.xz | sed 's/^0090 0000ffff 0 EXIT 0 0 0$/0090 0000ffff 0 EXIT/' | xz >"$E2E_TMP/b.traceg.xz"
"$BIN" --run -w "$E2E_TMP/b.traceg.xz" >/dev/null 2>"$E2E_TMP/err" && fail "bad xz line accepted"
expect_contains "$(cat "$E2E_TMP/err")" "b.traceg.xz:"
expect_contains "$(cat "$E2E_TMP/err")" "expected the source register count"
"$BIN" hd7770 --run -w $T/vecadd/kernel-1.traceg >/dev/null 2>"$E2E_TMP/err" && fail "warp size 64 accepted"
expect_contains "$(cat "$E2E_TMP/err")" "32-thread warps"
printf 'kernel-1.traceg\nMemcpyHtoD,0x7f00,12x\n' >"$E2E_TMP/kernelslist.g"
"$BIN" --run -w "$E2E_TMP/kernelslist.g" >/dev/null 2>"$E2E_TMP/err" && fail "bad MemcpyHtoD accepted"
expect_contains "$(cat "$E2E_TMP/err")" "kernelslist.g:2: column 21: expected the end of the line after the byte count, got 'x'"
printf 'MemcpyHtoD,0x10,5\nkernel-9.traceg\n' >"$E2E_TMP/kernelslist.g"
"$BIN" --run -w "$E2E_TMP/kernelslist.g" >/dev/null 2>"$E2E_TMP/err" && fail "missing kernel file accepted"
expect_contains "$(cat "$E2E_TMP/err")" "kernel-9.traceg: No such file"

# The prompt: `workload FILE`, then the warps' next SASS line and PC; back to a kernel.
printf 'workload %s\nstep 2\ninfo warp\nworkload vecadd\n' "$T/vecadd/kernelslist.g" >"$E2E_TMP/b.txt"
out=$("$BIN" gtx480 --batch "$E2E_TMP/b.txt" 2>&1) || { echo "$out"; fail "batch exit $?"; }
expect_contains "$out" "Accel-Sim trace, kernel 1/1 kernel-1.traceg"
# gtx480 fetches through a cold L1I: at cycle 2 warp 0 still waits for its
# first instruction (it issued 0000 at cycle 1 before the preset had fetch).
expect_contains "$out" "stalled fetch      insts 0     outstanding 0   next: #0 0000 IMAD.MOV.U32"
exit 0
