#!/bin/sh
# experiments.sh [--check] [--list] [--results FILE] [--doc FILE] [MATCH...]:
# regenerate (or check) the tables of docs/EXPERIMENTS.md from the scripts
# that produce them. A table sits between two marker lines,
#
#   <!-- table: tools/NAME.sh ARG... [check] -->
#   Produced by `tools/NAME.sh ARG...` at COMMIT.
#
#   ...the script's stdout...
#
#   <!-- end table -->
#
# and everything outside the markers is left as it is.
#
#   (default)   run every marked script and put its output between the
#               markers, with the commit the binary was built from (HEAD;
#               "+dirty" when tracked files other than the docs differ)
#   --check     run only the tables marked `check` (the fast ones) and fail,
#               naming each table and showing a diff, when one no longer
#               matches what its script prints; the file is not changed
#   --list      print the marked tables (line, check flag, command) and stop
#   MATCH       only the tables whose command contains one of these strings
#   --results F append "experiments PASSED FAILED" for tests/summary.sh
#
# Markers inside a fenced code block (outside a table) are examples, not
# tables. The marker is not run as shell: NAME must be a table script in tools/
# (letters, digits, '_'; one whose header names docs/EXPERIMENTS.md), and
# each ARG a word of letters, digits and . , : = / + - _ (no quotes,
# spaces, '$', globs or '..'). The script runs as `sh tools/NAME.sh ARG...`
# from the repository root with B and GPUSTEP set to the binary
# ($GPUSTEP, default build/gpustep), stdin from /dev/null; an ARG that is
# exactly build/gpustep is replaced by $GPUSTEP, so the tables that name the
# binary check the one under test (`make SANITIZE=... test` builds it
# elsewhere).
cd "$(dirname "$0")/.." || exit 1
doc=docs/EXPERIMENTS.md
mode=write
results=
matches=
while [ $# -gt 0 ]; do
	case $1 in
	--check) mode=check ;;
	--list) mode=list ;;
	--results)
		[ $# -ge 2 ] || { echo "experiments.sh: --results needs a file" >&2; exit 2; }
		results=$2
		shift
		;;
	--doc)
		[ $# -ge 2 ] || { echo "experiments.sh: --doc needs a file" >&2; exit 2; }
		doc=$2
		shift
		;;
	-*) echo "experiments.sh: unknown option '$1' (--check, --list, --results FILE, --doc FILE)" >&2; exit 2 ;;
	*) matches="$matches$1
" ;;
	esac
	shift
done
[ -f "$doc" ] || { echo "experiments.sh: no file $doc" >&2; exit 2; }
GPUSTEP=${GPUSTEP:-build/gpustep}
B=$GPUSTEP
export GPUSTEP B
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-experiments.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up

report() { # passed failed
	[ -n "$results" ] && echo "experiments $1 $2" >>"$results"
	return 0
}

# The marker lines, validated: "LINE CHECK COMMAND" per table into
# $tmp/tables; any malformed or unbalanced marker stops everything.
if ! awk -v out="$tmp/tables" -v doc="$doc" '
	function bad(msg) { printf "%s:%d: %s\n  %s\n", doc, NR, msg, $0 > "/dev/stderr"; err = 1 }
	# a fenced code block outside the tables may show a marker as an example
	!open && /^```/ { fence = !fence; next }
	fence { next }
	/^<!-- *table:/ {
		if (open) { bad("table marker inside the table opened at line " open); next }
		line = $0
		if (line !~ /^<!-- table: tools\/[A-Za-z0-9_]+\.sh( [^ ]+)* -->$/) {
			bad("malformed table marker (want <!-- table: tools/NAME.sh ARG... [check] -->)")
			next
		}
		sub(/^<!-- table: /, "", line); sub(/ -->$/, "", line)
		n = split(line, w, " ")
		chk = 0
		if (w[n] == "check") { chk = 1; n-- }
		cmd = w[1]
		for (i = 2; i <= n; i++) {
			if (w[i] !~ /^[A-Za-z0-9_.,:=\/+-]+$/ || w[i] ~ /\.\./) { bad("argument \"" w[i] "\" is not a simple word"); next }
			cmd = cmd " " w[i]
		}
		if (w[1] == "tools/experiments.sh") { bad("a table cannot be produced by experiments.sh itself"); next }
		open = NR
		printf "%d %d %d %s\n", NR, ++ord, chk, cmd > out
		next
	}
	/^<!-- *end table/ {
		if ($0 != "<!-- end table -->") { bad("malformed end marker (want <!-- end table -->)"); next }
		if (!open) { bad("end marker without a table marker"); next }
		open = 0
		next
	}
	END {
		if (open) { NR = open; $0 = "(this table marker)"; bad("table marker without <!-- end table -->") }
		exit err
	}' "$doc"; then
	report 0 1
	exit 2
fi
touch "$tmp/tables"

if [ "$mode" = list ]; then
	awk '{ c = $3 ? "check" : "-"; line = $1; $1 = ""; $2 = ""; $3 = ""; sub(/^ +/, ""); printf "%5d %-5s %s\n", line, c, $0 }' "$tmp/tables"
	exit 0
fi

# The commit the binary is built from; "+dirty" when tracked files other
# than the docs differ from it.
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if git status --porcelain --untracked-files=no -- . ':(exclude)docs' 2>/dev/null | grep -q .; then
	commit="$commit+dirty"
fi

if [ ! -x "$GPUSTEP" ]; then
	echo "experiments.sh: no binary $GPUSTEP (make build/gpustep, or set GPUSTEP)" >&2
	report 0 1
	exit 2
fi

# The current content of table LINE (between the Produced line and the end
# marker), without leading and trailing blank lines.
current() {
	awk -v start="$1" '
		NR == start { on = 1; next }
		on && /^<!-- end table -->$/ { exit }
		on && NR == start + 1 && /^Produced by `/ { next }
		on { l[++n] = $0 }
		END {
			a = 1; while (a <= n && l[a] ~ /^[ \t]*$/) a++
			b = n; while (b >= a && l[b] ~ /^[ \t]*$/) b--
			for (i = a; i <= b; i++) print l[i]
		}' "$tmp/doc0"
}
cp "$doc" "$tmp/doc0" # the file as the markers were read
trim() { # FILE: drop leading and trailing blank lines
	awk '{ l[++n] = $0 } END {
		a = 1; while (a <= n && l[a] ~ /^[ \t]*$/) a++
		b = n; while (b >= a && l[b] ~ /^[ \t]*$/) b--
		for (i = a; i <= b; i++) print l[i] }' "$1"
}

pass=0
fail=0
ran=0
while read -r line ord chk cmd; do
	[ "$mode" = check ] && [ "$chk" != 1 ] && continue
	if [ -n "$matches" ]; then
		hit=0
		while IFS= read -r m; do
			[ -n "$m" ] || continue
			case "$cmd" in *"$m"*) hit=1 ;; esac
		done <<EOF
$matches
EOF
		[ "$hit" = 1 ] || continue
	fi
	script=${cmd%% *}
	args=
	[ "$script" = "$cmd" ] || args=${cmd#* }
	label="$doc:$line: $cmd"
	if [ ! -f "$script" ] || [ -L "$script" ]; then
		echo "experiments: $label: no script $script" >&2
		fail=$((fail + 1))
		continue
	fi
	if ! sed -n '1,40p' "$script" | grep -q 'EXPERIMENTS\.md'; then
		echo "experiments: $label: $script does not say in its header that it produces a table of docs/EXPERIMENTS.md" >&2
		fail=$((fail + 1))
		continue
	fi
	ran=$((ran + 1))
	t0=$(date +%s)
	# Word splitting of the validated arguments only; no globbing. A
	# marker's `build/gpustep` names the binary under test, which is
	# $GPUSTEP (a SANITIZE or DEBUG build keeps its own in its own folder).
	set -f
	set --
	for w in $args; do
		[ "$w" = build/gpustep ] && w=$GPUSTEP
		set -- "$@" "$w"
	done
	sh "$script" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set +f
	secs=$(($(date +%s) - t0))
	if [ "$rc" != 0 ]; then
		echo "experiments: $label: FAILED (exit $rc, ${secs} s):" >&2
		sed 's/^/  /' "$tmp/err" | tail -20 >&2
		fail=$((fail + 1))
		continue
	fi
	trim "$tmp/out" >"$tmp/new"
	if [ ! -s "$tmp/new" ]; then
		echo "experiments: $label: the script printed nothing (${secs} s)" >&2
		fail=$((fail + 1))
		continue
	fi
	if [ "$mode" = check ]; then
		current "$line" >"$tmp/old"
		if cmp -s "$tmp/old" "$tmp/new"; then
			echo "experiments: $label: ok (${secs} s)"
			pass=$((pass + 1))
		else
			echo "experiments: $label: the table no longer matches what the script prints (${secs} s):"
			diff -u "$tmp/old" "$tmp/new" | sed -e '1s/^--- .*/--- docs (the table as written)/' -e '2s/^+++ .*/+++ now (what the script prints)/'
			fail=$((fail + 1))
		fi
	else
		cp "$tmp/new" "$tmp/table.$ord"
		printf "%s\n" "$cmd" >"$tmp/cmd.$ord"
		echo "experiments: $label: regenerated (${secs} s)"
		pass=$((pass + 1))
	fi
done <"$tmp/tables"

# Splice: the outputs are keyed by the table's position among the markers
# (the prose may have been edited while the scripts ran; the markers not),
# and each marker must still name the command that produced its output.
if [ "$mode" = write ] && [ "$pass" -gt 0 ]; then
	if awk -v dir="$tmp" -v commit="$commit" -v doc="$doc" '
		skip && /^<!-- end table -->$/ { skip = 0 }
		skip { next }
		{ print }
		!open && /^```/ { fence = !fence; next }
		fence { next }
		/^<!-- end table -->$/ { open = 0; next }
		/^<!-- table: / {
			open = 1
			ord++
			cmd = $0
			sub(/^<!-- table: /, "", cmd); sub(/ -->$/, "", cmd); sub(/ check$/, "", cmd)
			f = dir "/table." ord
			if ((getline l < f) > 0) {
				getline want < (dir "/cmd." ord)
				if (want != cmd) {
					printf "experiments: %s: table %d is now `%s`, was `%s` when the scripts started; the markers changed, nothing written\n", doc, ord, cmd, want > "/dev/stderr"
					exit 1
				}
				printf "Produced by `%s` at %s.\n\n", cmd, commit
				print l
				while ((getline l < f) > 0) print l
				close(f)
				print ""
				skip = 1
				open = 0
			}
		}' "$doc" >"$tmp/doc"; then
		cat "$tmp/doc" >"$doc"
	else
		fail=$((fail + 1))
	fi
fi

if [ "$mode" = check ] && [ "$ran" = 0 ] && [ -z "$matches" ]; then
	echo "experiments-check: no table of $doc is marked check" >&2
	fail=$((fail + 1))
fi
failed=
[ "$fail" = 0 ] || failed=", $fail failed"
if [ "$mode" = check ]; then
	echo "experiments-check: $pass of $ran checked tables match$failed"
else
	echo "experiments: $pass tables regenerated$failed"
fi
report "$pass" "$fail"
[ "$fail" = 0 ]
