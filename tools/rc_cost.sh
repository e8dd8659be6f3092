#!/bin/sh
# rc_cost.sh OLD NEW: cost of `reverse-continue` against the forward run, for
# docs/SESSIONS.md ("Cost of reverse-continue") and docs/PERFORMANCE.md.
# Per case and binary, runs the batch script
#   break cycle 100 / continue / goto G            (variant g: forward)
#   break cycle 100 / continue / goto G / rc       (variant r: forward + rc)
# and `--run` (variant run, snapshots off), the two binaries alternating,
# REPS times (default 3), printing user CPU seconds (GNU time %U); rc's own
# cost is r - g. With CACHEGRIND=1 it also prints the instructions executed
# (valgrind --tool=cachegrind --cache-sim=no) of g and r, once each: they do
# not vary with load, except that snapshot positions follow the measured
# speed (docs/SESSIONS.md, "Budget, interval and thinning").
#
#   sh tools/rc_cost.sh /tmp/old/build/gpustep build/gpustep
#   CASES=titanv REPS=5 CACHEGRIND=1 nice -n 10 sh tools/rc_cost.sh OLD NEW
set -u
die() { echo "rc_cost: $*" >&2; exit 2; }
[ $# -eq 2 ] || die "usage: rc_cost.sh OLD_BINARY NEW_BINARY"
for b in "$1" "$2"; do [ -x "$b" ] || die "$b: not an executable"; done
[ -x /usr/bin/time ] || die "needs GNU time (/usr/bin/time)"
reps=${REPS:-3}
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files

# run BIN CASE VARIANT: user seconds (or instructions with CACHEGRIND=run).
run() {
	case $2 in
	vecadd) goal=3000000; set -- "$1" "$2" "$3" -w vecadd -p n=4194304 ;;
	titanv) goal=300000; set -- "$1" "$2" "$3" titanv -w matmul_naive -p n=256 ;;
	*) die "unknown case $2" ;;
	esac
	bin=$1 v=$3
	shift 3
	script="break cycle 100\ncontinue\ngoto $goal\n"
	[ "$v" = r ] && script="${script}rc\n"
	if [ "${cg:-0}" = 1 ]; then
		# shellcheck disable=SC2059
		printf "$script" | valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
			"$bin" "$@" -x - >"$tmp/out" 2>&1 || { echo failed; return; }
		sed -n 's/.*I *refs: *//p' "$tmp/out" | tr -d ,
	elif [ "$v" = run ]; then
		/usr/bin/time -f %U -o "$tmp/t" "$bin" "$@" --run >/dev/null 2>&1 || { echo failed; return; }
		cat "$tmp/t"
	else
		# shellcheck disable=SC2059
		printf "$script" | /usr/bin/time -f %U -o "$tmp/t" "$bin" "$@" -x - >/dev/null 2>&1 || { echo failed; return; }
		cat "$tmp/t"
	fi
}

printf '%-7s %-4s %10s %10s   (user s; rc alone = r - g)\n' case var old new
for c in ${CASES:-vecadd titanv}; do
	i=0
	while [ "$i" -lt "$reps" ]; do
		for v in run g r; do
			printf '%-7s %-4s %10s %10s\n' "$c" "$v" "$(cg=0 run "$1" "$c" $v)" "$(cg=0 run "$2" "$c" $v)"
		done
		i=$((i + 1))
	done
	if [ "${CACHEGRIND:-0}" = 1 ]; then
		for v in g r; do
			printf '%-7s %-4s %14s %14s   (instructions)\n' "$c" "$v" "$(cg=1 run "$1" "$c" $v)" "$(cg=1 run "$2" "$c" $v)"
		done
	fi
done
