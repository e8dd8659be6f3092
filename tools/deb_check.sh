#!/bin/sh
# deb_check.sh [--no-lintian] DEB: install the package with dpkg, check the installed
# gpustep runs and its man page and completion are in place, remove it, check
# that none of its files is left, then run lintian on it (when installed).
# Needs root and a machine where no gpustep package is installed yet (it
# refuses to replace one). `make deb-check` runs it; tests/e2e/install.sh
# runs it as root on CI.
set -u
lintian=1
[ "${1:-}" = --no-lintian ] && { lintian=0; shift; }
DEB=${1:?usage: deb_check.sh [--no-lintian] DEB}
fail() { echo "deb_check: $*" >&2; [ "${installed:-0}" = 1 ] && dpkg -r gpustep >/dev/null 2>&1; exit 1; }

[ -f "$DEB" ] || fail "no package $DEB (make deb)"
[ "$(id -u)" = 0 ] || fail "dpkg -i needs root (sudo make deb-check)"
if dpkg-query -W -f='${Status}' gpustep 2>/dev/null | grep -q 'installed'; then
	fail "a gpustep package is already installed; not replacing it (dpkg -r gpustep first)"
fi
[ -e /usr/bin/gpustep ] && fail "/usr/bin/gpustep exists and is not from a package; not overwriting it"

dpkg -i "$DEB" >"${TMPDIR:-/tmp}/gpustep-dpkg.log" 2>&1 || { cat "${TMPDIR:-/tmp}/gpustep-dpkg.log" >&2; installed=1; fail "dpkg -i failed"; }
installed=1
v=$(/usr/bin/gpustep --version) || fail "installed gpustep --version failed"
echo "installed: $v"
case "$v" in "gpustep "*" (commit "*")") ;; *) fail "unexpected --version: $v" ;; esac
/usr/bin/gpustep --run -w vecadd -p n=256 >/dev/null || fail "installed gpustep --run failed"
[ -f /usr/share/man/man1/gpustep.1.gz ] || fail "no /usr/share/man/man1/gpustep.1.gz"
[ -f /usr/share/bash-completion/completions/gpustep ] || fail "no bash completion file"
if command -v man >/dev/null 2>&1; then
	[ "$(man -w gpustep 2>/dev/null)" = /usr/share/man/man1/gpustep.1.gz ] || fail "man -w gpustep: $(man -w gpustep 2>&1)"
fi

files=$(dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }')
dpkg -r gpustep >/dev/null 2>&1 || fail "dpkg -r gpustep failed"
installed=0
left=
for f in $files; do
	[ -e "$f" ] && left="$left $f"
done
[ -z "$left" ] || fail "left after dpkg -r:$left"
[ -d /usr/share/doc/gpustep ] && fail "/usr/share/doc/gpustep left after dpkg -r"
echo "installed, ran and removed cleanly: $(echo "$files" | wc -l) files"

if [ "$lintian" = 0 ]; then
	:
elif command -v lintian >/dev/null 2>&1; then
	# lintian runs as root only with --allow-root
	lintian --allow-root --tag-display-limit 0 "$DEB" || fail "lintian found errors (above)"
	echo "lintian: no errors"
else
	echo "lintian not installed: skipped (sudo apt-get install -y lintian)"
fi
