#!/bin/sh
# Lessons: every built-in lesson passes --check with its scripted answers in
# tests/lessons/NAME.answers and fails it with NAME.wrong; progress lives under
# $XDG_STATE_HOME/gpustep/lessons/; bad input is named.
. "$(dirname "$0")/lib.sh"

XDG_STATE_HOME="$E2E_TMP/state"
export XDG_STATE_HOME

n=0
for f in configs/lessons/*.json; do
	name=$(basename "$f" .json)
	[ -f "tests/lessons/$name.answers" ] || fail "lesson $name has no tests/lessons/$name.answers"
	[ -f "tests/lessons/$name.wrong" ] || fail "lesson $name has no tests/lessons/$name.wrong"
	out=$("$BIN" lesson --check "$name" --batch "tests/lessons/$name.answers" 2>&1) || fail "$name: --check with the right answers exited $?: $out"
	expect_contains "$out" "steps passed, 0 failed"
	"$BIN" lesson --check "$name" --batch "tests/lessons/$name.wrong" >"$E2E_TMP/out" 2>&1
	rc=$?
	[ "$rc" = 1 ] || fail "$name: --check with a wrong answer: expected exit 1, got $rc"
	expect_contains "$(cat "$E2E_TMP/out")" "FAILED"
	expect_contains "$(cat "$E2E_TMP/out")" "Not quite"
	n=$((n + 1))
done
[ "$n" -ge 1 ] || fail "no lessons found"
# Grading leaves the student's progress alone.
[ ! -e "$XDG_STATE_HOME/gpustep/lessons/coalescing" ] || fail "--check wrote progress"

# The listing names each lesson; nothing started yet.
out=$("$BIN" lesson) || fail "gpustep lesson exited $?"
expect_contains "$out" "coalescing"
expect_contains "$out" "not started"

# At the prompt: lesson, hint, answer; progress is kept and listed; reset.
out=$(printf 'lesson coalescing\nhint\nanswer 1\nlesson\n' | "$BIN" --batch - 2>&1) || fail "prompt lesson exited $?: $out"
expect_contains "$out" "32 lanes x 4 bytes"
expect_contains "$out" "Right: event.reqs is 1."
expect_contains "$out" "[lesson coalescing, step 2 of 8: answer N"
[ -f "$XDG_STATE_HOME/gpustep/lessons/coalescing" ] || fail "no progress file"
expect_contains "$(cat "$XDG_STATE_HOME/gpustep/lessons/coalescing")" "reached 1 passed 1"
expect_contains "$("$BIN" lesson)" "step 2 of 8"
"$BIN" lesson reset coalescing >/dev/null || fail "lesson reset exited $?"
expect_contains "$("$BIN" lesson)" "not started"

# An action step is not passed before the student acted.
out=$(printf 'lesson coalescing\nanswer 1\nanswer 32\nanswer 8\nanswer 32\nanswer 4\nanswer 2\nanswer\nlesson\n' | "$BIN" --batch - 2>&1)
expect_contains "$out" "Not yet: no enabled breakpoint on coalesce."
expect_contains "$out" "[lesson coalescing, step 7 of 8: do it"

# Bad input.
"$BIN" lesson --check nosuch --batch /dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "unknown lesson: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "no lesson 'nosuch'"
printf '{"name": "x", "title": "t", "steps": [{"text": "a", "predict": {"value": "banana"}}]}' >"$E2E_TMP/bad.json"
"$BIN" lesson --check "$E2E_TMP/bad.json" --batch /dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "bad lesson file: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "step 1: predict.value must be"
printf '{"name": "x", "title": "t", "steps": [{"text": "a", "action": {"breakpoint": "l1.mis"}}]}' >"$E2E_TMP/bad.json"
"$BIN" lesson --check "$E2E_TMP/bad.json" --batch /dev/null 2>"$E2E_TMP/err"
expect_contains "$(cat "$E2E_TMP/err")" "unknown event kind 'l1.mis'"
"$BIN" lesson --check coalescing 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "--check without --batch: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "usage: gpustep lesson"
printf 'answer 3\n' | "$BIN" --batch - 2>"$E2E_TMP/err" >/dev/null && fail "answer without a lesson succeeded"
expect_contains "$(cat "$E2E_TMP/err")" "no lesson open"
# A step follows the student's own stop: racetrack's shift distance is read
# from the shift the student caught (here warp 2's, 1 bit), not the first one.
sed 's/^break rf.shift_start$/break rf.shift_start warp=2/; s/^answer 4$/answer 1/' tests/lessons/racetrack.answers >"$E2E_TMP/rt.answers"
out=$("$BIN" lesson --check racetrack --batch "$E2E_TMP/rt.answers" 2>&1) || fail "racetrack with another shift exited $?: $out"
expect_contains "$out" "Right: event.dist is 1."
# Coded fields are answered by name; a wrong name is refused with the names.
out=$(printf 'lesson coherence\nanswer 768\nrun 0\nbreak coh.transition to=M\ncontinue\nanswer\nanswer IMD\nanswer IM_D\n' | "$BIN" --batch - 2>&1)
expect_contains "$out" "'IMD' is neither a number nor one of: I S E O M"
expect_contains "$out" "Right: event.to is IM_D."
# An action with "finished" waits for the end of the run before it records.
out=$(printf 'lesson dram_rows\nanswer 512\nrun 0\nbreak dram.row_conflict bank=3\ncontinue\nanswer\nanswer 1\nanswer 0\nanswer 0\nanswer 705\nrun 0\nset dram.page_policy open\nstep 2000\nanswer\ncontinue\nanswer\n' | "$BIN" --batch - 2>&1)
expect_contains "$out" "Not yet: the kernel has not run to its end (continue)."
expect_contains "$out" "[lesson dram_rows, step 8 of 9"
"$BIN" lesson reset dram_rows >/dev/null
printf '{"name": "x", "title": "t", "steps": [{"text": "a", "action": {"finished": 1}}]}' >"$E2E_TMP/bad.json"
"$BIN" lesson --check "$E2E_TMP/bad.json" --batch /dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "bad finished: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "step 1: action.finished must be true or false"
# Built-in lessons work from any directory: coherence's last step loads the
# built-in trace pair configs/traces/b2b, a copy of tests/traces/b2b.
for f in kernelslist.g kernel-1.traceg kernel-2.traceg; do
	cmp -s "configs/traces/b2b/$f" "tests/traces/b2b/$f" || fail "configs/traces/b2b/$f differs from tests/traces/b2b/$f"
done
out=$(cd "$E2E_TMP" && "$BIN" lesson --check coherence --batch "$ROOT/tests/lessons/coherence.answers" 2>&1) || fail "coherence from another directory exited $?: $out"
expect_contains "$out" "Right: event.lines is 8."
out=$(cd "$E2E_TMP" && "$BIN" --run -w configs/traces/b2b/nosuch.g 2>&1) && fail "a missing trace ran"
expect_contains "$out" "configs/traces/b2b/nosuch.g: No such file or directory"
# A teacher's own file runs the same way.
cp configs/lessons/coalescing.json "$E2E_TMP/mine.json"
"$BIN" lesson --check "$E2E_TMP/mine.json" --batch tests/lessons/coalescing.answers >/dev/null 2>&1 || fail "lesson file --check failed"
# Claims are checked, not written. The old scheduling answer (a breakpoint on
# stmt=2, the kernel's first load, not its alu) no longer passes step 5.
sed 's/op=alu/stmt=2/' tests/lessons/scheduling.answers >"$E2E_TMP/sched_old.answers"
"$BIN" lesson --check scheduling --batch "$E2E_TMP/sched_old.answers" >"$E2E_TMP/out" 2>&1
[ $? = 1 ] || fail "scheduling with the old stmt=2 breakpoint passed --check"
expect_contains "$(cat "$E2E_TMP/out")" "not with op=alu"
# A lesson whose explanation states a number no check gives (mshrs step 6's
# old "512 refusals") fails --check, and so does a claim the machine denies.
python3 - "$E2E_TMP" <<'PY'
import json, sys
d = json.load(open("configs/lessons/mshrs.json"))
s = d["steps"][5]
s["explain"] = "Zero merges: each of the 512 second halves was refused and fetched the line again."
del s["claims"]
json.dump(d, open(sys.argv[1] + "/m_number.json", "w"))
s["claims"] = ["stat.l1.mshr_full == 512"]
s["explain"] = "Zero merges: each second half was refused (l1.mshr_full counts 512)."
json.dump(d, open(sys.argv[1] + "/m_claim.json", "w"))
PY
"$BIN" lesson --check "$E2E_TMP/m_number.json" --batch tests/lessons/mshrs.answers >"$E2E_TMP/out" 2>&1
[ $? = 1 ] || fail "a lesson stating an unchecked number passed --check"
expect_contains "$(cat "$E2E_TMP/out")" "step 6 states 512 in its explanation"
"$BIN" lesson --check "$E2E_TMP/m_claim.json" --batch tests/lessons/mshrs.answers >"$E2E_TMP/out" 2>&1
[ $? = 1 ] || fail "a lesson with a false claim passed --check"
expect_contains "$(cat "$E2E_TMP/out")" "step 6 claims stat.l1.mshr_full == 512, but the machine shows"
# A malformed claim is refused when the lesson loads.
printf '{"name": "x", "title": "t", "steps": [{"text": "a", "claims": ["stat.l1.hits"], "action": {"finished": true}}]}' >"$E2E_TMP/bad.json"
"$BIN" lesson --check "$E2E_TMP/bad.json" --batch /dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "a malformed claim: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "claims: 'stat.l1.hits' must read"
# The listing in teaching order with durations; a handout in Markdown.
out=$("$BIN" lesson) || fail "gpustep lesson exited $?"
first=$(printf '%s\n' "$out" | grep -n 'coalescing ' | head -1 | cut -d: -f1)
last=$(printf '%s\n' "$out" | grep -n 'racetrack ' | head -1 | cut -d: -f1)
[ -n "$first" ] && [ -n "$last" ] && [ "$first" -lt "$last" ] || fail "lessons not in teaching order: $out"
expect_contains "$out" " 1. coalescing    8 steps  ~30 min"
expect_contains "$out" "min in all"
out=$("$BIN" lesson mshrs --handout) || fail "--handout exited $?"
expect_contains "$out" "# MSHRs: merging misses"
expect_contains "$out" "## Step 6 (prediction)"
expect_contains "$out" "Your prediction: ____"
expect_not_contains "$out" "*Answer:*"
out=$("$BIN" lesson mshrs --handout --answers) || fail "--handout --answers exited $?"
expect_contains "$out" "*Answer:* the machine's \`stat.l1.mshr_merges\`"
expect_contains "$out" "*Checked:* an enabled breakpoint on l1.mshr_full; the run stopped at l1.mshr_full with reason=merges."
"$BIN" lesson mshrs --answers >/dev/null 2>&1
[ $? = 2 ] || fail "--answers without --handout: expected exit 2"
exit 0
