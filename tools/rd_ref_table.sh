#!/bin/sh
# rd_ref_table.sh [BIN] [REF_BIN]: docs/REUSE.md's tables of `gpustep model
# --semantics reference` (and gpustep semantics) on the .trc inputs of
# tools/rd_traces.sh, 16 KB (32 x 4) and 48 KB (64 x 6) Fermi L1s, 64 MSHRs,
# miss latency 100, sigma 0, every thread (--threads 0), 16 histogram bins.
#
# REF_BIN: a built reference implementation (tue-es/gpu-cache-model's
# `cachemodel`, not part of this repository; build it elsewhere with
# `g++ -O2 -std=c++11 src/model/*.cpp -o cachemodel`). When given, each
# trace also runs through it with the same configuration and its histogram
# (bucketed the same way) and printed breakdown are shown under ours; the
# last line counts the inputs whose histograms differ (exit 1 if any).
# gpustep semantics rows: misses include those to lines in flight, as the
# reference counts them; the headline rate without them is in parentheses.
BIN=${1:-build/gpustep}
REF=${2:-}
CAP=16
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rd_ref_table.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files
sh "$(dirname "$0")/rd_traces.sh" "$TMP/trc" || exit 1

header() {
	printf '| trace | L1 | side |'
	i=0
	while [ $i -lt $CAP ]; do printf ' %d |' $i; i=$((i + 1)); done
	printf ' >=%d | inf | misses: comp + cap + assoc + lat + mshr = total | hits | miss %% |\n|---|---|---|' $CAP
	i=0
	while [ $i -le $((CAP + 1)) ]; do printf -- '---|'; i=$((i + 1)); done
	printf -- '---|---|---|\n'
}

# ours NAME KB SEM: one row from gpustep's JSON (reference_report for the
# reference semantics: the reference's own reading of the run)
ours() {
	extra=""
	[ "$2" = 48 ] && extra="-s l1.sets=64 -s l1.ways=6"
	# shellcheck disable=SC2086
	"$BIN" model gtx480 -w "$TMP/trc/$1.trc" $extra --threads 0 --lat-sigma 0 --no-sim --hist-cap $CAP \
		--semantics "$3" --json "$TMP/o.json" >/dev/null 2>"$TMP/err" || { cat "$TMP/err" >&2; return 1; }
	awk -v name="$1" -v kb="$2" -v sem="$3" '
		/"hist":/ { s = $0; sub(/.*\[/, "", s); sub(/\].*/, "", s); gsub(/ /, "", s); h = s }
		/"never_seen":/ { inf = $2 + 0 }
		/"in_flight":/ { fly = $2 + 0 }
		/"accesses":/ && !acc { acc = $2 + 0 }
		/"reference_report":/ { rr = $0 }
		/"classes":/ { cl = $0 }
		/"hits":/ && !hits { hits = $2 + 0 }
		/"misses":/ && !mis { mis = $2 + 0 }
		function get(line, k,   s) { s = line; sub(".*\"" k "\": ", "", s); sub(/[,}].*/, "", s); return s + 0 }
		END {
			gsub(/,/, " | ", h)
			if (sem == "reference") {
				c = get(rr, "compulsory"); p = get(rr, "capacity"); a = get(rr, "associativity")
				l = get(rr, "latency"); m = get(rr, "mshr"); tot = get(rr, "misses"); hh = get(rr, "hits")
				label = "gpustep --semantics reference"
			} else {
				c = get(cl, "compulsory"); p = get(cl, "capacity"); a = get(cl, "associativity")
				l = get(cl, "latency"); m = get(cl, "mshr"); tot = mis + fly; hh = hits
				label = "gpustep (in flight: " fly ")"
			}
			pc = sprintf("%.2f", acc ? 100 * tot / acc : 0)
			if (sem != "reference") # the headline rate leaves the in-flight misses out
				pc = pc sprintf(" (%.2f)", acc ? 100 * mis / acc : 0)
			printf "| %s | %s KB | %s | %s | %d | %d + %d + %d + %d + %d = %d | %d | %s |\n", name, kb, label, h,
				inf, c, p, a, l, m, tot, hh, pc
		}' "$TMP/o.json"
	# the histogram alone, for the comparison
	awk '/"hist":/ { s = $0; sub(/.*\[/, "", s); sub(/\].*/, "", s); gsub(/ /, "", s); h = s }
		/"never_seen":/ { n = $2; sub(/,/, "", n); print h "," n }' "$TMP/o.json" >"$TMP/ours.hist"
}

# theirs NAME KB: the reference implementation on the same trace
theirs() {
	ways=4
	[ "$2" = 48 ] && ways=6
	d="$TMP/ref"
	rm -rf "$d"
	mkdir -p "$d/configurations" "$d/output/$1"
	printf 'LINE_SIZE 128\nCACHE_BYTES %d\nCACHE_WAYS %d\nNUM_MSHR 64\nMEM_LATENCY 100\nMEM_LATENCY_STDDEV 0\n' \
		$(($2 * 1024)) $ways >"$d/configurations/current.conf"
	cp "$TMP/trc/$1.trc" "$d/output/$1/$1_00.trc"
	(cd "$d" && "$REF" "$1" >stdout.txt 2>&1)
	awk -v cap=$CAP -v name="$1" -v kb="$2" '
		/^histogram:/ { on = 1; next }
		on && NF == 0 { on = 0; next }
		on { if ($1 == 99999999) inf += $2; else if ($1 + 0 >= cap) h[cap] += $2; else h[$1 + 0] += $2; next }
		{ k = $1; sub(/:$/, "", k); v[k] = $2 }
		END {
			row = ""; cmp = ""
			for (i = 0; i <= cap; i++) { row = row sprintf("%s%d", i ? " | " : "", h[i]); cmp = cmp (h[i] + 0) "," }
			c = v["modelled_misses(compulsory)"]; p = v["modelled_misses(capacity)"]
			a = v["modelled_misses(associativity)"]; l = v["modelled_misses(latency)"]
			m = v["modelled_misses(mshr)"]; hh = v["modelled_hits"]; acc = v["modelled_accesses"]
			printf "| %s | %s KB | reference implementation | %s | %d | %d + %d + %d + %d + %d = %d | %d | %.2f |\n",
				name, kb, row, inf, c, p, a, l, m, acc - hh, hh, v["modelled_miss_rate"]
			print cmp inf > "'"$TMP/theirs.hist"'"
		}' "$d/output/$1/$1_00.out"
}

header
differ=0
n=0
for t in stream strided transpose gather wide stencil matmul; do
	for kb in 16 48; do
		ours "$t" "$kb" reference || exit 1
		if [ -n "$REF" ]; then
			theirs "$t" "$kb"
			n=$((n + 1))
			if ! cmp -s "$TMP/ours.hist" "$TMP/theirs.hist"; then
				differ=$((differ + 1))
				echo "DIFFERS: $t $kb KB" >&2
			fi
		fi
		ours "$t" "$kb" gpustep || exit 1
	done
done
if [ -n "$REF" ]; then
	echo
	echo "rd_ref_table: $n inputs, $differ with a different histogram"
	[ "$differ" = 0 ]
fi
