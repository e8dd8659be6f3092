#!/bin/sh
# numa_table.sh: the tables of docs/EXPERIMENTS.md "TEMP on a NUMA fabric"
# (issue 37): TEMP, TEMP+TBAS and TEMP+CCWS against CCWS on gtx480, on the
# uniform crossbar and on the NUMA fabric (dram.numa_nodes = 15, one SM per
# node as the thesis counts local accesses; dram.numa_latency LAT core
# cycles, dram.numa_link_bytes LINK bytes per cycle), then the ablation of
# TEMP's parts on the fabric. TEMP needs l2.banks_per_channel = 0 on gtx480
# (its sub-partitions are refused with TEMP), so every run sets it.
# Usage: sh tools/numa_table.sh [LAT [LINK]]   (defaults 100 and 32)
# B=path/to/gpustep overrides the binary.
LAT=${1:-100}
LINK=${2:-32}
case "$LAT$LINK" in *[!0-9]*) echo "numa_table: LAT and LINK are numbers" >&2; exit 2 ;; esac
B=${B:-${GPUSTEP:-build/gpustep}}
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-numa.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files

BASE="-s l2.banks_per_channel=0 -s dram.local_stats=true"
NUMA="-s dram.numa_nodes=15 -s dram.numa_latency=$LAT -s dram.numa_link_bytes=$LINK"
T="-s dram.page_alloc=temp -s core.cta_dispatch=serial"

run() { # name args...: prints "cycles local_ratio remote_delay"
	n=$1
	shift
	# shellcheck disable=SC2086
	"$B" gtx480 $BASE "$@" --run --stats "$tmp/$n.json" >/dev/null 2>"$tmp/$n.err" || {
		echo "numa_table: $B gtx480 $BASE $* failed:" >&2
		cat "$tmp/$n.err" >&2
		exit 1
	}
}
stat() { # name key
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stats"].get(sys.argv[2], 0))' "$tmp/$1.json" "$2"
}
vs() { # a b: a's cycles against b's, in percent
	python3 -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print(f"{100 * (a / b - 1):+.1f} %")' "$1" "$2"
}
pct() {
	python3 -c 'import sys; print(f"{100 * float(sys.argv[1]):.0f} %")' "$1"
}

KERNELS="stencil2d:-p n=512
matmul_naive:-p n=128
vecadd:-p n=262144"

echo "*Each cell is"
echo "\`$B gtx480 -w KERNEL ARGS $BASE [FABRIC] SCHEME --run\`; FABRIC is"
echo "\`$NUMA\`, TEMP is \`$T\`. Cells are cycles (against CCWS on the same fabric); \"local\" is dram.local_ratio under TEMP.*"
echo
echo "| kernel | fabric | CCWS | TEMP (GTO) | TEMP+TBAS | TEMP+CCWS | local (CCWS / TEMP) | remote delay (CCWS / TEMP) |"
echo "|---|---|---|---|---|---|---|---|"
echo "$KERNELS" | while IFS=: read -r k args; do
	for fab in uniform numa; do
		F=""
		[ $fab = numa ] && F=$NUMA
		# shellcheck disable=SC2086
		run c -w $k $args $F -s core.scheduler=ccws
		# shellcheck disable=SC2086
		run t -w $k $args $F -s core.scheduler=gto $T
		# shellcheck disable=SC2086
		run tb -w $k $args $F -s core.scheduler=tbas $T
		# shellcheck disable=SC2086
		run tc -w $k $args $F -s core.scheduler=ccws $T
		cc=$(stat c sim.cycles)
		line="| $k $args | $fab | $cc"
		for x in t tb tc; do
			xc=$(stat $x sim.cycles)
			line="$line | $xc ($(vs "$xc" "$cc"))"
		done
		if [ $fab = numa ]; then
			dl="$(printf '%.0f' "$(stat c dram.numa.delay)") / $(printf '%.0f' "$(stat t dram.numa.delay)")"
		else
			dl="-"
		fi
		echo "$line | $(pct "$(stat c dram.local_ratio)") / $(pct "$(stat t dram.local_ratio)") | $dl |"
	done
done

echo
echo "Ablation on the NUMA fabric: TEMP's parts added one at a time to GTO on the interleaved map."
echo
echo "| kernel | GTO | + serial dispatch | + page colouring (round-robin dispatch) | TEMP (both) | TEMP + TBAS | CCWS |"
echo "|---|---|---|---|---|---|---|"
echo "$KERNELS" | while IFS=: read -r k args; do
	# shellcheck disable=SC2086
	run g -w $k $args $NUMA -s core.scheduler=gto
	# shellcheck disable=SC2086
	run s -w $k $args $NUMA -s core.scheduler=gto -s core.cta_dispatch=serial
	# shellcheck disable=SC2086
	run p -w $k $args $NUMA -s core.scheduler=gto -s dram.page_alloc=temp
	# shellcheck disable=SC2086
	run t -w $k $args $NUMA -s core.scheduler=gto $T
	# shellcheck disable=SC2086
	run tb -w $k $args $NUMA -s core.scheduler=tbas $T
	# shellcheck disable=SC2086
	run c -w $k $args $NUMA -s core.scheduler=ccws
	g=$(stat g sim.cycles)
	line="| $k $args | $g"
	for x in s p t tb c; do
		xc=$(stat $x sim.cycles)
		line="$line | $xc ($(vs "$xc" "$g"), local $(pct "$(stat $x dram.local_ratio)"))"
	done
	echo "$line |"
done

echo
echo "How the fabric's latency turns TEMP+TBAS's locality into cycles (link $LINK B/cycle; cells: TEMP+TBAS against CCWS on the same fabric)."
echo
echo "| kernel | uniform | 50 cycles | 100 cycles | 200 cycles |"
echo "|---|---|---|---|---|"
echo "$KERNELS" | while IFS=: read -r k args; do
	line="| $k $args"
	for l in 0 50 100 200; do
		F=""
		[ "$l" -gt 0 ] && F="-s dram.numa_nodes=15 -s dram.numa_latency=$l -s dram.numa_link_bytes=$LINK"
		# shellcheck disable=SC2086
		run c -w $k $args $F -s core.scheduler=ccws
		# shellcheck disable=SC2086
		run tb -w $k $args $F -s core.scheduler=tbas $T
		line="$line | $(vs "$(stat tb sim.cycles)" "$(stat c sim.cycles)")"
	done
	echo "$line |"
done
