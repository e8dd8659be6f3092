#!/bin/sh
# Dual/Quad-RMWS and warp-register remapping (docs/EXPERIMENTS.md, notes 002
# §2.7 and Fig. 19/20): for 1, 2 and 4 schedulers per SM on the gtx480
# preset, SRAM+GTO, racetrack+GTO, RMWS, RMWS + warp-register remapping
# (interleaved over the scheduler's banks, and one bank per warp). Prints one
# markdown row per (schedulers, config): IPC and RF energy as geometric means
# of the per-kernel ratios to SRAM+GTO with the same number of schedulers,
# then summed shifts, shift RF cycles, schedule hazards and the mean wait;
# with PER_KERNEL=1 also the per-kernel IPCs.
# Usage: B=build/gpustep tools/rf_multisched.sh
B=${B:-build/gpustep}
K=${K:-"matmul_tiled matmul_naive stencil2d reduction transpose_tiled saxpy histogram bfs_like"}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
RT="-s rf.kind=racetrack"
for ns in 1 2 4; do
	for cfg in sram rt rmws wrr wrr1; do
		case $cfg in
		sram) o="-s rf.sram_cycles=1" ;;
		rt) o="$RT" ;;
		rmws) o="$RT -s core.scheduler=rmws" ;;
		wrr) o="$RT -s core.scheduler=rmws -s rf.warp_reg_remap=true" ;;
		wrr1) o="$RT -s core.scheduler=rmws -s rf.warp_reg_remap=true -s rf.warp_reg_spread=one_bank" ;;
		esac
		[ "$ns" = 1 ] && [ "${cfg#wrr}" != "$cfg" ] && continue # no effect with one scheduler
		for k in $K; do
			# shellcheck disable=SC2086
			$B gtx480 -w "$k" $o -s core.schedulers=$ns --run --stats "$tmp/$ns.$cfg.$k.json" >/dev/null 2>&1 ||
				echo "failed: $ns $cfg $k" >&2
		done
	done
done
python3 - "$tmp" "$K" <<'EOF'
import json, math, os, sys
d, ks = sys.argv[1], sys.argv[2].split()
def st(ns, cfg, k):
    p = os.path.join(d, "%s.%s.%s.json" % (ns, cfg, k))
    if not os.path.exists(p):
        return None
    j = json.load(open(p))
    return j.get("stats", j)
names = {"sram": "SRAM+GTO", "rt": "racetrack+GTO", "rmws": "RMWS", "wrr": "RMWS+WRR (interleave)",
         "wrr1": "RMWS+WRR (one bank)"}
gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))
print("| schedulers | config | IPC vs SRAM+GTO | energy vs SRAM+GTO | shifts | shift RF cycles | hazards | mean wait |")
print("|---|---|---|---|---|---|---|---|")
rows = {}
for ns in ("1", "2", "4"):
    for cfg in ("sram", "rt", "rmws", "wrr", "wrr1"):
        ss = [st(ns, cfg, k) for k in ks]
        base = [st(ns, "sram", k) for k in ks]
        if any(s is None for s in ss):
            continue
        ipc = gm([s["sim.ipc"] / b["sim.ipc"] for s, b in zip(ss, base)])
        en = gm([s["rf.energy.total"] / b["rf.energy.total"] for s, b in zip(ss, base)])
        sh = sum(s["rf.shifts"] for s in ss)
        sc = sum(s["rf.shift_cycles"] for s in ss)
        hz = sum(s.get("rf.schedule_hazards", 0) for s in ss)
        w = sum(s["rf.wait_cycles"] for s in ss) / max(1, sum(s["rf.requests"] for s in ss))
        rows[(ns, cfg)] = [s["sim.ipc"] for s in ss]
        print("| %s | %s | %.3f | %.3f | %d | %d | %d | %.2f |" % (ns, names[cfg], ipc, en, sh, sc, hz, w))
if os.environ.get("PER_KERNEL"):
    print()
    print("| schedulers | config | " + " | ".join(ks) + " |")
    print("|---|---|" + "---|" * len(ks))
    for (ns, cfg), v in rows.items():
        print("| %s | %s | " % (ns, names[cfg]) + " | ".join("%.3f" % x for x in v) + " |")
EOF
