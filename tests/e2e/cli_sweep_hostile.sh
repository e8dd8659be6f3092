#!/bin/sh
# Sweep specs and paths from someone else (docs/SWEEPS.md, "Files from
# others"): names with newlines, backquotes, $( ), quotes, spaces and % reach
# no shell and no gnuplot command; control characters are refused; --fmt is
# held to its grammar; duplicate keys and damaged results are refused.
. "$(dirname "$0")/lib.sh"

NL='
'
# A directory whose name is a shell's and gnuplot's worst case (no newline:
# that one is refused below).
H="$E2E_TMP/d i'r;\`touch PWN1\`\$(touch PWN2)%x%%A"
mkdir -p "$H" || fail "mkdir"
S="$H/s.json"
cat >"$S" <<'EOF'
{"workloads": ["vecadd"], "params": {"n": [256]}, "seeds": [1, 2]}
EOF
cd "$E2E_TMP" || exit 1

# ---- control characters are refused ------------------------------------------
mkdir -p "$E2E_TMP/nl${NL}dir"
cp "$S" "$E2E_TMP/nl${NL}dir/s.json"
out=$("$BIN" sweep "$E2E_TMP/nl${NL}dir/s.json" --list 2>&1)
[ $? = 2 ] || fail "spec path with a newline: not exit 2: $out"
expect_contains "$out" "control character"
out=$("$BIN" sweep "$S" --out "$E2E_TMP/o${NL}touch PWN3" --list 2>&1)
[ $? = 2 ] || fail "--out with a newline: not exit 2"
expect_contains "$out" "--out: the path holds a control character (byte 0x0a"
out=$("$BIN" sweep "$S" --out "$E2E_TMP/r" --emit parallel "$E2E_TMP/e${NL}touch PWN4" 2>&1)
[ $? = 2 ] || fail "--emit dir with a newline: not exit 2"
expect_contains "$out" "--emit: the path holds a control character"
[ -e "$E2E_TMP/e${NL}touch PWN4" ] && fail "the --emit directory was created"
printf '{"workloads": ["vecadd"], "axes": {"name": ["a\\nb"]}}' >"$E2E_TMP/v.json"
out=$("$BIN" sweep "$E2E_TMP/v.json" --list 2>&1)
[ $? = 2 ] || fail "a value with a newline: not exit 2"
expect_contains "$out" '"name": value: the path holds a control character'

# ---- GNU parallel: every path quoted, one job per line -----------------------------
R="$H/res ults"
"$BIN" sweep "$S" --out "$R" --emit parallel "$H/pj" >"$E2E_TMP/out" 2>&1 || fail "emit parallel: $(cat "$E2E_TMP/out")"
[ "$(wc -l <"$H/pj/jobs.txt")" = 2 ] || fail "jobs.txt: $(cat "$H/pj/jobs.txt")"
grep -v "^#" "$H/pj/run.sh" | grep -c . | grep -qx 1 || fail "run.sh: $(cat "$H/pj/run.sh")"
if command -v parallel >/dev/null 2>&1; then
	JOBS=1 sh "$H/pj/run.sh" >"$E2E_TMP/out" 2>&1 || fail "run.sh: $(cat "$E2E_TMP/out")"
else # the job lines as a shell reads them
	sh "$H/pj/jobs.txt" >"$E2E_TMP/out" 2>&1 || fail "jobs.txt: $(cat "$E2E_TMP/out")"
fi
[ "$(ls "$R/jobs" | grep -c '^[0-9a-f]*\.json$')" = 2 ] || fail "parallel results: $(ls "$R/jobs")"

# ---- Slurm: no path raw in a comment, #SBATCH --output only when sbatch can read it --
"$BIN" sweep "$S" --out "$R" --emit slurm "$H/sj" >"$E2E_TMP/out" 2>&1 || fail "emit slurm: $(cat "$E2E_TMP/out")"
B="$H/sj/sweep.sbatch"
grep -q '^#SBATCH --output' "$B" && fail "#SBATCH --output with a space and %: $(cat "$B")"
grep -q "^# as a Slurm job array; submit with: sbatch '--output=.*%%x%%%%A/sj/slurm-%A_%a.out' '" "$B" ||
	fail "the sbatch command in the comment: $(cat "$B")"
expect_contains "$(cat "$E2E_TMP/out")" "sbatch '--output="
SLURM_ARRAY_TASK_ID=1 sh "$B" >"$E2E_TMP/out" 2>&1 || fail "task 1: $(cat "$E2E_TMP/out")"
expect_contains "$(cat "$E2E_TMP/out")" "result exists, skipped"
mkdir -p "$E2E_TMP/plain"
"$BIN" sweep "$S" --out "$E2E_TMP/plain/r" --emit slurm "$E2E_TMP/plain/sj" >/dev/null 2>&1 || fail "emit slurm (plain)"
grep -qx "#SBATCH --output=$E2E_TMP/plain/sj/slurm-%A_%a.out" "$E2E_TMP/plain/sj/sweep.sbatch" ||
	fail "plain directory lost its #SBATCH --output: $(cat "$E2E_TMP/plain/sj/sweep.sbatch")"

# ---- gnuplot: backquotes in values and -o stay text ----------------------------------
G="$E2E_TMP/g.json"
cat >"$G" <<'EOF'
{"workloads": ["vecadd"], "axes": {"name": ["x`touch PWN5`", "y'q\"z"]}, "params": {"n": [256]}}
EOF
"$BIN" sweep "$G" -j 2 >"$E2E_TMP/out" 2>&1 || fail "g sweep: $(cat "$E2E_TMP/out")"
if command -v gnuplot >/dev/null 2>&1; then
	"$BIN" sweep plot "$G" --x name --y cycles -o "$E2E_TMP/p\`touch PWN6\`'.svg" 2>"$E2E_TMP/err" ||
		fail "plot: $(cat "$E2E_TMP/err")"
	[ -s "$E2E_TMP/p\`touch PWN6\`'.svg" ] || fail "the plot was not written under its literal name"
	grep -q 'x`touch PWN5`' "$E2E_TMP/p\`touch PWN6\`'.svg" || fail "the label is not in the plot"
fi
out=$("$BIN" sweep plot "$G" --x name --y cycles -o "$E2E_TMP/p${NL}.svg" 2>&1)
[ $? = 2 ] || fail "-o with a newline: not exit 2"
for f in PWN1 PWN2 PWN3 PWN4 PWN5 PWN6; do
	[ -e "$E2E_TMP/$f" ] || [ -e "$H/$f" ] || [ -e "$ROOT/$f" ] && fail "$f was created: a name ran as a command"
done

# ---- sweep table --fmt: a small grammar, not a printf format ---------------------------
out=$("$BIN" sweep table "$G" --rows name --stats cycles --base "x\`touch PWN5\`" --fmt '%.3f%%' 2>&1) ||
	fail "--fmt %.3f%%: $out"
expect_contains "$out" "| 1.000% |"
for bad in '%n' '%nf' '%s' '%sf' '%d' '%.3f %f' 'cycles' '%.100000000f' '%100000000f' '%.3q'; do
	out=$("$BIN" sweep table "$G" --rows name --stats cycles --fmt "$bad" 2>&1)
	[ $? = 2 ] || fail "--fmt '$bad' accepted: $out"
	expect_contains "$out" "--fmt '$bad'"
done
out=$("$BIN" sweep table "$G" --rows name --stats cycles --fmt '%.100000000f' 2>&1)
expect_contains "$out" "precision at most 30"

# ---- duplicate keys ----------------------------------------------------------------
echo '{"workloads": ["vecadd"], "axes": {"l1.ways": [2], "l1.ways": [4]}}' >"$E2E_TMP/d1.json"
out=$("$BIN" sweep "$E2E_TMP/d1.json" --list 2>&1)
[ $? = 2 ] || fail "duplicate axis: not exit 2"
expect_contains "$out" 'axes: "l1.ways" is given twice'
echo '{"workloads": ["vecadd"], "params": {"n": [256], "n": [512]}}' >"$E2E_TMP/d2.json"
out=$("$BIN" sweep "$E2E_TMP/d2.json" --list 2>&1)
[ $? = 2 ] || fail "duplicate param: not exit 2"
expect_contains "$out" 'params: "n" is given twice'
echo '{"workloads": ["vecadd"], "seeds": [1], "seeds": [2]}' >"$E2E_TMP/d3.json"
out=$("$BIN" sweep "$E2E_TMP/d3.json" --list 2>&1)
[ $? = 2 ] || fail "duplicate top-level key: not exit 2"

# ---- damaged results are not done -----------------------------------------------------
k0=$("$BIN" sweep "$S" --out "$R" --list | awk '$1 == 0 {print $2}')
k1=$("$BIN" sweep "$S" --out "$R" --list | awk '$1 == 1 {print $2}')
echo '[]' >"$R/jobs/$k0.json"
sed 's/"cycles":[^,]*/"cycles": 1e300/' "$R/jobs/$k1.json" >"$E2E_TMP/big" && mv "$E2E_TMP/big" "$R/jobs/$k1.json"
grep -q '"cycles": 1e300' "$R/jobs/$k1.json" || fail "could not damage the result"
out=$("$BIN" sweep "$S" --out "$R" --list)
echo "$out" | grep -q "$k0 done" && fail "[] counted as done"
echo "$out" | grep -q "$k1 done" && fail "cycles 1e300 counted as done"
"$BIN" sweep "$S" --out "$R" -j 2 >"$E2E_TMP/out" 2>&1 || fail "rerun: $(cat "$E2E_TMP/out")"
expect_contains "$(cat "$E2E_TMP/out")" "2 jobs: 2 done (2 run now, 0 had results)"

# ---- two runners on one results folder: no job runs twice ---------------------------
TW="$E2E_TMP/two.json"
echo '{"workloads": ["vecadd", "strided"], "params": {"n": [1024, 2048]}, "seeds": [1, 2]}' >"$TW"
"$BIN" sweep "$TW" -j 1 >"$E2E_TMP/two.a" 2>&1 &
first=$!
"$BIN" sweep "$TW" -j 1 >"$E2E_TMP/two.b" 2>&1
wait "$first"
starts=$(grep -c '^start ' "$E2E_TMP/two-results/sweep.log")
[ "$starts" = 8 ] || fail "two runners started $starts jobs for 8: $(cat "$E2E_TMP/two-results/sweep.log")"
[ "$(ls "$E2E_TMP/two-results/jobs" | grep -c '^[0-9a-f]*\.json$')" = 8 ] || fail "two runners: not 8 results"
exit 0
