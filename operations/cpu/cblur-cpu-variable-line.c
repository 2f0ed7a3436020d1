#include "cblur-cpu-variable-line.h"

#include "cblur-vectors.h"

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
cblur_variable_line_scratch_bytes (gint n_in,
                                   gint lines)
{
  /* the running sums, the lines between passes and each box's factors,
   * in a whole number of vectors: callers put pixels after it */
  gsize bytes = (gsize) n_in * lines * (sizeof (Sum) + sizeof (CblurPixel) + sizeof (Factors));

  return (bytes + sizeof (Sum) - 1) / sizeof (Sum) * sizeof (Sum);
}

static inline __attribute__ ((always_inline)) void
box_factors (const CblurBoxWidth *widths,
             gsize                n,
             Factors             *factors)
{
  gsize e;

  for (e = 0; e < n; e++)
    factors[e] = (Factors) { widths[e].fraction,
                             1.0 / (2 * widths[e].half + 1 + 2.0 * widths[e].fraction) };
}

/* Running sums of each line of in, restarting at absolute multiples of
 * the block and at the lines' start: sums[e] holds its line's elements
 * from the start of e's block (or of the line) up to e.  A line's sum
 * runs two elements a step, the pair added first, so that one addition a
 * step waits on the last. */
static inline __attribute__ ((always_inline)) void
running_sums (const CblurPixel *in,
              gint              n,
              gsize             lines,
              gint64            origin,
              gint64            block_mask,
              Sum              *sums)
{
  gint  start, j;
  gsize c;

  for (start = 0; start < n; )
    {
      gint end = MIN (n, start + (gint) (block_mask + 1 - ((origin + start) & block_mask)));

      for (c = 0; c < lines; c++)
        {
          Sum running = { 0 };

          for (j = start; j + 1 < end; j += 2)
            {
              Sum first = WIDEN (in[j * lines + c]);

              sums[j * lines + c] = running + first;
              running += first + WIDEN (in[(j + 1) * lines + c]);
              sums[(j + 1) * lines + c] = running;
            }
          if (j < end)
            sums[j * lines + c] = running + WIDEN (in[j * lines + c]);
        }
      start = end;
    }
}

/* One pass: output i of each line is the box of its element i + s, s the
 * widest box's reach; a box of one pixel and no fraction hands it on as
 * it is. */
static inline __attribute__ ((always_inline)) void
variable_pass (const CblurVariable *variable,
               const CblurPixel    *in,
               gint                 n_in,
               gsize                lines,
               gint64               origin,
               const CblurBoxWidth *widths,
               const Factors       *factors,
               CblurPixel          *out,
               gsize                out_step,
               Sum                 *sums)
{
  gssize s = variable->max_half + 1;
  gint64 block_mask = ((gint64) 1 << variable->block_shift) - 1;
  gssize i;
  gsize  c;

  running_sums (in, n_in, lines, origin, block_mask, sums);
  for (i = 0; i < n_in - 2 * s; i++)
    for (c = 0; c < lines; c++)
      {
        gssize     j = i + s;
        gsize      e = j * lines + c;
        gssize     k = widths[e].half;
        gsize      l = (j - k - 1) * lines + c;
        gsize      r = (j + k) * lines + c;
        gint64     at;
        Sum        whole, sum;

        if (G_UNLIKELY (k == 0) && factors[e].fraction == 0.0)
          {
            out[i * out_step + c] = in[e];
            continue;
          }
        /* the window (j - k - 1, j + k]: the difference of two sums where
         * the block of its end holds all of it, else also the whole block
         * before, the sum just before the end's block starts */
        at = (origin + j + k) & block_mask;
        whole = at > 2 * k ? (Sum) { 0 } : sums[MAX (j + k - at - 1, 0) * lines + c];
        sum = sums[r] - sums[l] + whole + WIDEN (in[l] + in[r + lines]) * factors[e].fraction;
        out[i * out_step + c] = __builtin_convertvector (sum * factors[e].scale, CblurPixel);
      }
}

/* The passes of `lines` lines side by side; inlined where `lines` is a
 * constant, so that the loops over them unroll. */
static inline __attribute__ ((always_inline)) void
variable_passes (const CblurVariable *variable,
                 const CblurPixel    *in,
                 gint                 n_in,
                 gsize                lines,
                 gint64               origin,
                 const CblurBoxWidth *widths,
                 CblurPixel          *out,
                 gsize                out_step,
                 gpointer             scratch)
{
  gsize       s = variable->max_half + 1;
  gsize       n = (gsize) n_in * lines;
  Sum        *sums = scratch;
  CblurPixel *between = (CblurPixel *) (sums + n);
  Factors    *factors = (Factors *) (between + n);
  gint        pass;

  box_factors (widths, n, factors);
  /* the passes between the first and the last go in place: output i
   * reads input elements from i on only */
  for (pass = 0; pass < variable->iterations; pass++)
    {
      gboolean last = pass == variable->iterations - 1;

      variable_pass (variable, in, n_in, lines, origin, widths, factors,
                     last ? out : between, last ? out_step : lines, sums);
      in = between;
      n_in -= 2 * s;
      origin += s;
      widths += s * lines;
      factors += s * lines;
    }
}

CBLUR_WIDEST_VECTORS void
cblur_variable_lines (const CblurVariable *variable,
                      const CblurPixel    *in,
                      gint                 n_in,
                      gint                 lines,
                      gint64               origin,
                      const CblurBoxWidth *widths,
                      CblurPixel          *out,
                      gsize                out_step,
                      gpointer             scratch)
{
  if (lines == 1)
    variable_passes (variable, in, n_in, 1, origin, widths, out, out_step, scratch);
  else if (lines == CBLUR_VARIABLE_COLUMNS)
    variable_passes (variable, in, n_in, CBLUR_VARIABLE_COLUMNS, origin, widths, out, out_step,
                     scratch);
  else
    variable_passes (variable, in, n_in, lines, origin, widths, out, out_step, scratch);
}
