#!/bin/sh
# rf.shifts of every built-in kernel at default size on
#   $B gtx480 -w KERNEL -s rf.kind=racetrack -s core.scheduler=S --run --stats FILE
# under GTO, RMWS and LRR (docs/EXPERIMENTS.md, "Policy fidelity", RMWS).
# With OLD set to another build, each cell is "OLD -> B" (the kernels are
# embedded in each binary, so OLD runs its own kernel bodies):
#   OLD=/tmp/gpustep.main B=build/gpustep sh tools/rmws_kernels.sh
# Prints a markdown table; the last column is RMWS against GTO in % (B).
B=${B:-build/gpustep}
T=$(mktemp -d "${TMPDIR:-/tmp}/rmws_kernels.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$(dirname "$0")/.." || exit 1
# shifts BIN KERNEL SCHEDULER: rf.shifts of one run
shifts() {
	"$1" gtx480 -w "$2" -s rf.kind=racetrack -s core.scheduler="$3" --run --stats "$T/s.json" >/dev/null 2>"$T/err" ||
		{ echo "rmws_kernels: $2 $3: $(cat "$T/err")" >&2; exit 1; }
	sed -n 's/^ *"rf.shifts": \([0-9]*\),\{0,1\}$/\1/p' "$T/s.json"
}
echo "| kernel | GTO | RMWS | LRR | RMWS vs GTO |"
echo "| --- | ---: | ---: | ---: | ---: |"
for f in configs/workloads/*.json; do
	k=$(basename "$f" .json)
	row="| $k |"
	for sc in gto rmws lrr; do
		v=$(shifts "$B" "$k" $sc) || exit 1
		eval "new_$sc=$v"
		if [ -n "$OLD" ]; then
			o=$(shifts "$OLD" "$k" $sc) || exit 1
			row="$row $o -> $v |"
		else
			row="$row $v |"
		fi
	done
	# shellcheck disable=SC2154 # new_gto and new_rmws are set by the eval above
	echo "$row $(awk -v a="$new_gto" -v b="$new_rmws" 'BEGIN { if (a > 0) printf "%+.1f %%", (b - a) / a * 100; else printf "-" }') |"
done
