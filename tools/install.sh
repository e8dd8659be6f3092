#!/bin/sh
# install.sh install|uninstall BIN MANPAGE: what `make install` and `make
# uninstall` do (also how tools/mkdeb.sh lays out the package). From the
# environment: PREFIX (default /usr/local), DESTDIR (a staging root, default
# none), and BINDIR, MANDIR, BASHCOMPDIR, DOCDIR (defaults under PREFIX).
# Run from the repository root. Installs:
#   BINDIR/gpustep                         the binary (presets, kernels and
#                                          lessons are compiled into it)
#   MANDIR/man1/gpustep.1                  the man page (tools/gen_man.sh), its
#                                          @DOCDIR@ replaced by DOCDIR
#   BASHCOMPDIR/gpustep                    bash completion (completion/gpustep.bash)
#   DOCDIR/README.md, DOCDIR/docs/         the documentation, read offline
#   DOCDIR/examples/{configs,workloads,sweeps,lessons}/
#                                          machine configs, kernels, sweep specs
#                                          and lessons to copy and change
# uninstall removes the first three files and DOCDIR (which is gpustep's own).
set -eu
cmd=${1:?usage: install.sh install|uninstall BIN MANPAGE}
BIN=${2:?usage: install.sh install|uninstall BIN MANPAGE}
MAN=${3:?usage: install.sh install|uninstall BIN MANPAGE}
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
BINDIR=${BINDIR:-$PREFIX/bin}
MANDIR=${MANDIR:-$PREFIX/share/man}
BASHCOMPDIR=${BASHCOMPDIR:-$PREFIX/share/bash-completion/completions}
DOCDIR=${DOCDIR:-$PREFIX/share/doc/gpustep}

case "$PREFIX$BINDIR$MANDIR$BASHCOMPDIR$DOCDIR" in
*"
"*) echo "install.sh: newline in a path" >&2; exit 2 ;;
esac
case "$DOCDIR" in
*/gpustep | */gpustep/) ;;
*) echo "install.sh: DOCDIR must end in /gpustep (uninstall removes it whole): $DOCDIR" >&2; exit 2 ;;
esac
[ -f completion/gpustep.bash ] && [ -d docs ] || { echo "install.sh: run from the gpustep source tree" >&2; exit 2; }

D=$DESTDIR
v() { echo "  $*"; "$@"; }

# copy MODE DIR FILE...: install the files into DIR (created).
copy() {
	mode=$1 dir=$2
	shift 2
	[ -d "$D$dir" ] || v install -d -m 0755 "$D$dir"
	v install -m "$mode" "$@" "$D$dir/"
}

case "$cmd" in
install)
	[ -x "$BIN" ] || { echo "install.sh: no binary $BIN (make it first)" >&2; exit 2; }
	[ -f "$MAN" ] || { echo "install.sh: no man page $MAN (make it first)" >&2; exit 2; }
	copy 0755 "$BINDIR" "$BIN"
	[ "$(basename "$BIN")" = gpustep ] || v mv "$D$BINDIR/$(basename "$BIN")" "$D$BINDIR/gpustep"
	[ -d "$D$MANDIR/man1" ] || v install -d -m 0755 "$D$MANDIR/man1"
	echo "  sed s|@DOCDIR@|$DOCDIR| $MAN > $D$MANDIR/man1/gpustep.1"
	# the replacement is escaped for roff (hyphens) and for sed
	docdir_roff=$(printf '%s' "$DOCDIR" | sed -e 's/[\\&|]/\\&/g' -e 's/-/\\\\-/g')
	sed "s|@DOCDIR@|$docdir_roff|g" "$MAN" >"$D$MANDIR/man1/gpustep.1"
	chmod 0644 "$D$MANDIR/man1/gpustep.1"
	[ -d "$D$BASHCOMPDIR" ] || v install -d -m 0755 "$D$BASHCOMPDIR"
	v install -m 0644 completion/gpustep.bash "$D$BASHCOMPDIR/gpustep"
	copy 0644 "$DOCDIR" README.md
	copy 0644 "$DOCDIR/docs" docs/*.md docs/*.png
	copy 0644 "$DOCDIR/examples/configs" configs/*.json
	copy 0644 "$DOCDIR/examples/workloads" configs/workloads/*.json
	copy 0644 "$DOCDIR/examples/lessons" configs/lessons/*.json
	copy 0644 "$DOCDIR/examples/sweeps" configs/sweeps/*.json
	# sweep specs name config files beside them (rf/sram.json): keep the tree
	for d in configs/sweeps/*/; do
		[ -d "$d" ] || continue
		copy 0644 "$DOCDIR/examples/sweeps/$(basename "$d")" "$d"*.json
	done
	;;
uninstall)
	for f in "$BINDIR/gpustep" "$MANDIR/man1/gpustep.1" "$BASHCOMPDIR/gpustep"; do
		[ -e "$D$f" ] && v rm -f "$D$f"
	done
	[ -d "$D$DOCDIR" ] && v rm -rf "$D$DOCDIR"
	:
	;;
*)
	echo "install.sh: unknown command '$cmd' (install, uninstall)" >&2
	exit 2
	;;
esac
