/* What the runtime's own files share: the context's state, its making
 * and destroying (cblur-gpu-context.c), and the pinned buffers' pool
 * (cblur-gpu-pinned.c).  Nothing outside cblur-gpu-*.c includes it. */
#ifndef CBLUR_GPU_CONTEXT_H
#define CBLUR_GPU_CONTEXT_H

#include <epoxy/gl.h>
#include <epoxy/egl.h>

#include "cblur-gpu.h"

G_BEGIN_DECLS

/* The one context and what lives in it. */
struct _CblurGpu
{
  EGLDisplay      display;
  EGLContext      context;
  CblurGpuLimits  limits;
  gboolean        has_texture_sub_image;
  gboolean        has_reset_status;
  GLuint          framebuffer;   /* for glReadPixels where GL < 4.5 */
  GHashTable     *programs;      /* name and defines -> CblurGpuProgram */
  GArray         *data;          /* cblur_gpu_set_data()'s */
  /* Sticky: a loss or an out-of-memory leaves GL undefined, and the
   * context must go, though not while pinned buffers are out: until then
   * it refuses work. */
  gboolean        failed;
  guint           pinned_out;
  GPtrArray      *pinned_idle;
};

/* cblur-gpu-context.c: the context current, made where there is none */
gboolean cblur_gpu_context_make    (CblurGpu  *gpu,
                                    GError   **error);
void     cblur_gpu_context_release (CblurGpu  *gpu);
gboolean cblur_gpu_context_alive   (const CblurGpu *gpu);
/* everything in it goes: its programs and users' data */
void     cblur_gpu_context_destroy (CblurGpu  *gpu);

/* cblur-gpu-program.c: the cache's value destructor */
void     cblur_gpu_program_free    (gpointer   program);

/* cblur-gpu-pinned.c: the context goes, and the idle buffers with it */
void     cblur_gpu_pinned_forget   (CblurGpu  *gpu);

/* cblur-gpu-check.c: the debug callback, where CBLUR_GL_DEBUG is set */
void     cblur_gpu_debug_enable    (void);
/* EGL's error after a failed call, by name, for a message */
const gchar *cblur_gpu_egl_error   (void);

/* cblur-gpu-fault.c: the one hook through which CBLUR_GL_FAULT makes a
 * failure point fail: the GL error (or reset, for "lost") that a check at
 * site reports, GL_NO_ERROR where none */
typedef enum
{
  CBLUR_GPU_FAULT_CHECK_ERROR,
  CBLUR_GPU_FAULT_CHECK_RESET
} CblurGpuFaultKind;

GLenum   cblur_gpu_fault_at        (const gchar       *site,
                                    CblurGpuFaultKind  kind);
gboolean cblur_gpu_fault_context   (void);
gboolean cblur_gpu_fault_compile   (void);

G_END_DECLS

#endif
