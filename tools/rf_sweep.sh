#!/bin/sh
# Racetrack register file on one scheduler (docs/EXPERIMENTS.md, notes 002
# §2, issue 7): the configuration table, the per-kernel table, the ports
# sweep and the write-buffer sweep on the gtx480 preset, then the three
# rf.remap placements on the teaching preset (8 warps per SM, where Eq. 3.3
# fits a port segment; on gtx480's 48 warps it falls back to balanced).
# IPC and RF energy are geometric means of the per-kernel ratios to SRAM+GTO;
# shifts, shift cycles, writes and buffer outcomes are summed over the
# kernels; the mean wait is summed rf.wait_cycles / summed rf.requests.
# Every run's rf.remap_fallback is reported at the end.
# Usage: B=build/gpustep tools/rf_sweep.sh   (JOBS=2 runs in parallel)
B=${B:-build/gpustep}
K=${K:-"matmul_tiled matmul_naive stencil2d reduction transpose_tiled saxpy histogram bfs_like"}
JOBS=${JOBS:-2}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
RT="rf.kind=racetrack"
RMWS="$RT core.scheduler=rmws"

# name|preset|settings
{
	echo "sram|gtx480|rf.sram_cycles=1"
	echo "4p|gtx480|$RT rf.remap=contiguous rf.write_buffer.entries=0"
	echo "remap|gtx480|$RT rf.write_buffer.entries=0"
	echo "remapwb|gtx480|$RT"
	echo "rmws|gtx480|$RMWS"
	echo "rmwsissue|gtx480|$RMWS rf.write_buffer.claim=issue"
	for p in 1 2 8 16 32 64; do echo "ports$p|gtx480|$RMWS rf.ports=$p"; done
	for n in 0 16 64 256; do
		echo "wb$n|gtx480|$RMWS rf.write_buffer.entries=$n"
		echo "wbissue$n|gtx480|$RMWS rf.write_buffer.entries=$n rf.write_buffer.claim=issue"
	done
	echo "t_sram|teaching|rf.sram_cycles=1"
	for r in contiguous eq3_3 balanced; do echo "t_$r|teaching|$RT rf.remap=$r rf.write_buffer.entries=0"; done
} >"$tmp/configs"

while IFS='|' read -r name preset settings; do
	for k in $K; do
		a=""
		for s in $settings; do a="$a -s $s"; done
		echo "$B $preset -w $k$a --run --stats $tmp/$name.$k.json"
	done
done <"$tmp/configs" >"$tmp/cmds"
# shellcheck disable=SC2016
tr '\n' '\0' <"$tmp/cmds" | xargs -0 -P "$JOBS" -n 1 sh -c '$0 >/dev/null 2>&1 || echo "failed: $0" >&2'

python3 - "$tmp" "$K" <<'EOF'
import json, math, os, sys
d, ks = sys.argv[1], sys.argv[2].split()
def st(cfg, k):
    j = json.load(open(os.path.join(d, "%s.%s.json" % (cfg, k))))
    return j.get("stats", j)
S = {}
for f in os.listdir(d):
    if f.endswith(".json"):
        cfg, k = f[:-5].split(".", 1)
        S.setdefault(cfg, {})[k] = st(cfg, k)
gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))
def ratio(cfg, key, base="sram"):
    return gm([S[cfg][k][key] / S[base][k][key] for k in ks])
def tot(cfg, key):
    return sum(S[cfg][k].get(key, 0) for k in ks)
def wait(cfg):
    return tot(cfg, "rf.wait_cycles") / max(1, tot(cfg, "rf.requests"))
def score3(cfg):
    n = hi = 0
    for k in ks:
        h = S[cfg][k].get("rf.rmws_score")
        if not h:
            return None
        for b, c in zip(h["buckets"], h["counts"]):
            n += c
            hi += c if b >= 3 else 0
    return 100.0 * hi / n if n else None

names = [("sram", "SRAM+GTO"), ("4p", "4P+GTO"), ("remap", "remap+GTO"), ("remapwb", "remap+WB+GTO"),
         ("rmws", "RMWS"), ("rmwsissue", "RMWS-issue")]
print("| config | IPC vs SRAM+GTO | shifts | shift RF cycles | mean wait (RF cycles) | energy vs SRAM+GTO | issued with score ≥ 3 |")
print("|---|---|---|---|---|---|---|")
for c, n in names:
    s3 = score3(c)
    print("| %s | %.3f | %d | %d | %.2f | %.3f | %s |" % (n, ratio(c, "sim.ipc"), tot(c, "rf.shifts"),
          tot(c, "rf.shift_cycles"), wait(c), ratio(c, "rf.energy.total"),
          "–" if c == "sram" or s3 is None else "%.1f %%" % s3))
print()
print("| kernel | SRAM+GTO | 4P+GTO | remap+GTO | remap+WB+GTO | RMWS | 4P+GTO shifts | RMWS shifts |")
print("|---|---|---|---|---|---|---|---|")
for k in ks:
    print("| %s | %s | %d | %d |" % (k, " | ".join("%.3f" % S[c][k]["sim.ipc"] for c, _ in names[:5]),
          S["4p"][k]["rf.shifts"], S["rmws"][k]["rf.shifts"]))
print()
print("Ports per track (RMWS, 32-entry buffer):")
print()
print("| ports | segment | IPC vs SRAM+GTO | shift RF cycles | energy vs SRAM+GTO |")
print("|---|---|---|---|---|")
for p in (1, 2, 4, 8, 16, 32, 64):
    c = "rmws" if p == 4 else "ports%d" % p
    print("| %d | %d | %.3f | %d | %.3f |" % (p, 64 // p, ratio(c, "sim.ipc"), tot(c, "rf.shift_cycles"),
          ratio(c, "rf.energy.total")))
print()
print("Write-buffer entries (RMWS; claim at writeback, then at issue):")
print()
print("| entries | IPC (writeback) | IPC (issue) | RF writes | overflow | voided | RAW hits | energy (writeback) |")
print("|---|---|---|---|---|---|---|---|")
for n in (0, 16, 32, 64, 256):
    c, ci = ("rmws", "rmwsissue") if n == 32 else ("wb%d" % n, "wbissue%d" % n)
    print("| %d | %.3f | %.3f | %d | %d | %d | %d | %.3f |" % (n, ratio(c, "sim.ipc"), ratio(ci, "sim.ipc"),
          tot(c, "rf.writes"), tot(c, "rf.wb.overflow"), tot(c, "rf.wb.voided"), tot(c, "rf.wb.reads"),
          ratio(c, "rf.energy.total")))
print()
print("Remapping on the teaching preset (8 warps per SM; racetrack + GTO, no buffer):")
print()
print("| rf.remap | IPC vs SRAM+GTO | shifts | shift RF cycles | mean wait (RF cycles) | rf.remap_fallback |")
print("|---|---|---|---|---|---|")
for r in ("contiguous", "eq3_3", "balanced"):
    c = "t_" + r
    print("| %s | %.3f | %d | %d | %.2f | %d of %d |" % (r, ratio(c, "sim.ipc", "t_sram"), tot(c, "rf.shifts"),
          tot(c, "rf.shift_cycles"), wait(c), tot(c, "rf.remap_fallback"), len(ks)))
print()
eq = sorted(c for c in S if not c.startswith("t_") and c not in ("sram", "4p"))
n_eq = len(eq) * len(ks)
n_fb = sum(S[c][k].get("rf.remap_fallback", 0) for c in eq for k in ks)
kept = [c for c in eq if not any(S[c][k].get("rf.remap_fallback", 0) for k in ks)]
print("gtx480 runs with rf.remap=eq3_3: %d; fell back to balanced (rf.remap_fallback=1): %d; "
      "Eq. 3.3 kept in: %s" % (n_eq, n_fb, ", ".join(kept) if kept else "none"))
EOF
