/* The CPU backend of the variable blur: rows, then columns, through the
 * variable line passes, threaded through GEGL's parallel helpers. */
#ifndef CBLUR_CPU_VARIABLE_H
#define CBLUR_CPU_VARIABLE_H

#include "cblur-image.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

/* src: dst's rectangle grown by variable->reach on every side, in
 * premultiplied RGBA float, the abyss already in it; widths: the box of
 * every pixel of src, row after row (cblur_variable_widths).  Only src's
 * rows [top, bottom) are read, with their boxes: the rows above and below
 * repeat row top and row bottom - 1, pixels and boxes alike, as under
 * GEGL's clamp abyss with the mask clamped too (0 and src->height where
 * every row is src's own).  dst: premultiplied RGBA float.  Call from one
 * thread at a time per dst. */
void cblur_cpu_variable_blur (const CblurVariable *variable,
                              const CblurImage    *src,
                              const CblurBoxWidth *widths,
                              gint                 top,
                              gint                 bottom,
                              const CblurImage    *dst);

G_END_DECLS

#endif
