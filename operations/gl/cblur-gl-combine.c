/* The joined blurs on the Gaussian blur's tiles: a tile's passes leave
 * its blur in the output texture, combine.comp joins it with the input
 * texture's source into a texture of this file's, which goes down.  The
 * difference's first blur waits there while the second's passes reuse
 * the output texture. */
#include "cblur-gl-combine.h"
#include "cblur-gl-pinned.h"

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

gint
cblur_gl_combine_reach (const CblurGlCombine *combine)
{
  return combine->kernels[1] != NULL ? MAX (combine->kernels[0]->reach,
                                            combine->kernels[1]->reach)
                                     : combine->kernels[0]->reach;
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

/* the offset, in blur's output texture, of the tile's first output */
static gint
blur_at (const Tiles *tiles,
         gint         blur)
{
  return tiles->reach - tiles->combine->kernels[blur]->reach;
}

/* first's texels from first_at, second's from second_at, joined by kind
 * into the result's */
static void
join (const Tiles           *tiles,
      const CblurGlTile     *tile,
      Kind                   kind,
      const CblurGpuTexture *first,
      gint                   first_at,
      const CblurGpuTexture *second,
      gint                   second_at)
{
  const CblurGpuProgram *program = tiles->program;
  gint                   width = tile->in_width - 2 * tiles->reach;
  gint                   height = tile->in_height - 2 * tiles->reach;

  cblur_gpu_use (program);
  cblur_gpu_set_int (program, "kind", kind);
  cblur_gpu_set_ivec2 (program, "size", width, height);
  cblur_gpu_set_ivec2 (program, "source_at", tiles->reach, tiles->reach);
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
                      cblur_gpu_groups (height, TEXEL_GROUP), CBLUR_GPU_BARRIER_IMAGES);
}

static const CblurGpuTexture *
combine_tile (gconstpointer      data,
              const CblurGlTile *tile)
{
  const Tiles           *tiles = data;
  const CblurGpuTexture *blurred = cblur_gl_passes_run (&tiles->passes[0], tile);
  static const Kind      kinds[] = {
    [CBLUR_GL_COMBINE_UNSHARP] = KIND_UNSHARP,
    [CBLUR_GL_COMBINE_HIGH_PASS] = KIND_HIGH_PASS,
  };

  if (tiles->combine->kind != CBLUR_GL_COMBINE_DIFFERENCE)
    {
      join (tiles, tile, kinds[tiles->combine->kind], blurred, blur_at (tiles, 0), blurred, 0);
      return tiles->result;
    }
  join (tiles, tile, KIND_COPY, blurred, blur_at (tiles, 0), blurred, 0);
  blurred = cblur_gl_passes_run (&tiles->passes[1], tile);
  join (tiles, tile, KIND_DIFFERENCE, tiles->result, 0, blurred, blur_at (tiles, 1));
  return tiles->result;
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
  gint n_textures = cblur_gl_passes_textures (gl, combine->kernels[0]);

  if (combine->kernels[1] != NULL)
    n_textures = MAX (n_textures, cblur_gl_passes_textures (gl, combine->kernels[1]));
  if (!cblur_gl_plan (gl, reach, n_textures + 1, dst, plan, error))
    return NULL;
  return cblur_gl_tiles_new (plan, reach, src, GEGL_ABYSS_NONE, dst);
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
                                  combine->kernels[1] != NULL ? 2 : 1 };
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
  if (ok)
    {
      tiles.program = cblur_gl_program (gl, CBLUR_GL_SHADER_COMBINE, 0, 0, error);
      tiles.result = result_texture (gl, &plan);
      ok = tiles.program != NULL &&
           cblur_gl_convert_prepare (gl, src, dst, plan.n_x > 1 ? plan.height : 0, error) &&
           cblur_gl_tiles_run (gl, list, tiles.reach, &job, combine_tile, &tiles, &stamps,
                               error);
    }
  cblur_gl_stamps_clear (&stamps, ok ? report : NULL);
  for (i = 0; i < tiles.n_blurs; i++)
    cblur_gl_passes_clear (&tiles.passes[i]);
  return ok;
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
  if (!cblur_gl_holds_grown (src, dst, cblur_gl_combine_reach (combine)))
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                           _("the source is not the output grown by the blur's reach"));
      return FALSE;
    }
  return cblur_gl_run (combine_task, &call, error);
}
