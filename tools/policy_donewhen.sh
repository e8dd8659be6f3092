#!/bin/sh
# The Done-when checks of issue 19 (docs/EXPERIMENTS.md, "Policy fidelity",
# first table), each from its runs on the gtx480 preset:
#
#   B=build/gpustep sh tools/policy_donewhen.sh [EXTRA -s OPTIONS...]
#
# EXTRA options go to every run (e.g. -s l2.fill_reply=at_once for the old
# model's column). Prints a markdown table, one row per check. About 2 minutes.
B=${B:-build/gpustep}
T=$(mktemp -d "${TMPDIR:-/tmp}/policy_donewhen.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
# run NAME KERNEL OPTIONS...: stats to $T/NAME.json
run() {
	_n=$1 _k=$2
	shift 2
	# shellcheck disable=SC2086 # EXTRA is a list of options
	"$B" gtx480 -w "$_k" "$@" $EXTRA --run --stats "$T/$_n.json" >/dev/null 2>"$T/err" ||
		{ echo "policy_donewhen: $_n: $(cat "$T/err")" >&2; exit 1; }
}
stat() { sed -n "s/^ *\"$2\": \([-0-9.e+]*\),\{0,1\}$/\1/p" "$T/$1.json"; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f %%", (b - a) / a * 100 }'; }
ipc() { awk -v v="$(stat "$1" sim.ipc)" 'BEGIN { printf "%.4f", v }'; }
EXTRA="$*"
echo "| Done-when check | now |"
echo "|---|---|"

run rmws_gto matmul_tiled -p n=256 -s rf.kind=racetrack -s core.scheduler=gto
run rmws_rmws matmul_tiled -p n=256 -s rf.kind=racetrack -s core.scheduler=rmws
a=$(stat rmws_gto rf.shifts) b=$(stat rmws_rmws rf.shifts)
echo "| RMWS vs GTO, \`matmul_tiled -p n=256 -s rf.kind=racetrack\`, rf.shifts | $a -> $b ($(pct "$a" "$b")) |"

# Every built-in kernel at default size: RMWS vs GTO, and LRR as the witness
# of whether any scheduler moves the shifts (a tie RMWS shares with LRR is
# the kernel's, not RMWS's). A tie is the same rf.shifts and rf.shift_cycles
# (one counter alone can coincide in runs that differ, as vecadd's shifts do).
ties=0 differ=0 total=0 names="" odd=0 oddnames=""
for f in configs/workloads/*.json; do
	k=$(basename "$f" .json)
	run g "$k" -s rf.kind=racetrack -s core.scheduler=gto
	run r "$k" -s rf.kind=racetrack -s core.scheduler=rmws
	run l "$k" -s rf.kind=racetrack -s core.scheduler=lrr
	sg="$(stat g rf.shifts)/$(stat g rf.shift_cycles)" sr="$(stat r rf.shifts)/$(stat r rf.shift_cycles)"
	sl="$(stat l rf.shifts)/$(stat l rf.shift_cycles)"
	total=$((total + 1))
	if [ "$sr" != "$sg" ]; then differ=$((differ + 1));
	elif [ "$sl" = "$sg" ]; then ties=$((ties + 1)) names="$names $k";
	else odd=$((odd + 1)) oddnames="$oddnames $k"; fi
done
# A tie where LRR differs is RMWS's score agreeing with GTO's pick (or a
# broken score): count its overrides with `log rf.rmws_pick` (EXPERIMENTS.md).
echo "| RMWS vs GTO at default size, every built-in kernel, rf.shifts and rf.shift_cycles | differ on $differ of $total; tie on $ties where LRR ties too:$names; tie on $odd where LRR differs:${oddnames:- none} |"

for k in stencil2d vws_thrash "vws_thrash -p n=153600 -p reps=4"; do
	row=""
	for d in round_robin serial; do
		# shellcheck disable=SC2086
		run g $k -s core.scheduler=gto -s core.cta_dispatch=$d
		# shellcheck disable=SC2086
		run v $k -s core.scheduler=vws -s core.cta_dispatch=$d
		row="$row $(ipc g) -> $(ipc v) ($(pct "$(stat g sim.ipc)" "$(stat v sim.ipc)")) /"
	done
	echo "| VWS vs GTO, $k, round robin / serial (IPC) |${row% /} |"
done

for k in stencil2d matmul_tiled bfs_like; do
	run n $k -s l1.bypass=none
	run l $k -s l1.bypass=locality
	echo "| locality bypassing vs none, $k (IPC) | $(ipc n) -> $(ipc l) ($(pct "$(stat n sim.ipc)" "$(stat l sim.ipc)")) |"
done
run n gather_random -s l1.bypass=none
run l gather_random -s l1.bypass=locality
pn=$(($(stat n icnt.req_packets) + $(stat n icnt.reply_packets)))
pl=$(($(stat l icnt.req_packets) + $(stat l icnt.reply_packets)))
echo "| gather_random packets (req + reply), none / locality | $pn / $pl ($(stat l l1.bypasses) bypasses, $((pl - pn)) packets added) |"
