/* The CPU's levels of the variable blur (cblur-variable.h): each uniform
 * level a pixel of the band needs, made from the source on its reduced
 * grid (threaded through GEGL's parallel helpers), blurred by the
 * Gaussian blur's box passes, and blended into the base's result by
 * each pixel's sigma, a strip of columns at a time. */
#ifndef CBLUR_CPU_VARIABLE_LEVELS_H
#define CBLUR_CPU_VARIABLE_LEVELS_H

#include <gegl.h>

#include "cblur-image.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

/* The levels of dst's pixels, made. */
typedef struct _CblurCpuVariableLevels CblurCpuVariableLevels;

/* src and boxes as cblur_cpu_variable_blur() takes them, beyond which
 * abyss makes the pixels; masks: those of dst's pixels, with levels to
 * blend (most at least 0); dst: the output, whose rectangle the levels
 * are made around.  src, boxes, masks and dst outlive the levels. */
CblurCpuVariableLevels *cblur_cpu_variable_levels_new   (const CblurVariable      *variable,
                                                         const CblurImage         *src,
                                                         const CblurVariableBoxes *boxes,
                                                         GeglAbyssPolicy           abyss,
                                                         const CblurVariableMasks *masks,
                                                         const CblurImage         *dst);
/* The levels blended into columns [x, x + columns) of dst's pixels, all
 * rows: pixels holds the base's results there, premultiplied RGBA float,
 * rows stride floats apart.  Any thread, the levels shared. */
void                    cblur_cpu_variable_levels_blend (const CblurCpuVariableLevels *levels,
                                                         gint                          x,
                                                         gint                          columns,
                                                         gfloat                       *pixels,
                                                         gsize                         stride);
void                    cblur_cpu_variable_levels_free  (CblurCpuVariableLevels *levels);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CblurCpuVariableLevels, cblur_cpu_variable_levels_free)

G_END_DECLS

#endif
