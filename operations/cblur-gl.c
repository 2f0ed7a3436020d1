/* The GL backend's entry points.  The region is cut into tiles that fit the
 * GPU; each tile's input (its output grown by the kernel's reach) goes up
 * through a pixel buffer, is blurred along rows then columns, and comes
 * back through another. */
#include "cblur-gl-private.h"

#include <string.h>
#include <gegl.h>
#include <glib/gi18n-lib.h>

/* The textures of one tile stay under this: the op's 8-megapixel bands are
 * one tile in direct mode, two in box mode. */
#define TEXTURE_BUDGET ((gsize) 512 << 20)

#define TEXEL_BYTES (CBLUR_CHANNELS * sizeof (gfloat))

/* a thread is worth starting for about this many bytes of copying */
#define COPY_BYTES_PER_THREAD (256.0 * 1024)

G_DEFINE_QUARK (cblur-gl-error-quark, cblur_gl_error)

/* held for all GL work: the context is current on one thread at a time */
static GMutex lock;

/* Textures and pixel buffers outlive the call: pinned staging memory and
 * textures cost more to allocate than a 4K blur takes.  They grow to the
 * largest tile seen and go with the context. */
typedef struct
{
  GLuint         textures[4];
  gint           n_textures;
  gint           texture_width;
  gint           texture_height;
  CblurGlStaging upload;
  CblurGlStaging download;
  GLuint         framebuffer;   /* for glReadPixels where GL < 4.5 */
  GLuint         timer;
} Resources;

static Resources resources;

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

/* one core cannot fill the bus between host and pixel buffer */
static void
copy_rows (Copy *copy,
           gint  rows)
{
  gegl_parallel_distribute_range (rows, COPY_BYTES_PER_THREAD / copy->row_bytes,
                                  copy_row_range, copy);
}

static gfloat *
pixel (const CblurImage *image,
       gint              x,
       gint              y)
{
  return cblur_image_row (image, y) + (gsize) x * CBLUR_CHANNELS;
}

/* CBLUR_GL_MAX_TILE=N: tiles of at most N×N output pixels, for tests */
static gint
tile_cap (void)
{
  const gchar *value = g_getenv ("CBLUR_GL_MAX_TILE");
  gint64       cap = value != NULL ? g_ascii_strtoll (value, NULL, 10) : 0;

  return cap > 0 ? (gint) MIN (cap, G_MAXINT) : G_MAXINT;
}

static void
staging_reserve (CblurGl        *gl,
                 CblurGlStaging *staging,
                 GLenum          target,
                 gsize           size)
{
  if (staging->size >= size)
    return;
  cblur_gl_staging_clear (staging);
  cblur_gl_staging_init (gl, staging, target, size);
}

/* Enough textures of at least in_width × in_height, and staging for a
 * tile's input and output; the check also catches what earlier calls left. */
static gboolean
resources_reserve (CblurGl           *gl,
                   const CblurKernel *kernel,
                   const CblurGlPlan *plan,
                   Resources         *res,
                   GError           **error)
{
  gint in_width = plan->width + 2 * kernel->reach;
  gint in_height = plan->height + 2 * kernel->reach;
  gint n_textures = cblur_gl_passes_textures (kernel);
  gint i;

  if (res->n_textures < n_textures || res->texture_width < in_width ||
      res->texture_height < in_height)
    {
      gint grown_width = MAX (res->texture_width, in_width);
      gint grown_height = MAX (res->texture_height, in_height);

      glDeleteTextures (res->n_textures, res->textures);
      res->n_textures = MAX (res->n_textures, n_textures);
      /* a wide tile after a tall one must not make a huge square */
      if ((gsize) grown_width * grown_height * res->n_textures * TEXEL_BYTES > TEXTURE_BUDGET)
        {
          grown_width = in_width;
          grown_height = in_height;
          res->n_textures = n_textures;
        }
      res->texture_width = grown_width;
      res->texture_height = grown_height;
      glGenTextures (res->n_textures, res->textures);
      for (i = 0; i < res->n_textures; i++)
        {
          glBindTexture (GL_TEXTURE_2D, res->textures[i]);
          glTexStorage2D (GL_TEXTURE_2D, 1, GL_RGBA32F,
                          res->texture_width, res->texture_height);
        }
      glBindTexture (GL_TEXTURE_2D, 0);
    }

  staging_reserve (gl, &res->upload, GL_PIXEL_UNPACK_BUFFER,
                   (gsize) in_width * in_height * TEXEL_BYTES);
  staging_reserve (gl, &res->download, GL_PIXEL_PACK_BUFFER,
                   (gsize) plan->width * plan->height * TEXEL_BYTES);
  if (res->timer == 0)
    glGenQueries (1, &res->timer);
  if (res->framebuffer == 0 && !gl->has_texture_sub_image)
    glGenFramebuffers (1, &res->framebuffer);
  return cblur_gl_check (gl, CBLUR_GL_STAGE_ALLOC, error);
}

/* Destroying the context frees every object in it. */
static void
context_destroy (void)
{
  memset (&resources, 0, sizeof resources);
  cblur_gl_context_destroy ();
}

static gboolean
mapping_failed (CblurGl       *gl,
                CblurGlStage   stage,
                GError       **error)
{
  if (cblur_gl_check (gl, stage, error))
    g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                         _("a pixel buffer could not be mapped"));
  return FALSE;
}

/* src's pixels from x, y into textures[0] */
static gboolean
upload_tile (CblurGl           *gl,
             Resources         *res,
             const CblurImage  *src,
             gint               x,
             gint               y,
             gint               width,
             gint               height,
             GError           **error)
{
  guchar *staged = cblur_gl_staging_map (&res->upload);
  Copy    copy = { staged, width * TEXEL_BYTES,
                   (const guchar *) pixel (src, x, y), src->stride * sizeof (gfloat),
                   width * TEXEL_BYTES };

  if (staged == NULL)
    return mapping_failed (gl, CBLUR_GL_STAGE_UPLOAD, error);
  copy_rows (&copy, height);
  cblur_gl_staging_unmap (&res->upload);

  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, res->upload.buffer);
  glBindTexture (GL_TEXTURE_2D, res->textures[0]);
  glTexSubImage2D (GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_FLOAT, NULL);
  glBindTexture (GL_TEXTURE_2D, 0);
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, 0);
  return cblur_gl_wait (gl, CBLUR_GL_STAGE_UPLOAD, error);
}

static gboolean
compute_tile (CblurGl             *gl,
              Resources           *res,
              const CblurKernel   *kernel,
              const CblurGlPasses *passes,
              gint                x,
              gint                y,
              gint                in_width,
              gint                in_height,
              GLuint             *result,
              gdouble            *ms,
              GError            **error)
{
  GLuint64 elapsed = 0;

  glBeginQuery (GL_TIME_ELAPSED, res->timer);
  *result = cblur_gl_passes_run (kernel, passes, res->textures,
                                 x, y, in_width, in_height);
  glEndQuery (GL_TIME_ELAPSED);
  /* the download reads the result through a framebuffer, and the next
   * upload overwrites a texture the shaders wrote */
  glMemoryBarrier (GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
  if (!cblur_gl_wait (gl, CBLUR_GL_STAGE_DISPATCH, error))
    return FALSE;

  glGetQueryObjectui64v (res->timer, GL_QUERY_RESULT, &elapsed);
  *ms += elapsed / 1e6;
  return TRUE;
}

/* result's corner of width × height into dst at x, y */
static gboolean
download_tile (CblurGl           *gl,
               Resources         *res,
               GLuint             result,
               const CblurImage  *dst,
               gint               x,
               gint               y,
               gint               width,
               gint               height,
               GError           **error)
{
  guchar *staged;
  Copy    copy;

  glBindBuffer (GL_PIXEL_PACK_BUFFER, res->download.buffer);
  /* NVIDIA reads a float framebuffer back at a few MB/s, a texture at
   * PCIe speed */
  if (gl->has_texture_sub_image)
    glGetTextureSubImage (result, 0, 0, 0, 0, width, height, 1, GL_RGBA, GL_FLOAT,
                          res->download.size, NULL);
  else
    {
      glBindFramebuffer (GL_READ_FRAMEBUFFER, res->framebuffer);
      glFramebufferTexture2D (GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_TEXTURE_2D, result, 0);
      glReadBuffer (GL_COLOR_ATTACHMENT0);
      glReadPixels (0, 0, width, height, GL_RGBA, GL_FLOAT, NULL);
      glBindFramebuffer (GL_READ_FRAMEBUFFER, 0);
    }
  glBindBuffer (GL_PIXEL_PACK_BUFFER, 0);
  if (!cblur_gl_wait (gl, CBLUR_GL_STAGE_DOWNLOAD, error))
    return FALSE;

  staged = cblur_gl_staging_map (&res->download);
  if (staged == NULL)
    return mapping_failed (gl, CBLUR_GL_STAGE_DOWNLOAD, error);
  copy = (Copy) { (guchar *) pixel (dst, x, y), dst->stride * sizeof (gfloat),
                  staged, width * TEXEL_BYTES, width * TEXEL_BYTES };
  copy_rows (&copy, height);
  cblur_gl_staging_unmap (&res->download);
  return TRUE;
}

/* the output rectangle x, y, width × height of dst, in dst's pixels */
static gboolean
blur_tile (CblurGl             *gl,
           Resources           *res,
           const CblurKernel   *kernel,
           const CblurGlPasses *passes,
           const CblurImage   *src,
           const CblurImage   *dst,
           gint                x,
           gint                y,
           gint                width,
           gint                height,
           CblurGlReport      *report,
           GError            **error)
{
  gint   in_width = width + 2 * kernel->reach;
  gint   in_height = height + 2 * kernel->reach;
  gint64 start = g_get_monotonic_time ();
  GLuint result;

  /* src is dst grown by the reach: the tile's input starts at x, y in it */
  if (!upload_tile (gl, res, src, x, y, in_width, in_height, error))
    return FALSE;
  report->upload_ms += (g_get_monotonic_time () - start) / 1000.0;

  if (!compute_tile (gl, res, kernel, passes, src->x + x, src->y + y, in_width, in_height,
                     &result, &report->compute_ms, error))
    return FALSE;

  start = g_get_monotonic_time ();
  if (!download_tile (gl, res, result, dst, x, y, width, height, error))
    return FALSE;
  report->download_ms += (g_get_monotonic_time () - start) / 1000.0;
  return TRUE;
}

static gboolean
blur_tiles (CblurGl            *gl,
            const CblurKernel  *kernel,
            const CblurImage   *src,
            const CblurImage   *dst,
            CblurGlReport      *report,
            GError            **error)
{
  CblurGlPasses passes = { 0 };
  CblurGlPlan   plan;
  gint          max_edge = gl->max_texture_size - 2 * kernel->reach;
  gboolean      ok;
  gint          tx, ty;

  if (max_edge < 1)
    {
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                   _("the blur reaches too far for textures of %d pixels"),
                   gl->max_texture_size);
      return FALSE;
    }

  cblur_gl_plan_tiles (dst->width, dst->height, kernel->reach,
                       MIN (max_edge, tile_cap ()),
                       TEXTURE_BUDGET / (cblur_gl_passes_textures (kernel) * TEXEL_BYTES),
                       &plan);
  report->tiles = plan.n_x * plan.n_y;

  ok = cblur_gl_passes_init (gl, kernel, &passes, error) &&
       resources_reserve (gl, kernel, &plan, &resources, error);
  for (ty = 0; ok && ty < plan.n_y; ty++)
    for (tx = 0; ok && tx < plan.n_x; tx++)
      {
        gint x = tx * plan.width;
        gint y = ty * plan.height;

        ok = blur_tile (gl, &resources, kernel, &passes, src, dst, x, y,
                        MIN (plan.width, dst->width - x),
                        MIN (plan.height, dst->height - y), report, error);
      }

  cblur_gl_passes_clear (&passes);
  return ok;
}

gboolean
cblur_gl_available (gboolean  *is_software,
                    GError   **error)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&lock);
  CblurGl                 *gl = cblur_gl_context_acquire (error);

  if (gl == NULL)
    return FALSE;
  if (is_software != NULL)
    *is_software = gl->is_software;
  cblur_gl_context_release ();
  return TRUE;
}

gboolean
cblur_gl_blur (const CblurKernel  *kernel,
               const CblurImage   *src,
               const CblurImage   *dst,
               CblurGlReport      *report,
               GError            **error)
{
  g_autoptr (GMutexLocker) locker = NULL;
  g_autoptr (GError)       failure = NULL;
  CblurGlReport            unused;
  CblurGl                 *gl;

  if (report == NULL)
    report = &unused;
  memset (report, 0, sizeof *report);

  if (src->width != dst->width + 2 * kernel->reach ||
      src->height != dst->height + 2 * kernel->reach)
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                           _("the source is not the output grown by the blur's reach"));
      return FALSE;
    }

  locker = g_mutex_locker_new (&lock);
  gl = cblur_gl_context_acquire (error);
  if (gl == NULL)
    return FALSE;
  g_strlcpy (report->renderer, gl->renderer, sizeof report->renderer);
  report->max_texture_size = gl->max_texture_size;

  if (cblur_kernel_is_identity (kernel) && dst->width > 0 && dst->height > 0)
    {
      Copy copy = { (guchar *) dst->data, dst->stride * sizeof (gfloat),
                    (const guchar *) src->data, src->stride * sizeof (gfloat),
                    dst->width * TEXEL_BYTES };

      copy_rows (&copy, dst->height);
    }
  else if (dst->width > 0 && dst->height > 0 &&
           !blur_tiles (gl, kernel, src, dst, report, &failure))
    {
      /* after either, GL's state is undefined: the next call starts over */
      if (g_error_matches (failure, CBLUR_GL_ERROR, CBLUR_GL_ERROR_LOST) ||
          g_error_matches (failure, CBLUR_GL_ERROR, CBLUR_GL_ERROR_OUT_OF_MEMORY))
        context_destroy ();
      else
        cblur_gl_context_release ();
      g_propagate_error (error, g_steal_pointer (&failure));
      return FALSE;
    }

  cblur_gl_context_release ();
  return TRUE;
}

void
cblur_gl_shutdown (void)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&lock);

  context_destroy ();
}

/* so that unloading the module frees the context */
__attribute__ ((destructor)) static void
unload (void)
{
  cblur_gl_shutdown ();
}
