#!/bin/sh
# Runs a command inside the chroot DIR, in this source tree, which is
# bind-mounted there (on /usr/src/cblur) for the run.  Everything is
# mounted in a mount namespace of the run's own, so the mounts (/proc,
# /sys, /dev and the tree) go away when it ends, however it ends, and
# other users of DIR keep theirs.  As root (or through sudo); the command
# runs as CBLUR_CHROOT_USER (uid:gid, default root).
#   scripts/chroot-run.sh DIR COMMAND [ARG...]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(cd "$1" && pwd)
shift

# Every run mounts its tree on the same path, in its own namespace, so
# that build folders made there stay valid from run to run.
src=/usr/src/cblur
if [ -z "${CBLUR_IN_NAMESPACE:-}" ]; then
  mkdir -p "$dir$src"
  CBLUR_IN_NAMESPACE=1 exec unshare --mount --propagation private sh "$0" "$dir" "$@"
fi

mounted=
cleanup ()
{
  for m in $mounted; do umount "$m" || umount -l "$m"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# those mounted already were copied into this namespace with the rest
for m in proc sys dev dev/pts; do
  mountpoint -q "$dir/$m" && continue
  case $m in
    proc) mount -t proc proc "$dir/proc" ;;
    sys)  mount -t sysfs sys "$dir/sys" ;;
    *)    mount --bind "/$m" "$dir/$m" ;;
  esac
  mounted="$dir/$m $mounted"
done
mount --bind "$root" "$dir$src"
mounted="$dir$src $mounted"

user=${CBLUR_CHROOT_USER:-0:0}
home=/tmp
[ "${user%%:*}" = 0 ] && home=/root
# the command runs in a clean environment, with what the chroot's tools need
chroot --userspec="$user" "$dir" /usr/bin/env -i \
  HOME="$home" PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin \
  LANG=C.UTF-8 TERM="${TERM:-dumb}" \
  sh -c 'cd "$1" && shift && exec "$@"' sh "$src" "$@"
