/* The variable blur's levels on a tile: for each level from the one
 * below the band's lowest to its highest, the level's cells around the
 * tile's output are reduced from the tile's input, blurred along rows
 * and columns by the Gaussian blur's two-dispatch box, and blended into
 * the output by the pixels whose upper level it is.  Two grids live at a
 * time: the level's and the one below, as on the CPU. */
#include "cblur-gl-box.h"
#include "cblur-gl-variable-levels.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* level-reduce.comp's and level-blend.comp's work groups' edge */
#define GROUP 8

/* The longest side of a cell that one reduction averages: a shader's
 * loops may take at most 65535 steps in all on a software rasterizer
 * (llvmpipe), which ends them there.  A power of two. */
#define REDUCE_MAX 128

/* the shaders' image units and storage binding */
enum
{
  REDUCE_SRC_UNIT,
  REDUCE_DST_UNIT
};
enum
{
  RESULT_UNIT,
  UPPER_UNIT,
  LOWER_UNIT
};
#define MASKS_BINDING 0
#define GREY_BINDING  1

/* The grids' textures: in the roles of cblur-gl-internal.h's, the cells
 * reduced (the input), blurred along rows (the texture between), the
 * parts of large cells (the output) and the box's scratch; then the
 * level's grid and the one below's. */
struct _CblurGlLevelTextures
{
  CblurGpuTexture roles[CBLUR_GL_N_TEXTURES];
  CblurGpuTexture grids[2];
};

/* A level's cells for a tile: the grid's, whose centres surround the
 * tile's output, from absolute cell x, y; and the reduced cells the
 * grid's blur reads, grown by its reach. */
typedef struct
{
  gint x;
  gint y;
  gint width;
  gint height;
  gint reach;
} Cells;

/* the cell before pixel x among the cells' centres */
static gint64
cell_before (gint64 x,
             gint   factor)
{
  gdouble t;

  return cblur_variable_cell_before (x, factor, &t);
}

static Cells
cells_of (const CblurVariable *variable,
          gint                 k,
          const CblurGlTile   *tile)
{
  const CblurVariableLevel *level = &variable->levels[k];
  gint                      reach = variable->reach, f = level->factor;
  gint64                    x = tile->x + reach, y = tile->y + reach;
  gint64                    x0 = cell_before (x, f), y0 = cell_before (y, f);
  gint64                    x1 = cell_before (x + tile->in_width - 2 * reach - 1, f) + 1;
  gint64                    y1 = cell_before (y + tile->in_height - 2 * reach - 1, f) + 1;

  return (Cells) { x0, y0, x1 - x0 + 1, y1 - y0 + 1, level->grid_reach };
}

static void
textures_free (gpointer data)
{
  CblurGlLevelTextures *textures = data;
  gint                  i;

  for (i = 0; i < CBLUR_GL_N_TEXTURES; i++)
    cblur_gpu_texture_clear (&textures->roles[i]);
  for (i = 0; i < 2; i++)
    cblur_gpu_texture_clear (&textures->grids[i]);
  g_free (textures);
}

static void
grow (CblurGlSize *size,
      gint         width,
      gint         height)
{
  size->width = MAX (size->width, width);
  size->height = MAX (size->height, height);
}

/* the context's grid textures, grown for every level of every tile */
static gboolean
reserve_textures (CblurGl               *gl,
                  const GArray          *tiles,
                  CblurGlVariableLevels *levels,
                  GError               **error)
{
  static const gchar key[] = "cblur-gl-variable-levels";
  CblurGlSize        roles[CBLUR_GL_N_TEXTURES] = { { 1, 1 } }, grid = { 1, 1 };
  guint              i;
  gint               k, j;

  for (i = 0; i < tiles->len; i++)
    for (k = MAX (levels->least - 1, 0); k <= levels->most; k++)
      {
        Cells c = cells_of (levels->variable, k, &g_array_index (tiles, CblurGlTile, i));
        gint  width = c.width + 2 * c.reach, height = c.height + 2 * c.reach;

        gint  g = MAX (levels->variable->levels[k].factor / REDUCE_MAX, 1);

        grow (&roles[CBLUR_GL_INPUT], width, height);
        grow (&roles[CBLUR_GL_OUTPUT], g > 1 ? width * g : 1, g > 1 ? height * g : 1);
        grow (&roles[CBLUR_GL_BETWEEN], c.width, height);
        for (j = 0; j < 4; j++)
          {
            grow (&roles[CBLUR_GL_ROW_SCRATCH + j], width, height);
            grow (&roles[CBLUR_GL_COLUMN_SCRATCH + j], c.width, height);
          }
        grow (&grid, c.width, c.height);
      }
  levels->textures = cblur_gpu_get_data (gl->gpu, key);
  if (levels->textures == NULL)
    {
      levels->textures = g_new0 (CblurGlLevelTextures, 1);
      cblur_gpu_set_data (gl->gpu, key, levels->textures, textures_free);
    }
  for (j = 0; j < CBLUR_GL_N_TEXTURES; j++)
    cblur_gpu_texture_reserve (&levels->textures->roles[j], roles[j].width | 1,
                                 roles[j].height);
  for (j = 0; j < 2; j++)
    cblur_gpu_texture_reserve (&levels->textures->grids[j], grid.width, grid.height);
  return cblur_gpu_check (gl->gpu, "alloc level textures", error);
}

static gboolean
programs_init (CblurGl               *gl,
               CblurGlVariableLevels *levels,
               GError               **error)
{
  gint axis;

  levels->reduce = cblur_gl_program (gl, CBLUR_GL_SHADER_LEVEL_REDUCE, 0, 0, error);
  levels->blend = levels->reduce == NULL ? NULL
                                         : cblur_gl_program (gl, CBLUR_GL_SHADER_LEVEL_BLEND,
                                                             levels->codes != 0 ? CBLUR_GL_CODES
                                                                                : 0,
                                                             0, error);
  for (axis = 0; axis < 2 && levels->blend != NULL; axis++)
    {
      CblurGlVariant variant = axis == CBLUR_AXIS_Y ? CBLUR_GL_VERTICAL : 0;

      levels->scans[axis] = cblur_gl_program (gl, CBLUR_GL_SHADER_BOX_SCAN, variant, 0, error);
      if (levels->scans[axis] == NULL)
        return FALSE;
      levels->programs[axis] = cblur_gl_program (gl, CBLUR_GL_SHADER_BOX, variant, 0, error);
      if (levels->programs[axis] == NULL)
        return FALSE;
    }
  return levels->blend != NULL;
}

/* each level's blur of its grid, which the two-dispatch box runs */
static gboolean
kernels_init (CblurGlVariableLevels *levels,
              GError               **error)
{
  const CblurVariable *variable = levels->variable;
  gint                 k;

  for (k = MAX (levels->least - 1, 0); k <= levels->most; k++)
    {
      CblurKernel *kernel = cblur_kernel_new (variable->levels[k].grid_radius, CBLUR_MODE_BOX,
                                              variable->iterations);

      levels->kernels[k] = kernel;
      if (kernel->axes[CBLUR_AXIS_X].mode != CBLUR_MODE_BOX ||
          kernel->axes[CBLUR_AXIS_Y].mode != CBLUR_MODE_BOX ||
          kernel->reach != variable->levels[k].grid_reach)
        {
          g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                       _("a level of the variable blur has no box on its grid"));
          return FALSE;
        }
    }
  return TRUE;
}

/* the band's mask values, or each byte's, into video memory */
static gboolean
masks_init (CblurGl                  *gl,
            const CblurVariableMasks *masks,
            CblurGlVariableLevels    *levels,
            GError                  **error)
{
  gsize size = masks->values != NULL
               ? (gsize) levels->band.width * levels->band.height * sizeof (gfloat)
               : 256 * sizeof (gfloat);

  if ((gint64) size > gl->limits->max_storage_range)
    {
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                   _("the band's mask takes %d MiB, more than a shader may read from "
                     "one buffer"), (gint) (size >> 20));
      return FALSE;
    }
  levels->masks = cblur_gpu_buffer_new (size, masks->values != NULL ? masks->values
                                                                    : masks->grey);
  return cblur_gpu_check (gl->gpu, "upload variable masks", error);
}

gboolean
cblur_gl_variable_levels_init (CblurGl                  *gl,
                               const CblurVariable      *variable,
                               const CblurVariableMasks *masks,
                               guint                     codes,
                               const CblurImage         *src,
                               const CblurImage         *dst,
                               GeglAbyssPolicy           abyss,
                               const GArray             *tiles,
                               CblurGlVariableLevels    *levels,
                               GError                  **error)
{
  const CblurImage *rect = masks->values != NULL ? dst : src;

  memset (levels, 0, sizeof *levels);
  levels->variable = variable;
  levels->least = masks->least;
  levels->most = masks->most;
  levels->codes = masks->values != NULL ? 0 : codes;
  levels->band = (GeglRectangle) { rect->x, rect->y, rect->width, rect->height };
  levels->abyss = abyss;
  cblur_abyss_colour (abyss, levels->colour);
  if (levels->most < 0)
    return TRUE;
  return kernels_init (levels, error) && programs_init (gl, levels, error) &&
         reserve_textures (gl, tiles, levels, error) && masks_init (gl, masks, levels, error);
}

void
cblur_gl_variable_levels_clear (CblurGlVariableLevels *levels)
{
  gint k;

  for (k = 0; k < CBLUR_VARIABLE_LEVELS_MAX; k++)
    g_clear_pointer (&levels->kernels[k], cblur_kernel_free);
  cblur_gpu_buffer_free (&levels->masks);
  levels->most = -1;
}

void
cblur_gl_variable_levels_prepare (CblurGl *gl)
{
  CblurGlVariant axes[2] = { 0, CBLUR_GL_VERTICAL };
  gint           axis;

  cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_LEVEL_REDUCE, 0, 0);
  cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_LEVEL_BLEND, 0, 0);
  cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_LEVEL_BLEND, CBLUR_GL_CODES, 0);
  /* the grids' box, which a start for the variable blur alone would not
   * otherwise compile */
  for (axis = 0; axis < 2; axis++)
    {
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX_SCAN, axes[axis], 0);
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX, axes[axis], 0);
    }
}

/* One dispatch of level-reduce.comp: the means over cells of `factor`
 * pixels of `from` (whose pixels are `inside`, absolute, beyond which
 * abyss makes them) into `to`, n_x x n_y of them from absolute cell x, y. */
typedef struct
{
  const CblurGpuTexture *from;
  const CblurGpuTexture *to;
  gint                   x;
  gint                   y;
  gint                   n_x;
  gint                   n_y;
  gint                   factor;
  const gint            *inside;
  GeglAbyssPolicy        abyss;
} Reduction;

static void
reduce (const CblurGlVariableLevels *levels,
        const Reduction             *r)
{
  const CblurGpuProgram *program = levels->reduce;

  cblur_gpu_use (program);
  cblur_gpu_bind_image (REDUCE_SRC_UNIT, r->from, CBLUR_GPU_READ);
  cblur_gpu_bind_image (REDUCE_DST_UNIT, r->to, CBLUR_GPU_WRITE);
  cblur_gpu_set_ivec2 (program, "n_cells", r->n_x, r->n_y);
  cblur_gpu_set_ivec2 (program, "first_cell", r->x, r->y);
  cblur_gpu_set_int (program, "factor", r->factor);
  cblur_gpu_set_ivec4 (program, "inside", r->inside);
  cblur_gpu_set_int (program, "abyss", r->abyss);
  cblur_gpu_set_vec4 (program, "colour", levels->colour);
  cblur_gpu_dispatch (cblur_gpu_groups (r->n_x, GROUP), cblur_gpu_groups (r->n_y, GROUP),
                      CBLUR_GPU_BARRIER_IMAGES);
}

/* level k's cells from the tile's input, reduced and blurred into grid */
static void
make_grid (const CblurGlVariableLevels *levels,
           gint                         k,
           const CblurGlTile           *tile,
           const CblurGpuTexture       *input,
           const CblurGpuTexture       *grid)
{
  const CblurGpuTexture *roles = levels->textures->roles;
  Cells                  c = cells_of (levels->variable, k, tile);
  gint                   width = c.width + 2 * c.reach, height = c.height + 2 * c.reach;
  gint                   f = levels->variable->levels[k].factor;
  gint                   inside[4] = { tile->x + tile->inside.x, tile->y + tile->inside.y,
                                       tile->inside.width, tile->inside.height };
  CblurGlPasses          box = { .kernel = levels->kernels[k], .textures = roles,
                                 .programs = { levels->programs[0], levels->programs[1] },
                                 .scans = { levels->scans[0], levels->scans[1] } };
  Reduction              cells = { input, &roles[CBLUR_GL_INPUT], c.x - c.reach, c.y - c.reach,
                                   width, height, f, inside, levels->abyss };
  gint                   parts_inside[4];

  /* cells of more than REDUCE_MAX pixels a side are the means of parts
   * of REDUCE_MAX made first */
  if (f > REDUCE_MAX)
    {
      gint      g = f / REDUCE_MAX;
      Reduction parts = { input, &roles[CBLUR_GL_OUTPUT], cells.x * g, cells.y * g,
                          width * g, height * g, REDUCE_MAX, inside, levels->abyss };

      parts_inside[0] = parts.x;
      parts_inside[1] = parts.y;
      parts_inside[2] = parts.n_x;
      parts_inside[3] = parts.n_y;
      reduce (levels, &parts);
      cells = (Reduction) { parts.to, &roles[CBLUR_GL_INPUT], cells.x, cells.y, width, height,
                            g, parts_inside, GEGL_ABYSS_CLAMP };
    }
  reduce (levels, &cells);
  cblur_gl_box_passes (&box, FALSE, &roles[CBLUR_GL_INPUT], &roles[CBLUR_GL_BETWEEN],
                       (CblurGlMap) { 0, width, GEGL_ABYSS_CLAMP }, width, c.x - c.reach,
                       height);
  cblur_gl_box_passes (&box, TRUE, &roles[CBLUR_GL_BETWEEN], grid,
                       (CblurGlMap) { 0, height, GEGL_ABYSS_CLAMP }, height, c.y - c.reach,
                       c.width);
}

static void
set_cells (const CblurGpuProgram *blend,
           const gchar           *name,
           const CblurVariable   *variable,
           gint                   k,
           const CblurGlTile     *tile)
{
  Cells c = cells_of (variable, k, tile);
  gint  cells[4] = { c.x, c.y, variable->levels[k].factor, 0 };

  cblur_gpu_set_ivec4 (blend, name, cells);
}

/* level k blended into the output by the pixels whose upper it is */
static void
blend (const CblurGlVariableLevels *levels,
       gint                         k,
       const CblurGlTile           *tile,
       const CblurGpuTexture       *output)
{
  const CblurVariable   *variable = levels->variable;
  const CblurGpuProgram *program = levels->blend;
  const CblurGpuTexture *grids = levels->textures->grids;
  gint                   reach = variable->reach;
  gint                   width = tile->in_width - 2 * reach, height = tile->in_height - 2 * reach;
  gint                   band[4] = { levels->band.x, levels->band.y, levels->band.width,
                                     levels->band.height };

  cblur_gpu_use (program);
  cblur_gpu_bind_image (RESULT_UNIT, output, CBLUR_GPU_READ_WRITE);
  cblur_gpu_bind_image (UPPER_UNIT, &grids[k % 2], CBLUR_GPU_READ);
  cblur_gpu_bind_image (LOWER_UNIT, &grids[(k + 1) % 2], CBLUR_GPU_READ);
  if (levels->codes != 0)
    {
      cblur_gpu_bind_buffer (MASKS_BINDING, levels->codes, 0, 0);
      cblur_gpu_bind_buffer (GREY_BINDING, levels->masks, 0, 0);
    }
  else
    cblur_gpu_bind_buffer (MASKS_BINDING, levels->masks, 0, 0);
  cblur_gpu_set_ivec2 (program, "n_out", width, height);
  cblur_gpu_set_ivec2 (program, "origin", tile->x + reach, tile->y + reach);
  cblur_gpu_set_ivec4 (program, "band", band);
  cblur_gpu_set_float (program, "radius", variable->radius);
  cblur_gpu_set_float (program, "base", variable->base);
  cblur_gpu_set_float (program, "lower", k > 0 ? variable->levels[k - 1].sigma : variable->base);
  cblur_gpu_set_float (program, "upper", variable->levels[k].sigma);
  cblur_gpu_set_int (program, "first", k == levels->least);
  cblur_gpu_set_int (program, "last", k == levels->most);
  cblur_gpu_set_int (program, "lower_is_base", k == 0);
  set_cells (program, "upper_cells", variable, k, tile);
  if (k > 0)
    set_cells (program, "lower_cells", variable, k - 1, tile);
  cblur_gpu_dispatch (cblur_gpu_groups (width, GROUP), cblur_gpu_groups (height, GROUP),
                      CBLUR_GPU_BARRIER_IMAGES);
}

void
cblur_gl_variable_levels_run (const CblurGlVariableLevels *levels,
                              const CblurGlTile           *tile,
                              const CblurGpuTexture       *input,
                              const CblurGpuTexture       *output)
{
  gint k;

  /* level k is the upper of the pixels between it and the level below,
   * and the lower of those up to the next */
  for (k = MAX (levels->least - 1, 0); k <= levels->most; k++)
    {
      make_grid (levels, k, tile, input, &levels->textures->grids[k % 2]);
      if (k >= levels->least)
        blend (levels, k, tile, output);
    }
}
