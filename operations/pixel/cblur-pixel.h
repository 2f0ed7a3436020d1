/* The pixel rules both backends follow, GEGL's and babl's: how straight
 * alpha is premultiplied and what colour the abyss has.  The GL shaders
 * take their constants from here too (cblur-gl-shaders.c writes them as
 * defines), so that the two backends cannot drift apart. */
#ifndef CBLUR_PIXEL_H
#define CBLUR_PIXEL_H

#include <math.h>
#include <gegl.h>

#include "cblur-image.h"

G_BEGIN_DECLS

/* babl's alpha floor: premultiplying RGBA float into RaGaBaA float, an
 * alpha within this of zero multiplies as this, so that a transparent
 * pixel holds a trace of its colour */
#define CBLUR_ALPHA_FLOOR (1.0f / 65536.0f)

/* the alpha that babl multiplies by, premultiplying, and divides by,
 * unpremultiplying (as 1.0f / it, then a product) */
static inline gfloat
cblur_used_alpha (gfloat alpha)
{
  return fabsf (alpha) <= CBLUR_ALPHA_FLOOR ? CBLUR_ALPHA_FLOOR : alpha;
}

/* One RGBA float pixel as a vector: the CPU's lines are addressed in
 * whole pixels, and loops over them vectorize as wide as the processor
 * allows. */
typedef gfloat CblurPixel __attribute__ ((vector_size (16)));

/* a straight pixel premultiplied, alpha untouched */
static inline CblurPixel
cblur_premultiplied (CblurPixel pixel)
{
  CblurPixel product = pixel * cblur_used_alpha (pixel[3]);

  product[3] = pixel[3];
  return product;
}

/* straight-alpha pixels premultiplied in place, bit for bit as babl
 * turns RGBA float into RaGaBaA float: n_pixels of them, or an image's */
void cblur_premultiply_pixels (gfloat           *pixels,
                               gsize             n_pixels);
void cblur_premultiply        (const CblurImage *image);

/* Where, under the policy, index i of a run of n pixels (0 to n - 1)
 * takes its pixel from, as GEGL's abyss does: i inside, the nearest end
 * under clamp, the repeat under loop; -1 where it has the colour of none,
 * black or white. */
static inline gint
cblur_abyss_index (GeglAbyssPolicy policy,
                   gint64          i,
                   gint            n)
{
  if (i >= 0 && i < n)
    return i;
  if (policy == GEGL_ABYSS_CLAMP)
    return CLAMP (i, 0, n - 1);
  if (policy == GEGL_ABYSS_LOOP)
    return (i % n + n) % n;
  return -1;
}

/* The colour GEGL fills its abyss with under none, black and white, for
 * both backends to make; clamp and loop repeat pixels instead (black). */
void cblur_abyss_colour       (GeglAbyssPolicy   policy,
                               gfloat            colour[CBLUR_CHANNELS]);

G_END_DECLS

#endif
