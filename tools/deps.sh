#!/bin/sh
# deps.sh: make sure the build and test dependencies are installed.
# Quiet when everything is present. Otherwise installs the Debian packages when
# run as root, or prints the exact command and fails.
PKGS="ncursesw panelw readline libcjson liblzma sqlite3"
CMDS="cc make tmux pkg-config xz"
APT="libncurses-dev libreadline-dev libcjson-dev liblzma-dev libsqlite3-dev xz-utils pkg-config tmux gcc make"
# Used by the sweep tests and `gpustep sweep plot` / `--emit parallel`, and by
# the packaging test and `make deb` (groff and mandoc check the man page,
# dpkg-shlibdeps finds the package's dependencies): installed when root, else
# the tests that need them skip and say why.
OPT_CMDS="gnuplot parallel groff mandoc dpkg-shlibdeps"
OPT_APT="gnuplot-nox parallel groff-base mandoc dpkg-dev"

opt_missing=""
for c in $OPT_CMDS; do
	command -v "$c" >/dev/null 2>&1 || opt_missing="$opt_missing $c"
done
if [ -n "$opt_missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "gpustep: installing:$opt_missing (apt-get install -y $OPT_APT)" >&2
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y $OPT_APT >/dev/null 2>&1 ||
		{ apt-get update >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y $OPT_APT >/dev/null 2>&1; }; } ||
		echo "gpustep: could not install $OPT_APT; sweep plot/parallel and man page/deb tests will skip" >&2
elif [ -n "$opt_missing" ] && [ ! -f "${TMPDIR:-/tmp}/.gpustep-optdeps-noted" ]; then
	echo "gpustep: optional:$opt_missing missing (sweep plots, GNU parallel runs, man page checks, make deb): sudo apt-get install -y $OPT_APT" >&2
	: >"${TMPDIR:-/tmp}/.gpustep-optdeps-noted" 2>/dev/null
fi

missing=""
for c in $CMDS; do
	command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
done
if command -v pkg-config >/dev/null 2>&1; then
	for p in $PKGS; do
		pkg-config --exists "$p" 2>/dev/null || missing="$missing $p"
	done
else
	missing="$missing $PKGS"
fi
[ -z "$missing" ] && exit 0

echo "gpustep: missing:$missing" >&2
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "gpustep: installing: apt-get install -y $APT" >&2
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $APT && exit 0
	echo "gpustep: apt-get failed" >&2
	exit 1
fi
echo "gpustep: install them with:" >&2
echo "  sudo apt-get update && sudo apt-get install -y $APT" >&2
exit 1
