#!/bin/sh
# mkdeb.sh BIN MANPAGE OUTDIR VERSION: build OUTDIR/gpustep_VERSION_ARCH.deb
# with dpkg-deb (what `make deb` runs; docs/PACKAGING.md). Run from the
# repository root.
#   - the files of tools/install.sh under /usr, the binary stripped, the man
#     page and changelog gzipped (-9n: the same bytes every build)
#   - Depends from dpkg-shlibdeps (the libraries the binary links: ncursesw,
#     readline, cJSON, liblzma, SQLite, libc, each with the lowest version its
#     symbols need), Recommends gnuplot and GNU parallel (sweep plot and
#     --emit parallel), Suggests the Slurm client (--emit slurm)
#   - debian/copyright, a changelog naming the commit, DEBIAN/md5sums, files
#     owned by root (dpkg-deb --root-owner-group: no fakeroot needed)
# DEB_MAINTAINER overrides the Maintainer field.
set -eu
BIN=${1:?usage: mkdeb.sh BIN MANPAGE OUTDIR VERSION}
MAN=${2:?usage: mkdeb.sh BIN MANPAGE OUTDIR VERSION}
OUT=${3:?usage: mkdeb.sh BIN MANPAGE OUTDIR VERSION}
VERSION=${4:?usage: mkdeb.sh BIN MANPAGE OUTDIR VERSION}
MAINT=${DEB_MAINTAINER:-gpustep developers <gpustep@users.noreply.github.com>}

for t in dpkg-deb dpkg-shlibdeps strip gzip; do
	command -v "$t" >/dev/null 2>&1 && continue
	case $t in
	dpkg-shlibdeps) pkg=dpkg-dev ;;
	strip) pkg=binutils ;;
	*) pkg=$t ;;
	esac
	echo "mkdeb.sh: make deb needs $t (sudo apt-get install -y $pkg)" >&2
	exit 2
done
case "$VERSION" in
[0-9]*) ;;
*) echo "mkdeb.sh: a Debian version starts with a digit: '$VERSION'" >&2; exit 2 ;;
esac

arch=$(dpkg-deb --version >/dev/null && dpkg --print-architecture)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files
root=$tmp/gpustep_${VERSION}_$arch
umask 022

PREFIX=/usr DESTDIR=$root DOCDIR=/usr/share/doc/gpustep sh tools/install.sh install "$BIN" "$MAN" >/dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/gpustep"
gzip -9n "$root/usr/share/man/man1/gpustep.1"
doc=$root/usr/share/doc/gpustep
install -m 0644 debian/copyright "$doc/copyright"
commit=$("$BIN" --version | sed -n 's/.*(commit \(.*\))$/\1/p')
date=$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")
cat >"$doc/changelog" <<EOF
gpustep ($VERSION) unstable; urgency=medium

  * Local build from the gpustep source tree, commit ${commit:-unknown}.

 -- $MAINT  $date
EOF
gzip -9n "$doc/changelog"

# Depends: dpkg-shlibdeps reads a debian/control; give it a minimal one.
mkdir -p "$tmp/src/debian"
printf 'Source: gpustep\n\nPackage: gpustep\nArchitecture: any\n' >"$tmp/src/debian/control"
depends=$(cd "$tmp/src" && dpkg-shlibdeps -O "$root/usr/bin/gpustep" 2>"$tmp/shlibdeps.err" |
	sed -n 's/^shlibs:Depends=//p') || true
[ -n "$depends" ] || { echo "mkdeb.sh: dpkg-shlibdeps found no dependencies:" >&2; cat "$tmp/shlibdeps.err" >&2; exit 1; }

mkdir -p "$root/DEBIAN"
size=$(du -sk --apparent-size "$root/usr" | cut -f1)
sed -e "s|@VERSION@|$VERSION|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$MAINT|" \
	-e "s|@DEPENDS@|$depends|" -e "s|@SIZE@|$size|" debian/control.in >"$root/DEBIAN/control"
(cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +

mkdir -p "$OUT"
deb=$OUT/gpustep_${VERSION}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
