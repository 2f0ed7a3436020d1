#!/bin/sh
# The main job: build the plug-in and blur a real photograph with the gegl
# command line, on the GPU where there is one.
#   scripts/blur-photo.sh [input.jpg|png] [output.png] [radius] [mode]
# With CBLUR_BUILD=DIR it uses what DIR has built instead of setting up
# and building build/ (the tests do).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
in=${1:-$root/tests/data/coffee.png}
out=${2:-$root/coffee-blurred.png}
radius=${3:-20}
mode=${4:-auto}
build=${CBLUR_BUILD:-}

if [ -z "$build" ]; then
  build=$root/build
  sh "$root/scripts/setup-debian.sh"
  [ -f "$build/build.ninja" ] || meson setup "$build" "$root" >/dev/null
  ninja -C "$build" >/dev/null
fi

GEGL_PATH="$build/operations:$(pkg-config --variable=pluginsdir gegl-0.4)" \
CBLUR_LOCALEDIR="$build/po" G_MESSAGES_DEBUG="${G_MESSAGES_DEBUG:-cblur}" \
  gegl "$in" -o "$out" -- cblur:gaussian-blur radius="$radius" mode="$mode"
echo "wrote $out"
