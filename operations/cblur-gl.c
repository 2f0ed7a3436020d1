/* The GL backend's entry points.  A band's source and output live in
 * pinned staging buffers that GEGL reads into and writes from in place
 * (cblur_gl_staged_new); the band is cut into tiles that fit the GPU, and
 * each tile's input (its output grown by the kernel's reach), or only its
 * part inside the image where the GPU makes the rest, is copied from the
 * staging buffer into a texture, blurred along rows then columns, and
 * copied back, all without the CPU waiting until the band is done. */
#include "cblur-gl-private.h"
#include "cblur-cpu.h"
#include "cblur-parallel.h"
#include "cblur-stream.h"

#include <string.h>
#include <gegl.h>
#include <glib/gi18n-lib.h>

/* a thread is worth starting for about this many bytes of copying */
#define COPY_BYTES_PER_THREAD (256.0 * 1024)

G_DEFINE_QUARK (cblur-gl-error-quark, cblur_gl_error)

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
 * inside the image is staged. */
static void
stage_inside (CblurGl           *gl,
              const CblurKernel *kernel,
              const CblurStream *stream,
              CblurImage        *source,
              const CblurImage  *output)
{
  GeglRectangle      all = { source->x, source->y, source->width, source->height };
  GeglRectangle      part;
  CblurImage         inside;
  CblurGlPlan        plan;
  g_autoptr (GArray) tiles = NULL;

  if (!cblur_stream_inside_rect (stream, &all, &part) ||
      !cblur_gl_plan (gl, kernel, output, &plan, NULL))
    return;
  inside = *source;
  cblur_stream_shrink (&inside, &part);
  tiles = cblur_gl_tiles_new (&plan, kernel->reach, &inside, stream->abyss, output);
  if (cblur_gl_tiles_make_abyss (tiles, &inside))
    *source = inside;
}

CblurGlStaged *
cblur_gl_staged_new (const CblurKernel  *kernel,
                     const CblurStream  *stream,
                     CblurImage         *source,
                     CblurImage         *output,
                     GError            **error)
{
  CblurGl       *gl;
  CblurGlStaged *staged = NULL;

  cblur_gl_lock ();
  gl = cblur_gl_acquire (error);
  if (gl != NULL)
    {
      stage_inside (gl, kernel, stream, source, output);
      staged = cblur_gl_pool_lease (gl, source, output, error);
      cblur_gl_release ();
    }
  cblur_gl_unlock ();
  return staged;
}

/* The staging is kept for the next band where the context can be made
 * current; after a failure it goes with the context. */
void
cblur_gl_staged_free (CblurGlStaged *staged)
{
  CblurGl *gl;

  cblur_gl_lock ();
  gl = cblur_gl_acquire (NULL);
  cblur_gl_pool_give_back (cblur_gl_pool (), staged, gl != NULL);
  cblur_gl_release ();
  cblur_gl_unlock ();
}

/* whether src holds all of dst grown by the reach, not only its part
 * inside the input */
static gboolean
holds_all (const CblurKernel *kernel,
           const CblurImage  *src,
           const CblurImage  *dst)
{
  return src->width == dst->width + 2 * kernel->reach &&
         src->height == dst->height + 2 * kernel->reach;
}

/* stream, if any, reads src first and writes dst after, where the band
 * is not one tile; abyss: what lies beyond src where it holds only the
 * inside; straight: src comes, or came, in straight alpha, which the
 * passes premultiply where the decoding does not */
static gboolean
blur_staged (CblurGl             *gl,
             const CblurKernel   *kernel,
             const CblurGlStaged *staged,
             CblurStream         *stream,
             GeglAbyssPolicy      abyss,
             gboolean             straight,
             const CblurImage    *src,
             const CblurImage    *dst,
             CblurGlReport       *report,
             GError             **error)
{
  CblurGlJob         job = { staged, src, dst };
  CblurGlPasses      passes = { 0 };
  CblurGlPlan        plan = { 0 };
  CblurGlStamps      stamps;
  CblurStreamRun    *run = NULL;
  CblurImage         halo;
  CblurImage         read = *src;
  g_autoptr (GArray) tiles = NULL;
  gboolean           ok;

  ok = cblur_gl_plan (gl, kernel, dst, &plan, error);
  report->tiles = plan.n_x * plan.n_y;
  if (ok && stream != NULL && report->tiles == 1)
    cblur_stream_band (stream, kernel->reach, src, dst, &halo, &read);
  if (ok)
    tiles = cblur_gl_tiles_new (&plan, kernel->reach, &read, abyss, dst);
  if (ok && !cblur_gl_tiles_make_abyss (tiles, &read))
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                           _("only the source's part inside the image is held, too little "
                             "for a tile of the blur to make its halo from"));
      ok = FALSE;
    }
  if (ok && stream != NULL && report->tiles == 1)
    run = cblur_stream_start (stream, &read, dst);
  else
    cblur_stream_read_all (stream, src);

  cblur_gl_stamps_init (&stamps);
  ok = ok && cblur_gl_passes_init (gl, kernel, tiles, straight && src->format == NULL, &stamps,
                                   &passes, error);
  /* a result of whole rows is encoded straight into the staging */
  ok = ok && cblur_gl_convert_prepare (gl, src, dst, plan.n_x > 1 ? plan.height : 0, error);
  if (ok && run != NULL)
    ok = cblur_gl_blur_streamed (gl, &passes, &job, run, &g_array_index (tiles, CblurGlTile, 0),
                                 error);
  else if (ok)
    ok = cblur_gl_blur_tiles (gl, &passes, tiles, &job, error);

  if (run != NULL)
    cblur_stream_finish (run);
  else if (ok)
    cblur_stream_write_all (stream, dst);
  cblur_gl_stamps_clear (&stamps, ok ? report : NULL);
  cblur_gl_passes_clear (&passes);
  return ok;
}

/* Images that are not staged go through staging of the call's own. */
static gboolean
blur_copied (CblurGl            *gl,
             const CblurKernel  *kernel,
             CblurStream        *stream,
             const CblurImage   *src,
             const CblurImage   *dst,
             CblurGlReport      *report,
             GError            **error)
{
  CblurImage     staged_src = *src;
  CblurImage     staged_dst = *dst;
  CblurGlStaged *staged;
  gboolean       ok;

  cblur_stream_read_all (stream, src);
  staged = cblur_gl_pool_lease (gl, &staged_src, &staged_dst, error);
  if (staged == NULL)
    return FALSE;

  copy_image (&staged_src, src);
  ok = blur_staged (gl, kernel, staged, NULL, stream != NULL ? stream->abyss : GEGL_ABYSS_NONE,
                    cblur_stream_is_straight (stream), &staged_src, &staged_dst, report, error);
  if (ok)
    {
      copy_image (dst, &staged_dst);
      cblur_stream_write_all (stream, dst);
    }
  cblur_gl_pool_give_back (&gl->pool, staged, TRUE);
  return ok;
}

/* with the context current */
static gboolean
blur_current (CblurGl            *gl,
              const CblurKernel  *kernel,
              const CblurImage   *src,
              const CblurImage   *dst,
              CblurStream        *stream,
              CblurGlReport      *report,
              GError            **error)
{
  CblurGlStaged *staged = cblur_gl_pool_find (&gl->pool, src, dst);

  g_strlcpy (report->renderer, gl->renderer, sizeof report->renderer);
  report->max_texture_size = gl->max_texture_size;

  /* a copy, converted as the CPU converts */
  if (cblur_kernel_is_identity (kernel) || dst->width <= 0 || dst->height <= 0)
    {
      cblur_stream_read_all (stream, src);
      cblur_cpu_blur (kernel, src, NULL, GEGL_ABYSS_NONE, cblur_stream_is_straight (stream), dst);
      cblur_stream_write_all (stream, dst);
      return TRUE;
    }
  if (staged != NULL)
    return blur_staged (gl, kernel, staged, stream,
                        stream != NULL ? stream->abyss : GEGL_ABYSS_NONE,
                        cblur_stream_is_straight (stream), src, dst, report, error);
  return blur_copied (gl, kernel, stream, src, dst, report, error);
}

/* cblur_band_new()'s part of the input inside the image, around which
 * the stream's abyss policy makes the rest */
static gboolean
holds_inside (const CblurKernel *kernel,
              const CblurImage  *src,
              const CblurImage  *dst,
              const CblurStream *stream)
{
  GeglRectangle halo = { dst->x - kernel->reach, dst->y - kernel->reach,
                         dst->width + 2 * kernel->reach, dst->height + 2 * kernel->reach };
  GeglRectangle held = { src->x, src->y, src->width, src->height };

  return stream != NULL && kernel->reach > 0 && !gegl_rectangle_is_empty (&held) &&
         gegl_rectangle_contains (&halo, &held);
}

gboolean
cblur_gl_available (gboolean  *is_software,
                    GError   **error)
{
  CblurGl *gl;

  cblur_gl_lock ();
  gl = cblur_gl_acquire (error);
  if (gl != NULL)
    {
      if (is_software != NULL)
        *is_software = gl->is_software;
      cblur_gl_release ();
    }
  cblur_gl_unlock ();
  return gl != NULL;
}

gboolean
cblur_gl_blur (const CblurKernel  *kernel,
               const CblurImage   *src,
               const CblurImage   *dst,
               CblurStream        *stream,
               CblurGlReport      *report,
               GError            **error)
{
  CblurGlReport unused;
  CblurGl      *gl;
  gboolean      ok = FALSE;

  if (report == NULL)
    report = &unused;
  memset (report, 0, sizeof *report);

  if (!holds_all (kernel, src, dst) && !holds_inside (kernel, src, dst, stream))
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                           _("the source is not the output grown by the blur's reach"));
      cblur_stream_read_all (stream, src);
      return FALSE;
    }

  cblur_gl_lock ();
  gl = cblur_gl_acquire (error);
  if (gl != NULL)
    {
      ok = blur_current (gl, kernel, src, dst, stream, report, error);
      cblur_gl_release ();
    }
  cblur_gl_unlock ();

  if (gl == NULL)
    cblur_stream_read_all (stream, src);
  return ok;
}
