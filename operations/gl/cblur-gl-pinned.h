/* GL work on images anywhere in memory, copied through pinned memory of
 * the call's own (cblur-gl-blur.c): what a band's blur and a blur joined
 * with its source share.  On the runtime's thread, as cblur-gl-internal.h. */
#ifndef CBLUR_GL_PINNED_H
#define CBLUR_GL_PINNED_H

#include "cblur-gl-internal.h"

G_BEGIN_DECLS

/* cblur-gl-blur.c: run's GL work on src and dst, anywhere in memory,
 * copied through pinned memory of the call's own (memory's), into which
 * src and dst are pointed */
typedef gboolean (*CblurGlHeldRun) (CblurGl                 *gl,
                                    const CblurGlBandMemory *memory,
                                    const CblurImage        *src,
                                    const CblurImage        *dst,
                                    gconstpointer            data,
                                    CblurGlReport           *report,
                                    GError                 **error);
G_GNUC_INTERNAL gboolean     cblur_gl_pinned_run       (CblurGl             *gl,
                                                        const CblurImage    *src,
                                                        const CblurImage    *dst,
                                                        CblurGlHeldRun       run,
                                                        gconstpointer        data,
                                                        CblurGlReport       *report,
                                                        GError             **error);
/* cblur-gl-blur.c: the same on src and dst without pixels, which it
 * points at pinned memory of their own; what that takes stays for the
 * next band of the same geometry, the pixels of no use */
G_GNUC_INTERNAL gboolean     cblur_gl_pinned_rehearse  (CblurGl             *gl,
                                                        CblurImage          *src,
                                                        CblurImage          *dst,
                                                        CblurGlHeldRun       run,
                                                        gconstpointer        data,
                                                        GError             **error);

G_END_DECLS

#endif
