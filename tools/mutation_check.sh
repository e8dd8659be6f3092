#!/bin/sh
# mutation_check.sh [ID ...]: apply each deliberate bug of tests/mutations.txt
# (or only the named ones) to a copy-restored source file, rebuild, and run
# its test command, which must fail. Prints "caught ID" or "MISSED ID" per
# mutation and exits 1 if any was missed or no longer applies. The source
# is restored after each mutation (and on Ctrl-C); run it on a clean tree.
# Each line also gives the seconds its command ran (the time-to-fail of a
# caught mutant), and the last line the catch rate and the longest
# time-to-fail (docs/TESTING.md records them).
cd "$(dirname "$0")/.." || exit 1
list=tests/mutations.txt
bak=$(mktemp "${TMPDIR:-/tmp}/gpustep-mut.XXXXXX") || exit 1
cur=
restore() { [ -n "$cur" ] && cp "$bak" "$cur"; cur=; }
trap 'restore; rm -f "$bak"; exit 130' INT TERM
trap 'restore; rm -f "$bak"' EXIT
caught=0
missed=0
grep -v '^#' "$list" | grep -v '^[[:space:]]*$' | while IFS= read -r line; do
	id=$(printf "%s\n" "$line" | awk -F ' [|] ' '{print $1}')
	file=$(printf "%s\n" "$line" | awk -F ' [|] ' '{print $2}')
	expr=$(printf "%s\n" "$line" | awk -F ' [|] ' '{print $3}')
	cmd=$(printf "%s\n" "$line" | awk -F ' [|] ' '{print $4}')
	if [ $# -gt 0 ]; then
		want=0
		for a in "$@"; do [ "$a" = "$id" ] && want=1; done
		[ "$want" = 1 ] || continue
	fi
	cp "$file" "$bak"
	cur=$file
	sed -i "$expr" "$file"
	if cmp -s "$file" "$bak"; then
		echo "STALE $id: the sed expression no longer changes $file"
		restore
		echo x >>"$bak.missed"
		continue
	fi
	# the binaries the command names (all four when it names none)
	bins=$(printf "%s\n" "$cmd" | grep -o 'build/[a-z_]*' | sort -u | tr '\n' ' ')
	[ -n "$bins" ] || bins="build/gpustep build/unit_tests build/ui_tests build/fuzz_replay"
	# shellcheck disable=SC2086
	if ! make -j2 $bins >"$bak.log" 2>&1; then
		echo "caught $id (the mutant does not build)"
		echo "caught 0 $id" >>"$bak.times"
		restore
		continue
	fi
	t0=$(date +%s.%N)
	sh -c "$cmd" >"$bak.log" 2>&1
	rc=$?
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	if [ "$rc" = 0 ]; then
		echo "MISSED $id: '$cmd' passed with the bug in $file (${secs} s)"
		echo x >>"$bak.missed"
		echo "missed $secs $id" >>"$bak.times"
	else
		echo "caught $id in ${secs} s: $(grep -m1 -E 'TIMEOUT|FAIL|failed|!=|lacks' "$bak.log")"
		echo "caught $secs $id" >>"$bak.times"
	fi
	restore
done
make -j2 build/gpustep build/unit_tests build/ui_tests build/fuzz_replay >/dev/null 2>&1
[ -f "$bak.times" ] && awk '
	{ n++; if ($1 == "caught") { c++; if ($2 + 0 > max) { max = $2 + 0; id = $3 } } }
	END { printf "mutation_check: caught %d of %d (%.0f%%); longest time-to-fail %.1f s (%s)\n", c, n, n ? 100 * c / n : 0, max, id }' "$bak.times"
rm -f "$bak.times"
if [ -f "$bak.missed" ]; then
	rm -f "$bak.missed" "$bak.log"
	exit 1
fi
rm -f "$bak.log"
exit 0
