#!/bin/sh
# A build without GL (meson -Dgl=disabled): the module needs no GL, EGL or
# libepoxy, and CBLUR_BACKEND=gl says once that this build has no GL and
# gives the CPU's pixels, with that reason in CBLUR_LOG.
#   check-no-gl.sh MODULE
set -eu
module=$1
photo=$(dirname "$0")/data/coffee.png
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset G_MESSAGES_DEBUG

needed=$(LC_ALL=C readelf -d "$module" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "$module needs:"
echo "$needed"
if echo "$needed" | grep -Eq '^lib(epoxy|EGL|GL|GLX|OpenGL|GLESv2)\.'; then
  echo "a build without GL links a GL library" >&2
  exit 1
fi

blur ()   # BACKEND
{
  CBLUR_BACKEND=$1 CBLUR_LOG="$tmp/log-$1" gegl "$photo" -o "$tmp/$1.png" -- \
    cblur:gaussian-blur radius=20 mode=box 2>"$tmp/stderr-$1"
}

blur cpu
blur gl
cat "$tmp/stderr-gl" "$tmp/log-gl"
[ ! -s "$tmp/stderr-cpu" ]
[ "$(grep -c 'WARNING' "$tmp/stderr-gl")" = 1 ]
grep -q 'CBLUR_BACKEND=gl, but this build has no GL' "$tmp/stderr-gl"
grep -q '^cblur: backend=cpu .* fallback="this build has no GL (meson -Dgl=disabled)"$' "$tmp/log-gl"
cmp "$tmp/cpu.png" "$tmp/gl.png"
