/* The runtime's compiler (cblur-gpu-compiler.c): programs compiled on the
 * runtime's thread between calls, on a context of its own that shares
 * the one context's objects.  Nothing outside cblur-gpu-*.c includes it. */
#ifndef CBLUR_GPU_COMPILER_H
#define CBLUR_GPU_COMPILER_H

#include "cblur-gpu.h"

G_BEGIN_DECLS

/* with the thread's mutex held: whether a batch is due (queued programs
 * and a context to compile them on), whether one compiles now, and
 * whether any program is queued */
gboolean cblur_gpu_compiler_due     (void);
gboolean cblur_gpu_compiler_busy    (void);
gboolean cblur_gpu_compiler_queued  (void);
/* before the context goes: what is queued or linked goes, and the
 * compiler's context with it */
void     cblur_gpu_compiler_stop    (CblurGpu *gpu);
/* at exit: nothing more is compiled, and the batch compiling is waited
 * for until deadline */
void     cblur_gpu_compiler_quiesce (gint64    deadline);

G_END_DECLS

#endif
