#!/bin/sh
# e2e/run.sh BIN [RESULTS]: run every tests/e2e/*.sh (except this runner and
# lib.sh) with the binary's absolute path as $1; each exits 0 (pass) or not.
# Appends "e2e <passed> <failed>" to RESULTS.
BIN=$1
RESULTS=$2
case "$BIN" in /*) ;; *) BIN="$(pwd)/$BIN" ;; esac
dir=$(cd "$(dirname "$0")" && pwd)
pass=0
fail=0
for t in "$dir"/*.sh; do
	name=$(basename "$t" .sh)
	case "$name" in run | lib) continue ;; esac
	log=$(mktemp "${TMPDIR:-/tmp}/gpustep-e2e-log.XXXXXX")
	if sh "$t" "$BIN" >"$log" 2>&1 </dev/null; then
		pass=$((pass + 1))
	else
		echo "FAIL e2e/$name"
		sed 's/^/  /' "$log" | tail -40
		fail=$((fail + 1))
	fi
	rm -f "$log"
done
echo "e2e: $pass passed, $fail failed"
[ -n "$RESULTS" ] && echo "e2e $pass $fail" >>"$RESULTS"
[ "$fail" = 0 ]
