/* An integer format's transfer curves as tables, from babl in the
 * format's own space: a decode table (code -> linear value) and, for the
 * way back, thresholds (the least linear value that rounds to each code
 * in babl's double-precision curve). */
#ifndef CBLUR_CURVE_H
#define CBLUR_CURVE_H

#include <string.h>
#include <babl/babl.h>
#include <glib.h>

G_BEGIN_DECLS

/* the code of the least float of a bucket, and the next code's threshold */
typedef struct
{
  gfloat  next;
  guint32 code;
} CblurBucket;

/* one component's transfer curve, for the integer types */
typedef struct
{
  guint              max;          /* the largest code: 255 or 65535 */
  const gfloat      *decode;       /* code -> linear value: max + 1 of them */
  const gfloat      *thresholds;   /* [k]: the least value that encodes to k;
                                    * [0] is -inf and [max + 1] +inf */
  /* the CPU's way into thresholds: values from thresholds[max] on are
   * max; the rest, clamped to [low, high] (which encode to 0 and max - 1),
   * find buckets[b] by their bits >> bucket_shift, first_bucket + b;
   * one_step where no bucket holds more than one threshold */
  gfloat             low;
  gfloat             high;
  const CblurBucket *buckets;
  guint32            first_bucket;
  gint               bucket_shift;
  gboolean           one_step;
  /* decode is code / max, and a value's code is value * max + 0.5 in
   * double precision, rounded down, as babl rounds */
  gboolean           identity;
} CblurCurve;

/* The curves of the n_components of a format whose largest code is max,
 * from babl's conversions between `curved` (the format's components) and
 * `linear` (the same without a curve), both in double precision; the
 * components with the same curve share it, and curves live as long as
 * the process. */
void cblur_curves_make (const Babl        *linear,
                        const Babl        *curved,
                        gint               n_components,
                        guint              max,
                        const CblurCurve **curves);

/* a float's bits, in order as unsigned integers for non-negative floats */
static inline guint32
cblur_float_bits (gfloat value)
{
  guint32 bits;

  memcpy (&bits, &value, sizeof bits);
  return bits;
}

G_END_DECLS

#endif
