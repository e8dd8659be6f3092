#!/bin/sh
# speed_compare.sh OLD NEW: simulation speed of two gpustep binaries on the
# `make bench` workloads (tools/bench.sh's --run rows), for
# docs/PERFORMANCE.md. Per row and binary: simulated cycles, the best wall
# time of REPS runs (default 3; the two binaries alternate, so load on the
# machine hits both alike), cycles per second, and with CALLGRIND=1 the
# instructions executed (valgrind --tool=callgrind, which do not vary from
# run to run) per simulated cycle. Also checks that both binaries write the
# same --stats JSON for each row.
#
#   sh tools/speed_compare.sh /tmp/old/build/gpustep build/gpustep
#   CALLGRIND=1 ROWS=titanv sh tools/speed_compare.sh OLD NEW   # rows matching titanv
set -u
die() { echo "speed_compare: $*" >&2; exit 2; }
[ $# -eq 2 ] || die "usage: speed_compare.sh OLD_BINARY NEW_BINARY"
old=$1 new=$2
[ -x "$old" ] || die "$old: not an executable"
[ -x "$new" ] || die "$new: not an executable"
reps=${REPS:-3}
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files

# The rows of tools/bench.sh ("-" = the built-in teaching machine).
CASES="- vecadd -p n=262144
- matmul_tiled -p n=128
- transpose_naive -p n=256
- gather_random -p n=65536
- stencil2d -p n=512
gtx480 matmul_tiled -p n=256
gtx480 gather_random -p n=262144
titanv matmul_tiled -p n=256
titanv gather_random -p n=262144
titanv matmul_naive -p n=256
titanv matmul_naive -p n=256 -s reuse.profile=true"

# wall BIN ARGS...: seconds of one run (stats to $tmp/s.json)
wall() {
	b=$1
	shift
	s=$(date +%s.%N)
	"$b" "$@" --stats "$tmp/s.json" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; echo fail; return; }
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }'
}
# irefs BIN ARGS...: instructions executed (callgrind's I refs)
irefs() {
	b=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$b" "$@" >/dev/null 2>"$tmp/cg.err" || { echo 0; return; }
	sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$tmp/cg.err" | tr -d ,
}

printf '%-8s %-16s %-22s %9s %8s %8s %10s %10s' config workload options cycles old_s new_s old_cyc/s new_cyc/s
[ "${CALLGRIND:-0}" = 1 ] && printf ' %9s %9s %6s' old_I/cyc new_I/cyc ratio
printf '\n'
echo "$CASES" | while read -r cfg wl extra; do
	[ -n "$wl" ] || continue
	row="$cfg $wl $extra"
	case $row in *${ROWS:-}*) ;; *) continue ;; esac
	set -- --run -w "$wl"
	# shellcheck disable=SC2086
	set -- "$@" $extra
	[ "$cfg" = - ] || set -- "$cfg" "$@"
	bo="" bn=""
	i=0
	while [ $i -lt "$reps" ]; do
		t=$(wall "$old" "$@")
		cp "$tmp/s.json" "$tmp/old.json" 2>/dev/null
		{ [ -z "$bo" ] || awk -v a="$t" -v b="$bo" 'BEGIN { exit !(a < b) }'; } && bo=$t
		t=$(wall "$new" "$@")
		{ [ -z "$bn" ] || awk -v a="$t" -v b="$bn" 'BEGIN { exit !(a < b) }'; } && bn=$t
		i=$((i + 1))
	done
	cmp -s "$tmp/old.json" "$tmp/s.json" || echo "DIFF: --stats differ for $*"
	cycles=$(sed -n 's/^  "cycles": \([0-9]*\).*/\1/p' "$tmp/s.json")
	awk -v c="$cfg" -v w="$wl" -v x="$extra" -v cy="${cycles:-0}" -v o="$bo" -v n="$bn" 'BEGIN {
		printf "%-8s %-16s %-22s %9d %8.3f %8.3f %10.0f %10.0f", (c == "-" ? "teaching" : c), w, x, cy, o, n, cy / o, cy / n }'
	if [ "${CALLGRIND:-0}" = 1 ]; then
		io=$(irefs "$old" "$@")
		in=$(irefs "$new" "$@")
		awk -v cy="${cycles:-1}" -v a="$io" -v b="$in" 'BEGIN { printf " %9.0f %9.0f %6.2f", a / cy, b / cy, (b > 0 ? a / b : 0) }'
	fi
	printf '\n'
done
echo "machine: $(uname -srm), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
