#!/bin/sh
# golden/run.sh BIN [RESULTS]: golden runs. Each case is a directory
# tests/golden/<case>/ holding `cmd` (arguments to gpustep, run from the
# repository root, e.g. `--run -w vecadd --seed 1`) and `expected.json`.
# The run's --stats JSON must match expected.json stat by stat (the version
# field is ignored). GOLDEN_UPDATE=1 rewrites the expectations instead.
# Appends "golden <passed> <failed>" to RESULTS.
BIN=$1
RESULTS=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
case "$BIN" in /*) ;; *) BIN="$(pwd)/$BIN" ;; esac
cd "$root" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-golden.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

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
for dir in tests/golden/*/; do
	[ -f "$dir/cmd" ] || continue
	name=$(basename "$dir")
	out="$tmp/$name.json"
	# shellcheck disable=SC2046
	"$BIN" $(cat "$dir/cmd") --stats "$out" >"$tmp/$name.log" 2>&1 </dev/null
	rc=$?
	if [ "$rc" != 0 ]; then
		echo "FAIL golden/$name: gpustep $(cat "$dir/cmd") exited $rc"
		sed 's/^/    /' "$tmp/$name.log" | tail -20
		fail=$((fail + 1))
		continue
	fi
	if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
		cp "$out" "$dir/expected.json"
		echo "UPDATED golden/$name"
		pass=$((pass + 1))
		continue
	fi
	if [ ! -f "$dir/expected.json" ]; then
		echo "FAIL golden/$name: no expected.json (run: make golden-update)"
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
	# Stats added since the expectation was recorded change no behaviour:
	# report them, do not fail (make golden-update records them).
	new=$(awk -F '\t' 'NR == FNR { want[$1] = 1; next } !($1 in want) { n++ } END { print n + 0 }' "$tmp/want" "$tmp/got")
	[ "$new" != 0 ] && echo "note golden/$name: $new stats not in the expectation (make golden-update records them)"
	if [ -n "$diffs" ]; then
		echo "FAIL golden/$name ($(echo "$diffs" | wc -l) differences; make golden-update if intended):"
		echo "$diffs" | head -30
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
echo "golden: $pass passed, $fail failed"
[ -n "$RESULTS" ] && echo "golden $pass $fail" >>"$RESULTS"
[ "$fail" = 0 ]
