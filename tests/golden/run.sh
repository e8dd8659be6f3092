#!/bin/sh
# golden/run.sh BIN [RESULTS]: golden runs. Each case is a directory
# tests/golden/<case>/ holding `cmd` (arguments to gpustep, run from the
# repository root, e.g. `--run -w vecadd --seed 1`) and `expected.json`.
# The run's --stats JSON must match expected.json stat by stat (the version
# field is ignored); a stat missing from the expectation fails too.
# GOLDEN_UPDATE=1 rewrites the expectations that differ, lists what changed,
# and counts each rewritten case as failed (never as passed).
# Appends "golden <passed> <failed>" to RESULTS.
#
# Time limit: each case runs under timeout(1) for GOLDEN_TIMEOUT seconds
# (default 60; the slowest case takes about 3 s alone, docs/TESTING.md); a
# case over it prints "TIMEOUT golden/<case>" and fails, and after
# GOLDEN_MAX_TIMEOUTS (1) time-out(s) the remaining cases fail unrun. A run
# the deadlock detector stopped ("the model deadlocked", exit 1) fails with
# its message as any other non-zero exit.
BIN=$1
RESULTS=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
case "$BIN" in /*) ;; *) BIN="$(pwd)/$BIN" ;; esac
cd "$root" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-golden.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files

# Flatten our stats JSON into "key<TAB>value" lines (histograms become
# name.buckets / name.counts).
flatten() {
	awk '
	{
		line = $0
		sub(/^[ \t]+/, "", line); sub(/,[ \t]*$/, "", line)
		if (line ~ /^}/) { if (depth > 0) depth--; next }
		if (line !~ /^"/) next
		key = line; sub(/^"/, "", key); sub(/": .*$/, "", key)
		val = line; sub(/^"[^"]*": /, "", val)
		if (val == "{") { stack[++depth] = key; next }
		full = ""
		for (i = 2; i <= depth; i++) full = full stack[i] "."
		if (key == "gpustep" && depth == 0) next
		printf "%s%s\t%s\n", full, key, val
	}' "$1" | sort
}

pass=0
fail=0
updated=0
timeouts=0
skipped=0
limit=${GOLDEN_TIMEOUT:-60}
for dir in tests/golden/*/; do
	[ -f "$dir/cmd" ] || continue
	name=$(basename "$dir")
	out="$tmp/$name.json"
	if [ "$timeouts" -ge "${GOLDEN_MAX_TIMEOUTS:-1}" ]; then
		skipped=$((skipped + 1))
		fail=$((fail + 1))
		continue
	fi
	# shellcheck disable=SC2046
	timeout -k 5 "$limit" "$BIN" $(cat "$dir/cmd") --stats "$out" >"$tmp/$name.log" 2>&1 </dev/null
	rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "TIMEOUT golden/$name (over $limit s): gpustep $(cat "$dir/cmd")"
		sed 's/^/    /' "$tmp/$name.log" | tail -5
		timeouts=$((timeouts + 1))
		fail=$((fail + 1))
		continue
	fi
	if [ "$rc" != 0 ]; then
		echo "FAIL golden/$name: gpustep $(cat "$dir/cmd") exited $rc"
		sed 's/^/    /' "$tmp/$name.log" | tail -20
		fail=$((fail + 1))
		continue
	fi
	if [ ! -f "$dir/expected.json" ]; then
		if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
			cp "$out" "$dir/expected.json"
			echo "UPDATED golden/$name: new expectation recorded ($(flatten "$out" | wc -l) values; review it)"
			updated=$((updated + 1))
		else
			echo "FAIL golden/$name: no expected.json (run: make golden-update)"
		fi
		fail=$((fail + 1))
		continue
	fi
	flatten "$dir/expected.json" >"$tmp/want"
	flatten "$out" >"$tmp/got"
	diffs=$(awk -F '\t' '
		NR == FNR { want[$1] = $2; next }
		{ got[$1] = $2 }
		END {
			for (k in want) if (!(k in got)) printf "    %s: expected %s, missing\n", k, want[k]
			else if (want[k] != got[k]) printf "    %s: expected %s, got %s\n", k, want[k], got[k]
		}' "$tmp/want" "$tmp/got" | sort)
	# Stats the expectation does not have: the expectation no longer
	# describes the whole run, so they fail too (listed by name).
	new=$(awk -F '\t' 'NR == FNR { want[$1] = 1; next } !($1 in want) { printf "    %s: new, %s\n", $1, $2 }' "$tmp/want" "$tmp/got")
	if [ -z "$diffs" ] && [ -z "$new" ]; then
		pass=$((pass + 1))
		continue
	fi
	nd=0; nn=0
	[ -n "$diffs" ] && nd=$(echo "$diffs" | wc -l)
	[ -n "$new" ] && nn=$(echo "$new" | wc -l)
	if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
		# A rewritten expectation is a change to review, never a pass.
		cp "$out" "$dir/expected.json"
		echo "UPDATED golden/$name ($nd differences, $nn new stats; review git diff tests/golden/$name):"
		updated=$((updated + 1))
	else
		echo "FAIL golden/$name ($nd differences, $nn new stats; make golden-update if intended):"
	fi
	[ -n "$diffs" ] && echo "$diffs" | head -30
	[ -n "$new" ] && echo "$new" | head -30
	fail=$((fail + 1))
done
[ "$updated" != 0 ] && echo "golden: $updated expectations rewritten; they count as failed until a run without GOLDEN_UPDATE passes"
[ "$skipped" != 0 ] && echo "TIMEOUT golden: the $skipped cases after the time-out were not run (counted as failed)"
echo "golden: $pass passed, $fail failed"
[ -n "$RESULTS" ] && echo "golden $pass $fail" >>"$RESULTS"
[ "$fail" = 0 ]
