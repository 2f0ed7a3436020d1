# Sourced by the German checks: german_locale DIR makes de_DE.UTF-8 usable,
# compiling it into DIR (and pointing LOCPATH there) where the system has
# not generated it.  Since glibc 2.41 LANGUAGE=de under C.UTF-8 no longer
# translates, so the checks need a real German locale.
german_locale ()
{
  if locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\?8'; then
    return 0
  fi
  # localedef warns (and exits 1) about characters missing from de_DE
  localedef -i de_DE -f UTF-8 "$1/de_DE.UTF-8" 2>/dev/null || true
  if [ ! -f "$1/de_DE.UTF-8/LC_MESSAGES/SYS_LC_MESSAGES" ]; then
    echo "cannot make the de_DE.UTF-8 locale (Debian: apt-get install locales)" >&2
    return 1
  fi
  export LOCPATH="$1"
}
