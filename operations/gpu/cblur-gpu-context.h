/* What the runtime's own files share of the one context: its state, its
 * making and destroying (cblur-gpu-context.c), the pinned buffers' pool
 * (cblur-gpu-pinned.c) and GL's debug messages (cblur-gpu-check.c).
 * Nothing outside cblur-gpu-*.c includes it. */
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
  EGLConfig       config;        /* its config, for the contexts that share it */
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
/* a new context, current nowhere, that shares the context's objects */
EGLContext cblur_gpu_context_share (const CblurGpu *gpu);
/* everything in it goes: its programs and users' data */
void     cblur_gpu_context_destroy (CblurGpu  *gpu);
/* with it current: its users' data goes, and the idle pinned buffers;
 * its programs stay */
void     cblur_gpu_context_trim    (CblurGpu  *gpu);
/* whether it holds users' data or idle pinned buffers */
gboolean cblur_gpu_context_holds_memory (const CblurGpu *gpu);

/* cblur-gpu-pinned.c: the context goes, and the idle buffers with it */
void     cblur_gpu_pinned_forget   (CblurGpu  *gpu);
/* with the context current: the idle buffers are deleted */
void     cblur_gpu_pinned_trim     (CblurGpu  *gpu);

/* cblur-gpu-check.c: the debug callback, where the settings ask for it */
void     cblur_gpu_debug_enable    (void);
/* EGL's error after a failed call, by name, for a message */
const gchar *cblur_gpu_egl_error   (void);

G_END_DECLS

#endif
