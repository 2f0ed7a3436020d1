#!/bin/sh
# GIMP 3 applies cblur:variable-blur as a user's OK does, in batch mode:
# the module installed by scripts/install-user.sh into a fresh HOME,
# tests/data/coffee.png in 8 bits, a smooth mask chosen as its aux input
# once as a channel and once as a second layer (apply-variable-blur.py),
# CBLUR_BACKEND=BACKEND.  Each result must match the op's outside GIMP on
# the same pixels and mask (check-gimp-variable, which finds the op
# through GEGL_PATH), and CBLUR_LOG must show that every band ran on
# BACKEND, the variable blur's, at radius 10.  The dialog labels the
# mask's chooser from the op's aux pad as GIMP's own Variable Blur's, not
# with the composer's "Aux", and its tooltip says it is the mask.  GIMP
# keeps the Gaussian blur and the blurs with arithmetic as layer effects,
# and neither variable blur, as the README says.
#   check-gimp3-variable.sh BUILD_DIR CHECK_VARIABLE cpu|gl
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$1
check=$2
backend=$3
radius=10
. "$here/ran-on.sh"
. "$here/gimp-batch.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gimp_batch "$root" "$build" "$tmp" "$here/apply-variable-blur.py" \
  CBLUR_BACKEND="$backend" CBLUR_IMAGE="$root/tests/data/coffee.png" CBLUR_RADIUS=$radius

label=$(sed -n 1p "$tmp/out/mask-pad")
tooltip=$(sed -n 2p "$tmp/out/mask-pad")
gimp_label=$(sed -n 3p "$tmp/out/mask-pad")
case $tooltip in "The mask: "*) ;; *) tooltip_is_mask=no ;; esac
if [ "$label" != "$gimp_label" ] || [ "${tooltip_is_mask:-yes}" = no ]; then
  echo "GIMP labels the mask \"$label\" (its own Variable Blur's \"$gimp_label\")," \
       "its tooltip \"$tooltip\"" >&2
  exit 1
fi
# GIMP 3.0 keeps the other ops as layer effects, and neither variable blur
expected='cblur:gaussian-blur 1
cblur:unsharp-mask 1
cblur:high-pass 1
cblur:difference-of-gaussians 1
cblur:variable-blur 0
gegl:variable-blur 0'
if [ "$(cat "$tmp/out/layer-effects")" != "$expected" ]; then
  echo "layer effects GIMP keeps:" >&2
  cat "$tmp/out/layer-effects" >&2
  exit 1
fi
ran_on "$tmp/log" "$backend"
if grep -v "^cblur: backend=$backend mode=variable radius=$radius " "$tmp/log" >&2; then
  echo "^ not all bands blurred by the variable blur at radius $radius" >&2
  exit 1
fi
# shellcheck disable=SC2046 # WIDTH HEIGHT
CBLUR_BACKEND="$backend" "$check" "$tmp/out" $(cat "$tmp/out/size") $radius channel layer
