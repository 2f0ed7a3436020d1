#!/bin/sh
# GEGL's own gegl-tester, built from GEGL's source, run on the op the way
# GEGL's tests/operations runs it (GEGL_SWAP=RAM, BABL_TOLERANCE=0.0,
# --all, GEGL's docs/images as data), with CBLUR_BACKEND=BACKEND.  It
# renders the op's reference-composition and compares the result with its
# reference-hash.  It always exits 0, so its TAP lines decide: one test,
# "ok", for cblur:gaussian-blur; and CBLUR_LOG must show every band ran on
# BACKEND.
#   run-gegl-tester.sh GEGL_TESTER GEGL_SOURCE cpu|gl
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ran-on.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

GEGL_SWAP=RAM BABL_TOLERANCE=0.0 CBLUR_BACKEND="$3" CBLUR_LOG="$tmp/log" \
  "$1" --data-directory "$2/docs/images" --output-directory "$tmp" \
       --all --pattern '^cblur:gaussian-blur$' >"$tmp/tap"
cat "$tmp/tap"
ran_on "$tmp/log" "$3"
grep -q '^ok  *1 - cblur:gaussian-blur$' "$tmp/tap"
[ "$(grep -c '^ok\|^not ok' "$tmp/tap")" = 1 ]
grep -qx '1\.\.1' "$tmp/tap"
