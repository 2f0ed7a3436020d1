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

G_END_DECLS

#endif
