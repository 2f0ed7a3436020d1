#!/bin/sh
# Under a German locale `gegl --info` of either op speaks German,
# from the catalogue built in po/ (CBLUR_LOCALEDIR, set by the test).
set -eu
. "$(dirname "$0")/german-locale.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
german_locale "$tmp"

info=$(env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=de_DE.UTF-8 \
         gegl --info cblur:gaussian-blur)
echo "$info" | head -3
echo "$info" | grep -q "Gaußscher Weichzeichner (GPU)"
echo "$info" | grep -q "Halbe Breite der Weichzeichnung in Pixeln"

info=$(env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=de_DE.UTF-8 \
         gegl --info cblur:variable-blur)
echo "$info" | head -3
echo "$info" | grep -q "Variabler Weichzeichner (CPU)"
echo "$info" | grep -q "wahrnehmungsgetreues"
