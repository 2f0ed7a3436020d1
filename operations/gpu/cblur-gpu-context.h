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

/* cblur-gpu-program.c: the cache's value destructor */
void     cblur_gpu_program_free    (gpointer   program);
/* a program to link: what cblur_gpu_program() takes, then what came of it */
typedef struct
{
  const gchar     *name;
  const gchar     *source;
  const gchar     *defines;
  const gchar     *prelude;
  CblurGpuProgram *program;   /* linked, not cached */
  GError          *error;     /* else the compiler's log */
} CblurGpuBuild;

/* the programs linked on the thread's current context, all at once */
void     cblur_gpu_programs_build  (CblurGpuBuild *builds,
                                    guint          n);
/* the program cache's key */
gchar   *cblur_gpu_program_key     (const gchar *name,
                                    const gchar *defines);

/* cblur-gpu-lifetime.c, on the runtime's thread: the lock that guards the
 * context's state against the thread-safe functions' reads; with it
 * held, the context made current, made where there is none, or NULL
 * where there is no GL 4.3 context, in a forked child, once the process
 * exits, or after a failure while pinned buffers are still out; and let
 * go again, or destroyed where it has failed and no pinned buffer is
 * out. */
void      cblur_gpu_lock    (void);
void      cblur_gpu_unlock  (void);
CblurGpu *cblur_gpu_acquire (GError   **error);
void      cblur_gpu_release (CblurGpu  *gpu);
/* the context let go where it has been idle long enough; when to look
 * again (G_MAXINT64: not until it is used) */
gint64    cblur_gpu_lifetime_reap (void);

/* cblur-gpu-start.c: call (data) on the runtime's thread, which starts
 * where it does not run, waited for; FALSE, without running it, once the
 * process has begun to exit.  Not from that thread. */
typedef void (*CblurGpuCall) (gpointer data);
gboolean cblur_gpu_thread_call (CblurGpuCall call,
                                gpointer     data);
/* gegl_exit(): call (data) on the thread, which then ends */
void     cblur_gpu_thread_end  (CblurGpuCall call,
                                gpointer     data);

/* cblur-gpu-start.c, on the runtime's thread with the lock held: the
 * programs it compiles between tasks, on a context of its own that shares
 * the one context's objects.  take: the program compiled there for key,
 * or NULL (the key no longer queued) where it was not. */
CblurGpuProgram *cblur_gpu_compiler_take (CblurGpu    *gpu,
                                          const gchar *key);
/* a compile in a user's task, for cblur_gpu_caller_compiles() */
void     cblur_gpu_compiler_count_caller (void);
/* a program's first dispatch from a thread, for
 * cblur_gpu_caller_first_uses() where it is not a first use's on the
 * runtime's thread */
void     cblur_gpu_compiler_count_first_use (void);
/* before the context goes: the thread's work and its context go first */
void     cblur_gpu_compiler_stop   (CblurGpu  *gpu);
/* at exit: no more GL on the thread, waiting until deadline for the
 * program it compiles */
void     cblur_gpu_compiler_quiesce (gint64    deadline);
/* in a forked child: forgets the parent's thread without touching it */
void     cblur_gpu_start_forget    (void);

/* cblur-gpu-lifetime.c, thread-safe and without the lock: whether the
 * context exists, and what it runs on */
gboolean cblur_gpu_lifetime_made   (gboolean  *is_software);

/* cblur-gpu-pinned.c: the context goes, and the idle buffers with it */
void     cblur_gpu_pinned_forget   (CblurGpu  *gpu);
/* with the context current: the idle buffers are deleted */
void     cblur_gpu_pinned_trim     (CblurGpu  *gpu);

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
/* CBLUR_GL_FAULT=slow: the context's making takes this long longer, as a
 * driver's first load does */
gint64   cblur_gpu_fault_delay_us  (void);

G_END_DECLS

#endif
