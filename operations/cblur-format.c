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

/* Buckets of the float line for encoding: at least 2^8 a power of two,
 * where a u8 curve moves at most one code a bucket; u16 curves get up to
 * 2^14, and a few steps more. */
#define BUCKET_BITS_MIN 8
#define BUCKET_BITS_MAX 14

/* pixels converted at a time, through a block on the stack */
#define BLOCK 64

/* The threshold of code k lies this close to where the inverse curve puts
 * it (in floats) unless the curve is odd, when the whole line is searched. */
#define GUESS_ULPS 4

static guint32
float_bits (gfloat value)
{
  guint32 bits;

  memcpy (&bits, &value, sizeof bits);
  return bits;
}

static gfloat
bits_float (guint32 bits)
{
  gfloat value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

/* What makes one component's curve: babl's conversions between the
 * format's components and the same without a curve, in double precision,
 * and room for them to convert up to two values a code. */
typedef struct
{
  const Babl *linear;
  const Babl *curved;
  gint        n_components;
  gint        c;
  guint       max;
  gdouble    *pixels;
  gdouble    *converted;
} CurveSource;

/* babl converts large runs through buffers of their size, fresh memory
 * that took the most time of all for u16 curves */
#define BABL_RUN 4096

static void
process_runs (const Babl    *from,
              const Babl    *to,
              gint           n_components,
              const gdouble *pixels,
              gdouble       *converted,
              gsize          n)
{
  const Babl *fish = babl_fish (from, to);
  gsize       done;

  for (done = 0; done < n; done += BABL_RUN)
    babl_process (fish, pixels + done * n_components, converted + done * n_components,
                  MIN (BABL_RUN, n - done));
}

/* babl's conversion of n pixels, every component of pixel i values[i],
 * from `from` to `to`; out gets component c of each */
static void
convert_doubles (const CurveSource *source,
                 const Babl        *from,
                 const Babl        *to,
                 const gdouble     *values,
                 gdouble           *out,
                 gsize              n)
{
  gint  n_components = source->n_components;
  gsize i;
  gint  k;

  for (i = 0; i < n; i++)
    for (k = 0; k < n_components; k++)
      source->pixels[i * n_components + k] = values[i];
  process_runs (from, to, n_components, source->pixels, source->converted, n);
  for (i = 0; i < n; i++)
    out[i] = source->converted[i * n_components + source->c];
}

/* Thresholds by bisection over the bits of non-negative floats: the least
 * float whose encoded value, in babl's double precision, rounds to k or
 * more.  lo[k] is below that (or -1) and hi[k] at or above it. */
static void
search_thresholds (const CurveSource *source,
                   gint64            *lo,
                   gint64            *hi,
                   gfloat            *thresholds)
{
  guint               max = source->max;
  g_autofree guint   *active = g_new (guint, max);
  g_autofree gdouble *x = g_new (gdouble, max);
  g_autofree gdouble *y = g_new (gdouble, max);
  guint               n_active = 0;
  guint               k, i;

  for (k = 1; k <= max; k++)
    if (hi[k] - lo[k] > 1)
      active[n_active++] = k;

  while (n_active > 0)
    {
      guint still = 0;

      for (i = 0; i < n_active; i++)
        x[i] = bits_float ((lo[active[i]] + hi[active[i]]) / 2);
      convert_doubles (source, source->linear, source->curved, x, y, n_active);
      for (i = 0; i < n_active; i++)
        {
          guint  code = active[i];
          gint64 mid = (lo[code] + hi[code]) / 2;

          if (y[i] * max >= code - 0.5)
            hi[code] = mid;
          else
            lo[code] = mid;
          if (hi[code] - lo[code] > 1)
            active[still++] = code;
        }
      n_active = still;
    }

  thresholds[0] = -INFINITY;
  for (k = 1; k <= max; k++)
    /* an odd curve that turns back must not make codes go backwards */
    thresholds[k] = MAX (bits_float (hi[k]), thresholds[k - 1]);
  thresholds[max + 1] = INFINITY;
}

/* Brackets each threshold around the inverse curve's guess, checks the
 * brackets, and searches the whole line where one is wrong. */
static gfloat *
make_thresholds (const CurveSource *source)
{
  guint               max = source->max;
  g_autofree gdouble *x = g_new (gdouble, 2 * (max + 1));
  g_autofree gdouble *y = g_new (gdouble, 2 * (max + 1));
  g_autofree gint64  *lo = g_new (gint64, max + 1);
  g_autofree gint64  *hi = g_new (gint64, max + 1);
  gfloat             *thresholds = g_new (gfloat, max + 2);
  guint               k;

  for (k = 1; k <= max; k++)
    x[k] = (k - 0.5) / max;
  convert_doubles (source, source->curved, source->linear, x + 1, y + 1, max);
  for (k = 1; k <= max; k++)
    {
      gint64 guess = y[k] > 0.0 ? float_bits ((gfloat) MIN (y[k], 2.0)) : 0;

      lo[k] = MAX (guess - GUESS_ULPS, -1);
      hi[k] = guess + GUESS_ULPS;
      x[2 * k] = lo[k] < 0 ? 0.0 : bits_float (lo[k]);
      x[2 * k + 1] = bits_float (hi[k]);
    }
  convert_doubles (source, source->linear, source->curved, x + 2, y + 2, 2 * max);
  for (k = 1; k <= max; k++)
    if ((lo[k] >= 0 && y[2 * k] * max >= k - 0.5) || y[2 * k + 1] * max < k - 0.5)
      {
        lo[k] = -1;
        hi[k] = float_bits (INFINITY);
      }

  search_thresholds (source, lo, hi, thresholds);
  return thresholds;
}

/* The codes at bucket starts, in the fewest buckets that keep each to one
 * threshold where that takes no more than BUCKET_BITS_MAX. */
static void
make_buckets (CblurCurve *curve)
{
  const gfloat *thresholds = curve->thresholds;
  guint32       first, last;
  gint          bits;

  /* positive, so that the bits of floats between them are in order */
  curve->low = MAX (thresholds[1] * 0.5f, G_MINFLOAT);
  curve->high = MAX (nextafterf (thresholds[curve->max], 0.0f), curve->low);
  first = float_bits (curve->low);
  last = float_bits (curve->high);

  for (bits = BUCKET_BITS_MIN; bits <= BUCKET_BITS_MAX; bits++)
    {
      gint         shift = 23 - bits;
      guint32      n = (last >> shift) - (first >> shift) + 1;
      CblurBucket *buckets = g_new (CblurBucket, n);
      guint        code = 0;
      guint        widest = 0;
      guint32      b;

      for (b = 0; b < n; b++)
        {
          gfloat start = bits_float (((first >> shift) + b) << shift);

          while (code < curve->max && thresholds[code + 1] <= start)
            code++;
          buckets[b] = (CblurBucket) { thresholds[code + 1], code };
          if (b > 0)
            widest = MAX (widest, code - buckets[b - 1].code);
        }
      /* the last bucket ends at high, which encodes to max - 1 */
      widest = MAX (widest, curve->max - 1 - buckets[n - 1].code);
      if (widest <= 1 || bits == BUCKET_BITS_MAX)
        {
          curve->buckets = buckets;
          curve->first_bucket = first >> shift;
          curve->bucket_shift = shift;
          curve->one_step = widest <= 1;
          return;
        }
      g_free (buckets);
    }
}

static CblurCurve *
curve_new (const CurveSource *source,
           gfloat            *decode)
{
  CblurCurve *curve = g_new0 (CblurCurve, 1);

  curve->max = source->max;
  curve->decode = decode;
  curve->thresholds = make_thresholds (source);
  make_buckets (curve);
  return curve;
}

/* The decode table of every component: babl's curve, in double precision,
 * at every code (babl converts integers to double that way too);
 * components with the same table share a curve. */
static void
make_curves (CblurFormat  *format,
             const Layout *layout,
             const Babl   *space)
{
  g_autofree gchar   *linear_name = g_strconcat (layout->linear, " double", NULL);
  g_autofree gchar   *curved_name = g_strconcat (layout->components, " double", NULL);
  gint                n = format->n_components;
  guint               max = format->type == CBLUR_SAMPLE_U8 ? 255 : 65535;
  g_autofree gdouble *pixels = g_new (gdouble, 2 * (max + 1) * n);
  g_autofree gdouble *converted = g_new (gdouble, 2 * (max + 1) * n);
  CurveSource         source = { babl_format_with_space (linear_name, space),
                                 babl_format_with_space (curved_name, space),
                                 n, 0, max, pixels, converted };
  gsize               k;
  gint                c, other;

  gfloat             *decode[4];

  for (k = 0; k <= max; k++)
    for (c = 0; c < n; c++)
      pixels[k * n + c] = (gdouble) k / max;
  process_runs (source.curved, source.linear, n, pixels, converted, max + 1);
  /* before the curves take the room over */
  for (c = 0; c < n; c++)
    {
      decode[c] = g_new (gfloat, max + 1);
      for (k = 0; k <= max; k++)
        decode[c][k] = converted[k * n + c];
    }

  for (c = 0; c < n; c++)
    {
      for (other = 0; other < c; other++)
        if (memcmp (format->curves[other]->decode, decode[c], (max + 1) * sizeof (gfloat)) == 0)
          break;
      if (other < c)
        {
          g_free (decode[c]);
          format->curves[c] = format->curves[other];
          continue;
        }
      source.c = c;
      format->curves[c] = curve_new (&source, decode[c]);
    }
}

/* the layout and sample type of format's encoding, if the op covers it */
static gboolean
parse_encoding (const Babl    *format,
                const Layout **layout,
                gint          *type)
{
  g_auto (GStrv) words = g_strsplit (babl_format_get_encoding (format), " ", -1);
  gsize          i;

  if (g_strv_length (words) != 2)
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
      index[i] = (float_bits (clamped) >> shift) - first;
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
  for (i = 0; i < n_pixels; i++)
    recip[i] = 1.0f / (fabsf (alpha[i]) <= CBLUR_ALPHA_FLOOR ? CBLUR_ALPHA_FLOOR : alpha[i]);
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
      memmove (dst, src, n_pixels * 4 * sizeof (gfloat));
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
cblur_format_encode (const CblurFormat *format,
                     const gfloat      *src,
                     guint8            *dst,
                     gsize              n_pixels)
{
  gint   bytes = format->bytes_per_pixel;
  gsize  src_bytes = n_pixels * 4 * sizeof (gfloat);
  gfloat block[BLOCK * 4];
  gsize  start;

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
