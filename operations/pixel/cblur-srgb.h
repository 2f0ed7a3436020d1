/* The sRGB transfer curve in float, for the float and half formats whose
 * colours carry it (cblur-format): computed, where the integer formats
 * look their curves up, since a float sample has no table of codes.  It
 * is babl's piecewise curve, its power within a few units in the last
 * place of the exact one.
 *
 * shaders/srgb.glsl does the same operations in the same order, each
 * exact in GLSL as in C (adds, multiplies, floor, bits, and quotients in
 * double there, which round as float's do here; the build does not fuse
 * multiplies and adds), so that the GPU converts bit for bit as the CPU
 * does.  Pure functions of a float, for loops the compiler vectorizes. */
#ifndef CBLUR_SRGB_H
#define CBLUR_SRGB_H

#include <math.h>
#include <string.h>
#include <glib.h>

G_BEGIN_DECLS

/* at and below these, the curve is its straight toe */
#define CBLUR_SRGB_DECODE_KNEE 0.04045f
#define CBLUR_SRGB_ENCODE_KNEE 0.003130804954f

/* x^(p/q) for x positive and normal, or +inf.  x = m 2^e with m in
 * [sqrt(1/2), sqrt(2)), so x^(p/q) = 2^(pe/q) m^(p/q): pe/q splits
 * exactly into a whole n and r/q (in integers, e made non-negative by a
 * multiple of 60, which 5 and 12 divide), and z = r/q + (p/q) log2 m into
 * a whole k and f in [-1/2, 1/2], whose power of 2 a polynomial gives. */
static inline gfloat
cblur_srgb_power (gfloat x,
                  gint32 p,
                  gint32 q,
                  gfloat ratio,
                  gfloat inverse_q)
{
  guint32 bits, scale;
  gint32  biased, up, e, whole, n;
  gfloat  m, t, s, log2_m, z, k, f, power, result;

  memcpy (&bits, &x, sizeof bits);
  biased = (gint32) (bits >> 23);
  up = (bits & 0x7fffffu) >= 0x3504f3u;
  e = biased - 127 + up;
  bits = (bits & 0x7fffffu) | (guint32) (127 - up) << 23;
  memcpy (&m, &bits, sizeof m);

  /* log2 m = 2 atanh (t) / ln 2, |t| < 0.172 */
  t = (m - 1.0f) / (m + 1.0f);
  s = t * t;
  log2_m = t * (2.88539004f +
                s * (0.961796701f + s * (0.577078044f + s * (0.412198573f + s * 0.3205989f))));

  whole = p * (e + 180);
  n = whole / q - 180 * p / q;
  z = (gfloat) (whole % q) * inverse_q + ratio * log2_m;
  k = floorf (z + 0.5f);
  f = z - k;
  power = 1.0f + f * (0.693147182f +
                      f * (0.240226507f +
                           f * (0.0555041097f +
                                f * (0.00961812865f +
                                     f * (0.00133335579f +
                                          f * (0.000154035297f + f * 1.52527336e-05f))))));

  /* 2^(n + k), less 2 applied after: past 2^127 the result is +inf */
  n = biased == 255 ? 129 : CLAMP (n + (gint32) k, -120, 129);
  scale = (guint32) (n - 2 + 127) << 23;
  memcpy (&result, &scale, sizeof result);
  return power * result * 4.0f;
}

/* A sample on the curve, linear.  Both pieces, then the one that
 * applies, without a branch, so that loops vectorize: the power of a
 * value at or below the knee is a number of no use, never a trap. */
static inline gfloat
cblur_srgb_decode (gfloat v)
{
  gfloat power = cblur_srgb_power ((v + 0.055f) / 1.055f, 12, 5, 2.4000001f, 0.200000003f);

  return v > CBLUR_SRGB_DECODE_KNEE ? power : v * 0.0773993805f;
}

/* a linear sample on the curve: 1.055 (x^(1/2.4) - 1) + 1, exact at 1 */
static inline gfloat
cblur_srgb_encode (gfloat x)
{
  gfloat power = cblur_srgb_power (x, 5, 12, 0.416666657f, 0.0833333358f);

  return x > CBLUR_SRGB_ENCODE_KNEE ? (power - 1.0f) * 1.055f + 1.0f : x * 12.92f;
}

G_END_DECLS

#endif
