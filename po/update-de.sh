#!/bin/sh
# Refresh the German translation after source strings change, and check it.
#
#   po/update-de.sh [BUILD_DIR]        (default: build)
#
# 1. regenerate po/gegl-compute-blur.pot from po/POTFILES,
# 2. msgmerge it into po/de.po (new strings come in untranslated, changed
#    ones as fuzzy: translate those by hand, then run this again),
# 3. build, which compiles BUILD_DIR/po/de/LC_MESSAGES/gegl-compute-blur.mo,
# 4. fail while de.po has untranslated or fuzzy messages,
# 5. load the module in German and print its translated labels.
#
# Needs Debian's `locales` (de_DE.UTF-8 is made in a temporary folder if
# the system has not generated it).  The `gegl` command line tool never
# calls setlocale(); the check program below calls it the way GIMP does.
set -eu

cd "$(dirname "$0")/.."
build=${1:-build}

ninja -C "$build" gegl-compute-blur-pot
ninja -C "$build" gegl-compute-blur-update-po
ninja -C "$build"

stats=$(LC_ALL=C msgfmt -c --statistics -o /dev/null po/de.po 2>&1)
echo "po/de.po: $stats"
case $stats in
  *untranslated*|*fuzzy*) echo "po/de.po is incomplete" >&2; exit 1 ;;
esac

. tests/german-locale.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
german_locale "$tmp"
cat > "$tmp/show.c" <<'C'
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <gegl.h>

int
main (int argc, char **argv)
{
  const char  *op = "cblur:gaussian-blur";
  GParamSpec **specs;
  guint        n, i;

  setlocale (LC_ALL, "");
  gegl_init (&argc, &argv);
  if (!gegl_has_operation (op))
    {
      fprintf (stderr, "%s not found\n", op);
      return 1;
    }
  printf ("title:       %s\n", gegl_operation_get_key (op, "title"));
  printf ("menu-label:  %s\n", gegl_operation_get_key (op, "gimp:menu-label"));
  printf ("description: %s\n", gegl_operation_get_key (op, "description"));
  specs = gegl_operation_list_properties (op, &n);
  for (i = 0; i < n; i++)
    {
      printf ("%-13s %s: %s\n", specs[i]->name,
              g_param_spec_get_nick (specs[i]),
              g_param_spec_get_blurb (specs[i]));
      if (G_IS_PARAM_SPEC_ENUM (specs[i]))
        {
          GEnumClass *e = G_PARAM_SPEC_ENUM (specs[i])->enum_class;
          guint       j;

          for (j = 0; j < e->n_values; j++)
            printf ("%13s   - %s\n", "", e->values[j].value_name);
        }
    }
  g_free (specs);
  /* fail if the title stayed English */
  return strncmp (gegl_operation_get_key (op, "title"), "Gaussian Blur", 13) == 0;
}
C
cc -o "$tmp/show" "$tmp/show.c" $(pkg-config --cflags --libs gegl-0.4)

LANGUAGE= LANG=de_DE.UTF-8 LC_ALL= \
CBLUR_LOCALEDIR="$PWD/$build/po" \
GEGL_PATH="$PWD/$build/operations" \
  "$tmp/show"
