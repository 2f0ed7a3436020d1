#!/bin/sh
# Installs what building, running and testing need on Debian 12 (as root,
# or through sudo), skipping apt-get entirely when everything is there.
set -eu

packages="build-essential meson ninja-build pkg-config gettext python3
  libgegl-dev gegl libepoxy-dev libegl-dev libegl-mesa0 libgl1-mesa-dri locales"
[ "${CBLUR_SANITIZE:-}" ] && packages="$packages libclang-rt-14-dev clang-14"

missing=""
for p in $packages; do
  dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
[ -z "$missing" ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "installing:$missing"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
