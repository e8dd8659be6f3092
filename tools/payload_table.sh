#!/bin/sh
# Crossbar payload table of docs/EXPERIMENTS.md "Crossbar payload: whole line
# vs coalescing segment (gtx480)": every built-in kernel on gtx480 with
# icnt.payload = line and = segment, with the default L1 and with
# l1.bypass = locality. Each cell is one run of
#   $B gtx480 -w KERNEL -s icnt.payload=P [-s l1.bypass=locality] --run --stats FILE
# and shows IPC and icnt.req_flits / icnt.reply_flits.
# Usage: B=build/gpustep sh tools/payload_table.sh   (a few seconds)
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
