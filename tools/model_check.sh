#!/bin/sh
# model_check.sh OLD_BIN NEW_BIN: `gpustep model` must print the same model
# results with both binaries (a speed change must not change a result).
#
# Every built-in kernel (its default parameters, and the larger inputs of
# docs/EXPERIMENTS.md's speed tables) on gtx480, with the model's default
# input (8192 threads) and --threads 0, the 16 KB and 48 KB L1, rule A and
# --rule-b; plus generated .trc traces (mixed 4/8/16-byte loads, stores,
# random and shared lines) through the same matrix. The simulation is
# skipped (--no-sim); the "model time" line is dropped, everything else
# (hit and miss rates, classes, the 4-run ablation, steps, cancels) must be
# byte-identical. Prints one line per difference and a summary; exit 1 on
# any difference.
OLD=${1:?usage: model_check.sh OLD_BIN NEW_BIN}
NEW=${2:?usage: model_check.sh OLD_BIN NEW_BIN}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/model_check.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files

# thread-address traces (engine/reuse/trc.h): N threads in blocks of B, each with
# K accesses drawn from an LCG (seed S) over M lines of 128 B
gen_trc() { # FILE N B K M S
	awk -v n="$2" -v b="$3" -v k="$4" -v m="$5" -v s="$6" 'BEGIN {
		printf "blocksize: %d 1 1\n", b
		x = s
		for (t = 0; t < n; t++)
			for (i = 0; i < k; i++) {
				x = (x * 1103515245 + 12345) % 2147483648
				r = int(x / 65536)
				sz = (r % 7 == 0) ? 16 : (r % 5 == 0) ? 8 : 4
				dir = (r % 11 == 0) ? 1 : 0
				if (r % 3 == 0)
					a = 4096 + (r % m) * 128            # a random line
				else
					a = 65536 + (t * k + i) * sz          # streaming
				printf "%d %d %d %d\n", t, dir, a, sz
			}
	}' >"$1"
}
gen_trc "$TMP/small.trc" 256 64 6 40 7
gen_trc "$TMP/rand.trc" 4096 256 8 600 11
gen_trc "$TMP/big.trc" 12288 192 5 3000 3

inputs() {
	"$OLD" --list-kernels | awk '{ print "-w " $1 }'
	cat <<EOF
-w matmul_naive -p n=256
-w matmul_tiled -p n=256
-w stencil2d -p n=2048
-w vecadd -p n=1048576
-w gather_random -p n=262144
-w bfs_like -p n=65536
-w transpose_naive -p n=512
-w reduction -p n=1048576
-w $TMP/small.trc
-w $TMP/rand.trc
-w $TMP/big.trc
EOF
}

runs=0
diffs=0
inputs >"$TMP/inputs"
while read -r in; do
	for threads in "" "--threads 0"; do
		for l1 in "" "-s l1.sets=64 -s l1.ways=6"; do
			for rule in "" "--rule-b"; do
				# shellcheck disable=SC2086
				"$OLD" model gtx480 $in $threads $l1 $rule --no-sim </dev/null 2>&1 |
					grep -v '^model time' >"$TMP/old"
				# shellcheck disable=SC2086
				"$NEW" model gtx480 $in $threads $l1 $rule --no-sim </dev/null 2>&1 |
					grep -v '^model time' >"$TMP/new"
				runs=$((runs + 1))
				if ! grep -q '^model hit rate' "$TMP/old"; then
					echo "NO RESULT: $in $threads $l1 $rule"
					diffs=$((diffs + 1))
				elif ! cmp -s "$TMP/old" "$TMP/new"; then
					echo "DIFFERS: $in $threads $l1 $rule"
					diff "$TMP/old" "$TMP/new" | sed 's/^/    /'
					diffs=$((diffs + 1))
				fi
			done
		done
	done
done <"$TMP/inputs"
echo "model_check: $runs runs, $diffs differing"
[ "$diffs" = 0 ]
