#!/bin/bash
# threads_compare.sh BIN...: wall time of `BIN titanv -w matmul_naive -p
# n=256 --run --threads N` for N = 1 and 2 and each binary (the issue-41
# figure, docs/PERFORMANCE.md "Threads"). The runs of a round alternate
# binaries and thread counts; a round starts only once the machine has been
# idle (under 8 % busy) for two seconds, and is thrown away when other
# processes used more than 15 % of a core while it ran (read from
# /proc/stat), because two threads only pay with both cores free. Prints,
# per binary and thread count, every kept wall time sorted, the best and
# the median, and per binary best(2 threads) / best(1 thread) and each
# round's 2 threads / 1 thread (seconds apart, so drift between rounds
# cancels), sorted, with their median.
#
#   ROUNDS=5 bash tools/threads_compare.sh /tmp/old/build/gpustep build/gpustep
# Environment: ROUNDS (kept rounds, default 5), PRESET, WORKLOAD, PARAM
# (default titanv, matmul_naive, n=256), IDLE_WAIT (seconds to wait for an
# idle machine before giving up on a round, default 300).
set -u
[ $# -ge 1 ] || { echo "usage: threads_compare.sh BINARY..." >&2; exit 2; }
for b in "$@"; do [ -x "$b" ] || { echo "threads_compare: $b: not an executable" >&2; exit 2; }; done
rounds=${ROUNDS:-5} preset=${PRESET:-titanv} wl=${WORKLOAD:-matmul_naive} param=${PARAM:-n=256}
wait_max=${IDLE_WAIT:-300}
busy_jiffies() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9; exit}' /proc/stat; }
all_jiffies() { awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9; exit}' /proc/stat; }
hz=$(getconf CLK_TCK)
wait_idle() {
	local waited=0 quiet=0 b1 a1 b2 a2
	while [ "$waited" -lt "$wait_max" ]; do
		b1=$(busy_jiffies) a1=$(all_jiffies)
		sleep 1
		waited=$((waited + 1))
		b2=$(busy_jiffies) a2=$(all_jiffies)
		if [ $((100 * (b2 - b1))) -lt $((8 * (a2 - a1))) ]; then quiet=$((quiet + 1)); else quiet=0; fi
		[ "$quiet" -ge 2 ] && return 0
	done
	return 1
}
declare -A times
kept=0 tries=0
while [ "$kept" -lt "$rounds" ] && [ "$tries" -lt $((rounds * 4)) ]; do
	tries=$((tries + 1))
	wait_idle || { echo "threads_compare: the machine was not idle for ${wait_max} s" >&2; continue; }
	b0=$(busy_jiffies)
	declare -A cur=()
	mine=0
	for th in 1 2; do
		i=0
		for b in "$@"; do
			r=$({ /usr/bin/time -f "%e %U %S" "$b" "$preset" -w "$wl" -p "$param" --threads "$th" --run >/dev/null; } 2>&1 | tail -1)
			read -r e u s <<<"$r"
			cur[$i.$th]=$e
			mine=$(echo "$mine + $u + $s" | bc)
			i=$((i + 1))
		done
	done
	b1=$(busy_jiffies)
	other=$(echo "($b1 - $b0) / $hz - $mine" | bc -l)
	wall=0
	for k in "${!cur[@]}"; do wall=$(echo "$wall + ${cur[$k]}" | bc); done
	if [ "$(echo "$other > 0.15 * $wall" | bc -l)" = 1 ]; then
		printf 'threads_compare: round dropped (other processes used %.2f s of CPU)\n' "$other" >&2
		continue
	fi
	kept=$((kept + 1))
	for k in "${!cur[@]}"; do times[$k]="${times[$k]:-} ${cur[$k]}"; done
done
echo "$preset $wl -p $param --run, $kept idle rounds, wall seconds (sorted), best, median"
i=0
for b in "$@"; do
	for th in 1 2; do
		s=$(echo ${times[$i.$th]:-} | tr ' ' '\n' | sort -n | tr '\n' ' ')
		best=$(echo $s | awk '{print $1}')
		med=$(echo $s | awk '{print $(int((NF+1)/2))}')
		printf '%s --threads %d: %s| best %s median %s\n' "$b" "$th" "$s" "${best:--}" "${med:--}"
		eval "best_$th=${best:-0}"
	done
	[ "$best_1" != 0 ] && printf '%s: best 2 threads / best 1 thread = %.2f\n' "$b" "$(echo "$best_2 / $best_1" | bc -l)"
	# The same round's two runs are seconds apart, so their ratio cancels
	# the VM's drift from round to round (docs/PERFORMANCE.md, "Keeping an
	# SM on its thread"): each round's 2 / 1, sorted, and their median.
	r=$(paste -d' ' <(echo ${times[$i.1]:-} | tr ' ' '\n') <(echo ${times[$i.2]:-} | tr ' ' '\n') |
		awk 'NF == 2 && $1 > 0 {printf "%.2f\n", $2 / $1}' | sort -n | tr '\n' ' ')
	[ -n "$r" ] && printf '%s: per round 2 / 1: %s| median %s\n' "$b" "$r" "$(echo $r | awk '{print $(int((NF+1)/2))}')"
	i=$((i + 1))
done
