/* dladdr() */
#define _GNU_SOURCE
#include "config.h"

#include <dlfcn.h>
#include <locale.h>
#include <libintl.h>
#include <glib/gi18n-lib.h>

#include "cblur-i18n.h"

static void bind_text_domain (void);

/* A per-user install (scripts/install-user.sh) puts the catalogues in a
 * folder "locale" beside the module, since the compiled-in prefix is not
 * the user's; NULL where there is none. */
static gchar *
localedir_beside_module (void)
{
  Dl_info           info;
  g_autofree gchar *module_dir = NULL;
  gchar            *dir;

  if (dladdr ((gpointer) bind_text_domain, &info) == 0 || info.dli_fname == NULL)
    return NULL;
  module_dir = g_path_get_dirname (info.dli_fname);
  dir = g_build_filename (module_dir, "locale", NULL);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    g_clear_pointer (&dir, g_free);
  return dir;
}

/* GEGL evaluates the property labels while it registers the operation, so
 * the text domain must be bound when the module is loaded, before that. */
__attribute__ ((constructor)) static void
bind_text_domain (void)
{
  const gchar      *chosen = g_getenv ("CBLUR_LOCALEDIR");
  g_autofree gchar *beside = chosen == NULL ? localedir_beside_module () : NULL;

  if (chosen == NULL)
    chosen = beside != NULL ? beside : LOCALEDIR;
  bindtextdomain (GETTEXT_PACKAGE, chosen);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}

static gboolean
is_c_locale (const gchar *name)
{
  return name == NULL || *name == '\0' || g_str_equal (name, "C") ||
         g_str_equal (name, "POSIX");
}

/* The locale the environment asks for, where the host program never called
 * setlocale() (the gegl command line).  Without one gettext ignores
 * LANGUAGE under "C", and since glibc 2.41 under C.UTF-8 as well. */
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

  /* on this thread only, so the host's locale stays untouched */
  previous = uselocale (wanted);
  translated = dgettext (GETTEXT_PACKAGE, msgid);
  uselocale (previous);
  return translated;
}
