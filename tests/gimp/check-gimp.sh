#!/bin/bash
# Manual check (not part of the test suite): GIMP 2.10 finds the plug-in in
# the per-user GEGL plug-in folder, lists cblur:gaussian-blur in
# Tools ▸ GEGL Operation…, builds its dialog, and applies it to an image with
# the same result as the `gegl` command line.
#
#   tests/gimp/check-gimp.sh [BUILD_DIR]          (default: build)
#
# Environment:
#   SCREENSHOT=file.png  also keep a picture of the dialog there
#   RADIUS=20            the radius typed into the dialog
#   REAL_HOME=1          install into the real ~/.local/share/gegl-0.4/plug-ins
#                        instead of one under a temporary XDG_DATA_HOME
#   KEEP=1               keep the work folder (screenshots, logs, images)
#   CBLUR_BACKEND=cpu    passed on to GIMP and gegl; without a GPU, auto may
#                        pick Mesa's llvmpipe, which takes minutes here
#
# Needs (Debian 12): gimp xvfb xdotool imagemagick tesseract-ocr
# tesseract-ocr-eng gegl.  GIMP 2.10 has no batch-mode way to run an
# arbitrary GEGL operation (script-fu can't, python-fu is Python 2), so this
# drives the GUI under Xvfb with xdotool and finds menu entries and buttons
# by reading the screen with tesseract.  GIMP 2.10 ignores the op's
# gimp:menu-path key (GIMP 3 reads it), so Tools ▸ GEGL Operation… is the
# way in.  The result is saved through GIMP's own batch interpreter
# (script-fu on stdin) and compared with `gegl ... -- cblur:gaussian-blur`.
# Exits non-zero on failure.

set -euo pipefail

cd "$(dirname "$0")/../.."
src=$PWD
build=${1:-build}
radius=${RADIUS:-20}
case $build in
  /*) module="$build/operations/cblur-gaussian-blur.so" ;;
  *)  module="$src/$build/operations/cblur-gaussian-blur.so" ;;
esac

for tool in gimp-2.10 Xvfb xdotool import convert compare tesseract gegl; do
  command -v "$tool" > /dev/null || { echo "missing: $tool" >&2; exit 2; }
done
[ -f "$module" ] || { echo "build first: $module not found" >&2; exit 2; }

work=$(mktemp -d /tmp/cblur-gimp.XXXXXX)
pids=()
cleanup ()
{
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done
  sleep 1
  for p in "${pids[@]}"; do kill -9 "$p" 2> /dev/null || true; done
  if [ -n "${KEEP:-}" ]; then echo "work folder kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

fail ()
{
  echo "FAIL: $*" >&2
  import -display "$DISPLAY" -window root "$work/failure.png" 2> /dev/null || true
  KEEP=1
  exit 1
}

# --- the plug-in where a user puts it -------------------------------------
if [ -z "${REAL_HOME:-}" ]; then
  export XDG_DATA_HOME="$work/data"
fi
plugins="${XDG_DATA_HOME:-$HOME/.local/share}/gegl-0.4/plug-ins"
mkdir -p "$plugins"
cp "$module" "$plugins/"
echo "installed $plugins/$(basename "$module")"
unset GEGL_PATH                          # GIMP must find it on its own
export GIMP2_DIRECTORY="$work/profile"   # fresh GIMP profile

# --- a test image and the reference result --------------------------------
convert -size 256x256 xc:black -fill white -draw "rectangle 64,64 191,191" \
        -type TrueColor "PNG24:$work/in.png"
# (8-bit R'G'B' like GIMP's image; gegl would write float as 16-bit linear)
gegl "$work/in.png" -o "$work/ref.png" -- \
  cblur:gaussian-blur "radius=$radius" convert-format "format=R'G'B' u8"

# --- X server and GIMP ------------------------------------------------------
display=99
while [ -e "/tmp/.X11-unix/X$display" ]; do display=$((display + 1)); done
export DISPLAY=":$display"
Xvfb "$DISPLAY" -screen 0 1600x1000x24 -nolisten tcp > "$work/xvfb.log" 2>&1 &
pids+=($!)
sleep 2

# script-fu reads batch commands from this pipe for as long as it is open
mkfifo "$work/batch"
sleep 100000 > "$work/batch" &
pids+=($!)
G_MESSAGES_DEBUG=cblur gimp-2.10 --no-splash -b - "$work/in.png" < "$work/batch" > "$work/gimp.log" 2>&1 &
pids+=($!)

wait_window ()   # NAME-REGEX SECONDS -> window id
{
  local i
  for ((i = 0; i < $2 * 2; i++)); do
    if id=$(xdotool search --onlyvisible --name "$1" 2> /dev/null | head -n1) &&
       [ -n "$id" ]; then
      echo "$id"; return 0
    fi
    sleep 0.5
  done
  return 1
}

# The area "W H X Y" of window WIN, EXTRA pixels taller (for popups that
# open over and below it).
area_of ()       # WIN [EXTRA]
{
  local X Y WIDTH HEIGHT WINDOW SCREEN
  eval "$(xdotool getwindowgeometry --shell "$1")"
  echo "$WIDTH $((HEIGHT + ${2:-0})) $X $Y"
}

# Prints "X Y" of the centre of the first word matching REGEX in AREA of
# the screen, read by tesseract from negated, 2x grey bands of it (bands,
# because large empty parts put tesseract's page layout off).
find_text ()     # REGEX AREA
{
  local w h x y band xy
  read -r w h x y <<< "$2"
  import -window root "$work/screen.png"
  for ((band = y; band < y + h; band += 200)); do
    convert "$work/screen.png" -crop "${w}x$((h + y - band < 260 ? h + y - band : 260))+${x}+${band}" \
            +repage -colorspace gray -negate -resize 200% "$work/ocr.png"
    xy=$(tesseract "$work/ocr.png" - --psm 11 tsv 2> /dev/null |
      awk -F'\t' -v re="$1" -v ox="$x" -v oy="$band" '
        NR > 1 && $12 ~ re {
          printf "%d %d\n", ox + ($7 + $9 / 2) / 2, oy + ($8 + $10 / 2) / 2; exit
        }')
    if [ -n "$xy" ]; then echo "$xy"; return 0; fi
  done
}

# The words tesseract reads in window WIN.
read_window ()   # WIN
{
  import -window "$1" "$work/window.png"
  convert "$work/window.png" -colorspace gray -negate -resize 200% "$work/ocr.png"
  tesseract "$work/ocr.png" - --psm 11 2> /dev/null
}

click_text ()    # REGEX AREA [DY]: click DY pixels below the word
{
  local xy i
  for ((i = 0; i < 10; i++)); do
    xy=$(find_text "$1" "$2")
    if [ -n "$xy" ]; then
      xdotool mousemove "${xy% *}" $((${xy#* } + ${3:-0})) click 1
      return 0
    fi
    sleep 1
  done
  return 1
}

image=$(wait_window ' – GIMP$' 120) || fail "GIMP did not open the image"
echo "GIMP is up (window $image)"
sleep 5

# --- Tools ▸ GEGL Operation… -----------------------------------------------
xdotool windowfocus --sync "$image"
xdotool key alt+t
sleep 1
# the Tools menu opens below its title, in the left half of the window
read -r w h x y <<< "$(area_of "$image")"
click_text '^Operation' "$((w / 2)) $((h / 2)) $x $y" ||
  fail "no Tools ▸ GEGL Operation… entry"
dialog=$(wait_window '^GEGL Operation$' 20) || fail "no GEGL Operation dialog"
xdotool windowmove --sync "$dialog" 1170 40
sleep 1

# the operation combo, empty above the line "Select an operation from the
# list above": open it and pick our op by its name
click_text '^Select$' "$(area_of "$dialog")" -33 || fail "no operation combo"
sleep 1
click_text 'cblur:gaussian-blur' "$(area_of "$dialog" 700)" ||
  fail "cblur:gaussian-blur is not in the GEGL Operation list"
xdotool mousemove 5 995              # no tooltip over the dialog
sleep 3

# the generated property widgets
for ((i = 0; i < 5; i++)); do   # let the closed popup's area repaint
  labels=$(read_window "$dialog")
  missing=
  for want in 'cblur:gaussian-blur' Radius Mode 'Box passes' 'Abyss policy' Clip; do
    grep -q -- "$want" <<< "$labels" || missing="$missing '$want'"
  done
  [ -z "$missing" ] && break
  sleep 2
done
[ -z "$missing" ] || fail "the dialog lacks$missing"
echo "dialog shows the op and its properties"

# type the radius into the Radius spin scale: a click on its digits edits
# them (tried a few times: a busy GIMP can drop the first click)
for ((i = 0; i < 4; i++)); do
  if grep -qE "(^| )$radius\.00?( |$)" <<< "$(read_window "$dialog")"; then
    break
  fi
  xdotool windowfocus --sync "$dialog"
  click_text '^[0-9]+\.00?$' "$(area_of "$dialog")" || fail "no Radius value"
  sleep 1
  xdotool key ctrl+a
  xdotool type --delay 100 "$radius"
  xdotool key Tab
  xdotool mousemove 5 995
  sleep 4
done
grep -qE "(^| )$radius\.00?( |$)" <<< "$(read_window "$dialog")" ||
  fail "the Radius is not $radius"
cp "$work/window.png" "$work/dialog.png"
import -window root "$work/preview.png"
if [ -n "${SCREENSHOT:-}" ]; then
  convert "$work/dialog.png" -strip "PNG8:$SCREENSHOT"
  echo "dialog screenshot: $SCREENSHOT"
fi

click_text '^OK$' "$(area_of "$dialog")" || fail "no OK button"
for ((i = 0; i < 60; i++)); do
  xdotool search --onlyvisible --name '^GEGL Operation$' > /dev/null 2>&1 || break
  sleep 0.5
done
sleep 2

# --- save GIMP's result through its batch interpreter ----------------------
cat > "$work/batch" <<EOF
(let* ((image (vector-ref (cadr (gimp-image-list)) 0))
       (drawable (car (gimp-image-get-active-drawable image))))
  (file-png-save-defaults RUN-NONINTERACTIVE image drawable
                          "$work/out.png" "$work/out.png"))
EOF
for ((i = 0; i < 60; i++)); do [ -s "$work/out.png" ] && break; sleep 0.5; done
[ -s "$work/out.png" ] || fail "GIMP did not save the result"
sleep 1
echo '(gimp-quit 1)' > "$work/batch"

changed=$(compare -metric AE "$work/in.png" "$work/out.png" null: 2>&1 || true)
differ=$(compare -metric AE -fuzz 1% "$work/ref.png" "$work/out.png" null: 2>&1 || true)
echo "pixels changed by the blur in GIMP: $changed; differing from gegl's result by more than 1%: $differ"
[ "${changed%% *}" -gt 5000 ] 2> /dev/null || fail "GIMP's result is not blurred"
[ "${differ%% *}" = 0 ] || fail "GIMP's result differs from the gegl command line"
echo "PASS: GIMP 2.10 applied cblur:gaussian-blur radius=$radius"
