#!/bin/sh
# scripts/install-user.sh where apt-get and dpkg are not on PATH and
# everything building needs is there: it builds in a fresh folder and
# installs into a temporary HOME, where GEGL finds the op.  Then, with
# pkg-config made to miss GEGL, or libepoxy: it names what is missing
# and the packages that have it, and runs apt-get (a stand-in here) only
# when --install-deps asks it to.
#   check-install-deps.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/home" "$tmp/no-pc" "$tmp/no-epoxy"

# every command of the system's but its package tools
for dir in /usr/local/bin /usr/bin /bin; do
  for cmd in "$dir"/*; do
    name=${cmd##*/}
    case $name in
      apt|apt-*|dpkg|dpkg-*|sudo) continue ;;
    esac
    [ -x "$cmd" ] && [ ! -e "$tmp/bin/$name" ] && ln -s "$cmd" "$tmp/bin/$name"
  done
done
for dir in $(pkg-config --variable pc_path pkg-config | tr : ' '); do
  for pc in "$dir"/*.pc; do
    [ -f "$pc" ] && [ "${pc##*/}" != epoxy.pc ] && ln -sf "$pc" "$tmp/no-epoxy/"
  done
done

clean ()   # COMMAND...: run with only the environment a user's shell has
{
  env -i HOME="$tmp/home" PATH="$tmp/bin" LANG=C.UTF-8 "$@"
}

expect ()   # REGEX: a line of the last run's output matches
{
  grep -q -- "$1" "$tmp/out" || { echo "no line matching '$1'" >&2; exit 1; }
}

# the build: a fresh meson folder, nothing but what is there
clean sh "$root/scripts/install-user.sh" --build "$tmp/build"
plugins=$tmp/home/.local/share/gegl-0.4/plug-ins
[ -f "$plugins/cblur-gaussian-blur.so" ]
[ -f "$plugins/locale/de/LC_MESSAGES/gegl-compute-blur.mo" ]
clean CBLUR_BACKEND=gl gegl --info cblur:gaussian-blur | grep -q '^title  *Gaussian Blur (GPU)$'
echo "built and installed without apt-get or dpkg on PATH"

# GEGL and GLib missing: named, with their packages, and nothing installed
status=0
clean PKG_CONFIG_LIBDIR="$tmp/no-pc" sh "$root/scripts/install-user.sh" --check \
  >"$tmp/out" 2>&1 || status=$?
cat "$tmp/out"
[ "$status" = 1 ]
expect '^missing for building: GEGL 0.4.34 or newer, GLib 2.64 or newer$'
expect '^  sudo apt-get install libgegl-dev libglib2.0-dev$'

# a stand-in apt-get and sudo, which only say that they ran
cat > "$tmp/bin/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >> "$tmp/apt-get.log"
EOF
printf '#!/bin/sh\nexec "$@"\n' > "$tmp/bin/sudo"
chmod +x "$tmp/bin/apt-get" "$tmp/bin/sudo"

status=0
clean PKG_CONFIG_LIBDIR="$tmp/no-pc" sh "$root/scripts/install-user.sh" --check \
  >"$tmp/out" 2>&1 || status=$?
[ "$status" = 1 ] && [ ! -e "$tmp/apt-get.log" ]
echo "apt-get not run unless asked"

clean PKG_CONFIG_LIBDIR="$tmp/no-pc" sh "$root/scripts/install-user.sh" --check \
  --install-deps >"$tmp/out" 2>&1 || true
cat "$tmp/apt-get.log"
grep -q '^apt-get install .* libgegl-dev libglib2.0-dev libepoxy-dev$' \
  "$tmp/apt-get.log"

# libepoxy missing: the build goes on without GL, and says how to get it
clean PKG_CONFIG_LIBDIR="$tmp/no-epoxy" sh "$root/scripts/install-user.sh" --check \
  >"$tmp/out" 2>&1
cat "$tmp/out"
expect '^without libepoxy and EGL the op blurs on the CPU only; for the GPU:$'
expect '^  sudo apt-get install libepoxy-dev$'
