/* A rectangle of premultiplied linear RGBA float pixels, as both backends
 * read and write it, or of pixels as GEGL stores them, which the backends
 * convert as they go. x and y are the absolute image coordinates
 * of the first pixel: the box filter aligns its running sums to them. */
#ifndef CBLUR_IMAGE_H
#define CBLUR_IMAGE_H

#include <glib.h>

#include "cblur-format.h"

G_BEGIN_DECLS

#define CBLUR_CHANNELS 4

typedef struct
{
  gfloat            *data;
  gint               x;
  gint               y;
  gint               width;
  gint               height;
  gsize              stride;   /* floats (4-byte words) from one row to the next */
  /* NULL: RGBA float, premultiplied (or straight where io says);
   * else pixels as stored in this format, straight */
  const CblurFormat *format;
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

static inline gsize
cblur_image_pixel_bytes (const CblurImage *image)
{
  return image->format != NULL ? (gsize) image->format->bytes_per_pixel
                               : CBLUR_CHANNELS * sizeof (gfloat);
}

/* the stride of rows as tightly packed as whole words allow */
static inline gsize
cblur_image_packed_stride (const CblurImage *image)
{
  return ((gsize) image->width * cblur_image_pixel_bytes (image) + sizeof (gfloat) - 1) /
         sizeof (gfloat);
}

/* pixel x of row y, in any format */
static inline guint8 *
cblur_image_bytes (const CblurImage *image,
                   gint              x,
                   gint              y)
{
  return (guint8 *) cblur_image_row (image, y) + (gsize) x * cblur_image_pixel_bytes (image);
}

G_END_DECLS

#endif
