/* The compute passes of one tile: horizontally over every row of the
 * tile's input, then vertically over the columns that remain. */
#include "cblur-gl-private.h"

/* direct.comp's outputs per work group, its SEGMENT, and the fewest vec4s
 * of shared memory it takes: a power of two above a segment */
#define DIRECT_SEGMENT   384
#define DIRECT_MIN_CACHE 512
G_STATIC_ASSERT (DIRECT_MIN_CACHE > DIRECT_SEGMENT);

/* abyss.comp's and premultiply.comp's work group edge */
#define TEXEL_GROUP 16

/* abyss.comp takes GEGL's values */
G_STATIC_ASSERT (GEGL_ABYSS_NONE == 0 && GEGL_ABYSS_CLAMP == 1 && GEGL_ABYSS_LOOP == 2 &&
                 GEGL_ABYSS_BLACK == 3 && GEGL_ABYSS_WHITE == 4);

/* the box shaders' work group width */
#define BOX_GROUP 64

/* box-fused.comp's THREADS, and the fewest outputs per segment worth its
 * halo; a reach too long for that runs the two-shader passes */
#define FUSED_GROUP       256
#define FUSED_MIN_OUTPUTS 256

enum
{
  SRC_UNIT,
  DST_UNIT,
  PREFIX_UNIT,
  SUFFIX_UNIT
};

/* CBLUR_GL_SHARED_MEMORY=BYTES: less shared memory than the GPU has, for
 * tests of the shaders' smaller variants */
static gint
shared_memory (const CblurGl *gl)
{
  return (gint) MIN (cblur_setting_or (cblur_settings ()->gl_shared_memory,
                                       gl->max_shared_memory),
                     gl->max_shared_memory);
}

/* A streamed tile's first band of outputs goes to GEGL while later input
 * rows come up: in one band GEGL's writes of the output would wait for all
 * its reads.  Three bands ran no faster than two, whose segments cost less
 * at some reaches. */
#define MIN_BANDS 2

/* The time a texel of a segment takes, by how many texels each invocation
 * holds (chunks of 3, 5, 7, ...), relative to four channels in chunks of 3;
 * longer chunks than the tables hold cost LONG_CHUNK_COST.  Two channels
 * at a time cost less a texel than four in middling chunks, where the
 * four-channel registers and shared memory leave room for fewer work
 * groups at once.  Measured with bench/cblur-bench on an H100. */
static const gdouble four_channel_cost[] = { 1.00, 1.24, 1.02, 1.09 };
static const gdouble two_channel_cost[] = { 1.11, 0.91, 0.95, 1.00, 1.35,
                                            1.24, 1.18, 1.28, 1.23, 1.19 };
#define LONG_CHUNK_COST 1.4

static gdouble
texel_cost (gint     chunk,
            gboolean pairs)
{
  guint index = (chunk - 3) / 2;

  if (pairs)
    return index < G_N_ELEMENTS (two_channel_cost) ? two_channel_cost[index] : LONG_CHUNK_COST;
  return index < G_N_ELEMENTS (four_channel_cost) ? four_channel_cost[index] : LONG_CHUNK_COST;
}

/* The fused box keeps a segment and its 2 * reach halo in shared memory,
 * beside two texels and a bool per invocation: the most chunks of
 * FUSED_GROUP texels that fit. */
static gint
fused_fits (const CblurGl *gl,
            gboolean       pairs)
{
  gint texel = (pairs ? 2 : 4) * (gint) sizeof (GLfloat);

  return (shared_memory (gl) - FUSED_GROUP * (2 * texel + 4)) / texel / FUSED_GROUP;
}

/* The segment that makes n_out outputs of a line for the least work: its
 * length times the segments the line needs, weighed by texel_cost, in at
 * least min_segments where any segment allows that.  Pairs of channels fit
 * twice the segment, so spend less of it on the halo at long reaches.  An
 * odd CHUNK spreads the invocations' chunks over all banks.  len is 0 when
 * no segment leaves FUSED_MIN_OUTPUTS outputs. */
static CblurGlSegment
fused_segment (const CblurGl     *gl,
               const CblurKernel *kernel,
               gint               n_out,
               gint               min_segments)
{
  CblurGlSegment best = { 0, FALSE };
  gboolean       best_too_few = TRUE;
  gdouble        best_cost = G_MAXDOUBLE;
  gint           pairs, chunk, fits;

  for (pairs = FALSE; pairs <= TRUE; pairs++)
    for (chunk = 3, fits = fused_fits (gl, pairs); chunk <= fits; chunk += 2)
      {
        gint     len = chunk * FUSED_GROUP;
        gint     outputs = len - 2 * kernel->reach;
        gint     segments = (n_out + outputs - 1) / MAX (outputs, 1);
        gboolean too_few = segments < min_segments;
        gdouble  cost = (gdouble) segments * len * texel_cost (chunk, pairs);

        if (outputs < FUSED_MIN_OUTPUTS)
          continue;
        if (too_few < best_too_few || (too_few == best_too_few && cost < best_cost))
          {
            best_too_few = too_few;
            best_cost = cost;
            best.len = len;
            best.pairs = pairs;
          }
      }
  return best;
}

/* ping and pong, then the two-shader box's prefix and suffix sums */
gint
cblur_gl_passes_textures (const CblurGl     *gl,
                          const CblurKernel *kernel)
{
  return kernel->mode == CBLUR_MODE_BOX && fused_segment (gl, kernel, 1, 1).len == 0 ? 4 : 2;
}

/* Shared memory is reserved whether used or not, and the more a work group
 * reserves the fewer run at once: the smallest power of two of vec4s that
 * holds a segment and its halo, else the largest that fits, in chunks,
 * whose halves must each hold a segment. */
static gint
direct_cache_len (CblurGl           *gl,
                  const CblurKernel *kernel)
{
  gint window = DIRECT_SEGMENT + 2 * kernel->half_width;
  gint bytes = shared_memory (gl);
  gint len = DIRECT_MIN_CACHE;

  while (len < window && 2 * len * 4 * (gint) sizeof (GLfloat) <= bytes)
    len *= 2;
  if (len < window)
    len = MAX (len, 2 * DIRECT_MIN_CACHE);
  return len;
}

/* the programs of both axes */
static gboolean
init_programs (CblurGl           *gl,
               const CblurKernel *kernel,
               gboolean           straight,
               CblurGlPasses     *passes,
               GError           **error)
{
  gboolean direct = kernel->mode == CBLUR_MODE_DIRECT;
  gint     axis;

  for (axis = 0; axis < 2; axis++)
    {
      CblurGlVariant variant = axis == 1 ? CBLUR_GL_VERTICAL : 0;
      gboolean       fused = passes->segments[axis].len > 0;

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
                          direct ? direct_cache_len (gl, kernel) : 0, error);
      if (passes->programs[axis] == 0)
        return FALSE;
    }
  return TRUE;
}

gboolean
cblur_gl_passes_init (CblurGl            *gl,
                      const CblurKernel  *kernel,
                      gint                out_width,
                      gint                out_height,
                      gboolean            straight,
                      CblurGlStamps      *stamps,
                      CblurGlPasses      *passes,
                      GError            **error)
{
  passes->kernel = kernel;
  passes->stamps = stamps;
  passes->textures = gl->textures.textures;
  if (kernel->mode != CBLUR_MODE_DIRECT)
    {
      passes->segments[0] = fused_segment (gl, kernel, out_width, 1);
      passes->segments[1] = fused_segment (gl, kernel, out_height, MIN_BANDS);
    }
  if (!init_programs (gl, kernel, straight, passes, error))
    return FALSE;

  if (kernel->mode == CBLUR_MODE_DIRECT)
    {
      glGenBuffers (1, &passes->weights);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, passes->weights);
      glBufferData (GL_SHADER_STORAGE_BUFFER,
                    (kernel->half_width + 1) * sizeof (gfloat), kernel->weights,
                    GL_STATIC_DRAW);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
    }
  return cblur_gl_textures_reserve (gl, cblur_gl_passes_textures (gl, kernel),
                                    out_width + 2 * kernel->reach,
                                    out_height + 2 * kernel->reach, error);
}

void
cblur_gl_passes_clear (CblurGlPasses *passes)
{
  if (passes->weights != 0)
    glDeleteBuffers (1, &passes->weights);
  passes->weights = 0;
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
set_box_window (GLuint             program,
                const CblurKernel *kernel)
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

/* segments of DIRECT_SEGMENT outputs */
static void
direct_pass (const CblurKernel *kernel,
             GLuint             program,
             GLuint             from,
             GLuint             to,
             gint               n_out,
             gint               first_line,
             gint               n_lines,
             gint               first_segment,
             gint               n_segments)
{
  glUseProgram (program);
  set_int (program, "half_width", kernel->half_width);
  set_int (program, "n_out", n_out);
  dispatch_segments (program, from, to, first_line, n_lines, first_segment, n_segments);
}

/* The passes of one axis, from `from` ping-ponging through textures[0] and
 * [1], each a dispatch for the block sums and one for the outputs; returns
 * the texture the last one wrote.  origin: the absolute coordinate of the
 * first input pixel along the axis. */
static GLuint
box_passes (const CblurKernel *kernel,
            GLuint             scan,
            GLuint             program,
            gboolean           vertical,
            const GLuint      *textures,
            GLuint             from,
            gint               n_in,
            gint               origin,
            gint               lines)
{
  gint pass;

  glUseProgram (scan);
  set_int (scan, "n_lines", lines);
  set_int (scan, "block", kernel->box_block);
  glUseProgram (program);
  set_int (program, "n_lines", lines);
  set_box_window (program, kernel);

  for (pass = 0; pass < kernel->iterations; pass++)
    {
      GLuint to = from == textures[0] ? textures[1] : textures[0];
      gint   phase = cblur_floor_mod (origin, kernel->box_block);
      gint   n_out = n_in - 2 * (kernel->box_half + 1);

      bind_image (SRC_UNIT, from, GL_READ_ONLY);
      glUseProgram (scan);
      set_int (scan, "n_in", n_in);
      set_int (scan, "block_phase", phase);
      glDispatchCompute (groups (lines, BOX_GROUP),
                         groups (n_in + phase, kernel->box_block), 1);
      glMemoryBarrier (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);

      bind_image (DST_UNIT, to, GL_WRITE_ONLY);
      glUseProgram (program);
      set_int (program, "n_in", n_in);
      set_int (program, "block_phase", phase);
      if (vertical)
        glDispatchCompute (groups (lines, BOX_GROUP), n_out, 1);
      else
        glDispatchCompute (groups (n_out, BOX_GROUP), lines, 1);
      glMemoryBarrier (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);

      from = to;
      n_in = n_out;
      origin += kernel->box_half + 1;
    }
  return from;
}

/* every pass of one axis in one dispatch, over lines of the axis's
 * total_lines */
static void
fused_passes (const CblurKernel *kernel,
              GLuint             program,
              gint               len,
              GLuint             from,
              GLuint             to,
              gint               n_in,
              gint               origin,
              gint               total_lines,
              gint               first_line,
              gint               n_lines,
              gint               first_segment,
              gint               n_segments)
{
  glUseProgram (program);
  set_int (program, "n_in", n_in);
  set_int (program, "n_lines", total_lines);
  set_int (program, "origin_phase", cblur_floor_mod (origin, kernel->box_block));
  set_int (program, "outputs", len - 2 * kernel->reach);
  set_int (program, "iterations", kernel->iterations);
  set_box_window (program, kernel);
  dispatch_segments (program, from, to, first_line, n_lines, first_segment, n_segments);
}

/* a dispatch's outputs per line and work group along the axis */
static gint
segment_outputs (const CblurGlPasses *passes,
                 gboolean             vertical)
{
  const CblurKernel *kernel = passes->kernel;

  if (kernel->mode == CBLUR_MODE_DIRECT)
    return DIRECT_SEGMENT;
  return passes->segments[vertical].len > 0
         ? passes->segments[vertical].len - 2 * kernel->reach : 0;
}

gint
cblur_gl_passes_band (const CblurGlPasses *passes)
{
  return segment_outputs (passes, TRUE);
}

/* One axis's passes, from textures[0] to [1] horizontally and back
 * vertically: n_lines lines from first_line, n_segments segments along
 * them from first_segment. */
static void
axis_passes (const CblurGlPasses *passes,
             const CblurGlTile   *tile,
             gboolean             vertical,
             gint                 first_line,
             gint                 n_lines,
             gint                 first_segment,
             gint                 n_segments)
{
  const CblurKernel *kernel = passes->kernel;
  GLuint             from = passes->textures[vertical ? 1 : 0];
  GLuint             to = passes->textures[vertical ? 0 : 1];
  gint               out_width = tile->in_width - 2 * kernel->reach;

  if (kernel->mode == CBLUR_MODE_DIRECT)
    {
      glBindBufferBase (GL_SHADER_STORAGE_BUFFER, 0, passes->weights);
      direct_pass (kernel, passes->programs[vertical], from, to,
                   vertical ? tile->in_height - 2 * kernel->reach : out_width,
                   first_line, n_lines, first_segment, n_segments);
    }
  else
    fused_passes (kernel, passes->programs[vertical], passes->segments[vertical].len, from, to,
                  vertical ? tile->in_height : tile->in_width, vertical ? tile->y : tile->x,
                  vertical ? out_width : tile->in_height,
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
  gint band = cblur_gl_passes_band (passes);

  axis_passes (passes, tile, TRUE, 0, tile->in_width - 2 * passes->kernel->reach,
               first_out / band, groups (n_out, band));
  return passes->textures[0];
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

static void
premultiply_input (GLuint             program,
                   GLuint             texture,
                   const CblurGlTile *tile)
{
  glUseProgram (program);
  glUniform2i (glGetUniformLocation (program, "size"), tile->in_width, tile->in_height);
  bind_image (SRC_UNIT, texture, GL_READ_WRITE);
  glDispatchCompute (groups (tile->in_width, TEXEL_GROUP), groups (tile->in_height, TEXEL_GROUP),
                     1);
  glMemoryBarrier (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

static GLuint
run (const CblurGlPasses *passes,
     const CblurGlTile   *tile)
{
  const CblurKernel *kernel = passes->kernel;
  const GLuint      *textures = passes->textures;
  GLuint             between;

  if (cblur_gl_passes_band (passes) > 0)
    {
      rows (passes, tile, 0, tile->in_height);
      return columns (passes, tile, 0, tile->in_height - 2 * kernel->reach);
    }

  if (passes->premultiply != 0)
    premultiply_input (passes->premultiply, textures[0], tile);
  bind_image (PREFIX_UNIT, textures[2], GL_READ_WRITE);
  bind_image (SUFFIX_UNIT, textures[3], GL_READ_WRITE);
  between = box_passes (kernel, passes->scans[0], passes->programs[0], FALSE, textures,
                        textures[0], tile->in_width, tile->x, tile->in_height);
  return box_passes (kernel, passes->scans[1], passes->programs[1], TRUE, textures,
                     between, tile->in_height, tile->y, tile->in_width - 2 * kernel->reach);
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

gboolean
cblur_gl_fill_abyss (CblurGl              *gl,
                     GLuint                texture,
                     gint                  width,
                     gint                  height,
                     gint                  first_row,
                     gint                  n_rows,
                     const GeglRectangle  *inside,
                     GeglAbyssPolicy       policy,
                     GError              **error)
{
  GLuint program = cblur_gl_program (gl, CBLUR_GL_SHADER_ABYSS, 0, 0, error);
  gfloat colour[CBLUR_CHANNELS];

  if (program == 0)
    return FALSE;
  cblur_abyss_colour (policy, colour);
  glUseProgram (program);
  glUniform2i (glGetUniformLocation (program, "size"), width, height);
  glUniform4i (glGetUniformLocation (program, "inside"),
               inside->x, inside->y, inside->width, inside->height);
  set_int (program, "policy", policy);
  glUniform4fv (glGetUniformLocation (program, "colour"), 1, colour);
  set_int (program, "first_row", first_row);
  bind_image (SRC_UNIT, texture, GL_READ_WRITE);
  glDispatchCompute (groups (width, TEXEL_GROUP), groups (n_rows, TEXEL_GROUP), 1);
  glMemoryBarrier (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
  return TRUE;
}
