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

/* How a band's pixels come and go: `read` fills rows of the source and
 * `write` hands on rows of the output, each as early as the backend can,
 * so that GEGL's side overlaps the GPU's.  NULL members, or no stream, for
 * images that are filled already and need not be handed on. */
typedef struct
{
  void     (*read)  (const CblurImage *src,
                     gint              first_row,
                     gint              n_rows,
                     gpointer          user_data);
  void     (*write) (const CblurImage *dst,
                     gint              first_row,
                     gint              n_rows,
                     gpointer          user_data);
  gpointer   user_data;
} CblurStream;

static inline gfloat *
cblur_image_row (const CblurImage *image,
                 gint              row)
{
  return image->data + (gsize) row * image->stride;
}

static inline void
cblur_stream_read (const CblurStream *stream,
                   const CblurImage  *src,
                   gint               first_row,
                   gint               n_rows)
{
  if (stream != NULL && stream->read != NULL && n_rows > 0)
    stream->read (src, first_row, n_rows, stream->user_data);
}

static inline void
cblur_stream_write (const CblurStream *stream,
                    const CblurImage  *dst,
                    gint               first_row,
                    gint               n_rows)
{
  if (stream != NULL && stream->write != NULL && n_rows > 0)
    stream->write (dst, first_row, n_rows, stream->user_data);
}

G_END_DECLS

#endif
