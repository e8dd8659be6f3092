#!/bin/sh
# Compare gpustep with DRAMSim3 on the same DRAMSim-format traces and the
# same .ini (docs/DRAM.md "gpustep against DRAMSim3"). DRAMSim3 is built
# outside the repository:
#   git clone https://github.com/umd-memsys/DRAMsim3 /tmp/dramsim3
#   (cd /tmp/dramsim3 && mkdir -p build && cd build && cmake .. && make dramsim3)
#   tools/dramsim3_cmp/run.sh [INI] [gpustep -s options...]
# INI defaults to DRAMSim3's configs/GDDR5_8Gb_x32.ini. Prints the table of
# docs/DRAM.md (between its markers): a "Produced by" line, then one row per
# trace: row-hit rate, activates, mean read latency (DRAM cycles; DRAMSim3's
# average_read_latency) and gpustep's difference from it, drain cycle and
# its difference. DS3 (DRAMSim3 checkout), GPUSTEP (binary, default
# build/gpustep), WORK (scratch directory) and DS3_COMMIT (printed when DS3
# is not a git checkout) override the defaults.
set -e
DS3=${DS3:-/tmp/dramsim3}
ARGS="$*"
INI=$DS3/configs/GDDR5_8Gb_x32.ini
case "${1:-}" in
-* | '') ;;
*) INI=$1; shift ;;
esac
HERE=$(cd "$(dirname "$0")" && pwd)
GPUSTEP=${GPUSTEP:-$HERE/../../build/gpustep}
W=${WORK:-/tmp/gpustep_ds3cmp}
if [ ! -f "$DS3/libdramsim3.so" ] || [ ! -f "$INI" ]; then
	echo "dramsim3_cmp: needs a DRAMSim3 build in $DS3 (libdramsim3.so) and $INI; see the top of $0" >&2
	exit 2
fi
[ -x "$GPUSTEP" ] || { echo "dramsim3_cmp: no gpustep binary at $GPUSTEP (make build/gpustep, or set GPUSTEP)" >&2; exit 2; }
commit=$(git -C "$HERE" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$HERE" status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo "+dirty" || true)
ds3c=$(git -C "$DS3" rev-parse --short HEAD 2>/dev/null || echo "${DS3_COMMIT:-unknown}")
mkdir -p "$W/out"
cd "$W"
[ -x drv ] || g++ -O2 -std=c++11 -I"$DS3/src" -I"$DS3/ext/headers" -I"$DS3/ext/fmt/include" "$HERE/drv.cc" \
	-L"$DS3" -ldramsim3 -Wl,-rpath,"$DS3" -o drv
[ -f seq_u.trc ] || python3 "$HERE/gen.py"
echo "Produced by \`tools/dramsim3_cmp/run.sh${ARGS:+ $ARGS}\` at $commit$dirty (DRAMSim3 $ds3c, $(basename "$INI"))."
echo
echo "| trace | DRAMSim3 row hits | gpustep row hits | DRAMSim3 ACT | gpustep ACT | DRAMSim3 read latency | gpustep read latency | latency vs DRAMSim3 | DRAMSim3 drain | gpustep drain | drain vs DRAMSim3 |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for t in seq random two_streams strided mix; do
	for m in u s; do
		./drv "$INI" ${t}_$m.trc >ds3.log 2>&1
		"$GPUSTEP" --dram-trace ${t}_$m.trc "$INI" "$@" --stats gs.json >/dev/null 2>gs.err || { cat gs.err >&2; exit 1; }
		python3 - "$t" "$m" <<'PY'
import json, sys
d = json.load(open('out/dramsim3.json'))['0']
drain = int(open('ds3.log').read().split('drain ')[-1].split()[0])
s = json.load(open('gs.json')); s = s.get('stats', s)
h = (d['num_read_row_hits'] + d['num_write_row_hits']) / (d['num_read_cmds'] + d['num_write_cmds'])
name = sys.argv[1] + (' (1 per 16 cycles)' if sys.argv[2] == 'u' else ' (saturated)')
dl, gl, gd = d['average_read_latency'], s['dram.read_latency_mean_dram'], s['dram.cycles']
print("| %s | %.2f %% | %.2f %% | %d | %d | %.2f | %.2f | %+.1f %% | %d | %d | %+.2f %% |" % (name, 100 * h,
      100 * s['dram.row_hit_rate'], d['num_act_cmds'], s['dram.activates'], dl, gl, 100 * (gl / dl - 1), drain, gd,
      100 * (gd / drain - 1)))
PY
	done
done
