/* The band loop every op's process runs: a region cut into bands of
 * whole rows, each blurred on the backend the choice gives it, the CPU
 * handing the rest of the region to the GPU between bands once that is
 * ready and predicted to finish it first; one report a band, filled
 * here, learned by the choice and logged.  On the op's thread (GEGL's
 * process); the backends thread the work themselves. */
#ifndef CBLUR_BAND_LOOP_H
#define CBLUR_BAND_LOOP_H

#include "cblur-blur.h"
#include "cblur-plan.h"

G_BEGIN_DECLS

/* Blurs GEGL's `result` (at level 0, as process() gets it) at `level`
 * from input (and aux, or NULL) into output, as the op's blur (the
 * CblurOpBlur it prepared with), which it described at level with its
 * data set.  FALSE, with a warning, where a band's memory cannot be
 * had. */
gboolean cblur_plan_blur_region (const CblurBlur     *blur,
                                 GeglOperation       *operation,
                                 GeglBuffer          *input,
                                 GeglBuffer          *aux,
                                 GeglBuffer          *output,
                                 const GeglRectangle *result,
                                 gint                 level);

G_END_DECLS

#endif
