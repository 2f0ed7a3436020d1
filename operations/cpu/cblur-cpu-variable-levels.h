/* The CPU's levels of the variable blur (cblur-variable.h): each uniform
 * level a pixel of the band needs, made from the source on its reduced
 * grid, blurred by the Gaussian blur's box passes and blended into the
 * base's result by each pixel's sigma.  Threaded through GEGL's parallel
 * helpers; call from one thread at a time per image. */
#ifndef CBLUR_CPU_VARIABLE_LEVELS_H
#define CBLUR_CPU_VARIABLE_LEVELS_H

#include <gegl.h>

#include "cblur-image.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

/* src as cblur_cpu_variable_blur() takes it, beyond which abyss makes the
 * pixels; masks: the mask value of each pixel of blended, row after row;
 * blended: premultiplied RGBA float, the base's result, into which each
 * pixel's levels are blended in place. */
void     cblur_cpu_variable_levels       (const CblurVariable *variable,
                                          const CblurImage    *src,
                                          GeglAbyssPolicy      abyss,
                                          const gfloat        *masks,
                                          const CblurImage    *blended);

G_END_DECLS

#endif
