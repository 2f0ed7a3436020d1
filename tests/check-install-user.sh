#!/bin/sh
# scripts/install-user.sh into a temporary HOME: GEGL finds the module there
# on its own, and under LANG=de_DE.UTF-8 its title is German, from the
# catalogue installed beside it; with that catalogue gone it is English;
# --uninstall leaves no folder of its own.
#   check-install-user.sh BUILD_DIR
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/german-locale.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
german_locale "$tmp"
mkdir "$tmp/home"

as_user ()
{
  env -u GEGL_PATH -u CBLUR_LOCALEDIR -u XDG_DATA_HOME -u LANGUAGE -u LC_ALL \
      -u LC_MESSAGES HOME="$tmp/home" LANG=de_DE.UTF-8 "$@"
}

as_user sh "$root/scripts/install-user.sh" --build "$1"
plugins=$tmp/home/.local/share/gegl-0.4/plug-ins
ls -R "$plugins"

title ()
{
  as_user env CBLUR_BACKEND=gl gegl --info cblur:gaussian-blur | sed -n 's/^title  *//p'
}

title=$(title)
echo "installed, German locale: $title"
[ "$title" = "Gaußscher Weichzeichner (GPU)" ]

rm -r "$plugins/locale"
title=$(title)
echo "without the catalogue:    $title"
[ "$title" = "Gaussian Blur (GPU)" ]

# --uninstall takes the module, its catalogues and the folders left empty,
# and leaves another plug-in's catalogue where it is
as_user sh "$root/scripts/install-user.sh" --build "$1"
mkdir -p "$plugins/locale/fr/LC_MESSAGES"
touch "$plugins/locale/fr/LC_MESSAGES/other.mo"
as_user sh "$root/scripts/install-user.sh" --uninstall
find "$plugins"
[ ! -e "$plugins/cblur-gaussian-blur.so" ]
[ ! -e "$plugins/locale/de" ]
[ -f "$plugins/locale/fr/LC_MESSAGES/other.mo" ]
