#include "cblur-cpu.h"

#include <string.h>
#include <gegl.h>

/* One premultiplied RGBA pixel; every loop below works on whole pixels so
 * the compiler keeps the four channels in one vector register. */
typedef gfloat Pixel __attribute__ ((vector_size (16)));

/* Columns handled together in the vertical pass: a strip of this many
 * pixels per row keeps the rows of the window in cache. */
#define STRIP_PIXELS 32

/* A line is a run of elements, each `pixels` contiguous pixels wide, with
 * `step` pixels from one element to the next: a row segment for the
 * horizontal pass (pixels 1, step 1), a column strip for the vertical one. */
typedef struct
{
  const Pixel *data;
  gsize        step;
} Line;

typedef struct
{
  Pixel *data;
  gsize  step;
} LineOut;

/* Accumulators for this many pixels stay in registers. */
#define DIRECT_GROUP 8

static inline __attribute__ ((always_inline)) void
direct_group (const gfloat *w,
              gint          hw,
              const Pixel  *centre,
              gsize         step,
              Pixel        *dst,
              const gint    pixels)
{
  Pixel acc[DIRECT_GROUP];
  gint  j, p;

  for (p = 0; p < pixels; p++)
    acc[p] = centre[p] * w[0];

  for (j = 1; j <= hw; j++)
    {
      const Pixel *before = centre - (gsize) j * step;
      const Pixel *after = centre + (gsize) j * step;

      for (p = 0; p < pixels; p++)
        acc[p] += (before[p] + after[p]) * w[j];
    }

  for (p = 0; p < pixels; p++)
    dst[p] = acc[p];
}

static void
direct_line (const CblurKernel *kernel,
             Line               in,
             LineOut            out,
             gint               n_out,
             gint               pixels)
{
  const gfloat *w = kernel->weights;
  gint          hw = kernel->half_width;
  gint          i, p;

  for (i = 0; i < n_out; i++)
    {
      const Pixel *centre = in.data + (gsize) (i + hw) * in.step;
      Pixel       *dst = out.data + (gsize) i * out.step;

      /* constant group sizes let the compiler unroll the pixel loops */
      if (pixels == 1)
        {
          direct_group (w, hw, centre, in.step, dst, 1);
          continue;
        }
      for (p = 0; p + DIRECT_GROUP <= pixels; p += DIRECT_GROUP)
        direct_group (w, hw, centre + p, in.step, dst + p, DIRECT_GROUP);
      if (p < pixels)
        direct_group (w, hw, centre + p, in.step, dst + p, pixels - p);
    }
}

/* One box pass.  Window sums are suffix sums of the left block plus prefix
 * sums of the right one, with blocks of the window's length anchored at
 * absolute coordinates, so each sum reads only pixels inside its window and
 * every output is the same whatever region it is computed in. */
static inline __attribute__ ((always_inline)) void
box_pass_pixels (const CblurKernel *kernel,
                 Line               in,
                 gint               n_in,
                 gint64             origin,
                 LineOut            out,
                 Pixel             *prefix,
                 Pixel             *suffix,
                 const gint         pixels)
{
  gint   k = kernel->box_half;
  gint   block = kernel->box_block;
  gfloat fraction = kernel->box_fraction;
  gfloat scale = kernel->box_scale;
  gint   n_out = n_in - 2 * (k + 1);
  gint   i, p;

  /* position of element 0 inside its block, stepped rather than divided */
  gint   at;

  for (i = 0, at = cblur_floor_mod (origin, block); i < n_in; i++, at = at + 1 == block ? 0 : at + 1)
    {
      const Pixel *src = in.data + (gsize) i * in.step;
      Pixel       *pre = prefix + (gsize) i * pixels;

      if (i == 0 || at == 0)
        for (p = 0; p < pixels; p++)
          pre[p] = src[p];
      else
        for (p = 0; p < pixels; p++)
          pre[p] = pre[p - pixels] + src[p];
    }

  at = cblur_floor_mod (origin + n_in - 1, block);
  for (i = n_in - 1; i >= 0; i--, at = at == 0 ? block - 1 : at - 1)
    {
      const Pixel *src = in.data + (gsize) i * in.step;
      Pixel       *suf = suffix + (gsize) i * pixels;

      if (i == n_in - 1 || at == block - 1)
        for (p = 0; p < pixels; p++)
          suf[p] = src[p];
      else
        for (p = 0; p < pixels; p++)
          suf[p] = suf[p + pixels] + src[p];
    }

  for (i = 0, at = cblur_floor_mod (origin + 1, block); i < n_out;
       i++, at = at + 1 == block ? 0 : at + 1)
    {
      gint         lo = i + 1;
      gint         hi = i + 2 * k + 1;
      const Pixel *suf = suffix + (gsize) lo * pixels;
      const Pixel *pre = prefix + (gsize) hi * pixels;
      const Pixel *left = in.data + (gsize) i * in.step;
      const Pixel *right = in.data + (gsize) (hi + 1) * in.step;
      Pixel       *dst = out.data + (gsize) i * out.step;

      /* a window that starts a block is that whole block */
      if (at == 0)
        for (p = 0; p < pixels; p++)
          dst[p] = (suf[p] + (left[p] + right[p]) * fraction) * scale;
      else
        for (p = 0; p < pixels; p++)
          dst[p] = ((suf[p] + pre[p]) + (left[p] + right[p]) * fraction) * scale;
    }
}

static void
box_pass (const CblurKernel *kernel,
          Line               in,
          gint               n_in,
          gint64             origin,
          LineOut            out,
          gint               pixels,
          Pixel             *prefix,
          Pixel             *suffix)
{
  /* constant widths let the compiler unroll the pixel loops */
  if (pixels == 1)
    box_pass_pixels (kernel, in, n_in, origin, out, prefix, suffix, 1);
  else if (pixels == STRIP_PIXELS)
    box_pass_pixels (kernel, in, n_in, origin, out, prefix, suffix, STRIP_PIXELS);
  else
    box_pass_pixels (kernel, in, n_in, origin, out, prefix, suffix, pixels);
}

typedef struct
{
  Pixel *prefix;
  Pixel *suffix;
  Pixel *ping;
  Pixel *pong;
} BoxScratch;

static void
box_scratch_init (BoxScratch *scratch,
                  gint        n_in,
                  gint        pixels)
{
  gsize bytes = (gsize) n_in * pixels * sizeof (Pixel);

  scratch->prefix = gegl_malloc (bytes);
  scratch->suffix = gegl_malloc (bytes);
  scratch->ping = gegl_malloc (bytes);
  scratch->pong = gegl_malloc (bytes);
}

static void
box_scratch_clear (BoxScratch *scratch)
{
  g_clear_pointer (&scratch->prefix, gegl_free);
  g_clear_pointer (&scratch->suffix, gegl_free);
  g_clear_pointer (&scratch->ping, gegl_free);
  g_clear_pointer (&scratch->pong, gegl_free);
}

static void
box_line (const CblurKernel *kernel,
          Line               in,
          gint               n_in,
          gint64             origin,
          LineOut            out,
          gint               pixels,
          BoxScratch        *scratch)
{
  gint shrink = 2 * (kernel->box_half + 1);
  gint pass;

  for (pass = 0; pass < kernel->iterations; pass++)
    {
      gboolean last = pass == kernel->iterations - 1;
      Pixel   *target = pass % 2 == 0 ? scratch->ping : scratch->pong;
      LineOut  pass_out = last ? out : (LineOut) { target, pixels };

      box_pass (kernel, in, n_in, origin, pass_out, pixels,
                scratch->prefix, scratch->suffix);

      in = (Line) { target, pixels };
      n_in -= shrink;
      origin += shrink / 2;
    }
}

typedef struct
{
  const CblurKernel *kernel;
  const CblurImage  *src;
  const CblurImage  *dst;
  Pixel             *between;   /* horizontal result: dst->width x src->height */
} Job;

static void
horizontal_rows (gsize    first,
                 gsize    count,
                 gpointer user_data)
{
  const Job  *job = user_data;
  gint        n_in = job->src->width;
  gint        n_out = job->dst->width;
  BoxScratch  scratch = { 0 };
  gsize       row;

  if (job->kernel->mode == CBLUR_MODE_BOX)
    box_scratch_init (&scratch, n_in, 1);

  for (row = first; row < first + count; row++)
    {
      Line    in = { (const Pixel *) cblur_image_row (job->src, row), 1 };
      LineOut out = { job->between + row * n_out, 1 };

      if (job->kernel->mode == CBLUR_MODE_BOX)
        box_line (job->kernel, in, n_in, job->src->x, out, 1, &scratch);
      else
        direct_line (job->kernel, in, out, n_out, 1);
    }

  box_scratch_clear (&scratch);
}

static void
vertical_strips (gsize    first,
                 gsize    count,
                 gpointer user_data)
{
  const Job  *job = user_data;
  gint        n_in = job->src->height;
  gint        width = job->dst->width;
  gsize       out_step = job->dst->stride / CBLUR_CHANNELS;
  BoxScratch  scratch = { 0 };
  gsize       strip;

  if (job->kernel->mode == CBLUR_MODE_BOX)
    box_scratch_init (&scratch, n_in, STRIP_PIXELS);

  for (strip = first; strip < first + count; strip++)
    {
      gint    x = strip * STRIP_PIXELS;
      gint    pixels = MIN (STRIP_PIXELS, width - x);
      Line    in = { job->between + x, width };
      LineOut out = { (Pixel *) job->dst->data + x, out_step };

      if (job->kernel->mode == CBLUR_MODE_BOX)
        box_line (job->kernel, in, n_in, job->src->y, out, pixels, &scratch);
      else
        direct_line (job->kernel, in, out, job->dst->height, pixels);
    }

  box_scratch_clear (&scratch);
}

/* radius 0: src and dst have the same size */
static void
copy_interior (const CblurImage *src,
               const CblurImage *dst)
{
  gint row;

  for (row = 0; row < dst->height; row++)
    memcpy (cblur_image_row (dst, row),
            cblur_image_row (src, row),
            (gsize) dst->width * CBLUR_CHANNELS * sizeof (gfloat));
}

void
cblur_cpu_blur (const CblurKernel *kernel,
                const CblurImage  *src,
                const CblurImage  *dst)
{
  Job   job = { kernel, src, dst, NULL };
  gsize strips;

  g_return_if_fail (src->width == dst->width + 2 * kernel->reach);
  g_return_if_fail (src->height == dst->height + 2 * kernel->reach);

  if (dst->width <= 0 || dst->height <= 0)
    return;

  if (cblur_kernel_is_identity (kernel))
    {
      copy_interior (src, dst);
      return;
    }

  job.between = gegl_malloc ((gsize) dst->width * src->height * sizeof (Pixel));

  /* a row costs about one pixel-window per output pixel; splitting is
   * worth it once a thread has a few thousand of those to do */
  gegl_parallel_distribute_range (src->height, 4096.0 / (dst->width + 1),
                                  horizontal_rows, &job);

  strips = (dst->width + STRIP_PIXELS - 1) / STRIP_PIXELS;
  gegl_parallel_distribute_range (strips, 4096.0 / (STRIP_PIXELS * (gsize) dst->height + 1),
                                  vertical_strips, &job);

  gegl_free (job.between);
}
