#!/bin/sh
# gen_man.sh BIN > gpustep.1: the gpustep(1) man page, written from what the
# binary itself prints, so that the page cannot drift from `--help` and the
# prompt's `help`:
#   OPTIONS, SYNOPSIS, EXIT STATUS   gpustep --help
#   SUBCOMMANDS                      each subcommand's usage (model --help, ...)
#   COMMANDS                         `help` at the prompt, then `help CMD` for each
#   KEYS                             `help keys`
#   PRESETS, BUILT-IN KERNELS        --list-presets, --list-kernels
#   LESSONS                          `gpustep lesson` (a fresh HOME: no progress)
# Only NAME, the DESCRIPTION's first paragraph, FILES and SEE ALSO are written
# here. @DOCDIR@ stands for the installed documentation folder; make install
# (tools/install.sh) puts the real one in. The date is SOURCE_DATE_EPOCH's,
# else the last commit's, so a rebuild of one commit gives the same page.
# Text is escaped for roff (backslash, leading dot or quote, hyphens in option
# names) and non-ASCII characters become \[uXXXX], so the page renders without
# warnings under groff -ww and mandoc -T lint (tests/e2e/install.sh checks).
set -u
BIN=${1:?usage: gen_man.sh BIN}
export LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-man.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files

die() { echo "gen_man.sh: $*" >&2; exit 1; }

"$BIN" --help >"$tmp/help" 2>&1 || die "$BIN --help failed"
"$BIN" --version >"$tmp/version" 2>&1 || die "$BIN --version failed"
"$BIN" --list-presets >"$tmp/presets" 2>&1 || die "$BIN --list-presets failed"
"$BIN" --list-kernels >"$tmp/kernels" 2>&1 || die "$BIN --list-kernels failed"
mkdir "$tmp/home"
HOME=$tmp/home XDG_STATE_HOME=$tmp/home XDG_DATA_HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home \
	"$BIN" lesson >"$tmp/lessons" 2>&1 || die "$BIN lesson failed"
# The subcommands named in --help; each one's usage, from --help (those that
# have none print their usage after an error: keep from "usage:" on).
subs=$(awk '/^Subcommands:/ { on = 1; next } on && /^  gpustep [a-z]/ { print $2 }' "$tmp/help" | uniq)
[ -n "$subs" ] || die "no subcommands in $BIN --help"
for s in $subs; do
	"$BIN" "$s" --help 2>&1 </dev/null | awk '/^usage:/ { on = 1 } on' >"$tmp/sub-$s"
	[ -s "$tmp/sub-$s" ] || die "$BIN $s --help printed no usage"
done
printf 'help\n' | "$BIN" --batch - >"$tmp/cmds" 2>&1 || die "$BIN --batch: help failed"
cmds=$(awk '/^  [a-z]/ { print $1 }' "$tmp/cmds")
[ -n "$cmds" ] || die "no commands in the prompt's help"
{
	for c in $cmds; do printf 'help %s\n' "$c"; done
	printf 'help keys\n'
} | "$BIN" --batch - >"$tmp/cmdhelp" 2>&1 || die "$BIN --batch: help COMMAND failed"

version=$(awk '{ print $2; exit }' "$tmp/version")
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
	date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d 2>/dev/null || date -u -r "$SOURCE_DATE_EPOCH" +%Y-%m-%d)
else
	date=$(git log -1 --format=%cd --date=format:%Y-%m-%d 2>/dev/null) || date=
fi
[ -n "$date" ] || date=$(date -u +%Y-%m-%d)

# The awk library every part uses: esc() makes a line safe roff text.
lib='
BEGIN { for (i = 128; i < 256; i++) byte[sprintf("%c", i)] = i }
function utf8(s,    out, i, n, c, b, cp, k, more) {
	out = ""
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (!(c in byte)) { out = out c; continue }
		b = byte[c]
		if (b >= 240) { cp = b - 240; more = 3 } else if (b >= 224) { cp = b - 224; more = 2 } else if (b >= 192) { cp = b - 192; more = 1 } else { out = out "?"; continue }
		for (k = 1; k <= more && i + 1 <= n; k++) { i++; cp = cp * 64 + (byte[substr(s, i, 1)] - 128) }
		out = out sprintf("\\[u%04X]", cp)
	}
	return out
}
function esc(s) {
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	s = utf8(s)
	if (s ~ /^[.\047]/) s = "\\&" s
	return s
}
# Prose: escaped, then broken between words into lines of at most 78
# characters (none may start with a dot or quote).
function para(s,    n, w, i, line) {
	n = split(esc(s), w, " ")
	line = ""
	for (i = 1; i <= n; i++) {
		if (line != "" && length(line) + 1 + length(w[i]) > 78) { pline(line); line = "" }
		line = line == "" ? w[i] : line " " w[i]
	}
	if (line != "") pline(line)
}
function pline(l) { if (l ~ /^[.\047]/) l = "\\&" l; print l }
# An option or argument list: brackets and bars roman, options and literal
# lower-case words bold, placeholders (upper case, "options") italic.
function tag(s,    n, w, i, out, t, pre, post, p) {
	n = split(s, w, " ")
	out = ""
	for (i = 1; i <= n; i++) {
		t = w[i]; pre = ""; post = ""
		while (t ~ /^[[|]/) { pre = pre substr(t, 1, 1); t = substr(t, 2) }
		while (t ~ /[],|]$/) { post = substr(t, length(t), 1) post; t = substr(t, 1, length(t) - 1) }
		if (t == "" || t == "...") p = esc(t)
		else if (t ~ /^-/ || (t ~ /^[a-z][a-z|-]*$/ && t != "options")) p = "\\fB" esc(t) "\\fR"
		else p = "\\fI" esc(t) "\\fR"
		out = out (i > 1 ? " " : "") pre p post
	}
	return out
}
# Lines as they are, in no-fill mode, indented.
function verbatim_start() { print ".RS 4"; print ".nf" }
function verbatim_end() { print ".fi"; print ".RE" }
function vline(s) { sub(/[ ]+$/, "", s); if (s == "") print ".sp"; else print esc(s) }
'

{
	cat <<EOF
.\\" Generated by tools/gen_man.sh from the output of gpustep $version; do not edit.
.TH GPUSTEP 1 $date "gpustep $version" "User Commands"
.SH NAME
gpustep \\- cycle\\-level GPU memory\\-system simulator and debugger
EOF
	# SYNOPSIS: the usage line and the subcommand lines of --help.
	echo ".SH SYNOPSIS"
	awk "$lib"'
	/^usage: gpustep/ { sub(/^usage: gpustep ?/, ""); print ".SY gpustep"; print tag($0); print ".YS"; next }
	/^Subcommands:/ { on = 1; next }
	on && /^  gpustep [a-z]/ { sub(/^  gpustep /, ""); sub(/   +[^ ].*$/, ""); print ".SY gpustep"; print tag($0); print ".YS"; next }
	on && /^[^ ]/ { on = 0 }' "$tmp/help"
	cat <<'EOF'
.SH DESCRIPTION
gpustep simulates a GPU's memory system cycle by cycle: SMs with warp
schedulers, L1 caches with MSHRs, a crossbar, L2 banks and DRAM channels with
real timing.
It loads a machine (a JSON config or a built\-in preset) and a workload (a
built\-in kernel, a kernel JSON file or a DRAM trace), then lets you step, run,
break on events and inspect every queue, cache set, MSHR and DRAM row buffer,
as a debugger steps a program.
The same engine runs headless for batch experiments and writes every
statistic as JSON.
EOF
	# The help's closing notes (after the subcommands), except the exit status.
	awk "$lib"'
	/^Subcommands:/ { on = 1; next }
	on && /^[^ ]/ && !/^Exit status/ { print ".PP"; para($0) }' "$tmp/help"

	# OPTIONS: the option lines of --help, up to "Subcommands:". The
	# description column is where the CONFIG line'"'"'s description starts.
	echo ".SH OPTIONS"
	awk "$lib"'
	/^usage:/ { next }
	/^Subcommands:/ { exit }
	col == 0 && match($0, /^  [^ ]+ +/) { col = RLENGTH + 1 }
	col == 0 { next }
	{
		pad = substr($0, 1, col - 1)
		if (pad ~ /^ +$/ && length($0) >= col) {   # continuation of the description
			d = substr($0, col); sub(/^ +/, "", d); para(d); next
		}
		t = $0; d = ""
		if (length($0) >= col && substr($0, col - 1, 1) == " " && substr($0, col, 1) != " " && substr($0, col, 1) != "-") {
			t = substr($0, 1, col - 1); d = substr($0, col)
		}
		sub(/^ +/, "", t); sub(/ +$/, "", t)
		print ".TP"
		print tag(t)
		if (d != "") para(d)
	}' "$tmp/help"

	# SUBCOMMANDS: each subcommand's description from --help, then its usage.
	echo ".SH SUBCOMMANDS"
	for s in $subs; do
		echo ".SS gpustep $s"
		awk -v s="$s" "$lib"'
		/^Subcommands:/ { on = 1; next }
		!on { next }
		/^[^ ]/ { on = 0; next }
		/^  gpustep / {
			mine = ($2 == s)
			if (mine && match($0, /   +[^ ]/)) { d = substr($0, RSTART); sub(/^ +/, "", d); para(d) }
			next
		}
		mine && /^      / { d = $0; sub(/^ +/, "", d); para(d) }' "$tmp/help"
		awk "$lib"'BEGIN { verbatim_start() } { vline($0) } END { verbatim_end() }' "$tmp/sub-$s"
	done

	# COMMANDS: the prompt's command table, each with its `help CMD` text.
	cat <<'EOF'
.SH COMMANDS
The interactive prompt and
.B \-\-batch
scripts share one command table.
Each command below is shown as
.B help
.I COMMAND
prints it at the prompt.
EOF
	awk "$lib"'
	/^\(gpustep\) help / { if (open) verbatim_end(); open = 0; name = $3
		if (name == "keys") { keys = 1; print ".SH KEYS"; print "The interactive screen'"'"'s key bindings (\\fBhelp keys\\fR):"; verbatim_start(); open = 1; next }
		print ".SS " esc(name); verbatim_start(); open = 1; next }
	open { vline($0) }
	END { if (open) verbatim_end() }' "$tmp/cmdhelp"

	# PRESETS and BUILT-IN KERNELS: NAME DESCRIPTION a line.
	for part in presets:PRESETS kernels:BUILT-IN\ KERNELS; do
		f=${part%%:*}
		title=${part#*:}
		echo ".SH $title"
		if [ "$f" = presets ]; then
			printf '%s\n' 'Machine configurations compiled into the binary; name one as CONFIG' '(\fB\-\-list\-presets\fR).'
		else
			printf '%s\n' 'Kernels compiled into the binary; name one with \fB\-w\fR' '(\fB\-\-list\-kernels\fR; a kernel'"'"'s parameters: \fB\-\-list\-params\fR).'
		fi
		awk "$lib"'NF { n = $1; sub(/^[^ ]+ +/, ""); print ".TP"; print "\\fB" esc(n) "\\fR"; para($0) }' "$tmp/$f"
	done

	# LESSONS: "  NAME  N steps  not started  DESCRIPTION" (a fresh HOME).
	echo ".SH LESSONS"
	printf '%s\n' 'Guided lessons, opened with \fBgpustep lesson\fR \fINAME\fR:'
	awk "$lib"'/^  [a-z]/ && / steps +not started +/ {
		n = $1; s = $2; d = $0; sub(/^.* steps +not started +/, "", d)
		print ".TP"; print "\\fB" esc(n) "\\fR (" s " steps)"; para(d) }' "$tmp/lessons"

	echo ".SH EXIT STATUS"
	awk "$lib"'/^Exit status:/ { sub(/^Exit status: */, ""); para($0) }' "$tmp/help"

	cat <<'EOF'
.SH FILES
.TP
.I @DOCDIR@
The documentation (README.md and docs/*.md: the config keys, the kernel
language, sweeps, lessons, exports) and examples/: machine configs, kernels,
sweep specs and lessons to copy and change.
.SH SEE ALSO
.BR gnuplot (1),
.BR parallel (1),
.BR sbatch (1)
EOF
} >"$tmp/page"

# Sanity: every long option of --help (before the subcommands) is on the page.
for o in $(awk '/^Subcommands:/ { exit } { print }' "$tmp/help" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" "$tmp/page" || die "option $o of --help missing from the page"
done
cat "$tmp/page"
