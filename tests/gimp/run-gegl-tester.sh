#!/bin/sh
# GEGL's own gegl-tester, built from GEGL's source, run on the op the way
# GEGL's tests/operations runs it (GEGL_SWAP=RAM, BABL_TOLERANCE=0.0,
# --all, GEGL's docs/images as data), with CBLUR_BACKEND=BACKEND.  It
# renders each op's reference-composition and compares the result with
# its reference-hash.  It always exits 0, so its TAP lines decide: two
# tests, "ok", for cblur:gaussian-blur and cblur:variable-blur (whose GL
# result may match its second hash, "ref b"); and
# CBLUR_LOG must show every band ran on BACKEND.
#   run-gegl-tester.sh GEGL_TESTER GEGL_SOURCE cpu|gl
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ran-on.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

GEGL_SWAP=RAM BABL_TOLERANCE=0.0 CBLUR_BACKEND="$3" CBLUR_LOG="$tmp/log" \
  "$1" --data-directory "$2/docs/images" --output-directory "$tmp" \
       --all --pattern '^cblur:(gaussian|variable)-blur$' >"$tmp/tap"
cat "$tmp/tap"
ran_on "$tmp/log" "$3"
grep -q '^ok  *[12] - cblur:gaussian-blur$' "$tmp/tap"
grep -q '^ok  *[12] - cblur:variable-blur\( (ref b)\)\?$' "$tmp/tap"
[ "$(grep -c '^ok\|^not ok' "$tmp/tap")" = 2 ]
grep -qx '1\.\.2' "$tmp/tap"
