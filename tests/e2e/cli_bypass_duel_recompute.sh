#!/bin/sh
# Locality bypassing's duel recomputed from the event log (docs/EXPERIMENTS.md,
# "bfs_like at its default size: where locality bypassing's loss comes
# from"). bfs_like on gtx480 (8 CTAs on 15 SMs, 16 to 37 leader lookups per
# 500-cycle interval) switches its followers three times. From the
# l1.access / l1.hit / l1.mshr_merge events alone this test recomputes, for
# every interval, each leader group's load lookups and misses (a miss is a
# lookup answered neither by a hit nor by a merge: a bypass or an
# MSHR-allocating miss), the per-mille difference and the paper's rule
# (followers plain when the decoupled leaders miss more than
# l1.bypass_duel_diff points more, else decoupled; no decision without a
# lookup in both groups), and checks that the l1.duel_switch events are
# exactly the recomputed switches (mode, difference, and the cycle: the
# first load lookup at or after the interval's end), and the
# l1.duel_switches stat their number. The leader sets are derived here from
# the documented placement, independently of the engine: complement (SM i
# leads set i decoupled and set 31 - i plain) and fixed (sets 0 and 16).
# It fails if a merge counts as a miss, if the counters are not reset per
# interval, if an interval is closed at the wrong boundary, or if a role is
# misplaced.
. "$(dirname "$0")/lib.sh"
T=$E2E_TMP
IV=500
DIFF=10

# events NAME OPTIONS...: the run's l1.access/hit/mshr_merge/duel_switch events,
# read from the 4096-entry ring every 250 cycles (each read keeps the events
# of the 250 cycles before it), to $T/NAME.ev
events() {
	_n=$1
	shift
	{
		echo "log l1.access l1.hit l1.mshr_merge l1.duel_switch"
		c=250
		while [ $c -le 6000 ]; do
			echo "until cycle $c"
			echo "info events 4096"
			c=$((c + 250))
		done
	} >"$T/$_n.gs"
	"$BIN" gtx480 -w bfs_like -s l1.bypass=locality -s l1.bypass_duel_interval=$IV \
		-s l1.bypass_duel_diff=$DIFF "$@" --batch "$T/$_n.gs" --stats "$T/$_n.json" \
		>"$T/$_n.out" 2>"$T/$_n.err"
	grep -q "finished at cycle" "$T/$_n.out" || fail "$_n: the run did not finish by cycle 6000: $(tail -3 "$T/$_n.out")"
	# A dump is complete if it printed fewer than 4096 events or its oldest
	# event is older than its window; dumps after the end repeat the ring.
	awk 'function done_dump() { if (n >= 4096 && first >= lo) bad = 1 }
	     /^\(gpustep\) until cycle/ { if (fin) exit; done_dump(); lo = hi; hi = $4; n = 0; next }
	     /finished at cycle/ { fin = 1; hi = 1e18; next }
	     /^cycle / { if (!n++) first = $2; if ($2 >= lo && $2 < hi) print }
	     END { done_dump(); exit bad }' "$T/$_n.out" >"$T/$_n.ev" ||
		fail "$_n: the 4096-event ring dropped events of a 250-cycle window"
}

# check NAME DSET PSET: DSET/PSET are awk expressions of sm giving the
# decoupled and plain leader set of SM sm. Prints the number of switches.
check() {
	awk -v iv=$IV -v limit=$((DIFF * 10)) '
	function kv(i, a) { split($i, a, "="); return a[2] }
	{ sm = ""; w = ""; ad = ""; set = ""; op = ""
	  for (i = 4; i <= NF; i++) {
		split($i, f, "=")
		if (f[1] == "sm") sm = f[2]; else if (f[1] == "warp") w = f[2]; else if (f[1] == "addr") ad = f[2]
		else if (f[1] == "set") set = f[2]; else if (f[1] == "op") op = f[2]
		else if (f[1] == "decoupled") mode = f[2]; else if (f[1] == "diff_permille") dpm = f[2] } }
	$3 == "l1.access" && op == "read" { k = int($2 / iv); if (!(k in first)) first[k] = $2 }
	$3 == "l1.access" && op == "read" { n++; t[n] = $2; key[n] = $2 " " sm " " w " " ad; S[n] = sm; SET[n] = set }
	$3 == "l1.hit" || $3 == "l1.mshr_merge" { hit[$2 " " sm " " w " " ad] = 1 }
	$3 == "l1.duel_switch" { got = got sprintf("%d:%d:%d ", $2, mode, dpm) }
	END {
		for (i = 1; i <= n; i++) {
			sm = S[i]; d = '"$2"'; p = '"$3"'
			g = SET[i] == d ? 0 : SET[i] == p ? 1 : -1
			k = int(t[i] / iv); if (k > last) last = k
			if (g < 0) continue
			acc[k, g]++; miss[k, g] += !((key[i]) in hit)
		}
		followers = 0; want_s = ""; decided = 0
		for (k = 0; k <= last; k++) {
			a0 = acc[k, 0]; a1 = acc[k, 1]
			if (!a0 || !a1) continue
			decided++
			num = miss[k, 0] * 1000 * a1 - miss[k, 1] * 1000 * a0; den = a0 * a1
			diff = (num < 0 ? -1 : 1) * int((num < 0 ? -num : num) / den)
			want = diff > limit ? 0 : 1
			if (want == followers)
				continue
			# closed (and logged) at the first load lookup at or after its end
			# (stores of a write-evict L1 are forwarded before the duel is consulted)
			for (j = k + 1; !(j in first) && j <= last + 1; j++);
			# no load lookup after it: the interval is never closed
			if (!(j in first)) break
			followers = want
			want_s = want_s sprintf("%d:%d:%d ", first[j], want, diff)
		}
		if (want_s != got) { printf "recomputed switches [%s], events [%s]\n", want_s, got > "/dev/stderr"; exit 1 }
		if (decided < 3) { print "only " decided " intervals decided" > "/dev/stderr"; exit 1 }
		print gsub(/:/, ":", want_s) / 2
	}' "$T/$1.ev" 2>"$T/$1.chk"
}

for v in complement fixed; do
	events $v -s l1.bypass_leader_select=$v
	if [ $v = complement ]; then n=$(check $v "sm % 32" "31 - sm % 32"); else n=$(check $v 0 16); fi ||
		fail "$v: $(cat "$T/$v.chk")"
	[ -n "$n" ] || fail "$v: $(cat "$T/$v.chk")"
	s=$(stats_num "$T/$v.json" l1.duel_switches)
	[ "$s" = "$n" ] || fail "$v: l1.duel_switches $s, recomputed $n"
	# both directions occur, so neither branch of the rule is vacuous
	grep -q "decoupled=0" "$T/$v.ev" || fail "$v: no switch to plain"
	grep -q "decoupled=1" "$T/$v.ev" || fail "$v: no switch to decoupled"
done
echo "ok"
