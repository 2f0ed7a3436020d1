/* The compute passes of one tile: horizontally over the rows of its input
 * inside the image, then vertically over the columns that remain, the
 * first pass of each axis reading the abyss through common.glsl's map. */
#include "cblur-gl-box.h"

/* abyss.comp's and premultiply.comp's work group edge */
#define TEXEL_GROUP 16

/* common.glsl's map takes GEGL's values */
G_STATIC_ASSERT (GEGL_ABYSS_NONE == 0 && GEGL_ABYSS_CLAMP == 1 && GEGL_ABYSS_LOOP == 2 &&
                 GEGL_ABYSS_BLACK == 3 && GEGL_ABYSS_WHITE == 4);

/* the shaders' image units */
enum
{
  SRC_UNIT,
  DST_UNIT
};

/* A streamed tile's first stripe of outputs goes to GEGL while later
 * input rows come up: in one stripe GEGL's writes of the output would
 * wait for all its reads.  Two stripes are enough for that overlap, and
 * fewer, longer segments cost less. */
#define MIN_STRIPES 2

/* whether the axis runs the two-shader box */
static gboolean
two_shader_box (const CblurGl         *gl,
                const CblurKernelAxis *axis)
{
  return axis->mode == CBLUR_MODE_BOX &&
         (gl->two_shader || cblur_gl_fused_segment (gl, axis, 1, 1, gl->no_wait).len == 0);
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

/* The axis's program, direct.comp's or the fused box's.  A blur that
 * does not wait takes the best program for it where that is ready, and
 * its segment with it; else that program compiles once the tasks pause,
 * for the next blur, and the one that serves every reach blurs this one.
 * A software rasterizer, where the tests take it for a GPU, gains nothing
 * by it, nor do the first uses' tiny blurs (gl->settled). */
static CblurGpuProgram *
axis_program (CblurGl               *gl,
              const CblurKernelAxis *along,
              CblurGlVariant         variant,
              const CblurGlSegment  *best,
              gint                   axis,
              CblurGlPasses         *passes,
              GError               **error)
{
  CblurGlSegment *segment = &passes->segments[axis];
  gboolean        direct = along->mode == CBLUR_MODE_DIRECT;
  gint            len = direct ? cblur_gl_direct_cache_len (gl, along, gl->no_wait) : segment->len;
  gint            better = direct ? cblur_gl_direct_cache_len (gl, along, FALSE) : best->len;
  gboolean        upgrades = gl->no_wait && !gl->settled && !gl->limits->is_software &&
                             (better != len || (!direct && best->pairs != segment->pairs));
  gboolean        upgraded = FALSE;
  CblurGpuProgram *program;

  program = cblur_gl_program_better (gl, direct ? CBLUR_GL_SHADER_DIRECT
                                                : CBLUR_GL_SHADER_BOX_FUSED,
                                     variant | (segment->pairs ? CBLUR_GL_PAIRS : 0), len,
                                     variant | (best->pairs ? CBLUR_GL_PAIRS : 0),
                                     upgrades ? better : 0, &upgraded, error);
  passes->upgrading |= upgrades && !upgraded;
  if (upgraded && !direct)
    *segment = *best;
  return program;
}

/* the programs of both axes; best: the segments a blur that waits takes */
static gboolean
init_programs (CblurGl              *gl,
               const CblurKernel    *kernel,
               gboolean              straight,
               const CblurGlSegment *best,
               CblurGlPasses        *passes,
               GError              **error)
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
          if (passes->premultiply == NULL)
            return FALSE;
        }

      if (!direct && !fused)
        {
          passes->scans[axis] = cblur_gl_program (gl, CBLUR_GL_SHADER_BOX_SCAN, variant, 0,
                                                  error);
          if (passes->scans[axis] == NULL)
            return FALSE;
        }
      passes->programs[axis] = direct || fused
                               ? axis_program (gl, along, variant, &best[axis], axis, passes,
                                               error)
                               : cblur_gl_program (gl, CBLUR_GL_SHADER_BOX, variant, 0, error);
      if (passes->programs[axis] == NULL)
        return FALSE;
    }
  return TRUE;
}

/* box-fused.comp's segments by axis, len 0 where an axis runs another
 * shader; `any`: those that serve every reach */
static void
choose_segments (const CblurGl     *gl,
                 const CblurKernel *kernel,
                 const CblurGlTile *largest,
                 gboolean           any,
                 CblurGlSegment    *segments)
{
  segments[0] = segments[1] = (CblurGlSegment) { 0, FALSE };
  if (kernel->axes[CBLUR_AXIS_X].mode != CBLUR_MODE_DIRECT && !gl->two_shader)
    segments[0] = cblur_gl_fused_segment (gl, &kernel->axes[CBLUR_AXIS_X],
                                          largest->in_width - 2 * kernel->reach, 1, any);
  if (kernel->axes[CBLUR_AXIS_Y].mode != CBLUR_MODE_DIRECT && !gl->two_shader)
    segments[1] = cblur_gl_fused_segment (gl, &kernel->axes[CBLUR_AXIS_Y],
                                          largest->in_height - 2 * kernel->reach,
                                          MIN_STRIPES, any);
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
  gint               n_textures = cblur_gl_passes_textures (gl, kernel);
  CblurGlSize        sizes[CBLUR_GL_N_TEXTURES];
  CblurGlSegment     best[2];
  gint               axis;

  passes->kernel = kernel;
  passes->stamps = stamps;
  passes->textures = gl->textures->textures;
  choose_segments (gl, kernel, largest, gl->no_wait, passes->segments);
  choose_segments (gl, kernel, largest, FALSE, best);
  if (!init_programs (gl, kernel, straight, best, passes, error))
    return FALSE;
  if (cblur_gl_textures_fit (kernel, tiles, sizes))
    {
      passes->made = cblur_gl_program (gl, CBLUR_GL_SHADER_ABYSS, 0, 0, error);
      if (passes->made == NULL)
        return FALSE;
    }

  for (axis = 0; axis < 2; axis++)
    if (kernel->axes[axis].mode == CBLUR_MODE_DIRECT)
      passes->weights[axis] = cblur_gpu_buffer_new ((kernel->axes[axis].half_width + 1) *
                                                    sizeof (gfloat), kernel->axes[axis].weights);
  return cblur_gl_textures_reserve (gl, n_textures, sizes, error);
}

void
cblur_gl_passes_clear (CblurGlPasses *passes)
{
  cblur_gpu_buffer_free (&passes->weights[CBLUR_AXIS_X]);
  cblur_gpu_buffer_free (&passes->weights[CBLUR_AXIS_Y]);
}

/* common.glsl's map along one axis: a line's pixels inside the image are
 * texels from `first` on, `len` of them, and the abyss makes the rest */
static CblurGlMap
tile_map (const CblurGlTile *tile,
          gboolean           vertical)
{
  CblurGlMap map = { tile->inside.x, tile->inside.width, tile->abyss };

  if (vertical)
    map = (CblurGlMap) { tile->inside.y, tile->inside.height, tile->abyss };
  return map;
}

/* The program in use, a work group a segment of a line, from `from` to
 * `to`: n_lines lines from first_line, n_segments segments from
 * first_segment. */
static void
dispatch_segments (const CblurGpuProgram *program,
                   const CblurGpuTexture *from,
                   const CblurGpuTexture *to,
                   gint                   first_line,
                   gint                   n_lines,
                   gint                   first_segment,
                   gint                   n_segments)
{
  cblur_gpu_set_int (program, "first_line", first_line);
  cblur_gpu_set_int (program, "first_segment", first_segment);
  cblur_gpu_bind_image (SRC_UNIT, from, CBLUR_GPU_READ);
  cblur_gpu_bind_image (DST_UNIT, to, CBLUR_GPU_WRITE);
  cblur_gpu_dispatch (n_segments, n_lines, CBLUR_GPU_BARRIER_IMAGES);
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
  const CblurGpuProgram *program = passes->programs[vertical];
  gint                   origin = (vertical ? tile->y : tile->x) + skip;

  cblur_gpu_set_int (program, "n_in", (vertical ? tile->in_height : tile->in_width) - 2 * skip);
  cblur_gpu_set_int (program, "n_lines", vertical ? tile->in_width - 2 * passes->kernel->reach
                                                  : cblur_gl_input_rows (tile));
  cblur_gpu_set_int (program, "origin_phase", cblur_floor_mod (origin, kernel->box_block));
  cblur_gpu_set_int (program, "outputs", passes->segments[vertical].len - 2 * kernel->reach);
  cblur_gpu_set_int (program, "iterations", kernel->iterations);
  cblur_gl_set_box_window (program, kernel);
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

/* in stripes where both axes go in segments */
gint
cblur_gl_passes_stripe (const CblurGlPasses *passes)
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
  const CblurGpuProgram *program = passes->programs[vertical];
  gint                   out_width = tile->in_width - 2 * kernel->reach;
  CblurGlMap             map = tile_map (tile, vertical);

  map.first -= cblur_kernel_skip (kernel, vertical);
  cblur_gpu_use (program);
  cblur_gl_set_map (program, map);
  if (along->mode == CBLUR_MODE_DIRECT)
    {
      cblur_gpu_bind_buffer (0, passes->weights[vertical], 0, 0);
      cblur_gpu_set_int (program, "half_width", along->half_width);
      cblur_gpu_set_int (program, "n_out", vertical ? tile->in_height - 2 * kernel->reach
                                                    : out_width);
    }
  else
    set_fused (passes, tile, vertical);
  dispatch_segments (program,
                     &passes->textures[vertical ? CBLUR_GL_BETWEEN : CBLUR_GL_INPUT],
                     &passes->textures[vertical ? CBLUR_GL_OUTPUT : CBLUR_GL_BETWEEN],
                     first_line, n_lines, first_segment, n_segments);
}

static void
rows (const CblurGlPasses *passes,
      const CblurGlTile   *tile,
      gint                 first_row,
      gint                 n_rows)
{
  axis_passes (passes, tile, FALSE, first_row, n_rows,
               0, cblur_gpu_groups (tile->in_width - 2 * passes->kernel->reach,
                                   segment_outputs (passes, FALSE)));
}

static const CblurGpuTexture *
columns (const CblurGlPasses *passes,
         const CblurGlTile   *tile,
         gint                 first_out,
         gint                 n_out)
{
  gint stripe = segment_outputs (passes, TRUE);

  axis_passes (passes, tile, TRUE, 0, tile->in_width - 2 * passes->kernel->reach,
               first_out / stripe, cblur_gpu_groups (n_out, stripe));
  return &passes->textures[CBLUR_GL_OUTPUT];
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

const CblurGpuTexture *
cblur_gl_passes_columns (const CblurGlPasses *passes,
                         const CblurGlTile   *tile,
                         gint                 first_out,
                         gint                 n_out)
{
  const CblurGpuTexture *result;

  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  result = columns (passes, tile, first_out, n_out);
  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  return result;
}

/* width × height texels of the input texture from x, y, as abyss.comp
 * fills them */
static void
fill (const CblurGpuProgram *program,
      gint                   x,
      gint                   y,
      gint                   width,
      gint                   height)
{
  const gint rect[] = { x, y, width, height };

  cblur_gpu_set_ivec4 (program, "rect", rect);
  cblur_gpu_dispatch (cblur_gpu_groups (width, TEXEL_GROUP), cblur_gpu_groups (height, TEXEL_GROUP),
                      0);
}

void
cblur_gl_passes_made (const CblurGlPasses *passes,
                      const CblurGlTile   *tile)
{
  const GeglRectangle *inside = &tile->inside;
  gfloat               colour[CBLUR_CHANNELS];

  if (cblur_gl_made_lines (tile) == 0)
    return;
  cblur_abyss_colour (tile->abyss, colour);
  cblur_gpu_use (passes->made);
  cblur_gpu_set_vec4 (passes->made, "colour", colour);
  cblur_gpu_bind_image (SRC_UNIT, &passes->textures[CBLUR_GL_INPUT], CBLUR_GPU_WRITE);
  fill (passes->made, inside->width, 0, 1, inside->height + 1);
  fill (passes->made, 0, inside->height, inside->width, 1);
  cblur_gpu_barrier (CBLUR_GPU_BARRIER_IMAGES);
  if (segment_outputs (passes, FALSE) > 0)
    cblur_gl_passes_rows (passes, tile, inside->height, 1);
}

/* the input texture's texels, made ones included */
static void
premultiply_input (const CblurGlPasses *passes,
                   const CblurGlTile   *tile)
{
  gint width = tile->inside.width + cblur_gl_made_lines (tile);
  gint rows = cblur_gl_input_rows (tile);

  cblur_gpu_use (passes->premultiply);
  cblur_gpu_set_ivec2 (passes->premultiply, "size", width, rows);
  cblur_gpu_bind_image (SRC_UNIT, &passes->textures[CBLUR_GL_INPUT], CBLUR_GPU_READ_WRITE);
  cblur_gpu_dispatch (cblur_gpu_groups (width, TEXEL_GROUP), cblur_gpu_groups (rows, TEXEL_GROUP),
                      CBLUR_GPU_BARRIER_IMAGES);
}

/* The two-dispatch box goes whole, its made row's passes with the
 * others'; an axis in segments along with it. */
static const CblurGpuTexture *
run (const CblurGlPasses *passes,
     const CblurGlTile   *tile)
{
  gint                   out_width = tile->in_width - 2 * passes->kernel->reach;
  const CblurGpuTexture *between = &passes->textures[CBLUR_GL_BETWEEN];
  const CblurGpuTexture *output = &passes->textures[CBLUR_GL_OUTPUT];

  if (passes->premultiply != NULL)
    premultiply_input (passes, tile);
  if (segment_outputs (passes, FALSE) > 0)
    rows (passes, tile, 0, tile->inside.height);
  else
    cblur_gl_box_passes (passes, FALSE, &passes->textures[CBLUR_GL_INPUT], between,
                         tile_map (tile, FALSE), tile->in_width, tile->x,
                         cblur_gl_input_rows (tile));
  if (segment_outputs (passes, TRUE) > 0)
    return columns (passes, tile, 0, tile->in_height - 2 * passes->kernel->reach);
  cblur_gl_box_passes (passes, TRUE, between, output, tile_map (tile, TRUE), tile->in_height,
                       tile->y, out_width);
  return output;
}

const CblurGpuTexture *
cblur_gl_passes_run (const CblurGlPasses *passes,
                     const CblurGlTile   *tile)
{
  const CblurGpuTexture *result;

  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  result = run (passes, tile);
  cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_COMPUTE);
  return result;
}
