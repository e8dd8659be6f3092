#!/bin/sh
# bypass_attribution.sh: the tables of docs/EXPERIMENTS.md "Bypass
# attribution: bypassing at all against the locality predictor" (issue 37
# item 4). gtx480, each kernel under l1.bypass = none, all and locality, on
# both crossbar payloads (icnt.payload = segment: a bypassed load's reply
# carries its coalescing segment, as in GPGPU-Sim 3.x; = line: the whole
# line). Every cell is one run of
#   $B gtx480 -w KERNEL [-p k=v] -s icnt.payload=P -s l1.bypass=M --run --stats F
# and the gain of locality bypassing over none splits exactly into
#   locality/none = (all/none) x (locality/all)
# bypassing at all (every load skips the L1, same payload rules) times what
# the predictor adds by choosing which loads skip it. N-IPC = all/none under
# the segment payload classifies a kernel as the paper does (CNF > 1.02,
# CF < 0.98, CI between). The second table is the geometric mean of each
# ratio over the CNF and over the CF kernels, per payload.
# Usage: B=build/gpustep sh tools/bypass_attribution.sh   (K="kernel kernel:p=v,p=v" to choose)
B=${B:-${GPUSTEP:-build/gpustep}}
K=${K:-gather_random bfs_like:n=16384 l2_victim_churn vws_thrash bfs_like matmul_naive stencil2d matmul_tiled strided transpose_naive}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-byattr.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files
get() { # file key
	awk -v k="\"$2\":" '$1 == k { v = $2; gsub(/,/, "", v); print v + 0; exit }' "$1"
}
for spec in $K; do
	k=${spec%%:*}
	params=
	if [ "$k" != "$spec" ]; then
		for p in $(echo "${spec#*:}" | tr ',' ' '); do params="$params -p $p"; done
	fi
	for pay in segment line; do
		for m in none all locality; do
			# shellcheck disable=SC2086
			"$B" gtx480 -w "$k" $params -s icnt.payload=$pay -s l1.bypass=$m --run \
				--stats "$tmp/$spec.$pay.$m.json" >/dev/null 2>"$tmp/err" ||
				{ echo "bypass_attribution: $spec $pay $m failed: $(head -1 "$tmp/err")" >&2; exit 1; }
			get "$tmp/$spec.$pay.$m.json" sim.ipc >"$tmp/$spec.$pay.$m.ipc"
		done
	done
done
echo "| kernel | payload | IPC none | IPC all | IPC locality | N-IPC (all / none, segment) | class | bypassing at all (all vs none) | predictor (locality vs all) | locality vs none |"
echo "|---|---|---|---|---|---|---|---|---|---|"
: >"$tmp/CNF"
: >"$tmp/CF"
: >"$tmp/CI"
for spec in $K; do
	nipc=$(awk -v a="$(cat "$tmp/$spec.segment.all.ipc")" -v n="$(cat "$tmp/$spec.segment.none.ipc")" \
		'BEGIN { printf "%.3f", a / n }')
	cls=$(awk -v x="$nipc" 'BEGIN { print (x > 1.02 ? "CNF" : (x < 0.98 ? "CF" : "CI")) }')
	echo "$spec" >>"$tmp/$cls"
	name=$(echo "$spec" | sed 's/:/ -p /; s/,/ -p /g')
	for pay in segment line; do
		awk -v k="$name" -v p="$pay" -v nipc="$nipc" -v c="$cls" -v n="$(cat "$tmp/$spec.$pay.none.ipc")" \
			-v a="$(cat "$tmp/$spec.$pay.all.ipc")" -v l="$(cat "$tmp/$spec.$pay.locality.ipc")" \
			'BEGIN { printf "| %s | %s | %.4f | %.4f | %.4f | %s | %s | %+.1f %% | %+.1f %% | %+.1f %% |\n",
				k, p, n, a, l, nipc, c, 100 * (a / n - 1), 100 * (l / a - 1), 100 * (l / n - 1) }'
	done
done
echo
echo "| kernels (geometric mean) | payload | bypassing at all (all vs none) | predictor (locality vs all) | locality vs none |"
echo "|---|---|---|---|---|"
for cls in CNF CF; do
	for pay in segment line; do
		for spec in $(cat "$tmp/$cls"); do
			printf '%s %s %s\n' "$(cat "$tmp/$spec.$pay.none.ipc")" "$(cat "$tmp/$spec.$pay.all.ipc")" \
				"$(cat "$tmp/$spec.$pay.locality.ipc")"
		done | awk -v c="$cls" -v p="$pay" -v ks="$(sed 's/:/ -p /; s/,/ -p /g' "$tmp/$cls" | paste -sd, - | sed 's/,/, /g')" '
			{ a += log($2 / $1); l += log($3 / $2); t += log($3 / $1); n++ }
			END { if (n == 0) { printf "| %s: none | %s | - | - | - |\n", c, p; exit }
				printf "| %s (%d): %s | %s | %+.1f %% | %+.1f %% | %+.1f %% |\n", c, n, ks, p,
					100 * (exp(a / n) - 1), 100 * (exp(l / n) - 1), 100 * (exp(t / n) - 1) }'
	done
done
