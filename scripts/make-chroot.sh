#!/bin/sh
# Makes, or brings up to date, the Debian 13 chroot that scripts/test.sh
# runs GIMP 3, GEGL's gegl-tester and the suites in: debootstrap from
# Debian's registry, the packages below, and GEGL's Debian source (apt-get
# source, into /var/cache/cblur) for its gegl-tester.  A chroot that has
# all that is left as it is, without touching the network.  As root.
#   scripts/make-chroot.sh [DIR]            (default /srv/trixie)
# CBLUR_DEBIAN_MIRROR overrides http://deb.debian.org/debian.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-/srv/trixie}
mirror=${CBLUR_DEBIAN_MIRROR:-http://deb.debian.org/debian}
packages="gimp python3-gi gir1.2-gimp-3.0 gir1.2-gegl-0.4 gegl libgegl-dev
  libbabl-dev meson ninja-build gcc libc6-dev pkg-config libepoxy-dev
  libegl-dev libegl-mesa0 libgl1-mesa-dri gettext locales dpkg-dev"

if [ ! -x "$dir/usr/bin/apt-get" ]; then
  if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
    echo "$dir is not empty and holds no Debian system" >&2
    exit 1
  fi
  if ! command -v debootstrap >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  fi
  # made beside it and moved into place whole, so that an interrupted
  # debootstrap never passes for a chroot
  rm -rf "$dir.partial"
  echo "debootstrap: Debian 13 into $dir"
  debootstrap --variant=minbase trixie "$dir.partial" "$mirror" >/dev/null
  [ ! -e "$dir" ] || rmdir "$dir"
  mv "$dir.partial" "$dir"
fi

grep -qrs '^deb-src ' "$dir/etc/apt/sources.list" "$dir/etc/apt/sources.list.d" ||
  echo "deb-src $mirror trixie main" > "$dir/etc/apt/sources.list.d/cblur-deb-src.list"

missing=
for p in $packages; do
  chroot "$dir" dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
have_source=
ls "$dir"/var/cache/cblur/gegl-*/tools/gegl-tester.c >/dev/null 2>&1 && have_source=1
[ -z "$missing" ] && [ -n "$have_source" ] && exit 0

[ -z "$missing" ] || echo "installing in $dir:$missing"
[ -n "$have_source" ] || echo "apt-get source gegl in $dir/var/cache/cblur"

# run in the chroot as: sh -e -c "$work" sh MISSING HAVE_SOURCE
# shellcheck disable=SC2016
work='
# Some proxies of the registry serve the tarballs but not the .dsc, which
# apt-get source then fetches (checked against the Sources index) without
# unpacking them: do what dpkg-source -x does for a "3.0 (quilt)" package.
unpack_quilt ()
{
  orig=$(ls "$1"_*.orig.tar.*)
  version=${orig#"$1"_}
  version=${version%.orig.tar.*}
  mkdir "$1-$version"
  tar xf "$orig" -C "$1-$version" --strip-components=1
  tar xf "$1"_*.debian.tar.* -C "$1-$version"
  cd "$1-$version"
  grep -v "^#" debian/patches/series | while read -r patch; do
    [ -z "$patch" ] || patch -p1 < "debian/patches/$patch"
  done
  cd ..
}

apt-get update -qq
[ -z "$1" ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $1
if [ -z "$2" ]; then
  rm -rf /var/cache/cblur
  mkdir -p /var/cache/cblur
  cd /var/cache/cblur
  apt-get source -qq gegl || true
  ls -d gegl-*/ >/dev/null 2>&1 || unpack_quilt gegl
fi'
sh "$root/scripts/chroot-run.sh" "$dir" sh -c '
  sh -e -c "$0" sh "$1" "$2" >/var/log/cblur-apt.log 2>&1 ||
    { tail -40 /var/log/cblur-apt.log; exit 1; }' "$work" "$missing" "$have_source"
