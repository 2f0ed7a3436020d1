#!/bin/sh
# GIMP 3 applies cblur:unsharp-mask, cblur:high-pass and
# cblur:difference-of-gaussians as a user's OK does, in batch mode (see
# check-gimp3.sh): tests/data/coffee.png in 8 bits, CBLUR_BACKEND=BACKEND.
# Each result must match the double-precision reference of GEGL's formula
# (check-gimp-combine), and CBLUR_LOG must show that every band ran on
# BACKEND.
#   check-gimp3-combine.sh BUILD_DIR CHECK_COMBINE cpu|gl
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$1
check=$2
backend=$3
. "$here/ran-on.sh"
. "$here/gimp-batch.sh"
for job in "unsharp-mask:std-dev=2 scale=1.5" "high-pass:std-dev=4 contrast=1.5" \
           "difference-of-gaussians:radius1=1.5 radius2=4"; do
  op=${job%%:*}
  properties=${job#*:}
  tmp=$(mktemp -d)
  gimp_batch "$root" "$build" "$tmp" "$here/apply-combine.py" \
    CBLUR_BACKEND="$backend" CBLUR_IMAGE="$root/tests/data/coffee.png" \
    CBLUR_OP="cblur:$op" CBLUR_PROPERTIES="$properties"
  ran_on "$tmp/log" "$backend"
  # shellcheck disable=SC2046,SC2086 # WIDTH HEIGHT, the properties' words
  "$check" "$tmp/out/input.raw" "$tmp/out/output.raw" $(cat "$tmp/out/size") "$op" \
    $properties
  rm -rf "$tmp"
done
