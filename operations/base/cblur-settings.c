#include "cblur-settings.h"

#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

/* the settings, published whole: a reload makes new ones, and leaves the
 * old, which a blur on another thread may still be reading */
static CblurSettings *current;
static GSList        *retired;
static GMutex         reading;

/* the value of `name` as one of names[], where names[i] is value i; else
 * `otherwise`, with a warning if it is set at all */
static gint
read_choice (const gchar        *name,
             const gchar *const *names,
             gint                n_names,
             gint                otherwise,
             const gchar        *warning)
{
  const gchar *value = g_getenv (name);
  gint         i;

  if (value == NULL || *value == '\0')
    return otherwise;
  for (i = 0; i < n_names; i++)
    if (names[i] != NULL && g_ascii_strcasecmp (value, names[i]) == 0)
      return i;
  g_warning (warning, value);
  return otherwise;
}

/* a positive whole number, else 0, with a warning if it is set at all */
static gint64
read_number (const gchar *name)
{
  const gchar *value = g_getenv (name);
  gchar       *end = NULL;
  gint64       number;

  if (value == NULL || *value == '\0')
    return 0;
  number = g_ascii_strtoll (value, &end, 10);
  if (number > 0 && *end == '\0')
    return number;
  g_warning (_("%s=%s is not a positive whole number; ignored"), name, value);
  return 0;
}

static CblurSettings *
read_settings (void)
{
  static const gchar *const backends[] = {
    [CBLUR_BACKEND_CHOICE_AUTO] = "auto",
    [CBLUR_BACKEND_CHOICE_GL]   = "gl",
    [CBLUR_BACKEND_CHOICE_CPU]  = "cpu",
  };
  static const gchar *const faults[] = {
    [CBLUR_GL_FAULT_NONE]     = NULL,
    [CBLUR_GL_FAULT_CONTEXT]  = "context",
    [CBLUR_GL_FAULT_COMPILE]  = "compile",
    [CBLUR_GL_FAULT_ALLOC]    = "alloc",
    [CBLUR_GL_FAULT_DISPATCH] = "dispatch",
    [CBLUR_GL_FAULT_LOST]     = "lost",
    [CBLUR_GL_FAULT_SLOW]     = "slow",
  };
  CblurSettings *settings = g_new0 (CblurSettings, 1);

  settings->backend =
    read_choice ("CBLUR_BACKEND", backends, G_N_ELEMENTS (backends),
                 CBLUR_BACKEND_CHOICE_AUTO,
                 _("CBLUR_BACKEND=%s is not one of auto, gl or cpu; using auto"));
  settings->gl_idle_ms = read_number ("CBLUR_GL_IDLE_MS");
  settings->band_pixels = read_number ("CBLUR_BAND_PIXELS");
  settings->whole_image_pixels = read_number ("CBLUR_WHOLE_IMAGE_PIXELS");
  settings->gl_max_tile = read_number ("CBLUR_GL_MAX_TILE");
  settings->gl_texture_budget = read_number ("CBLUR_GL_TEXTURE_BUDGET");
  settings->gl_shared_memory = read_number ("CBLUR_GL_SHARED_MEMORY");
  settings->gl_debug = read_number ("CBLUR_GL_DEBUG") > 0;
  settings->gl_no_wait = read_number ("CBLUR_GL_NO_WAIT") > 0;
  settings->gl_let_go = read_number ("CBLUR_GL_LET_GO") > 0;
  settings->gl_fault =
    read_choice ("CBLUR_GL_FAULT", faults, G_N_ELEMENTS (faults), CBLUR_GL_FAULT_NONE,
                 _("CBLUR_GL_FAULT=%s is not one of context, compile, alloc, dispatch, "
                   "lost or slow; ignored"));
  return settings;
}

const CblurSettings *
cblur_settings (void)
{
  CblurSettings *settings = g_atomic_pointer_get (&current);

  if (G_UNLIKELY (settings == NULL))
    {
      g_mutex_lock (&reading);
      if (current == NULL)
        g_atomic_pointer_set (&current, read_settings ());
      settings = current;
      g_mutex_unlock (&reading);
    }
  return settings;
}

void
cblur_settings_reload (void)
{
  CblurSettings *settings = read_settings ();

  g_mutex_lock (&reading);
  if (current != NULL)
    retired = g_slist_prepend (retired, current);
  g_atomic_pointer_set (&current, settings);
  g_mutex_unlock (&reading);
}
