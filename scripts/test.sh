#!/bin/sh
# The whole test suite from nothing: installs what it needs, builds, and
# runs every test, the GL ones on whatever GL the machine has (Mesa's
# llvmpipe without a GPU); then the CPU and GL suites once more under
# AddressSanitizer and UndefinedBehaviorSanitizer.  Ends with
# "N passed, N failed".
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
asan=$root/build-asan

sh "$root/scripts/setup-debian.sh"
[ -f "$build/build.ninja" ] || meson setup "$build" "$root" >/dev/null
[ -f "$asan/build.ninja" ] ||
  meson setup "$asan" "$root" -Dbuildtype=debugoptimized \
    -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
ninja -C "$build"
ninja -C "$asan"

status=0
meson test -C "$build" --print-errorlogs --num-processes 2 || status=$?

# GEGL's modules keep what they allocate at start-up until exit, so leaks are
# checked by the tests themselves (resident memory over 1000 blurs).
ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=1:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C "$asan" --suite cpu --suite gl --print-errorlogs \
    --num-processes 2 --timeout-multiplier 4 || status=$?

python3 - "$build/meson-logs/testlog.json" "$asan/meson-logs/testlog.json" <<'PY'
import json, sys
results = [json.loads(line)["result"]
           for path in sys.argv[1:] for line in open(path) if line.strip()]
passed = sum(r == "OK" for r in results)
print(f"{passed} passed, {len(results) - passed} failed")
PY
exit $status
