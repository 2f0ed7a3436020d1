/* The conversions between the formats that cblur-format.c covers and the
 * blur's RGBA float: decoding with the curves' tables, encoding by their
 * thresholds (an identity curve by the rounding they stand for), bit for
 * bit babl's; 8-bit RGBA through cblur-format-lanes
 * where the processor has AVX2; half and float colours on the sRGB curve
 * through cblur-srgb.h. */
#include "cblur-format.h"

#include <string.h>

#include "cblur-pixel.h"
#include "cblur-vectors.h"
#include "cblur-srgb.h"

/* pixels converted at a time, through a block on the stack */
#define BLOCK_PIXELS 64

static inline __attribute__ ((always_inline)) void
store_code (guint8          *dst,
            guint            code,
            CblurSampleType  type)
{
  if (type == CBLUR_SAMPLE_U8)
    *dst = code;
  else
    {
      guint16 code16 = code;

      memcpy (dst, &code16, sizeof code16);
    }
}

/* An identity curve's codes: its thresholds are where babl's
 * double-precision value * max + 0.5 reaches each code, and that sum of a
 * float is exact in double precision, so that it rounds as they do
 * without a table. */
static inline __attribute__ ((always_inline)) void
encode_identity (const CblurCurve *curve,
                 const gfloat     *plane,
                 const guint32    *above,
                 guint8           *dst,
                 gint              step,
                 gsize             n_pixels,
                 CblurSampleType   type)
{
  gdouble max = curve->max;
  gint32  code[BLOCK_PIXELS];
  gsize   i;

  /* in a loop of its own, which the compiler vectorizes */
  for (i = 0; i < n_pixels; i++)
    code[i] = (gint32) (plane[i] * max + 0.5) + above[i];
  for (i = 0; i < n_pixels; i++)
    store_code (dst + i * step, code[i], type);
}

/* Encoding an integer plane goes in loops: the clamping, then an
 * identity curve's codes, or the buckets' indices, which the compiler
 * vectorizes, and their lookups. */
static inline __attribute__ ((always_inline)) void
encode_plane (const CblurCurve *curve,
              gfloat           *plane,
              guint8           *dst,
              gint              step,
              gsize             n_pixels,
              CblurSampleType   type)
{
  gfloat   low = curve->low, high = curve->high, top = curve->thresholds[curve->max];
  guint32  shift = curve->bucket_shift, first = curve->first_bucket;
  guint32  index[BLOCK_PIXELS];
  guint32  above[BLOCK_PIXELS];
  gsize    i;

  for (i = 0; i < n_pixels; i++)
    {
      gfloat value = plane[i];
      /* NaN too becomes low (fmaxf is a call into libm) */
      gfloat clamped = value > low ? value : low;

      clamped = clamped < high ? clamped : high;
      above[i] = value >= top;
      plane[i] = clamped;
    }
  if (curve->identity)
    {
      encode_identity (curve, plane, above, dst, step, n_pixels, type);
      return;
    }
  for (i = 0; i < n_pixels; i++)
    index[i] = (cblur_float_bits (plane[i]) >> shift) - first;
  for (i = 0; i < n_pixels; i++)
    {
      const CblurBucket *bucket = curve->buckets + index[i];
      guint              code = bucket->code + (plane[i] >= bucket->next);

      if (!curve->one_step)
        while (plane[i] >= curve->thresholds[code + 1])
          code++;
      store_code (dst + i * step, code + above[i], type);
    }
}

/* The conversions a pixel at a time, written once for every sample type
 * and layout: the callers give constants, which the compiler makes into a
 * loop of its own for each. */
static inline __attribute__ ((always_inline)) void
load_samples (const CblurCurve *curves,
              const guint8     *pixel,
              gfloat           *s,
              CblurSampleType   type,
              gint              n)
{
  gint c;

  for (c = 0; c < n; c++)
    if (type == CBLUR_SAMPLE_U8)
      s[c] = curves[c].decode[pixel[c]];
    else if (type == CBLUR_SAMPLE_U16)
      {
        guint16 code;

        memcpy (&code, pixel + 2 * c, sizeof code);
        s[c] = curves[c].decode[code];
      }
    else if (type == CBLUR_SAMPLE_HALF)
      {
        _Float16 half;

        memcpy (&half, pixel + 2 * c, sizeof half);
        s[c] = half;
      }
    else
      memcpy (s + c, pixel + 4 * c, sizeof (gfloat));
}

static inline __attribute__ ((always_inline)) void
store_samples (const gfloat    *s,
               guint8          *pixel,
               CblurSampleType  type,
               gint             n)
{
  gint c;

  for (c = 0; c < n; c++)
    if (type == CBLUR_SAMPLE_HALF)
      {
        _Float16 half = s[c];

        memcpy (pixel + 2 * c, &half, sizeof half);
      }
    else
      memcpy (pixel + 4 * c, s + c, sizeof (gfloat));
}

/* n components, grey or RGB, alpha last where there is one */
#define HAS_ALPHA(n, grey) ((grey) ? (n) == 2 : (n) == 4)

/* The curves a run uses, in its own copy: stores of bytes may alias
 * anything, so that through the format's pointers the compiler would
 * read them again for every sample. */
static inline __attribute__ ((always_inline)) void
copy_curves (const CblurFormat *format,
             CblurCurve        *curves,
             CblurSampleType    type,
             gint               n)
{
  gint c;

  for (c = 0; type <= CBLUR_SAMPLE_U16 && c < n; c++)
    curves[c] = *format->curves[c];
}

/* the colours of n_pixels of RGBA float off the sRGB curve: every sample
 * in one loop, which the compiler vectorizes, the alphas put back */
static inline __attribute__ ((always_inline)) void
decode_srgb (gfloat *rgba,
             gsize   n_pixels)
{
  gfloat alpha[BLOCK_PIXELS];
  gsize  i;

  for (i = 0; i < n_pixels; i++)
    alpha[i] = rgba[i * 4 + 3];
  for (i = 0; i < n_pixels * 4; i++)
    rgba[i] = cblur_srgb_decode (rgba[i]);
  for (i = 0; i < n_pixels; i++)
    rgba[i * 4 + 3] = alpha[i];
}

static inline __attribute__ ((always_inline)) void
decode_run (const CblurFormat *format,
            const guint8      *src,
            gfloat            *dst,
            gsize              n_pixels,
            CblurSampleType    type,
            gint               n,
            gboolean           grey,
            gboolean           srgb)
{
  gint       bytes = format->bytes_per_pixel;
  CblurCurve curves[4];
  gsize      i;

  copy_curves (format, curves, type, n);
  for (i = 0; i < n_pixels; i++)
    {
      gfloat  s[4];
      gfloat *rgba = dst + i * 4;

      load_samples (curves, src + i * bytes, s, type, n);
      rgba[0] = s[0];
      rgba[1] = grey ? s[0] : s[1];
      rgba[2] = grey ? s[0] : s[2];
      rgba[3] = HAS_ALPHA (n, grey) ? s[n - 1] : 1.0f;
    }
  if (srgb)
    decode_srgb (dst, n_pixels);
}

/* RGBA float a pixel at a time, the same products as encode_run's: as
 * samples, their shuffles cost more than the products */
static inline __attribute__ ((always_inline)) void
encode_rgba_float (const gfloat *src,
                   guint8       *dst,
                   gsize         n_pixels,
                   const gfloat *alpha,
                   const gfloat *recip)
{
  gsize i;

  for (i = 0; i < n_pixels; i++)
    {
      CblurPixel pixel;

      memcpy (&pixel, src + i * 4, sizeof pixel);
      pixel *= recip[i];
      pixel[3] = alpha[i];
      memcpy (dst + i * sizeof pixel, &pixel, sizeof pixel);
    }
}

/* half or float planes of samples onto the sRGB curve, the colours' in
 * loops the compiler vectorizes, then stored */
static inline __attribute__ ((always_inline)) void
encode_srgb (gfloat           planes[4][BLOCK_PIXELS],
             guint8          *dst,
             gint             bytes,
             gsize            n_pixels,
             CblurSampleType  type,
             gint             n,
             gint             n_colours)
{
  gsize i;
  gint  c;

  for (c = 0; c < n_colours; c++)
    for (i = 0; i < n_pixels; i++)
      planes[c][i] = cblur_srgb_encode (planes[c][i]);
  for (i = 0; i < n_pixels; i++)
    {
      gfloat s[4];

      for (c = 0; c < n; c++)
        s[c] = planes[c][i];
      store_samples (s, dst + i * bytes, type, n);
    }
}

/* unpremultiplied as babl does (its alpha floor), then the curve and
 * rounding, a plane of samples at a time */
static inline __attribute__ ((always_inline)) void
encode_run (const CblurFormat *format,
            const gfloat      *src,
            guint8            *dst,
            gsize              n_pixels,
            CblurSampleType    type,
            gint               n,
            gboolean           grey,
            gboolean           srgb)
{
  gint       bytes = format->bytes_per_pixel;
  gint       sample_bytes = bytes / n;
  CblurCurve curves[4];
  gfloat     planes[4][BLOCK_PIXELS];
  gfloat     alpha[BLOCK_PIXELS];
  gfloat     recip[BLOCK_PIXELS];
  gsize      i;
  gint       c;

  copy_curves (format, curves, type, n);
  /* in loops of their own, which the compiler vectorizes */
  for (i = 0; i < n_pixels; i++)
    alpha[i] = src[i * 4 + 3];
  /* the floor, then the quotients: in one loop the compiler makes the
   * floor a branch around the division and does not vectorize it */
  for (i = 0; i < n_pixels; i++)
    recip[i] = cblur_used_alpha (alpha[i]);
  for (i = 0; i < n_pixels; i++)
    recip[i] = 1.0f / recip[i];
  if (type == CBLUR_SAMPLE_FLOAT && n == 4 && !srgb)
    {
      encode_rgba_float (src, dst, n_pixels, alpha, recip);
      return;
    }
  for (i = 0; i < n_pixels; i++)
    {
      const gfloat *rgba = src + i * 4;
      gfloat        s[4];

      /* a grey source blurs to R = G = B, bit for bit */
      s[0] = rgba[grey ? 1 : 0] * recip[i];
      if (!grey)
        {
          s[1] = rgba[1] * recip[i];
          s[2] = rgba[2] * recip[i];
        }
      if (HAS_ALPHA (n, grey))
        s[n - 1] = alpha[i];
      if (type <= CBLUR_SAMPLE_U16 || srgb)
        for (c = 0; c < n; c++)
          planes[c][i] = s[c];
      else
        store_samples (s, dst + i * bytes, type, n);
    }

  if (srgb)
    {
      encode_srgb (planes, dst, bytes, n_pixels, type, n, n - HAS_ALPHA (n, grey));
      return;
    }

  for (c = 0; type <= CBLUR_SAMPLE_U16 && c < n; c++)
    encode_plane (curves + c, planes[c], dst + c * sample_bytes, bytes, n_pixels, type);
}

#define LAYOUTS(run, type, srgb)                                        \
  switch (format->n_components * 2 + format->grey)                      \
    {                                                                   \
    case 8: run (format, in, out, count, type, 4, FALSE, srgb); break;  \
    case 6: run (format, in, out, count, type, 3, FALSE, srgb); break;  \
    case 5: run (format, in, out, count, type, 2, TRUE, srgb); break;   \
    default: run (format, in, out, count, type, 1, TRUE, srgb); break;  \
    }

/* half and float, linear or on the sRGB curve */
#define CURVES(run, type)                                               \
  if (format->srgb)                                                     \
    LAYOUTS (run, type, TRUE)                                           \
  else                                                                  \
    LAYOUTS (run, type, FALSE)

#define TYPES(run)                                                      \
  switch (format->type)                                                 \
    {                                                                   \
    case CBLUR_SAMPLE_U8: LAYOUTS (run, CBLUR_SAMPLE_U8, FALSE); break;  \
    case CBLUR_SAMPLE_U16: LAYOUTS (run, CBLUR_SAMPLE_U16, FALSE); break; \
    case CBLUR_SAMPLE_HALF: CURVES (run, CBLUR_SAMPLE_HALF); break;     \
    default: CURVES (run, CBLUR_SAMPLE_FLOAT); break;                   \
    }

/* half converts in one instruction where the processor has F16C */
CBLUR_WIDEST_VECTORS static void
decode_block (const CblurFormat *format,
              const guint8      *in,
              gfloat            *out,
              gsize              count)
{
  TYPES (decode_run);
}

CBLUR_WIDEST_VECTORS static void
encode_block (const CblurFormat *format,
              const gfloat      *in,
              guint8            *out,
              gsize              count)
{
  TYPES (encode_run);
}

/* Pixels go through a block on the stack, so that src and dst may share
 * their start: decoding grows pixels, so it goes from the end; encoding
 * shrinks them, so it goes from the start. */
void
cblur_format_decode (const CblurFormat *format,
                     const guint8      *src,
                     gfloat            *dst,
                     gsize              n_pixels)
{
  gint   bytes = format->bytes_per_pixel;
  guint8 block[BLOCK_PIXELS * 4 * sizeof (gfloat)];
  gsize  left = n_pixels;

  if (cblur_format_is_rgba_float (format))
    {
      if ((const guint8 *) dst != src)
        memmove (dst, src, n_pixels * 4 * sizeof (gfloat));
      return;
    }
  if (format->lanes != NULL)
    {
      cblur_lanes_decode (format->lanes, src, dst, n_pixels);
      return;
    }
  while (left > 0)
    {
      gsize count = left % BLOCK_PIXELS != 0 ? left % BLOCK_PIXELS : BLOCK_PIXELS;
      gsize start = left - count;

      memcpy (block, src + start * bytes, count * bytes);
      decode_block (format, block, dst + start * 4, count);
      left = start;
    }
}

void
cblur_format_decode_spread (const CblurFormat *format,
                            const guint8      *src,
                            gfloat            *dst,
                            gsize              n_pixels,
                            gsize              step,
                            gboolean           premultiply)
{
  gfloat block[BLOCK_PIXELS * 4];
  gsize  start, i;

  if (format->lanes != NULL)
    {
      cblur_lanes_decode_spread (format->lanes, src, dst, n_pixels, step, premultiply);
      return;
    }
  for (start = 0; start < n_pixels; start += BLOCK_PIXELS)
    {
      gsize count = MIN (BLOCK_PIXELS, n_pixels - start);

      cblur_format_decode (format, src + start * format->bytes_per_pixel, block, count);
      for (i = 0; i < count; i++)
        {
          CblurPixel pixel;

          memcpy (&pixel, block + i * 4, sizeof pixel);
          if (premultiply)
            pixel = cblur_premultiplied (pixel);
          memcpy (dst + (start + i) * step * 4, &pixel, sizeof pixel);
        }
    }
}

void
cblur_format_encode (const CblurFormat *format,
                     const gfloat      *src,
                     guint8            *dst,
                     gsize              n_pixels)
{
  gint   bytes = format->bytes_per_pixel;
  gsize  src_bytes = n_pixels * 4 * sizeof (gfloat);
  gfloat block[BLOCK_PIXELS * 4];
  gsize  start;

  if (format->lanes != NULL)
    {
      cblur_lanes_encode (format->lanes, src, dst, n_pixels);
      return;
    }
  /* apart, no copy is needed */
  if ((const guint8 *) src >= dst + n_pixels * bytes || dst >= (const guint8 *) src + src_bytes)
    {
      for (start = 0; start < n_pixels; start += BLOCK_PIXELS)
        encode_block (format, src + start * 4, dst + start * bytes,
                      MIN (BLOCK_PIXELS, n_pixels - start));
      return;
    }
  for (start = 0; start < n_pixels; start += BLOCK_PIXELS)
    {
      gsize count = MIN (BLOCK_PIXELS, n_pixels - start);

      memcpy (block, src + start * 4, count * 4 * sizeof (gfloat));
      encode_block (format, block, dst + start * bytes, count);
    }
}
