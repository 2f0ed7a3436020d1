/* The CPU blur's driver: the job's geometry, the abyss's made rows, the
 * kept source taken and given back, then the horizontal pass over row
 * groups and the vertical pass over spans, each on GEGL's threads. */
#include "cblur-cpu.h"

#include <string.h>
#include <gegl.h>

#include "cblur-cpu-job.h"
#include "cblur-format.h"
#include "cblur-memory.h"
#include "cblur-parallel.h"

/* none, black and white fill the abyss with one colour; clamp and loop
 * repeat GEGL's pixels */
static gboolean
has_colour (GeglAbyssPolicy policy)
{
  return policy != GEGL_ABYSS_CLAMP && policy != GEGL_ABYSS_LOOP;
}

static gboolean
has_made_rows (const CblurCpuJob *job)
{
  return job->top > 0 || job->bottom < job->src->height;
}

/* Where io keeps its source's pixels and the job reads all of GEGL's (a
 * whole image at a level, a slider's frame), the job takes them as an
 * earlier blur kept them, or keeps them for the next. */
static void
take_kept (CblurCpuJob *job,
           CblurBandIo *io)
{
  const CblurImage *pixels = job->pixels;
  GeglRectangle     rect = { pixels->x, pixels->y, pixels->width, pixels->height };

  if (io == NULL || io->kept == NULL)
    return;
  if (pixels->data != NULL || !gegl_rectangle_equal (&rect, &io->inside))
    return;
  job->kept_margin = MAX (job->left, job->src->width - job->right);
  job->kept = cblur_kept_take (io->kept, &rect, pixels->format, job->straight,
                               CBLUR_GROUP_ROWS, &job->kept_margin, &job->kept_held);
  io->read_kept = job->kept != NULL && job->kept_held;
}

/* radius 0: src and dst have the same size */
static void
copy_interior (const CblurImage *src,
               gboolean          straight,
               const CblurImage *dst)
{
  gsize   bytes = (gsize) dst->width * sizeof (CblurPixel);
  gfloat *line = gegl_malloc (bytes);
  gint    row;

  for (row = 0; row < dst->height; row++)
    {
      if (src->format != NULL)
        cblur_format_decode (src->format, cblur_image_bytes (src, 0, row), line, dst->width);
      else
        memcpy (line, cblur_image_row (src, row), bytes);
      if (straight)
        cblur_premultiply_pixels (line, dst->width);
      if (dst->format != NULL)
        cblur_format_encode (dst->format, line, cblur_image_bytes (dst, 0, row), dst->width);
      else
        memcpy (cblur_image_row (dst, row), line, bytes);
    }
  gegl_free (line);
}

static CblurPixel
abyss_colour (GeglAbyssPolicy policy)
{
  CblurPixel colour;

  cblur_abyss_colour (policy, (gfloat *) &colour);
  return colour;
}

void
cblur_cpu_blur (const CblurKernel *kernel,
                const CblurImage  *src,
                const CblurImage  *inside,
                GeglAbyssPolicy    abyss,
                gboolean           straight,
                const CblurImage  *dst)
{
  cblur_cpu_blur_stream (kernel, src, inside, abyss, straight, dst, NULL);
}

void
cblur_cpu_blur_stream (const CblurKernel *kernel,
                       const CblurImage  *src,
                       const CblurImage  *inside,
                       GeglAbyssPolicy    abyss,
                       gboolean           straight,
                       const CblurImage  *dst,
                       CblurBandIo       *io)
{
  CblurCpuJob job = { kernel, src, dst, abyss, straight, 0, src->width, 0, src->height, src,
                      abyss_colour (abyss), NULL, NULL, io };
  gsize       between_bytes;

  g_return_if_fail (src->width == dst->width + 2 * kernel->reach);
  g_return_if_fail (src->height == dst->height + 2 * kernel->reach);
  g_return_if_fail (io != NULL ||
                    (dst->data != NULL && (inside != NULL ? inside : src)->data != NULL));

  if (dst->width <= 0 || dst->height <= 0)
    return;

  if (cblur_kernel_is_identity (kernel))
    {
      copy_interior (src, straight, dst);
      return;
    }

  if (inside != NULL)
    {
      job.left = inside->x - src->x;
      job.right = job.left + inside->width;
      job.top = inside->y - src->y;
      job.bottom = job.top + inside->height;
      job.pixels = inside;
      if (has_colour (abyss) && has_made_rows (&job))
        job.made_row = cblur_cpu_colour_row (&job);
    }

  /* stored without alpha, pixels decode with alpha 1, which premultiplies
   * to themselves */
  job.straight = straight && (job.pixels->format == NULL || job.pixels->format->has_alpha);
  take_kept (&job, io);

  /* as for a band with all its halo, whatever this one has: the spans of
   * a region's bands then fit each other */
  cblur_cpu_choose_spans (&job);
  between_bytes = (gsize) (job.lead % CBLUR_STRIP_PIXELS + dst->width + CBLUR_STRIP_PIXELS - 1) /
                  CBLUR_STRIP_PIXELS * CBLUR_STRIP_PIXELS * src->height * sizeof (CblurPixel);
  job.between = (CblurPixel *) cblur_pixels_take (between_bytes);

  /* a row costs about one pixel-window per output pixel; splitting is
   * worth it once a thread has a few thousand of those to do */
  cblur_parallel_distribute_range ((job.bottom - job.top + CBLUR_GROUP_ROWS - 1) /
                                   CBLUR_GROUP_ROWS,
                                   4096.0 / (CBLUR_GROUP_ROWS * (gsize) dst->width + 1),
                                   cblur_cpu_rows, &job);
  if (job.kept != NULL)
    cblur_kept_give_back (io->kept);

  cblur_parallel_share_range (job.n_spans - 1 + job.last_span_units,
                              4096.0 / ((gsize) job.span_columns * dst->height + 1),
                              cblur_cpu_spans, &job);

  cblur_pixels_free (job.between);
  g_clear_pointer (&job.made_row, gegl_free);
}
