#!/bin/sh
# deps.sh: make sure the build and test dependencies are installed.
# Quiet when everything is present. Otherwise installs the Debian packages when
# run as root, or prints the exact command and fails.
PKGS="ncursesw panelw readline libcjson liblzma"
CMDS="cc make tmux pkg-config xz"
APT="libncurses-dev libreadline-dev libcjson-dev liblzma-dev xz-utils pkg-config tmux gcc make"

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
