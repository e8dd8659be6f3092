#!/bin/sh
# How many of a run's locality-bypassing duel switches the interval's leader
# lookups could decide: every l1.duel_switch stop's `why` (docs/CLI.md) gives
# the 95 % margin of the leader groups' miss-rate difference and whether the
# limit l1.bypass_duel_diff lies within it.
#
#   B=build/gpustep sh tools/duel_margin.sh PRESET KERNEL [gpustep options]
#
# Prints: switches, how many had the limit outside the margin (decided by
# the counts) and within it (the counts could not tell the modes apart),
# then the run's IPC. Options go to gpustep (e.g. -p n=512 -s
# l1.bypass_leaders=sms); l1.bypass=locality is set.
B=${B:-build/gpustep}
[ $# -ge 2 ] || { echo "usage: sh tools/duel_margin.sh PRESET KERNEL [options]" >&2; exit 2; }
pre=$1 k=$2
shift 2
T=$(mktemp -d "${TMPDIR:-/tmp}/duel_margin.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
# One `continue` + `why` per switch; after the kernel ends the remaining
# ones only say so. The stats are saved at the end of the same run.
{
	echo "break l1.duel_switch"
	i=0
	while [ $i -lt 2000 ]; do echo continue; echo why; i=$((i + 1)); done
	echo "save stats $T/s.json"
} >"$T/cmds"
"$B" "$pre" -w "$k" -s l1.bypass=locality "$@" -x "$T/cmds" >"$T/out" 2>&1
[ -s "$T/s.json" ] || { echo "duel_margin: $(grep -m1 -v '^(gpustep)' "$T/out")" >&2; exit 1; }
sw=$(grep -c '^stopped by cycle .* l1.duel_switch' "$T/out")
out=$(grep -c 'the limit lies outside it' "$T/out")
in=$(grep -c 'the limit lies within it' "$T/out")
ipc=$(sed -n 's/^ *"sim.ipc": \([-0-9.e+]*\),\{0,1\}$/\1/p' "$T/s.json")
echo "$pre $k $*: switches $sw, decided by the counts $out, within the margin $in, IPC $ipc"
