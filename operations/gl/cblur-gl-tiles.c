/* How a band is cut into GL tiles, and blurring it tile by tile. */
#include "cblur-gl-internal.h"

#include <glib/gi18n-lib.h>

/* Below this edge a tile's halo would cost more than it saves in texture
 * memory, so the budget gives way instead. */
#define MIN_SPLIT_EDGE 256

/* the fewest tiles of at most max_tile along length, all but the last equal */
static gint
split (gint  length,
       gint  max_tile,
       gint *count)
{
  gint tile;

  *count = (length + max_tile - 1) / max_tile;
  tile = (length + *count - 1) / *count;
  *count = (length + tile - 1) / tile;
  return tile;
}

/* max_edge: output pixels a tile may have along either axis;
 * max_texels: input pixels (tile and halo) a tile may have */
void
cblur_gl_plan_tiles (gint         width,
                     gint         height,
                     gint         reach,
                     gint         max_edge,
                     gsize        max_texels,
                     CblurGlPlan *plan)
{
  plan->width = split (width, max_edge, &plan->n_x);
  plan->height = split (height, max_edge, &plan->n_y);

  /* split the longer side, which gains the most per halo added */
  while ((gsize) (plan->width + 2 * reach) * (plan->height + 2 * reach) > max_texels)
    {
      gboolean wide = plan->width >= plan->height;
      gint     length = wide ? width : height;
      gint    *edge = wide ? &plan->width : &plan->height;
      gint    *count = wide ? &plan->n_x : &plan->n_y;

      if (*edge <= MAX (MIN_SPLIT_EDGE, 2 * reach))
        break;
      *edge = split (length, MIN (*edge - 1, (length + *count) / (*count + 1)), count);
    }
}

/* Tiles of at most plan->width × plan->height output pixels that, with
 * their halo, fit a texture and the GPU's memory. */
gboolean
cblur_gl_plan (CblurGl           *gl,
               gint               reach,
               gint               n_textures,
               const CblurImage  *dst,
               CblurGlPlan       *plan,
               GError           **error)
{
  gint max_edge = gl->limits->max_texture_size - 2 * reach;

  if (max_edge < 1)
    {
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                   _("the blur reaches too far for textures of %d pixels"),
                   gl->limits->max_texture_size);
      return FALSE;
    }

  cblur_gl_plan_tiles (dst->width, dst->height, reach, MIN (max_edge, gl->max_tile),
                       gl->texture_budget / (n_textures * CBLUR_GL_TEXEL_BYTES),
                       plan);
  return TRUE;
}

gboolean
cblur_gl_holds_grown (const CblurImage *src,
                      const CblurImage *dst,
                      gint              reach)
{
  return src->width == dst->width + 2 * reach && src->height == dst->height + 2 * reach;
}

GArray *
cblur_gl_tiles_new (const CblurGlPlan *plan,
                    gint               reach,
                    const CblurImage  *src,
                    GeglAbyssPolicy    abyss,
                    const CblurImage  *dst)
{
  GArray       *tiles = g_array_sized_new (FALSE, FALSE, sizeof (CblurGlTile),
                                           plan->n_x * plan->n_y);
  GeglRectangle read = { src->x, src->y, src->width, src->height };
  gint          index;

  for (index = 0; index < plan->n_x * plan->n_y; index++)
    {
      gint          x = index % plan->n_x * plan->width;
      gint          y = index / plan->n_x * plan->height;
      GeglRectangle input = { dst->x + x - reach, dst->y + y - reach,
                              MIN (plan->width, dst->width - x) + 2 * reach,
                              MIN (plan->height, dst->height - y) + 2 * reach };
      CblurGlTile   tile = { input.x, input.y, input.width, input.height, { 0 }, abyss };

      gegl_rectangle_intersect (&tile.inside, &input, &read);
      tile.inside.x -= input.x;
      tile.inside.y -= input.y;
      g_array_append_val (tiles, tile);
    }
  return tiles;
}

/* Clamp's edge and the colours lie in any tile that holds some of src, but
 * loop's far side only in one that holds all of src along the axis, or
 * needs nothing beyond it. */
gboolean
cblur_gl_tiles_can_make_abyss (const GArray     *tiles,
                               const CblurImage *src,
                               GError          **error)
{
  guint i;

  for (i = 0; i < tiles->len; i++)
    {
      const CblurGlTile   *tile = &g_array_index (tiles, CblurGlTile, i);
      const GeglRectangle *inside = &tile->inside;

      if (gegl_rectangle_is_empty (inside) ||
          (tile->abyss == GEGL_ABYSS_LOOP &&
           !((inside->width == src->width || inside->width == tile->in_width) &&
             (inside->height == src->height || inside->height == tile->in_height))))
        {
          g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                               _("only the source's part inside the image is held, too "
                                 "little for a tile of the blur to make its halo from"));
          return FALSE;
        }
    }
  return TRUE;
}

/* The GPU works through every tile before the CPU waits once. */
gboolean
cblur_gl_tiles_run (CblurGl           *gl,
                    const GArray      *tiles,
                    gint               reach,
                    const CblurGlJob  *job,
                    CblurGlTilePasses  run,
                    gconstpointer      passes,
                    CblurGlStamps     *stamps,
                    GError           **error)
{
  guint i;

  for (i = 0; i < tiles->len; i++)
    {
      const CblurGlTile   *tile = &g_array_index (tiles, CblurGlTile, i);
      const GeglRectangle *inside = &tile->inside;
      GeglRectangle        read = { tile->x + inside->x - job->src->x,
                                    tile->y + inside->y - job->src->y,
                                    inside->width, inside->height };
      GeglRectangle        output = { tile->x + reach - job->dst->x,
                                      tile->y + reach - job->dst->y,
                                      tile->in_width - 2 * reach, tile->in_height - 2 * reach };
      const CblurGpuTexture *result;

      cblur_gl_stamp (stamps, CBLUR_GL_SPAN_UPLOAD);
      cblur_gl_upload (gl, job, &read, 0);
      cblur_gl_stamp (stamps, CBLUR_GL_SPAN_UPLOAD);
      if (!cblur_gpu_check (gl->gpu, "upload tile", error))
        return FALSE;

      result = run (passes, tile);
      if (!cblur_gpu_check (gl->gpu, "dispatch tile", error))
        return FALSE;

      cblur_gl_download_barrier ();
      cblur_gl_stamp (stamps, CBLUR_GL_SPAN_DOWNLOAD);
      cblur_gl_download (gl, job, result, &output, 0);
      cblur_gl_stamp (stamps, CBLUR_GL_SPAN_DOWNLOAD);
      /* the next tile's upload overwrites the input texture */
      cblur_gpu_barrier (CBLUR_GPU_BARRIER_TEXTURE_UPDATE);
    }

  return cblur_gpu_finish (gl->gpu, "download tiles", error);
}
