/* The runtime's compiler (cblur-gpu-compiler.c): programs compiled on the
 * runtime's thread between calls, on a context of its own that shares
 * the one context's objects.  Nothing outside cblur-gpu-*.c includes it. */
#ifndef CBLUR_GPU_COMPILER_H
#define CBLUR_GPU_COMPILER_H

#include "cblur-gpu.h"

G_BEGIN_DECLS

/* with the thread's mutex held: whether a batch is due (queued programs
 * and a context to compile them on), whether one compiles now, whether
 * any program is queued that does not wait for a pause in the calls, and
 * whether any that does waits */
gboolean cblur_gpu_compiler_due     (void);
gboolean cblur_gpu_compiler_busy    (void);
gboolean cblur_gpu_compiler_queued  (void);
gboolean cblur_gpu_compiler_waiting (void);
/* with the thread's mutex held: whether a batch has linked programs that
 * waited for a pause (cblur_gpu_program_linked); forget: till the next */
gboolean cblur_gpu_compiler_upgraded (gboolean forget);
/* with nothing held: the program queued, as cblur_gpu_prepare() does, or
 * where `waits`, to compile only once the calls pause, as
 * cblur_gpu_program_linked() does */
gboolean cblur_gpu_compiler_queue   (CblurGpu    *gpu,
                                     const gchar *name,
                                     const gchar *source,
                                     const gchar *defines,
                                     const gchar *prelude,
                                     gboolean     waits);
/* with the GL lock held: what the compiler has linked, in the cache */
void     cblur_gpu_compiler_collect (CblurGpu   *gpu);
/* with the GL lock held: the program the compiler linked for key, now in
 * the cache, or NULL, the key no longer queued, where it did not */
CblurGpuProgram *cblur_gpu_compiler_take (CblurGpu    *gpu,
                                          const gchar *key);
/* before the context goes: what is queued or linked goes, and the
 * compiler's context with it */
void     cblur_gpu_compiler_stop    (CblurGpu *gpu);
/* at exit: nothing more is compiled, and the batch compiling is waited
 * for until deadline */
void     cblur_gpu_compiler_quiesce (gint64    deadline);

G_END_DECLS

#endif
