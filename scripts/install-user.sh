#!/bin/sh
# Builds the plug-in and installs it for the current user only, with its
# translations in a folder "locale" beside it (where the op looks first):
#
#   sh scripts/install-user.sh            GEGL and GIMP from Debian:
#                                         ~/.local/share/gegl-0.4/plug-ins
#   sh scripts/install-user.sh --flatpak  GIMP from Flathub:
#                                         ~/.var/app/org.gimp.GIMP/data/gegl-0.4/plug-ins
#   sh scripts/install-user.sh [--flatpak] --uninstall
#
# --build DIR installs what DIR has already built instead (the tests do).
# Restart GIMP afterwards.  Install either this way or system-wide
# (`ninja -C build install`), not both: GEGL then finds the op twice.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=
flatpak=
uninstall=

while [ $# -gt 0 ]; do
  case $1 in
    --flatpak)   flatpak=1 ;;
    --uninstall) uninstall=1 ;;
    --build)     build=${2:?--build needs a folder}; shift ;;
    *) echo "usage: $0 [--flatpak] [--uninstall] [--build DIR]" >&2; exit 2 ;;
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
  echo "removed $dest/$module and its catalogues"
  exit 0
fi

if [ -z "$build" ]; then
  build=$root/build
  sh "$root/scripts/setup-debian.sh"
  [ -f "$build/build.ninja" ] || meson setup "$build" "$root" >/dev/null
  ninja -C "$build" >/dev/null
fi
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
