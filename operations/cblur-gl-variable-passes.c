/* The variable blur's passes on a tile: along each axis `iterations`
 * passes of variable.comp, each a dispatch for the running sums of its
 * lines and one for its outputs, through ping, pong and a texture of the
 * sums. */
#include "cblur-gl-variable-passes.h"

#include <string.h>

/* variable.comp's work group width */
#define GROUP 64

/* the shader's image units and storage binding */
enum
{
  SRC_UNIT,
  DST_UNIT,
  SUMS_UNIT
};
#define WIDTHS_BINDING 0

void
cblur_gl_variable_texture_sizes (const CblurVariable *variable,
                                 const GArray        *tiles,
                                 CblurGlSize          sizes[CBLUR_GL_VARIABLE_TEXTURES])
{
  guint i;
  gint  j;

  memset (sizes, 0, CBLUR_GL_VARIABLE_TEXTURES * sizeof *sizes);
  for (i = 0; i < tiles->len; i++)
    {
      const CblurGlTile *tile = &g_array_index (tiles, CblurGlTile, i);
      gint               out_width = tile->in_width - 2 * variable->reach;
      CblurGlSize        tile_sizes[CBLUR_GL_VARIABLE_TEXTURES] = {
        [CBLUR_GL_INPUT] = { tile->inside.width, tile->inside.height },
        [CBLUR_GL_BETWEEN] = { out_width, tile->inside.height },
        [CBLUR_GL_OUTPUT] = { out_width, tile->in_height - 2 * variable->reach },
      };

      /* a row pass's lines are the input's rows inside the image, a
       * column pass's the output's columns */
      for (j = 0; j < 3; j++)
        {
          tile_sizes[CBLUR_GL_ROW_SCRATCH + j] = (CblurGlSize) { tile->in_width,
                                                                 tile->inside.height };
          tile_sizes[CBLUR_GL_COLUMN_SCRATCH + j] = (CblurGlSize) { out_width,
                                                                    tile->in_height };
        }
      tile_sizes[CBLUR_GL_ROW_SCRATCH + 3] = (CblurGlSize) { 1, 1 };
      for (j = 0; j < CBLUR_GL_VARIABLE_TEXTURES; j++)
        {
          sizes[j].width = MAX (sizes[j].width, tile_sizes[j].width);
          sizes[j].height = MAX (sizes[j].height, tile_sizes[j].height);
        }
    }
}

gboolean
cblur_gl_variable_passes_init (CblurGl               *gl,
                               const CblurVariable   *variable,
                               guint                  widths,
                               const CblurImage      *src,
                               GeglAbyssPolicy        abyss,
                               CblurGlVariablePasses *passes,
                               GError               **error)
{
  gint axis;

  passes->variable = variable;
  passes->textures = gl->textures->textures;
  passes->widths = widths;
  passes->table = (GeglRectangle) { src->x, src->y, src->width, src->height };
  cblur_abyss_colour (abyss, passes->colour);
  for (axis = 0; axis < 2; axis++)
    {
      CblurGlVariant variant = axis == CBLUR_AXIS_Y ? CBLUR_GL_VERTICAL : 0;

      passes->scans[axis] = cblur_gl_program (gl, CBLUR_GL_SHADER_VARIABLE,
                                              variant | CBLUR_GL_SCAN, 0, error);
      if (passes->scans[axis] == NULL)
        return FALSE;
      passes->programs[axis] = cblur_gl_program (gl, CBLUR_GL_SHADER_VARIABLE, variant, 0,
                                                 error);
      if (passes->programs[axis] == NULL)
        return FALSE;
    }
  return TRUE;
}

/* what every pass of the axis's programs shares */
static void
set_common (const CblurGlVariablePasses *passes,
            const CblurGpuProgram       *program,
            gint                         lines)
{
  gint table[4] = { passes->table.x, passes->table.y,
                    passes->table.width, passes->table.height };

  cblur_gpu_set_int (program, "n_lines", lines);
  cblur_gpu_set_int (program, "block", 1 << passes->variable->block_shift);
  cblur_gpu_set_int (program, "reach", passes->variable->max_half + 1);
  cblur_gpu_set_vec4 (program, "colour", passes->colour);
  cblur_gpu_set_ivec4 (program, "table", table);
}

/* A pass's running sums, then its outputs into `to`, for `lines` lines
 * of n_in pixels whose first pixel is at x, y absolute. */
static void
pass (const CblurGlVariablePasses *passes,
      gboolean                     vertical,
      const CblurGpuTexture       *from,
      const CblurGpuTexture       *to,
      CblurGlMap                   map,
      gint                         n_in,
      gint                         lines,
      gint                         x,
      gint                         y)
{
  const CblurGpuProgram *scan = passes->scans[vertical];
  const CblurGpuProgram *program = passes->programs[vertical];
  gint                   block = 1 << passes->variable->block_shift;
  gint                   phase = cblur_floor_mod (vertical ? y : x, block);
  gint                   n_out = n_in - 2 * (passes->variable->max_half + 1);

  cblur_gpu_bind_image (SRC_UNIT, from, CBLUR_GPU_READ);
  cblur_gpu_use (scan);
  cblur_gl_set_map (scan, map);
  cblur_gpu_set_int (scan, "n_in", n_in);
  cblur_gpu_set_int (scan, "block_phase", phase);
  cblur_gpu_dispatch (cblur_gl_groups (lines, GROUP), cblur_gl_groups (n_in + phase, block),
                      CBLUR_GPU_BARRIER_IMAGES);

  cblur_gpu_bind_image (DST_UNIT, to, CBLUR_GPU_WRITE);
  cblur_gpu_use (program);
  cblur_gl_set_map (program, map);
  cblur_gpu_set_int (program, "n_in", n_in);
  cblur_gpu_set_int (program, "block_phase", phase);
  cblur_gpu_set_ivec2 (program, "line_origin", x, y);
  if (vertical)
    cblur_gpu_dispatch (cblur_gl_groups (lines, GROUP), n_out, CBLUR_GPU_BARRIER_IMAGES);
  else
    cblur_gpu_dispatch (cblur_gl_groups (n_out, GROUP), lines, CBLUR_GPU_BARRIER_IMAGES);
}

/* The axis's passes from `from`, read through map, into `to`, through
 * ping and pong. */
static void
axis_passes (const CblurGlVariablePasses *passes,
             gboolean                     vertical,
             const CblurGpuTexture       *from,
             const CblurGpuTexture       *to,
             CblurGlMap                   map,
             gint                         n_in,
             gint                         lines,
             gint                         x,
             gint                         y)
{
  const CblurGpuTexture *scratch = passes->textures + (vertical ? CBLUR_GL_COLUMN_SCRATCH
                                                                : CBLUR_GL_ROW_SCRATCH);
  gint                   s = passes->variable->max_half + 1;
  gint                   i;

  set_common (passes, passes->scans[vertical], lines);
  set_common (passes, passes->programs[vertical], lines);
  cblur_gpu_bind_image (SUMS_UNIT, &scratch[2], CBLUR_GPU_READ_WRITE);
  for (i = 0; i < passes->variable->iterations; i++)
    {
      const CblurGpuTexture *target = i == passes->variable->iterations - 1 ? to
                                                                           : &scratch[i % 2];

      pass (passes, vertical, from, target, map, n_in, lines, x, y);
      from = target;
      n_in -= 2 * s;
      map = (CblurGlMap) { 0, n_in, GEGL_ABYSS_CLAMP };
      if (vertical)
        y += s;
      else
        x += s;
    }
}

const CblurGpuTexture *
cblur_gl_variable_passes_run (const CblurGlVariablePasses *passes,
                              const CblurGlTile           *tile)
{
  const CblurGpuTexture *textures = passes->textures;
  const GeglRectangle   *inside = &tile->inside;
  gint                   reach = passes->variable->reach;

  cblur_gpu_bind_buffer (WIDTHS_BINDING, passes->widths, 0, 0);
  /* the rows inside the image, then every column of the output */
  axis_passes (passes, FALSE, &textures[CBLUR_GL_INPUT], &textures[CBLUR_GL_BETWEEN],
               (CblurGlMap) { inside->x, inside->width, tile->abyss }, tile->in_width,
               inside->height, tile->x, tile->y + inside->y);
  axis_passes (passes, TRUE, &textures[CBLUR_GL_BETWEEN], &textures[CBLUR_GL_OUTPUT],
               (CblurGlMap) { inside->y, inside->height, tile->abyss }, tile->in_height,
               tile->in_width - 2 * reach, tile->x + reach, tile->y);
  return &textures[CBLUR_GL_OUTPUT];
}
