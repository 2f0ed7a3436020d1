/* GEGL's mipmap levels, as the ops see them: GEGL hands process() a
 * rectangle at level 0 and buffers read and written at `level`. */
#ifndef CBLUR_LEVEL_H
#define CBLUR_LEVEL_H

#include <gegl.h>

G_BEGIN_DECLS

/* rect, at level 0, in the pixels of `level` */
static inline GeglRectangle
cblur_rectangle_at_level (const GeglRectangle *rect,
                          gint                 level)
{
  GeglRectangle scaled;

  scaled.x = rect->x >> level;
  scaled.y = rect->y >> level;
  scaled.width = ((rect->x + rect->width) >> level) - scaled.x;
  scaled.height = ((rect->y + rect->height) >> level) - scaled.y;
  return scaled;
}

G_END_DECLS

#endif
