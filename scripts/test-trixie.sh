#!/bin/sh
# Inside the Debian 13 chroot (scripts/test.sh runs it there through
# chroot-run.sh): builds build-trixie against Debian 13's GEGL and GLib
# and runs every suite there, GIMP 3 and GEGL's gegl-tester included.
set -eu
build=build-trixie
gegl_source=$(ls -d /var/cache/cblur/gegl-*/ | head -n 1)
gegl_source=${gegl_source%/}

if [ -f "$build/build.ninja" ]; then
  meson configure "$build" -Dgegl_source="$gegl_source"
else
  meson setup "$build" -Dgegl_source="$gegl_source" >/dev/null
fi
ninja -C "$build"
meson test -C "$build" --print-errorlogs --num-processes 2
