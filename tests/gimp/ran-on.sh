# Sourced: ran_on LOG BACKEND fails unless the CBLUR_LOG file LOG has lines
# and every one says the band ran on BACKEND.
ran_on ()
{
  echo "CBLUR_LOG:"
  cat "$1" 2>/dev/null || true
  if ! grep -q '^cblur: backend=' "$1" 2>/dev/null; then
    echo "the op logged nothing: it did not run" >&2
    return 1
  fi
  if grep -v "^cblur: backend=$2 " "$1" >&2; then
    echo "^ not all bands ran on $2" >&2
    return 1
  fi
}
