#!/bin/sh
# ccws_ablation.sh: the table of docs/EXPERIMENTS.md "CCWS beside the
# ablation": CCWS against GTO on gtx480, on cache-sensitive kernels (working
# set per SM larger than the L1) and cache-insensitive ones. Columns: IPC
# (L1 hit rate) under GTO, under CCWS with the paper's parameters
# (docs/POLICIES.md), under CCWS with the lightest increment and cap
# (K_throttle = K_cap = 1), and with that and a faster decay (16 points a
# cycle, core.ccws_decay); for the paper's CCWS the lost-locality hits, the
# share of SM-cycles with a warp held back, the mean number held then, and
# the share of lost-locality hits after which one warp's score alone reaches
# the cutoff. Prints the command and commit it was produced at.
# B=path/to/gpustep overrides the binary.
B=${B:-build/gpustep}
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-ccws.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files

echo "*Each cell is"
echo "\`$B gtx480 -w KERNEL [-p ...] -s core.scheduler=gto|ccws"
echo "[-s core.ccws_kthrottle=1 -s core.ccws_kcap=1 [-s core.ccws_decay=16]] --run --stats F\`.*"
echo
echo "| kernel | class | GTO | CCWS | CCWS vs GTO | K=1, cap 1 | vs GTO | K=1, cap 1, decay 16 | vs GTO | lost hits | throttled | held | hits >= C |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"

run() { # name args...: writes $tmp/$name.json
	n=$1
	shift
	"$B" gtx480 "$@" --run --stats "$tmp/$n.json" >/dev/null 2>"$tmp/$n.err" || {
		echo "ccws_ablation: $B gtx480 $* failed:" >&2
		cat "$tmp/$n.err" >&2
		exit 1
	}
}

while IFS='|' read -r class k; do
	[ -n "$k" ] || continue
	# shellcheck disable=SC2086
	run gto -w $k -s core.scheduler=gto
	# shellcheck disable=SC2086
	run ccws -w $k -s core.scheduler=ccws
	# shellcheck disable=SC2086
	run k1 -w $k -s core.scheduler=ccws -s core.ccws_kthrottle=1 -s core.ccws_kcap=1
	# shellcheck disable=SC2086
	run k1d -w $k -s core.scheduler=ccws -s core.ccws_kthrottle=1 -s core.ccws_kcap=1 -s core.ccws_decay=16
	python3 - "$tmp" "$k" "$class" <<'EOF'
import json, sys
d, k, cls = sys.argv[1:4]
def load(n):
    return json.load(open(f"{d}/{n}.json"))["stats"]
def cell(s):
    return f"{s['sim.ipc']:.3f} ({100 * s['l1.hit_rate']:.1f} %)"
def vs(a, b):
    return f"{100 * (a['sim.ipc'] / b['sim.ipc'] - 1):+.1f} %"
g, c, k1, k1d = load("gto"), load("ccws"), load("k1"), load("k1d")
sm_cycles = c["sim.cycles"] * sum(1 for x in c if x.startswith("sm") and x.endswith(".issue_cycles"))
thr = c.get("ccws.throttled_cycles", 0)
held = c.get("ccws.held_warp_cycles", 0)
h = c["ccws.lls_pct_at_hit"]
full = h["counts"][-1]
lost = c["ccws.lost_locality"]
print(f"| {k} | {cls} | {cell(g)} | {cell(c)} | {vs(c, g)} | {cell(k1)} | {vs(k1, g)} | {cell(k1d)} | {vs(k1d, g)} | {lost} | "
      f"{100 * thr / sm_cycles:.0f} % | {held / thr if thr else 0:.1f} | "
      f"{(100 * full / lost) if lost else 0:.0f} % |")
EOF
done <<'EOF'
sensitive|kmn_like -p n=23040
sensitive|vws_thrash -p n=153600 -p reps=4
sensitive|vws_thrash
sensitive|bfs_like -p n=16384
sensitive|matmul_naive -p n=256
insensitive|stencil2d
insensitive|matmul_tiled
insensitive|vecadd
EOF

# How many passes over its lines a warp makes decides whether the throttle
# pays: vws_thrash (default n) with 4 to 32 passes.
echo
echo "| vws_thrash passes (reps) | GTO | CCWS | CCWS vs GTO | K=1, cap 1 | vs GTO | throttled | held |"
echo "|---|---|---|---|---|---|---|---|"
for r in 4 8 16 32; do
	run gto -w vws_thrash -p reps=$r -s core.scheduler=gto
	run ccws -w vws_thrash -p reps=$r -s core.scheduler=ccws
	run k1 -w vws_thrash -p reps=$r -s core.scheduler=ccws -s core.ccws_kthrottle=1 -s core.ccws_kcap=1
	python3 - "$tmp" "$r" <<'EOF2'
import json, sys
d, r = sys.argv[1:3]
def load(n):
    return json.load(open(f"{d}/{n}.json"))["stats"]
def cell(s):
    return f"{s['sim.ipc']:.3f} ({100 * s['l1.hit_rate']:.1f} %)"
def vs(a, b):
    return f"{100 * (a['sim.ipc'] / b['sim.ipc'] - 1):+.1f} %"
g, c, k1 = load("gto"), load("ccws"), load("k1")
sms = sum(1 for x in c if x.startswith("sm") and x.endswith(".issue_cycles"))
thr = c.get("ccws.throttled_cycles", 0)
held = c.get("ccws.held_warp_cycles", 0)
print(f"| {r} | {cell(g)} | {cell(c)} | {vs(c, g)} | {cell(k1)} | {vs(k1, g)} | "
      f"{100 * thr / (c['sim.cycles'] * sms):.0f} % | {held / thr if thr else 0:.1f} |")
EOF2
done
