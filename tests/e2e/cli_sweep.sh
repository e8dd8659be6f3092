#!/bin/sh
# gpustep sweep (docs/SWEEPS.md): 8 small jobs with -j 2, the same with real
# GNU parallel (identical results), a sweep killed half-way and resumed (no
# job runs twice, nothing lost), a failed job's record, the Slurm script's
# task logic, collect (CSV checked against the per-job JSON), a PNG plot,
# and bad specs.
. "$(dirname "$0")/lib.sh"

S=$E2E_TMP/s.json
cat >"$S" <<'EOF'
{"configs": ["teaching"], "workloads": ["vecadd", "strided"],
 "axes": {"l1.mshr.entries": [4, 8]}, "params": {"n": [1024, 2048]}, "seeds": [1]}
EOF
R=$E2E_TMP/s-results

# ---- -j 2 -----------------------------------------------------------------
"$BIN" sweep "$S" -j 2 >"$E2E_TMP/out" 2>&1 || fail "sweep -j 2: exit $?: $(cat "$E2E_TMP/out")"
expect_contains "$(cat "$E2E_TMP/out")" "8 jobs: 8 done (8 run now, 0 had results), 0 failed"
[ "$(ls "$R/jobs" | grep -c '^[0-9a-f]*\.json$')" = 8 ] || fail "expected 8 results: $(ls "$R/jobs")"
[ "$(grep -c '^done ' "$R/sweep.log")" = 8 ] || fail "sweep.log: $(cat "$R/sweep.log")"
# each result is what a plain run of that job gives
line=$("$BIN" sweep "$S" --list | awk '$1 == 5')
key=$(echo "$line" | awk '{print $2}')
expect_contains "$line" "teaching strided 4 2048 1"
"$BIN" teaching -w strided -s l1.mshr.entries=4 -p n=2048 --seed 1 --run --stats "$E2E_TMP/direct.json" >/dev/null ||
	fail "direct run"
cmp -s "$R/jobs/$key.json" "$E2E_TMP/direct.json" || fail "job 5's result differs from a direct run"
# a second run has nothing to do
"$BIN" sweep "$S" -j 2 >"$E2E_TMP/out" 2>&1 || fail "rerun: exit $?"
expect_contains "$(cat "$E2E_TMP/out")" "8 had results"
[ "$(grep -c '^start ' "$R/sweep.log")" = 8 ] || fail "a finished job ran again: $(cat "$R/sweep.log")"

# ---- collect: SQLite + CSV, CSV checked against each job's JSON --------------
"$BIN" sweep collect "$S" --csv "$E2E_TMP/all.csv" 2>"$E2E_TMP/err" || fail "collect: $(cat "$E2E_TMP/err")"
[ -s "$R/results.db" ] || fail "no results.db"
[ "$(head -c 15 "$R/results.db")" = "SQLite format 3" ] || fail "results.db is not SQLite"
[ "$(wc -l <"$E2E_TMP/all.csv")" = 9 ] || fail "CSV rows: $(wc -l <"$E2E_TMP/all.csv")"
for stat in cycles sim.warp_insts l1.misses dram.activates; do
	col=$(head -1 "$E2E_TMP/all.csv" | tr ',' '\n' | grep -nx "$stat" | cut -d: -f1)
	[ -n "$col" ] || fail "CSV has no column $stat"
	tail -n +2 "$E2E_TMP/all.csv" | while IFS=, read -r job k rest; do
		csv=$(grep "^$job,$k," "$E2E_TMP/all.csv" | cut -d, -f"$col")
		json=$(grep "\"$stat\":" "$R/jobs/$k.json" | head -1 | sed 's/.*: *//; s/,$//')
		[ "$csv" = "$json" ] || { echo "job $job $stat: CSV $csv, JSON $json"; exit 1; }
	done || fail "CSV and JSON disagree"
done

# ---- plot (gnuplot) -----------------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
	"$BIN" sweep plot "$S" --x param.n --y cycles --by workload -o "$E2E_TMP/p.png" 2>"$E2E_TMP/err" ||
		fail "plot: $(cat "$E2E_TMP/err")"
	[ "$(od -An -tx1 -N8 "$E2E_TMP/p.png" | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "p.png has no PNG header"
	[ "$(wc -c <"$E2E_TMP/p.png")" -gt 2000 ] || fail "p.png is tiny"
else
	echo "SKIP plot: gnuplot not installed (sudo apt-get install -y gnuplot-nox)"
	out=$("$BIN" sweep plot "$S" --x param.n --y cycles -o "$E2E_TMP/p.png" 2>&1) && fail "plot without gnuplot succeeded"
	expect_contains "$out" "apt-get install -y gnuplot-nox"
fi
out=$("$BIN" sweep plot "$S" --x nope --y cycles -o "$E2E_TMP/p.png" 2>&1) && fail "plot --x nope accepted"
expect_contains "$out" "--x nope: not a dimension"

# ---- GNU parallel: same results ---------------------------------------------------
P=$E2E_TMP/par
"$BIN" sweep "$S" --out "$P" --emit parallel "$E2E_TMP/pjobs" >"$E2E_TMP/out" || fail "emit parallel"
[ "$(wc -l <"$E2E_TMP/pjobs/jobs.txt")" = 8 ] || fail "jobs.txt: $(cat "$E2E_TMP/pjobs/jobs.txt")"
if command -v parallel >/dev/null 2>&1; then
	JOBS=2 sh "$E2E_TMP/pjobs/run.sh" >"$E2E_TMP/out" 2>&1 || fail "parallel: $(cat "$E2E_TMP/out")"
	[ "$(wc -l <"$E2E_TMP/pjobs/joblog")" = 9 ] || fail "joblog: $(cat "$E2E_TMP/pjobs/joblog")"
	for f in "$R"/jobs/*.json; do
		cmp -s "$f" "$P/jobs/$(basename "$f")" || fail "parallel result $(basename "$f") differs from -j 2"
	done
else
	echo "SKIP GNU parallel run: parallel not installed (sudo apt-get install -y parallel)"
fi

# ---- Slurm array script: each task runs one job --------------------------------------
"$BIN" sweep "$S" --out "$E2E_TMP/sl" --emit slurm "$E2E_TMP/sjobs" >"$E2E_TMP/out" || fail "emit slurm"
grep -q '^#SBATCH --array=0-7$' "$E2E_TMP/sjobs/sweep.sbatch" || fail "sbatch: $(cat "$E2E_TMP/sjobs/sweep.sbatch")"
SLURM_ARRAY_TASK_ID=3 sh "$E2E_TMP/sjobs/sweep.sbatch" >"$E2E_TMP/out" 2>&1 || fail "task 3: $(cat "$E2E_TMP/out")"
[ "$(ls "$E2E_TMP/sl/jobs" | wc -l)" = 1 ] || fail "task 3 wrote: $(ls "$E2E_TMP/sl/jobs")"
key3=$("$BIN" sweep "$S" --list | awk '$1 == 3 {print $2}')
[ -f "$E2E_TMP/sl/jobs/$key3.json" ] || fail "task 3 did not write job 3"
out=$(SLURM_ARRAY_TASK_ID=3 sh "$E2E_TMP/sjobs/sweep.sbatch") || fail "task 3 again"
expect_contains "$out" "result exists, skipped"
# --time, --partition, --mem become #SBATCH lines; bad values and use without --emit slurm are refused
"$BIN" sweep "$S" --out "$E2E_TMP/sl" --emit slurm "$E2E_TMP/sjobs2" --time 1-02:30:00 --partition gpu,debug --mem 4G \
	>"$E2E_TMP/out" || fail "emit slurm with --time/--partition/--mem"
for l in '#SBATCH --time=1-02:30:00' '#SBATCH --partition=gpu,debug' '#SBATCH --mem=4G'; do
	grep -qx -- "$l" "$E2E_TMP/sjobs2/sweep.sbatch" || fail "no '$l' in: $(cat "$E2E_TMP/sjobs2/sweep.sbatch")"
done
grep -q -- '--time\|--partition\|--mem' "$E2E_TMP/sjobs/sweep.sbatch" && fail "--time etc. written without being asked"
out=$("$BIN" sweep "$S" --emit slurm "$E2E_TMP/sjobs3" --time '2h; rm' 2>&1)
[ $? = 2 ] || fail "--time '2h; rm': not exit 2"
expect_contains "$out" "--time '2h; rm': expected minutes, MM:SS, HH:MM:SS or D-HH:MM:SS"
out=$("$BIN" sweep "$S" --emit slurm "$E2E_TMP/sjobs3" --mem 4Q 2>&1)
[ $? = 2 ] || fail "--mem 4Q: not exit 2"
expect_contains "$out" "expected a size such as 4G or 500M"
out=$("$BIN" sweep "$S" -j 1 --partition gpu 2>&1)
[ $? = 2 ] || fail "--partition without --emit slurm: not exit 2"
expect_contains "$out" "use them with --emit slurm DIR"

# ---- killed half-way, then resumed ---------------------------------------------------
K=$E2E_TMP/k.json
cat >"$K" <<'EOF'
{"workloads": ["vecadd"], "params": {"n": [524288, 786432, 1048576, 655360]}, "seeds": [1, 2]}
EOF
KR=$E2E_TMP/k-results
"$BIN" sweep "$K" -j 2 >"$E2E_TMP/kout" 2>&1 &
pid=$!
i=0
while [ "$(ls "$KR/jobs" 2>/dev/null | grep -c '^[0-9a-f]*\.json$')" -lt 3 ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -TERM $pid
wait $pid
rc=$?
[ "$rc" = 1 ] || fail "killed sweep: exit $rc: $(cat "$E2E_TMP/kout")"
expect_contains "$(cat "$E2E_TMP/kout")" "run the same command to resume"
first=$(grep -c '^done ' "$KR/sweep.log")
[ "$first" -ge 3 ] && [ "$first" -lt 8 ] || fail "killed after $first jobs (want 3..7): $(cat "$KR/sweep.log")"
ls "$KR/jobs" | grep -q tmp && fail "a temp file is left: $(ls "$KR/jobs")"
n1=$(wc -l <"$KR/sweep.log")
# A job can finish (its result renamed into place) after the last 'done'
# line was logged and before the TERM reached the sweep: the result files
# are what a resume trusts, and there are at least as many as 'done' lines.
have=$(ls "$KR/jobs" | grep -c '^[0-9a-f]*\.json$')
[ "$have" -ge "$first" ] || fail "$have results but $first 'done' lines"
"$BIN" sweep "$K" -j 2 >"$E2E_TMP/kout" 2>&1 || fail "resume: $(cat "$E2E_TMP/kout")"
expect_contains "$(cat "$E2E_TMP/kout")" "$have had results"
[ "$(ls "$KR/jobs" | grep -c '^[0-9a-f]*\.json$')" = 8 ] || fail "after resume: $(ls "$KR/jobs")"
# no job finished twice, and none that had finished started again
[ "$(grep '^done ' "$KR/sweep.log" | awk '{print $3}' | sort | uniq -d)" = "" ] || fail "a job finished twice"
for k in $(head -n "$n1" "$KR/sweep.log" | awk '$1 == "done" {print $3}'); do
	tail -n +"$((n1 + 1))" "$KR/sweep.log" | grep -q " $k" && fail "job $k ran again after the resume"
done
[ "$(grep -c '^done ' "$KR/sweep.log")" = 8 ] || fail "sweep.log: $(cat "$KR/sweep.log")"

# ---- a failed job records its exit code and message -------------------------------
F=$E2E_TMP/f.json
echo '{"workloads": ["vecadd"], "seeds": [1, 2]}' >"$F"
fkey=$("$BIN" sweep "$F" --list | awk '$1 == 1 {print $2}')
mkdir -p "$E2E_TMP/f-results/jobs/$fkey.json" # its result path is a directory: the job refuses it before it runs (exit 2)
"$BIN" sweep "$F" -j 2 >"$E2E_TMP/fout" 2>&1 && fail "a failing sweep exited 0"
expect_contains "$(cat "$E2E_TMP/fout")" "job 1 ($fkey) failed, exit 2"
ff=$E2E_TMP/f-results/jobs/$fkey.fail.json
[ -f "$ff" ] || fail "no $fkey.fail.json"
expect_contains "$(cat "$ff")" '"exit":	2'
expect_contains "$(cat "$ff")" "is a directory"
out=$("$BIN" sweep "$F" --list)
expect_contains "$out" "$fkey failed"
"$BIN" sweep collect "$F" --csv - 2>/dev/null | grep -q "^1,$fkey,failed," || fail "collect: job 1 not failed"

# ---- bad input ---------------------------------------------------------------------
echo '{"workloads": ["vecadd"], "axes": {"l1.mshr.entriez": [4]}}' >"$E2E_TMP/b1.json"
out=$("$BIN" sweep "$E2E_TMP/b1.json" 2>&1)
[ $? = 2 ] || fail "unknown axis: not exit 2"
expect_contains "$out" 'unknown config path "l1.mshr.entriez"'
echo '{"workloads": ["vecadd"], "axes": {"l1.mshr.entries": [0]}}' >"$E2E_TMP/b2.json"
out=$("$BIN" sweep "$E2E_TMP/b2.json" 2>&1)
[ $? = 2 ] || fail "bad value: not exit 2"
expect_contains "$out" "job 0 (config=teaching workload=vecadd l1.mshr.entries=0 seed=1)"
echo '{"workloads": ["nosuchkernel"]}' >"$E2E_TMP/b3.json"
out=$("$BIN" sweep "$E2E_TMP/b3.json" 2>&1) && fail "unknown workload accepted"
expect_contains "$out" "no such file or built-in kernel"
echo '{"workloads": ["vecadd"], "combine": "zip", "axes": {"l1.mshr.entries": [4, 8], "l1.ways": [2, 4, 8]}}' >"$E2E_TMP/b4.json"
out=$("$BIN" sweep "$E2E_TMP/b4.json" 2>&1) && fail "zip of unequal lists accepted"
expect_contains "$out" "equal length"
out=$("$BIN" sweep "$S" -j 2 --job 1 2>&1)
[ $? = 2 ] || fail "-j with --job: not exit 2"
out=$("$BIN" sweep "$S" --job 99 2>&1)
[ $? = 2 ] || fail "--job 99: not exit 2"
expect_contains "$out" "jobs 0 to 7"
exit 0
