#include "cblur-cpu-line.h"

#include <string.h>
#include <gegl.h>

#include "cblur-vectors.h"

/* Accumulators for this many pixels stay in registers. */
#define DIRECT_GROUP_PIXELS 8

/* Outputs made side by side, each adding its taps in its own order: a
 * sum waits for the one before it, and a single output's few vectors of
 * sums would leave the adders idle between taps. */
#define DIRECT_OUTPUTS 4

/* `outputs` outputs `out_step` apart, their centres `step` apart */
static inline __attribute__ ((always_inline)) void
direct_group (const gfloat     *w,
              gint              hw,
              const CblurPixel *centre,
              gsize             step,
              CblurPixel       *dst,
              gsize             out_step,
              const gint        pixels,
              const gint        outputs)
{
  const gint lanes = pixels * CBLUR_CHANNELS;
  gfloat     acc[DIRECT_OUTPUTS][DIRECT_GROUP_PIXELS * CBLUR_CHANNELS];
  gint       j, c, o;

  for (o = 0; o < outputs; o++)
    for (c = 0; c < lanes; c++)
      acc[o][c] = ((const gfloat *) (centre + (gsize) o * step))[c] * w[0];

  for (j = 1; j <= hw; j++)
    for (o = 0; o < outputs; o++)
      {
        const gfloat *restrict before = (const gfloat *) (centre + (gsize) o * step -
                                                          (gsize) j * step);
        const gfloat *restrict after = (const gfloat *) (centre + (gsize) o * step +
                                                         (gsize) j * step);

        for (c = 0; c < lanes; c++)
          acc[o][c] += (before[c] + after[c]) * w[j];
      }

  for (o = 0; o < outputs; o++)
    for (c = 0; c < lanes; c++)
      ((gfloat *) (dst + (gsize) o * out_step))[c] = acc[o][c];
}

CBLUR_WIDEST_VECTORS static void
direct_line (const CblurKernelAxis *kernel,
             CblurLine          in,
             CblurLineOut       out,
             gint               n_out,
             gint               pixels)
{
  const gfloat *w = kernel->weights;
  gint          hw = kernel->half_width;
  gint          i, p, outputs;

  for (i = 0; i < n_out; i += outputs)
    {
      const CblurPixel *centre = in.data + (gsize) (i + hw) * in.step;
      CblurPixel       *dst = out.data + (gsize) i * out.step;

      /* constant group sizes and counts let the compiler unroll the loops */
      outputs = n_out - i >= DIRECT_OUTPUTS ? DIRECT_OUTPUTS : 1;
      for (p = 0; p + DIRECT_GROUP_PIXELS <= pixels; p += DIRECT_GROUP_PIXELS)
        if (outputs == DIRECT_OUTPUTS)
          direct_group (w, hw, centre + p, in.step, dst + p, out.step, DIRECT_GROUP_PIXELS,
                        DIRECT_OUTPUTS);
        else
          direct_group (w, hw, centre + p, in.step, dst + p, out.step, DIRECT_GROUP_PIXELS, 1);
      if (p < pixels && outputs == DIRECT_OUTPUTS)
        direct_group (w, hw, centre + p, in.step, dst + p, out.step, pixels - p,
                      DIRECT_OUTPUTS);
      else if (p < pixels)
        direct_group (w, hw, centre + p, in.step, dst + p, out.step, pixels - p, 1);
    }
}

/* An element of a strip in four vectors of its own, which the compiler
 * holds in registers (as one array, or one vector of the element's
 * width, it holds the running sums in memory, each element waiting on
 * the previous one's store).  Narrower elements travel in the first
 * lanes, the rest zero. */
typedef gfloat Quarter __attribute__ ((vector_size (CBLUR_STRIP_PIXELS * sizeof (CblurPixel) / 4)));
/* ... as found in lines, on whole floats */
typedef gfloat StoredQuarter __attribute__ ((vector_size (sizeof (Quarter)), aligned (4),
                                             may_alias));

typedef struct
{
  Quarter a, b, c, d;
} Lanes;

static inline __attribute__ ((always_inline)) Lanes
load_lanes (const CblurPixel *element,
            const gint        pixels)
{
  const StoredQuarter *stored = (const StoredQuarter *) element;
  Lanes                lanes = { { 0 } };

  if (pixels == CBLUR_STRIP_PIXELS / 2)
    return (Lanes) { stored[0], stored[1], { 0 }, { 0 } };
  memcpy (&lanes, element, pixels * sizeof (CblurPixel));
  return lanes;
}

static inline __attribute__ ((always_inline)) void
store_lanes (CblurPixel  *element,
             Lanes        lanes,
             const gint   pixels)
{
  StoredQuarter *stored = (StoredQuarter *) element;

  if (pixels != CBLUR_STRIP_PIXELS / 2)
    {
      memcpy (element, &lanes, pixels * sizeof (CblurPixel));
      return;
    }
  stored[0] = lanes.a;
  stored[1] = lanes.b;
}

static inline __attribute__ ((always_inline)) Lanes
add (Lanes x,
     Lanes y)
{
  return (Lanes) { x.a + y.a, x.b + y.b, x.c + y.c, x.d + y.d };
}

/* a box window's output: (sum + (left + right) * fraction) * scale */
static inline __attribute__ ((always_inline)) Lanes
window (Lanes  sum,
        Lanes  edges,
        gfloat fraction,
        gfloat scale)
{
  return (Lanes) { (sum.a + edges.a * fraction) * scale, (sum.b + edges.b * fraction) * scale,
                   (sum.c + edges.c * fraction) * scale, (sum.d + edges.d * fraction) * scale };
}

/* Cache lines of the memory ahead brought in an output: two cover the
 * next line by the time three passes after the first have gone. */
#define AHEAD_LINES 2

/* the next of the memory ahead, [*ahead, end), into the core's L2 cache */
static inline __attribute__ ((always_inline)) void
bring_in (const gchar **ahead,
          const gchar  *end)
{
  gint l;

  for (l = 0; l < AHEAD_LINES && *ahead < end; l++)
    {
      __builtin_prefetch (*ahead, 0, 2);
      *ahead += 64;
    }
}

/* One box pass.  Window sums are suffix sums of the left block plus prefix
 * sums of the right one, with blocks of the window's length anchored at
 * absolute coordinates, so each sum reads only pixels inside its window and
 * every output is the same whatever region it is computed in.  The pass
 * goes a block at a time, its suffix sums in a block-long buffer that stays
 * in the core's cache (over whole lines they would go out to memory and
 * back, bounding the pass on memory bandwidth); the prefix sum grows one
 * element an output, in registers. */
static inline __attribute__ ((always_inline)) void
box_pass_pixels (const CblurKernelAxis *kernel,
                 CblurLine          in,
                 gint               n_in,
                 gint64             origin,
                 CblurLineOut       out,
                 CblurPixel        *suffix,
                 const gint         pixels,
                 CblurLineScratch  *scratch)
{
  gint   k = kernel->box_half;
  gint   block = kernel->box_block;
  gfloat fraction = kernel->box_fraction;
  gfloat scale = kernel->box_scale;
  gint   n_out = n_in - 2 * (k + 1);
  /* in registers while the pass runs */
  const gchar *ahead = scratch != NULL ? scratch->ahead : NULL;
  const gchar *ahead_end = scratch != NULL ? scratch->ahead_end : NULL;
  gint   start, i, j;

#define IN(index)     load_lanes (in.data + (gsize) (index) * in.step, pixels)
#define SUFFIX(index) (suffix + (gsize) (index) * pixels)
#define OUT(index)    (out.data + (gsize) (index) * out.step)

  /* output i is the window [i + 1, i + 2k + 1] plus the fraction of
   * elements i and i + 2k + 2; `start` is the first element of the block
   * that holds i + 1, whose suffix sums and the next block's prefix sums
   * make the windows */
  for (start = 1 - cblur_floor_mod (origin + 1, block); start <= n_out; start += block)
    {
      gint  first = MAX (start, 1);                   /* i + 1 of the first output */
      gint  end = MIN (start + block, n_out + 1);     /* ... past the last */
      gint  last_in = MIN (start + block, n_in) - 1;  /* the block's last element */
      Lanes running;                                  /* elements j to the block's end */
      Lanes prefix;                                   /* the next block's start to i + 2k + 1 */

      if (first >= end)
        continue;

      running = IN (last_in);
      store_lanes (SUFFIX (last_in - start), running, pixels);
      for (j = last_in - 1; j >= first; j--)
        {
          running = add (running, IN (j));
          store_lanes (SUFFIX (j - start), running, pixels);
        }

      i = first - 1;
      if (first == start)
        {
          /* a window that starts a block is that whole block */
          store_lanes (OUT (i), window (load_lanes (SUFFIX (0), pixels),
                                        add (IN (i), IN (i + 2 * k + 2)), fraction, scale),
                       pixels);
          i++;
        }
      if (i >= end - 1)
        continue;

      prefix = IN (start + block);
      for (j = start + block + 1; j <= i + 2 * k + 1; j++)
        prefix = add (prefix, IN (j));
      for (; i < end - 1; i++)
        {
          Lanes right = IN (i + 2 * k + 2);

          if (scratch != NULL)
            bring_in (&ahead, ahead_end);

          store_lanes (OUT (i), window (add (load_lanes (SUFFIX (i + 1 - start), pixels), prefix),
                                        add (IN (i), right), fraction, scale),
                       pixels);
          /* the next output's window ends at this one's right */
          prefix = add (prefix, right);
        }
    }

  if (scratch != NULL)
    scratch->ahead = ahead;

#undef IN
#undef SUFFIX
#undef OUT
}

CBLUR_WIDEST_VECTORS static void
box_pass (const CblurKernelAxis *kernel,
          CblurLine          in,
          gint               n_in,
          gint64             origin,
          CblurLineOut       out,
          gint               pixels,
          CblurPixel        *suffix,
          CblurLineScratch  *ahead)
{
  /* constant widths let the compiler unroll the pixel loops, and a
   * constant NULL drops the memory ahead from them; a whole strip comes
   * in halves (box_line) */
  if (pixels == CBLUR_STRIP_PIXELS / 2 && ahead != NULL)
    box_pass_pixels (kernel, in, n_in, origin, out, suffix, CBLUR_STRIP_PIXELS / 2, ahead);
  else if (pixels == CBLUR_STRIP_PIXELS / 2)
    box_pass_pixels (kernel, in, n_in, origin, out, suffix, CBLUR_STRIP_PIXELS / 2, NULL);
  else
    box_pass_pixels (kernel, in, n_in, origin, out, suffix, pixels, NULL);
}


gsize
cblur_line_scratch_bytes (const CblurKernel *kernel,
                          CblurAxis          axis,
                          gint               n_in,
                          gint               pixels)
{
  const CblurKernelAxis *along = &kernel->axes[axis];

  if (along->mode != CBLUR_MODE_BOX)
    return 0;
  return ((gsize) along->box_block + n_in) * pixels * sizeof (CblurPixel);
}

void
cblur_line_scratch_init (CblurLineScratch  *scratch,
                         const CblurKernel *kernel,
                         gint               n_in,
                         gint               pixels,
                         gpointer           memory)
{
  scratch->between = memory;
  scratch->suffix = scratch->between + (gsize) n_in * pixels;
  cblur_line_scratch_ahead (scratch, NULL, 0);
}

void
cblur_line_scratch_ahead (CblurLineScratch *scratch,
                          gconstpointer     next,
                          gsize             bytes)
{
  scratch->ahead = next;
  scratch->ahead_end = next != NULL ? scratch->ahead + bytes : NULL;
}

/* The passes between the first and the last go in one line, in place: a
 * pass's output i is the window of elements i and on, and later outputs
 * read only elements after i, so it goes over element i.  One line
 * rather than two leaves a column strip in the core's L2 cache.  The line
 * between holds `lanes` of each element's pixels, `step` apart. */
static void
box_passes (const CblurKernelAxis *kernel,
            CblurLine          in,
            gint               n_in,
            gint64             origin,
            CblurLineOut       out,
            gint               lanes,
            CblurLineOut       between,
            CblurLineScratch  *scratch)
{
  gint shrink = 2 * (kernel->box_half + 1);
  gint pass;

  for (pass = 0; pass < kernel->iterations; pass++)
    {
      gboolean last = pass == kernel->iterations - 1;

      box_pass (kernel, in, n_in, origin, last ? out : between, lanes, scratch->suffix,
                pass > 0 && scratch->ahead != NULL ? scratch : NULL);

      in = (CblurLine) { between.data, between.step };
      n_in -= shrink;
      origin += shrink / 2;
    }
}

/* A strip's halves go through the passes one after the other: a block of
 * a half's elements and its suffix sums stay in the core's L1 cache at the
 * radii a slider reaches, where a whole strip's outgrow it from a block
 * of a few dozen elements on; where a whole strip's fit, halves cost no
 * more. */
static void
box_line (const CblurKernelAxis *kernel,
          CblurLine          in,
          gint               n_in,
          gint64             origin,
          CblurLineOut       out,
          gint               pixels,
          CblurLineScratch  *scratch)
{
  gint         lanes = pixels == CBLUR_STRIP_PIXELS ? pixels / 2 : pixels;
  const gchar *ahead = scratch->ahead;
  const gchar *ahead_end = scratch->ahead_end;
  gint         first;

  for (first = 0; first < pixels; first += lanes)
    {
      /* a first half's first pass leaves the other half's cache lines in
       * memory: its later passes bring them in, the last's the line ahead */
      if (first + lanes < pixels)
        cblur_line_scratch_ahead (scratch, in.data,
                                  (gsize) n_in * in.step * sizeof (CblurPixel));
      else
        cblur_line_scratch_ahead (scratch, ahead, ahead != NULL ? ahead_end - ahead : 0);
      box_passes (kernel, (CblurLine) { in.data + first, in.step }, n_in, origin,
                  (CblurLineOut) { out.data + first, out.step }, lanes,
                  (CblurLineOut) { scratch->between + first, pixels }, scratch);
    }
}

void
cblur_line_blur (const CblurKernel *kernel,
                 CblurAxis          axis,
                 CblurLine          in,
                 gint               n_in,
                 gint64             origin,
                 CblurLineOut       out,
                 gint               pixels,
                 CblurLineScratch  *scratch)
{
  const CblurKernelAxis *along = &kernel->axes[axis];
  gint                   skip = cblur_kernel_skip (kernel, axis);

  in.data += (gsize) skip * in.step;
  n_in -= 2 * skip;
  origin += skip;
  if (along->mode == CBLUR_MODE_BOX)
    box_line (along, in, n_in, origin, out, pixels, scratch);
  else
    direct_line (along, in, out, n_in - 2 * along->reach, pixels);
}

