/* The GL blur's entry points.  A band's source and output live in pinned
 * host memory that GEGL reads into and writes from in place
 * (cblur_gl_band_memory_new); the band is cut into tiles that fit the
 * GPU, and each tile's input (its output grown by the kernel's reach), or
 * only its part inside the image where the GPU makes the rest, is copied
 * from there into a texture, blurred along rows then columns, and copied
 * back, all without the CPU waiting until the band is done. */
#include "cblur-gl-stream.h"
#include "cblur-gl-pinned.h"
#include "cblur-parallel.h"

#include <string.h>
#include <gegl.h>
#include <glib/gi18n-lib.h>

/* a thread is worth starting for about this many bytes of copying */
#define COPY_BYTES_PER_THREAD (256.0 * 1024)

typedef struct
{
  guchar       *to;
  gsize         to_stride;
  const guchar *from;
  gsize         from_stride;
  gsize         row_bytes;
} Copy;

static void
copy_row_range (gsize    first,
                gsize    count,
                gpointer user_data)
{
  const Copy *copy = user_data;
  gsize       row;

  for (row = first; row < first + count; row++)
    memcpy (copy->to + row * copy->to_stride,
            copy->from + row * copy->from_stride, copy->row_bytes);
}

/* one core cannot fill the memory bus */
static void
copy_image (const CblurImage *to,
            const CblurImage *from)
{
  Copy copy = { (guchar *) to->data, to->stride * sizeof (gfloat),
                (const guchar *) from->data, from->stride * sizeof (gfloat),
                to->width * cblur_image_pixel_bytes (to) };

  cblur_parallel_distribute_range (to->height, COPY_BYTES_PER_THREAD / copy.row_bytes,
                                   copy_row_range, &copy);
}

/* Where each tile can make its abyss on the GPU, only the part of source
 * inside the image is held. */
static void
hold_inside (const CblurGlPlan *plan,
             const CblurKernel *kernel,
             const CblurBandIo *band_io,
             CblurImage        *source,
             const CblurImage  *output)
{
  GeglRectangle      all = { source->x, source->y, source->width, source->height };
  GeglRectangle      part;
  CblurImage         inside;
  g_autoptr (GArray) tiles = NULL;

  if (!cblur_band_io_inside_rect (band_io, &all, &part))
    return;
  inside = *source;
  cblur_band_io_shrink (&inside, &part);
  tiles = cblur_gl_tiles_new (plan, kernel->reach, &inside, band_io->abyss, output);
  if (cblur_gl_tiles_can_make_abyss (tiles, &inside, NULL))
    *source = inside;
}

static gsize
packed_size (const CblurImage *image)
{
  return cblur_image_packed_stride (image) * image->height * sizeof (gfloat);
}

/* rows of as many words as the image's format needs, float or native */
static void
point_at (CblurImage     *image,
          CblurGpuPinned *pinned)
{
  image->data = pinned->data;
  image->stride = cblur_image_packed_stride (image);
}

/* pinned memory for source and output, which are pointed at it */
static CblurGlBandMemory *
memory_new (CblurGpu    *gpu,
            CblurImage  *source,
            CblurImage  *output,
            GError     **error)
{
  CblurGlBandMemory *memory = g_new0 (CblurGlBandMemory, 1);

  memory->source = cblur_gpu_pinned_new (gpu, packed_size (source), error);
  if (memory->source != NULL)
    memory->output = cblur_gpu_pinned_new (gpu, packed_size (output), error);
  if (memory->output == NULL)
    {
      if (memory->source != NULL)
        cblur_gpu_pinned_give_back (gpu, memory->source);
      g_free (memory);
      return NULL;
    }
  point_at (source, memory->source);
  point_at (output, memory->output);
  return memory;
}

static void
memory_give_back (CblurGpu          *gpu,
                  CblurGlBandMemory *memory)
{
  cblur_gpu_pinned_give_back (gpu, memory->source);
  cblur_gpu_pinned_give_back (gpu, memory->output);
  g_free (memory);
}

/* cblur_gl_band_memory_new()'s arguments and result, for its task */
typedef struct
{
  const CblurKernel *kernel;
  const CblurBandIo *band_io;
  CblurImage        *source;
  CblurImage        *output;
  CblurGlBandMemory *memory;
} BandMemoryNew;

static gboolean
band_memory_new (CblurGpu  *gpu,
                 gpointer   data,
                 GError   **error)
{
  BandMemoryNew *call = data;
  CblurGl        gl;
  CblurGlPlan    plan = { 0 };

  cblur_gl_view (gpu, &gl, NULL);
  if (cblur_gl_plan (&gl, call->kernel->reach, cblur_gl_passes_textures (&gl, call->kernel),
                     call->output, &plan, NULL) && call->band_io != NULL)
    hold_inside (&plan, call->kernel, call->band_io, call->source, call->output);
  call->memory = memory_new (gpu, call->source, call->output, error);
  if (call->memory == NULL)
    return FALSE;
  call->memory->tiles = plan.n_x * plan.n_y;
  return TRUE;
}

CblurGlBandMemory *
cblur_gl_band_memory_new (const CblurKernel  *kernel,
                          const CblurBandIo  *band_io,
                          CblurImage         *source,
                          CblurImage         *output,
                          GError            **error)
{
  BandMemoryNew call = { kernel, band_io, source, output, NULL };

  cblur_gl_run (band_memory_new, &call, error);
  return call.memory;
}

gboolean
cblur_gl_band_memory_streams (const CblurGlBandMemory *memory)
{
  return memory->tiles == 1;
}

/* Pinned memory stays for the next band where the context can be made
 * current; after a failure it goes with the context. */
void
cblur_gl_band_memory_free (CblurGlBandMemory *memory)
{
  cblur_gpu_pinned_free (memory->source);
  cblur_gpu_pinned_free (memory->output);
  g_free (memory);
}

/* the part of the input inside the image, around which the source's
 * abyss policy makes the rest */
static gboolean
holds_inside (const CblurKernel   *kernel,
              const CblurImage    *src,
              const CblurImage    *dst,
              const CblurGlSource *source)
{
  GeglRectangle halo = { dst->x - kernel->reach, dst->y - kernel->reach,
                         dst->width + 2 * kernel->reach, dst->height + 2 * kernel->reach };
  GeglRectangle held = { src->x, src->y, src->width, src->height };

  return source != NULL && kernel->reach > 0 && !gegl_rectangle_is_empty (&held) &&
         gegl_rectangle_contains (&halo, &held);
}

/* the abyss's made texels, then the passes */
static const CblurGpuTexture *
made_and_passes (gconstpointer      data,
                 const CblurGlTile *tile)
{
  const CblurGlPasses *passes = data;

  cblur_gl_passes_made (passes, tile);
  return cblur_gl_passes_run (passes, tile);
}

/* the kernel's passes as a streamed tile takes them */
static void
kernel_rows (gconstpointer      passes,
             const CblurGlTile *tile,
             gint               first,
             gint               n)
{
  cblur_gl_passes_rows (passes, tile, first, n);
}

static const CblurGpuTexture *
kernel_columns (gconstpointer      passes,
                const CblurGlTile *tile,
                gint               first,
                gint               n)
{
  return cblur_gl_passes_columns (passes, tile, first, n);
}

static const CblurGpuTexture *
kernel_whole (gconstpointer      passes,
              const CblurGlTile *tile)
{
  return cblur_gl_passes_run (passes, tile);
}

/* the one tile, streamed, its abyss made first */
static gboolean
blur_streamed (CblurGl              *gl,
               const CblurGlPasses  *passes,
               const CblurGlJob     *job,
               CblurStreamRun       *run,
               const CblurGlTile    *tile,
               GError              **error)
{
  CblurGlStreamPasses stream = { passes, passes->stamps, passes->kernel->reach,
                                 cblur_gl_passes_stripe (passes), kernel_rows,
                                 kernel_columns, kernel_whole };

  cblur_gl_passes_made (passes, tile);
  return cblur_gl_blur_streamed (gl, &stream, job, run, tile, error);
}

/* The tiles of the band, src read from where the run reads it where
 * the band streams. */
static gboolean
blur_held (CblurGl                 *gl,
           const CblurKernel       *kernel,
           const CblurGlBandMemory *memory,
           const CblurGlSource     *source,
           const CblurImage        *src,
           const CblurImage        *dst,
           CblurGlReport           *report,
           GError                 **error)
{
  CblurGlJob         job = { memory, src, dst };
  CblurStreamRun    *run = source->run;
  const CblurImage  *read = run != NULL ? source->read : src;
  CblurGlPasses      passes = { 0 };
  CblurGlPlan        plan = { 0 };
  CblurGlStamps      stamps;
  g_autoptr (GArray) tiles = NULL;
  gboolean           ok;

  gl->no_wait = source->no_wait;
  ok = cblur_gl_plan (gl, kernel->reach, cblur_gl_passes_textures (gl, kernel), dst, &plan,
                      error);
  report->tiles = plan.n_x * plan.n_y;
  if (ok && run != NULL && report->tiles != 1)
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                           _("the band streams, but no longer fits one tile"));
      ok = FALSE;
    }
  if (ok)
    tiles = cblur_gl_tiles_new (&plan, kernel->reach, read, source->abyss, dst);
  ok = ok && cblur_gl_tiles_can_make_abyss (tiles, read, error);

  cblur_gl_stamps_init (&stamps);
  ok = ok && cblur_gl_passes_init (gl, kernel, tiles, source->straight && src->format == NULL,
                                   &stamps, &passes, error);
  if (ok && passes.upgrading)
    cblur_gl_expect_upgrade (kernel, source, src, dst);
  /* a result of whole rows is encoded straight into the pinned memory */
  ok = ok && cblur_gl_convert_prepare (gl, src, dst, plan.n_x > 1 ? plan.height : 0, error);
  if (ok && run != NULL)
    ok = blur_streamed (gl, &passes, &job, run, &g_array_index (tiles, CblurGlTile, 0), error);
  else if (ok)
    ok = cblur_gl_tiles_run (gl, tiles, kernel->reach, &job, made_and_passes, &passes, &stamps,
                             error);

  cblur_gl_stamps_clear (&stamps, ok ? report : NULL);
  cblur_gl_passes_clear (&passes);
  return ok;
}

gboolean
cblur_gl_pinned_run (CblurGl          *gl,
                     const CblurImage *src,
                     const CblurImage *dst,
                     CblurGlHeldRun    run,
                     gconstpointer     data,
                     CblurGlReport    *report,
                     GError          **error)
{
  CblurImage         held_src = *src;
  CblurImage         held_dst = *dst;
  CblurGlBandMemory *memory = memory_new (gl->gpu, &held_src, &held_dst, error);
  gboolean           ok;

  if (memory == NULL)
    return FALSE;
  copy_image (&held_src, src);
  ok = run (gl, memory, &held_src, &held_dst, data, report, error);
  if (ok)
    copy_image (dst, &held_dst);
  memory_give_back (gl->gpu, memory);
  return ok;
}

gboolean
cblur_gl_pinned_rehearse (CblurGl          *gl,
                          CblurImage       *src,
                          CblurImage       *dst,
                          CblurGlHeldRun    run,
                          gconstpointer     data,
                          GError          **error)
{
  CblurGlBandMemory *memory = memory_new (gl->gpu, src, dst, error);
  CblurGlReport      report = { 0 };
  gboolean           ok;

  if (memory == NULL)
    return FALSE;
  ok = run (gl, memory, src, dst, data, &report, error);
  memory_give_back (gl->gpu, memory);
  return ok;
}

/* cblur_gl_blur_copied()'s blur, for cblur_gl_pinned_run() */
typedef struct
{
  const CblurKernel   *kernel;
  const CblurGlSource *source;
} Held;

static gboolean
blur_pinned (CblurGl                 *gl,
             const CblurGlBandMemory *memory,
             const CblurImage        *src,
             const CblurImage        *dst,
             gconstpointer            data,
             CblurGlReport           *report,
             GError                 **error)
{
  const Held *held = data;

  return blur_held (gl, held->kernel, memory, held->source, src, dst, report, error);
}

gboolean
cblur_gl_blur_copied (CblurGl             *gl,
                      const CblurKernel   *kernel,
                      const CblurGlSource *source,
                      const CblurImage    *src,
                      const CblurImage    *dst,
                      CblurGlReport       *report,
                      GError             **error)
{
  Held held = { kernel, source };

  return cblur_gl_pinned_run (gl, src, dst, blur_pinned, &held, report, error);
}

/* the pinned memory goes back to wait for the next band of its size */
gboolean
cblur_gl_rehearse (CblurGl           *gl,
                   const CblurKernel *kernel,
                   const CblurBandIo *band_io,
                   CblurImage        *source,
                   CblurImage        *output,
                   GError           **error)
{
  BandMemoryNew call = { kernel, band_io, source, output, NULL };
  CblurGlSource held = { band_io->abyss, band_io->straight_alpha, NULL, NULL, TRUE };
  CblurGlReport report = { 0 };
  gboolean      ok;

  if (!band_memory_new (gl->gpu, &call, error))
    return FALSE;
  ok = blur_held (gl, kernel, call.memory, &held, source, output, &report, error);
  memory_give_back (gl->gpu, call.memory);
  return ok;
}

/* cblur_gl_blur()'s arguments, for its task */
typedef struct
{
  const CblurGlBandMemory *memory;
  const CblurKernel       *kernel;
  const CblurImage        *src;
  const CblurImage        *dst;
  const CblurGlSource     *source;
  CblurGlReport           *report;
} Blur;

static gboolean
blur (CblurGpu  *gpu,
      gpointer   data,
      GError   **error)
{
  const Blur *call = data;
  CblurGl     gl;

  cblur_gl_view (gpu, &gl, call->report);
  if (call->memory != NULL)
    return blur_held (&gl, call->kernel, call->memory, call->source, call->src, call->dst,
                      call->report, error);
  return cblur_gl_blur_copied (&gl, call->kernel, call->source, call->src, call->dst,
                               call->report, error);
}

gboolean
cblur_gl_blur (const CblurGlBandMemory *memory,
               const CblurKernel       *kernel,
               const CblurImage        *src,
               const CblurImage        *dst,
               const CblurGlSource     *source,
               CblurGlReport           *report,
               GError                 **error)
{
  static const CblurGlSource held = { GEGL_ABYSS_NONE, FALSE, NULL, NULL };
  CblurGlReport              unused;
  Blur                       call = { memory, kernel, src, dst,
                                      source != NULL ? source : &held,
                                      report != NULL ? report : &unused };

  g_return_val_if_fail (source == NULL || source->run == NULL || memory != NULL, FALSE);
  memset (call.report, 0, sizeof *call.report);

  if (cblur_kernel_is_identity (kernel) || dst->width <= 0 || dst->height <= 0)
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                           _("the blur changes nothing: the backend copies instead"));
      return FALSE;
    }
  if (!cblur_gl_holds_grown (src, dst, kernel->reach) &&
      !holds_inside (kernel, src, dst, source))
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                           _("the source is not the output grown by the blur's reach"));
      return FALSE;
    }

  return cblur_gl_run (blur, &call, error);
}
