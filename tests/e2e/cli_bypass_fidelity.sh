#!/bin/sh
# Locality bypassing at the machine level (issue 19, docs/EXPERIMENTS.md
# "Policy fidelity"), on the gtx480 preset and built-in kernels (each run
# about 0.1 s):
# - gather_random: bypassing adds no more request + reply packets than the
#   bypassed loads themselves (no NACK and retry), with the paper's tie
#   rule (the default since 2026-11-29) that bypasses 3245 loads, and with
#   the cold hold; on gtx480's DRAM queues of before 2026-12-06 (16 entries
#   each, where the L2 refuses often) the bypassed loads the L2 would
#   refuse 135 times (l1.bypass_at_l2=nack) wait instead, and the old
#   behaviour (SM leaders, NACKs) breaks the bound, so the bound is not
#   vacuous; and with the tie rule the streaming kernel gains (the paper's
#   case: a no-reuse kernel runs at least as fast as the baseline);
# - matmul_tiled (cache-friendly): dueling keeps the loss under 1 % IPC on
#   the preset's payload; with icnt.payload = line and the cold hold no
#   dueling loses more than 1 % and dueling does better, so the bound is
#   not vacuous.
. "$(dirname "$0")/lib.sh"
T=$E2E_TMP

# run NAME KERNEL OPTIONS...: gtx480, stats to $T/NAME.json (lib.sh), with
# instructions always there (l1i.enabled=false), the machine these numbers
# and docs/EXPERIMENTS.md's were measured on: with the preset's instruction
# fetch (2026-12-06) gather_random bypasses 3854 loads under the old rule
# and adds only 3358 packets, so the old rule no longer shows the bound is
# not vacuous
run() { stats_run gtx480 "$@" -s l1i.enabled=false; }
# stat NAME KEY: a number from $T/NAME.json
stat() { stats_num "$T/$1.json" "$2"; }
packets() { echo $(($(stat "$1" icnt.req_packets) + $(stat "$1" icnt.reply_packets))); }

run none gather_random -s l1.bypass=none
run hold gather_random -s l1.bypass=locality -s l1.bypass_duel_cold_hold=true
run tie gather_random -s l1.bypass=locality
# the old behaviour on the DRAM queues gtx480 had before 2026-12-06 (16
# each): with SM2_GTX480's 64-entry FR-FCFS queues the L2 refuses far fewer
# loads (574 NACKs against 1768) and the old behaviour adds 1246 packets for
# 3202 bypasses, under the bound, so the bound's non-vacuity is shown where
# the L2 refuses often
Q16="-s dram.read_queue=16 -s dram.write_queue=16 -s dram.write_high=12 -s dram.write_low=4"
run none16 gather_random -s l1.bypass=none $Q16
run tie16 gather_random -s l1.bypass=locality $Q16
run tnack gather_random -s l1.bypass=locality -s l1.bypass_at_l2=nack $Q16
run old gather_random -s l1.bypass=locality -s l1.bypass_leaders=sms -s l1.bypass_at_l2=nack $Q16
for v in hold tie; do
	byp=$(stat $v l1.bypasses)
	add=$(($(packets $v) - $(packets none)))
	[ "$byp" -gt 0 ] || fail "$v: no load bypassed"
	[ "$add" -le "$byp" ] || fail "$v: $add packets added for $byp bypassed loads"
done
[ "$(stat hold l1.nacks)" = 0 ] || fail "hold: $(stat hold l1.nacks) NACKs"
awk -v a="$(stat none sim.ipc)" -v b="$(stat tie sim.ipc)" 'BEGIN { exit !(b > a) }' ||
	fail "gather_random: the tie rule's IPC $(stat tie sim.ipc) not above none's $(stat none sim.ipc)"
# waiting in the L2's queue instead of a NACK removes (nearly) every retry:
# the two left are an L1 fetch and a store (set_all_transient), which
# l1.bypass_at_l2 does not cover
n=$(stat tie16 l1.nacks) nn=$(stat tnack l1.nacks)
[ "$nn" -gt $((10 * n + 10)) ] || fail "tie: $n NACKs waiting at the L2, $nn with l1.bypass_at_l2=nack"
# the NACK-and-retry behaviour of before issue 19 adds more than one packet per bypass
add=$(($(packets old) - $(packets none16)))
[ "$add" -gt "$(stat old l1.bypasses)" ] || fail "old: only $add packets added for $(stat old l1.bypasses) bypasses"

# matmul_tiled on both crossbar payloads (icnt.payload, MODEL.md "Crossbar"):
# with `line` (a bypassed load's reply is a whole line) every set decoupled
# loses more than 1 %, so the 1 % bound is not vacuous; with the preset's
# `segment` a bypassed 64 B tile row carries 64 B, bypassing everything
# costs only about 0.3 % (EXPERIMENTS.md "Crossbar payload"), less than
# the tie rule's follower switches at cold intervals (about 0.9 %), so only
# the 1 % bound applies there. `line` runs with the cold hold (there the
# tie rule's switches cost 1.7 %, EXPERIMENTS.md "The dueling's tie rule"),
# under which dueling must do no worse than no dueling.
for pl in line segment; do
	h=false
	[ $pl = line ] && h=true
	run mnone$pl matmul_tiled -s l1.bypass=none -s icnt.payload=$pl
	run mloc$pl matmul_tiled -s l1.bypass=locality -s icnt.payload=$pl -s l1.bypass_duel_cold_hold=$h
	run mall$pl matmul_tiled -s l1.bypass=locality -s l1.bypass_duel=false -s icnt.payload=$pl
	a=$(stat mnone$pl sim.ipc) b=$(stat mloc$pl sim.ipc) c=$(stat mall$pl sim.ipc)
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(b >= 0.99 * a) }' ||
		fail "matmul_tiled $pl: locality IPC $b more than 1 % under none ($a)"
	[ $pl = segment ] || awk -v b="$b" -v c="$c" 'BEGIN { exit !(c <= b) }' ||
		fail "matmul_tiled $pl: without dueling IPC $c above dueling's $b"
done
[ "$(stat mlocline l1.duel_switches)" = 0 ] || fail "matmul_tiled line: followers switched $(stat mlocline l1.duel_switches) times under the cold hold"
awk -v a="$(stat mnoneline sim.ipc)" -v c="$(stat mallline sim.ipc)" 'BEGIN { exit !(c < 0.99 * a) }' ||
	fail "matmul_tiled line: without dueling IPC $(stat mallline sim.ipc), not under 99 % of none ($(stat mnoneline sim.ipc))"
exit 0
