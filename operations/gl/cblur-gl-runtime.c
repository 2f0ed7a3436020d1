/* The GPU runtime as this module runs it: its settings read from the
 * module's (cblur_settings(), which a test may reload), its end with
 * GEGL's (gegl_exit()), and the module loaded for good while the runtime's
 * thread runs its code.  Every way in to the runtime that may make a
 * context goes through here first. */
#include "cblur-gl-internal.h"

#include <gegl.h>
#include <gmodule.h>

static const CblurGpuFault faults[] = {
  [CBLUR_GL_FAULT_NONE]     = CBLUR_GPU_FAULT_NONE,
  [CBLUR_GL_FAULT_CONTEXT]  = CBLUR_GPU_FAULT_CONTEXT,
  [CBLUR_GL_FAULT_COMPILE]  = CBLUR_GPU_FAULT_COMPILE,
  [CBLUR_GL_FAULT_ALLOC]    = CBLUR_GPU_FAULT_ALLOC,
  [CBLUR_GL_FAULT_DISPATCH] = CBLUR_GPU_FAULT_DISPATCH,
  [CBLUR_GL_FAULT_LOST]     = CBLUR_GPU_FAULT_LOST,
  [CBLUR_GL_FAULT_SLOW]     = CBLUR_GPU_FAULT_SLOW,
};

/* any thread: the settings were read by the thread that blurs */
static void
read_config (CblurGpuConfig *config)
{
  const CblurSettings *settings = cblur_settings ();

  config->idle_ms = settings->gl_idle_ms;
  config->let_go = settings->gl_let_go;
  config->debug = settings->gl_debug;
  config->fault = faults[settings->gl_fault];
}

static GMutex      lock;
static GeglConfig *watched;   /* whose end, in gegl_exit(), ends the runtime */

static void
config_gone (gpointer  unused,
             GObject  *config)
{
  g_mutex_lock (&lock);
  if (watched == (GeglConfig *) config)
    watched = NULL;
  g_mutex_unlock (&lock);
  cblur_gpu_shut_down ();
}

void
cblur_gl_runtime_init (void)
{
  static gsize configured = 0;

  if (g_once_init_enter (&configured))
    {
      cblur_gpu_configure (read_config);
      g_once_init_leave (&configured, 1);
    }
  g_mutex_lock (&lock);
  if (watched == NULL)
    {
      watched = gegl_config ();
      g_object_weak_ref (G_OBJECT (watched), config_gone, NULL);
    }
  g_mutex_unlock (&lock);
}

gboolean
cblur_gl_run (CblurGpuTask   task,
              gpointer       data,
              GError       **error)
{
  cblur_gl_runtime_init ();
  return cblur_gpu_run (task, data, error);
}

gboolean
cblur_gl_available (gboolean  *is_software,
                    GError   **error)
{
  cblur_gl_runtime_init ();
  return cblur_gpu_available (is_software, error);
}

/* GEGL unloads a module whose operations are not in use and loads it again
 * later; the runtime's thread runs our code, and the context must not be
 * leaked by the unload, so the module stays loaded. */
G_MODULE_EXPORT const gchar *
g_module_check_init (GModule *module)
{
  g_module_make_resident (module);
  return NULL;
}
