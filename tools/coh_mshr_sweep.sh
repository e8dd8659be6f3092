#!/bin/sh
# coh_mshr_sweep.sh [BIN] [CONFIG] [KERNEL [-p NAME=VALUE ...]]: SI vs NMOESI
# (FRC thesis §4.8) over L1 MSHR counts 1 2 4 8 16 32 64: cycles to
# completion, dir_locked NACKs and the messages that differ (SI write-throughs,
# NMOESI GetN/Unblock). Markdown rows for docs/EXPERIMENTS.md.
# Default: gtx480, shared_write (contended write sharing).
#
# coh_mshr_sweep.sh table [BIN]: the whole table of docs/EXPERIMENTS.md "SI vs
# NMOESI" (one header): shared_write with its defaults and with
# -p lines=512 -p iters=64, then transpose_naive, saxpy and histogram.
if [ "${1:-}" = table ]; then
	BIN=${2:-build/gpustep}
	sh "$0" "$BIN" gtx480 shared_write || exit 1
	for k in "shared_write -p lines=512 -p iters=64" transpose_naive saxpy histogram; do
		# shellcheck disable=SC2086
		sh "$0" "$BIN" gtx480 $k | tail -n +3 || exit 1
	done
	exit 0
fi
BIN=${1:-build/gpustep}
CFG=${2:-gtx480}
[ $# -ge 2 ] && shift 2 || shift $#
[ $# -ge 1 ] || set -- shared_write
K=$1
shift
P=""
for a in "$@"; do
	[ "$a" = -p ] || P="$P $a"
done
echo "| kernel | MSHRs | SI cycles | NMOESI cycles | NMOESI / SI | SI NACKs | NMOESI NACKs | SI WT | NMOESI GetN | faster |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for m in 1 2 4 8 16 32 64; do
	for p in si nmoesi; do
		"$BIN" "$CFG" -w "$K" "$@" -s coherence.protocol=$p -s l1.mshr.entries=$m --run --stats - </dev/null |
			awk -F'[:,]' -v p=$p '
			/"sim.cycles"/ { c = $2 + 0 } /"coh.nacks"/ { n = $2 + 0 }
			/"coh.msgs.WT"/ { wt = $2 + 0 } /"coh.msgs.GetN"/ { g = $2 + 0 }
			END { printf "%s %d %d %d %d\n", p, c, n, wt, g }'
	done | awk -v k="$K" -v par="$P" -v m=$m '
		$1 == "si" { sc = $2; sn = $3; swt = $4 }
		$1 == "nmoesi" { nc = $2; nn = $3; ng = $5 }
		END { printf "| %s%s | %d | %d | %d | %.2f | %d | %d | %d | %d | %s |\n", k, par, m, sc, nc,
			(sc ? nc / sc : 0), sn, nn, swt, ng, (sc < nc ? "SI" : sc > nc ? "NMOESI" : "equal") }'
done
