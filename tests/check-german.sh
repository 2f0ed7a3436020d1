#!/bin/sh
# Under a German locale `gegl --info` of either op speaks German,
# from the catalogue built in po/ (CBLUR_LOCALEDIR, set by the test).
set -eu
. "$(dirname "$0")/german-locale.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
german_locale "$tmp"

# the title names the backend CBLUR_BACKEND chooses
info ()
{
  env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=de_DE.UTF-8 CBLUR_BACKEND="$1" \
    gegl --info cblur:gaussian-blur
}
info=$(info gl)
echo "$info" | head -3
# its lines wrapped where the words may be split
words=$(echo "$info" | tr -s ' \n' '  ')
echo "$words" | grep -q "Gaußscher Weichzeichner (GPU)"
echo "$words" | grep -q "Halbe Breite der Weichzeichnung in Pixeln entlang x"
echo "$words" | grep -q "Radius 30 zeichnet also weich wie GIMPs Gaußscher Weichzeichner mit Größe 10"
info cpu | grep -q "Gaußscher Weichzeichner (CPU)"

variable ()
{
  env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=de_DE.UTF-8 CBLUR_BACKEND="$1" \
    gegl --info cblur:variable-blur
}
info=$(variable gl)
echo "$info" | head -3
echo "$info" | grep -q "Variabler Weichzeichner (GPU)"
echo "$info" | grep -q "wahrnehmungsgetreues"
variable cpu | grep -q "Variabler Weichzeichner (CPU)"

# the blurs with arithmetic
combined ()
{
  env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=de_DE.UTF-8 CBLUR_BACKEND=gl \
    gegl --info "cblur:$1"
}
combined unsharp-mask | grep -q "Schärfen (Unscharf maskieren) (GPU)"
combined high-pass | grep -q "Hochpass (GPU)"
combined difference-of-gaussians | grep -q "Gaußsche Differenz (GPU)"
