/* Each threshold of an integer curve is found by bisection over the bits
 * of non-negative floats (in order as unsigned integers), with babl's own
 * double-precision curve as the judge. */
#include "cblur-curve.h"

#include <math.h>
#include <string.h>

/* Buckets of the float line for encoding: at least 2^8 a power of two,
 * where a u8 curve moves at most one code a bucket; u16 curves get up to
 * 2^14, and a few steps more. */
#define BUCKET_BITS_MIN 8
#define BUCKET_BITS_MAX 14

/* The threshold of code k lies this close to where the inverse curve puts
 * it (in floats) unless the curve is odd, when the whole line is searched. */
#define GUESS_ULPS 4

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
 * whose faults cost more than the conversion: runs stay short */
#define BABL_RUN_PIXELS 4096

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

  for (done = 0; done < n; done += BABL_RUN_PIXELS)
    babl_process (fish, pixels + done * n_components, converted + done * n_components,
                  MIN (BABL_RUN_PIXELS, n - done));
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
      gint64 guess = y[k] > 0.0 ? cblur_float_bits ((gfloat) MIN (y[k], 2.0)) : 0;

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
        hi[k] = cblur_float_bits (INFINITY);
      }

  search_thresholds (source, lo, hi, thresholds);
  return thresholds;
}

/* The codes at bucket starts, in the fewest buckets that hold each to one
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
  first = cblur_float_bits (curve->low);
  last = cblur_float_bits (curve->high);

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

/* whether decode is babl's for a component without a curve (alpha, and
 * the linear formats' colours): code / max */
static gboolean
is_identity (const gfloat *decode,
             guint         max)
{
  guint k;

  for (k = 0; k <= max; k++)
    if (decode[k] != (gfloat) ((gdouble) k / max))
      return FALSE;
  return TRUE;
}

/* The thresholds of the identity, the same floats as the search would
 * find, at a fraction of its cost (most of a u16 format's making) */
static gfloat *
identity_thresholds (guint max)
{
  gfloat *thresholds = g_new (gfloat, max + 2);
  guint   k;

  thresholds[0] = -INFINITY;
  for (k = 1; k <= max; k++)
    {
      gdouble half = k - 0.5;
      gfloat  at = half / max;

      while ((gdouble) at * max < half)
        at = nextafterf (at, INFINITY);
      while ((gdouble) nextafterf (at, -INFINITY) * max >= half)
        at = nextafterf (at, -INFINITY);
      thresholds[k] = at;
    }
  thresholds[max + 1] = INFINITY;
  return thresholds;
}

static CblurCurve *
curve_new (const CurveSource *source,
           gfloat            *decode)
{
  CblurCurve *curve = g_new0 (CblurCurve, 1);

  curve->max = source->max;
  curve->decode = decode;
  curve->identity = is_identity (decode, source->max);
  curve->thresholds = curve->identity ? identity_thresholds (source->max)
                                      : make_thresholds (source);
  make_buckets (curve);
  return curve;
}

void
cblur_curves_make (const Babl        *linear,
                   const Babl        *curved,
                   gint               n_components,
                   guint              max,
                   const CblurCurve **curves)
{
  gint                n = n_components;
  g_autofree gdouble *pixels = g_new (gdouble, 2 * (max + 1) * n);
  g_autofree gdouble *converted = g_new (gdouble, 2 * (max + 1) * n);
  CurveSource         source = { linear, curved, n, 0, max, pixels, converted };
  gfloat             *decode[4];
  gsize               k;
  gint                c, other;

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
        if (memcmp (curves[other]->decode, decode[c], (max + 1) * sizeof (gfloat)) == 0)
          break;
      if (other < c)
        {
          g_free (decode[c]);
          curves[c] = curves[other];
          continue;
        }
      source.c = c;
      curves[c] = curve_new (&source, decode[c]);
    }
}
