#include "cblur-format.h"

#include <math.h>
#include <string.h>

#include "cblur-pixel.h"

/* how the components of an encoding map onto RGBA */
typedef struct
{
  const gchar *components;
  const gchar *linear;       /* the same components without a curve */
  gint         n_components;
  gboolean     has_alpha;
  gboolean     grey;
} Layout;

static const Layout layouts[] = {
  { "RGBA",    "RGBA", 4, TRUE,  FALSE },
  { "R'G'B'A", "RGBA", 4, TRUE,  FALSE },
  { "R~G~B~A", "RGBA", 4, TRUE,  FALSE },
  { "RGB",     "RGB",  3, FALSE, FALSE },
  { "R'G'B'",  "RGB",  3, FALSE, FALSE },
  { "R~G~B~",  "RGB",  3, FALSE, FALSE },
  { "YA",      "YA",   2, TRUE,  TRUE },
  { "Y'A",     "YA",   2, TRUE,  TRUE },
  { "Y~A",     "YA",   2, TRUE,  TRUE },
  { "Y",       "Y",    1, FALSE, TRUE },
  { "Y'",      "Y",    1, FALSE, TRUE },
  { "Y~",      "Y",    1, FALSE, TRUE },
};

static const struct
{
  const gchar     *name;
  CblurSampleType  type;
  gint             bytes;
} sample_types[] = {
  { "u8",    CBLUR_SAMPLE_U8,    1 },
  { "u16",   CBLUR_SAMPLE_U16,   2 },
  { "half",  CBLUR_SAMPLE_HALF,  2 },
  { "float", CBLUR_SAMPLE_FLOAT, 4 },
};

/* pixels converted at a time, through a block on the stack */
#define BLOCK 64

/* The curves of an integer format's components, from babl's conversions
 * between them and the same components without a curve. */
static void
make_curves (CblurFormat  *format,
             const Layout *layout,
             const Babl   *space)
{
  g_autofree gchar *linear = g_strconcat (layout->linear, " double", NULL);
  g_autofree gchar *curved = g_strconcat (layout->components, " double", NULL);

  cblur_curves_make (babl_format_with_space (linear, space),
                     babl_format_with_space (curved, space), format->n_components,
                     format->type == CBLUR_SAMPLE_U8 ? 255 : 65535, format->curves);
}

/* the layout and sample type of format's encoding, if the op covers it */
static gboolean
parse_encoding (const Babl    *format,
                const Layout **layout,
                gint          *type)
{
  const gchar   *encoding = babl_format_get_encoding (format);
  g_auto (GStrv) words = encoding != NULL ? g_strsplit (encoding, " ", -1) : NULL;
  gsize          i;

  if (words == NULL || g_strv_length (words) != 2)
    return FALSE;
  *layout = NULL;
  *type = -1;
  for (i = 0; i < G_N_ELEMENTS (layouts); i++)
    if (g_str_equal (words[0], layouts[i].components))
      *layout = &layouts[i];
  for (i = 0; i < G_N_ELEMENTS (sample_types); i++)
    if (g_str_equal (words[1], sample_types[i].name))
      *type = i;
  return *layout != NULL && *type >= 0;
}

static CblurFormat *
format_new (const Babl *babl)
{
  const Babl   *space = babl_format_get_space (babl);
  const Layout *layout;
  CblurFormat  *format;
  gint          type;

  if (!parse_encoding (babl, &layout, &type) || babl_space_is_cmyk (space))
    return NULL;
  /* float and half samples are converted as they are, without a curve */
  if (sample_types[type].type >= CBLUR_SAMPLE_HALF &&
      !g_str_equal (layout->components, layout->linear))
    return NULL;
  if (babl_format_get_n_components (babl) != layout->n_components ||
      babl_format_get_bytes_per_pixel (babl) != layout->n_components * sample_types[type].bytes)
    return NULL;

  format = g_new0 (CblurFormat, 1);
  format->babl = babl;
  format->type = sample_types[type].type;
  format->n_components = layout->n_components;
  format->has_alpha = layout->has_alpha;
  format->grey = layout->grey;
  format->bytes_per_pixel = babl_format_get_bytes_per_pixel (babl);
  if (format->type <= CBLUR_SAMPLE_U16)
    make_curves (format, layout, space);
  if (format->type == CBLUR_SAMPLE_U8 && format->n_components == 4)
    format->lanes = cblur_lanes_new (format->curves);
  return format;
}

/* Formats are made once and kept, as babl keeps its own. */
const CblurFormat *
cblur_format_get (const Babl *format)
{
  static GMutex      lock;
  static GHashTable *made;
  CblurFormat       *found;

  g_mutex_lock (&lock);
  if (made == NULL)
    made = g_hash_table_new (NULL, NULL);
  if (!g_hash_table_lookup_extended (made, format, NULL, (gpointer *) &found))
    {
      found = format_new (format);
      g_hash_table_insert (made, (gpointer) format, found);
    }
  g_mutex_unlock (&lock);
  return found;
}

/* A float or half format with alpha that the op does not convert itself
 * (GIMP's perceptual float, say) holds a premultiplied float result as
 * well as premultiplied float does: babl converts it on the threads that
 * write the result, where a host's single render thread would convert
 * it on the way to the image or the screen. */
static gboolean
holds_float_result (const Babl *format)
{
  const Babl *type = babl_format_get_type (format, 0);
  gint        n = babl_format_get_n_components (format);
  gint        c;

  if (!babl_format_has_alpha (format) || babl_space_is_cmyk (babl_format_get_space (format)) ||
      babl_get_model_flags (babl_format_get_model (format)) & BABL_MODEL_FLAG_CMYK)
    return FALSE;
  for (c = 0; c < n; c++)
    if (babl_format_get_type (format, c) != type)
      return FALSE;
  return type == babl_type ("float") || type == babl_type ("half");
}

const Babl *
cblur_format_for_source (const Babl *source,
                         const Babl *space)
{
  if (source != NULL && (cblur_format_get (source) != NULL || holds_float_result (source)))
    return source;
  return babl_format_with_space ("RaGaBaA float", space);
}

gboolean
cblur_format_is_rgba_float (const CblurFormat *format)
{
  return format != NULL && format->type == CBLUR_SAMPLE_FLOAT && format->n_components == 4 &&
         !format->grey;
}

/* Encoding an integer plane goes in two loops: the clamping and the
 * buckets' indices, which the compiler vectorizes, then the lookups. */
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
  guint32  index[BLOCK];
  guint32  above[BLOCK];
  gsize    i;

  for (i = 0; i < n_pixels; i++)
    {
      gfloat value = plane[i];
      /* NaN too becomes low (fmaxf is a call into libm) */
      gfloat clamped = value > low ? value : low;

      clamped = clamped < high ? clamped : high;
      above[i] = value >= top;
      index[i] = (cblur_float_bits (clamped) >> shift) - first;
      plane[i] = clamped;
    }
  for (i = 0; i < n_pixels; i++)
    {
      const CblurBucket *bucket = curve->buckets + index[i];
      guint              code = bucket->code + (plane[i] >= bucket->next);

      if (!curve->one_step)
        while (plane[i] >= curve->thresholds[code + 1])
          code++;
      code += above[i];
      if (type == CBLUR_SAMPLE_U8)
        dst[i * step] = code;
      else
        {
          guint16 code16 = code;

          memcpy (dst + i * step, &code16, sizeof code16);
        }
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
 * anything, so that through the format's pointers the compiler read them
 * again for every sample. */
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

static inline __attribute__ ((always_inline)) void
decode_run (const CblurFormat *format,
            const guint8      *src,
            gfloat            *dst,
            gsize              n_pixels,
            CblurSampleType    type,
            gint               n,
            gboolean           grey)
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

/* unpremultiplied as babl does (its alpha floor), then the curve and
 * rounding, a plane of samples at a time */
static inline __attribute__ ((always_inline)) void
encode_run (const CblurFormat *format,
            const gfloat      *src,
            guint8            *dst,
            gsize              n_pixels,
            CblurSampleType    type,
            gint               n,
            gboolean           grey)
{
  gint       bytes = format->bytes_per_pixel;
  gint       sample_bytes = bytes / n;
  CblurCurve curves[4];
  gfloat     planes[4][BLOCK];
  gfloat     alpha[BLOCK];
  gfloat     recip[BLOCK];
  gsize      i;
  gint       c;

  copy_curves (format, curves, type, n);
  /* in loops of their own, which the compiler vectorizes */
  for (i = 0; i < n_pixels; i++)
    alpha[i] = src[i * 4 + 3];
  /* the floor, then the quotients: in one loop the compiler made the
   * floor a branch around the division, and did not vectorize it */
  for (i = 0; i < n_pixels; i++)
    recip[i] = cblur_used_alpha (alpha[i]);
  for (i = 0; i < n_pixels; i++)
    recip[i] = 1.0f / recip[i];
  if (type == CBLUR_SAMPLE_FLOAT && n == 4)
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
      if (type <= CBLUR_SAMPLE_U16)
        for (c = 0; c < n; c++)
          planes[c][i] = s[c];
      else
        store_samples (s, dst + i * bytes, type, n);
    }

  for (c = 0; type <= CBLUR_SAMPLE_U16 && c < n; c++)
    encode_plane (curves + c, planes[c], dst + c * sample_bytes, bytes, n_pixels, type);
}

#define LAYOUTS(run, type)                                        \
  switch (format->n_components * 2 + format->grey)                \
    {                                                             \
    case 8: run (format, in, out, count, type, 4, FALSE); break;  \
    case 6: run (format, in, out, count, type, 3, FALSE); break;  \
    case 5: run (format, in, out, count, type, 2, TRUE); break;   \
    default: run (format, in, out, count, type, 1, TRUE); break;  \
    }

#define TYPES(run)                                                \
  switch (format->type)                                           \
    {                                                             \
    case CBLUR_SAMPLE_U8: LAYOUTS (run, CBLUR_SAMPLE_U8); break;  \
    case CBLUR_SAMPLE_U16: LAYOUTS (run, CBLUR_SAMPLE_U16); break; \
    case CBLUR_SAMPLE_HALF: LAYOUTS (run, CBLUR_SAMPLE_HALF); break; \
    default: LAYOUTS (run, CBLUR_SAMPLE_FLOAT); break;            \
    }

/* half converts in one instruction where the processor has F16C */
__attribute__ ((target_clones ("arch=x86-64-v3", "default"))) static void
decode_block (const CblurFormat *format,
              const guint8      *in,
              gfloat            *out,
              gsize              count)
{
  TYPES (decode_run);
}

__attribute__ ((target_clones ("arch=x86-64-v3", "default"))) static void
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
  guint8 block[BLOCK * 4 * sizeof (gfloat)];
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
      gsize count = left % BLOCK != 0 ? left % BLOCK : BLOCK;
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
  gfloat block[BLOCK * 4];
  gsize  start, i;

  if (format->lanes != NULL)
    {
      cblur_lanes_decode_spread (format->lanes, src, dst, n_pixels, step, premultiply);
      return;
    }
  for (start = 0; start < n_pixels; start += BLOCK)
    {
      gsize count = MIN (BLOCK, n_pixels - start);

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
  gfloat block[BLOCK * 4];
  gsize  start;

  if (format->lanes != NULL)
    {
      cblur_lanes_encode (format->lanes, src, dst, n_pixels);
      return;
    }
  /* apart, no copy is needed */
  if ((const guint8 *) src >= dst + n_pixels * bytes || dst >= (const guint8 *) src + src_bytes)
    {
      for (start = 0; start < n_pixels; start += BLOCK)
        encode_block (format, src + start * 4, dst + start * bytes,
                      MIN (BLOCK, n_pixels - start));
      return;
    }
  for (start = 0; start < n_pixels; start += BLOCK)
    {
      gsize count = MIN (BLOCK, n_pixels - start);

      memcpy (block, src + start * 4, count * 4 * sizeof (gfloat));
      encode_block (format, block, dst + start * bytes, count);
    }
}
