/* The GL backend's entry points.  A band's source and output live in
 * pinned staging buffers that GEGL reads into and writes from in place
 * (cblur_gl_staged_new); the band is cut into tiles that fit the GPU, and
 * each tile's input (its output grown by the kernel's reach) is copied from
 * the staging buffer into a texture, blurred along rows then columns, and
 * copied back, all without the CPU waiting until the band is done. */
#include "cblur-gl-private.h"
#include "cblur-cpu.h"
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

  gegl_parallel_distribute_range (to->height, COPY_BYTES_PER_THREAD / copy.row_bytes,
                                  copy_row_range, &copy);
}

CblurGlStaged *
cblur_gl_staged_new (CblurImage  *source,
                     CblurImage  *output,
                     GError     **error)
{
  CblurGl       *gl;
  CblurGlStaged *staged = NULL;

  cblur_gl_lock ();
  gl = cblur_gl_acquire (error);
  if (gl != NULL)
    {
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

/* stream, if any, reads src first and writes dst after, where the band
 * is not one tile; straight: src comes, or came, in straight alpha, which
 * the passes premultiply where the decoding does not */
static gboolean
blur_staged (CblurGl             *gl,
             const CblurKernel   *kernel,
             const CblurGlStaged *staged,
             CblurStream         *stream,
             gboolean             straight,
             const CblurImage    *src,
             const CblurImage    *dst,
             CblurGlReport       *report,
             GError             **error)
{
  CblurGlPasses   passes = { 0 };
  CblurGlPlan     plan = { 0 };
  CblurGlStamps   stamps;
  CblurStreamRun *run = NULL;
  CblurImage      inside;
  gboolean        makes_abyss = FALSE;
  gboolean        ok;

  ok = cblur_gl_plan (gl, kernel, dst, &plan, error);
  report->tiles = plan.n_x * plan.n_y;
  if (ok && stream != NULL && report->tiles == 1)
    {
      makes_abyss = cblur_stream_inside (stream, src, &inside);
      run = cblur_stream_start (stream, makes_abyss ? &inside : src, dst);
    }
  else
    cblur_stream_read_all (stream, src);

  cblur_gl_stamps_init (&stamps);
  ok = ok && cblur_gl_passes_init (gl, kernel, plan.width, plan.height,
                                   straight && src->format == NULL, &stamps, &passes, error);
  ok = ok && cblur_gl_convert_prepare (gl, src, dst, plan.height + 2 * kernel->reach,
                                       plan.height, error);
  if (ok && run != NULL)
    ok = cblur_gl_blur_streamed (gl, &passes, staged, run, stream,
                                 makes_abyss ? &inside : src, src, dst, &stamps, error);
  else if (ok)
    ok = cblur_gl_blur_tiles (gl, &passes, &plan, staged, src, dst, &stamps, error);

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
  ok = blur_staged (gl, kernel, staged, NULL, cblur_stream_is_straight (stream),
                    &staged_src, &staged_dst, report, error);
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
    return blur_staged (gl, kernel, staged, stream, cblur_stream_is_straight (stream),
                        src, dst, report, error);
  return blur_copied (gl, kernel, stream, src, dst, report, error);
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

  if (src->width != dst->width + 2 * kernel->reach ||
      src->height != dst->height + 2 * kernel->reach)
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
