#!/bin/sh
# mutation_check.sh [ID ...]: apply each deliberate bug of tests/mutations.txt
# (or only the named ones) to a copy-restored source file, rebuild, and run
# its test command, which must fail. Prints "caught ID" or "MISSED ID" per
# mutation and exits 1 if any was missed or no longer applies. The source
# is restored after each mutation (and on Ctrl-C); run it on a clean tree.
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
	if ! make -j2 build/gpustep build/unit_tests build/ui_tests build/fuzz_replay >"$bak.log" 2>&1; then
		echo "caught $id (the mutant does not build)"
	elif sh -c "$cmd" >"$bak.log" 2>&1; then
		echo "MISSED $id: '$cmd' passed with the bug in $file"
		echo x >>"$bak.missed"
	else
		echo "caught $id: $(grep -m1 -E 'FAIL|failed|!=|lacks' "$bak.log")"
	fi
	restore
done
make -j2 build/gpustep build/unit_tests build/ui_tests build/fuzz_replay >/dev/null 2>&1
if [ -f "$bak.missed" ]; then
	rm -f "$bak.missed" "$bak.log"
	exit 1
fi
rm -f "$bak.log"
exit 0
