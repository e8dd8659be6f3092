#!/bin/sh
# Crossbar payload table of docs/EXPERIMENTS.md "Crossbar payload: whole line
# vs coalescing segment (gtx480)": every built-in kernel on gtx480 with
# icnt.payload = line and = segment, with the default L1 and with
# l1.bypass = locality. Each cell is one run of
#   $B gtx480 -w KERNEL -s icnt.payload=P [-s l1.bypass=locality] --run --stats FILE
# and shows IPC and icnt.req_flits / icnt.reply_flits.
# Usage: B=build/gpustep sh tools/payload_table.sh   (a few seconds)
#        B=build/gpustep sh tools/payload_table.sh gain   (locality against none, per payload)
B=${B:-build/gpustep}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# cell KERNEL "OPTIONS": " IPC | req/reply |" of one run
cell() {
	# shellcheck disable=SC2086
	if ! $B gtx480 -w "$1" $2 --run --stats "$tmp/s.json" >/dev/null 2>"$tmp/err"; then
		printf ' failed | - |'
		return
	fi
	python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["stats"]
print(" %.3f | %d / %d |" % (s["sim.ipc"], s["icnt.req_flits"], s["icnt.reply_flits"]), end="")' "$tmp/s.json"
}

# gain: locality bypassing against none on the kernels it moves, per payload:
# "IPC none → IPC locality (change)" for line and for segment.
if [ "${1:-}" = gain ]; then
	ipc() { # KERNEL "OPTIONS": sim.ipc of one run, 4 decimals
		# shellcheck disable=SC2086
		$B gtx480 -w "$1" $2 --run --stats "$tmp/s.json" >/dev/null 2>"$tmp/err" || { echo "payload_table: $1 $2: $(head -1 "$tmp/err")" >&2; exit 1; }
		python3 -c 'import json, sys; print("%.4f" % json.load(open(sys.argv[1]))["stats"]["sim.ipc"])' "$tmp/s.json"
	}
	echo "| kernel | line | segment |"
	echo "|---|---|---|"
	for k in bfs_like gather_random matmul_naive matmul_tiled stencil2d vws_thrash; do
		row="| $k |"
		for p in line segment; do
			a=$(ipc "$k" "-s icnt.payload=$p -s l1.bypass=none") || exit 1
			b=$(ipc "$k" "-s icnt.payload=$p -s l1.bypass=locality") || exit 1
			row="$row $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%s → %s (%+.1f %%)", a, b, (b / a - 1) * 100 }') |"
		done
		echo "$row"
	done
	exit 0
fi
[ $# -eq 0 ] || { echo "payload_table.sh: unknown argument '$1' (none, or gain)" >&2; exit 2; }

for byp in "" "-s l1.bypass=locality"; do
	echo "### gtx480${byp:+ $byp}: IPC and icnt.req_flits / icnt.reply_flits"
	echo
	echo "| kernel | IPC line | flits line | IPC segment | flits segment |"
	echo "|---|---|---|---|---|"
	for k in $($B --list-kernels | awk '{print $1}'); do
		printf '| %s |' "$k"
		cell "$k" "-s icnt.payload=line $byp"
		cell "$k" "-s icnt.payload=segment $byp"
		echo
	done
	echo
done
