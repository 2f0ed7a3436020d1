/* GEGL's graphs of point operations, each step in the format its
 * operation converts to: the subtract, multiply and add of GEGL's math
 * operations in straight linear RGBA ("RGBA float"), its threshold in Y',
 * its over in premultiplied sRGB-curved RGBA ("R~aG~aB~aA float"). */

#include "config.h"

#include <math.h>

#include "cblur-combine.h"
#include "cblur-pixel.h"

/* gegl:high-pass's gammas about its contrast */
#define GAMMA_DOWN 0.4545f
#define GAMMA_UP   2.2f

/* GEGL's gamma operation: a power, odd about 0 */
static gfloat
signed_power (gfloat value,
              gfloat exponent)
{
  return value >= 0.0f ? powf (value, exponent) : -powf (-value, exponent);
}

/* the sRGB curve babl's "~" formats use, odd about 0 */
static gfloat
srgb_from_linear (gfloat value)
{
  gfloat magnitude = fabsf (value);
  gfloat encoded = magnitude <= 0.0031308f ? 12.92f * magnitude
                                           : 1.055f * powf (magnitude, 1.0f / 2.4f) - 0.055f;

  return copysignf (encoded, value);
}

/* the sRGB curve's inverse raised to exponent, odd about 0: GEGL's
 * gamma operation after babl's decoding, in one power */
static gfloat
srgb_to_linear_power (gfloat value,
                      gfloat exponent)
{
  gfloat magnitude = fabsf (value);
  gfloat power = magnitude <= 0.04045f ? powf (magnitude / 12.92f, exponent)
                                       : powf ((magnitude + 0.055f) / 1.055f, 2.4f * exponent);

  return copysignf (power, value);
}

/* channel c of a premultiplied pixel in straight alpha, as babl
 * unpremultiplies */
static gfloat
straight (const gfloat *pixel,
          gint          c)
{
  return pixel[c] * (1.0f / cblur_used_alpha (pixel[3]));
}

void
cblur_combine_threshold (const gfloat         *source,
                         const gfloat         *blurred,
                         const CblurThreshold *threshold,
                         gsize                 n,
                         gfloat               *out)
{
  gsize i;

  for (i = 0; i < n; i++, source += 4, blurred += 4, out += 2)
    {
      gfloat luminance = 0.0f;
      gfloat white;
      gint   c;

      for (c = 0; c < 3; c++)
        luminance += threshold->luminance[c] *
                     (2.0f * fabsf (straight (source, c) - straight (blurred, c)));
      white = luminance >= threshold->threshold ? 1.0f : 0.0f;
      out[0] = white * cblur_used_alpha (source[3]);
      out[1] = source[3];
    }
}

void
cblur_combine_mask_blur (const gfloat *const *lines,
                         const gfloat        *weights,
                         gint                 reach,
                         gsize                n,
                         gfloat              *out)
{
  gsize i;

  for (i = 0; i < n * 2; i++)
    {
      gfloat sum = weights[0] * lines[reach][i];
      gint   k;

      for (k = 1; k <= reach; k++)
        sum += weights[k] * (lines[reach - k][i] + lines[reach + k][i]);
      out[i] = sum;
    }
}

void
cblur_combine_unsharp (const gfloat *source,
                       const gfloat *blurred,
                       const gfloat *mask,
                       gfloat        amount,
                       gsize         n,
                       gfloat       *out)
{
  gsize i;

  for (i = 0; i < n; i++, source += 4, blurred += 4, out += 4)
    {
      gfloat alpha = cblur_used_alpha (source[3]);
      gfloat weight = mask != NULL ? mask[0] * (1.0f / cblur_used_alpha (mask[1])) : 1.0f;
      gint   c;

      for (c = 0; c < 3; c++)
        {
          gfloat value = straight (source, c);
          gfloat difference = value - straight (blurred, c);

          out[c] = (amount * (difference * weight) + value) * alpha;
        }
      out[3] = source[3];
      if (mask != NULL)
        mask += 2;
    }
}

void
cblur_combine_high_pass (const gfloat *source,
                         const gfloat *blurred,
                         gfloat        contrast,
                         gsize         n,
                         gfloat       *out)
{
  gsize i;

  for (i = 0; i < n; i++, source += 4, blurred += 4, out += 4)
    {
      gfloat alpha = source[3];
      gfloat over = 0.5f * blurred[3];   /* the inverted blur's alpha at half opacity */
      gfloat result_alpha = over + alpha - over * alpha;
      gint   c;

      for (c = 0; c < 3; c++)
        {
          gfloat inverted = 1.0f - srgb_from_linear (straight (blurred, c));
          gfloat curved = inverted * over +
                          srgb_from_linear (straight (source, c)) * alpha * (1.0f - over);
          gfloat straight_curved = curved * (1.0f / cblur_used_alpha (result_alpha));
          gfloat value;

          /* at contrast 1 the two gammas meet in one power */
          if (contrast == 1.0f)
            value = srgb_to_linear_power (straight_curved, GAMMA_DOWN * GAMMA_UP);
          else
            value = signed_power ((srgb_to_linear_power (straight_curved, GAMMA_DOWN) - 0.5f) *
                                  contrast + 0.5f, GAMMA_UP);
          out[c] = value * cblur_used_alpha (result_alpha);
        }
      out[3] = result_alpha;
    }
}

void
cblur_combine_difference (const gfloat *first,
                          const gfloat *second,
                          gsize         n,
                          gfloat       *out)
{
  gsize i;

  for (i = 0; i < n; i++, first += 4, second += 4, out += 4)
    {
      gint c;

      for (c = 0; c < 3; c++)
        out[c] = (straight (first, c) - straight (second, c)) * cblur_used_alpha (first[3]);
      out[3] = first[3];
    }
}
