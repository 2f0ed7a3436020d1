#!/bin/sh
# `LANGUAGE=de gegl --info cblur:gaussian-blur` speaks German, from the
# catalogue built in po/.
set -eu
info=$(LANGUAGE=de gegl --info cblur:gaussian-blur)
echo "$info" | head -3
echo "$info" | grep -q "Gaußscher Weichzeichner (GPU)"
echo "$info" | grep -q "Halbe Breite der Weichzeichnung in Pixeln"
