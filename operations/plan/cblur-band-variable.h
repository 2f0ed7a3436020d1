/* The variable blur's band (CblurBlurBand): its source's rows, grown by
 * the reach, and the boxes of their pixels, made from the mask on the
 * aux pad as the rows come, read on GEGL's threads; blurred on the
 * backend with the fallback to the CPU (cblur-backend-variable.h); its
 * rows written back.  The blur's data: a CblurVariableBlur, made once a
 * region on the loop's thread. */
#ifndef CBLUR_BAND_VARIABLE_H
#define CBLUR_BAND_VARIABLE_H

#include "cblur-blur.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

typedef struct
{
  CblurVariable variable;
  /* where the mask is stored a byte a pixel and read at full size, the
   * value and the box of each byte (cblur_variable_blur_init), else no
   * table */
  gfloat        grey[256];
  CblurBoxWidth table[256];
  gboolean      has_table;
  /* levels that hold the upper of every pixel the region reads, most -1
   * for none (cblur_variable_levels_of()) */
  gint          least;
  gint          most;
} CblurVariableBlur;

/* The blur of radius (σ where the mask is white) and iterations at
 * level, its mask read from aux in the aux pad's format: uniform where
 * the mask that result's blur reads has one σ. */
void     cblur_variable_blur_init  (CblurVariableBlur   *blur,
                                    gdouble              radius,
                                    gint                 iterations,
                                    GeglOperation       *operation,
                                    GeglBuffer          *aux,
                                    const GeglRectangle *result,
                                    gint                 level);

gboolean cblur_blur_band_variable  (const CblurBlur     *blur,
                                    CblurBackendKind     backend,
                                    const GeglRectangle *band,
                                    CblurRegionIo       *io,
                                    CblurRunReport      *report);

G_END_DECLS

#endif
