#!/bin/sh
# Run every built-in kernel at its default size under each policy option set
# below, on the presets given (default: teaching), and report every run that
# does not finish: a model deadlock (`--run` exits 1 naming it) or a run
# over the time limit (exit status 1 if any). A set the preset refuses (exit
# 2: e.g. TEMP needs 4 KB rows, so teaching gets dram.columns=1024 and
# gtx480, whose address map fixes 512 columns, the set without it) is
# listed as SKIP with the message.
#
#   B=build/gpustep sh tools/deadlock_sweep.sh [PRESET ...]
#
# Each option set is one `-s` list (spaces separate keys); the defaults are
# the first set. Teaching runs take 0.05-0.5 s each, so the whole sweep on
# the teaching preset is about 15 s; gtx480 takes a few minutes.
B=${B:-build/gpustep}
LIMIT=${LIMIT:-120}
[ $# -gt 0 ] || set -- teaching
SETS=${SETS:-"-
l1.bypass=locality
l1.bypass=locality l1.bypass_at_l2=nack
l1.bypass=mrpb
coherence.protocol=nmoesi
coherence.protocol=si
l2.frc.entries=8
l2.fill_reply=at_once
rf.kind=racetrack core.scheduler=rmws core.schedulers=2
core.scheduler=vws
core.scheduler=ccws
core.scheduler=tbas core.cta_dispatch=serial
core.scheduler=lrr
dram.page_alloc=temp
dram.page_alloc=temp dram.columns=1024"}
kernels=$("$B" --list-kernels 2>/dev/null | awk '{print $1}')
[ -n "$kernels" ] || { echo "deadlock_sweep: $B --list-kernels gave no kernels" >&2; exit 2; }
err=$(mktemp "${TMPDIR:-/tmp}/deadlock_sweep.XXXXXX")
trap 'rm -f "$err"' EXIT
for preset in "$@"; do
	echo "$SETS" | while IFS= read -r set; do
		args=""
		[ "$set" = "-" ] || for kv in $set; do args="$args -s $kv"; done
		for k in $kernels; do
			# shellcheck disable=SC2086
			timeout "$LIMIT" "$B" "$preset" -w "$k" $args --run --stats /dev/null >/dev/null 2>"$err"
			rc=$?
			if [ $rc -eq 2 ]; then
				echo "SKIP $preset -w $k$args: refused: $(head -c 200 "$err")"
			elif [ $rc -ne 0 ]; then
				case $rc in 124) what="no end within ${LIMIT} s" ;; *) what="exit $rc: $(head -c 300 "$err")" ;; esac
				echo "FAIL $preset -w $k$args: $what"
			fi
		done
	done
done >"$err.out"
cat "$err.out"
n=$(grep -c '^FAIL' "$err.out")
skips=$(grep -c '^SKIP' "$err.out")
rm -f "$err.out"
echo "deadlock_sweep: $n failing runs ($skips refused configurations skipped)"
[ "$n" -eq 0 ]
