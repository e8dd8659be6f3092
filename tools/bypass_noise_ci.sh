#!/bin/sh
# Locality bypassing vs none on one gtx480 kernel under one-cycle latency
# changes, with the mean and a 95 % confidence interval of the IPC change
# (docs/EXPERIMENTS.md, "Locality bypassing"):
#
#   B=build/gpustep sh tools/bypass_noise_ci.sh KERNEL [-p k=v ...] [-s k=v ...]
#
# Each row runs `$B gtx480 -w KERNEL OPTIONS -s CHANGE -s l1.bypass=none|locality`;
# CHANGE is the preset itself, icnt.latency 5..11 (preset 8) or
# l2.hit_latency 116..124 (preset 120). The kernel is deterministic: the
# changes stand in for the run-to-run variation a one-wave kernel would see
# from any small timing difference. Prints markdown rows and a summary.
#
# BASE and VARIANT (default "-s l1.bypass=none" and "-s l1.bypass=locality")
# are the two option sets compared; SUMMARY=1 prints only "MEAN LOW HIGH"
# (the mean change in % and its 95 % CI; tools/bypass_cases.sh uses it).
B=${B:-build/gpustep}
BASE=${BASE:--s l1.bypass=none}
VARIANT=${VARIANT:--s l1.bypass=locality}
[ $# -ge 1 ] || { echo "usage: sh tools/bypass_noise_ci.sh KERNEL [OPTIONS...]" >&2; exit 2; }
K=$1
shift
T=$(mktemp -d "${TMPDIR:-/tmp}/bypass_noise_ci.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
ipc() { sed -n 's/^ *"sim.ipc": \([-0-9.e+]*\),\{0,1\}$/\1/p' "$T/$1.json"; }
run() { # run NAME CHANGE OPTIONS
	_n=$1 _c=$2 _o=$3
	# shellcheck disable=SC2086 # option lists
	"$B" gtx480 -w "$K" $OPTS $_c $_o --run --stats "$T/$_n.json" >/dev/null 2>"$T/err" ||
		{ echo "bypass_noise_ci: $K $_c: $(cat "$T/err")" >&2; exit 1; }
}
# row TEXT: a markdown row, unless SUMMARY=1
row() { [ "${SUMMARY:-0}" = 1 ] || echo "$1"; }
OPTS="$*"
changes="preset"
for v in 5 6 7 9 10 11; do changes="$changes icnt.latency=$v"; done
for v in 116 117 118 119 121 122 123 124; do changes="$changes l2.hit_latency=$v"; done
if [ "$BASE$VARIANT" = "-s l1.bypass=none-s l1.bypass=locality" ]; then
	row "| change | none IPC | locality IPC | locality vs none |"
else
	row "| change | IPC ($BASE) | IPC ($VARIANT) | change |"
fi
row "|---|---|---|---|"
: >"$T/d"
for c in $changes; do
	if [ "$c" = preset ]; then s=""; else s="-s $c"; fi
	run n "$s" "$BASE"
	run l "$s" "$VARIANT"
	a=$(ipc n) b=$(ipc l)
	row "$(awk -v c="$c" -v a="$a" -v b="$b" 'BEGIN { printf "| %s | %.4f | %.4f | %+.1f %% |", c, a, b, (b - a) / a * 100 }')"
	awk -v a="$a" -v b="$b" 'BEGIN { printf "%.6f\n", (b - a) / a * 100 }' >>"$T/d"
done
# Mean, sample standard deviation, 95 % CI with Student's t (n - 1 degrees
# of freedom; the table covers n up to 30), minimum, maximum, and how many
# runs lose at most 1 %.
awk -v summary="${SUMMARY:-0}" 'BEGIN { split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045", t, " ") }
     { x[NR] = $1; s += $1; if (NR == 1 || $1 < lo) lo = $1; if (NR == 1 || $1 > hi) hi = $1; ok += ($1 >= -1) }
     END { m = s / NR; for (i = 1; i <= NR; i++) v += (x[i] - m) ^ 2; sd = sqrt(v / (NR - 1));
           h = t[NR - 1] * sd / sqrt(NR);
           if (summary == 1) { printf "%+.2f %+.2f %+.2f\n", m, m - h, m + h; exit }
           printf "| **mean of %d** | | | **%+.1f %%** (95 %% CI %+.1f to %+.1f; sd %.1f; range %+.1f to %+.1f; %d of %d lose at most 1 %%) |\n",
                  NR, m, m - h, m + h, sd, lo, hi, ok, NR }' "$T/d"
