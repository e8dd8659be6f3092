#!/bin/sh
# bench.sh BIN: headless speed figures for docs/PERFORMANCE.md.
# Runs fixed workloads on fixed configs (--run, default seed) and prints
# simulated cycles/s, warp instructions/s, L1 accesses/s (l1.accesses: the
# coalesced requests the L1s looked up; cycles/s alone changes meaning
# whenever the model changes) and peak RSS for each. With GNU time the
# per-second figures divide by the process's user CPU seconds (other work
# on a shared machine stretches the wall clock, much less the CPU time),
# else by the wall-clock seconds; both are printed.
# Then the speed-up of --threads (1, 2, all cores) on the big presets.
BIN=${1:-build/gpustep}
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files

# "CONFIG WORKLOAD [extra args]" per line; CONFIG "-" = built-in teaching.
# Sizes are chosen so each run takes a fraction of a second or more, making
# process start-up negligible.
CASES="- vecadd -p n=262144
- matmul_tiled -p n=128
- transpose_naive -p n=256
- gather_random -p n=65536
- stencil2d -p n=512"
for p in gtx480 titanv; do
	"$BIN" --check-config "$p" >/dev/null 2>&1 && CASES="$CASES
$p matmul_tiled -p n=256
$p gather_random -p n=262144"
done
# The core issue's target case (titanv, matmul_naive) as shipped (the preset
# has the reuse-distance profiler off) and with the profiler on.
"$BIN" --check-config titanv >/dev/null 2>&1 && CASES="$CASES
titanv matmul_naive -p n=256
titanv matmul_naive -p n=256 -s reuse.profile=true"

have_time=0
[ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1 && have_time=1

printf '%-10s %-18s %12s %9s %7s %14s %14s %12s %10s  %s\n' config workload cycles seconds user-s cycles/s warp-insts/s l1-acc/s peak-RSS options
echo "$CASES" | while read -r cfg wl extra; do
	[ -n "$wl" ] || continue
	args="--run -w $wl --stats $tmp/s.json $extra"
	[ "$cfg" = - ] || args="$cfg $args"
	start=$(date +%s.%N)
	if [ "$have_time" = 1 ]; then
		# shellcheck disable=SC2086
		/usr/bin/time -f '%M %U' -o "$tmp/rss" "$BIN" $args >/dev/null 2>"$tmp/err" || { echo "$cfg $wl: failed"; cat "$tmp/err"; continue; }
		rss="$(tail -1 "$tmp/rss" | cut -d' ' -f1) KB"
		user=$(tail -1 "$tmp/rss" | cut -d' ' -f2)
	else
		# shellcheck disable=SC2086
		"$BIN" $args >/dev/null 2>"$tmp/err" || { echo "$cfg $wl: failed"; cat "$tmp/err"; continue; }
		rss="n/a"
		user="n/a"
	fi
	end=$(date +%s.%N)
	cycles=$(sed -n 's/^  "cycles": \([0-9]*\).*/\1/p' "$tmp/s.json")
	insts=$(sed -n 's/^    "sim.warp_insts": \([0-9]*\).*/\1/p' "$tmp/s.json")
	l1acc=$(sed -n 's/^    "l1.accesses": \([0-9]*\).*/\1/p' "$tmp/s.json")
	awk -v c="$cfg" -v w="$wl" -v cy="${cycles:-0}" -v ni="${insts:-0}" -v na="${l1acc:-0}" -v s="$start" -v e="$end" -v u="$user" -v r="$rss" -v x="$extra" 'BEGIN {
		t = e - s; if (t <= 0) t = 1e-6
		d = (u == "n/a" ? t : u + 0); if (d <= 0) d = 0.005 # below the resolution of GNU time (0.01 s)
		printf "%-10s %-18s %12d %9.3f %7s %14.0f %14.0f %12.0f %10s  %s\n", (c == "-" ? "teaching" : c), w, cy, t, u, cy / d, ni / d, na / d, r, x
	}'
done
# Trace replay (docs/TRACES.md): a generated vecadd-style Accel-Sim trace of
# 4096 CTAs x 8 warps x 10 lines. "index" = load + one-pass index only
# (--list-stats builds the session and exits); "replay" = --run. The three
# 4 MiB arrays sit 16 MiB apart, inside the teaching DRAM (128 MiB), which
# refuses traces whose lines would share a DRAM location.
awk -v n=4096 'BEGIN {
	printf "-kernel name = bench\n-grid dim = (%d,1,1)\n-block dim = (256,1,1)\n-nregs = 16\n-accelsim tracer version = 4\n\n", n
	for (b = 0; b < n; b++) {
		printf "#BEGIN_TB\nthread block = %d,0,0\n", b
		for (w = 0; w < 8; w++) {
			i = (b * 256 + w * 32) * 4
			printf "warp = %d\ninsts = 10\n", w
			printf "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0\n0010 ffffffff 1 R6 S2R 0 0 0\n0020 ffffffff 1 R3 S2R 0 0 0\n"
			printf "0030 ffffffff 1 R6 IMAD 2 R3 R6 0 0\n0040 ffffffff 0 ISETP.GE.AND 1 R6 0 0\n"
			printf "0050 ffffffff 1 R2 LDG.E.SYS 1 R2 4 1 0x%x 4 0\n", 268435456 + i
			printf "0060 ffffffff 1 R4 LDG.E.SYS 1 R4 4 1 0x%x 4 0\n", 285212672 + i
			printf "0070 ffffffff 1 R9 FADD 2 R2 R4 0 0\n"
			printf "0080 ffffffff 0 STG.E.SYS 2 R6 R9 4 1 0x%x 4 0\n0090 ffffffff 0 EXIT 0 0 0\n", 301989888 + i
		}
		printf "#END_TB\n"
	}
}' >"$tmp/kernel-1.traceg"
bytes=$(wc -c <"$tmp/kernel-1.traceg")
for p in - gtx480; do
	cfg=""
	[ "$p" = - ] || cfg=$p
	[ -z "$cfg" ] || "$BIN" --check-config "$cfg" >/dev/null 2>&1 || continue
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$BIN" $cfg --list-stats -w "$tmp/kernel-1.traceg" >/dev/null 2>&1 || { echo "trace index: failed"; continue; }
	mid=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$BIN" $cfg --run -w "$tmp/kernel-1.traceg" --stats "$tmp/t.json" >/dev/null 2>&1 || { echo "trace replay: failed"; continue; }
	end=$(date +%s.%N)
	insts=$(sed -n 's/^    "sim.warp_insts": \([0-9]*\).*/\1/p' "$tmp/t.json")
	l1acc=$(sed -n 's/^    "l1.accesses": \([0-9]*\).*/\1/p' "$tmp/t.json")
	cycles=$(sed -n 's/^  "cycles": \([0-9]*\).*/\1/p' "$tmp/t.json")
	awk -v c="$p" -v b="$bytes" -v ni="${insts:-0}" -v na="${l1acc:-0}" -v cy="${cycles:-0}" -v s="$start" -v m="$mid" -v e="$end" 'BEGIN {
		ti = m - s; tr = e - m; if (ti <= 0) ti = 1e-6; if (tr <= 0) tr = 1e-6
		printf "trace %-8s %.1f MB: index %.3f s (%.0f MB/s); replay %.3f s, %d cycles, %.0f warp-insts/s, %.0f L1 accesses/s\n", (c == "-" ? "teaching" : c), b / 1e6, ti, b / 1e6 / ti, tr, cy, ni / tr, na / tr
	}'
done
# The same trace as .xz (docs/TRACES.md: streamed, decoded into a bounded
# window): index and replay time, and peak RSS, on the teaching machine.
if command -v xz >/dev/null 2>&1 && xz -1 -k "$tmp/kernel-1.traceg"; then
	start=$(date +%s.%N)
	"$BIN" --list-stats -w "$tmp/kernel-1.traceg.xz" >/dev/null 2>&1 || echo "trace xz index: failed"
	mid=$(date +%s.%N)
	rss=n/a
	if [ "$have_time" = 1 ]; then
		/usr/bin/time -f %M -o "$tmp/rss" "$BIN" --run -w "$tmp/kernel-1.traceg.xz" --stats "$tmp/t.json" >/dev/null 2>&1 || echo "trace xz replay: failed"
		rss="$(tail -1 "$tmp/rss") KB"
	else
		"$BIN" --run -w "$tmp/kernel-1.traceg.xz" --stats "$tmp/t.json" >/dev/null 2>&1 || echo "trace xz replay: failed"
	fi
	end=$(date +%s.%N)
	insts=$(sed -n 's/^    "sim.warp_insts": \([0-9]*\).*/\1/p' "$tmp/t.json")
	awk -v b="$bytes" -v z="$(wc -c <"$tmp/kernel-1.traceg.xz")" -v ni="${insts:-0}" -v s="$start" -v m="$mid" -v e="$end" -v r="$rss" 'BEGIN {
		ti = m - s; tr = e - m; if (ti <= 0) ti = 1e-6; if (tr <= 0) tr = 1e-6
		printf "trace teaching .xz %.1f MB (%.2f MB compressed): index %.3f s; replay %.3f s, %.0f warp-insts/s, peak RSS %s\n", b / 1e6, z / 1e6, ti, tr, ni / tr, r
	}'
fi
# Threads (docs/PERFORMANCE.md "Threads"): the same run with --threads 1,
# 2 and one per core; wall time best of 3 (other work on the machine only
# slows a run down), the speed-up over one thread, and whether the stats
# equal one thread's (they must: "same"). The load average before the runs
# says how busy the machine was.
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
tlist=$(printf '1\n2\n%s\n' "$ncpu" | sort -un | tr '\n' ' ')
echo
echo "threads: load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a), $ncpu cores"
printf '%-8s %-24s %7s %9s %8s %5s\n' config workload threads seconds speed-up same
for tc in "titanv matmul_naive -p n=256" "titanv gather_random -p n=65536" "gtx480 stencil2d -p n=512"; do
	# shellcheck disable=SC2086
	set -- $tc
	cfg=$1 wl=$2
	shift 2
	"$BIN" --check-config "$cfg" >/dev/null 2>&1 || continue
	one=""
	for n in $tlist; do
		best=""
		for r in 1 2 3; do
			start=$(date +%s.%N)
			"$BIN" "$cfg" --run -w "$wl" "$@" --threads "$n" --stats "$tmp/th.json" >/dev/null 2>"$tmp/err" || { echo "$cfg $wl --threads $n: failed"; cat "$tmp/err"; break; }
			end=$(date +%s.%N)
			best=$(awk -v s="$start" -v e="$end" -v b="$best" 'BEGIN { t = e - s; if (b == "" || t < b) b = t; printf "%.3f", b }')
		done
		grep -v '"perf\.' "$tmp/th.json" >"$tmp/th$n.json"
		[ -n "$one" ] || one=$best
		same=yes
		cmp -s "$tmp/th1.json" "$tmp/th$n.json" || same=NO
		awk -v c="$cfg" -v w="$wl" -v n="$n" -v t="$best" -v o="$one" -v m="$same" 'BEGIN {
			printf "%-8s %-24s %7d %9.3f %7.2fx %5s\n", c, w, n, t, (t > 0 ? o / t : 0), m
		}'
	done
done
echo "machine: $(uname -srm), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
echo "commit:  $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"

# DRAM-trace mode (docs/DRAM.md): 1,000,000 requests straight into the DRAM
# model of the default machine, sequential lines and random lines, all
# inside its 128 MiB (addresses beyond the capacity are refused). (Named
# .dtrace: -w would take a .trc for a thread-address trace.)
echo
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "LD 0x%x\n", i * 128 }' >"$tmp/seq.dtrace"
awk 'BEGIN { srand(7); for (i = 0; i < 1000000; i++) printf "%s 0x%x\n", (rand() < 0.3 ? "ST" : "LD"), int(rand() * 1048576) * 128 }' >"$tmp/rnd.dtrace"
for t in seq rnd; do
	start=$(date +%s.%N)
	"$BIN" --dram-trace "$tmp/$t.dtrace" --stats "$tmp/d.json" >/dev/null 2>"$tmp/err" || { echo "dram trace $t: failed"; cat "$tmp/err"; continue; }
	end=$(date +%s.%N)
	awk -v t="$t" -v s="$start" -v e="$end" '/"dram.row_hits":/ { h = $2 + 0 } /"dram.row_conflicts":/ { c = $2 + 0 }
		END { d = e - s; if (d <= 0) d = 1e-6
		      printf "dram-trace %-4s 1000000 requests: %.2f s, %.0f requests/s (row hits %d, conflicts %d)\n", t, d, 1e6 / d, h, c }' "$tmp/d.json"
done

# Rewinding (docs/SESSIONS.md): `reverse-step 1` at cycle 1,000,000 of the
# default workload (teaching + vecadd, large enough to get there) with the
# default snapshot budget, timed by batch mode (GPUSTEP_TIME_COMMANDS=1).
# Target: under 200 ms. An `rs 1` restores the last snapshot before its
# target and replays from there: its time follows the cycles replayed, which
# depend on where that snapshot fell (snapshot spacing follows the measured
# speed, so it moves from run to run). The line says the cycles replayed
# (`replay:` lines, printed when timing), the spacing and the replay bound G
# that `info` reports (no rewind replays more than G cycles; G is what the
# machine simulated in 0.16 s when the snapshots were taken).
echo
printf 'goto 1000000\ninfo\nrs 1\nrs 1\nrs 1\nrs 1\nrs 1\n' |
	GPUSTEP_TIME_COMMANDS=1 "$BIN" --batch - -w vecadd -p n=1048576 >"$tmp/rw" 2>"$tmp/err" || { echo "rewind: failed"; cat "$tmp/err"; }
awk '/^\(gpustep\) /{cmd = substr($0, 11); next}
	/^time: /{ if (cmd == "goto 1000000") g = $2; else if (cmd == "rs 1") t[n++] = $2 }
	/^replay: / && cmd == "rs 1" { rep = $(NF - 2); if (!first) first = rep }
	/^rewind .* every [0-9]+ cycles$/ { iv = $(NF - 1) }
	/a rewind replays at most [0-9]+ cycles/ { G = $6 }
	END {
		if (!n) { print "rewind: no timings"; exit }
		for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
		printf "rewind: goto 1000000 from cycle 0 %.1f ms; reverse-step 1 at cycle 1,000,000: median %.1f ms, max %.1f ms (%d runs; target < 200 ms)\n", g, t[int(n / 2)], t[n - 1], n
		if (first != "")
			printf "rewind: the first rs 1 replays %d cycles from the snapshot at cycle %d (%.2f us a cycle at the median); snapshots every %s cycles, replay bound %s cycles\n", first, 999999 - first, t[int(n / 2)] * 1000 / (first ? first : 1), iv, G
	}' "$tmp/rw"

# The TUI against headless (issue 5: running the default workload in the
# overview layout, the TUI must simulate at least half the cycles/s of
# `--run`). gpustep in a detached tmux at 200x60 (default snapshot budget,
# panels redrawn up to 30 times a second), `continue` typed, timed until the
# status bar says finished (polled every 10 ms); the same workload with
# --run. vecadd is made large enough to take about a second. Best of 3 each
# (other work on the machine only ever slows a run down).
echo
n=4194304
if command -v tmux >/dev/null 2>&1; then
	sock="gpustep-bench-$$"
	: >"$tmp/tui"
	for r in 1 2 3; do
		tmux -L "$sock" -f /dev/null new-session -d -s b -x 200 -y 60 \
			"GPUSTEP_HISTORY= $BIN -w vecadd -p n=$n; sleep 1" 2>"$tmp/err" || { echo "tui: tmux failed"; cat "$tmp/err"; break; }
		i=0
		until tmux -L "$sock" capture-pane -p -t b 2>/dev/null | head -1 | grep -q ' cycle 0 | paused'; do
			i=$((i + 1)); [ "$i" -lt 500 ] || break; sleep 0.01
		done
		start=$(date +%s.%N)
		tmux -L "$sock" send-keys -t b 'continue' Enter
		i=0
		until tmux -L "$sock" capture-pane -p -t b 2>/dev/null | head -1 >"$tmp/bar" && grep -q '| finished' "$tmp/bar"; do
			i=$((i + 1)); [ "$i" -lt 6000 ] || break; sleep 0.01
		done
		end=$(date +%s.%N)
		tcycles=$(sed -n 's/^ *cycle \([0-9,]*\) .*/\1/p' "$tmp/bar" | tr -d ,)
		tmux -L "$sock" send-keys -t b 'quit' Enter
		sleep 0.2
		tmux -L "$sock" kill-server >/dev/null 2>&1
		hstart=$(date +%s.%N)
		"$BIN" --run -w vecadd -p n=$n --stats "$tmp/h.json" >/dev/null 2>"$tmp/err" || { echo "tui: headless run failed"; cat "$tmp/err"; }
		hend=$(date +%s.%N)
		hcycles=$(sed -n 's/^  "cycles": \([0-9]*\).*/\1/p' "$tmp/h.json")
		echo "${tcycles:-0} ${hcycles:-0} $start $end $hstart $hend" >>"$tmp/tui"
	done
	awk -v n="$n" '{ t = $4 - $3; h = $6 - $5; if (t <= 0) t = 1e-6; if (h <= 0) h = 1e-6
			 if ($1 != $2) bad = sprintf("tui: the TUI finished at cycle %d, --run at %d", $1, $2)
			 if (!bt || t < bt) bt = t; if (!bh || h < bh) bh = h; c = $1; runs++ }
		END { if (bad != "") { print bad; exit }
		      if (!runs) { print "tui: no runs"; exit }
		      printf "tui: vecadd n=%d, overview 200x60: %d cycles in %.3f s = %.0f cycles/s; --run %.3f s = %.0f cycles/s; ratio %.2f (best of %d; target >= 0.5)\n", n, c, bt, c / bt, bh, c / bh, bh / bt, runs }' "$tmp/tui"
else
	echo "tui: tmux not installed, skipped"
fi

# Interactive latency on titanv (issue 26), as a user meets it: matmul_naive
# n=256 (72k cycles). Skipped without the titanv preset; the TUI rows
# without tmux. Every time is wall-clock on this machine; compare rows of
# one run.
#   start      launch -> status bar "cycle 0 | paused" (tmux 200x60, polled every 10 ms)
#   session    a session saved at cycle 30,000: --session -> "cycle 30000 | paused",
#              saved with --state (when this gpustep has it) and without
#   rs/goto    batch (GPUSTEP_TIME_COMMANDS) at the end of the kernel: rs 1 x3, then
#              goto backwards, step by step down across the whole run (max = worst case)
#   rc         `break cycle 30000` hit, then from cycle 45,000: rc back 15,000 cycles
#   tui        `continue` on screen to the end against --run (best of 2 each)
"$BIN" --check-config titanv >/dev/null 2>&1 || exit 0
echo
T="titanv -w matmul_naive -p n=256"
tm() { sock="gpustep-bench-$$"; tmux -L "$sock" "$@"; }
# tui_until CMD TEXT: start CMD in tmux, seconds until the first line shows TEXT
tui_until() {
	s0=$(date +%s.%N)
	tm -f /dev/null new-session -d -s b -x 200 -y 60 "GPUSTEP_HISTORY= $1; sleep 5" 2>/dev/null || { echo fail; return; }
	i=0
	until tm capture-pane -p -t b 2>/dev/null | head -1 | grep -q -- "$2"; do
		i=$((i + 1)); [ "$i" -lt 6000 ] || break; sleep 0.01
	done
	s1=$(date +%s.%N)
	tm kill-server >/dev/null 2>&1
	sleep 0.2
	awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.2f", b - a }'
}
if command -v tmux >/dev/null 2>&1; then
	st=$(tui_until "$BIN $T" ' cycle 0 | paused')
	printf 'goto 30000\nsave session %s/s30k.gps\n' "$tmp" | "$BIN" $T -x - >/dev/null 2>&1
	so=$(tui_until "$BIN --session $tmp/s30k.gps" ' cycle 30000 | paused')
	ss=n/a
	if printf 'goto 30000\nsave session %s/s30k-state.gps --state\n' "$tmp" | "$BIN" $T -x - 2>/dev/null | grep -q wrote; then
		ss=$(tui_until "$BIN --session $tmp/s30k-state.gps" ' cycle 30000 | paused')
	fi
	echo "start: titanv matmul_naive n=256 on screen in $st s; --session at cycle 30000: with --state $ss s, replayed $so s"
fi
# The machine alone: --list-stats loads the preset, builds the machine (sim_new) and exits.
b0=$(date +%s.%N)
"$BIN" $T --list-stats >/dev/null 2>&1
b1=$(date +%s.%N)
awk -v a="$b0" -v b="$b1" 'BEGIN { printf "build: titanv (80 SMs) loaded and built, process included: %.3f s\n", b - a }'
printf 'goto 80000\nrs 1\nrs 1\nrs 1\ngoto 71000\ngoto 66100\ngoto 60000\ngoto 52300\ngoto 45500\ngoto 38900\ngoto 30700\ngoto 22100\ngoto 15300\ngoto 9700\ngoto 5100\ngoto 1300\n' |
	GPUSTEP_TIME_COMMANDS=1 "$BIN" $T --batch - >"$tmp/rw2" 2>&1
awk '/^\(gpustep\) /{cmd = substr($0, 11); next}
	/^time: /{ if (cmd == "rs 1") { r[nr++] = $2 } else if (cmd ~ /^goto / && cmd != "goto 80000") { g[ng++] = $2 } }
	/^replay: /{ if (cmd == "rs 1") rr[nrr++] = $(NF - 2); else if (cmd ~ /^goto /) gr[ngr++] = $(NF - 2) }
	function mx(a, n,   i, m) { m = 0; for (i = 0; i < n; i++) if (a[i] + 0 > m) m = a[i] + 0; return m }
	END { printf "rewind: titanv matmul_naive n=256 at the end: rs 1 max %.1f ms (%d runs; replays up to %d cycles); backward goto max %.1f ms (%d targets from 71000 down to 1300; replays up to %d cycles)\n", mx(r, nr), nr, mx(rr, nrr), mx(g, ng), ng, mx(gr, ngr) }' "$tmp/rw2"
printf 'break cycle 30000\ncontinue\ndelete 1\ngoto 45000\nbreak cycle 30000\nrc\n' |
	GPUSTEP_TIME_COMMANDS=1 "$BIN" $T --batch - >"$tmp/rc" 2>&1
awk '/^\(gpustep\) /{cmd = substr($0, 11); next} /^time: /{ if (cmd == "rc") t = $2 } /^Breakpoint 2, .* at cycle /{ c = $NF }
	/^replay: / && cmd == "rc" { rs = $2; rc = $(NF - 2) }
	END { printf "rc: titanv matmul_naive n=256 from cycle 45000 back to the stop at cycle %s (%d cycles back): %.0f ms (%d restores, %d cycles replayed)\n", c, 45000 - c, t, rs, rc }' "$tmp/rc"
# CPU seconds too (the TUI process's utime+stime over the continue, from
# /proc; --run's from /usr/bin/time): other work on a shared machine moves
# the wall-clock ratio by +-0.15, the CPU ratio much less.
if command -v tmux >/dev/null 2>&1; then
	: >"$tmp/tt"
	for r in 1 2 3; do
		tm -f /dev/null new-session -d -s b -x 200 -y 60 "GPUSTEP_HISTORY= exec $BIN $T" 2>/dev/null || break
		i=0
		until tm capture-pane -p -t b 2>/dev/null | head -1 | grep -q ' cycle 0 | paused'; do
			i=$((i + 1)); [ "$i" -lt 6000 ] || break; sleep 0.01
		done
		pid=$(tm display -p -t b '#{pane_pid}')
		c0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)
		s0=$(date +%s.%N)
		tm send-keys -t b 'continue' Enter
		i=0
		until tm capture-pane -p -t b 2>/dev/null | head -1 | grep -q '| finished'; do
			i=$((i + 1)); [ "$i" -lt 60000 ] || break; sleep 0.01
		done
		s1=$(date +%s.%N)
		c1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)
		tm kill-server >/dev/null 2>&1
		sleep 0.2
		h0=$(date +%s.%N)
		hc=0
		if [ "$have_time" = 1 ]; then
			/usr/bin/time -f '%U %S' -o "$tmp/hc" "$BIN" $T --run >/dev/null 2>&1
			hc=$(awk '{ print $1 + $2 }' "$tmp/hc")
		else
			"$BIN" $T --run >/dev/null 2>&1
		fi
		h1=$(date +%s.%N)
		echo "$s0 $s1 $h0 $h1 $c0 $c1 $hc $(getconf CLK_TCK)" >>"$tmp/tt"
	done
	awk 'BEGIN { n = 0 } { t = $2 - $1; h = $4 - $3; ct = ($6 - $5) / $8; if (t <= 0) t = 1e-6; if (ct <= 0) ct = 1e-6
	       w[n] = h / t; c[n] = $7 / ct; n++; if (!bt || t < bt) bt = t; if (!bh || h < bh) bh = h }
		END { s = ""; for (i = 0; i < n; i++) s = s sprintf(" %.2f/%.2f", w[i], c[i])
		      printf "tui: titanv matmul_naive n=256, overview 200x60: continue %.2f s; --run %.2f s (best of %d); ratio wall/CPU per run:%s\n", bt, bh, n, s }' "$tmp/tt"
fi
