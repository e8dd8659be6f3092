#!/bin/sh
# shellcheck disable=SC2086 # option lists ($a, $VC, $F, $BURST) are split on purpose
# thesis_claims.sh [CLAIM ...]: the runs behind "The thesis's directional
# claims (§4.8) on this model" in docs/EXPERIMENTS.md (claims 3-5 and 7-13;
# claims 1, 2 and 6 come from the fig. 6.2, size-sweep and miss-latency
# sections). B=build/gpustep by default. CLAIM is any of
#   c3 c4 c5 c7 c8 c9 c10 c11 c12 c13   (default: all)
# One line per run: claim | preset | kernel and options | sim.cycles |
# sim.opc | l2.mem_bytes_per_cycle | l2.miss_lat.conv.avg_contention |
# share_h (FRC share of the misses that got a miss-tracking entry) |
# l1.accesses | core.stall.mem | core.mem_latency_avg | coh.nacks | l2.nacks.
# FRC runs: "eq" = l2.frc.mshr=shared (equal capacity), "add" = separate
# (added capacity). Every run is `$B PRESET --run -w KERNEL [OPTIONS] --stats F`.
B=${B:-build/gpustep}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-claims.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files
get() { # file key
	awk -v k="\"$2\":" '$1 == k { v = $2; gsub(/,/, "", v); print v + 0; found = 1; exit }
		END { if (!found) print 0 }' "$1"
}
run() { # claim preset kernel [gpustep args...]
	c=$1 p=$2 k=$3
	shift 3
	"$B" "$p" --run -w "$k" "$@" --stats "$tmp/s.json" >/dev/null 2>"$tmp/err" ||
		{ echo "$c $p $k $*: failed"; cat "$tmp/err"; return 1; }
	f=$tmp/s.json
	fm=$(get "$f" l2.miss_lat.frc.misses)
	cm=$(get "$f" l2.miss_lat.conv.misses)
	printf '%s | %s | %s %s | %s | %.3f | %.1f | %.1f | %.2f | %s | %s | %.0f | %s | %s\n' "$c" "$p" "$k" "$*" \
		"$(get "$f" sim.cycles)" "$(get "$f" sim.opc)" "$(get "$f" l2.mem_bytes_per_cycle)" \
		"$(get "$f" l2.miss_lat.conv.avg_contention)" \
		"$(awk -v a="$fm" -v b="$cm" 'BEGIN { print (a + b) ? a / (a + b) : 0 }')" \
		"$(get "$f" l1.accesses)" "$(get "$f" core.stall.mem)" "$(get "$f" core.mem_latency_avg)" \
		"$(get "$f" coh.nacks)" "$(get "$f" l2.nacks)"
}
frc3() { # claim preset kernel entries [args...]: no FRC, equal, added
	c=$1 p=$2 k=$3 n=$4
	shift 4
	run "$c" "$p" "$k" "$@"
	run "$c" "$p" "$k" -s l2.frc.entries="$n" -s l2.frc.mshr=shared "$@"
	run "$c" "$p" "$k" -s l2.frc.entries="$n" -s l2.frc.mshr=separate "$@"
}
BURST="-p set_stride=16384"
c3() {
	frc3 c3 rx540 matmul_naive 64
	for n in 4 8 32 64 128; do
		w=8
		[ "$n" -lt 8 ] && w=$n
		frc3 c3 rx540 l2_set_burst "$n" -s l2.frc.ways=$w $BURST -p iters=2
	done
}
c4() { for n in 64 128; do frc3 c4 rx540 matmul_tiled $n; done; }
c5() { for k in reduction saxpy vecadd; do frc3 c5 rx540 $k 128; done; }
c7() {
	for p in rx540 rx570 vega64; do
		for k in vecadd saxpy reduction gather_random stencil2d bfs_like l2_victim_churn; do
			frc3 c7 $p $k 64
		done
	done
}
c8() {
	for k in vecadd saxpy reduction gather_random stencil2d bfs_like matmul_naive histogram transpose_naive \
		l2_set_burst l2_victim_churn; do
		a=""
		[ $k = l2_set_burst ] && a=$BURST
		run c8 rx540 $k $a
		run c8 rx540 $k $a -s l2.sets=256
		run c8 rx540 $k $a -s l2.sets=512
		run c8 rx540 $k $a -s l2.sets=16 -s l2.ways=256
		run c8 rx540 $k $a -s l2.frc.entries=64 -s l2.frc.mshr=shared
		run c8 rx540 $k $a -s l2.frc.entries=64 -s l2.frc.mshr=separate
	done
}
c9() {
	for k in l2_set_burst gather_random reduction vecadd l2_victim_churn; do
		a=""
		[ $k = l2_set_burst ] && a=$BURST
		for m in 16 32 64 96 192 8192; do run c9 rx540 $k $a -s l2.mshr.entries=$m; done
	done
	for m in 8 32 64 256 1024; do
		run c9 rx540 shared_write -s coherence.protocol=nmoesi -s l1.mshr.entries=$m
	done
	for k in shared_write histogram saxpy; do
		for m in 8 32 256; do run c9 rx540 $k -s coherence.protocol=si -s l1.mshr.entries=$m; done
	done
}
c10() {
	for k in vecadd saxpy matmul_naive stencil2d gather_random transpose_naive; do
		run c10 rx540 $k
		run c10 rx540 $k -s dram.page_policy=closed
	done
}
c11() {
	for k in transpose_naive saxpy vecadd; do
		run c11 rx540 $k -s core.coalescer=fermi
		run c11 rx540 $k -s core.coalescer=si
	done
}
c12() {
	for k in transpose_naive saxpy vecadd stencil2d; do
		run c12 rx540 $k
		run c12 rx540 $k -s core.nonblocking_stores=1
		run c12 rx540 $k -s core.mem_inflight=4
		run c12 rx540 $k -s core.mem_inflight=4 -s core.nonblocking_stores=1
	done
}
c13() {
	for k in reduction gather_random matmul_naive; do
		for l in 50 100 250 500 1000 2000 4000; do
			run c13 rx540 $k -s mem.model=fixed -s mem.queue=4096 -s mem.latency=$l
		done
	done
}
[ $# -ge 1 ] || set -- c3 c4 c5 c7 c8 c9 c10 c11 c12 c13
echo "claim | preset | kernel options | cycles | opc | B/cyc | c_cont | share_h | l1_acc | stall_mem | mem_lat | coh_nacks | l2_nacks"
for c in "$@"; do
	case $c in
	c3 | c4 | c5 | c7 | c8 | c9 | c10 | c11 | c12 | c13) $c ;;
	*)
		echo "unknown claim '$c' (c3 c4 c5 c7 c8 c9 c10 c11 c12 c13)" >&2
		exit 2
		;;
	esac
done
