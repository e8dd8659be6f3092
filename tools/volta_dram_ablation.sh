#!/bin/sh
# volta_dram_ablation.sh: the table of docs/DRAM.md "Volta DRAM bandwidth":
# the qv100 preset's DRAM bandwidth measured as `gpustep validate` does
# (stream kind=0, ctas = 4 x SMs, n = twice the L2 in words rounded to the
# grid-stride grain, against 2n: n x 4 bytes over the cycles the second n
# adds, at core.clock_mhz), with one DRAM part changed at a time: queue
# sizes, scheduler, address map, command buses. For the 2n run: row-hit
# rate, row commands (ACT + PRE) per read, dram.queue_full. Prints the
# command and the commit it was produced at. B=path/to/gpustep overrides
# the binary (also GPUSTEP).
B=${B:-${GPUSTEP:-build/gpustep}}
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-volta.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
N=3194880   # qv100: 2 x 6 MB L2 / 4 B, rounded up to 80 SMs x 4 CTAs x 256 threads
CLOCK=1132  # qv100 core.clock_mhz
PEAK=870    # GB/s, configs/validation/published.json (qv100 dram_bandwidth)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo "+dirty")
echo "Produced by \`sh tools/volta_dram_ablation.sh\` at $commit$dirty: each row is \`$B qv100 -w stream"
echo "-p n=N -p ctas=320 OPTIONS --run --stats F\` for N = $N and $((2 * N)); GB/s = $N x 4 B x $CLOCK MHz /"
echo "(cycles(2N) - cycles(N)); the last three columns are of the 2N run."
echo
echo "| change | options | GB/s | of the $PEAK GB/s peak | row hits | (ACT + PRE) / RD | dram.queue_full |"
echo "|---|---|---|---|---|---|---|"
run() { # out n options...
	o=$1
	n=$2
	shift 2
	# shellcheck disable=SC2086
	"$B" qv100 -w stream -p n="$n" -p ctas=320 "$@" --run --stats "$o" >/dev/null 2>"$tmp/err" || {
		echo "volta_dram_ablation: $B qv100 -w stream -p n=$n $* failed:" >&2
		cat "$tmp/err" >&2
		exit 1
	}
}
while IFS='|' read -r label opts; do
	[ -n "$label" ] || continue
	# shellcheck disable=SC2086
	run "$tmp/a.json" "$N" $opts
	# shellcheck disable=SC2086
	run "$tmp/b.json" "$((2 * N))" $opts
	python3 - "$tmp/a.json" "$tmp/b.json" "$label" "$opts" "$N" "$CLOCK" "$PEAK" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
a, b = a.get('stats', a), b.get('stats', b)
n, clock, peak = int(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7])
gbs = n * 4 * clock * 1e6 / (b['sim.cycles'] - a['sim.cycles']) / 1e9
opts = '`%s`' % sys.argv[4].strip() if sys.argv[4].strip() else 'none'
print("| %s | %s | %.1f | %.2f | %.1f %% | %.3f | %d |" % (sys.argv[3].strip(), opts, gbs, gbs / peak,
      100 * b['dram.row_hit_rate'], (b['dram.activates'] + b['dram.precharges']) / b['dram.reads'], b['dram.queue_full']))
PY
done <<'EOF'
one command bus, row-hit cap 16 (the preset until 2026-12-06)|-s dram.dual_cmd=false -s dram.row_hit_cap=16
read and write queues 64 -> 256|-s dram.dual_cmd=false -s dram.row_hit_cap=16 -s dram.read_queue=256 -s dram.write_queue=256
FCFS instead of FR-FCFS|-s dram.dual_cmd=false -s dram.row_hit_cap=16 -s dram.scheduler=fcfs
no row-hit cap (16 -> 0, GPGPU-Sim's FR-FCFS)|-s dram.dual_cmd=false
bank bits: two below the column bits (4 banks, 4 bank groups, per 256 B chunk)|-s dram.dual_cmd=false -s dram.row_hit_cap=16 -s dram.mapping=row:bank[2]:col[3]:bank[2]:ch:col[4]
bank XOR with the row|-s dram.dual_cmd=false -s dram.row_hit_cap=16 -s dram.bank_xor=true
no bank groups (tCCD_L off)|-s dram.dual_cmd=false -s dram.row_hit_cap=16 -s dram.bank_groups=1
dual command bus (one row + one column command a cycle), row-hit cap 16|-s dram.row_hit_cap=16
the preset: dual command bus, no row-hit cap|
dual command bus, queues 256|-s dram.read_queue=256 -s dram.write_queue=256
EOF
