/* On the GPU, blurs, the threshold mask and arithmetic run on each tile
 * of one upload (cblur-gl-combine.h); a band read through GEGL lives in
 * the GPU's pinned memory, its source as GEGL stores it, decoded on the
 * GPU.  Elsewhere the band's images live on the heap as premultiplied
 * RGBA float, each blur reads the part of the source its reach needs,
 * and the threshold mask and the arithmetic run over rows on GEGL's
 * threads. */

#include "config.h"

#include <string.h>

#include "cblur-combine-band.h"
#include "cblur-band-memory.h"
#include "cblur-gl-combine.h"
#include "cblur-memory.h"
#include "cblur-parallel.h"

/* box passes where auto blurs wide radii with boxes, as the blur's
 * default */
#define BOX_ITERATIONS 4

/* the arithmetic's cost a row, in pixels' worth of a thread's start */
#define ROW_COST 0.01

/* a row's decoding, likewise */
#define DECODE_ROW_COST 0.02

static gint
mask_reach (const CblurCombine *combine)
{
  return combine->kind == CBLUR_COMBINE_UNSHARP && combine->thresholded
         ? cblur_kernel_reach (CBLUR_COMBINE_MASK_RADIUS, CBLUR_MODE_DIRECT, BOX_ITERATIONS)
         : 0;
}

static gint
blur_reach (const CblurCombine *combine,
            CblurMode           mode)
{
  gint reach = cblur_kernel_reach (combine->radii[0], mode, BOX_ITERATIONS);

  if (combine->kind == CBLUR_COMBINE_DIFFERENCE)
    reach = MAX (reach, cblur_kernel_reach (combine->radii[1], mode, BOX_ITERATIONS));
  return reach;
}

/* High pass and difference change the image even where their blurs do
 * nothing: a reach of at least 1 keeps GEGL from handing the input on. */
gint
cblur_combine_reach (const CblurCombine *combine,
                     CblurMode           mode)
{
  gint reach = blur_reach (combine, mode) + mask_reach (combine);

  return combine->kind == CBLUR_COMBINE_UNSHARP ? reach : MAX (reach, 1);
}

/* the part of image that rect covers, its pixels shared, in any format */
static CblurImage
part_of (const CblurImage *image,
         gint              grow,
         const CblurImage *rect)
{
  CblurImage part = *image;

  part.x = rect->x - grow;
  part.y = rect->y - grow;
  part.width = rect->width + 2 * grow;
  part.height = rect->height + 2 * grow;
  part.data = (gfloat *) cblur_image_bytes (image, part.x - image->x, part.y - image->y);
  return part;
}

/* an image of rect's pixels grown by grow, on the heap */
static gboolean
image_new (const CblurImage *rect,
           gint              grow,
           CblurImage       *image)
{
  *image = (CblurImage) { NULL, rect->x - grow, rect->y - grow, rect->width + 2 * grow,
                          rect->height + 2 * grow, 0, NULL };
  image->stride = cblur_image_packed_stride (image);
  image->data = cblur_pixels_alloc (image->stride * image->height * sizeof (gfloat));
  return image->data != NULL;
}

/* a later blur's report into the band's: the GPU's figures added, the
 * first failure kept, the CPU where any blur ran there */
static void
add_report (CblurRunReport *sum,
            CblurRunReport *report)
{
  sum->tiles += report->tiles;
  sum->upload_ms += report->upload_ms;
  sum->compute_ms += report->compute_ms;
  sum->download_ms += report->download_ms;
  if (report->ran_on == CBLUR_BACKEND_CPU)
    {
      sum->ran_on = CBLUR_BACKEND_CPU;
      sum->why_cpu = report->why_cpu;
    }
  if (sum->gl_failure == NULL)
    sum->gl_failure = g_steal_pointer (&report->gl_failure);
  g_clear_pointer (&report->gl_failure, g_free);
}

/* src's blur at radius into out, whose rectangle src covers with the
 * kernel's reach; the band's first blur fills sum, a later one adds to it */
static void
blur_into (gdouble           radius,
           CblurMode         mode,
           CblurBackendKind  backend,
           const CblurImage *src,
           const CblurImage *out,
           gboolean          first,
           CblurRunReport   *sum)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new_xy (radius, radius, mode, BOX_ITERATIONS);
  CblurImage              from = part_of (src, kernel->reach, out);
  CblurRunReport          report = { 0 };

  if (first)
    {
      cblur_backend_blur (NULL, backend, kernel, &from, out, NULL, sum);
      return;
    }
  cblur_backend_blur (NULL, backend, kernel, &from, out, NULL, &report);
  add_report (sum, &report);
}

typedef struct
{
  const CblurCombine    *combine;
  CblurImage             source;   /* around out, as stored or premultiplied float */
  CblurImage             first;
  CblurImage             second;   /* the difference's second blur */
  gboolean               has_second;
  const CblurImage      *out;
  /* the threshold mask's blur, else NULL; the mask is made from
   * mask_source and mask_first, over out's rectangle grown by its reach,
   * within image and beyond it from image's edge */
  const CblurKernelAxis *mask;
  CblurImage             mask_source;
  CblurImage             mask_first;
  GeglRectangle          image;
} Rows;

/* the threshold mask of out's row y (counted from out's first, from
 * -reach), from reach pixels before out's first to as many after its
 * last, into line */
static void
threshold_line (const Rows *rows,
                gint        y,
                gfloat     *line)
{
  const CblurImage *first = &rows->mask_first;
  gint              width = first->width;
  gint              row = CLAMP (rows->out->y + y, rows->image.y,
                                 rows->image.y + rows->image.height - 1) - first->y;
  gint              left = CLAMP (rows->image.x - first->x, 0, width - 1);
  gint              right = CLAMP (rows->image.x + rows->image.width - first->x, left + 1,
                                   width);
  gint              x;

  cblur_combine_threshold (cblur_image_pixel (&rows->mask_source, left, row),
                           cblur_image_pixel (first, left, row),
                           &rows->combine->threshold, right - left, line + 2 * left);
  for (x = 0; x < left; x++)
    memcpy (line + 2 * x, line + 2 * left, 2 * sizeof (gfloat));
  for (x = right; x < width; x++)
    memcpy (line + 2 * x, line + 2 * (right - 1), 2 * sizeof (gfloat));
}

/* row y of the source under out (counted from out's first), as
 * premultiplied float: decoded into line where the source is stored in a
 * format, as the whole band would be decoded */
static const gfloat *
source_row (const Rows *rows,
            gsize       y,
            gfloat     *line)
{
  const CblurImage *source = &rows->source;
  gint              x = rows->out->x - source->x;
  gint              row = rows->out->y - source->y + (gint) y;

  if (source->format == NULL)
    return cblur_image_pixel (source, x, row);
  cblur_format_decode_spread (source->format, cblur_image_bytes (source, x, row), line,
                              rows->out->width, 1, TRUE);
  return line;
}

/* The unsharp mask of rows [offset, offset + size) weighed by the
 * threshold mask, made and blurred along its lines as they come, into a
 * ring of the mask blur's span, and across them for each row. */
static void
masked_rows (const Rows *rows,
             gsize       offset,
             gsize       size)
{
  const CblurKernelAxis *mask = rows->mask;
  gint                   reach = mask->half_width;
  gint                   span = 2 * reach + 1;
  gsize                  n = rows->out->width;
  g_autofree gfloat     *line = g_new (gfloat, 2 * (n + 2 * reach));
  g_autofree gfloat     *ring = g_new (gfloat, 2 * n * span);
  g_autofree gfloat     *blurred = g_new (gfloat, 2 * n);
  g_autofree const gfloat **along = g_new (const gfloat *, span);
  g_autofree const gfloat **across = g_new (const gfloat *, span);
  gint                   y, k;

  for (k = 0; k < span; k++)
    along[k] = line + 2 * k;
  for (y = -reach; y < (gint) size + reach; y++)
    {
      threshold_line (rows, (gint) offset + y, line);
      cblur_combine_mask_blur (along, mask->weights, reach, n,
                               ring + 2 * n * ((y + reach) % span));
      if (y < reach)
        continue;
      for (k = 0; k < span; k++)
        across[k] = ring + 2 * n * ((y - reach + k) % span);
      cblur_combine_mask_blur (across, mask->weights, reach, n, blurred);
      cblur_combine_unsharp (source_row (rows, offset + y - reach, NULL),
                             cblur_image_row (&rows->first, offset + y - reach), blurred,
                             rows->combine->amount, n,
                             cblur_image_row (rows->out, offset + y - reach));
    }
}

static void
combine_rows (gsize    offset,
              gsize    size,
              gpointer user_data)
{
  const Rows         *rows = user_data;
  const CblurCombine *combine = rows->combine;
  gsize               n = rows->out->width;
  gboolean            joins_source = combine->kind != CBLUR_COMBINE_DIFFERENCE;
  g_autofree gfloat  *line = joins_source && rows->source.format != NULL
                             ? g_new (gfloat, CBLUR_CHANNELS * n) : NULL;
  gsize               y;

  if (rows->mask != NULL)
    {
      masked_rows (rows, offset, size);
      return;
    }
  for (y = offset; y < offset + size; y++)
    {
      const gfloat *source = joins_source ? source_row (rows, y, line) : NULL;
      const gfloat *first = cblur_image_row (&rows->first, y);
      const gfloat *second = rows->has_second ? cblur_image_row (&rows->second, y) : NULL;
      gfloat       *out = cblur_image_row (rows->out, y);

      if (combine->kind == CBLUR_COMBINE_UNSHARP)
        cblur_combine_unsharp (source, first, NULL, combine->amount, n, out);
      else if (combine->kind == CBLUR_COMBINE_HIGH_PASS)
        cblur_combine_high_pass (source, first, combine->contrast, n, out);
      else
        cblur_combine_difference (first, second, n, out);
    }
}

/* the threshold mask's blur */
static CblurKernel *
mask_kernel_new (void)
{
  return cblur_kernel_new_xy (CBLUR_COMBINE_MASK_RADIUS, CBLUR_COMBINE_MASK_RADIUS,
                              CBLUR_MODE_DIRECT, BOX_ITERATIONS);
}

/* the blurs and arithmetic apart */
static gboolean
combine_apart (const CblurCombine  *combine,
               CblurMode            mode,
               CblurBackendKind     backend,
               const CblurImage    *src,
               const CblurImage    *dst,
               const GeglRectangle *image,
               CblurRunReport      *report)
{
  gint                    grow = mask_reach (combine);
  g_autoptr (CblurKernel) mask = grow > 0 ? mask_kernel_new () : NULL;
  CblurImage              first = { 0 }, second = { 0 };
  Rows                    rows = { combine };
  gboolean                ok = FALSE;

  if (!image_new (dst, grow, &first))
    return FALSE;
  blur_into (combine->radii[0], mode, backend, src, &first, TRUE, report);
  if (combine->kind == CBLUR_COMBINE_DIFFERENCE)
    {
      if (!image_new (dst, 0, &second))
        goto out;
      blur_into (combine->radii[1], mode, backend, src, &second, FALSE, report);
    }
  else if (mask != NULL)
    {
      rows.mask = &mask->axes[CBLUR_AXIS_X];
      rows.mask_source = part_of (src, 0, &first);
      rows.mask_first = first;
      rows.image = *image;
    }
  rows.source = *src;
  rows.first = part_of (&first, 0, dst);
  rows.second = second;
  rows.has_second = second.data != NULL;
  rows.out = dst;
  cblur_parallel_distribute_range (dst->height, ROW_COST * dst->width, combine_rows, &rows);
  ok = TRUE;
out:
  cblur_pixels_free (first.data);
  cblur_pixels_free (second.data);
  return ok;
}

/* The kernels of the GPU's joined blurs, where it joins them: not where
 * a blur changes nothing.  The threshold mask is made within image. */
static gboolean
gl_combine_init (const CblurCombine  *combine,
                 CblurMode            mode,
                 const GeglRectangle *image,
                 CblurGlCombine      *gl)
{
  static const CblurGlCombineKind kinds[] = {
    [CBLUR_COMBINE_UNSHARP] = CBLUR_GL_COMBINE_UNSHARP,
    [CBLUR_COMBINE_HIGH_PASS] = CBLUR_GL_COMBINE_HIGH_PASS,
    [CBLUR_COMBINE_DIFFERENCE] = CBLUR_GL_COMBINE_DIFFERENCE
  };
  gboolean thresholded = combine->kind == CBLUR_COMBINE_UNSHARP && combine->thresholded;
  gint     i, n_blurs = combine->kind == CBLUR_COMBINE_DIFFERENCE || thresholded ? 2 : 1;

  *gl = (CblurGlCombine) { kinds[combine->kind], { NULL, NULL }, combine->amount,
                           combine->contrast, cblur_backend_gl_no_wait (),
                           combine->threshold, *image };
  for (i = 0; i < n_blurs; i++)
    {
      gboolean     mask = thresholded && i == 1;
      CblurKernel *kernel = mask ? mask_kernel_new ()
                                 : cblur_kernel_new_xy (combine->radii[i], combine->radii[i],
                                                        mode, BOX_ITERATIONS);

      gl->kernels[i] = kernel;
      if (cblur_kernel_is_identity (kernel))
        return FALSE;
    }
  return TRUE;
}

static void
gl_combine_clear (CblurGlCombine *gl)
{
  gint i;

  for (i = 0; i < 2; i++)
    g_clear_pointer ((CblurKernel **) &gl->kernels[i], cblur_kernel_free);
}

/* TRUE where the GPU joined the band's blurs; else report says why,
 * unless the GPU was not asked */
/* report after the GPU's run: its figures, or what its error leaves
 * (cblur_backend_gl_error) */
static void
gl_report_into (gboolean             ok,
                const GError        *error,
                const CblurGlReport *gl_report,
                CblurRunReport      *report)
{
  if (ok)
    {
      report->ran_on = CBLUR_BACKEND_GL;
      cblur_run_report_gl (report, gl_report);
    }
  else
    cblur_backend_gl_error (report, error);
}

static gboolean
combine_on_gl (const CblurCombine  *combine,
               CblurMode            mode,
               const CblurImage    *src,
               const CblurImage    *dst,
               const GeglRectangle *image,
               CblurRunReport      *report)
{
  g_autoptr (GError) error = NULL;
  CblurGlCombine     gl = { 0 };
  CblurGlReport      gl_report = { 0 };
  CblurImage         from;
  gboolean           ok = gl_combine_init (combine, mode, image, &gl);

  if (ok)
    {
      from = part_of (src, cblur_gl_combine_reach (&gl), dst);
      ok = cblur_gl_combine (NULL, &gl, &from, dst, &gl_report, &error);
      gl_report_into (ok, error, &gl_report, report);
    }
  gl_combine_clear (&gl);
  return ok;
}

/* the CPU's run after the GPU's failure, whose message report keeps */
static gboolean
combine_after (const CblurCombine  *combine,
               CblurMode            mode,
               CblurBackendKind     backend,
               const CblurImage    *src,
               const CblurImage    *dst,
               const GeglRectangle *image,
               CblurRunReport      *report)
{
  g_autofree gchar *gl_failure = g_steal_pointer (&report->gl_failure);
  gboolean          ok;

  ok = combine_apart (combine, mode, gl_failure != NULL ? CBLUR_BACKEND_CPU : backend, src,
                      dst, image, report);
  if (gl_failure != NULL)
    {
      g_free (report->gl_failure);
      report->gl_failure = g_steal_pointer (&gl_failure);
      report->ran_on = CBLUR_BACKEND_CPU;
      report->why_cpu = report->gl_failure;
    }
  return ok;
}

gboolean
cblur_combine_band (const CblurCombine  *combine,
                    CblurMode            mode,
                    CblurBackendKind     backend,
                    const CblurImage    *src,
                    const CblurImage    *dst,
                    const GeglRectangle *image,
                    CblurRunReport      *report)
{
  if (backend == CBLUR_BACKEND_GL)
    {
      memset (report, 0, sizeof *report);
      if (combine_on_gl (combine, mode, src, dst, image, report))
        return TRUE;
    }
  return combine_after (combine, mode, backend, src, dst, image, report);
}

/* rows of a source in its format into premultiplied float */
typedef struct
{
  const CblurImage *from;
  const CblurImage *to;
} Decode;

static void
decode_rows (gsize    offset,
             gsize    size,
             gpointer user_data)
{
  const Decode *decode = user_data;
  gsize         y;

  for (y = offset; y < offset + size; y++)
    cblur_format_decode_spread (decode->from->format, cblur_image_bytes (decode->from, 0, y),
                                cblur_image_row (decode->to, y), decode->to->width, 1, TRUE);
}

/* image's premultiplied float rows encoded in place into its format */
static void
encode_rows (gsize    offset,
             gsize    size,
             gpointer user_data)
{
  const CblurImage *image = user_data;
  gsize             y;

  for (y = offset; y < offset + size; y++)
    cblur_format_encode (image->format, cblur_image_row (image, y),
                         cblur_image_bytes (image, 0, y), image->width);
}

/* from, in its format, as premultiplied float in to, a new image of the
 * heap's; FALSE where there is no room */
static gboolean
decoded (const CblurImage *from,
         CblurImage       *to)
{
  Decode decode = { from, to };

  if (!image_new (from, 0, to))
    return FALSE;
  cblur_parallel_distribute_range (to->height, DECODE_ROW_COST * to->width, decode_rows,
                                   &decode);
  return TRUE;
}

/* src read through band_io, as stored, into a new image of the heap's */
static gboolean
read_into_heap (CblurBandIo *band_io,
                CblurImage  *src)
{
  src->stride = cblur_image_packed_stride (src);
  src->data = cblur_pixels_alloc (src->stride * src->height * sizeof (gfloat));
  if (src->data != NULL)
    cblur_band_io_read_all (band_io, src);
  return src->data != NULL;
}

/* held, read as stored, for the blurs and arithmetic into dst, whose
 * pixels it has (encoded in place into its format, where it has one).
 * The CPU's blurs decode held's rows as they read them, and the join
 * each row of the source it takes, so that the band is not held a second
 * time as float; the threshold mask, which reads the source around each
 * row, and the GPU's blurs on the heap take it decoded whole. */
static gboolean
combine_decoded (const CblurCombine  *combine,
                 CblurMode            mode,
                 CblurBackendKind     backend,
                 const CblurImage    *held,
                 const CblurImage    *dst,
                 const GeglRectangle *image,
                 CblurRunReport      *report)
{
  CblurImage src = *held;
  CblurImage out = *dst;
  gboolean   ok;

  out.format = NULL;
  src.data = NULL;
  ok = held->format == NULL || (backend == CBLUR_BACKEND_CPU && mask_reach (combine) == 0)
       ? combine_after (combine, mode, backend, held, &out, image, report)
       : decoded (held, &src) && combine_after (combine, mode, backend, &src, &out, image,
                                                 report);
  if (ok && dst->format != NULL)
    cblur_parallel_distribute_range (dst->height, DECODE_ROW_COST * dst->width, encode_rows,
                                     (gpointer) dst);
  cblur_pixels_free (src.data);
  return ok;
}

/* held's result into a band of the heap's as premultiplied float,
 * encoded there in place into dst's format (each pixel's code no wider
 * than its floats) and written through band_io */
static gboolean
combine_on_heap (const CblurCombine *combine,
                 CblurMode           mode,
                 CblurBackendKind    backend,
                 const CblurImage   *held,
                 const CblurImage   *dst,
                 CblurBandIo        *band_io,
                 CblurRunReport     *report)
{
  CblurImage out;
  gboolean   ok = image_new (dst, 0, &out);

  out.format = dst->format;
  ok = ok && combine_decoded (combine, mode, backend, held, &out, &band_io->inside, report);
  if (ok)
    cblur_band_io_write_all (band_io, &out);
  cblur_pixels_free (out.data);
  return ok;
}

/* The GPU's join of the band in memory, which GEGL reads src into and
 * writes dst from: as it reads and writes them where the band streams,
 * else around the join.  FALSE where the GPU failed, src then read and
 * the rows released to the stream written. */
static gboolean
join_pinned (CblurGlCombine          *gl,
             const CblurGlBandMemory *memory,
             const CblurImage        *src,
             const CblurImage        *dst,
             CblurBandIo             *band_io,
             CblurRunReport          *report)
{
  g_autoptr (GError) error = NULL;
  CblurGlReport      gl_report = { 0 };
  gboolean           ok;

  if (cblur_gl_band_memory_streams (memory))
    gl->run = cblur_stream_start (band_io, src, dst);
  else
    cblur_band_io_read_all (band_io, src);
  ok = cblur_gl_combine (memory, gl, src, dst, &gl_report, &error);
  if (gl->run != NULL)
    cblur_stream_finish (g_steal_pointer (&gl->run));
  else if (ok)
    cblur_band_io_write_all (band_io, dst);
  gl_report_into (ok, error, &gl_report, report);
  return ok;
}

/* *src: dst grown by reach, or where the GPU makes the abyss (any
 * policy but loop, whose far side a tile may not hold), only that
 * rectangle's part inside the image, which holds dst; whether the
 * latter. */
static gboolean
holds_inside (const CblurBandIo *band_io,
              gint               reach,
              const CblurImage  *dst,
              CblurImage        *src)
{
  GeglRectangle out = { dst->x, dst->y, dst->width, dst->height };
  GeglRectangle all = { dst->x - reach, dst->y - reach, dst->width + 2 * reach,
                        dst->height + 2 * reach };
  GeglRectangle part;

  *src = (CblurImage) { NULL, all.x, all.y, all.width, all.height, 0, src->format };
  if (band_io->abyss == GEGL_ABYSS_LOOP || !gegl_rectangle_contains (&band_io->inside, &out) ||
      !cblur_band_io_inside_rect (band_io, &all, &part))
    return FALSE;
  cblur_band_io_shrink (src, &part);
  return TRUE;
}

/* The band in the GPU's pinned memory: GEGL reads the source into it as
 * it stores it, the GPU decodes, joins and writes dst there, and GEGL
 * copies dst from there, streamed where the band is one tile.  FALSE
 * where GL gave no pinned memory (nothing read) or failed on a source
 * held without its abyss; after another failure of the GPU's run the CPU
 * redoes the band. */
static gboolean
combine_pinned (const CblurCombine *combine,
                CblurMode           mode,
                CblurImage         *src,
                CblurImage         *dst,
                CblurBandIo        *band_io,
                CblurRunReport     *report)
{
  g_autoptr (GError) error = NULL;
  CblurGlCombine     gl = { 0 };
  CblurGlBandMemory *memory = NULL;
  gboolean           ok = gl_combine_init (combine, mode, &band_io->inside, &gl);
  gboolean           grown = TRUE;

  if (ok)
    {
      grown = !holds_inside (band_io, cblur_gl_combine_reach (&gl), dst, src);
      gl.abyss = band_io->abyss;
      memory = cblur_gl_band_memory_new (gl.kernels[0], NULL, src, dst, &error);
    }
  if (memory != NULL)
    {
      ok = join_pinned (&gl, memory, src, dst, band_io, report);
      /* the CPU's join reads the whole halo, read again where not held */
      if (!ok && grown)
        ok = combine_on_heap (combine, mode, CBLUR_BACKEND_GL, src, dst, band_io, report);
      cblur_gl_band_memory_free (memory);
    }
  gl_combine_clear (&gl);
  return memory != NULL && ok;
}

/* Under auto, a band the CPU joins where the GPU would take the whole
 * input has the GPU's first uses rehearse that join at full size
 * (cblur_gl_combine_expect). */
static void
expect_on_gl (const CblurCombine *combine,
              CblurMode           mode,
              const CblurImage   *src,
              const CblurImage   *dst,
              const CblurBandIo  *band_io)
{
  CblurCombine   whole = *combine;
  CblurGlCombine gl = { 0 };
  GeglRectangle  inside;

  if (!cblur_band_gl_takes_whole (cblur_combine_reach (combine, mode), band_io))
    return;
  whole.radii[0] *= 1 << band_io->level;
  whole.radii[1] *= 1 << band_io->level;
  inside = cblur_band_io_inside_at_full_size (band_io);
  if (gl_combine_init (&whole, mode, &inside, &gl))
    cblur_gl_combine_expect (&gl, &inside, src->format, dst->format);
  gl_combine_clear (&gl);
}

gboolean
cblur_combine_band_io (const CblurCombine *combine,
                       CblurMode           mode,
                       CblurBackendKind    backend,
                       const CblurImage   *src,
                       const CblurImage   *dst,
                       CblurBandIo        *band_io,
                       CblurRunReport     *report)
{
  CblurImage held = *src;
  CblurImage out = *dst;
  gboolean   ok;

  memset (report, 0, sizeof *report);
  if (backend == CBLUR_BACKEND_CPU)
    expect_on_gl (combine, mode, src, dst, band_io);
  if (backend == CBLUR_BACKEND_GL &&
      combine_pinned (combine, mode, &held, &out, band_io, report))
    return TRUE;
  held = *src;
  ok = read_into_heap (band_io, &held) &&
       combine_on_heap (combine, mode, backend, &held, dst, band_io, report);
  cblur_pixels_free (held.data);
  return ok;
}
