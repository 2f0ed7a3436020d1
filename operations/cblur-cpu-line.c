#include "cblur-cpu-line.h"

#include <string.h>
#include <gegl.h>

/* Every output is the same bits on each of these: no FMA contraction
 * (-ffp-contract=off) and the same element-wise operations, only wider. */
#define WIDEST_VECTORS __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default")))

/* Accumulators for this many pixels stay in registers. */
#define DIRECT_GROUP 8

static inline __attribute__ ((always_inline)) void
direct_group (const gfloat     *w,
              gint              hw,
              const CblurPixel *centre,
              gsize             step,
              CblurPixel       *dst,
              const gint        pixels)
{
  const gint    lanes = pixels * CBLUR_CHANNELS;
  const gfloat *mid = (const gfloat *) centre;
  gfloat        acc[DIRECT_GROUP * CBLUR_CHANNELS];
  gint          j, c;

  for (c = 0; c < lanes; c++)
    acc[c] = mid[c] * w[0];

  for (j = 1; j <= hw; j++)
    {
      const gfloat *restrict before = (const gfloat *) (centre - (gsize) j * step);
      const gfloat *restrict after = (const gfloat *) (centre + (gsize) j * step);

      for (c = 0; c < lanes; c++)
        acc[c] += (before[c] + after[c]) * w[j];
    }

  for (c = 0; c < lanes; c++)
    ((gfloat *) dst)[c] = acc[c];
}

WIDEST_VECTORS static void
direct_line (const CblurKernel *kernel,
             CblurLine          in,
             CblurLineOut       out,
             gint               n_out,
             gint               pixels)
{
  const gfloat *w = kernel->weights;
  gint          hw = kernel->half_width;
  gint          i, p;

  for (i = 0; i < n_out; i++)
    {
      const CblurPixel *centre = in.data + (gsize) (i + hw) * in.step;
      CblurPixel       *dst = out.data + (gsize) i * out.step;

      /* constant group sizes let the compiler unroll the pixel loops */
      for (p = 0; p + DIRECT_GROUP <= pixels; p += DIRECT_GROUP)
        direct_group (w, hw, centre + p, in.step, dst + p, DIRECT_GROUP);
      if (p < pixels)
        direct_group (w, hw, centre + p, in.step, dst + p, pixels - p);
    }
}

/* One box pass.  Window sums are suffix sums of the left block plus prefix
 * sums of the right one, with blocks of the window's length anchored at
 * absolute coordinates, so each sum reads only pixels inside its window and
 * every output is the same whatever region it is computed in.  The pass
 * goes a block at a time, its suffix sums in a block-long buffer that stays
 * in the core's cache (over whole lines they went out to memory and back,
 * which bounded the pass on memory bandwidth); the prefix sum grows one
 * element an output, in registers. */
static inline __attribute__ ((always_inline)) void
box_pass_pixels (const CblurKernel *kernel,
                 CblurLine          in,
                 gint               n_in,
                 gint64             origin,
                 CblurLineOut       out,
                 CblurPixel        *suffix,
                 const gint         pixels)
{
  gint   k = kernel->box_half;
  gint   block = kernel->box_block;
  gfloat fraction = kernel->box_fraction;
  gfloat scale = kernel->box_scale;
  gint   n_out = n_in - 2 * (k + 1);
  gint   lanes = pixels * CBLUR_CHANNELS;
  gint   start, i, j, c;

#define PIXEL(base, step, index) ((gfloat *) ((base) + (gsize) (index) * (step)))

  /* output i is the window [i + 1, i + 2k + 1] plus the fraction of
   * elements i and i + 2k + 2; `start` is the first element of the block
   * that holds i + 1, whose suffix sums and the next block's prefix sums
   * make the windows */
  for (start = 1 - cblur_floor_mod (origin + 1, block); start <= n_out; start += block)
    {
      gint   first = MAX (start, 1);                   /* i + 1 of the first output */
      gint   end = MIN (start + block, n_out + 1);     /* ... past the last */
      gint   last_in = MIN (start + block, n_in) - 1;  /* the block's last element */
      gfloat prefix[CBLUR_STRIP_PIXELS * CBLUR_CHANNELS];    /* the next block's start to i + 2k + 1 */

      if (first >= end)
        continue;

      /* suffix[j - start]: elements j to the block's end */
      memcpy (PIXEL (suffix, pixels, last_in - start), PIXEL (in.data, in.step, last_in),
              lanes * sizeof (gfloat));
      for (j = last_in - 1; j >= first; j--)
        {
          gfloat       *restrict suf = PIXEL (suffix, pixels, j - start);
          const gfloat *restrict after = PIXEL (suffix, pixels, j + 1 - start);
          const gfloat *restrict src = PIXEL (in.data, in.step, j);

          for (c = 0; c < lanes; c++)
            suf[c] = after[c] + src[c];
        }

      i = first - 1;
      if (first == start)
        {
          /* a window that starts a block is that whole block */
          const gfloat *restrict suf = PIXEL (suffix, pixels, 0);
          const gfloat *restrict left = PIXEL (in.data, in.step, i);
          const gfloat *restrict right = PIXEL (in.data, in.step, i + 2 * k + 2);
          gfloat       *restrict dst = PIXEL (out.data, out.step, i);

          for (c = 0; c < lanes; c++)
            dst[c] = (suf[c] + (left[c] + right[c]) * fraction) * scale;
          i++;
        }
      if (i >= end - 1)
        continue;

      memcpy (prefix, PIXEL (in.data, in.step, start + block), lanes * sizeof (gfloat));
      for (j = start + block + 1; j <= i + 2 * k + 1; j++)
        {
          const gfloat *restrict src = PIXEL (in.data, in.step, j);

          for (c = 0; c < lanes; c++)
            prefix[c] += src[c];
        }
      for (; i < end - 1; i++)
        {
          const gfloat *restrict suf = PIXEL (suffix, pixels, i + 1 - start);
          const gfloat *restrict left = PIXEL (in.data, in.step, i);
          const gfloat *restrict right = PIXEL (in.data, in.step, i + 2 * k + 2);
          gfloat       *restrict dst = PIXEL (out.data, out.step, i);

          for (c = 0; c < lanes; c++)
            {
              dst[c] = ((suf[c] + prefix[c]) + (left[c] + right[c]) * fraction) * scale;
              /* the next output's window ends at this one's right */
              prefix[c] += right[c];
            }
        }
    }

#undef PIXEL
}

WIDEST_VECTORS static void
box_pass (const CblurKernel *kernel,
          CblurLine          in,
          gint               n_in,
          gint64             origin,
          CblurLineOut       out,
          gint               pixels,
          CblurPixel        *suffix)
{
  /* constant widths let the compiler unroll the pixel loops */
  if (pixels == CBLUR_STRIP_PIXELS)
    box_pass_pixels (kernel, in, n_in, origin, out, suffix, CBLUR_STRIP_PIXELS);
  else
    box_pass_pixels (kernel, in, n_in, origin, out, suffix, pixels);
}


gsize
cblur_line_scratch_bytes (const CblurKernel *kernel,
                          gint               n_in,
                          gint               pixels)
{
  if (kernel->mode != CBLUR_MODE_BOX)
    return 0;
  return ((gsize) kernel->box_block + 2 * (gsize) n_in) * pixels * sizeof (CblurPixel);
}

void
cblur_line_scratch_init (CblurLineScratch  *scratch,
                         const CblurKernel *kernel,
                         gint               n_in,
                         gint               pixels,
                         gpointer           memory)
{
  gsize line = (gsize) n_in * pixels;

  scratch->ping = memory;
  scratch->pong = scratch->ping + line;
  scratch->suffix = scratch->pong + line;
}

static void
box_line (const CblurKernel *kernel,
          CblurLine          in,
          gint               n_in,
          gint64             origin,
          CblurLineOut       out,
          gint               pixels,
          CblurLineScratch  *scratch)
{
  gint shrink = 2 * (kernel->box_half + 1);
  gint pass;

  for (pass = 0; pass < kernel->iterations; pass++)
    {
      gboolean last = pass == kernel->iterations - 1;
      CblurPixel  *target = pass % 2 == 0 ? scratch->ping : scratch->pong;
      CblurLineOut pass_out = last ? out : (CblurLineOut) { target, pixels };

      box_pass (kernel, in, n_in, origin, pass_out, pixels,
                scratch->suffix);

      in = (CblurLine) { target, pixels };
      n_in -= shrink;
      origin += shrink / 2;
    }
}

void
cblur_line_blur (const CblurKernel *kernel,
                 CblurLine          in,
                 gint               n_in,
                 gint64             origin,
                 CblurLineOut       out,
                 gint               pixels,
                 CblurLineScratch  *scratch)
{
  if (kernel->mode == CBLUR_MODE_BOX)
    box_line (kernel, in, n_in, origin, out, pixels, scratch);
  else
    direct_line (kernel, in, out, n_in - 2 * kernel->reach, pixels);
}

