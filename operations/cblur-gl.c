#include "cblur-gl.h"

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (cblur-gl-error-quark, cblur_gl_error)

gboolean
cblur_gl_available (gboolean  *is_software,
                    GError   **error)
{
  g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_NO_CONTEXT,
                       _("the GL backend is not built yet"));
  return FALSE;
}

gboolean
cblur_gl_blur (const CblurKernel *kernel,
               const CblurImage  *src,
               const CblurImage  *dst,
               CblurGlReport     *report,
               GError           **error)
{
  return cblur_gl_available (NULL, error);
}

void
cblur_gl_shutdown (void)
{
}
