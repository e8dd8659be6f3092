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
#
# frc_ablation.sh table [BIN]: the two markdown tables of docs/EXPERIMENTS.md
# "Ablation: where the gain comes from": the six runs and the split, for
# rx540 l2_victim_churn and l2_set_burst (-p set_stride=16384), 64 entries.
if [ "${1:-}" = table ]; then
	BIN=${2:-build/gpustep}
	me=$0
	sh "$me" "$BIN" rx540 l2_victim_churn 64 >"${TMPDIR:-/tmp}/frcabl.churn.$$" || exit 1
	sh "$me" "$BIN" rx540 l2_set_burst 64 -p set_stride=16384 >"${TMPDIR:-/tmp}/frcabl.burst.$$" || exit 1
	awk -v burst="${TMPDIR:-/tmp}/frcabl.burst.$$" '
		function pct(g, c) { return sprintf("%.1f %%", 100 * g / c) }
		FNR == 1 { f++ }
		f == 1 && NF == 3 && $1 != "run" { cyc[$1] = $2; order[++n] = $1 }
		END {
			while ((getline l < burst) > 0) { split(l, w, " "); if (w[1] in cyc) bc[w[1]] = w[2] }
			print "| run | churn cycles | burst cycles |"
			print "|---|---|---|"
			for (i = 1; i <= n; i++) printf "| %s | %s | %s |\n", order[i], cyc[order[i]], bc[order[i]]
			print ""
			print "| part | churn | burst |"
			print "|---|---|---|"
			printf "| latency removed from the miss path (conv − conv_free) | %d | %d |\n", cyc["conv"] - cyc["conv_free"], bc["conv"] - bc["conv_free"]
			printf "| capacity (frc_eq − frc_add) | %d | %d |\n", cyc["frc_eq"] - cyc["frc_add"], bc["frc_eq"] - bc["frc_add"]
			printf "| victim lifetime, beyond the latency | %d | %d |\n", cyc["conv_free"] - cyc["frc_eq"], bc["conv_free"] - bc["frc_eq"]
			printf "| total (conv − frc_add) | %d, %s | %d, %s |\n", cyc["conv"] - cyc["frc_add"], pct(cyc["conv"] - cyc["frc_add"], cyc["conv"]),
				bc["conv"] - bc["frc_add"], pct(bc["conv"] - bc["frc_add"], bc["conv"])
		}' "${TMPDIR:-/tmp}/frcabl.churn.$$"
	rc=$?
	rm -f "${TMPDIR:-/tmp}/frcabl.churn.$$" "${TMPDIR:-/tmp}/frcabl.burst.$$"
	exit $rc
fi
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
