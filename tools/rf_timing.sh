#!/bin/sh
# rf_timing.sh: the racetrack timing table of docs/EXPERIMENTS.md "Racetrack
# timing against SRAM (issue 37)": gtx480 matmul_tiled at n = 256 (K and
# P to change), the thesis's configurations (notes 002 §2.9) and the
# ablations that locate the racetrack file's cost. Every row is one run of
#   $B gtx480 -w $K -p $P [-s core.schedulers=1] -s ... --run --stats F
# Columns: sim.cycles; against the timed SRAM file (rf.sram_cycles=1) with
# the same number of schedulers; rf.shifts; shifts against 4P+GTO (its
# scheduler count); rf.wait_avg (RF cycles); then the write buffer's
# outcomes as the thesis's Fig. 14 counts them, each a share of the results
# the kernel produces (rf.writes of the SRAM run: every result is one
# write there): rf.wb.voided (WAW), rf.wb.direct, rf.wb.piggyback,
# rf.wb.overflow; and RAW = rf.wb.reads / (rf.reads + rf.wb.reads), the
# source reads the buffer served.
# Usage: B=build/gpustep [JOBS=2] sh tools/rf_timing.sh   (37 runs, ~8 min on 2 cores)
B=${B:-${GPUSTEP:-build/gpustep}}
K=${K:-matmul_tiled}
P=${P:-n=256}
JOBS=${JOBS:-2}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-rftiming.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files
RT="rf.kind=racetrack"
# NAME|SCHEDULERS|SETTINGS (space-separated k=v); the first row of each
# scheduler count is its SRAM reference, 4P+GTO its shift reference.
cat >"$tmp/rows" <<EOF
SRAM, free operand path (the default)|1|
SRAM+GTO (rf.sram_cycles=1)|1|rf.sram_cycles=1
4P+GTO (contiguous, no buffer)|1|$RT rf.remap=contiguous rf.write_buffer.entries=0
remap+GTO (no buffer)|1|$RT rf.write_buffer.entries=0
remap+WB+GTO|1|$RT
remap+WB+LRR|1|$RT core.scheduler=lrr
**RMWS** (remap+WB+RMWS)|1|$RT core.scheduler=rmws
RMWS, l1i.enabled=false|1|$RT core.scheduler=rmws l1i.enabled=false
SRAM+GTO, l1i.enabled=false|1|rf.sram_cycles=1 l1i.enabled=false
remap+WB+GTO, l1i.enabled=false|1|$RT l1i.enabled=false
remap+WB+LRR, l1i.enabled=false|1|$RT core.scheduler=lrr l1i.enabled=false
RMWS, rf.write_buffer.void=arrival|1|$RT core.scheduler=rmws rf.write_buffer.void=arrival
RMWS, rf.write_buffer.entries=16|1|$RT core.scheduler=rmws rf.write_buffer.entries=16
RMWS, rf.write_buffer.entries=0|1|$RT core.scheduler=rmws rf.write_buffer.entries=0
RMWS, rf.write_buffer.claim=issue|1|$RT core.scheduler=rmws rf.write_buffer.claim=issue
RMWS, rf.ports=8|1|$RT core.scheduler=rmws rf.ports=8
RMWS, rf.write_cycles=1|1|$RT core.scheduler=rmws rf.write_cycles=1
SRAM+GTO, rf.warp_shift=false|1|rf.sram_cycles=1 rf.warp_shift=false
remap+WB+GTO, rf.warp_shift=false|1|$RT rf.warp_shift=false
RMWS, rf.warp_shift=false|1|$RT core.scheduler=rmws rf.warp_shift=false
RMWS, rf.warp_shift=false, void=arrival (before issue 37)|1|$RT core.scheduler=rmws rf.warp_shift=false rf.write_buffer.void=arrival
RMWS, rf.warp_shift=false, rf.write_buffer.entries=64|1|$RT core.scheduler=rmws rf.warp_shift=false rf.write_buffer.entries=64
RMWS, rf.warp_shift=false, rf.write_buffer.entries=256|1|$RT core.scheduler=rmws rf.warp_shift=false rf.write_buffer.entries=256
RMWS, rf.warp_shift=false, rf.ports=8|1|$RT core.scheduler=rmws rf.warp_shift=false rf.ports=8
RMWS, rf.warp_shift=false, rf.ports=64|1|$RT core.scheduler=rmws rf.warp_shift=false rf.ports=64
Dual: SRAM+GTO (rf.sram_cycles=1)|2|rf.sram_cycles=1
Dual: 4P+GTO|2|$RT rf.remap=contiguous rf.write_buffer.entries=0
Dual: remap+WB+GTO|2|$RT
Dual-RMWS|2|$RT core.scheduler=rmws
**Dual-RMWS + warp-register remapping**|2|$RT core.scheduler=rmws rf.warp_reg_remap=true
Dual-RMWS + wrr, rf.warp_reg_spread=one_bank|2|$RT core.scheduler=rmws rf.warp_reg_remap=true rf.warp_reg_spread=one_bank
Dual-RMWS + wrr, rf.write_buffer.entries=256|2|$RT core.scheduler=rmws rf.warp_reg_remap=true rf.write_buffer.entries=256
Dual-RMWS + wrr, rf.ports=8|2|$RT core.scheduler=rmws rf.warp_reg_remap=true rf.ports=8
Dual-RMWS + wrr, rf.ports=64|2|$RT core.scheduler=rmws rf.warp_reg_remap=true rf.ports=64
Dual-RMWS + wrr, rf.write_cycles=1|2|$RT core.scheduler=rmws rf.warp_reg_remap=true rf.write_cycles=1
Dual-RMWS, rf.warp_shift=false|2|$RT core.scheduler=rmws rf.warp_shift=false
Dual-RMWS + wrr, rf.warp_shift=false|2|$RT core.scheduler=rmws rf.warp_reg_remap=true rf.warp_shift=false
EOF
# one job per row: "INDEX SCHEDULERS SETTINGS...", run JOBS at a time
awk -F'|' '{ l = NR " " $2 " " $3; sub(/ +$/, "", l); print l }' "$tmp/rows" >"$tmp/jobs"
cat >"$tmp/run1" <<'EOF'
i=$1 ns=$2
shift 2
set -- -s core.schedulers="$ns" $(for kv in "$@"; do printf -- '-s %s ' "$kv"; done)
"$B" gtx480 -w "$K" -p "$P" "$@" --run --stats "$tmp/$i.json" >/dev/null 2>"$tmp/$i.err" ||
	echo "rf_timing: row $i failed: $(head -1 "$tmp/$i.err")" >&2
EOF
export B K P tmp
xargs -P "$JOBS" -L1 sh "$tmp/run1" <"$tmp/jobs"
python3 - "$tmp" <<'PY'
import json, os, sys
tmp = sys.argv[1]
rows = [l.rstrip("\n").split("|") for l in open(os.path.join(tmp, "rows"))]
def stats(i):
    p = os.path.join(tmp, "%d.json" % i)
    return json.load(open(p))["stats"] if os.path.exists(p) else None
sram = {}; fourp = {}
results = stats(1)["rf.writes"]
for i, (name, ns, sets) in enumerate(rows, 1):
    s = stats(i)
    if s is None:
        continue
    if "rf.sram_cycles=1" in sets and ns not in sram and "warp_shift" not in sets and "l1i" not in sets:
        sram[ns] = s["sim.cycles"]
    if "rf.remap=contiguous" in sets and ns not in fourp:
        fourp[ns] = s["rf.shifts"]
print("| configuration | schedulers | cycles | vs SRAM+GTO | rf.shifts | vs 4P+GTO | mean wait (RF cycles) "
      "| WAW voided | direct | piggyback | overflow | RAW (of reads) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for i, (name, ns, sets) in enumerate(rows, 1):
    s = stats(i)
    if s is None:
        print("| %s | %s | failed | | | | | | | | | |" % (name, ns)); continue
    g = lambda k: s.get(k, 0)
    cyc = g("sim.cycles"); sh = g("rf.shifts")
    vs = "%+.1f %%" % (100.0 * (cyc / sram[ns] - 1)) if ns in sram else "-"
    vsh = "%+.1f %%" % (100.0 * (sh / fourp[ns] - 1)) if fourp.get(ns) and "kind=racetrack" in sets else "-"
    produced = results
    if "kind=racetrack" in sets and g("rf.wb.allocs") + g("rf.wb.direct") > 0:
        pc = lambda k: "%.1f %%" % (100.0 * g(k) / produced)
        wb = [pc("rf.wb.voided"), pc("rf.wb.direct"), pc("rf.wb.piggyback"), pc("rf.wb.overflow"),
              "%.1f %%" % (100.0 * g("rf.wb.reads") / (g("rf.reads") + g("rf.wb.reads")))]
    else:
        wb = ["-"] * 5
    print("| %s | %s | %d | %s | %d | %s | %.2f | %s |" % (name, ns, cyc, vs, sh, vsh, g("rf.wait_avg"), " | ".join(wb)))
PY
