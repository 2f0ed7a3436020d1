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

/* src and boxes as cblur_cpu_variable_blur() takes them, beyond which
 * abyss makes the pixels; masks: those of blended's pixels, with levels
 * to blend (most at least 0); blended: premultiplied RGBA float, the
 * base's result; dst: blended's pixels with their levels blended in,
 * encoded to its format, or blended itself, blended in place, where dst
 * has none. */
void     cblur_cpu_variable_levels       (const CblurVariable      *variable,
                                          const CblurImage         *src,
                                          const CblurVariableBoxes *boxes,
                                          GeglAbyssPolicy           abyss,
                                          const CblurVariableMasks *masks,
                                          const CblurImage         *blended,
                                          const CblurImage         *dst);

G_END_DECLS

#endif
