#include "cblur-cpu-variable-line.h"

/* Every output is the same bits on each of these: no FMA contraction
 * (-ffp-contract=off) and the same element-wise operations, only wider. */
#define WIDEST_VECTORS __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default")))

/* A pixel's running sum in double precision: a window's sum is the
 * difference of two of them, exact to far below a float's rounding
 * whatever the window's width or the block's length. */
typedef gdouble Sum __attribute__ ((vector_size (4 * sizeof (gdouble))));

#define WIDEN(pixel) __builtin_convertvector ((pixel), Sum)

gsize
cblur_variable_line_scratch_bytes (gint n_in)
{
  /* the running sums, the line between passes and each box's scale, in a
   * whole number of vectors: callers put pixels after it */
  gsize bytes = (gsize) n_in * (sizeof (Sum) + sizeof (CblurPixel) + sizeof (gdouble));

  return (bytes + sizeof (Sum) - 1) / sizeof (Sum) * sizeof (Sum);
}

/* What each pixel's box divides by, once a line rather than once a pass:
 * the boxes stay with their pixels through the passes. */
static inline __attribute__ ((always_inline)) void
box_scales (const CblurBoxWidth *widths,
            gint                 n,
            gdouble             *scales)
{
  gint j;

  for (j = 0; j < n; j++)
    scales[j] = 1.0 / (2 * widths[j].half + 1 + 2.0 * widths[j].fraction);
}

/* Running sums of in, restarting at absolute multiples of the block and
 * at the line's start: sums[j] holds in's elements from the start of j's
 * block (or of the line) up to j. */
static inline __attribute__ ((always_inline)) void
running_sums (const CblurPixel *in,
              gint              n,
              gint64            origin,
              gint64            block_mask,
              Sum              *sums)
{
  Sum running = { 0 };
  gint j;

  for (j = 0; j < n; j++)
    {
      if (((origin + j) & block_mask) == 0)
        running = (Sum) { 0 };
      running += WIDEN (in[j]);
      sums[j] = running;
    }
}

/* The window [l, r] of a line's running sums.  It spans at most two
 * blocks: where l's block ends before r, that block's rest from l plus
 * r's block up to r; else the difference within one block.  Selects
 * rather than branches: windows straddle blocks at random. */
static inline __attribute__ ((always_inline)) void
window_sum (const Sum *sums,
            gint       l,
            gint       r,
            gint64     origin,
            gint       shift,
            gint64     block_mask,
            Sum       *sum)
{
  gint64 at = origin + l;
  gint   block_end = l + (gint) (block_mask - (at & block_mask));
  /* l starts its block: nothing before it to take away (l is past the
   * line's first element, where the sums also start) */
  Sum    before = (at & block_mask) == 0 ? (Sum) { 0 } : sums[MAX (l - 1, 0)];
  Sum    rest = ((origin + r) >> shift) != (at >> shift) ? sums[MIN (block_end, r)]
                                                         : (Sum) { 0 };

  *sum = sums[r] - before + rest;
}

/* One pass: output i is the box of in's element i + s, s the widest box's
 * reach; a box of one pixel and no fraction keeps it as it is. */
static inline __attribute__ ((always_inline)) void
variable_pass (const CblurVariable *variable,
               const CblurPixel    *in,
               gint                 n_in,
               gint64               origin,
               const CblurBoxWidth *widths,
               const gdouble       *scales,
               CblurPixel          *out,
               Sum                 *sums)
{
  gint   s = variable->max_half + 1;
  gint   shift = variable->block_shift;
  gint64 block_mask = ((gint64) 1 << shift) - 1;
  gint   i;

  running_sums (in, n_in, origin, block_mask, sums);
  for (i = 0; i < n_in - 2 * s; i++)
    {
      gint    j = i + s;
      gint    k = widths[j].half;
      gdouble a = widths[j].fraction;
      Sum     sum;

      if (k == 0 && a == 0.0)
        {
          out[i] = in[j];
          continue;
        }
      window_sum (sums, j - k, j + k, origin, shift, block_mask, &sum);
      sum += WIDEN (in[j - k - 1] + in[j + k + 1]) * a;
      out[i] = __builtin_convertvector (sum * scales[j], CblurPixel);
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
  CblurPixel *between = (CblurPixel *) (sums + n_in);
  gdouble    *scales = (gdouble *) (between + n_in);
  gint        pass;

  box_scales (widths, n_in, scales);

  /* the passes between the first and the last go in place: output i
   * reads input elements from i on only */
  for (pass = 0; pass < variable->iterations; pass++)
    {
      CblurPixel *to = pass == variable->iterations - 1 ? out : between;

      variable_pass (variable, in, n_in, origin, widths, scales, to, sums);
      in = between;
      n_in -= 2 * s;
      origin += s;
      widths += s;
      scales += s;
    }
}
