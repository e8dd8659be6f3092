#!/bin/sh
# layers.sh [--root DIR] [--objs BUILDDIR] [--dot FILE] [--results FILE]:
# check that the folders of tools/layers.conf only point down.
#
#  - includes: every `#include "DIR/x.h"` of a .c/.h file in a listed folder
#    (a bare `#include "x.h"` names the file's own folder) must name a folder
#    at or below the file's own (earlier in layers.conf);
#  - calls: with --objs, every undefined symbol of BUILDDIR/<folder>/*.o that
#    another folder's object defines must be defined at or below.
# A use that points up or sideways fails with the file (and line), unless
# tools/layers.allow lists "FILE FOLDER" (known debt, with its reason).
# With --objs, an allow line that no longer matches anything fails too, so
# the list only shrinks (without, calls are not seen and this is not checked). --dot writes the folder graph (Graphviz; debt edges dashed red).
# Exit 0 when clean; prints one summary line; --results appends
# "layers <passed> <failed>" for tests/summary.sh.
root=.
objs=
dot=
results=
while [ $# -gt 0 ]; do
	case "$1" in
	--root) root=$2; shift 2 ;;
	--objs) objs=$2; shift 2 ;;
	--dot) dot=$2; shift 2 ;;
	--results) results=$2; shift 2 ;;
	*) echo "layers.sh: unknown option '$1' (--root DIR, --objs BUILDDIR, --dot FILE, --results FILE)" >&2; exit 2 ;;
	esac
done
case "$objs" in "" | /*) ;; *) objs="$(pwd)/$objs" ;; esac
case "$dot" in "" | /*) ;; *) dot="$(pwd)/$dot" ;; esac
case "$results" in "" | /*) ;; *) results="$(pwd)/$results" ;; esac
cd "$root" || exit 2
conf=tools/layers.conf
allow=tools/layers.allow
[ -f "$conf" ] || { echo "layers.sh: no $conf under $root" >&2; exit 2; }
[ -f "$allow" ] || : >"${TMPDIR:-/tmp}/layers-empty.$$"
[ -f "$allow" ] || allow="${TMPDIR:-/tmp}/layers-empty.$$"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-layers.XXXXXX") || exit 2
trap 'rm -rf "$tmp" "${TMPDIR:-/tmp}/layers-empty.$$"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files

folders=$(grep -v '^[[:space:]]*#' "$conf" | grep -v '^[[:space:]]*$' | grep -v '^forbid[[:space:]]')

# Uses, one per line: "KIND SRCFILE LINE TARGETFOLDER WHAT".
# Includes: the folder part of a quoted include resolves to engine/X when
# engine/X is listed, else to X itself (front-end folders).
# Every #include "..." of every source file, in one awk pass (a process per
# include line took half a minute on a loaded machine): "include FILE LINE
# FOLDER HEADER", the folder being the header's own (engine/ added when it is
# one of the engine's folders) or, for a bare name, the including file's.
for d in $folders; do
	for f in "$d"/*.c "$d"/*.h; do
		[ -f "$f" ] && echo "$d $f"
	done
done | awk -v folders="$folders" '
BEGIN { n = split(folders, F, /[ \t\n]+/); for (i = 1; i <= n; i++) isf[F[i]] = 1 }
{
	d = $1; f = $2; ln = 0
	while ((getline l < f) > 0) {
		ln++
		if (l !~ /^[ \t]*#[ \t]*include[ \t]*"/) continue
		inc = l; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
		if (inc ~ /\//) { t = inc; sub(/\/[^\/]*$/, "", t) } else t = d
		if (("engine/" t) in isf) t = "engine/" t
		print "include", f, ln, t, inc
	}
	close(f)
}' >"$tmp/uses"

if [ -n "$objs" ]; then
	# The objects of the folders' own .c files, then one nm over all of them
	# for each list (an nm process per object cost about 75 ms each): "SYMBOL
	# FOLDER" for what each folder defines, "SYMBOL SOURCE" for what each
	# source calls.
	for d in $folders; do
		for o in "$objs/$d"/*.o; do
			b=${o##*/}
			[ -f "$o" ] && [ -f "$d/${b%.o}.c" ] && echo "$o"
		done
	done >"$tmp/objs"
	nmlist() { # nm options...: "SYMBOL FOLDER/NAME.c TYPE" per line
		[ -s "$tmp/objs" ] || return 0
		xargs nm -A "$@" <"$tmp/objs" | awk -v pre="$objs/" '{
			f = substr($0, 1, index($0, ":") - 1)
			if (index(f, pre) == 1) f = substr(f, length(pre) + 1)
			sub(/\.o$/, ".c", f)
			print $NF, f, $(NF - 1)
		}'
	}
	nmlist --defined-only -g | awk '$3 ~ /^[TDBRCVW]$/ { d = $2; sub(/\/[^\/]*$/, "", d); print $1, d }' | sort -u >"$tmp/defs"
	nmlist -u | awk '{ print $1, $2 }' | sort >"$tmp/undef"
	join "$tmp/undef" "$tmp/defs" | awk '{ print "call", $2, "-", $3, $1 }' >>"$tmp/uses"
fi

awk -v conf="$conf" -v allowf="$allow" -v dot="$dot" -v calls="$([ -n "$objs" ] && echo 1 || echo 0)" '
BEGIN {
	n = 0
	while ((getline l < conf) > 0) {
		if (l ~ /^[ \t]*#/ || l ~ /^[ \t]*$/) continue
		if (l ~ /^forbid[ \t]/) { nf = split(l, a, /[ \t]+/); for (i = 3; i <= nf; i++) forbid[a[2]] = forbid[a[2]] " " a[i]; continue }
		gsub(/[ \t]/, "", l); rank[l] = ++n; order[n] = l
		if (l ~ /^engine\//) top_engine = l
	}
	while ((getline l < allowf) > 0) {
		if (l ~ /^[ \t]*#/ || l ~ /^[ \t]*$/) continue
		split(l, a, /[ \t]+/)
		ok[a[1] " " a[2]] = 1; allow_line[a[1] " " a[2]] = l; nallow++
	}
}
function folder_of(f,   g) { g = f; sub(/\/[^\/]*$/, "", g); return g }
{
	kind = $1; src = $2; line = $3; t = $4; what = $5
	d = folder_of(src)
	if (kind == "call" && (d in forbid)) {
		np = split(forbid[d], pre, " ")
		for (i = 1; i <= np; i++) if (index(what, pre[i]) == 1) {
			printf "layers: %s: calls %s(), but %s may not call %s* (an observer: attach it to a probe; tools/layers.conf)\n", src, what, d, pre[i]
			bad++
		}
	}
	if (t == d) next
	if (!(t in rank)) {
		if (kind == "include") next # a system or generated header (e.g. tests/)
		next
	}
	e = d " -> " t
	uses[e]++
	if (rank[t] < rank[d]) next
	key = src " " t
	if (key in ok) { used[key] = 1; debt[e]++; ndebt++; next }
	where = (kind == "include") ? src ":" line ": includes \"" what "\"" : src ": calls " what "()"
	printf "layers: %s, but %s is not below %s (tools/layers.conf)\n", where, t, d
	bad++
}
END {
	for (k in ok) if (calls && !(k in used)) {
		printf "layers: tools/layers.allow lists \"%s\", which no longer happens: remove the line\n", allow_line[k]
		bad++
	}
	if (dot != "") {
		# Layers bottom first (the user above what it uses); debt edges do
		# not move nodes. Uses of engine folders by the front end are drawn
		# as one edge per front-end folder into the engine box.
		print "digraph layers {" > dot
		print "  rankdir=BT; compound=true; newrank=true; node [shape=box, fontname=\"Helvetica\"];" > dot
		print "  subgraph cluster_engine { label=\"engine/\"; fontname=\"Helvetica\";" > dot
		for (i = 1; i <= n; i++) if (order[i] ~ /^engine\//) printf "    \"%s\";\n", order[i] > dot
		print "  }" > dot
		for (i = 1; i <= n; i++) if (order[i] !~ /^engine\//) printf "  \"%s\";\n", order[i] > dot
		for (i = 2; i <= n; i++) printf "  \"%s\" -> \"%s\" [style=invis];\n", order[i], order[i - 1] > dot
		for (e in uses) {
			split(e, p, " -> ")
			if (p[1] !~ /^engine\// && p[2] ~ /^engine\//) {
				if (!(p[1] in fe)) { fe[p[1]] = 1; printf "  \"%s\" -> \"%s\" [lhead=cluster_engine, color=grey];\n", p[1], top_engine > dot }
				continue
			}
			if (e in debt) printf "  \"%s\" -> \"%s\" [style=dashed, color=red, constraint=false, label=\"%d\"];\n", p[1], p[2], uses[e] > dot
			else printf "  \"%s\" -> \"%s\";\n", p[1], p[2] > dot
		}
		print "}" > dot
	}
	nd = 0; for (e in debt) nd++
	ne = 0; for (e in uses) ne++
	printf "layers: %d folders, %d folder edges (%d of them known debt: %d uses, %d lines of tools/layers.allow), %d violations\n", n, ne, nd, ndebt, nallow, bad + 0
	exit bad ? 1 : 0
}' "$tmp/uses"
rc=$?
if [ -n "$results" ]; then
	if [ $rc = 0 ]; then echo "layers 1 0" >>"$results"; else echo "layers 0 1" >>"$results"; fi
fi
exit $rc
