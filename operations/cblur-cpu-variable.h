/* The CPU backend of the variable blur: rows, then columns, through the
 * variable line passes, threaded through GEGL's parallel helpers. */
#ifndef CBLUR_CPU_VARIABLE_H
#define CBLUR_CPU_VARIABLE_H

#include "cblur-image.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

/* src: dst's rectangle grown by variable->reach on every side, in
 * premultiplied RGBA float, the abyss already in it; widths: the box of
 * every pixel of src, row after row (cblur_variable_widths).  dst:
 * premultiplied RGBA float.  Call from one thread at a time per dst. */
void cblur_cpu_variable_blur (const CblurVariable *variable,
                              const CblurImage    *src,
                              const CblurBoxWidth *widths,
                              const CblurImage    *dst);

G_END_DECLS

#endif
