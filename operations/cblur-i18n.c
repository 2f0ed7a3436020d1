#include "config.h"

#include <glib/gi18n-lib.h>

/* GEGL evaluates the property labels while it registers the operation, so
 * the text domain must be bound when the module is loaded, before that. */
__attribute__ ((constructor)) static void
bind_text_domain (void)
{
  const gchar *dir = g_getenv ("CBLUR_LOCALEDIR");

  bindtextdomain (GETTEXT_PACKAGE, dir != NULL ? dir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}
