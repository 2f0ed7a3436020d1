/* A rectangle of premultiplied linear RGBA float pixels, as both backends
 * read and write it. x and y are the absolute image coordinates of the
 * first pixel: the box filter aligns its running sums to them. */
#ifndef CBLUR_IMAGE_H
#define CBLUR_IMAGE_H

#include <glib.h>

G_BEGIN_DECLS

#define CBLUR_CHANNELS 4

typedef struct
{
  gfloat *data;
  gint    x;
  gint    y;
  gint    width;
  gint    height;
  gsize   stride;   /* floats from one row to the next */
} CblurImage;

static inline gfloat *
cblur_image_row (const CblurImage *image,
                 gint              row)
{
  return image->data + (gsize) row * image->stride;
}

G_END_DECLS

#endif
