/* The runtime's settings, read from its user whenever they are needed,
 * so that a change shows at the next use; and the one hook through which
 * a test's fault makes a failure point of the runtime fail, as a driver
 * would: no context, a shader that does not compile, a context slow to
 * make, and, at the checks whose site names the step, an out-of-memory
 * ("alloc ..."), an error ("dispatch ...") or a GPU reset
 * ("dispatch ..."). */
#include "cblur-gpu-config.h"

static CblurGpuConfigRead reader;

void
cblur_gpu_configure (CblurGpuConfigRead read)
{
  g_atomic_pointer_set (&reader, read);
}

void
cblur_gpu_config_read (CblurGpuConfig *config)
{
  CblurGpuConfigRead read = g_atomic_pointer_get (&reader);

  *config = (CblurGpuConfig) { 0 };
  if (read != NULL)
    read (config);
}

static CblurGpuFault
fault (void)
{
  CblurGpuConfig config;

  cblur_gpu_config_read (&config);
  return config.fault;
}

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
  CblurGpuFault set = fault ();

  if (kind == CBLUR_GPU_FAULT_CHECK_RESET)
    return set == CBLUR_GPU_FAULT_LOST && at_step (site, "dispatch")
           ? GL_UNKNOWN_CONTEXT_RESET : GL_NO_ERROR;
  if (set == CBLUR_GPU_FAULT_ALLOC && at_step (site, "alloc"))
    return GL_OUT_OF_MEMORY;
  if (set == CBLUR_GPU_FAULT_DISPATCH && at_step (site, "dispatch"))
    return GL_INVALID_OPERATION;
  return GL_NO_ERROR;
}

gboolean
cblur_gpu_fault_context (void)
{
  return fault () == CBLUR_GPU_FAULT_CONTEXT;
}

gboolean
cblur_gpu_fault_compile (void)
{
  return fault () == CBLUR_GPU_FAULT_COMPILE;
}

/* longer than a test's first blur takes */
#define SLOW_CONTEXT_US (3 * G_USEC_PER_SEC)

gint64
cblur_gpu_fault_delay_us (void)
{
  return fault () == CBLUR_GPU_FAULT_SLOW ? SLOW_CONTEXT_US : 0;
}
