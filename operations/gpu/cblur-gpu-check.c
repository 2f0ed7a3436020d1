/* GL's errors as GErrors, read the way libplacebo reads them: every error
 * pending is taken and logged by name with the call site, so that none is
 * left for a later check to report in the wrong place; the reset status
 * and EGL's error are read too.  Where the settings ask for debug, the
 * driver's messages are logged as they come. */
#include "cblur-gpu-config.h"
#include "cblur-gpu-context.h"

#include <glib/gi18n-lib.h>

/* a GPU reset mid-wait never signals the fence: look for one this often */
#define WAIT_SLICE_NS (100 * 1000 * 1000)

/* GL holds one flag per kind of error, each read once */
#define MAX_PENDING 8

G_DEFINE_QUARK (cblur-gl-error-quark, cblur_gl_error)

static const gchar *
gl_error_name (GLenum code)
{
  switch (code)
    {
    case GL_INVALID_ENUM:                  return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:                 return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:             return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:                 return "GL_OUT_OF_MEMORY";
    case GL_STACK_OVERFLOW:                return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW:               return "GL_STACK_UNDERFLOW";
    case GL_CONTEXT_LOST:                  return "GL_CONTEXT_LOST";
    default:                               return "unknown GL error";
    }
}

const gchar *
cblur_gpu_egl_error (void)
{
  switch (eglGetError ())
    {
    case EGL_SUCCESS:             return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED:     return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS:          return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC:           return "EGL_BAD_ALLOC";
    case EGL_BAD_CONTEXT:         return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY:         return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH:           return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER:       return "EGL_BAD_PARAMETER";
    case EGL_CONTEXT_LOST:        return "EGL_CONTEXT_LOST";
    default:                      return "EGL error";
    }
}

/* The worst of the errors pending, each logged: a loss, an out-of-memory,
 * else the first. */
static GLenum
take_errors (const gchar *site)
{
  GLenum worst = cblur_gpu_fault_at (site, CBLUR_GPU_FAULT_CHECK_ERROR);
  GLenum code;
  gint   n;

  for (n = 0; n < MAX_PENDING && (code = glGetError ()) != GL_NO_ERROR; n++)
    {
      g_debug ("%s: %s (0x%04x)", site, gl_error_name (code), code);
      if (worst == GL_NO_ERROR || code == GL_CONTEXT_LOST ||
          (code == GL_OUT_OF_MEMORY && worst != GL_CONTEXT_LOST))
        worst = code;
    }
  return worst;
}

void
cblur_gpu_fail (CblurGpu *gpu)
{
  gpu->failed = TRUE;
}

/* reset: what glGetGraphicsResetStatus said, which it says only once */
static gboolean
check (CblurGpu     *gpu,
       const gchar  *site,
       GLenum        reset,
       GError      **error)
{
  GLenum code = take_errors (site);

  if (reset == GL_NO_ERROR)
    reset = cblur_gpu_fault_at (site, CBLUR_GPU_FAULT_CHECK_RESET);
  if (reset != GL_NO_ERROR || code == GL_CONTEXT_LOST)
    {
      cblur_gpu_fail (gpu);
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_LOST,
                   _("the OpenGL context was lost (%s)"), site);
    }
  else if (code == GL_OUT_OF_MEMORY)
    {
      cblur_gpu_fail (gpu);
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_OUT_OF_MEMORY,
                   _("the GPU ran out of memory (%s)"), site);
    }
  else if (code != GL_NO_ERROR)
    g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                 _("OpenGL error %s (%s)"), gl_error_name (code), site);
  else
    return TRUE;
  return FALSE;
}

static GLenum
reset_status (const CblurGpu *gpu)
{
  return gpu->has_reset_status ? glGetGraphicsResetStatus () : GL_NO_ERROR;
}

gboolean
cblur_gpu_check (CblurGpu     *gpu,
                 const gchar  *site,
                 GError      **error)
{
  return check (gpu, site, reset_status (gpu), error);
}

/* a fence is a GLsync */
CblurGpuFence *
cblur_gpu_fence (CblurGpu *gpu)
{
  return (CblurGpuFence *) glFenceSync (GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
}

gboolean
cblur_gpu_passed (CblurGpuFence *fence)
{
  GLenum status = glClientWaitSync ((GLsync) fence, 0, 0);

  return status == GL_ALREADY_SIGNALED || status == GL_CONDITION_SATISFIED;
}

void
cblur_gpu_fence_free (CblurGpuFence *fence)
{
  glDeleteSync ((GLsync) fence);
}

gboolean
cblur_gpu_wait (CblurGpu      *gpu,
                CblurGpuFence *fence,
                const gchar  *site,
                GError      **error)
{
  GLenum reset = GL_NO_ERROR;

  while (reset == GL_NO_ERROR &&
         glClientWaitSync ((GLsync) fence, GL_SYNC_FLUSH_COMMANDS_BIT, WAIT_SLICE_NS) ==
           GL_TIMEOUT_EXPIRED)
    reset = reset_status (gpu);

  if (reset == GL_NO_ERROR)
    reset = reset_status (gpu);
  return check (gpu, site, reset, error);
}

gboolean
cblur_gpu_finish (CblurGpu     *gpu,
                  const gchar  *site,
                  GError      **error)
{
  CblurGpuFence *fence = cblur_gpu_fence (gpu);
  gboolean ok = cblur_gpu_wait (gpu, fence, site, error);

  cblur_gpu_fence_free (fence);
  return ok;
}

static void GLAPIENTRY
debug_message (GLenum        source,
               GLenum        type,
               GLuint        id,
               GLenum        severity,
               GLsizei       length,
               const GLchar *message,
               const void   *unused)
{
  g_debug ("GL debug 0x%x (type 0x%x, severity 0x%x): %s", id, type, severity, message);
}

/* The debug setting: the driver's messages as they come, on the thread that
 * caused them, which costs time on every call: for finding a fault only. */
void
cblur_gpu_debug_enable (void)
{
  CblurGpuConfig config;

  cblur_gpu_config_read (&config);
  if (!config.debug ||
      !(epoxy_gl_version () >= 43 || epoxy_has_gl_extension ("GL_KHR_debug")))
    return;
  glEnable (GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback (debug_message, NULL);
  glEnable (GL_DEBUG_OUTPUT);
}
