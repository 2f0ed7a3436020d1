#!/bin/bash
# the final module on the H100: GL tests, then a user's applies, the CLI and the drag
. .bundle-final/env.sh
S=$GEGL_PATH; D=$PWD/.dev-fin
export G_TEST_SRCDIR=$PWD/tests GEGL_SWAP=RAM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
rm -rf ~/.nv/GLCache ~/.cache/nvidia /tmp/nv-* /tmp/c-*
t () { # name env
  n=$1; shift
  ( export GEGL_PATH=$D/ops:$S XDG_CACHE_HOME=/tmp/cache-t-$(basename $n) G_DEBUG=fatal-criticals CBLUR_GL_IDLE_MS=3600000; env "$@" timeout 150 $D/$n --tap > /tmp/t-$(basename $n).log 2>&1; echo "$n rc=$? ok=$(grep -c '^ok' /tmp/t-$(basename $n).log) notok=$(grep -c '^not ok' /tmp/t-$(basename $n).log)" )
}
( for n in op robustness property format region incremental axes variable combine; do t tests/test-$n CBLUR_BACKEND=gl & done; wait ) > $OUT/tests.txt
( for n in accuracy convert faults halo tiling variable combine; do t gl/test-gl-$n CBLUR_BACKEND=gl & done; t gl/test-gl-lifecycle A=1 & t gl/test-gl-startup A=1 & wait ) >> $OUT/tests.txt
cat $OUT/tests.txt | awk '{print $2, $3, $4, $1}' | sort | uniq -c | head -30
grep -h "^not ok" /tmp/t-*.log | head -10
rm -rf ~/.nv/GLCache ~/.cache/nvidia
export GEGL_PATH=$D/ops:$S CBLUR_LOG=stderr
mkdir -p /tmp/nv
a () { # tag cpus figures applies pause methods
  tag=$1; cpus=$2; fig=$3; n=$4; p=$5; m=$6
  __GL_SHADER_DISK_CACHE_PATH=/tmp/nv XDG_CACHE_HOME=/tmp/c-$fig taskset -c $cpus timeout 200 $D/bench --sizes '' --applies $n --pause $p --methods $m > $OUT/$tag.txt 2>&1
  echo "== $tag"; grep -E "^apply" $OUT/$tag.txt | sed 's/apply //; s/, CPU [0-9.]* ms//' | tr '\n' ' '; echo
}
# a user's first process on this machine: the driver's cache and the figures cold
a first16 0-15 u16 4 2 auto
a first16v 0-15 u16 4 2 auto-variable
a first2 0,1 u2 4 2 auto
a first2v 0,1 u2 4 2 auto-variable
# later processes: warm driver cache, figures kept; each method in its own process
for m in cpu-auto auto gl-auto cpu-variable auto-variable gl-variable; do a s16-$m 0-15 u16 4 2 $m; done
a s16-gegl 0-15 u16 3 2 gegl-iir,gegl-variable,gegl-io
for m in cpu-auto auto cpu-variable auto-variable; do a s2-$m 0,1 u2 4 2 $m; done
# 25 s pauses, 16 cores
a p25 0-15 u16 3 25 auto,auto-variable
# the CLI on the 600x400 photo, a process per run, auto and cpu in turn
for i in 1 2 3 4 5 6; do for b in auto cpu; do
  s=$(date +%s%N); XDG_CACHE_HOME=/tmp/c-u16 CBLUR_BACKEND=$b CBLUR_LOG= $PWD/.bundle-final/gegl tests/data/coffee.png -o /tmp/cli-$b.png -- cblur:gaussian-blur radius=30 2>/dev/null; e=$(date +%s%N)
  echo "cli $b $(( (e - s) / 1000000 ))"
done; done > $OUT/cli.txt
awk '{a[$2]=a[$2]" "$3} END {for (k in a) print "cli", k, a[k]}' $OUT/cli.txt
# the drag at levels 1 and 0 in a fresh process
XDG_CACHE_HOME=/tmp/c-u16 timeout 90 $D/bench --sizes '' --interactive drag --levels 1,0 --sweep 0.5:300:1.5 --methods auto > $OUT/drag.txt 2>&1; echo "drag rc=$?"
grep -E "drag level" $OUT/drag.txt | grep -v "^|"
nvidia-smi --query-compute-apps=pid,used_memory --format=csv 2>/dev/null | head -3
