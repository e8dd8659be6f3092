#!/bin/sh
# ccws_thrash.sh: the tables of docs/EXPERIMENTS.md "Why no faithful CCWS
# reaches GTO on the long vws_thrash" (issue 37). On gtx480, `vws_thrash -p
# n=153600 -p reps=4`:
#   1. how many warps may load, and which: GTO, CCWS with the release's
#      parameters and with K = 1, and fixed load windows (core.scheduler=vws
#      with core.vws_nact=N and InterCL off: N warps issue, the rest wait),
#      spread over CTAs (IntraCL off) or whole CTAs, oldest first (IntraCL
#      on);
#   2. the machine and kernel settings that turn the sign: the release's L1
#      MSHRs and L1 geometry, a smaller L2 without back-invalidation, more
#      passes, a compiled loop's instruction mix (tools/ccws_thrash_loop.json);
#   3. CCWS over time (--sample): warps loading per SM, L1 hits, lost
#      locality.
# GPUSTEP (or B) names the binary (default build/gpustep).
B=${GPUSTEP:-${B:-build/gpustep}}
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-ccwsthr.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up

K="-w vws_thrash -p n=153600 -p reps=4"
WIN="-s core.scheduler=vws -s core.vws_intercl=false -s core.vws_nact"

run() { # tag args...: $tmp/tag.json
	t=$1
	shift
	"$B" gtx480 "$@" --run --stats "$tmp/$t.json" >/dev/null 2>"$tmp/$t.err" || {
		echo "ccws_thrash: $B gtx480 $* failed:" >&2
		cat "$tmp/$t.err" >&2
		exit 1
	}
}

# shellcheck disable=SC2086
{
	# Table 1
	run gto $K -s core.scheduler=gto
	run ccws $K -s core.scheduler=ccws
	run k1 $K -s core.scheduler=ccws -s core.ccws_kthrottle=1 -s core.ccws_kcap=1
	for n in 8 12 16 24 32; do
		run spread$n $K $WIN=$n -s core.vws_intracl=false
		run cta$n $K $WIN=$n -s core.vws_intracl=true
	done
	# Table 2: row tag | settings (the kernel's too)
	while IFS='|' read -r tag set; do
		[ -n "$tag" ] || continue
		run "r_${tag}_gto" $set -s core.scheduler=gto
		run "r_${tag}_ccws" $set -s core.scheduler=ccws
		run "r_${tag}_k1" $set -s core.scheduler=ccws -s core.ccws_kthrottle=1 -s core.ccws_kcap=1
		for n in 8 16 24 32 40; do
			run "r_${tag}_cta$n" $set $WIN=$n -s core.vws_intracl=true
		done
	done <<EOF
base|$K
mshr|$K -s l1.mshr.entries=16 -s l1.mshr.merges=4
l1|$K -s l1.ways=8
l2|$K -s l2.sets=16 -s l2.sharers=off
reps|-w vws_thrash -p n=153600 -p reps=16
loop|-w tools/ccws_thrash_loop.json -p n=153600 -p reps=4
EOF
	# Table 3
	"$B" gtx480 $K -s core.scheduler=ccws --run --sample 20000 --csv "$tmp/ccws.csv" \
		--sample-stats 'sim.warp_insts,core.ld_insts,l1.accesses,l1.hits,ccws.lost_locality,ccws.admitted_warp_cycles,ccws.held_warp_cycles,ccws.throttle_changes' \
		>/dev/null 2>"$tmp/csv.err" || {
		echo "ccws_thrash: the sampled CCWS run failed:" >&2
		cat "$tmp/csv.err" >&2
		exit 1
	}
}

python3 - "$tmp" "$B" <<'EOF'
import csv, json, sys
d, b = sys.argv[1:3]
def st(t):
    return json.load(open(f"{d}/{t}.json"))["stats"]
def sms(s):
    return sum(1 for x in s if x.startswith("sm") and x.endswith(".insts"))
def cell(s):
    return f"{s['sim.ipc']:.3f} ({100 * s['l1.hit_rate']:.1f} %)"
def vs(a, g):
    return f"{100 * (a['sim.ipc'] / g['sim.ipc'] - 1):+.1f} %"
def loading(s):
    return s["ccws.admitted_warp_cycles"] / (s["sim.cycles"] * sms(s))

print(f"*Each run: `{b} gtx480 -w vws_thrash -p n=153600 -p reps=4 -s core.scheduler=S ... --run --stats F`;")
print("a fixed window is `-s core.scheduler=vws -s core.vws_intercl=false -s core.vws_nact=N`")
print("with `core.vws_intracl` false (spread over CTAs) or true (whole CTAs, oldest first).*")
print()
print("| scheduler | warps loading per SM | IPC (L1 hits) | vs GTO | mean load latency | DRAM bus |")
print("|---|---|---|---|---|---|")
g = st("gto")
def row(name, s, n):
    print(f"| {name} | {n} | {cell(s)} | {vs(s, g)} | {s['core.mem_latency_avg']:.0f} | {100 * s['dram.bus_util']:.0f} % |")
row("GTO", g, "all (48)")
c = st("ccws")
row("CCWS (release: K 8, cap 8)", c, f"{loading(c):.1f}")
k1 = st("k1")
row("CCWS K 1, cap 1", k1, f"{loading(k1):.1f}")
for kind, label in (("spread", "over CTAs"), ("cta", "whole CTAs")):
    for n in (8, 12, 16, 24, 32):
        row(f"fixed window, {label}", st(f"{kind}{n}"), str(n))

print()
print("*Rows change the machine or the kernel (all else gtx480, `vws_thrash -p n=153600 -p reps=4`);")
print("\"best window\" is the best fixed window of whole CTAs (N = 8, 16, 24, 32, 40);")
print("\"loading\" is CCWS's mean warps loading per SM (`ccws.admitted_warp_cycles` / (cycles x SMs)).*")
print()
print("| setting | GTO | CCWS | vs GTO | loading | CCWS K 1, cap 1 | vs GTO | best window (N) | vs GTO |")
print("|---|---|---|---|---|---|---|---|---|")
rows = (
    ("base", "gtx480"),
    ("mshr", "the release's L1 MSHRs: `-s l1.mshr.entries=16 -s l1.mshr.merges=4`"),
    ("l1", "the release's L1 size and ways, 32 KB 8-way: `-s l1.ways=8`"),
    ("l2", "L2 192 KB, no back-invalidation: `-s l2.sets=16 -s l2.sharers=off`"),
    ("reps", "16 passes: `-p reps=16`"),
    ("loop", "a compiled loop, 5 instructions a load: `-w tools/ccws_thrash_loop.json`"),
)
for tag, name in rows:
    g2, c2, k2 = st(f"r_{tag}_gto"), st(f"r_{tag}_ccws"), st(f"r_{tag}_k1")
    best = max((8, 16, 24, 32, 40), key=lambda n: st(f"r_{tag}_cta{n}")["sim.ipc"])
    w = st(f"r_{tag}_cta{best}")
    print(f"| {name} | {cell(g2)} | {cell(c2)} | {vs(c2, g2)} | {loading(c2):.1f} | {cell(k2)} | {vs(k2, g2)} | "
          f"{cell(w)} ({best}) | {vs(w, g2)} |")

print()
print(f"*`{b} gtx480 -w vws_thrash -p n=153600 -p reps=4 -s core.scheduler=ccws --run --sample 20000 --csv F`,")
print("per 20000-cycle interval (the last one shorter).*")
print()
print("| cycles | IPC | L1 hits | lost-locality hits per 100 loads | warps loading per SM | held per SM | cutoff changes per SM per 1000 cycles |")
print("|---|---|---|---|---|---|---|")
n_sm = sms(c)
prev = 0
for r in csv.DictReader(open(f"{d}/ccws.csv")):
    cyc = int(r["cycle"])
    dt = cyc - prev
    if dt <= 0:
        continue
    ld = int(r["core.ld_insts"]) or 1
    acc = int(r["l1.accesses"]) or 1
    print(f"| {prev}-{cyc} | {int(r['sim.warp_insts']) / dt:.2f} | {100 * int(r['l1.hits']) / acc:.1f} % | "
          f"{100 * int(r['ccws.lost_locality']) / ld:.1f} | {int(r['ccws.admitted_warp_cycles']) / (dt * n_sm):.1f} | "
          f"{int(r['ccws.held_warp_cycles']) / (dt * n_sm):.1f} | {1000 * int(r['ccws.throttle_changes']) / (dt * n_sm):.1f} |")
    prev = cyc
EOF
