#!/bin/sh
# frc_capacity.sh [BIN] [PRESET] [WORKLOAD] [extra gpustep args...]: the FRC
# size sweep of docs/EXPERIMENTS.md with both capacity readings side by side:
# "added capacity" (l2.frc.mshr = separate: FRC entries track misses on top
# of the L2 MSHRs) and "equal capacity" (shared: an FRC entry uses up an MSHR
# slot). One row per size (0, 4 .. 128 entries per bank; 8-way, 4 entries
# 4-way): cycles, OPC (sim.opc), share_h (FRC share of the misses that got a
# miss-tracking entry) and NACKs for each reading, then the conventional and
# FRC paths' average invalidation and eviction cycles per miss
# (l2.miss_lat.{conv,frc}.avg_{inval,evict}) of the equal-capacity run.
# With "fenced" as the first argument the table comes inside a markdown code
# fence (as docs/EXPERIMENTS.md holds it; tools/experiments.sh).
fence=
[ "${1:-}" = fenced ] && { fence=1; shift; }
BIN=${1:-build/gpustep}
PRESET=${2:-rx540}
WL=${3:-l2_victim_churn}
[ $# -ge 3 ] && shift 3 || shift $#
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-frccap.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files
get() { # file key
	awk -v k="\"$2\":" '$1 == k { v = $2; gsub(/,/, "", v); print v + 0; exit }' "$1"
}
[ -n "$fence" ] && echo '```'
printf '%-7s | %8s %6s %6s %7s | %8s %6s %6s %7s | %6s %6s %6s %6s\n' entries cyc_add opc_add shr_add nack_add \
	cyc_eq opc_eq shr_eq nack_eq c_inv c_ev f_inv f_ev
for n in 0 4 8 16 32 64 128; do
	ways=8
	[ "$n" -lt 8 ] && [ "$n" -gt 0 ] && ways=$n
	for m in separate shared; do
		"$BIN" "$PRESET" --run -w "$WL" -s l2.frc.entries=$n -s l2.frc.ways=$ways -s l2.frc.mshr=$m \
			--stats "$tmp/$m.json" "$@" >/dev/null 2>"$tmp/err" || { echo "entries=$n $m: failed"; cat "$tmp/err"; exit 1; }
	done
	row=""
	for m in separate shared; do
		f=$tmp/$m.json
		fm=$(get "$f" l2.miss_lat.frc.misses); cm=$(get "$f" l2.miss_lat.conv.misses)
		sh=$(awk -v a="$fm" -v b="$cm" 'BEGIN { printf "%.2f", a + b ? a / (a + b) : 0 }')
		row="$row$(printf '| %8s %6.2f %6s %7s ' "$(awk '/"cycles":/ { v = $2; gsub(/[^0-9]/, "", v); print v; exit }' "$f")" \
			"$(get "$f" sim.opc)" "$sh" "$(get "$f" l2.nacks)")"
	done
	f=$tmp/shared.json
	printf '%-7s %s| %6.1f %6.1f %6.1f %6.1f\n' "$n" "$row" "$(get "$f" l2.miss_lat.conv.avg_inval)" \
		"$(get "$f" l2.miss_lat.conv.avg_evict)" "$(get "$f" l2.miss_lat.frc.avg_inval)" "$(get "$f" l2.miss_lat.frc.avg_evict)"
done
[ -n "$fence" ] && echo '```'
exit 0
