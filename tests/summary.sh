#!/bin/sh
# summary.sh RESULTS: print one line per test layer from RESULTS (lines
# "<layer> <passed> <failed>", appended by each runner) and the closing
# "N passed, N failed". Fails if anything failed or a layer did not report.
results=${1:-build/results.txt}
layers="unit ui fuzz golden e2e layers experiments"
if [ ! -f "$results" ]; then
	echo "no results file $results"
	echo "0 passed, 1 failed"
	exit 1
fi
awk -v layers="$layers" '
	{ p[$1] += $2; f[$1] += $3; seen[$1] = 1 }
	END {
		n = split(layers, L, " ")
		tp = 0; tf = 0
		for (i = 1; i <= n; i++) {
			l = L[i]
			if (!seen[l]) { printf "%-7s did not report (build or runner failure, or over the layer time limit)\n", l; tf++; continue }
			printf "%-7s %d passed, %d failed\n", l, p[l], f[l]
			tp += p[l]; tf += f[l]
		}
		for (l in seen) {
			known = 0
			for (i = 1; i <= n; i++) if (L[i] == l) known = 1
			if (!known) { printf "%-7s %d passed, %d failed\n", l, p[l], f[l]; tp += p[l]; tf += f[l] }
		}
		printf "%d passed, %d failed\n", tp, tf
		exit tf ? 1 : 0
	}' "$results"
