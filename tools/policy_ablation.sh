#!/bin/sh
# Policy ablations of docs/EXPERIMENTS.md "Policy fidelity" (issue 19): each
# policy's sub-mechanisms switched off one at a time, every scheduler under
# both CTA dispatch modes. Prints markdown tables; every cell is one run of
#   $B gtx480 -w KERNEL OPTIONS --run --stats FILE
# Usage: B=build/gpustep sh tools/policy_ablation.sh [vws|rmws|temp|bypass|bypass_noise|bypass_cost]...
# (all six sections without arguments; about 25 minutes on the shared 2-CPU
# machine). Headings are level 4, as the tables sit in docs/EXPERIMENTS.md.
B=${B:-build/gpustep}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# cell KERNEL "OPTIONS" FORMAT EXPR... : one run; each EXPR is a Python
# expression over stat names (l1.hit_rate*100, icnt.req_packets+icnt.reply_packets)
cell() {
	k=$1 opts=$2 fmt=$3
	shift 3
	# shellcheck disable=SC2086
	$B gtx480 -w $k $opts --run --stats "$tmp/s.json" >/dev/null 2>"$tmp/err" || { printf ' failed |'; return; }
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); s = d.get("stats", d)
import re
ev = lambda e: eval(re.sub(r"[a-z][a-z0-9_]*(\.[a-z0-9_]+)+", lambda m: "s.get(%r, float(\"nan\"))" % m.group(0), e))
v = [ev(e) for e in sys.argv[3:]]
print(" " + (sys.argv[2] % tuple(v)).replace("nan", "-") + " |", end="")' "$tmp/s.json" "$fmt" "$@"
}

vws() {
	echo "#### VWS: IPC (L1 hit rate, mean N_act of SM 0)"
	echo
	echo "| kernel | dispatch | LRR | GTO | IWL | IWL+IntraCL | VWS (pool) |"
	echo "|---|---|---|---|---|---|---|"
	for k in stencil2d matmul_naive bfs_like vws_thrash; do
		for d in round_robin serial; do
			printf '| %s | %s |' "$k" "$d"
			for o in "-s core.scheduler=lrr" "-s core.scheduler=gto" \
				"-s core.scheduler=vws -s core.vws_intracl=false -s core.vws_intercl=false" \
				"-s core.scheduler=vws -s core.vws_intercl=false" "-s core.scheduler=vws"; do
				cell "$k" "$o -s core.cta_dispatch=$d" "%.3f (%.1f %%, %.1f)" sim.ipc l1.hit_rate*100 sm0.vws.window
			done
			echo
		done
	done
	echo
}

# val KERNEL "OPTIONS" EXPR: one run, one number
val() {
	# shellcheck disable=SC2086
	$B gtx480 -w $1 $2 --run --stats "$tmp/v.json" >/dev/null 2>&1 || { echo nan; return; }
	python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1])); s = d.get("stats", d)
print(eval(re.sub(r"[a-z][a-z0-9_]*(\.[a-z0-9_]+)+", lambda m: "s.get(%r, float(\"nan\"))" % m.group(0), sys.argv[2])))' "$tmp/v.json" "$3"
}

# rmws_row KERNEL LABEL OPTIONS: one row of GTO against RMWS (shifts, IPC);
# leaves gs gi ms mi set for the caller.
rmws_row() {
	gs=$(val "$1" "$3 -s core.scheduler=gto" rf.shifts)
	gi=$(val "$1" "$3 -s core.scheduler=gto" sim.ipc)
	ms=$(val "$1" "$3 -s core.scheduler=rmws" rf.shifts)
	mi=$(val "$1" "$3 -s core.scheduler=rmws" sim.ipc)
	python3 -c 'import sys; n, gs, gi, ms, mi = sys.argv[1], *map(float, sys.argv[2:])
d = lambda a, b: "%+.1f %%" % (100 * (a - b) / b) if b else "-"
print("| %s | %d (%.3f) | %d (%.3f) | %s | %s |" % (n, gs, gi, ms, mi, d(ms, gs), d(mi, gi)))' \
		"$2" "$gs" "$gi" "$ms" "$mi"
}

rmws() {
	echo "#### RMWS: rf.shifts (IPC) on a racetrack register file"
	echo
	sed 's/"nregs": [0-9]*/"nregs": 16/' configs/workloads/matmul_tiled.json >"$tmp/matmul_tiled16.json"
	echo "| kernel | remap | GTO | RMWS | RMWS vs GTO shifts | RMWS vs GTO IPC |"
	echo "|---|---|---|---|---|---|"
	for k in "matmul_tiled -p n=256" "$tmp/matmul_tiled16.json -p n=256" matmul_tiled stencil2d matmul_naive reduction; do
		name=$(echo "$k" | sed "s|$tmp/matmul_tiled16.json|matmul_tiled (16 registers)|")
		for remap in eq3_3 contiguous; do
			r="-s rf.kind=racetrack -s rf.remap=$remap"
			gs=$(val "$k" "$r -s core.scheduler=gto" rf.shifts)
			gi=$(val "$k" "$r -s core.scheduler=gto" sim.ipc)
			ms=$(val "$k" "$r -s core.scheduler=rmws" rf.shifts)
			mi=$(val "$k" "$r -s core.scheduler=rmws" sim.ipc)
			python3 -c 'import sys; n, r, gs, gi, ms, mi = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
print("| %s | %s | %d (%.3f) | %d (%.3f) | %+.1f %% | %+.1f %% |" % (n, r, gs, gi, ms, mi, 100 * (ms - gs) / gs, 100 * (mi - gi) / gi))' \
				"$name" "$remap" "$gs" "$gi" "$ms" "$mi"
		done
	done
	echo
	echo "#### RMWS score with the destination write (rf.rmws_score), eq3_3"
	echo
	echo "| kernel | rf.rmws_score | GTO | RMWS | RMWS vs GTO shifts | RMWS vs GTO IPC |"
	echo "|---|---|---|---|---|---|"
	for k in "matmul_tiled -p n=256" matmul_tiled; do
		for sc in reads accesses; do
			r="-s rf.kind=racetrack -s rf.rmws_score=$sc"
			gs=$(val "$k" "$r -s core.scheduler=gto" rf.shifts)
			gi=$(val "$k" "$r -s core.scheduler=gto" sim.ipc)
			ms=$(val "$k" "$r -s core.scheduler=rmws" rf.shifts)
			mi=$(val "$k" "$r -s core.scheduler=rmws" sim.ipc)
			python3 -c 'import sys; n, r, gs, gi, ms, mi = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
print("| %s | %s | %d (%.3f) | %d (%.3f) | %+.1f %% | %+.1f %% |" % (n, r, gs, gi, ms, mi, 100 * (ms - gs) / gs, 100 * (mi - gi) / gi))' \
				"$k" "$sc" "$gs" "$gi" "$ms" "$mi"
		done
	done
	echo
	echo "#### RMWS against GTO on every built-in kernel, default size"
	echo
	echo "| kernel | GTO | RMWS | RMWS vs GTO shifts | RMWS vs GTO IPC |"
	echo "|---|---|---|---|---|"
	for k in $($B --list-kernels | awk '{print $1}'); do
		r="-s rf.kind=racetrack"
		rmws_row "$k" "$k" "$r"
		[ "$gs" = "$ms" ] && [ "$gi" = "$mi" ] && echo "$k" >>"$tmp/ties"
	done
	echo
	rmws_ties
}

# rmws_picks KERNEL [OPTIONS]: RMWS's picks from the event log (rf.rmws_pick:
# unit = the warp GTO would have issued, runner_up = -1 when no other warp
# was ready): issues, issues with another ready warp, picks unlike GTO's
rmws_picks() {
	k=$1
	shift
	printf 'log rf.rmws_pick\ncontinue\nlog\ninfo events 4096\n' |
		$B gtx480 -w "$k" -s rf.kind=racetrack -s core.scheduler=rmws "$@" --batch - 2>/dev/null | awk '
		/^log: .* events logged, ring of/ { n = $3; sub(/^\(/, "", n); ring = $(NF); sub(/\)$/, "", ring) }
		/^cycle .* rf.rmws_pick/ { p++; for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
			if (f["runner_up"] != "-1") c++; if (f["warp"] != f["unit"]) d++ }
		END { if (n + 0 > ring + 0) printf " - (%d picks, ring of %d) | - | - |", n, ring
			else printf " %d | %d | %d |", p, c, d }'
}

# The kernels whose default-size runs tie (shifts and IPC equal): why, from
# RMWS's picks; then each at a size that puts more warps on an SM.
rmws_ties() {
	[ -s "$tmp/ties" ] || return 0
	echo "#### Kernels whose default-size runs tie: RMWS's picks"
	echo
	echo "| kernel | issues | with another ready warp | RMWS pick unlike GTO's |"
	echo "|---|---|---|---|"
	while read -r k; do
		printf '| %s |' "$k"
		rmws_picks "$k"
		echo
	done <"$tmp/ties"
	echo
	echo "#### The same kernels with more warps per SM"
	echo
	echo "| kernel | GTO | RMWS | RMWS vs GTO shifts | RMWS vs GTO IPC |"
	echo "|---|---|---|---|---|"
	while read -r k; do
		case $k in
		strided | gather_random) p="-p n=16384" ;;
		transpose_naive | transpose_tiled) p="-p n=256" ;;
		l2_set_burst) p="-p ctas=60" ;;
		rd_mshr_probe) p="-p warps=8" ;;
		*) continue ;;
		esac
		r="-s rf.kind=racetrack"
		rmws_row "$k" "$k $p" "$p $r"
	done <"$tmp/ties"
	echo
}

# TEMP picks a page's channel, and L2 sub-partitions (gtx480 since
# 2026-12-06) fix the channel by address: the two are refused together, so
# every cell of this table runs without sub-partitions (one L2 slice per
# channel, as gtx480 before the rebuild).
temp() {
	echo "#### TEMP and TBAS: cycles (DRAM local ratio, BLP), \`-s l2.banks_per_channel=0\` in every cell"
	echo
	echo "| kernel | GTO rr | GTO serial | TEMP colouring, rr | TEMP, serial | TBAS serial | TEMP+TBAS serial | TEMP+TBAS, one batch |"
	echo "|---|---|---|---|---|---|---|---|"
	for k in stencil2d matmul_naive vecadd; do
		printf '| %s |' "$k"
		for o in "" "-s core.cta_dispatch=serial" "-s dram.page_alloc=temp" \
			"-s dram.page_alloc=temp -s core.cta_dispatch=serial" \
			"-s core.scheduler=tbas -s core.cta_dispatch=serial" \
			"-s dram.page_alloc=temp -s core.scheduler=tbas -s core.cta_dispatch=serial" \
			"-s dram.page_alloc=temp -s core.scheduler=tbas -s core.cta_dispatch=serial -s core.tbas_running=48 -s core.batch_stride=1000000"; do
			cell "$k" "-s l2.banks_per_channel=0 -s dram.local_stats=true $o" "%d (%.1f %%, %.2f)" sim.cycles dram.local_ratio*100 dram.blp
		done
		echo
	done
	echo
}

bypass() {
	echo "#### Locality bypassing: IPC; request + reply packets; bypasses; NACKs (L1); waits at the L2"
	echo
	echo "| kernel | none | locality (defaults) | fixed leader sets | L2 nack | SM leaders | old: SM leaders, nack, tie rule | paper tie rule | aging 1 | no tag cycle | T = 0 (no decision) |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	for k in gather_random matmul_tiled stencil2d matmul_naive bfs_like; do
		printf '| %s |' "$k"
		for o in "-s l1.bypass=none" "-s l1.bypass=locality" "-s l1.bypass=locality -s l1.bypass_leader_select=fixed" \
			"-s l1.bypass=locality -s l1.bypass_at_l2=nack" \
			"-s l1.bypass=locality -s l1.bypass_leaders=sms" \
			"-s l1.bypass=locality -s l1.bypass_leaders=sms -s l1.bypass_at_l2=nack -s l2.when_busy=nack -s l1.bypass_duel_cold_hold=false -s l1.bypass_leader_select=fixed -s icnt.ack_channel=shared" \
			"-s l1.bypass=locality -s l1.bypass_duel_cold_hold=false" "-s l1.bypass=locality -s l1.bypass_aging=1" \
			"-s l1.bypass=locality -s l1.bypass_tag_cycles=0" "-s l1.bypass=locality -s l1.bypass_threshold=0"; do
			cell "$k" "$o" "%.4f; %d; %d; %d; %d" sim.ipc icnt.req_packets+icnt.reply_packets l1.bypasses l1.nacks l2.bypass_waits
		done
		echo
	done
	echo
}

# bypass_noise: locality against none on the short default kernels under
# one-cycle latency changes, with the mean and a 95 % CI: each kernel's
# table comes from tools/bypass_noise_ci.sh (15 runs per mode; before
# 2026-11-29 this section ran its own 11 changes, l1.hit_latency 33/37
# among them, and printed only mean, min and max).
bypass_noise() {
	echo "#### Locality bypassing against none under one-cycle latency changes"
	echo
	for k in stencil2d matmul_tiled bfs_like; do
		echo "##### $k"
		echo
		B=$B sh "$(dirname "$0")/bypass_noise_ci.sh" "$k" || return 1
		echo
	done
}

# bypass_cost: where locality bypassing's loss on the short cache-friendly
# kernels comes from. Each pair: IPC with none and with locality, and the
# change, under one change to both: the followers frozen plain (an interval
# longer than the kernel: only the leader sets bypass), the fixed leader sets,
# twice and four times the crossbar port bandwidth (icnt.port_flits: the
# bypassed loads' extra replies compete for it), 8 merges per L2 MSHR entry
# (bypassed loads take L2 merge slots the L1 MSHR would have saved), and
# two other schedules (LRR; GTO with serial CTA dispatch).
bypass_cost() {
	echo "#### Locality bypassing: where the loss comes from (IPC none -> locality)"
	echo
	echo "| kernel | defaults | followers frozen | fixed leader sets | frozen, fixed | icnt.port_flits=2, frozen | icnt.port_flits=4, frozen | l2.mshr.merges=8, frozen | LRR | serial CTA dispatch |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	fz="-s l1.bypass_duel_interval=1073741824"
	for k in stencil2d bfs_like matmul_tiled; do
		printf '| %s |' "$k"
		for o in "" "$fz" "-s l1.bypass_leader_select=fixed" "$fz -s l1.bypass_leader_select=fixed" \
			"$fz -s icnt.port_flits=2" "$fz -s icnt.port_flits=4" "$fz -s l2.mshr.merges=8" \
			"-s core.scheduler=lrr" "-s core.cta_dispatch=serial"; do
			a=$(val "$k" "$o -s l1.bypass=none" sim.ipc)
			b=$(val "$k" "$o -s l1.bypass=locality" sim.ipc)
			n=$(val "$k" "$o -s l1.bypass=locality" l1.bypasses)
			python3 -c 'import sys; a, b, n = map(float, sys.argv[1:])
print(" %.4f -> %.4f (%+.1f %%, %d bypasses) |" % (a, b, 100 * (b - a) / a, n), end="")' "$a" "$b" "$n"
		done
		echo
	done
	echo
}

[ $# = 0 ] && set -- vws rmws temp bypass bypass_noise bypass_cost
for s in "$@"; do
	case $s in
	vws | rmws | temp | bypass | bypass_noise | bypass_cost) "$s" || exit 1 ;;
	*)
		echo "policy_ablation.sh: unknown section '$s' (vws rmws temp bypass bypass_noise bypass_cost)" >&2
		exit 2
		;;
	esac
done
