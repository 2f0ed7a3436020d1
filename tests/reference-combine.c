/* GEGL's Sharpen (Unsharp Mask), High Pass and Difference of Gaussians in
 * double precision, each point operation of GEGL's graphs in turn in the
 * format GEGL's operation computes in, written from docs/design.md. */

#include "reference.h"

#include <math.h>

/* babl's sRGB luminance (its D50-adapted primaries) */
static const gdouble luminance[3] = { 0.22248840, 0.71690369, 0.06060791 };

#define ALPHA_FLOOR (1.0 / 65536.0)

static gdouble
divisor (gdouble alpha)
{
  return fabs (alpha) <= ALPHA_FLOOR ? ALPHA_FLOOR : alpha;
}

static const gdouble *
pixel (const RefImage *image,
       gsize           i)
{
  return image->data + 4 * i;
}

static gdouble
encode (gdouble v)
{
  gdouble m = fabs (v);

  return copysign (m <= 0.0031308 ? 12.92 * m : 1.055 * pow (m, 1.0 / 2.4) - 0.055, v);
}

static gdouble
decode (gdouble v)
{
  gdouble m = fabs (v);

  return copysign (m <= 0.04045 ? m / 12.92 : pow ((m + 0.055) / 1.055, 2.4), v);
}

static gdouble
gamma_op (gdouble v,
          gdouble exponent)
{
  return v >= 0.0 ? pow (v, exponent) : -pow (-v, exponent);
}

/* gegl:threshold's mask of |source - blurred| × 2, in Y', as premultiplied
 * white or black with the source's alpha */
static RefImage *
threshold_mask (const RefImage *src,
                const RefImage *blurred,
                gdouble         threshold,
                gdouble        *margin)
{
  RefImage *mask = ref_image_new (src->width, src->height);
  gsize     i, n = (gsize) src->width * src->height;

  mask->abyss = src->abyss;
  if (margin != NULL)
    *margin = G_MAXDOUBLE;
  for (i = 0; i < n; i++)
    {
      const gdouble *s = pixel (src, i), *b = pixel (blurred, i);
      gdouble        y = 0.0, white;
      gint           c;

      for (c = 0; c < 3; c++)
        y += luminance[c] * 2.0 * fabs (s[c] / divisor (s[3]) - b[c] / divisor (b[3]));
      white = encode (y) >= threshold ? 1.0 : 0.0;
      if (margin != NULL)
        *margin = MIN (*margin, fabs (encode (y) - threshold));
      for (c = 0; c < 3; c++)
        mask->data[4 * i + c] = white * s[3];
      mask->data[4 * i + 3] = s[3];
    }
  return mask;
}

RefImage *
ref_unsharp_mask (const RefImage *src,
                  gdouble         radius,
                  gdouble         amount,
                  gdouble         threshold,
                  gdouble        *margin)
{
  g_autoptr (RefImage) blurred = ref_blur_direct (src, radius);
  g_autoptr (RefImage) mask = NULL;
  RefImage            *out = ref_image_new (src->width, src->height);
  gsize                i, n = (gsize) src->width * src->height;

  if (threshold > 0.0001)
    {
      g_autoptr (RefImage) thresholded = threshold_mask (src, blurred, threshold, margin);

      mask = ref_blur_direct (thresholded, 3.0);
    }
  for (i = 0; i < n; i++)
    {
      const gdouble *s = pixel (src, i), *b = pixel (blurred, i);
      gint           c;

      for (c = 0; c < 3; c++)
        {
          gdouble value = s[c] / divisor (s[3]);
          gdouble weight = mask != NULL ? pixel (mask, i)[c] / divisor (pixel (mask, i)[3]) : 1.0;

          out->data[4 * i + c] =
            (value + amount * weight * (value - b[c] / divisor (b[3]))) * divisor (s[3]);
        }
      out->data[4 * i + 3] = s[3];
    }
  return out;
}

RefImage *
ref_high_pass (const RefImage *src,
               gdouble         radius,
               gdouble         contrast)
{
  g_autoptr (RefImage) blurred = ref_blur_direct (src, radius);
  RefImage            *out = ref_image_new (src->width, src->height);
  gsize                i, n = (gsize) src->width * src->height;

  for (i = 0; i < n; i++)
    {
      const gdouble *s = pixel (src, i), *b = pixel (blurred, i);
      gdouble        aux_alpha = 0.5 * b[3];   /* gegl:opacity 0.5 */
      gdouble        alpha = aux_alpha + s[3] - aux_alpha * s[3];   /* gegl:over */
      gint           c;

      for (c = 0; c < 3; c++)
        {
          gdouble inverted = 1.0 - encode (b[c] / divisor (b[3]));   /* gegl:invert-gamma */
          gdouble over = inverted * aux_alpha +
                         encode (s[c] / divisor (s[3])) * s[3] * (1.0 - aux_alpha);
          gdouble linear = decode (over / divisor (alpha));
          gdouble spread = (gamma_op (linear, 0.4545) - 0.5) * contrast + 0.5;

          out->data[4 * i + c] = gamma_op (spread, 2.2) * divisor (alpha);
        }
      out->data[4 * i + 3] = alpha;
    }
  return out;
}

RefImage *
ref_difference_of_gaussians (const RefImage *src,
                             gdouble         radius1,
                             gdouble         radius2)
{
  g_autoptr (RefImage) first = ref_blur_direct (src, radius1);
  g_autoptr (RefImage) second = ref_blur_direct (src, radius2);
  RefImage            *out = ref_image_new (src->width, src->height);
  gsize                i, n = (gsize) src->width * src->height;

  for (i = 0; i < n; i++)
    {
      const gdouble *a = pixel (first, i), *b = pixel (second, i);
      gint           c;

      for (c = 0; c < 3; c++)
        out->data[4 * i + c] = (a[c] / divisor (a[3]) - b[c] / divisor (b[3])) * divisor (a[3]);
      out->data[4 * i + 3] = a[3];
    }
  return out;
}
