/* Powers of floats without libm's calls: pure functions of their
 * arguments, for loops the compiler vectorizes.  x = m 2^e with m in
 * [sqrt(1/2), sqrt(2)), so x^a = 2^(a e) m^a: log2 m comes from a series
 * of atanh, the power of 2 of the fraction of a e + a log2 m from a
 * polynomial on [-1/2, 1/2], and the whole part from the exponent's bits.
 * Within a few units in the last place of the exact power.  cblur-srgb.h
 * builds its curve's rational powers from the same parts, in the order
 * shaders/srgb.glsl follows. */
#ifndef CBLUR_POWER_H
#define CBLUR_POWER_H

#include <float.h>
#include <string.h>
#include <glib.h>

G_BEGIN_DECLS

/* x's exponent e and log2 m, for x positive and normal; *biased is the
 * exponent's bits, 255 for +inf and NaN */
static inline gfloat
cblur_power_log2_split (gfloat  x,
                        gint32 *biased,
                        gint32 *e)
{
  guint32 bits;
  gint32  up;
  gfloat  m, t, s;

  memcpy (&bits, &x, sizeof bits);
  *biased = (gint32) (bits >> 23);
  up = (bits & 0x7fffffu) >= 0x3504f3u;
  *e = *biased - 127 + up;
  bits = (bits & 0x7fffffu) | (guint32) (127 - up) << 23;
  memcpy (&m, &bits, sizeof m);

  /* log2 m = 2 atanh (t) / ln 2, |t| < 0.172 */
  t = (m - 1.0f) / (m + 1.0f);
  s = t * t;
  return t * (2.88539004f +
              s * (0.961796701f + s * (0.577078044f + s * (0.412198573f + s * 0.3205989f))));
}

/* 2^(n + z) for z within a few units of [-1/2, 1/2]: past 2^127 +inf
 * (as for biased 255, x's +inf or NaN), below 2^-120 too small to matter */
static inline gfloat
cblur_power_exp2 (gint32 n,
                  gfloat z,
                  gint32 biased)
{
  gfloat  k = floorf (z + 0.5f);
  gfloat  f = z - k;
  gfloat  power, result;
  guint32 scale;

  power = 1.0f + f * (0.693147182f +
                      f * (0.240226507f +
                           f * (0.0555041097f +
                                f * (0.00961812865f +
                                     f * (0.00133335579f +
                                          f * (0.000154035297f + f * 1.52527336e-05f))))));

  /* 2^(n + k), less 2 applied after */
  n = biased == 255 ? 129 : CLAMP (n + (gint32) k, -120, 129);
  scale = (guint32) (n - 2 + 127) << 23;
  memcpy (&result, &scale, sizeof result);
  return power * result * 4.0f;
}

/* x^a for a in (0, 4]: 0 for x below the normal floats, and a number
 * below 2^-118 where x^a is below 2^-120 (both nearer 0 than any pixel
 * tells apart); +inf for +inf, NaN for NaN.
 * a's 12 leading bits times e are exact, so a e's whole part leaves
 * nothing of its fraction behind. */
static inline gfloat
cblur_power (gfloat x,
             gfloat a)
{
  guint32 bits;
  gint32  biased, e;
  gfloat  log2_m = cblur_power_log2_split (x, &biased, &e);
  gfloat  a_high, product, whole, power;

  memcpy (&bits, &a, sizeof bits);
  bits &= 0xfffff000u;
  memcpy (&a_high, &bits, sizeof a_high);
  product = a_high * (gfloat) e;
  whole = floorf (product + 0.5f);
  power = cblur_power_exp2 ((gint32) whole,
                            (product - whole) + (a - a_high) * (gfloat) e + a * log2_m,
                            biased);
  return x >= FLT_MIN ? power : x == x ? 0.0f : x;
}

G_END_DECLS

#endif
