#include "config.h"

#include <locale.h>
#include <libintl.h>
#include <glib/gi18n-lib.h>

#include "cblur-i18n.h"

/* GEGL evaluates the property labels while it registers the operation, so
 * the text domain must be bound when the module is loaded, before that. */
__attribute__ ((constructor)) static void
bind_text_domain (void)
{
  const gchar *dir = g_getenv ("CBLUR_LOCALEDIR");

  bindtextdomain (GETTEXT_PACKAGE, dir != NULL ? dir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}

static gboolean
is_c_locale (const gchar *name)
{
  return name == NULL || *name == '\0' || g_str_equal (name, "C") ||
         g_str_equal (name, "POSIX");
}

/* The locale the environment asks for, where the host program never called
 * setlocale() (the gegl command line): gettext ignores LANGUAGE under "C",
 * but honours it under C.UTF-8. */
static locale_t
environment_locale (void)
{
  static gsize    once = 0;
  static locale_t chosen = (locale_t) 0;

  if (g_once_init_enter (&once))
    {
      if (is_c_locale (setlocale (LC_MESSAGES, NULL)))
        {
          const gchar *names[] = { g_getenv ("LC_ALL"), g_getenv ("LC_MESSAGES"),
                                   g_getenv ("LANG") };
          const gchar *name = "C.UTF-8";
          gsize        i;

          for (i = 0; i < G_N_ELEMENTS (names); i++)
            if (!is_c_locale (names[i]))
              {
                name = names[i];
                break;
              }
          chosen = newlocale (LC_MESSAGES_MASK, name, (locale_t) 0);
        }
      g_once_init_leave (&once, 1);
    }
  return chosen;
}

const gchar *
cblur_gettext (const gchar *msgid)
{
  locale_t     wanted = environment_locale ();
  locale_t     previous;
  const gchar *translated;

  if (wanted == (locale_t) 0)
    return dgettext (GETTEXT_PACKAGE, msgid);

  /* on this thread only, so the host's locale is left as it was */
  previous = uselocale (wanted);
  translated = dgettext (GETTEXT_PACKAGE, msgid);
  uselocale (previous);
  return translated;
}
