#!/bin/sh
# Builds the plug-in and installs it for the current user only, with its
# translations in a folder "locale" beside it (where the op looks first):
#
#   sh scripts/install-user.sh            GIMP and GEGL from the distribution:
#                                         ~/.local/share/gegl-0.4/plug-ins
#   sh scripts/install-user.sh --flatpak  GIMP from Flathub:
#                                         ~/.var/app/org.gimp.GIMP/data/gegl-0.4/plug-ins
#   sh scripts/install-user.sh [--flatpak] --uninstall
#
# It first checks for what building needs, and names what is missing with
# the packages of Debian and Ubuntu, Fedora, Arch and openSUSE that have
# it.  With --install-deps, where apt-get is the system's package manager,
# it installs those (through sudo unless root); it never runs a package
# manager otherwise.  Without libepoxy and EGL it builds without GL, and
# the op blurs on the CPU only.  --check only checks.  --build DIR builds
# in DIR instead of build/ (the tests give their own).
#
# Restart GIMP afterwards.  Install either this way or system-wide
# (`ninja -C build install`), not both: GEGL then finds the op twice.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
flatpak=
uninstall=
install_deps=
check_only=

usage ()
{
  echo "usage: $0 [--flatpak] [--uninstall] [--install-deps] [--check] [--build DIR]" >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case $1 in
    --flatpak)      flatpak=1 ;;
    --uninstall)    uninstall=1 ;;
    --install-deps) install_deps=1 ;;
    --check)        check_only=1 ;;
    --build)        [ $# -gt 1 ] || usage; build=$2; shift ;;
    *)              usage ;;
  esac
  shift
done

# GEGL's per-user folder is under the XDG data folder, which Flatpak sets
# to the app's own.
if [ -n "$flatpak" ]; then
  dest=$HOME/.var/app/org.gimp.GIMP/data/gegl-0.4/plug-ins
else
  dest=${XDG_DATA_HOME:-$HOME/.local/share}/gegl-0.4/plug-ins
fi
module=cblur-gaussian-blur.so
catalogue=gegl-compute-blur.mo

if [ -n "$uninstall" ]; then
  rm -f "$dest/$module" "$dest"/locale/*/LC_MESSAGES/$catalogue
  # the catalogues' folders, where nothing else is left in them
  for dir in "$dest"/locale/*/LC_MESSAGES "$dest"/locale/* "$dest/locale"; do
    rmdir "$dir" 2>/dev/null || true
  done
  echo "removed $dest/$module and its catalogues"
  exit 0
fi

# What building needs: what | how to find it | the package of Debian and
# Ubuntu | Fedora | Arch | openSUSE.  `cmd A B` is there where any of the
# commands is, `pc MODULES` where pkg-config finds them.
required='a C compiler|cmd cc gcc clang|build-essential|gcc|base-devel|gcc
meson|cmd meson|meson|meson|meson|meson
ninja|cmd ninja ninja-build|ninja-build|ninja-build|ninja|ninja
pkg-config|cmd pkg-config pkgconf|pkg-config|pkgconf-pkg-config|pkgconf|pkg-config
GEGL 0.4.34 or newer|pc gegl-0.4 >= 0.4.34|libgegl-dev|gegl04-devel|gegl|pkgconfig(gegl-0.4)
GLib 2.64 or newer|pc glib-2.0 >= 2.64|libglib2.0-dev|glib2-devel|glib2|pkgconfig(glib-2.0)'
gpu='libepoxy and EGL|pc epoxy egl|libepoxy-dev|libepoxy-devel mesa-libEGL-devel|libepoxy|pkgconfig(epoxy) pkgconfig(egl)
Python 3|cmd python3|python3|python3|python|python3'
translations='msgfmt|cmd msgfmt|gettext|gettext|gettext|gettext-tools'

found ()   # cmd COMMAND... | pc MODULE [OP VERSION]...
{
  how=$1
  shift
  if [ "$how" = pc ]; then
    command -v pkg-config >/dev/null && pkg-config --exists "$*"
    return
  fi
  for c in "$@"; do
    command -v "$c" >/dev/null && return 0
  done
  return 1
}

# the column of the table for this system, from /etc/os-release
distribution=0
if [ -r /etc/os-release ]; then
  # shellcheck disable=SC1091
  ids=$(. /etc/os-release && echo "${ID:-} ${ID_LIKE:-}")
  case " $ids " in
    *" debian "*|*" ubuntu "*) distribution=3 ;;
    *" fedora "*|*" rhel "*)   distribution=4 ;;
    *" arch "*)                distribution=5 ;;
    *suse*)                    distribution=6 ;;
  esac
fi

missing_names=
missing_packages=
missing ()   # TABLE: adds what the table's lines name and this system lacks
{
  lines=$1
  lacking=
  while IFS='|' read -r what how deb fedora arch suse; do
    # $how is a word list on purpose
    # shellcheck disable=SC2086
    found $how && continue
    lacking="$lacking, $what"
    case $distribution in
      3) missing_packages="$missing_packages $deb" ;;
      4) missing_packages="$missing_packages $fedora" ;;
      5) missing_packages="$missing_packages $arch" ;;
      6) missing_packages="$missing_packages $suse" ;;
    esac
  done <<EOF
$lines
EOF
  missing_names=${lacking#, }
  [ -n "$lacking" ]
}

package_command ()
{
  case $distribution in
    3) echo "sudo apt-get install$missing_packages" ;;
    4) echo "sudo dnf install$missing_packages" ;;
    5) echo "sudo pacman -S --needed$missing_packages" ;;
    6) echo "sudo zypper install$missing_packages" ;;
    *) echo "your package manager: see the README's list of packages" ;;
  esac
}

# apt-get only on a system of Debian's family that has it, and only asked
uses_apt ()
{
  [ "$distribution" = 3 ] && command -v apt-get >/dev/null
}

install_with_apt ()
{
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "installing:$missing_packages"
  $sudo apt-get update -qq
  # the package names are a word list on purpose
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    $missing_packages >/dev/null
}

check ()
{
  all=$required
  [ -n "$install_deps" ] && uses_apt && all="$required
$gpu
$translations"
  missing_packages=
  if missing "$all"; then
    if [ -n "$install_deps" ] && uses_apt; then
      install_with_apt
      return
    fi
    echo "missing for building: $missing_names" >&2
    echo "  $(package_command)" >&2
    [ -z "$install_deps" ] ||
      echo "(--install-deps uses apt-get, which this system does not have)" >&2
    exit 1
  fi
  missing_packages=
  if missing "$gpu"; then
    echo "without $missing_names the op blurs on the CPU only; for the GPU:"
    echo "  $(package_command)"
  fi
  missing_packages=
  if missing "$translations"; then
    echo "without $missing_names the op speaks English only; for its translations:"
    echo "  $(package_command)"
  fi
}

check
[ -z "$check_only" ] || exit 0

[ -f "$build/build.ninja" ] || meson setup "$build" "$root" >/dev/null
# the module and the catalogues, which meson makes only where msgfmt is
catalogues=$(cd "$build" && ninja -t targets all |
  sed -n "s|^\(po/[^:]*/LC_MESSAGES/$catalogue\):.*|\1|p")
# shellcheck disable=SC2086
ninja -C "$build" "operations/$module" $catalogues >/dev/null
[ -f "$build/operations/$module" ] || { echo "not built: $build/operations/$module" >&2; exit 1; }

mkdir -p "$dest"
# a fresh file rather than overwriting one a running GIMP has mapped
rm -f "$dest/$module"
cp "$build/operations/$module" "$dest/$module"
for mo in "$build"/po/*/LC_MESSAGES/"$catalogue"; do
  [ -f "$mo" ] || continue
  lang=$(basename "$(dirname "$(dirname "$mo")")")
  mkdir -p "$dest/locale/$lang/LC_MESSAGES"
  cp "$mo" "$dest/locale/$lang/LC_MESSAGES/$catalogue"
done
echo "installed $dest/$module (catalogues in $dest/locale)"

system=$(pkg-config --variable=pluginsdir gegl-0.4 2>/dev/null || true)
if [ -z "$flatpak" ] && [ -n "$system" ] && [ -f "$system/$module" ]; then
  echo "warning: $system/$module is installed system-wide as well; GEGL and" >&2
  echo "GIMP will report 'Two different plugins tried to register'. Remove one:" >&2
  echo "  sudo ninja -C build uninstall    or    sh $0 --uninstall" >&2
fi
