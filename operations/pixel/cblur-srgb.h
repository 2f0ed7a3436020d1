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
#include <glib.h>

#include "cblur-power.h"

G_BEGIN_DECLS

/* at and below these, the curve is its straight toe */
#define CBLUR_SRGB_DECODE_KNEE 0.04045f
#define CBLUR_SRGB_ENCODE_KNEE 0.003130804954f

/* x^(p/q) for x positive and normal, or +inf (cblur-power.h's parts):
 * pe/q splits exactly into a whole n and r/q (in integers, e made
 * non-negative by a multiple of 60, which 5 and 12 divide), and
 * r/q + (p/q) log2 m goes to the power of 2. */
static inline gfloat
cblur_srgb_power (gfloat x,
                  gint32 p,
                  gint32 q,
                  gfloat ratio,
                  gfloat inverse_q)
{
  gint32 biased, e, whole;
  gfloat log2_m = cblur_power_log2_split (x, &biased, &e);

  whole = p * (e + 180);
  return cblur_power_exp2 (whole / q - 180 * p / q,
                           (gfloat) (whole % q) * inverse_q + ratio * log2_m, biased);
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
