/* The compute passes of one tile: horizontally over the rows of its input
 * inside the image, then vertically over the columns that remain, the
 * first pass of each axis reading the abyss through common.glsl's map. */
#include "cblur-gl-private.h"

#include <string.h>

/* abyss.comp's and premultiply.comp's work group edge */
#define TEXEL_GROUP 16

/* common.glsl's map takes GEGL's values */
G_STATIC_ASSERT (GEGL_ABYSS_NONE == 0 && GEGL_ABYSS_CLAMP == 1 && GEGL_ABYSS_LOOP == 2 &&
                 GEGL_ABYSS_BLACK == 3 && GEGL_ABYSS_WHITE == 4);

/* the box shaders' work group width */
#define BOX_GROUP 64

enum
{
  SRC_UNIT,
  DST_UNIT,
  PREFIX_UNIT,
  SUFFIX_UNIT
};

/* A streamed tile's first band of outputs goes to GEGL while later input
 * rows come up: in one band GEGL's writes of the output would wait for all
 * its reads.  Three bands ran no faster than two, whose segments cost less
 * at some reaches. */
#define MIN_BANDS 2

/* whether the axis runs the two-shader box */
static gboolean
two_shader_box (const CblurGl         *gl,
                const CblurKernelAxis *axis)
{
  return axis->mode == CBLUR_MODE_BOX && cblur_gl_fused_segment (gl, axis, 1, 1).len == 0;
}

/* input, between and output, then the two-shader box's own */
gint
cblur_gl_passes_textures (const CblurGl     *gl,
                          const CblurKernel *kernel)
{
  return two_shader_box (gl, &kernel->axes[CBLUR_AXIS_X]) ||
         two_shader_box (gl, &kernel->axes[CBLUR_AXIS_Y])
         ? CBLUR_GL_N_TEXTURES : CBLUR_GL_ROW_SCRATCH;
}

/* Under none, black and white the map points beyond the inside to a made
 * column and row of the colour; under clamp and loop, and where the tile
 * is all inside, it never points there. */
static gint
made_lines (const CblurGlTile *tile)
{
  gboolean has_colour = tile->abyss != GEGL_ABYSS_CLAMP && tile->abyss != GEGL_ABYSS_LOOP;

  return has_colour && (tile->inside.width < tile->in_width ||
                        tile->inside.height < tile->in_height) ? 1 : 0;
}

/* the rows of the input texture that the horizontal passes go over */
static gint
input_rows (const CblurGlTile *tile)
{
  return tile->inside.height + made_lines (tile);
}

/* Texture rows a multiple of 4 KiB apart (1024 texels, or 3840 for a 4K
 * image) put a column's texels in one cache set where the texture lies in
 * plain memory, as under a software rasterizer: the column passes took a
 * tenth longer there.  An odd width spreads them over every set. */
static CblurGlSize
spread (gint width,
        gint height)
{
  CblurGlSize size = { width | 1, height };

  return size;
}

/* Each role's texture for the tile: the input, the texture between and the
 * row scratch hold only the rows inside the image (and the made row), and
 * the input only their pixels inside (and the made column); the map reads
 * the abyss from them. */
static void
texture_sizes (const CblurKernel *kernel,
               const CblurGlTile *tile,
               CblurGlSize        sizes[CBLUR_GL_N_TEXTURES])
{
  gint out_width = tile->in_width - 2 * kernel->reach;
  gint i;

  sizes[CBLUR_GL_INPUT] = spread (tile->inside.width + made_lines (tile), input_rows (tile));
  sizes[CBLUR_GL_BETWEEN] = spread (out_width, input_rows (tile));
  sizes[CBLUR_GL_OUTPUT] = spread (out_width, tile->in_height - 2 * kernel->reach);
  for (i = 0; i < 4; i++)
    {
      sizes[CBLUR_GL_ROW_SCRATCH + i] = spread (tile->in_width, input_rows (tile));
      sizes[CBLUR_GL_COLUMN_SCRATCH + i] = spread (out_width, tile->in_height);
    }
}

/* textures that every tile fits; whether any needs abyss.comp */
static gboolean
tiles_fit (const CblurKernel *kernel,
           const GArray      *tiles,
           CblurGlSize        sizes[CBLUR_GL_N_TEXTURES])
{
  gboolean made = FALSE;
  guint    i;
  gint     j;

  memset (sizes, 0, CBLUR_GL_N_TEXTURES * sizeof *sizes);
  for (i = 0; i < tiles->len; i++)
    {
      const CblurGlTile *tile = &g_array_index (tiles, CblurGlTile, i);
      CblurGlSize        tile_sizes[CBLUR_GL_N_TEXTURES];

      texture_sizes (kernel, tile, tile_sizes);
      for (j = 0; j < CBLUR_GL_N_TEXTURES; j++)
        {
          sizes[j].width = MAX (sizes[j].width, tile_sizes[j].width);
          sizes[j].height = MAX (sizes[j].height, tile_sizes[j].height);
        }
      made |= made_lines (tile) > 0;
    }
  return made;
}

/* the programs of both axes */
static gboolean
init_programs (CblurGl           *gl,
               const CblurKernel *kernel,
               gboolean           straight,
               CblurGlPasses     *passes,
               GError           **error)
{
  gint axis;

  for (axis = 0; axis < 2; axis++)
    {
      const CblurKernelAxis *along = &kernel->axes[axis];
      gboolean               direct = along->mode == CBLUR_MODE_DIRECT;
      CblurGlVariant         variant = axis == 1 ? CBLUR_GL_VERTICAL : 0;
      gboolean               fused = passes->segments[axis].len > 0;

      /* the two-dispatch box reads the source in every shader of its first
       * pass: premultiply.comp goes first instead */
      if (straight && axis == 0 && (direct || fused))
        variant |= CBLUR_GL_PREMULTIPLY;
      else if (straight && axis == 0)
        {
          passes->premultiply = cblur_gl_program (gl, CBLUR_GL_SHADER_PREMULTIPLY, 0, 0, error);
          if (passes->premultiply == 0)
            return FALSE;
        }

      if (fused)
        {
          if (passes->segments[axis].pairs)
            variant |= CBLUR_GL_PAIRS;
          passes->programs[axis] = cblur_gl_program (gl, CBLUR_GL_SHADER_BOX_FUSED, variant,
                                                     passes->segments[axis].len, error);
          if (passes->programs[axis] == 0)
            return FALSE;
          continue;
        }
      if (!direct)
        {
          passes->scans[axis] = cblur_gl_program (gl, CBLUR_GL_SHADER_BOX_SCAN, variant, 0,
                                                  error);
          if (passes->scans[axis] == 0)
            return FALSE;
        }
      passes->programs[axis] =
        cblur_gl_program (gl, direct ? CBLUR_GL_SHADER_DIRECT : CBLUR_GL_SHADER_BOX, variant,
                          direct ? cblur_gl_direct_cache_len (gl, along) : 0, error);
      if (passes->programs[axis] == 0)
        return FALSE;
    }
  return TRUE;
}

gboolean
cblur_gl_passes_init (CblurGl            *gl,
                      const CblurKernel  *kernel,
                      const GArray       *tiles,
                      gboolean            straight,
                      CblurGlStamps      *stamps,
                      CblurGlPasses      *passes,
                      GError            **error)
{
  const CblurGlTile *largest = &g_array_index (tiles, CblurGlTile, 0);
  CblurGlSize        sizes[CBLUR_GL_N_TEXTURES];
  gint               axis;

  passes->kernel = kernel;
  passes->stamps = stamps;
  passes->textures = gl->textures.textures;
  if (kernel->axes[CBLUR_AXIS_X].mode != CBLUR_MODE_DIRECT)
    passes->segments[0] = cblur_gl_fused_segment (gl, &kernel->axes[CBLUR_AXIS_X],
                                                  largest->in_width - 2 * kernel->reach, 1);
  if (kernel->axes[CBLUR_AXIS_Y].mode != CBLUR_MODE_DIRECT)
    passes->segments[1] = cblur_gl_fused_segment (gl, &kernel->axes[CBLUR_AXIS_Y],
                                                  largest->in_height - 2 * kernel->reach,
                                                  MIN_BANDS);
  if (!init_programs (gl, kernel, straight, passes, error))
    return FALSE;
  if (tiles_fit (kernel, tiles, sizes))
    {
      passes->made = cblur_gl_program (gl, CBLUR_GL_SHADER_ABYSS, 0, 0, error);
      if (passes->made == 0)
        return FALSE;
    }

  for (axis = 0; axis < 2; axis++)
    {
      const CblurKernelAxis *along = &kernel->axes[axis];

      if (along->mode != CBLUR_MODE_DIRECT)
        continue;
      glGenBuffers (1, &passes->weights[axis]);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, passes->weights[axis]);
      glBufferData (GL_SHADER_STORAGE_BUFFER,
                    (along->half_width + 1) * sizeof (gfloat), along->weights,
                    GL_STATIC_DRAW);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
    }
  return cblur_gl_textures_reserve (gl, cblur_gl_passes_textures (gl, kernel), sizes, error);
}

void
cblur_gl_passes_clear (CblurGlPasses *passes)
{
  gint axis;

  for (axis = 0; axis < 2; axis++)
    {
      if (passes->weights[axis] != 0)
        glDeleteBuffers (1, &passes->weights[axis]);
      passes->weights[axis] = 0;
    }
}

static void
bind_image (GLuint unit,
            GLuint texture,
            GLenum access)
{
  glBindImageTexture (unit, texture, 0, GL_FALSE, 0, access, GL_RGBA32F);
}

static void
set_int (GLuint       program,
         const gchar *name,
         gint         value)
{
  glUniform1i (glGetUniformLocation (program, name), value);
}

static void
set_float (GLuint       program,
           const gchar *name,
           gfloat       value)
{
  glUniform1f (glGetUniformLocation (program, name), value);
}

/* the box's window, the same for both of its shaders' outputs */
static void
set_box_window (GLuint                 program,
                const CblurKernelAxis *kernel)
{
  set_int (program, "box_half", kernel->box_half);
  set_int (program, "block", kernel->box_block);
  set_float (program, "fraction", kernel->box_fraction);
  set_float (program, "scale", kernel->box_scale);
}

static gint
groups (gint n,
        gint size)
{
  return (n + size - 1) / size;
}

/* common.glsl's map along one axis: a line's pixels inside the image are
 * texels from `first` on, `len` of them, and `abyss` makes the rest */
typedef struct
{
  gint            first;
  gint            len;
  GeglAbyssPolicy abyss;
} Map;

static Map
tile_map (const CblurGlTile *tile,
          gboolean           vertical)
{
  Map map = { tile->inside.x, tile->inside.width, tile->abyss };

  if (vertical)
    map = (Map) { tile->inside.y, tile->inside.height, tile->abyss };
  return map;
}

/* for the pass after, which reads all of this one's n_out outputs */
static Map
whole_map (gint n_out)
{
  return (Map) { 0, n_out, GEGL_ABYSS_CLAMP };
}

static void
set_map (GLuint program,
         Map    map)
{
  set_int (program, "map_first", map.first);
  set_int (program, "map_len", map.len);
  set_int (program, "map_abyss", map.abyss);
}

/* The program in use, a work group a segment of a line, from `from` to
 * `to`: n_lines lines from first_line, n_segments segments from
 * first_segment. */
static void
dispatch_segments (GLuint program,
                   GLuint from,
                   GLuint to,
                   gint   first_line,
                   gint   n_lines,
                   gint   first_segment,
                   gint   n_segments)
{
  set_int (program, "first_line", first_line);
  set_int (program, "first_segment", first_segment);
  bind_image (SRC_UNIT, from, GL_READ_ONLY);
  bind_image (DST_UNIT, to, GL_WRITE_ONLY);
  glDispatchCompute (n_segments, n_lines, 1);
  glMemoryBarrier (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

/* The passes of one axis, from `from` through the axis's scratch textures
 * (ping, pong, and the prefix and suffix sums) into `to`, each a dispatch
 * for the block sums and one for the outputs; the first reads `from`
 * through map.  n_in and origin (the absolute coordinate of the first
 * input pixel along the axis) are the tile's, whose lines the axis reads
 * from its skip on. */
static void
box_passes (const CblurGlPasses *passes,
            gboolean             vertical,
            GLuint               from,
            GLuint               to,
            Map                  map,
            gint                 n_in,
            gint                 origin,
            gint                 lines)
{
  const CblurKernelAxis *kernel = &passes->kernel->axes[vertical];
  gint                   skip = cblur_kernel_skip (passes->kernel, vertical);
  const GLuint          *scratch = passes->textures + (vertical ? CBLUR_GL_COLUMN_SCRATCH
                                                                : CBLUR_GL_ROW_SCRATCH);
  GLuint                 scan = passes->scans[vertical];
  GLuint                 program = passes->programs[vertical];
  gint                   pass;

  map.first -= skip;
  n_in -= 2 * skip;
  origin += skip;

  bind_image (PREFIX_UNIT, scratch[2], GL_READ_WRITE);
  bind_image (SUFFIX_UNIT, scratch[3], GL_READ_WRITE);
  glUseProgram (scan);
  set_int (scan, "n_lines", lines);
  set_int (scan, "block", kernel->box_block);
  glUseProgram (program);
  set_int (program, "n_lines", lines);
  set_box_window (program, kernel);

  for (pass = 0; pass < kernel->iterations; pass++)
    {
      GLuint target = pass == kernel->iterations - 1 ? to : scratch[pass % 2];
      gint   phase = cblur_floor_mod (origin, kernel->box_block);
      gint   n_out = n_in - 2 * (kernel->box_half + 1);

      bind_image (SRC_UNIT, from, GL_READ_ONLY);
      glUseProgram (scan);
      set_map (scan, map);
      set_int (scan, "n_in", n_in);
      set_int (scan, "block_phase", phase);
      glDispatchCompute (groups (lines, BOX_GROUP),
                         groups (n_in + phase, kernel->box_block), 1);
      glMemoryBarrier (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);

      bind_image (DST_UNIT, target, GL_WRITE_ONLY);
      glUseProgram (program);
      set_map (program, map);
      set_int (program, "n_in", n_in);
      set_int (program, "block_phase", phase);
      if (vertical)
        glDispatchCompute (groups (lines, BOX_GROUP), n_out, 1);
      else
        glDispatchCompute (groups (n_out, BOX_GROUP), lines, 1);
      glMemoryBarrier (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);

      from = target;
      map = whole_map (n_out);
      n_in = n_out;
      origin += kernel->box_half + 1;
    }
}

/* the fused box's uniforms, its program in use: every pass of the axis
 * in one dispatch, over all lines of the tile along the axis */
static void
set_fused (const CblurGlPasses *passes,
           const CblurGlTile   *tile,
           gboolean             vertical)
{
  const CblurKernelAxis *kernel = &passes->kernel->axes[vertical];
  gint                   skip = cblur_kernel_skip (passes->kernel, vertical);
  GLuint                 program = passes->programs[vertical];
  gint                   origin = (vertical ? tile->y : tile->x) + skip;

  set_int (program, "n_in", (vertical ? tile->in_height : tile->in_width) - 2 * skip);
  set_int (program, "n_lines",
           vertical ? tile->in_width - 2 * passes->kernel->reach : input_rows (tile));
  set_int (program, "origin_phase", cblur_floor_mod (origin, kernel->box_block));
  set_int (program, "outputs", passes->segments[vertical].len - 2 * kernel->reach);
  set_int (program, "iterations", kernel->iterations);
  set_box_window (program, kernel);
}

/* a dispatch's outputs per line and work group along the axis */
static gint
segment_outputs (const CblurGlPasses *passes,
                 gboolean             vertical)
{
  const CblurKernelAxis *kernel = &passes->kernel->axes[vertical];

  if (kernel->mode == CBLUR_MODE_DIRECT)
    return CBLUR_GL_DIRECT_SEGMENT;
  return passes->segments[vertical].len > 0
         ? passes->segments[vertical].len - 2 * kernel->reach : 0;
}

/* in bands where both axes go in segments */
gint
cblur_gl_passes_band (const CblurGlPasses *passes)
{
  return segment_outputs (passes, FALSE) > 0 ? segment_outputs (passes, TRUE) : 0;
}

/* One axis's passes, from the input texture to the one between
 * horizontally, and from there to the output vertically: n_lines lines
 * from first_line, n_segments segments along them from first_segment.
 * Direct's segments are CBLUR_GL_DIRECT_SEGMENT outputs long.  The map
 * starts the lines at the axis's skip. */
static void
axis_passes (const CblurGlPasses *passes,
             const CblurGlTile   *tile,
             gboolean             vertical,
             gint                 first_line,
             gint                 n_lines,
             gint                 first_segment,
             gint                 n_segments)
{
  const CblurKernel     *kernel = passes->kernel;
  const CblurKernelAxis *along = &kernel->axes[vertical];
  GLuint                 program = passes->programs[vertical];
  gint                   out_width = tile->in_width - 2 * kernel->reach;
  Map                    map = tile_map (tile, vertical);

  map.first -= cblur_kernel_skip (kernel, vertical);
  glUseProgram (program);
  set_map (program, map);
  if (along->mode == CBLUR_MODE_DIRECT)
    {
      glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 0, passes->weights[vertical]);
      set_int (program, "half_width", along->half_width);
      set_int (program, "n_out", vertical ? tile->in_height - 2 * kernel->reach : out_width);
    }
  else
    set_fused (passes, tile, vertical);
  dispatch_segments (program,
                     passes->textures[vertical ? CBLUR_GL_BETWEEN : CBLUR_GL_INPUT],
                     passes->textures[vertical ? CBLUR_GL_OUTPUT : CBLUR_GL_BETWEEN],
                     first_line, n_lines, first_segment, n_segments);
}

static void
rows (const CblurGlPasses *passes,
      const CblurGlTile   *tile,
      gint                 first_row,
      gint                 n_rows)
{
  axis_passes (passes, tile, FALSE, first_row, n_rows,
               0, groups (tile->in_width - 2 * passes->kernel->reach,
                          segment_outputs (passes, FALSE)));
}

static GLuint
columns (const CblurGlPasses *passes,
         const CblurGlTile   *tile,
         gint                 first_out,
         gint                 n_out)
{
  gint band = segment_outputs (passes, TRUE);

  axis_passes (passes, tile, TRUE, 0, tile->in_width - 2 * passes->kernel->reach,
               first_out / band, groups (n_out, band));
  return passes->textures[CBLUR_GL_OUTPUT];
}

void
cblur_gl_passes_rows (const CblurGlPasses *passes,
                      const CblurGlTile   *tile,
                      gint                 first_row,
                      gint                 n_rows)
{
  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  rows (passes, tile, first_row, n_rows);
  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
}

GLuint
cblur_gl_passes_columns (const CblurGlPasses *passes,
                         const CblurGlTile   *tile,
                         gint                 first_out,
                         gint                 n_out)
{
  GLuint result;

  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  result = columns (passes, tile, first_out, n_out);
  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  return result;
}

/* width × height texels of the input texture from x, y, as abyss.comp
 * fills them */
static void
fill (GLuint program,
      gint   x,
      gint   y,
      gint   width,
      gint   height)
{
  glUniform4i (glGetUniformLocation (program, "rect"), x, y, width, height);
  glDispatchCompute (groups (width, TEXEL_GROUP), groups (height, TEXEL_GROUP), 1);
}

void
cblur_gl_passes_made (const CblurGlPasses *passes,
                      const CblurGlTile   *tile)
{
  const GeglRectangle *inside = &tile->inside;
  gfloat               colour[CBLUR_CHANNELS];

  if (made_lines (tile) == 0)
    return;
  cblur_abyss_colour (tile->abyss, colour);
  glUseProgram (passes->made);
  glUniform4fv (glGetUniformLocation (passes->made, "colour"), 1, colour);
  bind_image (SRC_UNIT, passes->textures[CBLUR_GL_INPUT], GL_WRITE_ONLY);
  fill (passes->made, inside->width, 0, 1, inside->height + 1);
  fill (passes->made, 0, inside->height, inside->width, 1);
  glMemoryBarrier (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
  if (segment_outputs (passes, FALSE) > 0)
    cblur_gl_passes_rows (passes, tile, inside->height, 1);
}

/* the input texture's texels, made ones included */
static void
premultiply_input (const CblurGlPasses *passes,
                   const CblurGlTile   *tile)
{
  gint width = tile->inside.width + made_lines (tile);

  glUseProgram (passes->premultiply);
  glUniform2i (glGetUniformLocation (passes->premultiply, "size"), width, input_rows (tile));
  bind_image (SRC_UNIT, passes->textures[CBLUR_GL_INPUT], GL_READ_WRITE);
  glDispatchCompute (groups (width, TEXEL_GROUP), groups (input_rows (tile), TEXEL_GROUP), 1);
  glMemoryBarrier (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

/* The two-dispatch box goes whole, its made row's passes with the
 * others'; an axis in segments along with it. */
static GLuint
run (const CblurGlPasses *passes,
     const CblurGlTile   *tile)
{
  gint   out_width = tile->in_width - 2 * passes->kernel->reach;
  GLuint between = passes->textures[CBLUR_GL_BETWEEN];
  GLuint output = passes->textures[CBLUR_GL_OUTPUT];

  if (passes->premultiply != 0)
    premultiply_input (passes, tile);
  if (segment_outputs (passes, FALSE) > 0)
    rows (passes, tile, 0, tile->inside.height);
  else
    box_passes (passes, FALSE, passes->textures[CBLUR_GL_INPUT], between,
                tile_map (tile, FALSE), tile->in_width, tile->x, input_rows (tile));
  if (segment_outputs (passes, TRUE) > 0)
    return columns (passes, tile, 0, tile->in_height - 2 * passes->kernel->reach);
  box_passes (passes, TRUE, between, output, tile_map (tile, TRUE), tile->in_height, tile->y,
              out_width);
  return output;
}

GLuint
cblur_gl_passes_run (const CblurGlPasses *passes,
                     const CblurGlTile   *tile)
{
  GLuint result;

  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  result = run (passes, tile);
  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  return result;
}
