#!/bin/sh
# shellcheck disable=SC2086 # option lists ($a, $VC, $F, $BURST) are split on purpose
# frc_miss_path.sh [cost|split|fig62|evict_order]...: the small FRC tables of
# docs/EXPERIMENTS.md, as markdown (B=build/gpustep; all four by default):
#   cost        "What the conventional path costs now": l2_victim_churn on
#               the RX540 without an FRC and with 64 entries, equal
#               (l2.frc.mshr=shared) and added (separate) capacity
#   split       "Where an L2 miss's time goes": l2.miss_lat.{conv,frc}.avg_*
#               and frc.evict_lat.avg_* with 0 and 128 entries
#   fig62       "The fig. 6.2 situation": l2_set_burst, one CTA, 3 iterations,
#               one-way L2, fixed memory, FRC off / 4 / 8 entries
#   evict_order l2_victim_churn with l2.evict_order serial / accepted at 8 and
#               32 CTAs
# Every row is one `$B PRESET --run -w KERNEL [OPTIONS] --stats FILE`.
B=${B:-build/gpustep}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-frcpath.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files
run() { # stats-file-name preset kernel [args...]
	n=$1
	shift
	"$B" "$@" --run --stats "$tmp/$n.json" >/dev/null 2>"$tmp/err" || { echo "$*: failed"; cat "$tmp/err"; exit 1; }
}
get() { # name key
	awk -v k="\"$2\":" '$1 == k { v = $2; gsub(/,/, "", v); print v + 0; found = 1; exit }
		END { if (!found) print 0 }' "$tmp/$1.json"
}
f1() { awk -v v="$1" 'BEGIN { printf "%.1f", v }'; }
share() { # name: FRC share of the misses that got a miss-tracking entry
	awk -v a="$(get "$1" l2.miss_lat.frc.misses)" -v b="$(get "$1" l2.miss_lat.conv.misses)" \
		'BEGIN { printf "%.2f", (a + b) ? a / (a + b) : 0 }'
}
VC="rx540 -w l2_victim_churn"
cost() {
	run c0 $VC
	run ce $VC -s l2.frc.mshr=shared -s l2.frc.entries=64
	run ca $VC -s l2.frc.entries=64
	o0=$(get c0 sim.opc)
	echo "| stat | no FRC | 64 entries, equal capacity | 64 entries, added capacity |"
	echo "|---|---|---|---|"
	echo "| \`sim.cycles\` | $(get c0 sim.cycles) | $(get ce sim.cycles) | $(get ca sim.cycles) |"
	for n in ce ca; do
		eval "p_$n=\$(awk -v a=\"\$(get $n sim.opc)\" -v b=\"$o0\" 'BEGIN { printf \"%.3f (%+.1f %%)\", a, (a / b - 1) * 100 }')"
	done
	# shellcheck disable=SC2154
	echo "| \`sim.opc\` | $(awk -v a="$o0" 'BEGIN { printf "%.3f", a }') | $p_ce | $p_ca |"
	for k in avg_inval avg_evict; do
		echo "| \`l2.miss_lat.conv.$k\` | $(f1 "$(get c0 l2.miss_lat.conv.$k)") | $(f1 "$(get ce l2.miss_lat.conv.$k)") | $(f1 "$(get ca l2.miss_lat.conv.$k)") |"
	done
	echo "| \`l2.miss_lat.frc.avg_inval\` / \`avg_evict\` | – | $(get ce l2.miss_lat.frc.avg_inval) / $(get ce l2.miss_lat.frc.avg_evict) | $(get ca l2.miss_lat.frc.avg_inval) / $(get ca l2.miss_lat.frc.avg_evict) |"
	echo "| misses on the FRC path (\`share_h\`) | 0 | $(share ce) | $(share ca) |"
	echo
}
split() {
	run s0 $VC
	run se $VC -s l2.frc.mshr=shared -s l2.frc.entries=128
	run sa $VC -s l2.frc.entries=128
	echo "| | conv inval | conv evict | conv contention | conv dram | FRC contention | FRC dram | \`frc.evict_lat\` inval / writeback | conv / FRC misses |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for n in s0 se sa; do
		case $n in s0) l="no FRC" ;; se) l="128, equal" ;; sa) l="128, added" ;; esac
		row="| $l |"
		fm=$(get $n l2.miss_lat.frc.misses)
		for k in conv.avg_inval conv.avg_evict conv.avg_contention conv.avg_dram frc.avg_contention frc.avg_dram; do
			case $k in frc.*) [ "$fm" = 0 ] && { row="$row – |"; continue; } ;; esac
			row="$row $(f1 "$(get $n l2.miss_lat.$k)") |"
		done
		ev="$(f1 "$(get $n frc.evict_lat.avg_inval)") / $(f1 "$(get $n frc.evict_lat.avg_writeback)")"
		[ "$fm" = 0 ] && ev="–"
		echo "$row $ev | $(get $n l2.miss_lat.conv.misses) / $fm |"
	done
	echo
}
fig62() {
	F="teaching -w l2_set_burst -p ctas=1 -p iters=3 -s l2.ways=1 -s mem.model=fixed"
	run g0 $F
	run g4 $F -s l2.frc.entries=4 -s l2.frc.ways=4
	run g8 $F -s l2.frc.entries=8 -s l2.frc.ways=8
	echo "| FRC | cycles | NACKs (\`set_all_transient\`) | mean / max load latency | fallbacks |"
	echo "|---|---|---|---|---|"
	for n in g0 g4 g8; do
		case $n in g0) l=off ;; g4) l="4 entries" ;; g8) l="8 entries" ;; esac
		echo "| $l | $(get $n sim.cycles) | $(get $n l2.nacks) ($(get $n l2.set_all_transient)) | $(f1 "$(get $n core.mem_latency_avg)") / $(get $n core.mem_latency_max) | $(get $n frc.fallbacks) |"
	done
	echo
}
evict_order() {
	echo "| CTAs | serial cycles | accepted cycles | serial / accepted \`conv.avg_evict\` |"
	echo "|---|---|---|---|"
	for c in 8 32; do
		run es $VC -p ctas=$c
		run ea $VC -p ctas=$c -s l2.evict_order=accepted
		echo "| $c | $(get es sim.cycles) | $(get ea sim.cycles) | $(f1 "$(get es l2.miss_lat.conv.avg_evict)") / $(f1 "$(get ea l2.miss_lat.conv.avg_evict)") |"
	done
	echo
}
[ $# -ge 1 ] || set -- cost split fig62 evict_order
for s in "$@"; do
	case $s in
	cost | split | fig62 | evict_order) $s ;;
	*)
		echo "unknown table '$s' (cost split fig62 evict_order)" >&2
		exit 2
		;;
	esac
done
