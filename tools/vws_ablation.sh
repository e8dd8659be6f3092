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
B=${B:-build/gpustep}
D=${D:-round_robin}
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
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
