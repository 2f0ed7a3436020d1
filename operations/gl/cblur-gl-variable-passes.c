/* The variable blur's passes on a tile: along each axis `iterations`
 * passes of variable.comp, each a dispatch for the running sums of its
 * lines and one for its outputs, through ping, pong and a texture of the
 * sums. */
#include "cblur-gl-box.h"
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

/* Under loop, the rows of the tile's inside that its halo above and
 * below repeats, at most its height each; 0 elsewhere. */
static void
loop_rows (const CblurGlTile *tile,
           gint              *above,
           gint              *below)
{
  const GeglRectangle *inside = &tile->inside;

  *above = *below = 0;
  if (tile->abyss != GEGL_ABYSS_LOOP)
    return;
  *above = MIN (inside->y, inside->height);
  *below = MIN (tile->in_height - inside->y - inside->height, inside->height);
}

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
      gint               above, below;
      CblurGlSize        tile_sizes[CBLUR_GL_VARIABLE_TEXTURES] = { { 0 } };

      loop_rows (tile, &above, &below);
      tile_sizes[CBLUR_GL_INPUT] = (CblurGlSize) { tile->inside.width, tile->inside.height };
      /* under loop with the rows the halo repeats */
      tile_sizes[CBLUR_GL_BETWEEN] = (CblurGlSize) { out_width,
                                                     above + tile->inside.height + below };
      tile_sizes[CBLUR_GL_OUTPUT] = (CblurGlSize) { out_width,
                                                    tile->in_height - 2 * variable->reach };

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
                               gboolean               codes,
                               const CblurImage      *src,
                               GeglAbyssPolicy        abyss,
                               CblurGlStamps         *stamps,
                               CblurGlVariablePasses *passes,
                               GError               **error)
{
  gint axis;

  passes->variable = variable;
  passes->textures = gl->textures->textures;
  passes->widths = widths;
  passes->codes = codes;
  passes->table = (GeglRectangle) { src->x, src->y, src->width, src->height };
  passes->stamps = stamps;
  cblur_abyss_colour (abyss, passes->colour);
  for (axis = 0; axis < 2; axis++)
    {
      CblurGlVariant variant = axis == CBLUR_AXIS_Y ? CBLUR_GL_VERTICAL : 0;

      passes->scans[axis] = cblur_gl_program (gl, CBLUR_GL_SHADER_VARIABLE,
                                              variant | CBLUR_GL_SCAN, 0, error);
      if (passes->scans[axis] == NULL)
        return FALSE;
      passes->programs[axis] = cblur_gl_program (gl, CBLUR_GL_SHADER_VARIABLE,
                                                 variant | (codes ? CBLUR_GL_CODES : 0), 0,
                                                 error);
      if (passes->programs[axis] == NULL)
        return FALSE;
    }
  return TRUE;
}

void
cblur_gl_variable_prepare (CblurGl *gl)
{
  CblurGlVariant axes[2] = { 0, CBLUR_GL_VERTICAL };
  gint           axis;

  for (axis = 0; axis < 2; axis++)
    {
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_VARIABLE, axes[axis] | CBLUR_GL_SCAN, 0);
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_VARIABLE, axes[axis], 0);
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_VARIABLE, axes[axis] | CBLUR_GL_CODES, 0);
    }
  cblur_gl_variable_levels_prepare (gl);
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

/* A pass's lines: `lines` lines of n_in pixels, the first pixel of the
 * first at x, y absolute, read through map from the source's lines
 * src_line on (or under loop_above, as variable.comp says); the last
 * pass writes them to the target's lines store_line on. */
typedef struct
{
  CblurGlMap map;
  gint       loop_above;
  gint       n_in;
  gint       lines;
  gint       x;
  gint       y;
  gint       src_line;
  gint       store_line;
} Lines;

/* A pass's running sums, then its outputs into `to`. */
static void
pass (const CblurGlVariablePasses *passes,
      gboolean                     vertical,
      const CblurGpuTexture       *from,
      const CblurGpuTexture       *to,
      gint                         to_line,
      const Lines                 *in)
{
  const CblurGpuProgram *scan = passes->scans[vertical];
  const CblurGpuProgram *program = passes->programs[vertical];
  gint                   block = 1 << passes->variable->block_shift;
  gint                   phase = cblur_floor_mod (vertical ? in->y : in->x, block);
  gint                   n_out = in->n_in - 2 * (passes->variable->max_half + 1);
  gint                   i;

  for (i = 0; i < 2; i++)
    {
      const CblurGpuProgram *each = i == 0 ? scan : program;

      cblur_gl_set_map (each, in->map);
      cblur_gpu_set_int (each, "loop_above", in->loop_above);
      cblur_gpu_set_int (each, "src_line", in->src_line);
      cblur_gpu_set_int (each, "n_in", in->n_in);
      cblur_gpu_set_int (each, "block_phase", phase);
    }
  cblur_gpu_set_int (program, "store_line", to_line);
  cblur_gpu_bind_image (SRC_UNIT, from, CBLUR_GPU_READ);
  cblur_gpu_use (scan);
  cblur_gpu_dispatch (cblur_gpu_groups (in->lines, GROUP),
                      cblur_gpu_groups (in->n_in + phase, block), CBLUR_GPU_BARRIER_IMAGES);

  cblur_gpu_bind_image (DST_UNIT, to, CBLUR_GPU_WRITE);
  cblur_gpu_use (program);
  cblur_gpu_set_ivec2 (program, "line_origin", in->x, in->y);
  if (vertical)
    cblur_gpu_dispatch (cblur_gpu_groups (in->lines, GROUP), n_out, CBLUR_GPU_BARRIER_IMAGES);
  else
    cblur_gpu_dispatch (cblur_gpu_groups (n_out, GROUP), in->lines, CBLUR_GPU_BARRIER_IMAGES);
}

/* The axis's passes from `from` into `to`, through ping and pong. */
static void
axis_passes (const CblurGlVariablePasses *passes,
             gboolean                     vertical,
             const CblurGpuTexture       *from,
             const CblurGpuTexture       *to,
             Lines                        in)
{
  const CblurGpuTexture *scratch = passes->textures + (vertical ? CBLUR_GL_COLUMN_SCRATCH
                                                                : CBLUR_GL_ROW_SCRATCH);
  gint                   s = passes->variable->max_half + 1;
  gint                   i;

  set_common (passes, passes->scans[vertical], in.lines);
  set_common (passes, passes->programs[vertical], in.lines);
  cblur_gpu_bind_image (SUMS_UNIT, &scratch[2], CBLUR_GPU_READ_WRITE);
  for (i = 0; i < passes->variable->iterations; i++)
    {
      const CblurGpuTexture *target = i == passes->variable->iterations - 1 ? to
                                                                           : &scratch[i % 2];

      pass (passes, vertical, from, target, target == to ? in.store_line : 0, &in);
      from = target;
      in.n_in -= 2 * s;
      in.map = (CblurGlMap) { 0, in.n_in, GEGL_ABYSS_CLAMP };
      in.loop_above = -1;
      in.src_line = 0;
      if (vertical)
        in.y += s;
      else
        in.x += s;
    }
}

/* The row passes into the texture between: the rows inside the image,
 * then under loop the rows its halo repeats above it (the inside's last)
 * and below it (its first), each with the boxes of the edge row on its
 * side, as a mask clamped there gives them.  The halo's rows go through
 * passes of their own, so that the row passes' scratch holds no more
 * lines than the inside has. */
static void
row_passes (const CblurGlVariablePasses *passes,
            const CblurGlTile           *tile,
            gint                         above,
            gint                         below)
{
  const CblurGpuTexture *from = &passes->textures[CBLUR_GL_INPUT];
  const CblurGpuTexture *to = &passes->textures[CBLUR_GL_BETWEEN];
  const GeglRectangle   *inside = &tile->inside;
  CblurGlMap             map = { inside->x, inside->width, tile->abyss };
  gint                   top = tile->y + inside->y;

  axis_passes (passes, FALSE, from, to,
               (Lines) { map, -1, tile->in_width, inside->height, tile->x, top, 0, above });
  if (above > 0)
    axis_passes (passes, FALSE, from, to,
                 (Lines) { map, -1, tile->in_width, above, tile->x, top - above,
                           inside->height - above, 0 });
  if (below > 0)
    axis_passes (passes, FALSE, from, to,
                 (Lines) { map, -1, tile->in_width, below, tile->x, top + inside->height, 0,
                           above + inside->height });
}

/* every column of the output, from the texture between */
static void
column_passes (const CblurGlVariablePasses *passes,
               const CblurGlTile           *tile,
               gint                         above)
{
  const CblurGpuTexture *textures = passes->textures;
  const GeglRectangle   *inside = &tile->inside;
  gint                   reach = passes->variable->reach;

  axis_passes (passes, TRUE, &textures[CBLUR_GL_BETWEEN], &textures[CBLUR_GL_OUTPUT],
               (Lines) { { inside->y, inside->height, tile->abyss },
                         tile->abyss == GEGL_ABYSS_LOOP ? above : -1, tile->in_height,
                         tile->in_width - 2 * reach, tile->x + reach, tile->y, 0, 0 });
}

/* the levels, where the band takes any, blended into the output */
static void
levels_passes (const CblurGlVariablePasses *passes,
               const CblurGlTile           *tile)
{
  if (passes->levels != NULL)
    cblur_gl_variable_levels_run (passes->levels, tile, &passes->textures[CBLUR_GL_INPUT],
                                  &passes->textures[CBLUR_GL_OUTPUT]);
}

const CblurGpuTexture *
cblur_gl_variable_passes_run (const CblurGlVariablePasses *passes,
                              const CblurGlTile           *tile)
{
  gint above, below;

  loop_rows (tile, &above, &below);
  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  cblur_gpu_bind_buffer (WIDTHS_BINDING, passes->widths, 0, 0);
  /* the rows inside the image (and under loop the halo's), then every
   * column of the output */
  row_passes (passes, tile, above, below);
  column_passes (passes, tile, above);
  levels_passes (passes, tile);
  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  return &passes->textures[CBLUR_GL_OUTPUT];
}

void
cblur_gl_variable_passes_rows (const CblurGlVariablePasses *passes,
                               const CblurGlTile           *tile,
                               gint                         first,
                               gint                         n)
{
  const GeglRectangle *inside = &tile->inside;
  CblurGlMap           map = { inside->x, inside->width, tile->abyss };

  g_return_if_fail (tile->abyss != GEGL_ABYSS_LOOP);
  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  cblur_gpu_bind_buffer (WIDTHS_BINDING, passes->widths, 0, 0);
  axis_passes (passes, FALSE, &passes->textures[CBLUR_GL_INPUT],
               &passes->textures[CBLUR_GL_BETWEEN],
               (Lines) { map, -1, tile->in_width, n, tile->x, tile->y + inside->y + first,
                         first, first });
  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
}

const CblurGpuTexture *
cblur_gl_variable_passes_columns (const CblurGlVariablePasses *passes,
                                  const CblurGlTile           *tile)
{
  g_return_val_if_fail (tile->abyss != GEGL_ABYSS_LOOP, NULL);
  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  cblur_gpu_bind_buffer (WIDTHS_BINDING, passes->widths, 0, 0);
  column_passes (passes, tile, 0);
  levels_passes (passes, tile);
  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  return &passes->textures[CBLUR_GL_OUTPUT];
}
