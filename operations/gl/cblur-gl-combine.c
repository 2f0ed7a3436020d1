/* The joined blurs on the Gaussian blur's tiles: a tile's passes leave
 * its blur in the output texture, combine.comp joins it with the input
 * texture's source into a texture of this file's, which goes down.  The
 * difference's first blur waits there while the second's passes reuse
 * the output texture. */
#include "cblur-gl-combine.h"
#include "cblur-gl-pinned.h"
#include "cblur-gl-internal.h"
#include "cblur-gl-stream.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* combine.comp's KIND_*: its first blur copied, or joined */
typedef enum
{
  KIND_COPY,
  KIND_UNSHARP,
  KIND_HIGH_PASS,
  KIND_DIFFERENCE
} Kind;

/* combine.comp's work group edge */
#define TEXEL_GROUP 16

enum
{
  SOURCE_UNIT,
  FIRST_UNIT,
  SECOND_UNIT,
  RESULT_UNIT
};

/* The tiles' blurs and their joining. */
typedef struct
{
  const CblurGlCombine  *combine;
  gint                   reach;       /* the tiles' */
  gint                   n_blurs;
  CblurGlPasses          passes[2];
  CblurGpuProgram       *program;
  const CblurGpuTexture *result;      /* this file's, which stays with the context */
} Tiles;

/* the unsharp mask with its threshold mask */
static gboolean
thresholded (const CblurGlCombine *combine)
{
  return combine->kind == CBLUR_GL_COMBINE_UNSHARP && combine->kernels[1] != NULL;
}

gint
cblur_gl_combine_reach (const CblurGlCombine *combine)
{
  const CblurKernel *const *kernels = combine->kernels;

  if (kernels[1] == NULL)
    return kernels[0]->reach;
  return thresholded (combine) ? kernels[0]->reach + kernels[1]->reach
                               : MAX (kernels[0]->reach, kernels[1]->reach);
}

/* with the context current, when it lets go of its memory or goes */
static void
texture_free (gpointer data)
{
  cblur_gpu_texture_clear (data);
  g_free (data);
}

/* the result's texture, of at least the plan's tile */
static const CblurGpuTexture *
result_texture (CblurGl           *gl,
                const CblurGlPlan *plan)
{
  static const gchar key[] = "cblur-gl-combine-result";
  CblurGpuTexture   *texture = cblur_gpu_get_data (gl->gpu, key);

  if (texture == NULL)
    {
      texture = g_new0 (CblurGpuTexture, 1);
      cblur_gpu_set_data (gl->gpu, key, texture, texture_free);
    }
  cblur_gpu_texture_reserve (texture, plan->width, plan->height);
  return texture;
}

/* the input texture's texel of the tile's first output: the texture
 * holds the tile's input from its part inside the image on */
static void
set_source_at (const Tiles           *tiles,
               const CblurGlTile     *tile,
               const CblurGpuProgram *program)
{
  cblur_gpu_set_ivec2 (program, "source_at", tiles->reach - tile->inside.x,
                       tiles->reach - tile->inside.y);
}

/* the offset, in blur's output texture, of the tile's first output */
static gint
blur_at (const Tiles *tiles,
         gint         blur)
{
  return tiles->reach - tiles->combine->kernels[blur]->reach;
}

/* first's texels from first_at, second's from second_at, joined by kind
 * into the result's rows [from_row, from_row + n_rows) */
static void
join (const Tiles           *tiles,
           const CblurGlTile     *tile,
           Kind                   kind,
           const CblurGpuTexture *first,
           gint                   first_at,
           const CblurGpuTexture *second,
           gint                   second_at,
           gint                   from_row,
           gint                   n_rows)
{
  const CblurGpuProgram *program = tiles->program;
  gint                   width = tile->in_width - 2 * tiles->reach;

  cblur_gpu_use (program);
  cblur_gpu_set_int (program, "kind", kind);
  cblur_gpu_set_int (program, "from_row", from_row);
  cblur_gpu_set_ivec2 (program, "size", width, from_row + n_rows);
  set_source_at (tiles, tile, program);
  cblur_gpu_set_ivec2 (program, "first_at", first_at, first_at);
  cblur_gpu_set_ivec2 (program, "second_at", second_at, second_at);
  cblur_gpu_set_float (program, "amount", tiles->combine->amount);
  cblur_gpu_set_float (program, "contrast", tiles->combine->contrast);
  cblur_gpu_bind_image (SOURCE_UNIT, &tiles->passes[0].textures[CBLUR_GL_INPUT],
                        CBLUR_GPU_READ);
  cblur_gpu_bind_image (FIRST_UNIT, first, CBLUR_GPU_READ);
  cblur_gpu_bind_image (SECOND_UNIT, second, CBLUR_GPU_READ);
  cblur_gpu_bind_image (RESULT_UNIT, tiles->result, CBLUR_GPU_WRITE);
  cblur_gpu_dispatch (cblur_gpu_groups (width, TEXEL_GROUP),
                      cblur_gpu_groups (n_rows, TEXEL_GROUP), CBLUR_GPU_BARRIER_IMAGES);
}

/* The unsharp mask of the blurred texels, which cover the result grown
 * by the mask blur's reach, weighed by the threshold mask: combine.comp's
 * THRESHOLD variant makes the mask there and blurs it. */
static void
join_masked (const Tiles           *tiles,
             const CblurGlTile     *tile,
             const CblurGpuTexture *blurred)
{
  const CblurGlCombine  *combine = tiles->combine;
  const CblurKernelAxis *mask = &combine->kernels[1]->axes[CBLUR_AXIS_X];
  const CblurGpuProgram *program = tiles->program;
  gint                   width = tile->in_width - 2 * tiles->reach;
  gint                   height = tile->in_height - 2 * tiles->reach;
  gint                   out_x = tile->x + tiles->reach;
  gint                   out_y = tile->y + tiles->reach;
  gint                   image[4] = {
    combine->image.x - out_x, combine->image.y - out_y,
    combine->image.x + combine->image.width - 1 - out_x,
    combine->image.y + combine->image.height - 1 - out_y
  };
  gfloat                 luminance[4] = { combine->threshold.luminance[0],
                                          combine->threshold.luminance[1],
                                          combine->threshold.luminance[2], 0.0f };
  gfloat                 weights[4] = { 0.0f };
  gint                   i;

  g_return_if_fail (mask->mode == CBLUR_MODE_DIRECT && mask->half_width < 4);
  for (i = 0; i <= mask->half_width; i++)
    weights[i] = mask->weights[i];
  cblur_gpu_use (program);
  cblur_gpu_set_ivec2 (program, "size", width, height);
  set_source_at (tiles, tile, program);
  cblur_gpu_set_ivec2 (program, "first_at", blur_at (tiles, 0), blur_at (tiles, 0));
  cblur_gpu_set_float (program, "amount", combine->amount);
  cblur_gpu_set_ivec4 (program, "image", image);
  cblur_gpu_set_vec4 (program, "luminance", luminance);
  cblur_gpu_set_float (program, "threshold", combine->threshold.threshold);
  cblur_gpu_set_int (program, "mask_reach", mask->half_width);
  cblur_gpu_set_vec4 (program, "mask_weights", weights);
  cblur_gpu_bind_image (SOURCE_UNIT, &tiles->passes[0].textures[CBLUR_GL_INPUT],
                        CBLUR_GPU_READ);
  cblur_gpu_bind_image (FIRST_UNIT, blurred, CBLUR_GPU_READ);
  cblur_gpu_bind_image (RESULT_UNIT, tiles->result, CBLUR_GPU_WRITE);
  cblur_gpu_dispatch (cblur_gpu_groups (width, TEXEL_GROUP),
                      cblur_gpu_groups (height, TEXEL_GROUP), CBLUR_GPU_BARRIER_IMAGES);
}

/* combine.comp's arithmetic of the kinds of one blur */
static const Kind kinds[] = {
  [CBLUR_GL_COMBINE_UNSHARP] = KIND_UNSHARP,
  [CBLUR_GL_COMBINE_HIGH_PASS] = KIND_HIGH_PASS,
};

static const CblurGpuTexture *
combine_tile (gconstpointer      data,
              const CblurGlTile *tile)
{
  const Tiles           *tiles = data;
  gint                   rows = tile->in_height - 2 * tiles->reach;
  const CblurGpuTexture *blurred;

  cblur_gl_passes_made (&tiles->passes[0], tile);
  blurred = cblur_gl_passes_run (&tiles->passes[0], tile);

  if (thresholded (tiles->combine))
    {
      join_masked (tiles, tile, blurred);
      return tiles->result;
    }
  if (tiles->combine->kind != CBLUR_GL_COMBINE_DIFFERENCE)
    {
      join (tiles, tile, kinds[tiles->combine->kind], blurred, blur_at (tiles, 0), blurred, 0, 0,
            rows);
      return tiles->result;
    }
  join (tiles, tile, KIND_COPY, blurred, blur_at (tiles, 0), blurred, 0, 0, rows);
  cblur_gl_passes_made (&tiles->passes[1], tile);
  blurred = cblur_gl_passes_run (&tiles->passes[1], tile);
  join (tiles, tile, KIND_DIFFERENCE, tiles->result, 0, blurred, blur_at (tiles, 1), 0, rows);
  return tiles->result;
}

/* A streamed tile of one blur joined without a mask: its rows' passes
 * as they come, then each stripe's columns and join. */
static void
stream_rows (gconstpointer      data,
             const CblurGlTile *tile,
             gint               first,
             gint               n)
{
  cblur_gl_passes_rows (&((const Tiles *) data)->passes[0], tile, first, n);
}

static const CblurGpuTexture *
stream_columns (gconstpointer      data,
                const CblurGlTile *tile,
                gint               first,
                gint               n)
{
  const Tiles           *tiles = data;
  const CblurGpuTexture *blurred = cblur_gl_passes_columns (&tiles->passes[0], tile, first, n);

  join (tiles, tile, kinds[tiles->combine->kind], blurred, blur_at (tiles, 0), blurred, 0, first,
        n);
  return tiles->result;
}

/* The one tile, streamed: in stripes where one blur is joined without a
 * mask (the mask's blur and the difference's second read beyond a
 * stripe's rows), else whole once its rows are up. */
static gboolean
combine_streamed (CblurGl           *gl,
                  const Tiles       *tiles,
                  const CblurGlJob  *job,
                  CblurStreamRun    *run,
                  const CblurGlTile *tile,
                  GError           **error)
{
  gboolean            one_blur = tiles->n_blurs == 1 && !thresholded (tiles->combine);
  CblurGlStreamPasses stream = { tiles, tiles->passes[0].stamps, tiles->reach,
                                 one_blur ? cblur_gl_passes_stripe (&tiles->passes[0]) : 0,
                                 stream_rows, stream_columns, combine_tile };

  if (stream.stripe > 0)
    cblur_gl_passes_made (&tiles->passes[0], tile);
  return cblur_gl_blur_streamed (gl, &stream, job, run, tile, error);
}

/* the plan's tiles, with room for every blur's textures and the result */
static GArray *
plan_tiles (CblurGl              *gl,
            const CblurGlCombine *combine,
            gint                  reach,
            const CblurImage     *src,
            const CblurImage     *dst,
            CblurGlPlan          *plan,
            GError              **error)
{
  gint    n_textures = cblur_gl_passes_textures (gl, combine->kernels[0]);
  GArray *tiles;

  if (combine->kind == CBLUR_GL_COMBINE_DIFFERENCE)
    n_textures = MAX (n_textures, cblur_gl_passes_textures (gl, combine->kernels[1]));
  if (!cblur_gl_plan (gl, reach, n_textures + 1, dst, plan, error))
    return NULL;
  tiles = cblur_gl_tiles_new (plan, reach, src, combine->abyss, dst);
  if (cblur_gl_tiles_can_make_abyss (tiles, src, error))
    return tiles;
  g_array_unref (tiles);
  return NULL;
}

/* Whether a blur's best programs compile for the next join, which the
 * upgrades' first uses then rehearse (cblur_gl_combine_expect), so that
 * it takes them. */
static gboolean
upgrading (const Tiles *tiles)
{
  gint i;

  for (i = 0; i < tiles->n_blurs; i++)
    if (tiles->passes[i].upgrading)
      return TRUE;
  return FALSE;
}

/* The tiles, the one of a streamed band streamed; a streamed band of
 * several goes whole once all of it is read. */
static gboolean
run_tiles (CblurGl          *gl,
           const Tiles      *tiles,
           GArray           *list,
           const CblurGlJob *job,
           CblurGlStamps    *stamps,
           GError          **error)
{
  CblurStreamRun *run = tiles->combine->run;
  gboolean        ok;

  if (run != NULL && list->len == 1)
    return combine_streamed (gl, tiles, job, run, &g_array_index (list, CblurGlTile, 0), error);
  if (run != NULL)
    cblur_stream_wait_read (run, job->src->height, -1);
  ok = cblur_gl_tiles_run (gl, list, tiles->reach, job, combine_tile, (gpointer) tiles, stamps,
                           error);
  if (ok && run != NULL)
    cblur_stream_release (run, job->dst->height);
  return ok;
}

static gboolean
combine_held (CblurGl                 *gl,
              const CblurGlBandMemory *memory,
              const CblurImage        *src,
              const CblurImage        *dst,
              gconstpointer            data,
              CblurGlReport           *report,
              GError                 **error)
{
  const CblurGlCombine *combine = data;
  CblurGlJob            job = { memory, src, dst };
  Tiles                 tiles = { combine, cblur_gl_combine_reach (combine),
                                  combine->kind == CBLUR_GL_COMBINE_DIFFERENCE ? 2 : 1 };
  CblurGlPlan           plan = { 0 };
  CblurGlStamps         stamps;
  g_autoptr (GArray)    list = plan_tiles (gl, combine, tiles.reach, src, dst, &plan, error);
  gboolean              ok = list != NULL;
  gint                  i;

  if (!ok)
    return FALSE;
  report->tiles = list->len;
  cblur_gl_stamps_init (&stamps);
  for (i = 0; ok && i < tiles.n_blurs; i++)
    ok = cblur_gl_passes_init (gl, combine->kernels[i], list, FALSE, &stamps,
                               &tiles.passes[i], error);
  if (ok && upgrading (&tiles))
    cblur_gl_combine_expect (combine, GEGL_RECTANGLE (dst->x, dst->y, dst->width, dst->height),
                             src->format, dst->format);
  if (ok)
    {
      tiles.program = cblur_gl_program (gl, CBLUR_GL_SHADER_COMBINE,
                                        thresholded (combine) ? CBLUR_GL_THRESHOLD : 0, 0,
                                        error);
      tiles.result = result_texture (gl, &plan);
      ok = tiles.program != NULL &&
           cblur_gl_convert_prepare (gl, src, dst, plan.n_x > 1 ? plan.height : 0, error) &&
           run_tiles (gl, &tiles, list, &job, &stamps, error);
    }
  cblur_gl_stamps_clear (&stamps, ok ? report : NULL);
  for (i = 0; i < tiles.n_blurs; i++)
    cblur_gl_passes_clear (&tiles.passes[i]);
  return ok;
}

/* the largest join of those expected since the last rehearsal */
static struct
{
  GMutex             lock;
  gdouble            pixels;       /* of its source; 0 where there is none */
  CblurGlCombine     combine;      /* its kernels owned */
  GeglRectangle      inside;
  const CblurFormat *formats[2];   /* src's and dst's */
} expected;

static void
combine_clear (CblurGlCombine *combine)
{
  g_clear_pointer ((CblurKernel **) &combine->kernels[0], cblur_kernel_free);
  g_clear_pointer ((CblurKernel **) &combine->kernels[1], cblur_kernel_free);
}

void
cblur_gl_combine_expect (const CblurGlCombine *combine,
                         const GeglRectangle  *inside,
                         const CblurFormat    *src_format,
                         const CblurFormat    *dst_format)
{
  gdouble reach = cblur_gl_combine_reach (combine);
  gdouble pixels = (inside->width + 2.0 * reach) * (inside->height + 2.0 * reach);
  gint    i;

  g_mutex_lock (&expected.lock);
  if (pixels > expected.pixels)
    {
      combine_clear (&expected.combine);
      expected.pixels = pixels;
      expected.combine = *combine;
      expected.combine.run = NULL;
      for (i = 0; i < 2; i++)
        if (combine->kernels[i] != NULL)
          expected.combine.kernels[i] = cblur_kernel_copy (combine->kernels[i]);
      expected.inside = *inside;
      expected.formats[0] = src_format;
      expected.formats[1] = dst_format;
    }
  g_mutex_unlock (&expected.lock);
}

/* src and dst of the join of dst's rectangle inside, without pixels */
static void
images_of (const CblurGlCombine *combine,
           const GeglRectangle  *inside,
           const CblurFormat    *src_format,
           const CblurFormat    *dst_format,
           CblurImage           *src,
           CblurImage           *dst)
{
  gint reach = cblur_gl_combine_reach (combine);

  *src = (CblurImage) { NULL, inside->x - reach, inside->y - reach, inside->width + 2 * reach,
                        inside->height + 2 * reach, 0, src_format };
  *dst = (CblurImage) { NULL, inside->x, inside->y, inside->width, inside->height, 0,
                        dst_format };
}

void
cblur_gl_combine_rehearse_expected (CblurGl *gl)
{
  CblurGlCombine     combine;
  CblurImage         src, dst;
  gboolean           any;
  g_autoptr (GError) error = NULL;

  g_mutex_lock (&expected.lock);
  any = expected.pixels > 0;
  combine = expected.combine;
  if (any)
    images_of (&combine, &expected.inside, expected.formats[0], expected.formats[1], &src,
               &dst);
  memset (&expected.combine, 0, sizeof expected.combine);
  expected.pixels = 0;
  g_mutex_unlock (&expected.lock);
  if (!any)
    return;
  gl->no_wait = TRUE;
  if (!cblur_gl_pinned_rehearse (gl, &src, &dst, combine_held, &combine, &error))
    g_debug ("a rehearsal of the GPU's first join failed: %s", error->message);
  combine_clear (&combine);
}

/* Pixels of no use: what counts is that combine.comp has been
 * dispatched, without the threshold mask and with it, and failures are
 * the next real join's to report. */
void
cblur_gl_combine_first_use (CblurGl *gl)
{
  static const GeglRectangle inside = { 0, 0, 16, 16 };
  g_autoptr (CblurKernel)    kernel = cblur_kernel_new (3.0, CBLUR_MODE_DIRECT, 3);
  const CblurFormat         *format = cblur_format_get (babl_format ("R'G'B'A u8"));
  CblurGlCombine             combine = { CBLUR_GL_COMBINE_UNSHARP, { kernel, NULL }, 1.0f };
  CblurImage                 src, dst;
  gint                       i;

  combine.image = inside;
  gl->no_wait = TRUE;
  for (i = 0; i < 2; i++)
    {
      g_autoptr (GError) error = NULL;

      combine.kernels[1] = i > 0 ? kernel : NULL;
      images_of (&combine, &inside, format, format, &src, &dst);
      if (!cblur_gl_pinned_rehearse (gl, &src, &dst, combine_held, &combine, &error))
        g_debug ("a first use of the GPU's join failed: %s", error->message);
    }
}

/* cblur_gl_combine()'s arguments, for its task */
typedef struct
{
  const CblurGlBandMemory *memory;
  const CblurGlCombine    *combine;
  const CblurImage        *src;
  const CblurImage        *dst;
  CblurGlReport           *report;
} Combine;

static gboolean
combine_task (CblurGpu  *gpu,
              gpointer   data,
              GError   **error)
{
  const Combine *call = data;
  CblurGl        gl;

  cblur_gl_view (gpu, &gl, call->report);
  gl.no_wait = call->combine->no_wait;
  if (call->memory != NULL)
    return combine_held (&gl, call->memory, call->src, call->dst, call->combine, call->report,
                         error);
  return cblur_gl_pinned_run (&gl, call->src, call->dst, combine_held, call->combine,
                              call->report, error);
}

/* src: dst grown by the reach, or that rectangle's part inside the image
 * where the tiles make the rest */
static gboolean
holds_enough (const CblurGlCombine *combine,
              const CblurImage     *src,
              const CblurImage     *dst)
{
  gint          reach = cblur_gl_combine_reach (combine);
  GeglRectangle out = { dst->x, dst->y, dst->width, dst->height };
  GeglRectangle grown = { dst->x - reach, dst->y - reach, dst->width + 2 * reach,
                          dst->height + 2 * reach };
  GeglRectangle inside;

  if (cblur_gl_holds_grown (src, dst, reach))
    return TRUE;
  gegl_rectangle_intersect (&inside, &grown, &combine->image);
  return combine->abyss != GEGL_ABYSS_LOOP && gegl_rectangle_contains (&combine->image, &out) &&
         gegl_rectangle_equal (GEGL_RECTANGLE (src->x, src->y, src->width, src->height),
                               &inside);
}

gboolean
cblur_gl_combine (const CblurGlBandMemory *memory,
                  const CblurGlCombine    *combine,
                  const CblurImage        *src,
                  const CblurImage        *dst,
                  CblurGlReport           *report,
                  GError                 **error)
{
  Combine call = { memory, combine, src, dst, report };

  memset (report, 0, sizeof *report);
  g_return_val_if_fail (dst->width > 0 && dst->height > 0, FALSE);
  if (!holds_enough (combine, src, dst))
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                           _("the source is not the output grown by the blur's reach"));
      return FALSE;
    }
  return cblur_gl_run (combine_task, &call, error);
}
