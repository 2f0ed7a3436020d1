#include "cblur-format-lanes.h"

#include <string.h>

#include "cblur-pixel.h"

#if defined (__x86_64__) || defined (__i386__)
#define HAVE_LANES 1
#include <immintrin.h>
#endif

#define CODES 256

/* Per lane of a vector of eight samples, two pixels' RGBA: the four
 * components' curves twice. */
struct _CblurLanes
{
  gfloat  low[8];
  gfloat  high[8];
  gfloat  top[8];          /* from here on a sample encodes to 255 */
  gint32  shift[8];
  gint32  within[8];       /* (1 << shift) - 1: a float's bits within its bucket */
  gint32  first[8];        /* the curve's buckets' start in buckets, */
  gint32  decode_first[8]; /* ... its codes' in decode */
  guint32 *buckets;        /* all curves' buckets, packed (pack_bucket) */
  gfloat  *decode;         /* all curves' decode tables, 256 each */
  gfloat   used_alpha[CODES]; /* what an alpha code premultiplies by */
  gboolean shared_colours;    /* the colour components have one curve */
};

/* A bucket in one word, for one gather: the code at its start in the top
 * byte, and the next code's threshold as its bits within the bucket, which
 * the bucket's floats share all others with, or 1 << shift where it lies
 * beyond the bucket (one_step: no bucket holds two thresholds; buckets
 * are at least 8 bits of mantissa wide, so shift is at most 15). */
static guint32
pack_bucket (const CblurCurve *curve,
             guint32           b)
{
  guint32 start = (curve->first_bucket + b) << curve->bucket_shift;
  guint32 next = cblur_float_bits (curve->buckets[b].next);
  guint32 within = (1u << curve->bucket_shift) - 1;

  return curve->buckets[b].code << 24 | (next - start <= within ? next - start : within + 1);
}

static guint32
bucket_count (const CblurCurve *curve)
{
  return (cblur_float_bits (curve->high) >> curve->bucket_shift) - curve->first_bucket + 1;
}

/* the buckets of curves[c], appended to the tables unless an earlier
 * component's curve is the same */
static void
add_curve (CblurLanes             *lanes,
           const CblurCurve *const curves[4],
           gint                    c,
           GArray                 *buckets,
           GArray                 *decode)
{
  const CblurCurve *curve = curves[c];
  gint              same;
  guint32           b;

  for (same = 0; same < c && curves[same] != curve; same++)
    ;
  lanes->low[c] = curve->low;
  lanes->high[c] = curve->high;
  lanes->top[c] = curve->thresholds[curve->max];
  lanes->shift[c] = curve->bucket_shift;
  lanes->within[c] = (1 << curve->bucket_shift) - 1;
  if (same < c)
    {
      lanes->first[c] = lanes->first[same];
      lanes->decode_first[c] = lanes->decode_first[same];
      return;
    }
  /* a bucket's index is its float's bits >> shift, less first_bucket */
  lanes->first[c] = (gint32) buckets->len - (gint32) curve->first_bucket;
  lanes->decode_first[c] = (gint32) decode->len;
  for (b = 0; b < bucket_count (curve); b++)
    {
      guint32 packed = pack_bucket (curve, b);

      g_array_append_val (buckets, packed);
    }
  g_array_append_vals (decode, curve->decode, CODES);
}

CblurLanes *
cblur_lanes_new (const CblurCurve *const curves[4])
{
  CblurLanes *lanes;
  GArray     *buckets, *decode;
  gint        c;

#ifdef HAVE_LANES
  if (!__builtin_cpu_supports ("avx2"))
    return NULL;
#else
  return NULL;
#endif
  for (c = 0; c < 4; c++)
    if (curves[c] == NULL || curves[c]->max != CODES - 1 || !curves[c]->one_step)
      return NULL;

  lanes = g_new0 (CblurLanes, 1);
  buckets = g_array_new (FALSE, FALSE, sizeof (guint32));
  decode = g_array_new (FALSE, FALSE, sizeof (gfloat));
  for (c = 0; c < 4; c++)
    add_curve (lanes, curves, c, buckets, decode);
  memcpy (lanes->low + 4, lanes->low, 4 * sizeof (gfloat));
  memcpy (lanes->high + 4, lanes->high, 4 * sizeof (gfloat));
  memcpy (lanes->top + 4, lanes->top, 4 * sizeof (gfloat));
  memcpy (lanes->shift + 4, lanes->shift, 4 * sizeof (gint32));
  memcpy (lanes->within + 4, lanes->within, 4 * sizeof (gint32));
  memcpy (lanes->first + 4, lanes->first, 4 * sizeof (gint32));
  memcpy (lanes->decode_first + 4, lanes->decode_first, 4 * sizeof (gint32));
  lanes->buckets = (guint32 *) g_array_free (buckets, FALSE);
  lanes->decode = (gfloat *) g_array_free (decode, FALSE);
  for (c = 0; c < CODES; c++)
    lanes->used_alpha[c] = cblur_used_alpha (lanes->decode[lanes->decode_first[3] + c]);
  lanes->shared_colours = curves[1] == curves[0] && curves[2] == curves[0];
  return lanes;
}

/* cblur-format's encode_run and encode_plane for one sample of lane l:
 * for the pixels that do not fill a vector */
static guint8
encode_sample (const CblurLanes *lanes,
               gint              l,
               gfloat            value)
{
  gfloat  clamped = value > lanes->low[l] ? value : lanes->low[l];
  guint32 bits, packed;

  clamped = clamped < lanes->high[l] ? clamped : lanes->high[l];
  bits = cblur_float_bits (clamped);
  packed = lanes->buckets[(gint32) (bits >> lanes->shift[l]) + lanes->first[l]];
  return (packed >> 24) + ((bits & lanes->within[l]) >= (packed & 0xffffff)) +
         (value >= lanes->top[l]);
}

static void
encode_pixels (const CblurLanes *lanes,
               const gfloat     *src,
               guint8           *dst,
               gsize             n_pixels)
{
  gsize i;
  gint  c;

  for (i = 0; i < n_pixels; i++)
    {
      gfloat alpha = src[i * 4 + 3];
      gfloat recip = 1.0f / cblur_used_alpha (alpha);
      guint8 codes[4];

      for (c = 0; c < 3; c++)
        codes[c] = encode_sample (lanes, c, src[i * 4 + c] * recip);
      codes[3] = encode_sample (lanes, 3, alpha);
      memcpy (dst + i * 4, codes, 4);
    }
}

#ifdef HAVE_LANES

#define LANES_TARGET __attribute__ ((target ("avx2")))

/* Eight pixels' alphas in one vector: [0 2 4 6 | 1 3 5 7], so that
 * pixel pair p of the four vectors finds its two in element p of each
 * half. */
static inline __attribute__ ((always_inline)) LANES_TARGET __m256
octet_alphas (const __m256 pixels[4])
{
  /* a0 a0 a2 a2 | a1 a1 a3 a3, and a4 a4 a6 a6 | a5 a5 a7 a7 */
  __m256 low = _mm256_shuffle_ps (pixels[0], pixels[1], _MM_SHUFFLE (3, 3, 3, 3));
  __m256 high = _mm256_shuffle_ps (pixels[2], pixels[3], _MM_SHUFFLE (3, 3, 3, 3));

  return _mm256_shuffle_ps (low, high, _MM_SHUFFLE (2, 0, 2, 0));
}

/* the reciprocals of their used alphas (encode_run's floor, then the
 * quotient), in one division */
static inline __attribute__ ((always_inline)) LANES_TARGET __m256
reciprocals (__m256 alpha)
{
  __m256 floor = _mm256_set1_ps (CBLUR_ALPHA_FLOOR);
  __m256 tiny = _mm256_cmp_ps (_mm256_andnot_ps (_mm256_set1_ps (-0.0f), alpha), floor,
                               _CMP_LE_OQ);

  return _mm256_div_ps (_mm256_set1_ps (1.0f), _mm256_blendv_ps (alpha, floor, tiny));
}

/* the curves of eight samples, as encode_plane takes them */
typedef struct
{
  __m256  low;
  __m256  high;
  __m256  top;
  __m256i shift;
  __m256i first;
  __m256i within;
} SampleCurves;

/* two pixels' RGBA */
static inline __attribute__ ((always_inline)) LANES_TARGET SampleCurves
pixel_curves (const CblurLanes *lanes)
{
  return (SampleCurves) { _mm256_loadu_ps (lanes->low), _mm256_loadu_ps (lanes->high),
                          _mm256_loadu_ps (lanes->top),
                          _mm256_loadu_si256 ((const __m256i *) lanes->shift),
                          _mm256_loadu_si256 ((const __m256i *) lanes->first),
                          _mm256_loadu_si256 ((const __m256i *) lanes->within) };
}

/* eight colour samples, where the colours share the first one's curve */
static inline __attribute__ ((always_inline)) LANES_TARGET SampleCurves
colour_curves (const CblurLanes *lanes)
{
  return (SampleCurves) { _mm256_set1_ps (lanes->low[0]), _mm256_set1_ps (lanes->high[0]),
                          _mm256_set1_ps (lanes->top[0]), _mm256_set1_epi32 (lanes->shift[0]),
                          _mm256_set1_epi32 (lanes->first[0]),
                          _mm256_set1_epi32 (lanes->within[0]) };
}

/* eight unpremultiplied samples into their codes: encode_plane's
 * clamping, bucket and threshold */
static inline __attribute__ ((always_inline)) LANES_TARGET __m256i
encode_samples (const CblurLanes   *lanes,
                const SampleCurves *curves,
                __m256              value)
{
  __m256  above = _mm256_cmp_ps (value, curves->top, _CMP_GE_OQ);
  /* max and min give their second operand where the first is NaN */
  __m256  clamped = _mm256_min_ps (_mm256_max_ps (value, curves->low), curves->high);
  __m256i bits = _mm256_castps_si256 (clamped);
  __m256i index = _mm256_add_epi32 (_mm256_srlv_epi32 (bits, curves->shift), curves->first);
  __m256i packed = _mm256_i32gather_epi32 ((const int *) lanes->buckets, index, 4);
  __m256i within = _mm256_and_si256 (bits, curves->within);
  /* within >= the threshold's, as within + 1 > it; the comparisons' true
   * is -1 */
  __m256i reached = _mm256_cmpgt_epi32 (_mm256_add_epi32 (within, _mm256_set1_epi32 (1)),
                                        _mm256_and_si256 (packed,
                                                          _mm256_set1_epi32 (0xffffff)));
  __m256i code = _mm256_sub_epi32 (_mm256_srli_epi32 (packed, 24), reached);

  return _mm256_sub_epi32 (code, _mm256_castps_si256 (above));
}

/* four codes' vectors of 32 bits into their 32 bytes, in order */
static inline __attribute__ ((always_inline)) LANES_TARGET __m256i
pack_codes (const __m256i codes[4])
{
  /* packs work within halves: the bytes hold pixels 0 2 4 6 1 3 5 7 */
  __m256i words_low = _mm256_packus_epi32 (codes[0], codes[1]);
  __m256i words_high = _mm256_packus_epi32 (codes[2], codes[3]);
  __m256i bytes = _mm256_packus_epi16 (words_low, words_high);

  return _mm256_permutevar8x32_epi32 (bytes, _mm256_setr_epi32 (0, 4, 1, 5, 2, 6, 3, 7));
}

/* eight samples: the colours of v's pixels from element `from` of a run
 * of their colour samples, those of u's after them, in elements [0, n)
 * and [n, 8) */
#define COLOURS(v, from, u, n)                                                          \
  _mm256_blend_ps (_mm256_permutevar8x32_ps (v, colour_run (from, 0)),                  \
                   _mm256_permutevar8x32_ps (u, colour_run (0, n)), 0xff << (n) & 0xff)

/* element e of the result from colour sample e - shift + from of two
 * pixels' RGBA: their samples 0 1 2 4 5 6 */
static inline __attribute__ ((always_inline)) LANES_TARGET __m256i
colour_run (gint from,
            gint shift)
{
  gint32 elements[8];
  gint   e;

  for (e = 0; e < 8; e++)
    {
      gint sample = ((e - shift + from) % 6 + 6) % 6;

      elements[e] = sample + sample / 3;
    }
  return _mm256_loadu_si256 ((const __m256i *) elements);
}

/* An octet whose alphas all encode to the top code, as an opaque image's
 * do, looks up only its 24 colour samples, three vectors of them, where
 * the colours share a curve; its alpha codes are the top's. */
static inline __attribute__ ((always_inline)) LANES_TARGET __m256i
encode_opaque (const CblurLanes   *lanes,
               const SampleCurves *colours,
               const __m256        values[4])
{
  __m256i codes[3];
  __m256i words, bytes;

  codes[0] = encode_samples (lanes, colours, COLOURS (values[0], 0, values[1], 6));
  codes[1] = encode_samples (lanes, colours, COLOURS (values[1], 2, values[2], 4));
  codes[2] = encode_samples (lanes, colours, COLOURS (values[2], 4, values[3], 2));
  /* in each half: the first codes' 4, the second's 4, the third's 4, 0 */
  words = _mm256_packus_epi32 (codes[0], codes[1]);
  bytes = _mm256_packus_epi16 (words, _mm256_packus_epi32 (codes[2], _mm256_setzero_si256 ()));
  /* samples 0-11 in the first half, 12-23 in the second */
  bytes = _mm256_permutevar8x32_epi32 (bytes, _mm256_setr_epi32 (0, 4, 1, 3, 5, 2, 6, 3));
  bytes = _mm256_shuffle_epi8 (bytes, _mm256_setr_epi8 (0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1,
                                                        9, 10, 11, -1, 0, 1, 2, -1, 3, 4, 5,
                                                        -1, 6, 7, 8, -1, 9, 10, 11, -1));
  return _mm256_or_si256 (bytes, _mm256_set1_epi32 ((gint32) 0xff000000u));
}

/* eight pixels at a time: one division for their alphas */
static LANES_TARGET void
encode_vectors (const CblurLanes *lanes,
                const gfloat     *src,
                guint8           *dst,
                gsize             n_octets)
{
  SampleCurves curves = pixel_curves (lanes);
  SampleCurves colours = colour_curves (lanes);
  __m256       opaque = _mm256_set1_ps (lanes->shared_colours ? lanes->top[3] : INFINITY);
  gsize        q;
  gint         p;

  for (q = 0; q < n_octets; q++)
    {
      __m256  pixels[4], values[4];
      __m256i codes[4];
      __m256  alpha, recip;

      for (p = 0; p < 4; p++)
        pixels[p] = _mm256_loadu_ps (src + q * 32 + p * 8);
      alpha = octet_alphas (pixels);
      recip = reciprocals (alpha);
      /* the colours unpremultiplied (the alphas too, which only an octet
       * that is not opaque encodes, as they are) */
      for (p = 0; p < 4; p++)
        values[p] = _mm256_mul_ps (pixels[p], _mm256_permutevar_ps (recip,
                                                                     _mm256_set1_epi32 (p)));
      if (_mm256_movemask_ps (_mm256_cmp_ps (alpha, opaque, _CMP_GE_OQ)) == 0xff)
        {
          _mm256_storeu_si256 ((__m256i *) (dst + q * 32),
                               encode_opaque (lanes, &colours, values));
          continue;
        }
      for (p = 0; p < 4; p++)
        codes[p] = encode_samples (lanes, &curves, _mm256_blend_ps (values[p], pixels[p], 0x88));
      _mm256_storeu_si256 ((__m256i *) (dst + q * 32), pack_codes (codes));
    }
}

/* from the end, two pixels at a time, so that dst may start where src
 * does: a vector's floats land only on bytes already read */
static LANES_TARGET void
decode_vectors (const CblurLanes *lanes,
                const guint8     *src,
                gfloat           *dst,
                gsize             n_pairs)
{
  __m256i first = _mm256_loadu_si256 ((const __m256i *) lanes->decode_first);
  gsize   p;

  for (p = n_pairs; p-- > 0;)
    {
      gint64  bytes;
      __m256i codes;

      memcpy (&bytes, src + p * 8, sizeof bytes);
      codes = _mm256_cvtepu8_epi32 (_mm_cvtsi64_si128 (bytes));
      _mm256_storeu_ps (dst + p * 8, _mm256_i32gather_ps (lanes->decode,
                                                          _mm256_add_epi32 (codes, first), 4));
    }
}

#endif

void
cblur_lanes_encode (const CblurLanes *lanes,
                    const gfloat     *src,
                    guint8           *dst,
                    gsize             n_pixels)
{
  gsize done = 0;

#ifdef HAVE_LANES
  done = n_pixels / 8 * 8;
  encode_vectors (lanes, src, dst, n_pixels / 8);
#endif
  encode_pixels (lanes, src + done * 4, dst + done * 4, n_pixels - done);
}

/* A pixel's four lookups as loads of their own, which cost about what a
 * gather of eight does, and the pixel goes out whole, premultiplied on the
 * way (by its alpha code's used alpha, without a branch on the floor), to
 * its place in a line of interleaved rows, where a gather's two pixels
 * would have to be split again. */
static inline __attribute__ ((always_inline)) void
decode_spread (const CblurLanes *lanes,
               const guint8     *src,
               gfloat           *dst,
               gsize             n_pixels,
               gsize             step,
               const gboolean    premultiply)
{
  const gfloat *r = lanes->decode + lanes->decode_first[0];
  const gfloat *g = lanes->decode + lanes->decode_first[1];
  const gfloat *b = lanes->decode + lanes->decode_first[2];
  const gfloat *a = lanes->decode + lanes->decode_first[3];
  gsize         i;

  for (i = 0; i < n_pixels; i++)
    {
      const guint8 *codes = src + i * 4;
      CblurPixel    pixel = { r[codes[0]], g[codes[1]], b[codes[2]], a[codes[3]] };

      if (premultiply)
        {
          gfloat alpha = pixel[3];

          pixel *= lanes->used_alpha[codes[3]];
          pixel[3] = alpha;
        }
      memcpy (dst + i * step * 4, &pixel, sizeof pixel);
    }
}

void
cblur_lanes_decode_spread (const CblurLanes *lanes,
                           const guint8     *src,
                           gfloat           *dst,
                           gsize             n_pixels,
                           gsize             step,
                           gboolean          premultiply)
{
  if (premultiply)
    decode_spread (lanes, src, dst, n_pixels, step, TRUE);
  else
    decode_spread (lanes, src, dst, n_pixels, step, FALSE);
}

void
cblur_lanes_decode (const CblurLanes *lanes,
                    const guint8     *src,
                    gfloat           *dst,
                    gsize             n_pixels)
{
  /* an odd last pixel first: its bytes lie beyond what the rest write */
  if (n_pixels % 2 != 0)
    {
      gsize  last = n_pixels - 1;
      guint8 codes[4];
      gint   c;

      memcpy (codes, src + last * 4, 4);
      for (c = 0; c < 4; c++)
        dst[last * 4 + c] = lanes->decode[lanes->decode_first[c] + codes[c]];
    }
#ifdef HAVE_LANES
  decode_vectors (lanes, src, dst, n_pixels / 2);
#endif
}
