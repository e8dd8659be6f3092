#!/bin/sh
# temp_table.sh: the table of docs/EXPERIMENTS.md "TEMP and TBAS (notes 002
# §4, issue 10)": gtx480, interleaved pages with GTO, TEMP (page colouring +
# serial CTA dispatch) and TEMP + TBAS, each with -s dram.local_stats=true.
# Columns: dram.local_ratio, dram.blp, dram.row_hit_rate, dram.access_delay
# (mean DRAM access delay, core cycles), sim.cycles. B=build/gpustep.
# Every run has -s l2.banks_per_channel=0: TEMP chooses a page's channel,
# which gtx480's L2 sub-partitions (fixed by address) do not allow.
B=${B:-build/gpustep}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-temp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files
get() { # file key
	awk -v k="\"$2\":" '$1 == k { v = $2; gsub(/,/, "", v); print v + 0; exit }' "$1"
}
row() { # kernel scheme [gpustep args...]
	k=$1 n=$2
	shift 2
	"$B" gtx480 -w "$k" --run --stats "$tmp/s.json" -s dram.local_stats=true -s l2.banks_per_channel=0 "$@" >/dev/null 2>"$tmp/err" ||
		{ echo "temp_table: $k $n: $(head -1 "$tmp/err")" >&2; exit 1; }
	f=$tmp/s.json
	printf '| %s | %s | %.1f %% | %.2f | %.1f %% | %.1f | %s |\n' "$k" "$n" \
		"$(awk -v v="$(get "$f" dram.local_ratio)" 'BEGIN { print v * 100 }')" "$(get "$f" dram.blp)" \
		"$(awk -v v="$(get "$f" dram.row_hit_rate)" 'BEGIN { print v * 100 }')" "$(get "$f" dram.access_delay)" \
		"$(get "$f" sim.cycles)"
}
T="-s dram.page_alloc=temp -s core.cta_dispatch=serial"
echo "| kernel | scheme | local ratio | BLP | row-hit rate | access delay | cycles |"
echo "|---|---|---|---|---|---|---|"
for k in stencil2d matmul_naive vecadd; do
	row $k "interleave (GTO)"
	# shellcheck disable=SC2086
	row $k "TEMP (GTO)" $T
	# shellcheck disable=SC2086
	row $k "TEMP + TBAS" $T -s core.scheduler=tbas
done
