#!/bin/sh
# Renders a composition with the gegl command line and compares it with the
# reference image made from the double-precision reference blur.
#   run-composition.sh COMPOSITION.xml REFERENCE.png OUTPUT.png
set -eu
gegl -i "$1" -o "$3"
gegl-imgcmp "$2" "$3"
