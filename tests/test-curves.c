/* The formats' curves (cblur-format, cblur-format-lanes) against babl's:
 * every code decoded as babl decodes it, each threshold where babl's
 * double-precision curve rounds, and eight samples at a time as one; the
 * computed sRGB curve of half and float (cblur-srgb.h) against babl's
 * conversions and the exact curve. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "cblur-format.h"
#include "cblur-pixel.h"
#include "cblur-power.h"
#include "cblur-srgb.h"
#include "cblur-test.h"

typedef struct
{
  const gchar *encoding;
  const gchar *space;
} Case;

/* the code cblur_format_encode() gives an opaque grey of value */
static guint
encode_grey (const CblurFormat *format,
             gfloat             value)
{
  gfloat  rgba[4] = { value, value, value, 1.0f };
  guint8  pixel[16];
  guint16 code;

  cblur_format_encode (format, rgba, pixel, 1);
  if (format->type == CBLUR_SAMPLE_U8)
    return pixel[0];
  memcpy (&code, pixel, sizeof code);
  return code;
}

/* The curves are babl's: decoding every code gives babl's own conversion
 * of it (which babl may come to do through tables of its own, within
 * 1e-5), and each threshold is the least float that babl's
 * double-precision curve rounds to its code, so that encoding rounds that
 * curve to nearest; encoding finds each threshold exactly, and takes what
 * lies beyond the curve's ends to them. */
static void
test_curves (void)
{
  static const Case cases[] = {
    { "R'G'B'A u8", "sRGB" }, { "R'G'B'A u8", "Apple" }, { "Y'A u16", "ProPhoto" },
    { "R'G'B' u16", "sRGB" }, { "RGBA u8", "sRGB" }, { "RGBA u16", "sRGB" },
    { "Y u8", "Rec2020" },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Babl        *babl = babl_format_with_space (cases[i].encoding, babl_space (cases[i].space));
      const Babl        *space = babl_format_get_space (babl);
      const CblurFormat *format = cblur_format_get (babl);
      g_auto (GStrv)     words = g_strsplit (cases[i].encoding, " ", 2);
      g_autofree gchar  *curved_name = g_strconcat (words[0], " double", NULL);
      g_autoptr (GString) exact_name = g_string_new (curved_name);
      const Babl        *curved = babl_format_with_space (curved_name, space);
      const Babl        *exact;
      const CblurCurve  *curve = format->curves[0];
      gint               n = format->n_components;
      guint              k;

      g_string_replace (exact_name, "'", "", 0);
      exact = babl_format_with_space (exact_name->str, space);

      for (k = 0; k <= curve->max; k++)
        {
          guint16 codes[4] = { k, k, k, k };
          guint8  bytes[4] = { k, k, k, k };
          gdouble theirs[4];

          babl_process (babl_fish (babl, exact), curve->max == 255 ? (gpointer) bytes
                                                                   : (gpointer) codes,
                        theirs, 1);
          g_assert_cmpfloat (fabs (curve->decode[k] - theirs[0]), <=, 1e-5 * fabs (theirs[0]));
        }
      for (k = 1; k <= curve->max; k++)
        {
          gfloat  at = curve->thresholds[k];
          gfloat  below = nextafterf (at, -1.0f);
          gdouble in[8], out[8];
          gint    c;

          for (c = 0; c < n; c++)
            {
              in[c] = at;
              in[n + c] = below;
            }
          babl_process (babl_fish (exact, curved), in, out, 2);
          g_assert_cmpfloat (out[0] * curve->max, >=, k - 0.5);
          g_assert_cmpfloat (out[n] * curve->max, <, k - 0.5);
          g_assert_cmpuint (encode_grey (format, at), ==, k);
          g_assert_cmpuint (encode_grey (format, below), ==, k - 1);
        }
      g_assert_cmpuint (encode_grey (format, NAN), ==, 0);
      g_assert_cmpuint (encode_grey (format, -1.0f), ==, 0);
      g_assert_cmpuint (encode_grey (format, 2.0f), ==, curve->max);
      g_assert_cmpuint (encode_grey (format, INFINITY), ==, curve->max);
    }
}

/* samples for an 8-bit curve: its thresholds and the floats just below
 * them, what lies beyond its ends, and noise */
static gfloat
lanes_sample (const CblurCurve *curve,
              GRand            *rand,
              gint              i)
{
  static const gfloat beyond[] = { NAN, INFINITY, -INFINITY, -0.0f, 0.0f, -0.5f, 1.0f, 7.0f,
                                   CBLUR_ALPHA_FLOOR, 1e-30f };
  guint               k = 1 + (guint) i / 4 % curve->max;

  if (i < 4 * (gint) curve->max)
    return i / 2 % 2 ? nextafterf (curve->thresholds[k], 0.0f) : curve->thresholds[k];
  if (g_rand_int_range (rand, 0, 8) == 0)
    return beyond[g_rand_int_range (rand, 0, G_N_ELEMENTS (beyond))];
  return g_rand_double_range (rand, -0.1, 1.1);
}

/* alphas that encode to the curve's top code */
static gfloat
opaque_alpha (const CblurCurve *curve,
              gsize             p)
{
  const gfloat alphas[] = { 1.0f, nextafterf (1.0f, 0.0f), nextafterf (1.0f, 2.0f),
                            curve->thresholds[curve->max] };

  return alphas[p % G_N_ELEMENTS (alphas)];
}

/* Decoding into every other pixel, premultiplied as it goes, against
 * decoding and premultiplying. */
static void
check_decode_spread (const CblurFormat *format,
                     const guint8      *stored,
                     const gfloat      *decoded,
                     gsize              length)
{
  g_autofree gfloat *expected = g_new (gfloat, length * 4);
  g_autofree gfloat *spread = g_new0 (gfloat, length * 8);
  gsize              p;

  memcpy (expected, decoded, length * 16);
  cblur_premultiply_pixels (expected, length);
  cblur_format_decode_spread (format, stored, spread, length, 2, TRUE);
  for (p = 0; p < length; p++)
    g_assert_cmpmem (spread + p * 8, 16, expected + p * 4, 16);
  cblur_format_decode_spread (format, stored, spread, length, 2, FALSE);
  for (p = 0; p < length; p++)
    g_assert_cmpmem (spread + p * 8, 16, decoded + p * 4, 16);
}

/* The 8-bit RGBA formats' vectors (cblur-format-lanes) against the
 * loops, bit for bit, at every threshold of every component, beyond the
 * curves' ends, at alphas around babl's floor and of opaque pixels, in
 * runs of every length mod 8, in place too, and decoding into a line of
 * interleaved rows. */
static void
test_lanes (void)
{
  static const Case cases[] = {
    { "R'G'B'A u8", "sRGB" }, { "R'G'B'A u8", "ProPhoto" }, { "RGBA u8", "sRGB" },
    { "R~G~B~A u8", "Apple" },
  };
  const gsize n = 4 * 1024 + 7;
  gsize       i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const CblurFormat *format = cblur_format_get (babl_format_with_space (cases[i].encoding, babl_space (cases[i].space)));
      CblurFormat        loops = *format;
      g_autofree gfloat *pixels = g_new (gfloat, n * 4);
      g_autofree gfloat *decoded = g_new (gfloat, n * 4);
      g_autofree gfloat *expected = g_new (gfloat, n * 4);
      g_autofree gfloat *in_place = g_new (gfloat, n * 4);
      g_autofree guint8 *ours = g_new (guint8, n * 4);
      g_autofree guint8 *theirs = g_new (guint8, n * 4);
      g_autoptr (GRand)  rand = g_rand_new_with_seed (i);
      gsize              length, p;
      gint               c;

      if (format->lanes == NULL)
        {
          g_test_skip ("no AVX2");
          return;
        }
      loops.lanes = NULL;
      /* the first half opaque, with alphas at and around 1 that encode to
       * the top code, then every other pixel opaque, where the colours
       * encode as they are */
      for (p = 0; p < n; p++)
        for (c = 0; c < 4; c++)
          pixels[p * 4 + c] = c == 3 && p < n / 2
                                ? opaque_alpha (format->curves[3], p)
                                : c == 3 && p % 2 == 0
                                ? 1.0f
                                : lanes_sample (format->curves[c], rand, (gint) (p + c) % 1024);
      for (length = n - 8; length <= n; length++)
        {
          cblur_format_encode (format, pixels, ours, length);
          cblur_format_encode (&loops, pixels, theirs, length);
          g_assert_cmpmem (ours, length * 4, theirs, length * 4);
          memcpy (in_place, pixels, length * 4 * sizeof (gfloat));
          cblur_format_encode (format, in_place, (guint8 *) in_place, length);
          g_assert_cmpmem (in_place, length * 4, theirs, length * 4);

          cblur_format_decode (format, theirs, decoded, length);
          cblur_format_decode (&loops, theirs, expected, length);
          g_assert_cmpmem (decoded, length * 16, expected, length * 16);
          memcpy (in_place, theirs, length * 4);
          cblur_format_decode (format, (guint8 *) in_place, in_place, length);
          g_assert_cmpmem (in_place, length * 16, expected, length * 16);
          check_decode_spread (format, theirs, expected, length);
          check_decode_spread (&loops, theirs, expected, length);
        }
    }
}

/* the sRGB curve in double precision, as its definition has it */
static gdouble
exact_decode (gdouble v)
{
  return v > 0.04045 ? pow ((v + 0.055) / 1.055, 2.4) : v / 12.92;
}

static gdouble
exact_encode (gdouble x)
{
  return x > 0.0031308 ? 1.055 * pow (x, 1.0 / 2.4) - 0.055 : x * 12.92;
}

/* how far the computed curve's value lies from expected, for a sample
 * whose larger side of 1 is scale: relative beyond 1 */
static gdouble
curve_error (gfloat  computed,
             gdouble expected,
             gdouble scale)
{
  return fabs (computed - expected) / MAX (1.0, scale);
}

/* The computed sRGB curve: within 1e-6 of the exact curve, relative
 * beyond 1, over every 1021st float from -2 to 64, and of babl's float
 * conversions both ways up to 1 (above, babl's power drifts from the
 * exact one, by 8% at 17); white and black stay, and infinities and NaN
 * stay what they are. */
static void
test_srgb (void)
{
  const Babl        *curved = babl_format ("R'G'B' float");
  const Babl        *linear = babl_format ("RGB float");
  gsize              n = 0x42800000u / 1021 + 1;
  g_autofree gfloat *values = g_new (gfloat, 3 * n);
  g_autofree gfloat *decoded = g_new (gfloat, 3 * n);
  g_autofree gfloat *encoded = g_new (gfloat, 3 * n);
  gsize              i;

  for (i = 0; i < n; i++)
    {
      guint32 bits = i * 1021;
      gfloat  value;

      memcpy (&value, &bits, sizeof value);
      /* the negatives' toe, to -2, on every other sample */
      values[3 * i] = values[3 * i + 1] = values[3 * i + 2] =
        i % 2 == 1 && value <= 2.0f ? -value : value;
    }
  babl_process (babl_fish (curved, linear), values, decoded, n);
  babl_process (babl_fish (linear, curved), values, encoded, n);
  for (i = 0; i < n; i++)
    {
      gfloat  value = values[3 * i];
      gfloat  ours_decoded = cblur_srgb_decode (value);
      gfloat  ours_encoded = cblur_srgb_encode (value);
      gdouble decode_scale = exact_decode (fabs (value));

      g_assert_cmpfloat (curve_error (ours_decoded, exact_decode (value), decode_scale), <=, 1e-6);
      g_assert_cmpfloat (curve_error (ours_encoded, exact_encode (value), fabs (value)), <=, 1e-6);
      if (value > 1.0f)
        continue;
      g_assert_cmpfloat (fabs (ours_decoded - decoded[3 * i]), <=, 1e-6);
      g_assert_cmpfloat (fabs (ours_encoded - encoded[3 * i]), <=, 1e-6);
    }
  g_assert_cmpfloat (cblur_srgb_decode (1.0f), ==, 1.0f);
  g_assert_cmpfloat (cblur_srgb_encode (1.0f), ==, 1.0f);
  g_assert_cmpfloat (cblur_srgb_decode (0.0f), ==, 0.0f);
  g_assert_cmpfloat (cblur_srgb_encode (0.0f), ==, 0.0f);
  g_assert_cmpfloat (cblur_srgb_decode (INFINITY), ==, INFINITY);
  g_assert_cmpfloat (cblur_srgb_encode (INFINITY), ==, INFINITY);
  g_assert_cmpfloat (cblur_srgb_encode (-INFINITY), ==, -INFINITY);
  g_assert_true (isnan (cblur_srgb_decode (NAN)));
  g_assert_true (isnan (cblur_srgb_encode (NAN)));
}

/* The computed power, at the exponents GEGL's gamma formulas take and a
 * few more: within 5e-7 of the exact power, relative, over every 4093rd
 * positive normal float whose power is a float from 2^-120 up, and below
 * 2^-118 where the power is smaller; 0 and the subnormals give 0, 1 gives
 * 1, +inf and NaN stay what they are. */
static void
test_power (void)
{
  static const gfloat exponents[] = { 1.0f / 2.4f, 0.4545f, 0.9999f, 1.0908f,
                                      2.2f, 2.39976f, 3.0f, 4.0f };
  gsize               e;

  for (e = 0; e < G_N_ELEMENTS (exponents); e++)
    {
      gfloat  a = exponents[e];
      guint32 bits;

      for (bits = 0x00800000u; bits < 0x7f800000u; bits += 4093)
        {
          gfloat  x;
          gdouble exact;

          memcpy (&x, &bits, sizeof x);
          exact = pow (x, a);
          if (exact > FLT_MAX)
            continue;
          if (exact < 0x1p-120)
            g_assert_cmpfloat (cblur_power (x, a), <, 0x1p-118);
          else
            g_assert_cmpfloat (fabs (cblur_power (x, a) - exact) / exact, <=, 5e-7);
        }
      g_assert_cmpfloat (cblur_power (1.0f, a), ==, 1.0f);
      g_assert_cmpfloat (cblur_power (0.0f, a), ==, 0.0f);
      g_assert_cmpfloat (cblur_power (FLT_MIN / 4.0f, a), ==, 0.0f);
      g_assert_cmpfloat (cblur_power (INFINITY, a), ==, INFINITY);
      g_assert_true (isnan (cblur_power (NAN, a)));
    }
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);

  g_test_add_func ("/format/curves", test_curves);
  g_test_add_func ("/format/lanes", test_lanes);
  g_test_add_func ("/format/srgb", test_srgb);
  g_test_add_func ("/format/power", test_power);

  return g_test_run ();
}
