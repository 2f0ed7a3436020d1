/* The runtime's settings as its user gives them (cblur_gpu_configure),
 * and the one hook through which a test's fault makes a failure point
 * fail (cblur-gpu-config.c).  Nothing outside cblur-gpu-*.c includes
 * it. */
#ifndef CBLUR_GPU_CONFIG_H
#define CBLUR_GPU_CONFIG_H

#include <epoxy/gl.h>

#include "cblur-gpu.h"

G_BEGIN_DECLS

/* the settings as they are now: the user's, else the runtime's own */
void     cblur_gpu_config_read     (CblurGpuConfig *config);

/* the check's kinds that a fault may hit */
typedef enum
{
  CBLUR_GPU_FAULT_CHECK_ERROR,
  CBLUR_GPU_FAULT_CHECK_RESET
} CblurGpuFaultKind;

/* the GL error (or reset, for CBLUR_GPU_FAULT_LOST) that a check at site
 * reports, GL_NO_ERROR where none */
GLenum   cblur_gpu_fault_at        (const gchar       *site,
                                    CblurGpuFaultKind  kind);
gboolean cblur_gpu_fault_context   (void);
gboolean cblur_gpu_fault_compile   (void);
/* CBLUR_GPU_FAULT_SLOW: the context's making takes this long longer, as
 * a driver's first load does */
gint64   cblur_gpu_fault_delay_us  (void);

G_END_DECLS

#endif
