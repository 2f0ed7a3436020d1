/* The one hook through which the tests' CBLUR_GL_FAULT makes a failure
 * point of the runtime fail, as a driver would: no context, a shader that
 * does not compile, a context slow to make, and, at the checks whose site names the step, an
 * out-of-memory ("alloc ..."), an error ("dispatch ...") or a GPU reset
 * ("dispatch ..."). */
#include "cblur-gpu-context.h"
#include "cblur-settings.h"

static gboolean
at_step (const gchar *site,
         const gchar *step)
{
  return g_str_has_prefix (site, step);
}

GLenum
cblur_gpu_fault_at (const gchar       *site,
                    CblurGpuFaultKind  kind)
{
  CblurGlFault fault = cblur_settings ()->gl_fault;

  if (kind == CBLUR_GPU_FAULT_CHECK_RESET)
    return fault == CBLUR_GL_FAULT_LOST && at_step (site, "dispatch")
           ? GL_UNKNOWN_CONTEXT_RESET : GL_NO_ERROR;
  if (fault == CBLUR_GL_FAULT_ALLOC && at_step (site, "alloc"))
    return GL_OUT_OF_MEMORY;
  if (fault == CBLUR_GL_FAULT_DISPATCH && at_step (site, "dispatch"))
    return GL_INVALID_OPERATION;
  return GL_NO_ERROR;
}

gboolean
cblur_gpu_fault_context (void)
{
  return cblur_settings ()->gl_fault == CBLUR_GL_FAULT_CONTEXT;
}

gboolean
cblur_gpu_fault_compile (void)
{
  return cblur_settings ()->gl_fault == CBLUR_GL_FAULT_COMPILE;
}

/* longer than a test's first blur takes */
#define SLOW_CONTEXT_US (3 * G_USEC_PER_SEC)

gint64
cblur_gpu_fault_delay_us (void)
{
  return cblur_settings ()->gl_fault == CBLUR_GL_FAULT_SLOW ? SLOW_CONTEXT_US : 0;
}
