/* The variable blur's GL entry points.  A band's source, output and
 * widths table live in pinned host memory that GEGL reads into and writes
 * from in place; the table goes to video memory once, and the band is cut
 * into the Gaussian blur's tiles, each uploaded (decoded where it is
 * stored in a cblur-format), blurred along rows then columns, and
 * downloaded (encoded likewise). */
#include "cblur-gl-variable.h"
#include "cblur-gl-variable-passes.h"

#include <string.h>
#include <glib/gi18n-lib.h>

struct _CblurGlVariableMemory
{
  CblurGlBandMemory band;     /* source and output */
  CblurGpuPinned   *widths;
};

/* The widths' storage buffer in video memory, kept with the context as
 * the textures are: allocating it costs more than a small blur takes. */
typedef struct
{
  guint buffer;
  gsize size;
} Widths;

static gsize
image_size (CblurImage *image)
{
  image->stride = cblur_image_packed_stride (image);
  return image->stride * image->height * sizeof (gfloat);
}

CblurGlVariableMemory *
cblur_gl_variable_memory_new (CblurImage     *src,
                              CblurImage     *dst,
                              CblurBoxWidth **widths,
                              GError        **error)
{
  g_autofree CblurGlVariableMemory *memory = g_new0 (CblurGlVariableMemory, 1);
  gsize                             sizes[3] = {
    image_size (src), image_size (dst),
    (gsize) src->width * src->height * sizeof (CblurBoxWidth)
  };
  CblurGpuPinned                  **pinned[3] = { &memory->band.source, &memory->band.output,
                                                  &memory->widths };
  CblurGpu                         *gpu;
  gint                              i;

  cblur_gpu_lock ();
  gpu = cblur_gpu_acquire (error);
  for (i = 0; gpu != NULL && i < 3; i++)
    {
      *pinned[i] = cblur_gpu_pinned_new (gpu, sizes[i], error);
      if (*pinned[i] == NULL)
        break;
    }
  if (gpu != NULL && i < 3)
    while (i-- > 0)
      cblur_gpu_pinned_give_back (gpu, g_steal_pointer (pinned[i]));
  if (gpu != NULL)
    cblur_gpu_release (gpu);
  cblur_gpu_unlock ();
  if (memory->widths == NULL)
    return NULL;

  src->data = memory->band.source->data;
  dst->data = memory->band.output->data;
  *widths = memory->widths->data;
  memory->band.tiles = 1;
  return g_steal_pointer (&memory);
}

void
cblur_gl_variable_memory_free (CblurGlVariableMemory *memory)
{
  cblur_gpu_pinned_free (memory->band.source);
  cblur_gpu_pinned_free (memory->band.output);
  cblur_gpu_pinned_free (memory->widths);
  g_free (memory);
}

static void
widths_free (gpointer data)
{
  /* the buffer goes with the context */
  g_free (data);
}

/* the table copied into video memory, where every pass reads it */
static gboolean
upload_widths (CblurGl                     *gl,
               const CblurGlVariableMemory *memory,
               const CblurImage            *src,
               guint                       *buffer,
               GError                     **error)
{
  static const gchar key[] = "cblur-gl-variable-widths";
  Widths            *widths = cblur_gpu_get_data (gl->gpu, key);
  gsize              size = (gsize) src->width * src->height * sizeof (CblurBoxWidth);

  if ((gint64) size > gl->limits->max_storage_range)
    {
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                   _("the band's boxes take %d MiB, more than a shader may read from "
                     "one buffer"), (gint) (size >> 20));
      return FALSE;
    }
  if (widths == NULL)
    {
      widths = g_new0 (Widths, 1);
      cblur_gpu_set_data (gl->gpu, key, widths, widths_free);
    }
  if (widths->size < size)
    {
      cblur_gpu_buffer_free (&widths->buffer);
      widths->buffer = cblur_gpu_buffer_new (size, NULL);
      widths->size = size;
    }
  cblur_gpu_copy (memory->widths->buffer, 0, widths->buffer, 0, size);
  cblur_gpu_barrier (CBLUR_GPU_BARRIER_BUFFER_UPDATE);
  *buffer = widths->buffer;
  return cblur_gpu_check (gl->gpu, "alloc variable widths", error);
}

/* tiles of dst that fit a texture and the GPU's memory with their halo */
static GArray *
plan_tiles (CblurGl             *gl,
            const CblurVariable *variable,
            const CblurImage    *src,
            GeglAbyssPolicy      abyss,
            const CblurImage    *dst,
            GError             **error)
{
  gint               max_edge = gl->limits->max_texture_size - 2 * variable->reach;
  /* CBLUR_GL_MAX_TILE=N: tiles of at most N×N output pixels, for tests */
  gint64             cap = cblur_setting_or (cblur_settings ()->gl_max_tile, G_MAXINT);
  CblurGlPlan        plan;
  g_autoptr (GArray) tiles = NULL;

  if (max_edge < 1)
    {
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                   _("the blur reaches too far for textures of %d pixels"),
                   gl->limits->max_texture_size);
      return NULL;
    }
  cblur_gl_plan_tiles (dst->width, dst->height, variable->reach, MIN (max_edge, cap),
                       cblur_gl_texture_budget (gl) /
                         (CBLUR_GL_VARIABLE_TEXTURES * CBLUR_GL_TEXEL_BYTES),
                       &plan);
  tiles = cblur_gl_tiles_new (&plan, variable->reach, src, abyss, dst);
  if (!cblur_gl_tiles_can_make_abyss (tiles, src))
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                           _("only the source's part inside the image is held, too little "
                             "for a tile of the blur to make its halo from"));
      return NULL;
    }
  return g_steal_pointer (&tiles);
}

/* each tile up, through the passes and down; the CPU waits once */
static gboolean
blur_tiles (CblurGl                     *gl,
            const CblurGlVariablePasses *passes,
            const GArray                *tiles,
            const CblurGlJob            *job,
            CblurGlStamps               *stamps,
            GError                     **error)
{
  gint  reach = passes->variable->reach;
  guint i;

  for (i = 0; i < tiles->len; i++)
    {
      const CblurGlTile     *tile = &g_array_index (tiles, CblurGlTile, i);
      GeglRectangle          read = { tile->x + tile->inside.x - job->src->x,
                                      tile->y + tile->inside.y - job->src->y,
                                      tile->inside.width, tile->inside.height };
      GeglRectangle          output = { tile->x + reach - job->dst->x,
                                        tile->y + reach - job->dst->y,
                                        tile->in_width - 2 * reach,
                                        tile->in_height - 2 * reach };
      const CblurGpuTexture *result;

      cblur_gl_stamp (stamps, CBLUR_GL_SPAN_UPLOAD);
      cblur_gl_upload (gl, job, &read, 0);
      cblur_gl_stamp (stamps, CBLUR_GL_SPAN_UPLOAD);
      cblur_gl_stamp (stamps, CBLUR_GL_SPAN_COMPUTE);
      result = cblur_gl_variable_passes_run (passes, tile);
      cblur_gl_stamp (stamps, CBLUR_GL_SPAN_COMPUTE);
      if (!cblur_gpu_check (gl->gpu, "dispatch variable tile", error))
        return FALSE;

      cblur_gl_download_barrier ();
      cblur_gl_stamp (stamps, CBLUR_GL_SPAN_DOWNLOAD);
      cblur_gl_download (gl, job, result, &output, 0);
      cblur_gl_stamp (stamps, CBLUR_GL_SPAN_DOWNLOAD);
      /* the next tile's upload overwrites the input texture */
      cblur_gpu_barrier (CBLUR_GPU_BARRIER_TEXTURE_UPDATE);
    }
  return cblur_gpu_finish (gl->gpu, "variable download", error);
}

static gboolean
blur_band (CblurGl                     *gl,
           const CblurGlVariableMemory *memory,
           const CblurVariable         *variable,
           const CblurImage            *src,
           GeglAbyssPolicy              abyss,
           const CblurImage            *dst,
           CblurGlReport               *report,
           GError                     **error)
{
  CblurGlJob            job = { &memory->band, src, dst };
  CblurGlVariablePasses passes = { 0 };
  CblurGlSize           sizes[CBLUR_GL_VARIABLE_TEXTURES];
  CblurGlStamps         stamps;
  g_autoptr (GArray)    tiles = plan_tiles (gl, variable, src, abyss, dst, error);
  guint                 widths = 0;
  gboolean              ok = tiles != NULL;

  if (!ok)
    return FALSE;
  report->tiles = tiles->len;
  cblur_gl_variable_texture_sizes (variable, tiles, sizes);
  cblur_gl_stamps_init (&stamps);
  cblur_gl_stamp (&stamps, CBLUR_GL_SPAN_UPLOAD);
  ok = upload_widths (gl, memory, src, &widths, error);
  cblur_gl_stamp (&stamps, CBLUR_GL_SPAN_UPLOAD);
  ok = ok && cblur_gl_textures_reserve (gl, CBLUR_GL_VARIABLE_TEXTURES, sizes, error) &&
       cblur_gl_variable_passes_init (gl, variable, widths, src, abyss, &passes, error) &&
       /* a result of whole rows is encoded straight into the pinned memory */
       cblur_gl_convert_prepare (gl, src, dst, tiles->len > 1 ? sizes[CBLUR_GL_OUTPUT].height : 0,
                                 error) &&
       blur_tiles (gl, &passes, tiles, &job, &stamps, error);
  cblur_gl_stamps_clear (&stamps, ok ? report : NULL);
  return ok;
}

gboolean
cblur_gl_variable_blur (const CblurGlVariableMemory *memory,
                        const CblurVariable         *variable,
                        const CblurImage            *src,
                        GeglAbyssPolicy              abyss,
                        const CblurImage            *dst,
                        CblurGlReport               *report,
                        GError                     **error)
{
  CblurGpu *gpu;
  CblurGl   gl;
  gboolean  ok = FALSE;

  memset (report, 0, sizeof *report);
  g_return_val_if_fail (!cblur_variable_is_identity (variable), FALSE);
  g_return_val_if_fail (dst->width > 0 && dst->height > 0, FALSE);

  cblur_gpu_lock ();
  gpu = cblur_gpu_acquire (error);
  if (gpu != NULL)
    {
      cblur_gl_view (gpu, &gl);
      g_strlcpy (report->renderer, gl.limits->renderer, sizeof report->renderer);
      report->max_texture_size = gl.limits->max_texture_size;
      ok = blur_band (&gl, memory, variable, src, abyss, dst, report, error);
      cblur_gpu_release (gpu);
    }
  cblur_gpu_unlock ();
  return ok;
}
