#include "cblur-cpu-variable-line.h"

/* Every output is the same bits on each of these: no FMA contraction
 * (-ffp-contract=off) and the same element-wise operations, only wider. */
#define WIDEST_VECTORS __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default")))

/* A pixel's running sum in double precision: a window's sum is the
 * difference of two of them, exact to far below a float's rounding
 * whatever the window's width or the block's length. */
typedef gdouble Sum __attribute__ ((vector_size (4 * sizeof (gdouble))));

/* element by element: GCC makes one conversion of this where it makes
 * four instructions of __builtin_convertvector */
#define WIDEN(pixel) \
  ({ CblurPixel widened_ = (pixel); (Sum) { widened_[0], widened_[1], widened_[2], widened_[3] }; })

/* A pixel's box as its passes use it, worked out once a line rather than
 * once a pass: the boxes stay with their pixels through the passes. */
typedef struct
{
  gdouble fraction;
  gdouble scale;      /* what the box's sum is multiplied by */
} Factors;

gsize
cblur_variable_line_scratch_bytes (gint n_in)
{
  /* the running sums twice, the line between passes and each box's
   * factors, in a whole number of vectors: callers put pixels after it */
  gsize bytes = (gsize) n_in * (2 * sizeof (Sum) + sizeof (CblurPixel) + sizeof (Factors));

  return (bytes + sizeof (Sum) - 1) / sizeof (Sum) * sizeof (Sum);
}

static inline __attribute__ ((always_inline)) void
box_factors (const CblurBoxWidth *widths,
             gint                 n,
             Factors             *factors)
{
  gint j;

  for (j = 0; j < n; j++)
    factors[j] = (Factors) { widths[j].fraction,
                             1.0 / (2 * widths[j].half + 1 + 2.0 * widths[j].fraction) };
}

/* Running sums of in, restarting at absolute multiples of the block and
 * at the line's start: sums[j] holds in's elements from the start of j's
 * block (or of the line) up to j, and rests[j] the same less the whole
 * block's, minus what follows j there.  The sum runs two elements a step,
 * the pair added first, so that one addition a step waits on the last. */
static inline __attribute__ ((always_inline)) void
running_sums (const CblurPixel *in,
              gint              n,
              gint64            origin,
              gint64            block_mask,
              Sum              *sums,
              Sum              *rests)
{
  gint start, j;

  for (start = 0; start < n; )
    {
      gint end = MIN (n, start + (gint) (block_mask + 1 - ((origin + start) & block_mask)));
      Sum  running = { 0 };

      for (j = start; j + 1 < end; j += 2)
        {
          Sum first = WIDEN (in[j]);

          sums[j] = running + first;
          running += first + WIDEN (in[j + 1]);
          sums[j + 1] = running;
        }
      if (j < end)
        sums[j] = running + WIDEN (in[j]);
      for (j = start; j < end; j++)
        rests[j] = sums[j] - sums[end - 1];
      start = end;
    }
}

/* One pass: output i is the box of in's element i + s, s the widest box's
 * reach; a box of one pixel and no fraction keeps it as it is. */
static inline __attribute__ ((always_inline)) void
variable_pass (const CblurVariable *variable,
               const CblurPixel    *in,
               gint                 n_in,
               gint64               origin,
               const CblurBoxWidth *widths,
               const Factors       *factors,
               CblurPixel          *out,
               Sum                 *sums,
               Sum                 *rests)
{
  gssize s = variable->max_half + 1;
  gint64 block_mask = ((gint64) 1 << variable->block_shift) - 1;
  gssize i;

  running_sums (in, n_in, origin, block_mask, sums, rests);
  for (i = 0; i < n_in - 2 * s; i++)
    {
      gssize     j = i + s;
      gssize     k = widths[j].half;
      const Sum *before;
      Sum        sum;

      if (G_UNLIKELY (k == 0) && factors[j].fraction == 0.0)
        {
          out[i] = in[j];
          continue;
        }
      /* the window (j - k - 1, j + k]: within one block where the block
       * of its end holds all of it, else the rest of the block before */
      before = ((origin + j + k) & block_mask) > 2 * k ? sums : rests;
      sum = sums[j + k] - before[j - k - 1] +
            WIDEN (in[j - k - 1] + in[j + k + 1]) * factors[j].fraction;
      out[i] = __builtin_convertvector (sum * factors[j].scale, CblurPixel);
    }
}

WIDEST_VECTORS void
cblur_variable_line (const CblurVariable *variable,
                     const CblurPixel    *in,
                     gint                 n_in,
                     gint64               origin,
                     const CblurBoxWidth *widths,
                     CblurPixel          *out,
                     gpointer             scratch)
{
  gint        s = variable->max_half + 1;
  Sum        *sums = scratch;
  Sum        *rests = sums + n_in;
  CblurPixel *between = (CblurPixel *) (rests + n_in);
  Factors    *factors = (Factors *) (between + n_in);
  gint        pass;

  box_factors (widths, n_in, factors);
  /* the passes between the first and the last go in place: output i
   * reads input elements from i on only */
  for (pass = 0; pass < variable->iterations; pass++)
    {
      CblurPixel *to = pass == variable->iterations - 1 ? out : between;

      variable_pass (variable, in, n_in, origin, widths, factors, to, sums, rests);
      in = between;
      n_in -= 2 * s;
      origin += s;
      widths += s;
      factors += s;
    }
}
