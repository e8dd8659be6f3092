#!/bin/sh
# Installing (docs/PACKAGING.md): make install into a DESTDIR puts the binary,
# a man page that renders without warnings and names every option, command,
# preset and kernel the binary knows, the bash completion and the docs;
# --version names the commit; bash's completion machinery, in a fresh bash
# (called as `complete -F` calls it, and by a real Tab in tmux), completes
# options, kernels, config keys and values, kernel parameters and
# subcommands; make uninstall removes everything; make deb's package lists the
# runtime libraries and its gpustep runs; as root, dpkg -i / dpkg -r.
. "$(dirname "$0")/lib.sh"

D=$E2E_TMP/dest
# `make install` itself when testing the default build; for another build
# (SANITIZE=..., DEBUG=1) the same scripts the targets run, on that binary.
if [ "$BIN" = "$ROOT/build/gpustep" ]; then
	MAKEFLAGS= MAKELEVEL= make -s install DESTDIR="$D" PREFIX=/usr >"$E2E_TMP/inst.log" 2>&1 ||
		fail "make install: $(cat "$E2E_TMP/inst.log")"
	MAN=$ROOT/build/gen/gpustep.1
else
	MAN=$E2E_TMP/gpustep.1
	sh tools/gen_man.sh "$BIN" >"$MAN" || fail "gen_man.sh failed"
	DESTDIR=$D PREFIX=/usr sh tools/install.sh install "$BIN" "$MAN" >"$E2E_TMP/inst.log" 2>&1 ||
		fail "install.sh: $(cat "$E2E_TMP/inst.log")"
fi
for f in bin/gpustep share/man/man1/gpustep.1 share/bash-completion/completions/gpustep \
	share/doc/gpustep/README.md share/doc/gpustep/docs/SWEEPS.md share/doc/gpustep/examples/sweeps/rf_configs.json \
	share/doc/gpustep/examples/sweeps/rf/sram.json share/doc/gpustep/examples/lessons/mshrs.json \
	share/doc/gpustep/examples/workloads/vecadd.json share/doc/gpustep/examples/configs/gtx480.json; do
	[ -f "$D/usr/$f" ] || fail "make install did not put /usr/$f"
done
[ -x "$D/usr/bin/gpustep" ] || fail "installed binary not executable"

# --version: the version and the commit this tree is at.
v=$("$D/usr/bin/gpustep" --version) || fail "installed --version failed"
case "$v" in "gpustep "*" (commit "*")") ;; *) fail "--version: '$v'" ;; esac
if head=$(git rev-parse --short=12 HEAD 2>/dev/null); then
	expect_contains "$v" "(commit $head"
fi

# ---- the man page -------------------------------------------------------------
P=$D/usr/share/man/man1/gpustep.1
grep -q '@DOCDIR@' "$P" && fail "man page still has @DOCDIR@"
grep -q '^\.I /usr/share/doc/gpustep$' "$P" || fail "man page FILES does not name /usr/share/doc/gpustep"
# plain ASCII: other characters (the presets' "\302\247") as \[uXXXX] escapes
LC_ALL=C grep -n '[^ -~]' "$P" >"$E2E_TMP/nonascii" && fail "man page has non-ASCII bytes: $(head -3 "$E2E_TMP/nonascii")"
if command -v groff >/dev/null 2>&1; then
	groff -ww -man -Tutf8 -z "$P" >"$E2E_TMP/groff.err" 2>&1 || fail "groff failed: $(cat "$E2E_TMP/groff.err")"
	[ ! -s "$E2E_TMP/groff.err" ] || fail "groff -ww warns: $(head -20 "$E2E_TMP/groff.err")"
	txt=$(groff -man -Tutf8 "$P" 2>/dev/null | sed 's/.\x08//g')
	expect_contains "$txt" "gpustep - cycle-level GPU memory-system simulator"
else
	echo "SKIP groff rendering: groff not installed (sudo apt-get install -y groff-base)"
fi
if command -v mandoc >/dev/null 2>&1; then
	mandoc -T lint -W warning "$P" >"$E2E_TMP/lint" 2>&1
	[ ! -s "$E2E_TMP/lint" ] || fail "mandoc -T lint: $(head -20 "$E2E_TMP/lint")"
else
	echo "SKIP mandoc lint: mandoc not installed (sudo apt-get install -y mandoc)"
fi
# Written from the binary: every option, prompt command, preset and kernel.
for o in $("$BIN" --help | sed '/^Subcommands:/,$d' | grep -o -e '--[a-z][a-z-]*' | sort -u); do
	grep -q "fB$(printf '%s' "$o" | sed 's/-/\\\\-/g')\\\\fR" "$P" || fail "man page lacks option $o"
done
for c in $(printf 'help\n' | "$BIN" --batch - | awk '/^  [a-z]/ { print $1 }'); do
	grep -qx ".SS $(printf '%s' "$c" | sed 's/-/\\\\-/g')" "$P" || fail "man page lacks command $c"
done
for k in $("$BIN" --list-kernels | awk '{ print $1 }') $("$BIN" --list-presets | awk '{ print $1 }'); do
	grep -qx "\\\\fB$(printf '%s' "$k" | sed 's/-/\\\\-/g')\\\\fR" "$P" || fail "man page lacks $k"
done
grep -q 'usage: gpustep sweep SPEC.json' "$P" || fail "man page lacks the sweep usage"
grep -q '^\.SH KEYS' "$P" || fail "man page lacks the key bindings"

# ---- bash completion, in a fresh bash --------------------------------------------
command -v bash >/dev/null 2>&1 || fail "bash not installed"
CW=$E2E_TMP/cwd # an empty folder: no file names among the completions
mkdir "$CW"
# comp LINE: what Tab offers for LINE, one a line (the function `complete -p
# gpustep` names, called with COMP_* set as readline sets them).
comp() {
	(cd "$CW" && PATH="$D/usr/bin:$PATH" bash --norc --noprofile -c '
		. "$1" || exit 1
		f=$(complete -p gpustep | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
		[ -n "$f" ] || { echo "no complete -F for gpustep" >&2; exit 1; }
		COMP_LINE=$2; COMP_POINT=${#2}
		read -r -a COMP_WORDS <<<"$2"
		COMP_CWORD=${#COMP_WORDS[@]}
		[[ $2 == *" " ]] || COMP_CWORD=$((COMP_CWORD - 1))
		"$f" gpustep "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' sh "$D/usr/share/bash-completion/completions/gpustep" "$1")
}
[ "$(comp 'gpustep --wo')" = "--workload" ] || fail "gpustep --wo<Tab>: '$(comp 'gpustep --wo')'"
[ "$(comp 'gpustep -w ' | sort)" = "$("$BIN" --list-kernels | awk '{ print $1 }' | sort)" ] ||
	fail "gpustep -w <Tab> is not the kernel list: $(comp 'gpustep -w ')"
[ "$(comp 'gpustep --list-p')" = "$(printf '%s\n' --list-params --list-presets)" ] || fail "--list-p: $(comp 'gpustep --list-p')"
expect_contains "$(comp 'gpustep -s l1.mshr.ent')" "l1.mshr.entries="
# values of an enum key: bash replaces only the part after '='
[ "$(comp 'gpustep -s l1.bypass=lo')" = "locality" ] || fail "-s l1.bypass=lo<Tab>: '$(comp 'gpustep -s l1.bypass=lo')'"
[ "$(comp 'gpustep -w matmul_tiled -p ')" = "n=" ] || fail "-p after -w matmul_tiled: '$(comp 'gpustep -w matmul_tiled -p ')'"
out=$(comp 'gpustep ')
for w in model sweep lesson stress-coherence teaching gtx480; do
	printf '%s\n' "$out" | grep -qx -- "$w" || fail "gpustep <Tab> lacks $w: $out"
done
[ "$(comp 'gpustep sweep ')" = "$(printf '%s\n' collect table plot)" ] || fail "sweep <Tab>: $(comp 'gpustep sweep ')"
expect_contains "$(comp 'gpustep sweep x.json --em')" "--emit"
expect_contains "$(comp 'gpustep lesson ')" "dram_rows"
expect_contains "$(comp 'gpustep model --sem')" "--semantics"
[ "$(comp 'gpustep stress-coherence --protocol n')" = "nmoesi" ] || fail "--protocol n: $(comp 'gpustep stress-coherence --protocol n')"

# A real Tab: readline in a bash in tmux.
if command -v tmux >/dev/null 2>&1; then
	cat >"$E2E_TMP/rc" <<EOF
PS1='gs> '
PATH="$D/usr/bin:\$PATH"
. "$D/usr/share/bash-completion/completions/gpustep"
bind 'set bell-style none'
cd "$CW"
EOF
	tmux_start 200 40 "bash --noprofile --rcfile $E2E_TMP/rc -i"
	tmux_wait_for 'gs>' 5 || fail "no bash prompt"
	tmux_send 'gpustep --wo' Tab
	tmux_wait_for 'gs> gpustep --workload' 5 || fail "Tab did not complete --wo to --workload"
	tmux_send C-u 'gpustep -w ' Tab Tab
	tmux_wait_for 'matmul_tiled' 5 || fail "Tab Tab after -w did not list the kernels"
	screen=$(tmux_capture)
	for k in vecadd gather_random transpose_naive; do expect_contains "$screen" "$k"; done
	tmux_kill
else
	fail "tmux not installed (make deps installs it)"
fi

# ---- make uninstall ---------------------------------------------------------------
if [ "$BIN" = "$ROOT/build/gpustep" ]; then
	MAKEFLAGS= MAKELEVEL= make -s uninstall DESTDIR="$D" PREFIX=/usr >"$E2E_TMP/uninst.log" 2>&1 ||
		fail "make uninstall: $(cat "$E2E_TMP/uninst.log")"
else
	DESTDIR=$D PREFIX=/usr sh tools/install.sh uninstall "$BIN" "$MAN" >/dev/null || fail "install.sh uninstall"
fi
left=$(find "$D" -type f)
[ -z "$left" ] || fail "left after uninstall: $left"

# ---- make deb -------------------------------------------------------------------------
if ! command -v dpkg-deb >/dev/null 2>&1; then
	echo "SKIP make deb: dpkg-deb not installed (not a Debian system)"
	exit 0
fi
if ! command -v dpkg-shlibdeps >/dev/null 2>&1; then
	echo "SKIP make deb: dpkg-shlibdeps not installed (sudo apt-get install -y dpkg-dev; make deps does it as root)"
	exit 0
fi
V=$(sed -n 's/^VERSION := //p' Makefile)
if [ "$BIN" = "$ROOT/build/gpustep" ]; then
	MAKEFLAGS= MAKELEVEL= make -s deb DEB_DIR="$E2E_TMP/deb" >"$E2E_TMP/deb.log" 2>&1 || fail "make deb: $(cat "$E2E_TMP/deb.log")"
else
	sh tools/mkdeb.sh "$BIN" "$MAN" "$E2E_TMP/deb" "$V" >"$E2E_TMP/deb.log" 2>&1 || fail "mkdeb.sh: $(cat "$E2E_TMP/deb.log")"
fi
DEB=$E2E_TMP/deb/gpustep_${V}_$(dpkg --print-architecture).deb
[ -f "$DEB" ] || fail "no $DEB: $(ls "$E2E_TMP/deb")"
info=$(dpkg-deb -I "$DEB") || fail "dpkg-deb -I failed"
dep=$(printf '%s\n' "$info" | sed -n 's/^ Depends: //p')
for lib in libncursesw6 libreadline8 libcjson1 liblzma5 libsqlite3-0 libc6; do
	printf '%s\n' "$dep" | grep -q "\\b$lib\\b" || fail "Depends lacks $lib: $dep"
done
rec=$(printf '%s\n' "$info" | sed -n 's/^ Recommends: //p')
expect_contains "$rec" "gnuplot"
expect_contains "$rec" "parallel"
dpkg-deb -c "$DEB" | grep -q ' ./usr/share/man/man1/gpustep.1.gz$' || fail "package lacks the gzipped man page"
dpkg-deb -x "$DEB" "$E2E_TMP/x" || fail "dpkg-deb -x failed"
expect_contains "$("$E2E_TMP/x/usr/bin/gpustep" --version)" "gpustep $V (commit "
# As root on a machine without gpustep installed (CI): a real dpkg -i / -r.
if [ "$(id -u)" = 0 ] && ! dpkg-query -W -f='${Status}' gpustep 2>/dev/null | grep -q installed && [ ! -e /usr/bin/gpustep ]; then
	sh tools/deb_check.sh --no-lintian "$DEB" || fail "deb_check.sh failed"
else
	echo "SKIP dpkg -i/-r: needs root and no gpustep installed (make deb-check does it)"
fi
exit 0
