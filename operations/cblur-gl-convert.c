/* Pixels in GEGL's formats on the GPU.  decode.comp makes the passes'
 * texels of a source stored in a cblur-format, reading it as it is stored
 * (a quarter of float's bytes in 8 bits) straight from the pinned
 * staging; encode.comp makes the output's format of their result, which
 * comes down as it is, so that GEGL's threads only copy.  Both take
 * cblur-format's tables and keep its rules: the GPU converts as the CPU
 * does.
 *
 * The output's native buffer, in video memory, holds a tile's rows as the
 * staging holds the band's, the same bytes from a row's start, its first
 * row the tile's first. */
#include "cblur-gl-private.h"

#include <string.h>

enum
{
  SOURCE,
  OUTPUT
};

/* the shaders' bindings: the image unit, and the storage buffers */
#define IMAGE_UNIT     0
#define NATIVE_BINDING 0
#define TABLES_BINDING 1

/* A dispatch converts at most this many rows, and sees only their part
 * of the buffer: GL may let a shader see as little as 128 MB of one. */
#define DISPATCH_ROWS 256

static gsize
row_bytes (const CblurImage *image)
{
  return image->stride * sizeof (gfloat);
}

/* cblur-format's tables for a side, as the shaders index them: each
 * component's decode table (a value per code), or its thresholds (one
 * more); one unused value for half and float */
static void
reserve_tables (CblurGlNative     *native,
                const CblurFormat *format,
                gint               side)
{
  g_autofree gfloat *values = NULL;
  gsize              per = 1;
  gint               n = format->n_components;
  gint               c;

  if (native->tables != 0 && native->format == format)
    return;
  if (native->tables != 0)
    glDeleteBuffers (1, &native->tables);

  if (format->type <= CBLUR_SAMPLE_U16)
    per = format->curves[0]->max + 1 + (side == OUTPUT);
  values = g_new0 (gfloat, per * n);
  for (c = 0; c < n && format->type <= CBLUR_SAMPLE_U16; c++)
    memcpy (values + c * per,
            side == OUTPUT ? format->curves[c]->thresholds : format->curves[c]->decode,
            per * sizeof (gfloat));

  glGenBuffers (1, &native->tables);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, native->tables);
  glBufferStorage (GL_SHADER_STORAGE_BUFFER, per * n * sizeof (gfloat), values, 0);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
  native->format = format;
}

/* a side's buffer, its program and tables, where its image has a format */
static gboolean
prepare_side (CblurGl           *gl,
              gint               side,
              const CblurImage  *image,
              gint               rows,
              GError           **error)
{
  CblurGlNative *native = &gl->textures.native[side];
  gsize          size = row_bytes (image) * rows;
  GLint64        max_range = 0;
  GLint          alignment = 1;

  if (image->format == NULL)
    return TRUE;

  native->program = cblur_gl_program (gl, side == SOURCE ? CBLUR_GL_SHADER_DECODE
                                                         : CBLUR_GL_SHADER_ENCODE,
                                      0, 0, error);
  if (native->program == 0)
    return FALSE;
  glGetInteger64v (GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_range);
  glGetIntegerv (GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
  native->max_range = max_range;
  native->alignment = MAX (alignment, 1);

  if (native->size < size)
    {
      if (native->buffer != 0)
        glDeleteBuffers (1, &native->buffer);
      glGenBuffers (1, &native->buffer);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, native->buffer);
      glBufferStorage (GL_SHADER_STORAGE_BUFFER, MAX (size, 1), NULL, 0);
      glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
      native->size = size;
    }
  reserve_tables (native, image->format, side);
  return TRUE;
}

gboolean
cblur_gl_convert_prepare (CblurGl           *gl,
                          const CblurImage  *src,
                          const CblurImage  *dst,
                          gint               out_rows,
                          GError           **error)
{
  return prepare_side (gl, SOURCE, src, 0, error) &&
         prepare_side (gl, OUTPUT, dst, out_rows, error) &&
         cblur_gl_check (gl, CBLUR_GL_STAGE_ALLOC, error);
}

static void
copy_bytes (GLuint from,
            gsize  from_offset,
            GLuint to,
            gsize  to_offset,
            gsize  size)
{
  glBindBuffer (GL_COPY_READ_BUFFER, from);
  glBindBuffer (GL_COPY_WRITE_BUFFER, to);
  glCopyBufferSubData (GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, from_offset, to_offset, size);
  glBindBuffer (GL_COPY_READ_BUFFER, 0);
  glBindBuffer (GL_COPY_WRITE_BUFFER, 0);
}

/* decode.comp's and encode.comp's uniforms */
enum
{
  ORIGIN,
  SIZE,
  COLUMN,
  BASE,
  STRIDE,
  N_COMPONENTS,
  SAMPLE_BYTES,
  TABLES,
  GREY,
  HAS_ALPHA,
  CODES
};

static void
set_format (const CblurFormat *format)
{
  gboolean tables = format->type <= CBLUR_SAMPLE_U16;

  glUniform1i (N_COMPONENTS, format->n_components);
  glUniform1i (SAMPLE_BYTES, format->bytes_per_pixel / format->n_components);
  glUniform1i (TABLES, tables);
  glUniform1i (GREY, format->grey);
  glUniform1i (HAS_ALPHA, format->has_alpha);
  glUniform1i (CODES, tables ? format->curves[0]->max + 1 : 0);
}

/* The side's program over texture rows [tex_y, tex_y + rect->height),
 * texels from the first, which `buffer` stores from column rect->x of its
 * rows buffer_y on, in dispatches of at most DISPATCH_ROWS rows, each
 * seeing only its rows' bytes. */
static void
convert_rows (const CblurGlNative *native,
              gint                 side,
              const CblurImage    *image,
              GLuint               texture,
              const GeglRectangle *rect,
              gint                 tex_y,
              GLuint               buffer,
              gint                 buffer_y)
{
  gsize  stride = row_bytes (image);
  gsize  pixel_bytes = image->format->bytes_per_pixel;
  gsize  first = rect->x * pixel_bytes / 4 * 4;
  gsize  end = ((rect->x + rect->width) * pixel_bytes + 3) / 4 * 4;
  gint64 room = (gint64) native->max_range - native->alignment - end;
  gint   most = CLAMP (room / (gint64) stride + 1, 1, DISPATCH_ROWS);
  gint   done;

  glUseProgram (native->program);
  glBindImageTexture (IMAGE_UNIT, texture, 0, GL_FALSE, 0,
                      side == SOURCE ? GL_WRITE_ONLY : GL_READ_ONLY, GL_RGBA32F);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, TABLES_BINDING, native->tables);
  set_format (image->format);
  glUniform1i (COLUMN, rect->x);
  glUniform1ui (STRIDE, stride);

  for (done = 0; done < rect->height; done += most)
    {
      gint  rows = MIN (most, rect->height - done);
      gsize start = (gsize) (buffer_y + done) * stride;
      gsize bound = start / native->alignment * native->alignment;

      glBindBufferRange (GL_SHADER_STORAGE_BUFFER, NATIVE_BINDING, buffer, bound,
                         start - bound + (rows - 1) * stride + end);
      glUniform1ui (BASE, start - bound);
      glUniform2i (ORIGIN, 0, tex_y + done);
      glUniform2i (SIZE, rect->width, rows);
      /* work groups of 16 × 16 texels, or of 64 words × 4 rows */
      if (side == SOURCE)
        glDispatchCompute ((rect->width + 15) / 16, (rows + 15) / 16, 1);
      else
        glDispatchCompute (((end - first) / 4 + 63) / 64, (rows + 3) / 4, 1);
    }
}

/* A source's piece is decoded straight from the staging, and an output's
 * piece of whole rows encoded straight into it, each read or write
 * crossing the bus as the shader makes it: one pass over the pixels
 * instead of a shader's and a copy's, which at an idle GPU's low clocks
 * costs the most.  A tile's columns are encoded into the native buffer,
 * then go down a row at a time, since encode.comp's whole words would
 * overwrite the other tiles' bytes beside them. */
void
cblur_gl_transfer_native (CblurGl             *gl,
                          const CblurGlJob    *job,
                          gboolean             up,
                          GLuint               texture,
                          const GeglRectangle *piece,
                          gint                 tex_y)
{
  const CblurGlNative *native = &gl->textures.native[up ? SOURCE : OUTPUT];
  const CblurImage    *image = up ? job->src : job->dst;
  gsize                stride = row_bytes (image);
  gsize                pixel_bytes = image->format->bytes_per_pixel;
  gsize                device = tex_y * stride + piece->x * pixel_bytes;
  gsize                staging = piece->y * stride + piece->x * pixel_bytes;
  gint                 row;

  if (up)
    {
      convert_rows (native, SOURCE, image, texture, piece, tex_y, job->staged->source.buffer,
                    piece->y);
      glMemoryBarrier (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
      return;
    }

  if (piece->width == image->width)
    {
      convert_rows (native, OUTPUT, image, texture, piece, tex_y,
                    job->staged->output.buffer, piece->y);
      glMemoryBarrier (GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
      return;
    }
  convert_rows (native, OUTPUT, image, texture, piece, tex_y, native->buffer, tex_y);
  /* for the copy, and for whatever writes the result's texture next */
  glMemoryBarrier (GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
  for (row = 0; row < piece->height; row++)
    copy_bytes (native->buffer, device + row * stride, job->staged->output.buffer,
                staging + row * stride, piece->width * pixel_bytes);
}
