#!/bin/sh
# VWS ablation (docs/EXPERIMENTS.md): LRR, IWL, IWL+IntraCL, VWS, and the
# GTO and CCWS baselines, on the gtx480 preset; prints one markdown row per
# kernel: IPC (L1 hit rate) and, under vws, promotions by class
# (same/pred/succ/oldest) and demotions; under ccws, lost-locality hits and
# changes of the held-back set. The last two rows enlarge two kernels
# (kernel parameters) so that their working sets exceed the L1.
# Every run uses core.cta_dispatch = $D (round_robin by default; D=serial
# for the paper's InterCL dispatch): no scheduler changes the dispatch.
# Usage: B=build/gpustep [D=serial] tools/vws_ablation.sh
#
# Two more sections (issue 19, EXPERIMENTS.md "Why VWS loses on vws_thrash"):
#   tools/vws_ablation.sh window   vws_thrash at its default size under both
#       dispatch modes: GTO, IWL+IntraCL and VWS with the window estimated
#       (Eq. 4.6) and fixed at N warps from cycle 0 (core.vws_nact); IPC
#       (L1 hit rate, mean N_act of SM 0, cycle SM 0's sampling ended of
#       the run's cycles); then VWS with each part switched off alone.
#   tools/vws_ablation.sh regime   vws_thrash run long (n=153600: 600 CTAs,
#       320 warps per SM over the run, so sampling is alpha = 10 % of it)
#       for reps = 2, 4, 8, 16 (RRDegr = reps, WS = 8 lines): LRR, GTO,
#       IWL+IntraCL, VWS, and VWS with the window that fits the L1
#       (core.vws_nact = L1 blocks / WS = 16); round robin dispatch.
B=${B:-build/gpustep}
D=${D:-round_robin}
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT

# one KERNEL-AND-OPTIONS: " IPC (hit %, mean window, sampling end / cycles) |"
one() {
	# shellcheck disable=SC2086
	$B gtx480 -w $1 --run --stats "$tmp" >/dev/null 2>&1 || { printf ' failed |'; return; }
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); s = d.get("stats", d)
w = s.get("sm0.vws.window")
x = "" if w is None else ", %.1f, %d/%d" % (w, s["sm0.vws.sampling_end"], s["sim.cycles"])
print(" %.3f (%.1f %%%s) |" % (s["sim.ipc"], 100 * s["l1.hit_rate"], x), end="")' "$tmp"
}

if [ "$1" = window ]; then
	echo "| dispatch | window | GTO | IWL+IntraCL | VWS (pool) |"
	echo "|---|---|---|---|---|"
	for d in round_robin serial; do
		for n in 0 4 8 12 16 20 24 32 48; do
			printf '| %s | %s |' "$d" "$([ $n = 0 ] && echo "Eq. 4.6" || echo "fixed $n")"
			if [ $n = 0 ]; then one "vws_thrash -s core.scheduler=gto -s core.cta_dispatch=$d"; else printf ' |'; fi
			one "vws_thrash -s core.scheduler=vws -s core.vws_intercl=false -s core.vws_nact=$n -s core.cta_dispatch=$d"
			one "vws_thrash -s core.scheduler=vws -s core.vws_nact=$n -s core.cta_dispatch=$d"
			echo
		done
	done
	echo
	echo "| dispatch | VWS | without IWL | without IntraCL | without InterCL (pool) |"
	echo "|---|---|---|---|---|"
	for d in round_robin serial; do
		printf '| %s |' "$d"
		for o in "" "-s core.vws_iwl=false" "-s core.vws_intracl=false" "-s core.vws_intercl=false"; do
			one "vws_thrash -s core.scheduler=vws $o -s core.cta_dispatch=$d"
		done
		echo
	done
	exit 0
fi
if [ "$1" = regime ]; then
	echo "| reps | LRR | GTO | IWL+IntraCL | VWS (pool) | VWS, fixed window 16 | VWS vs GTO |"
	echo "|---|---|---|---|---|---|---|"
	for r in 2 4 8 16; do
		k="vws_thrash -p n=153600 -p reps=$r"
		printf '| %s |' "$r"
		for o in "-s core.scheduler=lrr" "-s core.scheduler=gto" "-s core.scheduler=vws -s core.vws_intercl=false" \
			"-s core.scheduler=vws" "-s core.scheduler=vws -s core.vws_nact=16"; do
			one "$k $o"
			case "$o" in *=gto) g=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("stats", d)["sim.ipc"])' "$tmp") ;; esac
			case "$o" in *=vws) v=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("stats", d)["sim.ipc"])' "$tmp") ;; esac
		done
		python3 -c 'import sys; g, v = map(float, sys.argv[1:]); print(" %+.1f %% |" % (100 * (v - g) / g))' "$g" "$v"
	done
	exit 0
fi

for k in stencil2d matmul_naive bfs_like gather_random "matmul_naive -p n=256" "bfs_like -p n=16384"; do
	printf '| %s |' "$k"
	for opts in "-s core.scheduler=lrr" \
		"-s core.scheduler=vws -s core.vws_intracl=false -s core.vws_intercl=false" \
		"-s core.scheduler=vws -s core.vws_intercl=false" \
		"-s core.scheduler=vws" \
		"-s core.scheduler=gto" \
		"-s core.scheduler=ccws"; do
		# shellcheck disable=SC2086
		$B gtx480 -w $k $opts -s core.cta_dispatch=$D --run --stats "$tmp" >/dev/null 2>&1 || { printf ' failed |'; continue; }
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); s = d.get("stats", d)
p = [s.get("vws.promote_" + x) for x in ("same_cta", "pred_cta", "succ_cta", "oldest")]
extra = " [%s; %d dem.]" % ("/".join(str(x) for x in p), s["vws.demotions"]) if p[0] is not None else ""
if "ccws.lost_locality" in s:
    extra = " [%d lost; %d chg.]" % (s["ccws.lost_locality"], s["ccws.throttle_changes"])
print(" %.3f (%.1f %%)%s |" % (s["sim.ipc"], 100 * s["l1.hit_rate"], extra), end="")' "$tmp"
	done
	echo
done
