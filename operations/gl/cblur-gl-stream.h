/* One tile streamed (cblur-gl-stream.c): its rows go up as GEGL's
 * threads read them, a blur's passes run on them as they come, and its
 * output comes down in lots that GEGL's threads write.  With the
 * runtime's lock held and its context current, as in
 * cblur-gl-internal.h. */
#ifndef CBLUR_GL_STREAM_H
#define CBLUR_GL_STREAM_H

#include "cblur-gl-internal.h"

G_BEGIN_DECLS

/* What a streamed tile's passes do as its rows come:
 * a blur's passes (`passes`) behind functions, so that the Gaussian's,
 * the variable blur's and the joined blurs' stream alike. */
typedef struct
{
  gconstpointer  passes;
  CblurGlStamps *stamps;
  gint           reach;    /* input rows a column pass reads beyond its outputs */
  gint           stripe;   /* output rows a column pass makes at once */
  /* horizontal, over input rows [first, first + n) inside the image,
   * counted from the first of them */
  void                  (*rows)    (gconstpointer      passes,
                                    const CblurGlTile *tile,
                                    gint               first,
                                    gint               n);
  /* vertical, for output rows [first, first + n); the texture that holds
   * them */
  const CblurGpuTexture *(*columns) (gconstpointer      passes,
                                     const CblurGlTile *tile,
                                     gint               first,
                                     gint               n);
  /* both, over the whole tile, where it cannot go in stripes; NULL for a
   * blur that streams only where it can (the variable blur: never under
   * loop's abyss, and its one stripe is the tile) */
  const CblurGpuTexture *(*whole)   (gconstpointer      passes,
                                     const CblurGlTile *tile);
} CblurGlStreamPasses;

/* One tile, streamed: run reads the tile's input, or its part inside the
 * image, from job's src; loop's abyss above the image (its bottom rows)
 * and a blur with no stripes (stripe 0) wait for all rows and go whole. */
G_GNUC_INTERNAL gboolean     cblur_gl_blur_streamed    (CblurGl                   *gl,
                                                        const CblurGlStreamPasses *passes,
                                                        const CblurGlJob          *job,
                                                        CblurStreamRun            *run,
                                                        const CblurGlTile         *tile,
                                                        GError                   **error);

G_END_DECLS

#endif
