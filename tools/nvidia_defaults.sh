#!/bin/sh
# The NVIDIA presets' two keys set to GPGPU-Sim's behaviour on 2026-12-06
# (l2.sharers = off, l2.evict_order = overlap; docs/CONFIG.md "Keys
# GPGPU-Sim does not name"), one at a time: cycles (sim.cycles) of each
# built-in kernel on gtx480 and titanv with the FRC thesis's defaults both
# restored (before), with only one of the two changes, and as the preset
# now is; the % is against before. The tables of docs/EXPERIMENTS.md
# "NVIDIA presets: what GPGPU-Sim's L2 does where its configs are silent".
#
#   sh tools/nvidia_defaults.sh [OPTIONS...]
#
# prints the markdown table (build/gpustep, or $GPUSTEP when set); OPTIONS
# (e.g. -s l2.sets=4, an L2 small enough to replace lines the L1s hold)
# go to every run.
B=${GPUSTEP:-build/gpustep}
opts="$*"
T=$(mktemp -d "${TMPDIR:-/tmp}/nvidia_defaults.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cyc() { # PRESET KERNEL OPTIONS...: sim.cycles of one run
	p=$1 k=$2
	shift 2
	# shellcheck disable=SC2086 # option list
	"$B" "$p" -w "$k" $opts "$@" --run --stats "$T/s.json" >/dev/null 2>"$T/err" || { echo nan; return; }
	sed -n 's/^ *"sim.cycles": \([0-9]*\),\{0,1\}$/\1/p' "$T/s.json"
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b == "nan" || a == 0) printf "-"; else printf "%+.1f %%", (b - a) / a * 100 }'; }
echo "| preset | kernel | before: \`l2.sharers=exact\`, \`l2.evict_order=serial\` | \`l2.sharers=off\` only | \`l2.evict_order=overlap\` only | now: both |"
echo "|---|---|---|---|---|---|"
for p in gtx480 titanv; do
	for k in vecadd stencil2d gather_random vws_thrash matmul_tiled; do
		b=$(cyc $p $k -s l2.sharers=exact -s l2.evict_order=serial)
		s=$(cyc $p $k -s l2.evict_order=serial)
		e=$(cyc $p $k -s l2.sharers=exact)
		n=$(cyc $p $k)
		echo "| $p | $k | $b | $s ($(pct "$b" "$s")) | $e ($(pct "$b" "$e")) | $n ($(pct "$b" "$n")) |"
	done
done
