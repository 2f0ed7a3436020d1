#!/bin/sh
# The whole test suite from nothing: installs what it needs, builds, and
# runs every test, the GL ones on whatever GL the machine has (Mesa's
# llvmpipe without a GPU); then the CPU and GL suites once more under
# AddressSanitizer and UndefinedBehaviorSanitizer; the CPU suites against
# a build without GL (-Dgl=disabled); then, in a Debian 13
# chroot (made on first use, kept at $CBLUR_CHROOT, default /srv/trixie),
# every suite against Debian 13's GEGL and GLib, with the real clients:
# GIMP 3 applying the op, and GEGL's gegl-tester.  Ends with
# "N passed, N failed" over all of them.  As root or with sudo.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
asan=$root/build-asan
nogl=$root/build-nogl

sh "$root/scripts/setup-debian.sh"
[ -f "$build/build.ninja" ] || meson setup "$build" "$root" >/dev/null
[ -f "$asan/build.ninja" ] ||
  meson setup "$asan" "$root" -Dbuildtype=debugoptimized \
    -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
[ -f "$nogl/build.ninja" ] || meson setup "$nogl" "$root" -Dgl=disabled >/dev/null
ninja -C "$build"
ninja -C "$asan"
ninja -C "$nogl"

status=0
meson test -C "$build" --print-errorlogs --num-processes 2 || status=$?

# GEGL's modules keep what they allocate at start-up until exit, so leaks are
# checked by the tests themselves (resident memory over 1000 blurs).
ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=1:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C "$asan" --suite cpu --suite gl --print-errorlogs \
    --num-processes 2 --timeout-multiplier 4 || status=$?

meson test -C "$nogl" --suite cpu --print-errorlogs --num-processes 2 || status=$?

# As the caller, inside: what it builds in the tree stays the caller's.
chroot=${CBLUR_CHROOT:-/srv/trixie}
trixie_log=$root/build-trixie/meson-logs/testlog.json
rm -f "$trixie_log"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo sh "$root/scripts/make-chroot.sh" "$chroot" &&
  $sudo env CBLUR_CHROOT_USER="$(id -u):$(id -g)" \
    sh "$root/scripts/chroot-run.sh" "$chroot" sh scripts/test-trixie.sh || status=$?

# a suite whose log is missing (its build failed) counts as one failure
python3 - "$build/meson-logs/testlog.json" "$asan/meson-logs/testlog.json" \
  "$nogl/meson-logs/testlog.json" "$trixie_log" <<'PY'
import json, os, sys
results = []
for path in sys.argv[1:]:
    if not os.path.exists(path):
        print(f"no results: {path}")
        results.append("MISSING")
        continue
    results += [json.loads(line)["result"] for line in open(path) if line.strip()]
passed = sum(r == "OK" for r in results)
print(f"{passed} passed, {len(results) - passed} failed")
PY
exit $status
