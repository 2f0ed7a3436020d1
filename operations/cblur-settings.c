#include "cblur-settings.h"

gint64
cblur_test_setting (const gchar *name,
                    gint64       otherwise)
{
  const gchar *value = g_getenv (name);
  gint64       number = value != NULL ? g_ascii_strtoll (value, NULL, 10) : 0;

  return number > 0 ? number : otherwise;
}
