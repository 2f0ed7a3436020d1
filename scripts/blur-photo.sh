#!/bin/sh
# The main job: build the plug-in and blur a real photograph with the gegl
# command line, on the GPU where there is one.
#   scripts/blur-photo.sh [input.jpg|png] [output.png] [radius] [mode]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
in=${1:-$root/tests/data/coffee.png}
out=${2:-$root/coffee-blurred.png}
radius=${3:-20}
mode=${4:-auto}

sh "$root/scripts/setup-debian.sh"
[ -f "$root/build/build.ninja" ] || meson setup "$root/build" "$root" >/dev/null
ninja -C "$root/build" >/dev/null

GEGL_PATH="$root/build/operations:$(pkg-config --variable=pluginsdir gegl-0.4)" \
CBLUR_LOCALEDIR="$root/build/po" G_MESSAGES_DEBUG="${G_MESSAGES_DEBUG:-cblur}" \
  gegl "$in" -o "$out" -- cblur:gaussian-blur radius="$radius" mode="$mode"
echo "wrote $out"
