# shellcheck shell=sh
# Sourced: gimp_batch SOURCE_DIR BUILD_DIR TMP SCRIPT [NAME=VALUE...] runs
# the Python SCRIPT in gimp-console-3.0 (python-fu-eval) as a user would
# have GIMP: the module installed from BUILD_DIR by SOURCE_DIR's
# scripts/install-user.sh into a fresh HOME under TMP (GEGL finds it there
# on its own), no GEGL_PATH, no test settings, GIMP's temporary files in
# TMP.  SCRIPT gets the NAME=VALUE pairs, CBLUR_OUT=TMP/out for its results
# and CBLUR_LOG=TMP/log for the op's log, and imports from its own folder
# (gimp_script.py), writing no bytecode there.  Fails, showing GIMP's
# output, unless GIMP succeeded and the script wrote TMP/out/size ("WIDTH
# HEIGHT"), which it writes last.
gimp_batch ()
{
  _root=$1 _build=$2 _tmp=$3 _script=$4
  _path="import sys; sys.dont_write_bytecode = True; sys.path.insert(0, '$(dirname "$4")')"
  shift 4
  mkdir "$_tmp/home" "$_tmp/out"
  set -- env -u GEGL_PATH -u G_DEBUG -u CBLUR_LOCALEDIR -u XDG_DATA_HOME \
    -u XDG_CONFIG_HOME -u XDG_CACHE_HOME HOME="$_tmp/home" TMPDIR="$_tmp" "$@"
  "$@" sh "$_root/scripts/install-user.sh" --build "$_build"
  _status=0
  "$@" CBLUR_OUT="$_tmp/out" CBLUR_LOG="$_tmp/log" \
    gimp-console-3.0 -i -n --batch-interpreter=python-fu-eval \
      -b "$_path; exec(open('$_script').read())" --quit >"$_tmp/gimp.log" 2>&1 || _status=$?
  if [ $_status != 0 ] || [ ! -f "$_tmp/out/size" ]; then
    cat "$_tmp/gimp.log"
    echo "GIMP (exit status $_status) wrote no result" >&2
    return 1
  fi
}
