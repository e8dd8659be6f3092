#!/bin/sh
# frc_sweep.sh [BIN] [PRESET] [WORKLOAD] [extra gpustep args...]: the FRC size
# sweep of docs/EXPERIMENTS.md. Runs WORKLOAD headless with 0, 4, 8, 16, 32,
# 64 and 128 FRC entries per L2 bank (8-way; 4 entries are 4-way) and prints
# one row per size: cycles, IPC, OPC, FRC share of L2 misses (frc.share =
# frc.allocs / l2.misses, whose denominator also counts merged misses and
# every retry of a refused miss), the FRC's share of the misses that got a
# miss-tracking entry (share_h = l2.miss_lat.frc.misses / (that + the
# conventional path's l2.miss_lat.conv.misses): each distinct miss once), fallbacks,
# refused misses (set_all_transient / all NACKs), mean memory latency and L2
# misses per kilo warp instruction (l2.mpki), L2<->memory bytes per cycle,
# and the L2 miss latency split (l2.miss_lat.*): per miss, on the
# conventional path (c_) and the FRC path (f_), average cycles waiting for
# invalidation acks (inv), the victim's write-back (ev), memory to accept the
# fetch (cont) and DRAM (dram). Add -s coherence.protocol=moesi to see
# invalidations.
# The FRC set index is l2.frc.index (default xor): add -s l2.frc.index=global
# for the aliasing index the sweep used before the option existed.
#   sh tools/frc_sweep.sh build/gpustep rx540 l2_set_burst -p set_stride=4096 -p ctas=64 -p iters=16 -p sets_used=4
BIN=${1:-build/gpustep}
PRESET=${2:-rx540}
WL=${3:-l2_set_burst}
[ $# -ge 3 ] && shift 3 || shift $#
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-frc.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files
printf '%-8s %9s %7s %7s %6s %7s %9s %9s %7s %9s %7s %6s | %6s %6s %6s %6s | %6s %6s\n' entries cycles ipc opc share \
	share_h fallbacks set_full nacks mem_lat l2_mpki B/cyc c_inv c_ev c_cont c_dram f_cont f_dram
for n in 0 4 8 16 32 64 128; do
	ways=8
	[ "$n" -lt 8 ] && [ "$n" -gt 0 ] && ways=$n
	"$BIN" "$PRESET" --run -w "$WL" -s l2.frc.entries=$n -s l2.frc.ways=$ways --stats "$tmp/s.json" "$@" \
		>/dev/null 2>"$tmp/err" || { echo "entries=$n: failed"; cat "$tmp/err"; exit 1; }
	awk -v n="$n" '
		/"cycles":/ { gsub(/[^0-9]/, "", $2); cyc = $2 }
		/"sim.ipc":/ { ipc = $2 + 0 } /"sim.opc":/ { opc = $2 + 0 }
		/"frc.share":/ { share = $2 + 0 } /"frc.fallbacks":/ { fb = $2 + 0 }
		/"l2.set_all_transient":/ { sat = $2 + 0 } /"l2.nacks":/ { nk = $2 + 0 }
		/"core.mem_latency_avg":/ { lat = $2 + 0 } /"l2.misses":/ { mis = $2 + 0 }
		/"sim.warp_insts":/ { wi = $2 + 0 } /"l2.mem_bytes_per_cycle":/ { bpc = $2 + 0 }
		/"l2.miss_lat.conv.avg_inval":/ { ci = $2 + 0 } /"l2.miss_lat.conv.avg_evict":/ { ce = $2 + 0 }
		/"l2.miss_lat.conv.avg_contention":/ { cc = $2 + 0 } /"l2.miss_lat.conv.avg_dram":/ { cd = $2 + 0 }
		/"l2.miss_lat.frc.avg_contention":/ { fc = $2 + 0 } /"l2.miss_lat.frc.avg_dram":/ { fd = $2 + 0 }
		/"l2.miss_lat.frc.misses":/ { fm = $2 + 0 } /"l2.miss_lat.conv.misses":/ { cm = $2 + 0 }
		END { printf "%-8s %9d %7.3f %7.2f %6.2f %7.2f %9d %9d %7d %9.1f %7.1f %6.1f | %6.1f %6.1f %6.1f %6.1f | %6.1f %6.1f\n",
			n, cyc, ipc, opc, share, fm + cm ? fm / (fm + cm) : 0, fb, sat, nk, lat, wi ? 1000 * mis / wi : 0, bpc,
			ci, ce, cc, cd, fc, fd }
	' "$tmp/s.json"
done
