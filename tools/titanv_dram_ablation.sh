#!/bin/sh
# titanv_dram_ablation.sh: the table of docs/EXPERIMENTS.md "titanv DRAM
# bandwidth: the partition indexing over 24 channels": the titanv preset's
# DRAM bandwidth measured as `gpustep validate` does (stream kind=0, ctas =
# 4 x SMs, n = twice the L2 in words rounded up to the grid-stride grain,
# against 2n: n x 4 bytes over the cycles the second n adds, at
# core.clock_mhz), with one part changed at a time: the L2 partition
# indexing, the stream's length, and the DRAM keys in which titanv and
# qv100 differ. Of the longer run: the channels' balance bound (mean over
# busiest channel's dram.chN.data_cycles: the fraction of the peak the
# stream could reach with every channel moving data at the busiest one's
# rate), the busiest channel's dram.chN.bus_util and the row-hit rate.
# The peak is dram.channels x dram.bus_bytes x dram.data_rate / dram.tck_ps
# of the row's config. B=path/to/gpustep overrides the binary (also GPUSTEP).
B=${B:-${GPUSTEP:-build/gpustep}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-titanv.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up
N=2375680  # titanv: 2 x 4.5 MB L2 / 4 B, rounded up to 80 SMs x 4 CTAs x 256 threads
CLOCK=1200 # titanv core.clock_mhz
run() { # out words options... (sets no variable of the caller's)
	out=$1
	words=$2
	shift 2
	"$B" titanv -w stream -p n="$words" -p ctas=320 "$@" --run --stats "$out" >/dev/null 2>"$tmp/err" || {
		echo "titanv_dram_ablation: $B titanv -w stream -p n=$words $* failed:" >&2
		cat "$tmp/err" >&2
		exit 1
	}
}
echo "| change | options | GB/s | of the peak | channels' balance bound | busiest channel's bus | row hits |"
echo "|---|---|---|---|---|---|---|"
while IFS='|' read -r label mult opts; do
	[ -n "$label" ] || continue
	n=$((N * mult))
	# shellcheck disable=SC2086
	"$B" titanv $opts --dump-config >"$tmp/cfg.json" 2>"$tmp/err" || {
		echo "titanv_dram_ablation: $B titanv $opts --dump-config failed:" >&2
		cat "$tmp/err" >&2
		exit 1
	}
	# shellcheck disable=SC2086
	run "$tmp/a.json" "$n" $opts
	# shellcheck disable=SC2086
	run "$tmp/b.json" "$((2 * n))" $opts
	python3 - "$tmp/a.json" "$tmp/b.json" "$tmp/cfg.json" "$label" "$opts" "$n" "$CLOCK" <<'PY' || exit 1
import json, re, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
a, b = a.get('stats', a), b.get('stats', b)
d = json.load(open(sys.argv[3]))['dram']
n, clock = int(sys.argv[6]), float(sys.argv[7])
peak = d['channels'] * d['bus_bytes'] * d['data_rate'] / d['tck_ps'] * 1e3
gbs = n * 4 * clock * 1e6 / (b['sim.cycles'] - a['sim.cycles']) / 1e9
ch = re.compile(r'^dram\.ch(\d+)\.(data_cycles|bus_util)$')
data, util = [], []
for k, v in b.items():
    m = ch.match(k)
    if m:
        (data if m.group(2) == 'data_cycles' else util).append(v)
if len(data) != d['channels']:
    sys.exit("titanv_dram_ablation: %d per-channel data_cycles for %d channels" % (len(data), d['channels']))
opts = '`%s`' % sys.argv[5].strip() if sys.argv[5].strip() else 'none'
print("| %s | %s | %.1f | %.2f of %.0f | %.3f | %.2f | %.1f %% |" % (sys.argv[4].strip(), opts, gbs, gbs / peak, peak,
      sum(data) / len(data) / max(data), max(util), 100 * b['dram.row_hit_rate']))
PY
done <<'EOF'
the preset: IPOLY over 32 x 2 = 64 sub-partitions, then mod 48 (SM7_TITANV)|1|
the preset, n and 2n twice as long|2|
the FRC thesis's L2: a fetch waits for its victim's L1 invalidations (the preset until 2026-12-06)|1|-s l2.sharers=exact
linear partition indexing (sub-partition = channel x 2 + the low bank bit)|1|-s l2.bank_hash=linear
no bank XOR (qv100's; SM7_QV100 has -dram_bnk_indexing_policy 0)|1|-s dram.bank_xor=false
qv100's write queue (64 entries, drained from 24 to 8)|1|-s dram.write_queue=64 -s dram.write_high=24 -s dram.write_low=8
linear partition indexing, no bank XOR|1|-s l2.bank_hash=linear -s dram.bank_xor=false
32 channels x 2 sub-partitions (qv100's count; IPOLY over 64 without the mod)|1|-s dram.channels=32 -s l2.banks=64
EOF
