#!/bin/sh
# e2e/run.sh BIN [RESULTS]: run every tests/e2e/*.sh (except this runner and
# lib.sh) with the binary's absolute path as $1; each exits 0 (pass) or not.
# Appends "e2e <passed> <failed>" to RESULTS.
#
# Time limit: each script runs under timeout(1) (TERM to its whole process
# group, so the gpustep it started too, then KILL 5 s later) for
# E2E_TIMEOUT seconds (default 120), or its own limit from the table below
# (at least 7x its time in a run on the build machine under a load of 9,
# 2026-12-06; docs/TESTING.md). A
# script over it prints "TIMEOUT e2e/<name>" and fails; after
# E2E_MAX_TIMEOUTS (1) time-out(s) the remaining scripts fail unrun.
BIN=$1
RESULTS=$2
case "$BIN" in /*) ;; *) BIN="$(pwd)/$BIN" ;; esac
dir=$(cd "$(dirname "$0")" && pwd)
# Scripts slower than the default allows for: NAME SECONDS.
slow="
cli_info 300
cli_l2_queue_never_nacks 400
cli_lesson 240
cli_model_ref 240
cli_no_deadlock 450
cli_sweep 240
cli_whatif_interrupt 240
layers_check 900
tui_rc_interrupt 300
tui_startup_state 300
tui_typeahead 240
"
limit_of() {
	l=$(printf "%s\n" "$slow" | awk -v n="$1" '$1 == n { print $2 }')
	echo "${l:-${E2E_TIMEOUT:-120}}"
}
pass=0
fail=0
timeouts=0
skipped=0
for t in "$dir"/*.sh; do
	name=$(basename "$t" .sh)
	case "$name" in run | lib) continue ;; esac
	if [ "$timeouts" -ge "${E2E_MAX_TIMEOUTS:-1}" ]; then
		skipped=$((skipped + 1))
		fail=$((fail + 1))
		continue
	fi
	limit=$(limit_of "$name")
	log=$(mktemp "${TMPDIR:-/tmp}/gpustep-e2e-log.XXXXXX")
	timeout -k 5 "$limit" sh "$t" "$BIN" >"$log" 2>&1 </dev/null
	rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "TIMEOUT e2e/$name (over $limit s)"
		sed 's/^/  /' "$log" | tail -10
		timeouts=$((timeouts + 1))
		fail=$((fail + 1))
	elif [ "$rc" = 0 ]; then
		pass=$((pass + 1))
	else
		echo "FAIL e2e/$name"
		sed 's/^/  /' "$log" | tail -40
		fail=$((fail + 1))
	fi
	rm -f "$log"
done
[ "$skipped" != 0 ] && echo "TIMEOUT e2e: the $skipped scripts after the time-out were not run (counted as failed)"
echo "e2e: $pass passed, $fail failed"
[ -n "$RESULTS" ] && echo "e2e $pass $fail" >>"$RESULTS"
[ "$fail" = 0 ]
