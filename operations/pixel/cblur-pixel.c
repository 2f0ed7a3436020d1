#include "cblur-pixel.h"

#include <math.h>
#include <string.h>

#include "cblur-parallel.h"

void
cblur_premultiply_pixels (gfloat *pixels,
                          gsize   n_pixels)
{
  gsize i;

  for (i = 0; i < n_pixels; i++)
    {
      gfloat    *at = pixels + i * CBLUR_CHANNELS;
      CblurPixel pixel;

      memcpy (&pixel, at, sizeof pixel);   /* pixels need not be 16-byte aligned */
      pixel = cblur_premultiplied (pixel);
      memcpy (at, &pixel, sizeof pixel);
    }
}

static void
premultiply_rows (gsize    first,
                  gsize    n_rows,
                  gpointer user_data)
{
  const CblurImage *image = user_data;
  gsize             row;

  for (row = first; row < first + n_rows; row++)
    cblur_premultiply_pixels (cblur_image_row (image, row), image->width);
}

void
cblur_premultiply (const CblurImage *image)
{
  /* a thread is worth a few thousand pixels */
  cblur_parallel_distribute_range (image->height, 4096.0 / (image->width + 1),
                                   premultiply_rows, (gpointer) image);
}

void
cblur_abyss_colour (GeglAbyssPolicy policy,
                    gfloat          colour[CBLUR_CHANNELS])
{
  gfloat level = policy == GEGL_ABYSS_WHITE ? 1.0f : 0.0f;
  gfloat alpha = policy == GEGL_ABYSS_BLACK || policy == GEGL_ABYSS_WHITE ? 1.0f : 0.0f;

  colour[0] = colour[1] = colour[2] = level;
  colour[3] = alpha;
}
