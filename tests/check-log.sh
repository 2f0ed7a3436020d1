#!/bin/sh
# CBLUR_LOG writes the per-band line past GLib's log handlers: appended to
# a file, or to stderr, with why GL was not used where it was not; and
# G_MESSAGES_DEBUG=cblur still shows it through GLib; a log that cannot
# be written never holds the host (tests/test-log.c has the other cases).
set -eu
photo=$(cd "$(dirname "$0")" && pwd)/data/coffee.png
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

blur ()
{
  timeout 120 env -u G_MESSAGES_DEBUG "$@" gegl "$photo" -o "$tmp/out.png" -- \
    cblur:gaussian-blur radius=5 >"$tmp/stdout" 2>"$tmp/stderr"
}

expect ()   # FILE REGEX
{
  grep -q "$2" "$1" || { echo "no line matching $2 in:" >&2; cat "$1" >&2; exit 1; }
}

blur CBLUR_BACKEND=cpu CBLUR_LOG="$tmp/log"
blur CBLUR_BACKEND=cpu CBLUR_LOG="$tmp/log"
cat "$tmp/log"
[ "$(grep -c '^cblur: backend=cpu mode=direct radius=5 band=600x400+0+0 .*total=.* fallback="CBLUR_BACKEND=cpu"$' "$tmp/log")" = 2 ]

blur CBLUR_BACKEND=gl CBLUR_GL_FAULT=context CBLUR_LOG=stderr
expect "$tmp/stderr" '^cblur: backend=cpu .* fallback="no OpenGL 4.3 context (CBLUR_GL_FAULT=context)"$'

# under auto, on a machine without a GPU's device node, that is the reason
if ! ls /dev/nvidiactl /dev/dri/renderD* >/dev/null 2>&1; then
  blur CBLUR_BACKEND=auto CBLUR_LOG=stderr XDG_CACHE_HOME="$tmp/cache"
  expect "$tmp/stderr" '^cblur: backend=cpu .* fallback="this machine shows no GPU (no /dev/nvidiactl or /dev/dri/renderD\*)"$'
fi

blur CBLUR_BACKEND=gl CBLUR_LOG=stderr
expect "$tmp/stderr" '^cblur: backend=gl mode=direct .* renderer=.* total=[0-9.]*ms$'

# GLib writes debug messages to stdout
blur CBLUR_BACKEND=cpu G_MESSAGES_DEBUG=cblur
expect "$tmp/stdout" 'cblur-DEBUG.*: backend=cpu .* fallback="CBLUR_BACKEND=cpu"$'
! grep -q '^cblur: ' "$tmp/stdout" "$tmp/stderr"

# "STDERR" is stderr, not a file in the current folder
(cd "$tmp" && blur CBLUR_BACKEND=cpu CBLUR_LOG=STDERR)
expect "$tmp/stderr" '^cblur: backend=cpu '
[ ! -e "$tmp/STDERR" ]

# a FIFO that no one reads is not opened, and the blur goes on
mkfifo "$tmp/fifo"
rm -f "$tmp/out.png"
blur CBLUR_BACKEND=cpu CBLUR_LOG="$tmp/fifo"
expect "$tmp/stderr" "CBLUR_LOG=$tmp/fifo cannot be opened"
[ -s "$tmp/out.png" ]
