#!/bin/sh
# The gegl command line ends silently after the op, on the backend named:
# no GEGL warning, no leaked buffer (GEGL reports those on stdout), both
# for a plain run and for the README's demo, scripts/blur-photo.sh.  The
# runs' CBLUR_LOG shows that the op ran there.
#   check-quiet-exit.sh cpu|gl BUILD_DIR
set -eu
backend=$1
build=$2
root=$(cd "$(dirname "$0")/.." && pwd)
photo=$root/tests/data/coffee.png
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CBLUR_BACKEND="$backend" CBLUR_LOG="$tmp/log"
unset G_MESSAGES_DEBUG

quiet ()   # WHAT COMMAND...: its stdout and stderr are empty
{
  what=$1
  shift
  "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  if [ -s "$tmp/stdout" ] || [ -s "$tmp/stderr" ]; then
    echo "$what printed:" >&2
    cat "$tmp/stdout" "$tmp/stderr" >&2
    exit 1
  fi
  echo "$what: nothing printed"
}

ran_on_backend ()
{
  grep -q "^cblur: backend=$backend " "$tmp/log" ||
    { echo "not blurred on $backend:" >&2; cat "$tmp/log" >&2; exit 1; }
  rm "$tmp/log"
}

# a region's blur (direct, reach 20) and, on the CPU too, a whole image's
# (box, reach 60), which GEGL's cache would hold
quiet "gegl -- radius=20" gegl "$photo" -o "$tmp/out.png" -- cblur:gaussian-blur radius=20
ran_on_backend
quiet "gegl -- radius=60 mode=box" \
  gegl "$photo" -o "$tmp/out.png" -- cblur:gaussian-blur radius=60 mode=box
ran_on_backend

# the demo prints the op's debug lines and where it wrote, nothing else
CBLUR_BUILD=$build sh "$root/scripts/blur-photo.sh" "$photo" "$tmp/demo.png" >"$tmp/demo" 2>&1
cat "$tmp/demo"
if grep -v -e '^(gegl:[0-9]*): cblur-DEBUG: .*: backend=' -e '^wrote ' "$tmp/demo" | grep -q .; then
  echo "the demo printed more than its blur's lines" >&2
  exit 1
fi
ran_on_backend
