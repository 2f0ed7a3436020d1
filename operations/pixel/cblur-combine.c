/* GEGL's graphs of point operations, each step in the format its
 * operation converts to: the subtract, multiply and add of GEGL's math
 * operations in straight linear RGBA ("RGBA float"), its threshold in Y',
 * its over in premultiplied sRGB-curved RGBA ("R~aG~aB~aA float"). */

#include "config.h"

#include <math.h>
#include <string.h>

#include "cblur-combine.h"
#include "cblur-pixel.h"
#include "cblur-power.h"
#include "cblur-srgb.h"
#include "cblur-vectors.h"

/* gegl:high-pass's gammas about its contrast */
#define GAMMA_DOWN 0.4545f
#define GAMMA_UP   2.2f

/* GEGL's gamma operation: a power, odd about 0 */
static gfloat
signed_power (gfloat value,
              gfloat exponent)
{
  return copysignf (cblur_power (fabsf (value), exponent), value);
}

/* the sRGB curve babl's "~" formats use, odd about 0 */
static gfloat
srgb_from_linear (gfloat value)
{
  return copysignf (cblur_srgb_encode (fabsf (value)), value);
}

/* the sRGB curve's inverse raised to exponent, odd about 0: GEGL's
 * gamma operation after babl's decoding, in one power */
static gfloat
srgb_to_linear_power (gfloat value,
                      gfloat exponent)
{
  gfloat   magnitude = fabsf (value);
  gboolean toe = magnitude <= CBLUR_SRGB_DECODE_KNEE;

  return copysignf (cblur_power (toe ? magnitude * (1.0f / 12.92f)
                                     : (magnitude + 0.055f) * (1.0f / 1.055f),
                                 toe ? exponent : 2.4f * exponent),
                    value);
}

/* a pixel of a line, and a pixel into one, as a vector */
static inline CblurPixel
load_pixel (const gfloat *pixel)
{
  CblurPixel vector;

  memcpy (&vector, pixel, sizeof vector);
  return vector;
}

static inline void
store_pixel (gfloat     *pixel,
             CblurPixel  vector)
{
  memcpy (pixel, &vector, sizeof vector);
}

/* a premultiplied pixel in straight alpha, as babl unpremultiplies
 * (its alpha then a number of no use) */
static inline CblurPixel
straight_pixel (CblurPixel pixel)
{
  return pixel * (1.0f / cblur_used_alpha (pixel[3]));
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
      CblurPixel difference = straight_pixel (load_pixel (source)) -
                              straight_pixel (load_pixel (blurred));
      gfloat     luminance = 0.0f;
      gfloat     white;
      gint       c;

      for (c = 0; c < 3; c++)
        luminance += threshold->luminance[c] * (2.0f * fabsf (difference[c]));
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
      CblurPixel s = load_pixel (source);
      gfloat     alpha = cblur_used_alpha (s[3]);
      gfloat     weight = mask != NULL ? mask[2 * i] * (1.0f / cblur_used_alpha (mask[2 * i + 1]))
                                       : 1.0f;
      CblurPixel value = straight_pixel (s);
      CblurPixel difference = value - straight_pixel (load_pixel (blurred));
      CblurPixel result = (amount * (difference * weight) + value) * alpha;

      result[3] = s[3];
      store_pixel (out, result);
    }
}

/* a block's pixels at a time, their channels laid out in planes one
 * after another, so that the powers' loop runs in vectors */
#define HIGH_PASS_BLOCK 128

/* one channel of a pixel in the sRGB curve, straight: the inverted blur
 * at opacity over on the source of alpha, divided by the result's used
 * alpha */
static inline gfloat
high_pass_curved (gfloat source,
                  gfloat blurred,
                  gfloat alpha,
                  gfloat over,
                  gfloat used_alpha)
{
  gfloat curved = (1.0f - srgb_from_linear (blurred)) * over +
                  srgb_from_linear (source) * alpha * (1.0f - over);

  return curved * (1.0f / used_alpha);
}

/* m samples, then the contrast about 0.5 in GEGL's gammas: at contrast 1
 * the two gammas meet in one power */
CBLUR_WIDEST_VECTORS static void
high_pass_samples (const gfloat *source,
                   const gfloat *blurred,
                   const gfloat *alpha,
                   const gfloat *over,
                   const gfloat *used_alpha,
                   gfloat        contrast,
                   gsize         m,
                   gfloat       *out)
{
  gsize j;

  if (contrast == 1.0f)
    for (j = 0; j < m; j++)
      {
        gfloat curved = high_pass_curved (source[j], blurred[j], alpha[j], over[j],
                                          used_alpha[j]);

        out[j] = srgb_to_linear_power (curved, GAMMA_DOWN * GAMMA_UP) * used_alpha[j];
      }
  else
    for (j = 0; j < m; j++)
      {
        gfloat curved = high_pass_curved (source[j], blurred[j], alpha[j], over[j],
                                          used_alpha[j]);
        gfloat down = srgb_to_linear_power (curved, GAMMA_DOWN);

        out[j] = signed_power ((down - 0.5f) * contrast + 0.5f, GAMMA_UP) * used_alpha[j];
      }
}

void
cblur_combine_high_pass (const gfloat *source,
                         const gfloat *blurred,
                         gfloat        contrast,
                         gsize         n,
                         gfloat       *out)
{
  gfloat planes[6][3 * HIGH_PASS_BLOCK];
  gsize  start;

  for (start = 0; start < n; start += HIGH_PASS_BLOCK)
    {
      gsize count = MIN (HIGH_PASS_BLOCK, n - start);
      gsize i, c;

      for (i = 0; i < count; i++)
        {
          CblurPixel s = load_pixel (source + 4 * (start + i));
          CblurPixel b = load_pixel (blurred + 4 * (start + i));
          CblurPixel s_straight = straight_pixel (s);
          CblurPixel b_straight = straight_pixel (b);
          gfloat     over = 0.5f * b[3];   /* the inverted blur's alpha at half opacity */
          gfloat     result_alpha = over + s[3] - over * s[3];

          out[4 * (start + i) + 3] = result_alpha;
          for (c = 0; c < 3; c++)
            {
              planes[0][c * count + i] = s_straight[c];
              planes[1][c * count + i] = b_straight[c];
              planes[2][c * count + i] = s[3];
              planes[3][c * count + i] = over;
              planes[4][c * count + i] = cblur_used_alpha (result_alpha);
            }
        }
      high_pass_samples (planes[0], planes[1], planes[2], planes[3], planes[4],
                         contrast, 3 * count, planes[5]);
      for (i = 0; i < count; i++)
        for (c = 0; c < 3; c++)
          out[4 * (start + i) + c] = planes[5][c * count + i];
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
      CblurPixel f = load_pixel (first);
      CblurPixel result = (straight_pixel (f) - straight_pixel (load_pixel (second))) *
                          cblur_used_alpha (f[3]);

      result[3] = f[3];
      store_pixel (out, result);
    }
}
