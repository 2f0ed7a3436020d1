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

/* pixel x of row y, both counted from the image's first pixel */
static inline gfloat *
cblur_image_pixel (const CblurImage *image,
                   gint              x,
                   gint              y)
{
  return cblur_image_row (image, y) + (gsize) x * CBLUR_CHANNELS;
}

G_END_DECLS

#endif
