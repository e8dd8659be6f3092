#!/bin/sh
# frc_ablation.sh [BIN] [PRESET] [WORKLOAD] [ENTRIES] [extra gpustep args...]:
# where an FRC's gain comes from (docs/EXPERIMENTS.md). Six runs, cycles and
# OPC each:
#   conv      no FRC, the conventional path as modelled (invalidate, evict, fetch)
#   conv_free no FRC, invalidation and eviction off the miss path
#             (-s l2.sharers=off -s l2.evict_order=overlap): what removing
#             that latency alone is worth
#   frc_eq    ENTRIES per bank, l2.frc.mshr=shared (equal capacity)
#   frc_add   ENTRIES per bank, l2.frc.mshr=separate (added capacity)
#   frc_noport  frc_eq with FRC fills and swaps taking no L2 port cycles
#   frc_atmiss  frc_eq with the victim chosen at the miss (l2.frc.victim=at_miss)
# and the split of frc_add's gain over conv (in cycles): latency = conv -
# conv_free; capacity = frc_eq - frc_add; the rest of frc_eq's gain
# (conv - frc_eq - latency) is what keeping the victim alive and the line
# never transient is worth beyond the latency (negative: the FRC loses there).
BIN=${1:-build/gpustep}
PRESET=${2:-rx540}
WL=${3:-l2_victim_churn}
N=${4:-64}
[ $# -ge 4 ] && shift 4 || shift $#
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-frcabl.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files
run() { # name args...
	name=$1
	shift
	"$BIN" "$PRESET" --run -w "$WL" --stats "$tmp/$name.json" "$@" >/dev/null 2>"$tmp/err" ||
		{ echo "$name: failed"; cat "$tmp/err"; exit 1; }
	cyc=$(awk '/"cycles":/ { v = $2; gsub(/[^0-9]/, "", v); print v; exit }' "$tmp/$name.json")
	opc=$(awk '$1 == "\"sim.opc\":" { v = $2; gsub(/,/, "", v); print v + 0; exit }' "$tmp/$name.json")
	printf '%-11s %9s %8.3f\n' "$name" "$cyc" "$opc"
	eval "c_$name=$cyc"
}
printf '%-11s %9s %8s\n' run cycles opc
run conv -s l2.frc.entries=0 "$@"
run conv_free -s l2.frc.entries=0 -s l2.sharers=off -s l2.evict_order=overlap "$@"
run frc_eq -s l2.frc.entries="$N" -s l2.frc.mshr=shared "$@"
run frc_add -s l2.frc.entries="$N" -s l2.frc.mshr=separate "$@"
run frc_noport -s l2.frc.entries="$N" -s l2.frc.mshr=shared -s l2.frc.fill_port_cycles=0 -s l2.frc.swap_port_cycles=0 "$@"
run frc_atmiss -s l2.frc.entries="$N" -s l2.frc.mshr=shared -s l2.frc.victim=at_miss "$@"
awk -v c="$c_conv" -v f="$c_conv_free" -v e="$c_frc_eq" -v a="$c_frc_add" 'BEGIN {
	printf "gain of frc_add over conv: %d cycles (%.1f %%)\n", c - a, 100 * (c - a) / c
	printf "  latency off the miss path (conv - conv_free): %d\n", c - f
	printf "  capacity (frc_eq - frc_add):                  %d\n", e - a
	printf "  rest of frc_eq (victim alive, never transient, beyond the latency): %d\n", (c - e) - (c - f)
}'
