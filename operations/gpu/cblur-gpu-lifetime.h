/* The life of the one context (cblur-gpu-lifetime.c): the GL lock, the
 * context acquired and released on the runtime's thread, its release once
 * idle, and what becomes of it when the host forks or exits.  Nothing
 * outside cblur-gpu-*.c includes it. */
#ifndef CBLUR_GPU_LIFETIME_H
#define CBLUR_GPU_LIFETIME_H

#include "cblur-gpu-context.h"

G_BEGIN_DECLS

/* On the runtime's thread: the lock that guards the context's state
 * against the thread-safe functions' reads; with it held, the context
 * made current, made where there is none, or NULL where there is no GL
 * 4.3 context, in a forked child, once the process exits, or after a
 * failure while pinned buffers are still out; and let go again, or
 * destroyed where it has failed and no pinned buffer is out. */
void      cblur_gpu_lock    (void);
void      cblur_gpu_unlock  (void);
CblurGpu *cblur_gpu_acquire (GError   **error);
void      cblur_gpu_release (CblurGpu  *gpu);
/* with the lock held: the one context's state, made or not */
CblurGpu *cblur_gpu_lifetime_context (void);

/* Thread-safe and without the lock: whether the context exists, and what
 * it runs on. */
gboolean  cblur_gpu_lifetime_made   (gboolean  *is_software);
/* Thread-safe: TRUE, with the reason, in a forked child and once the
 * process has begun to exit, where no GL may run. */
gboolean  cblur_gpu_lifetime_refuse (GError   **error);

G_END_DECLS

#endif
