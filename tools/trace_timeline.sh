#!/bin/sh
# trace_timeline.sh TRACE.json PID OUT.png [FROM TO]: draw the complete slices
# (ph X) of one process of a gpustep --trace-out file with gnuplot, one row
# per thread, one colour per slice name (docs/EXPORTS.md). For a picture in
# a document; Perfetto (ui.perfetto.dev) is the viewer for the real thing.
# Relies on gpustep's one-event-per-line output.
#   sh tools/trace_timeline.sh t.json 1000 sm0.png 0 3000
[ $# -ge 3 ] || { echo "usage: $0 TRACE.json PID OUT.png [FROM TO]" >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 || { echo "$0: needs gnuplot (sudo apt-get install -y gnuplot-nox)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-tl.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files
awk -v pid="$1" -v want="$2" -v from="${4:-0}" -v to="${5:-1e18}" -v dir="$tmp" '
	function field(k,   m) { if (match($0, "\"" k "\":[^,}]*")) { m = substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3); gsub(/"/, "", m); return m } return "" }
	index($0, "\"ph\":\"X\"") && field("pid") + 0 == want + 0 {
		ts = field("ts") + 0; dur = field("dur") + 0; if (ts + dur < from || ts > to) next
		tid = field("tid") + 0; if (tid >= 100000) next
		name = field("name"); if (!(name in col)) { col[name] = ++n; order[n] = name }
		printf "%f %s %f %d\n", ts + dur / 2, tid, dur / 2, col[name] > (dir "/d")
	}
	END { for (i = 1; i <= n; i++) printf "%d %s\n", i, order[i] > (dir "/names") }
' "$1" || exit 1
[ -s "$tmp/d" ] || { echo "$0: no slices of pid $2 in $1" >&2; exit 1; }
{
	echo "set terminal pngcairo size 900,300 font 'sans,9'"
	echo "set output '$3'"
	echo "set termoption noenhanced"
	echo "set xlabel 'cycle (trace time: 1 cycle = 1 us)'; set ylabel 'warp'"
	echo "set key outside right; set grid x; set yrange [*:*] reverse; set offsets 0,0,0.6,0.6"
	[ $# -ge 5 ] && echo "set xrange [$4:$5]"
	printf "plot '%s' using 1:2:3:(0.4):4 with boxxyerror fs solid 0.9 noborder lc variable notitle" "$tmp/d"
	while read -r i name; do printf ", NaN with boxes fs solid 0.9 lc %d title '%s'" "$i" "$name"; done <"$tmp/names"
	echo
} >"$tmp/p.gp"
gnuplot "$tmp/p.gp"
