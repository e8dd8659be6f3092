#!/bin/sh
# Which of gtx480's 2026-12-06 rebuild changes moves a comparison: the same
# A-vs-B comparison on the rebuilt preset, then with one change undone at a
# time, then with all undone (the machine before the rebuild, to the cycle
# for the runs checked in docs/EXPERIMENTS.md). One markdown row per call:
#
#   B=build/gpustep sh tools/rebuild_ablation.sh STAT "KERNEL [OPTIONS]" "A OPTIONS" "B OPTIONS"
#
# Each cell is (B - A) / A of STAT (a stats name, e.g. sim.ipc, rf.shifts)
# over two runs `$B gtx480 -w KERNEL OPTIONS {A|B} UNDO --run --stats FILE`.
# With HEADER=1 it prints the table's header first.
#
#   sh tools/rebuild_ablation.sh table
#
# prints the table of docs/EXPERIMENTS.md "Policy fidelity", "On the rebuilt
# gtx480": the header and the five comparisons of the Done-when checks.
B=${B:-build/gpustep}
if [ "${1:-}" = table ]; then
	me=$0
	HEADER=1 sh "$me" rf.shifts "matmul_tiled -p n=256 -s rf.kind=racetrack" "-s core.scheduler=gto" "-s core.scheduler=rmws" || exit 1
	for w in "vws_thrash" "vws_thrash -p n=153600 -p reps=4"; do
		for d in round_robin serial; do
			HEADER=0 sh "$me" sim.ipc "$w -s core.cta_dispatch=$d" "-s core.scheduler=gto" "-s core.scheduler=vws" || exit 1
		done
	done
	exit 0
fi
[ $# -eq 4 ] || { echo "usage: rebuild_ablation.sh STAT \"KERNEL [OPTIONS]\" \"A OPTIONS\" \"B OPTIONS\" | table" >&2; exit 2; }
stat=$1 work=$2 a=$3 b=$4
T=$(mktemp -d "${TMPDIR:-/tmp}/rebuild_ablation.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
q16="-s dram.read_queue=16 -s dram.write_queue=16 -s dram.write_high=12 -s dram.write_low=4"
old="-s l1i.enabled=false -s l2.dram_latency=0 -s core.schedulers=1 -s core.op_model=warp_busy $q16 -s l2.banks_per_channel=0 -s l2.queue=32 -s icnt.flit_bytes=32 -s core.shmem_latency=24"
if [ "${HEADER:-0}" = 1 ]; then
	echo "| comparison | rebuilt gtx480 | \`l1i.enabled=false\` | \`l2.dram_latency=0\` | \`core.schedulers=1\` | \`core.op_model=warp_busy\` | 16-entry DRAM queues | \`l2.banks_per_channel=0\` | all undone |"
	echo "|---|---|---|---|---|---|---|---|---|"
fi
# val OPTIONS: STAT of one run
val() {
	# shellcheck disable=SC2086 # option lists
	"$B" gtx480 -w $work $1 --run --stats "$T/s.json" >/dev/null 2>"$T/err" || { echo nan; return; }
	sed -n "s/^ *\"$stat\": \([-0-9.e+]*\),\{0,1\}$/\1/p" "$T/s.json"
}
printf '| `%s` %s vs %s, %s |' "$work" "$a" "$b" "$stat"
for undo in "" "-s l1i.enabled=false" "-s l2.dram_latency=0" "-s core.schedulers=1" "-s core.op_model=warp_busy" "$q16" "-s l2.banks_per_channel=0" "$old"; do
	va=$(val "$a $undo") vb=$(val "$b $undo")
	awk -v a="$va" -v b="$vb" 'BEGIN { if (a == "nan" || b == "nan" || a == 0) printf " - |"; else printf " %+.1f %% |", (b - a) / a * 100 }'
done
echo
