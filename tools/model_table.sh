#!/bin/sh
# model_table.sh [BIN]: the reuse-distance model vs simulator table of
# docs/EXPERIMENTS.md: every built-in kernel on the gtx480 preset's 16 KB and
# 48 KB L1, markdown rows, then the mean absolute difference per size.
BIN=${1:-build/gpustep}
echo "| kernel | L1 | model miss % | simulated miss % | abs. diff | model s | sim s |"
echo "|---|---|---|---|---|---|---|"
"$BIN" --list-kernels | awk '{ print $1 }' | while read -r k; do
	for l1 in 16 48; do
		extra=""
		[ "$l1" = 48 ] && extra="-s l1.sets=64 -s l1.ways=6"
		# shellcheck disable=SC2086
		"$BIN" model gtx480 -w "$k" $extra --no-ablation 2>/dev/null | awk -v k="$k" -v l1="$l1" '
			/^model miss rate/ { m = $4 * 100 }
			/^simulated miss rate/ { s = $4 * 100 }
			/^model time/ { mt = $3 }
			/^simulation time/ { st = $3 }
			END { d = m - s; if (d < 0) d = -d
			      printf "| %s | %s KB | %.1f | %.1f | %.1f | %.3f | %.3f |\n", k, l1, m, s, d, mt, st }'
	done
done | tee "${TMPDIR:-/tmp}/model_table.$$"
awk -F'|' '{ gsub(/ /, "", $3); n[$3]++; d[$3] += $6 } END {
	for (l in n) printf "mean absolute difference, %s: %.1f points over %d kernels\n", l, d[l] / n[l], n[l] }' \
	"${TMPDIR:-/tmp}/model_table.$$"
rm -f "${TMPDIR:-/tmp}/model_table.$$"
