#!/bin/sh
# Locality bypassing at the machine level (issue 19, docs/EXPERIMENTS.md
# "Policy fidelity"), on the gtx480 preset and built-in kernels (each run
# about 0.1 s):
# - gather_random: bypassing adds no more request + reply packets than the
#   bypassed loads themselves (no NACK and retry), also with the paper's tie
#   rule that bypasses 20x more loads, whose loads the L2 would otherwise
#   refuse about 1100 times (l1.bypass_at_l2=nack); the old behaviour (SM leaders, NACKs)
#   breaks the bound, so the bound is not vacuous;
# - matmul_tiled (cache-friendly): dueling keeps the loss under 1 % IPC,
#   while every set decoupled (no dueling) loses more than that with
#   icnt.payload = line, and does no better than dueling with segment.
. "$(dirname "$0")/lib.sh"
T=$E2E_TMP

# run NAME KERNEL OPTIONS...: stats to $T/NAME.json
run() {
	name=$1 k=$2
	shift 2
	"$BIN" gtx480 -w "$k" "$@" --run --stats "$T/$name.json" >/dev/null 2>"$T/err" || fail "$name: exit $? ($(cat "$T/err"))"
}
# stat NAME KEY: a number from $T/NAME.json
stat() {
	v=$(sed -n "s/^ *\"$2\": \([-0-9.e+]*\),\{0,1\}$/\1/p" "$T/$1.json")
	[ -n "$v" ] || fail "$1: no stat $2"
	echo "$v"
}
packets() { echo $(($(stat "$1" icnt.req_packets) + $(stat "$1" icnt.reply_packets))); }

run none gather_random -s l1.bypass=none
run loc gather_random -s l1.bypass=locality
run tie gather_random -s l1.bypass=locality -s l1.bypass_duel_cold_hold=false
run tnack gather_random -s l1.bypass=locality -s l1.bypass_duel_cold_hold=false -s l1.bypass_at_l2=nack
run old gather_random -s l1.bypass=locality -s l1.bypass_duel_cold_hold=false -s l1.bypass_leaders=sms \
	-s l1.bypass_at_l2=nack
for v in loc tie; do
	byp=$(stat $v l1.bypasses)
	add=$(($(packets $v) - $(packets none)))
	[ "$byp" -gt 0 ] || fail "$v: no load bypassed"
	[ "$add" -le "$byp" ] || fail "$v: $add packets added for $byp bypassed loads"
done
[ "$(stat loc l1.nacks)" = 0 ] || fail "loc: $(stat loc l1.nacks) NACKs"
# waiting in the L2's queue instead of a NACK removes (nearly) every retry:
# the two left are an L1 fetch and a store (set_all_transient), which
# l1.bypass_at_l2 does not cover
n=$(stat tie l1.nacks) nn=$(stat tnack l1.nacks)
[ "$nn" -gt $((10 * n + 10)) ] || fail "tie: $n NACKs waiting at the L2, $nn with l1.bypass_at_l2=nack"
# the NACK-and-retry behaviour of before issue 19 adds more than one packet per bypass
add=$(($(packets old) - $(packets none)))
[ "$add" -gt "$(stat old l1.bypasses)" ] || fail "old: only $add packets added for $(stat old l1.bypasses) bypasses"

# matmul_tiled on both crossbar payloads (icnt.payload, MODEL.md "Crossbar"):
# with `line` (a bypassed load's reply is a whole line) every set decoupled
# loses more than 1 %, so the 1 % bound is not vacuous; with the preset's
# `segment` a bypassed 64 B tile row carries 64 B, bypassing everything
# costs only about 0.3 % (EXPERIMENTS.md "Crossbar payload"), and dueling
# must still do no worse than no dueling.
for pl in line segment; do
	run mnone$pl matmul_tiled -s l1.bypass=none -s icnt.payload=$pl
	run mloc$pl matmul_tiled -s l1.bypass=locality -s icnt.payload=$pl
	run mall$pl matmul_tiled -s l1.bypass=locality -s l1.bypass_duel=false -s icnt.payload=$pl
	a=$(stat mnone$pl sim.ipc) b=$(stat mloc$pl sim.ipc) c=$(stat mall$pl sim.ipc)
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(b >= 0.99 * a) }' ||
		fail "matmul_tiled $pl: locality IPC $b more than 1 % under none ($a)"
	awk -v b="$b" -v c="$c" 'BEGIN { exit !(c <= b) }' ||
		fail "matmul_tiled $pl: without dueling IPC $c above dueling's $b"
	[ "$(stat mloc$pl l1.duel_switches)" = 0 ] || fail "matmul_tiled $pl: followers switched $(stat mloc$pl l1.duel_switches) times"
done
awk -v a="$(stat mnoneline sim.ipc)" -v c="$(stat mallline sim.ipc)" 'BEGIN { exit !(c < 0.99 * a) }' ||
	fail "matmul_tiled line: without dueling IPC $(stat mallline sim.ipc), not under 99 % of none ($(stat mnoneline sim.ipc))"
exit 0
