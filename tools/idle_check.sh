#!/bin/sh
# idle_check.sh: check that two gpustep binaries give byte-identical results
# (--stats JSON, exit status, stderr) for every built-in kernel on several
# presets and options. Written for the idle-unit skipping of sim_tick
# (docs/PERFORMANCE.md), which must change speed only.
#
#   sh tools/idle_check.sh OLD NEW     two binaries
#   sh tools/idle_check.sh REV [NEW]   build OLD from git revision REV (git
#                                      archive into a temp dir, make); NEW
#                                      defaults to build/gpustep
#
# Environment: PRESETS (default "teaching gtx480 titanv rx540 hd7770"),
# OPTS (the -s settings run besides none, default "coherence.protocol=moesi
# l2.frc.entries=16 rf.kind=racetrack"), JOBS for the old build (default
# 2). Prints one line per difference and a summary; exits 1 if anything
# differs.
set -u
die() { echo "idle_check: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: idle_check.sh OLD_BINARY NEW_BINARY | idle_check.sh REV [NEW_BINARY]"
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
if [ -x "$1" ] && [ -f "$1" ]; then
	old=$1
else
	rev=$1
	top=$(git rev-parse --show-toplevel) || die "$rev is neither an executable nor inside a git tree"
	git -C "$top" rev-parse --verify -q "$rev^{commit}" >/dev/null || die "$rev: not an executable file or a git revision"
	mkdir "$tmp/src"
	git -C "$top" archive "$rev" | tar -x -C "$tmp/src" || die "git archive $rev failed"
	echo "building $rev in $tmp/src ..."
	make -C "$tmp/src" -j"${JOBS:-2}" build/gpustep >"$tmp/build.log" 2>&1 || {
		tail -20 "$tmp/build.log"
		die "building $rev failed"
	}
	old=$tmp/src/build/gpustep
fi
new=${2:-build/gpustep}
[ -x "$new" ] || die "$new: not an executable"
presets=${PRESETS:-"teaching gtx480 titanv rx540 hd7770"}
kernels=$("$new" --list-kernels | awk '{print $1}')
[ -n "$kernels" ] || die "$new --list-kernels printed nothing"

# Default sizes (small), plus larger ones for a few kernels so that every SM
# of the big presets gets work and queues fill up.
sizes() {
	echo "-"
	case $1 in
	vecadd) echo "n=131072" ;;
	gather_random) echo "n=32768" ;;
	matmul_tiled) echo "n=96" ;;
	transpose_naive) echo "n=192" ;;
	histogram) echo "n=65536" ;;
	esac
}

runs=0 diffs=0
for p in $presets; do
	for k in $kernels; do
		for sz in $(sizes "$k"); do
			for opt in none ${OPTS:-coherence.protocol=moesi l2.frc.entries=16 rf.kind=racetrack}; do
				set -- "$p" --run -w "$k"
				[ "$sz" = - ] || set -- "$@" -p "$sz"
				[ "$opt" = none ] || set -- "$@" -s "$opt"
				"$old" "$@" --stats "$tmp/a.json" >"$tmp/a.out" 2>"$tmp/a.err"
				ra=$?
				"$new" "$@" --stats "$tmp/b.json" >"$tmp/b.out" 2>"$tmp/b.err"
				rb=$?
				runs=$((runs + 1))
				what=""
				[ $ra -eq $rb ] || what="$what exit($ra vs $rb)"
				cmp -s "$tmp/a.err" "$tmp/b.err" || what="$what stderr"
				cmp -s "$tmp/a.out" "$tmp/b.out" || what="$what stdout"
				if [ -f "$tmp/a.json" ] || [ -f "$tmp/b.json" ]; then
					cmp -s "$tmp/a.json" "$tmp/b.json" || what="$what stats"
				fi
				if [ -n "$what" ]; then
					diffs=$((diffs + 1))
					echo "DIFF:$what: $*"
				fi
				rm -f "$tmp/a.json" "$tmp/b.json"
			done
		done
	done
done
echo "idle_check: $runs runs, $diffs differ ($old vs $new)"
[ $diffs -eq 0 ]
