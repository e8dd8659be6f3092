#!/bin/sh
# model_table.sh [BIN] [accuracy|speed|default]: the reuse-distance model vs
# the cycle simulator tables of docs/EXPERIMENTS.md.
#
# accuracy (default): every built-in kernel on the gtx480 preset's 16 KB and
#   48 KB L1, the same workload on both sides: the model sees every thread
#   (--threads 0) through its one core, the simulator runs one SM
#   (core.sms=1), so one L1 sees all the reuse on both sides. Inputs are
#   sized so that the working sets of the kernels with reuse lie between 16
#   and 48 KB. Markdown rows of miss rates (no wall times: the table is
#   deterministic, so `make experiments-check` can compare it), then the
#   mean absolute difference per size.
# speed: larger inputs on the whole gtx480 (15 SMs) against the model of all
#   threads (--threads 0): wall seconds of each (best of 3) and the ratio.
# default: the same inputs with the model's default input (the first 8192
#   threads, the paper's method) against the simulator of the whole
#   workload: wall seconds (best of 3) and the ratio.
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

case "$MODE" in
accuracy | speed | default) ;;
*)
	echo "model_table.sh: unknown mode '$MODE' (accuracy, speed, default)" >&2
	exit 2
	;;
esac

if [ "$MODE" = speed ] || [ "$MODE" = default ]; then
	thr_opt="--threads 0"
	[ "$MODE" = default ] && thr_opt=
	if [ "$MODE" = speed ]; then
		echo "| kernel | parameters | threads | model s | sim s (15 SMs) | sim / model |"
	else
		echo "| kernel | parameters | threads modelled | model s | sim s (15 SMs) | sim / model |"
	fi
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
			# shellcheck disable=SC2086
			r=$(run -w "$k" "$@" $thr_opt)
			best_m=$(echo "$r $best_m" | awk '{ print (($3 < $5) ? $3 : $5) }')
			best_s=$(echo "$r $best_s" | awk '{ print (($4 < $5) ? $4 : $5) }')
		done
		# shellcheck disable=SC2086
		thr=$("$BIN" model gtx480 -w "$k" "$@" $thr_opt --no-sim --no-ablation | sed -n 's/.* of all \([0-9]*\) of .*/\1/p')
		if [ "$MODE" = default ]; then
			# shellcheck disable=SC2086
			thr=$("$BIN" model gtx480 -w "$k" "$@" --no-sim --no-ablation | sed -n 's/.* the first \([0-9]*\) of \([0-9]*\) threads.*/\1 of \2/p' | head -1)
		fi
		echo "$k|$*|$thr|$best_m|$best_s" | awk -F'|' '{ p = $2; gsub(/-p /, "", p)
			printf "| %s | %s | %s | %.4f | %.4f | %.1fx |\n", $1, p, $3, $4, $5, ($4 > 0 ? $5 / $4 : 0) }'
	done
	exit 0
fi

echo "| kernel | parameters | L1 | model miss % | simulated miss % | abs. diff |"
echo "|---|---|---|---|---|---|"
accuracy_inputs | while read -r k params; do
	for l1 in 16 48; do
		extra=""
		[ "$l1" = 48 ] && extra="-s l1.sets=64 -s l1.ways=6"
		# shellcheck disable=SC2086
		r=$(run -w "$k" $params $extra -s core.sms=1 --threads 0)
		p=$(echo "$params" | sed 's/-p //g')
		echo "$k|${p:--}|$l1|$r" | awk -F'|' '{ split($4, v, " "); d = v[1] - v[2]; if (d < 0) d = -d
			printf "| %s | %s | %s KB | %.1f | %.1f | %.1f |\n", $1, $2, $3, v[1], v[2], d }'
	done
done | tee "$TMP/rows"
echo
awk -F'|' '{ gsub(/ /, "", $4); n[$4]++; d[$4] += $7 } END {
	for (l in n) printf "%s - mean absolute difference, %d KB L1: %.1f points over %d kernels\n", l + 0, l + 0, d[l] / n[l], n[l] }' "$TMP/rows" |
	sort -n | cut -d' ' -f2-
