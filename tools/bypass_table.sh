#!/bin/sh
# bypass_table.sh: the tables of docs/EXPERIMENTS.md "Locality-driven L1
# bypassing (notes 004, issue 10)": gtx480, seven built-in kernels under
# l1.bypass = none, all, locality and mrpb (the stall-based baseline).
# First table: sim.ipc per mode, locality against none, l1.hit_rate none ->
# locality, and the L2 requests of none / locality as icnt.req_packets minus
# l2.nacks. Second table, what reaches the L2 per mode: icnt.req_packets,
# l2.nacks, l2.head_waits + l2.bypass_waits (requests that waited at the
# head of an L2 input queue), l1.bypasses, l1.mshr_full.
# Usage: B=build/gpustep [EXTRA="-s k=v ..."] tools/bypass_table.sh
# EXTRA is appended to every run (e.g. the settings before issue 19:
# EXTRA="-s l1.bypass_leaders=sms -s l1.bypass_at_l2=nack
#        -s l1.bypass_duel_cold_hold=false -s l2.when_busy=nack").
B=${B:-build/gpustep}
EXTRA=${EXTRA:-}
K=${K:-gather_random strided transpose_naive matmul_naive bfs_like stencil2d matmul_tiled}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-bypass.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files
get() { # file key
	awk -v k="\"$2\":" '$1 == k { v = $2; gsub(/,/, "", v); print v + 0; exit }' "$1"
}
for k in $K; do
	for m in none all locality mrpb; do
		# shellcheck disable=SC2086
		"$B" gtx480 -w "$k" -s l1.bypass=$m $EXTRA --run --stats "$tmp/$k.$m.json" \
			>/dev/null 2>"$tmp/err" || { echo "$k $m failed: $(head -1 "$tmp/err")" >&2; exit 1; }
	done
done
echo "| kernel | none IPC | all IPC | locality IPC | mrpb IPC | locality vs none | L1 hit none → loc | L2 requests none / loc (packets − NACKs) |"
echo "|---|---|---|---|---|---|---|---|"
for k in $K; do
	f=$tmp/$k
	awk -v k="$k" -v n="$(get "$f.none.json" sim.ipc)" -v a="$(get "$f.all.json" sim.ipc)" \
		-v l="$(get "$f.locality.json" sim.ipc)" -v m="$(get "$f.mrpb.json" sim.ipc)" \
		-v hn="$(get "$f.none.json" l1.hit_rate)" -v hl="$(get "$f.locality.json" l1.hit_rate)" \
		-v pn="$(get "$f.none.json" icnt.req_packets)" -v nn="$(get "$f.none.json" l2.nacks)" \
		-v pl="$(get "$f.locality.json" icnt.req_packets)" -v nl="$(get "$f.locality.json" l2.nacks)" \
		'BEGIN { printf "| %s | %.4f | %.4f | %.4f | %.4f | %+.1f %% | %.2f %% → %.2f %% | %d / %d |\n",
			k, n, a, l, m, 100 * (l / n - 1), 100 * hn, 100 * hl, pn - nn, pl - nl }'
done
echo
echo "| kernel | mode | packets | l2.nacks | L2 head waits | l1.bypasses | l1.mshr_full |"
echo "|---|---|---|---|---|---|---|"
for k in $K; do
	for m in none all locality mrpb; do
		f=$tmp/$k.$m.json
		printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$k" "$m" "$(get "$f" icnt.req_packets)" \
			"$(get "$f" l2.nacks)" "$(($(get "$f" l2.head_waits) + $(get "$f" l2.bypass_waits)))" \
			"$(get "$f" l1.bypasses)" "$(get "$f" l1.mshr_full)"
	done
done
