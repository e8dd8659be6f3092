#!/bin/sh
# model_table.sh [BIN] [accuracy|speed]: the reuse-distance model vs the cycle
# simulator tables of docs/EXPERIMENTS.md.
#
# accuracy (default): every built-in kernel on the gtx480 preset's 16 KB and
#   48 KB L1, the same workload on both sides: the model sees every thread
#   (--threads 0) through its one core, the simulator runs one SM
#   (core.sms=1), so one L1 sees all the reuse on both sides. Inputs are
#   sized so that the working sets of the kernels with reuse lie between 16
#   and 48 KB. Markdown rows, then the mean absolute difference per size.
# speed: larger inputs on the whole gtx480 (15 SMs) against the model of all
#   threads (--threads 0): wall seconds of each (best of 3) and the ratio.
BIN=${1:-build/gpustep}
MODE=${2:-accuracy}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/model_table.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files

# kernel and its parameters (none: the kernel's defaults)
accuracy_inputs() {
	"$BIN" --list-kernels | awk '{ print $1 }' | while read -r k; do
		case "$k" in
		bfs_like) echo "$k -p n=8192" ;;
		gather_random) echo "$k -p n=16384 -p m=8192" ;;
		matmul_naive | matmul_tiled) echo "$k -p n=128" ;;
		stencil2d) echo "$k -p n=1024" ;;
		*) echo "$k" ;;
		esac
	done
}

# run LABEL ARGS...: one `gpustep model` run, its numbers as "m s mt st"
run() {
	"$BIN" model gtx480 "$@" --no-ablation 2>"$TMP/err" </dev/null | awk '
		/^model miss rate/ { m = $4 * 100 }
		/^simulated miss rate/ { s = $4 * 100 }
		/^model time/ { mt = $3 }
		/^simulation time/ { st = $3 }
		END { printf "%.1f %.1f %.4f %.4f\n", m, s, mt, st }'
}

if [ "$MODE" = speed ]; then
	echo "| kernel | parameters | threads | model s | sim s (15 SMs) | sim / model |"
	echo "|---|---|---|---|---|---|"
	for in in "matmul_naive -p n=256" "matmul_tiled -p n=256" "stencil2d -p n=2048" "vecadd -p n=1048576" \
		"gather_random -p n=262144" "bfs_like -p n=65536" "transpose_naive -p n=512" "reduction -p n=1048576"; do
		# shellcheck disable=SC2086
		set -- $in
		k=$1
		shift
		best_m=999999 best_s=999999
		for rep in 1 2 3; do
			# shellcheck disable=SC2046
			r=$(run -w "$k" "$@" --threads 0)
			best_m=$(echo "$r $best_m" | awk '{ print (($3 < $5) ? $3 : $5) }')
			best_s=$(echo "$r $best_s" | awk '{ print (($4 < $5) ? $4 : $5) }')
		done
		thr=$("$BIN" model gtx480 -w "$k" "$@" --threads 0 --no-sim --no-ablation | sed -n 's/.* of all \([0-9]*\) of .*/\1/p')
		echo "$k|$*|$thr|$best_m|$best_s" | awk -F'|' '{ p = $2; gsub(/-p /, "", p)
			printf "| %s | %s | %s | %.4f | %.4f | %.1fx |\n", $1, p, $3, $4, $5, ($4 > 0 ? $5 / $4 : 0) }'
	done
	exit 0
fi

echo "| kernel | parameters | L1 | model miss % | simulated miss % | abs. diff | model s | sim s | sim / model |"
echo "|---|---|---|---|---|---|---|---|---|"
accuracy_inputs | while read -r k params; do
	for l1 in 16 48; do
		extra=""
		[ "$l1" = 48 ] && extra="-s l1.sets=64 -s l1.ways=6"
		# shellcheck disable=SC2086
		r=$(run -w "$k" $params $extra -s core.sms=1 --threads 0)
		p=$(echo "$params" | sed 's/-p //g')
		echo "$k|${p:--}|$l1|$r" | awk -F'|' '{ split($4, v, " "); d = v[1] - v[2]; if (d < 0) d = -d
			printf "| %s | %s | %s KB | %.1f | %.1f | %.1f | %.4f | %.4f | %s |\n", $1, $2, $3, v[1], v[2], d, v[3], v[4],
				(v[3] > 0 ? sprintf("%.0fx", v[4] / v[3]) : "-") }'
	done
done | tee "$TMP/rows"
awk -F'|' '{ gsub(/ /, "", $4); n[$4]++; d[$4] += $7; m += $8; s += $9 } END {
	for (l in n) printf "mean absolute difference, %s: %.1f points over %d kernels\n", l, d[l] / n[l], n[l]
	printf "total time: model %.4f s, simulator %.4f s (%.1fx)\n", m, s, (m > 0 ? s / m : 0) }' "$TMP/rows"
