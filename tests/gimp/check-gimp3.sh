#!/bin/sh
# GIMP 3 applies cblur:gaussian-blur as a user's OK does, in batch mode:
# the module installed by scripts/install-user.sh into a fresh HOME (GEGL
# finds it there on its own), tests/data/coffee.png at PRECISION (u8 or
# float), Gimp.DrawableFilter + merge_filter, CBLUR_BACKEND=BACKEND.  At
# float the filter gets two sizes, radius-x 12 and radius-y 4, as GIMP's
# chained pair sets them unchained; at u8 radius 12 alone, as a script
# that knows only radius does.  The result must match the
# double-precision reference with those radii (check-gimp-result), and
# CBLUR_LOG must show that every band ran on BACKEND with them.
#   check-gimp3.sh BUILD_DIR CHECK_RESULT u8|float cpu|gl
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$1
check=$2
precision=$3
backend=$4
if [ "$precision" = float ]; then
  radius_x=12 radius_y=4 logged="mode=direct,direct radius=12,4"
else
  radius_x= radius_y= logged="mode=direct radius=12"
fi
. "$here/ran-on.sh"
. "$here/gimp-batch.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gimp_batch "$root" "$build" "$tmp" "$here/apply-filter.py" \
  CBLUR_BACKEND="$backend" CBLUR_IMAGE="$root/tests/data/coffee.png" \
  CBLUR_PRECISION="$precision" \
  CBLUR_RADIUS=12 CBLUR_RADIUS_X=$radius_x CBLUR_RADIUS_Y=$radius_y

ran_on "$tmp/log" "$backend"
if grep -v "^cblur: backend=$backend $logged " "$tmp/log" >&2; then
  echo "^ not all bands blurred with $logged" >&2
  exit 1
fi
# shellcheck disable=SC2046 # WIDTH HEIGHT
"$check" "$tmp/out/input.raw" "$tmp/out/output.raw" $(cat "$tmp/out/size") \
  "$precision" "${radius_x:-12}" "${radius_y:-12}"
