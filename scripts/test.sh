#!/bin/sh
# The whole test suite from nothing: installs what it needs, builds, and
# runs every test, the GL ones on whatever GL the machine has (Mesa's
# llvmpipe without a GPU). Ends with "N passed, N failed".
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CBLUR_BUILD_DIR:-$root/build}

sh "$root/scripts/setup-debian.sh"
[ -f "$build/build.ninja" ] || meson setup "$build" "$root" >/dev/null
ninja -C "$build"

status=0
meson test -C "$build" --print-errorlogs --num-processes 2 || status=$?

python3 - "$build/meson-logs/testlog.json" <<'PY'
import json, sys
results = [json.loads(line)["result"] for line in open(sys.argv[1]) if line.strip()]
passed = sum(r == "OK" for r in results)
skipped = sum(r == "SKIP" for r in results)
print(f"{passed} passed, {len(results) - passed - skipped} failed, {skipped} skipped")
PY
exit $status
