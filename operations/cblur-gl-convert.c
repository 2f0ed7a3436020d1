/* Pixels in GEGL's formats on the GPU.  A source stored in a cblur-format
 * goes up as it is (a quarter of float's bytes in 8 bits), into a buffer
 * laid out as its staging, and decode.comp makes the passes' texels of
 * it; encode.comp makes the output's format of their result, in a buffer
 * that comes down as it is, so that GEGL's threads only copy.  Both take
 * cblur-format's tables and keep its rules: the GPU converts as the CPU
 * does.
 *
 * A native buffer holds a tile's rows as the staging holds the band's,
 * the same bytes from a row's start, its first row the tile's first: a
 * piece of the band goes up in one copy, whatever its columns, and a
 * piece of whole rows comes down in one. */
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

/* decode.comp's work group is 16 × 16 texels; encode.comp's 64 words by
 * 4 rows */
#define DECODE_GROUP 16
#define ENCODE_WORDS 64
#define ENCODE_ROWS  4

/* A dispatch converts at most this many rows, and sees only their part
 * of the buffer: GL may let a shader see as little as 128 MB of one. */
#define DISPATCH_ROWS 256

static gsize
row_bytes (const CblurImage *image)
{
  return image->stride * sizeof (gfloat);
}

static gint
groups (gsize n,
        gint  size)
{
  return (n + size - 1) / size;
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
                          gint               in_rows,
                          gint               out_rows,
                          GError           **error)
{
  return prepare_side (gl, SOURCE, src, in_rows, error) &&
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

static void
set_int (GLuint       program,
         const gchar *name,
         gint         value)
{
  glUniform1i (glGetUniformLocation (program, name), value);
}

/* The side's program over texels [x, x + width) of texture rows [tex_y,
 * tex_y + height), which the buffer stores from column `column` of its
 * rows tex_y on, in dispatches of at most DISPATCH_ROWS rows, each seeing
 * only its rows' bytes. */
static void
convert_rows (const CblurGlNative *native,
              gint                 side,
              const CblurImage    *image,
              GLuint               texture,
              gint                 column,
              gint                 x,
              gint                 width,
              gint                 tex_y,
              gint                 height)
{
  const CblurFormat *format = image->format;
  GLuint             program = native->program;
  gsize              stride = row_bytes (image);
  gsize              first = (gsize) column * format->bytes_per_pixel / 4 * 4;
  gsize              end = ((gsize) (column + width) * format->bytes_per_pixel + 3) / 4 * 4;
  gint64             room = (gint64) native->max_range - native->alignment - end;
  gint               most = CLAMP (room / (gint64) stride + 1, 1, DISPATCH_ROWS);
  gboolean           tables = format->type <= CBLUR_SAMPLE_U16;
  gint               done;

  glUseProgram (program);
  glBindImageTexture (IMAGE_UNIT, texture, 0, GL_FALSE, 0,
                      side == SOURCE ? GL_WRITE_ONLY : GL_READ_ONLY, GL_RGBA32F);
  glBindBufferBase (GL_SHADER_STORAGE_BUFFER, TABLES_BINDING, native->tables);
  set_int (program, "column", column);
  set_int (program, "n_components", format->n_components);
  set_int (program, "sample_bytes", format->bytes_per_pixel / format->n_components);
  set_int (program, "tables", tables);
  set_int (program, "grey", format->grey);
  set_int (program, "has_alpha", format->has_alpha);
  set_int (program, "codes", tables ? format->curves[0]->max + 1 : 0);
  glUniform1ui (glGetUniformLocation (program, "stride"), stride);

  for (done = 0; done < height; done += most)
    {
      gint  rows = MIN (most, height - done);
      gsize start = (gsize) (tex_y + done) * stride;
      gsize bound = start / native->alignment * native->alignment;

      glBindBufferRange (GL_SHADER_STORAGE_BUFFER, NATIVE_BINDING, native->buffer, bound,
                         start - bound + (rows - 1) * stride + end);
      glUniform1ui (glGetUniformLocation (program, "base"), start - bound);
      glUniform2i (glGetUniformLocation (program, "origin"), x, tex_y + done);
      glUniform2i (glGetUniformLocation (program, "size"), width, rows);
      if (side == SOURCE)
        glDispatchCompute (groups (width, DECODE_GROUP), groups (rows, DECODE_GROUP), 1);
      else
        glDispatchCompute (groups ((end - first) / 4, ENCODE_WORDS), groups (rows, ENCODE_ROWS),
                           1);
    }
}

/* The piece goes up as it is stored, from the start of its first row's
 * word to the end of its last row's, and is decoded where the passes
 * read. */
void
cblur_gl_upload_native (CblurGl             *gl,
                        const CblurGlStaged *staged,
                        const CblurImage    *src,
                        gint                 x,
                        gint                 y,
                        gint                 width,
                        gint                 height,
                        gint                 tex_x,
                        gint                 tex_y)
{
  const CblurGlNative *native = &gl->textures.native[SOURCE];
  gsize                stride = row_bytes (src);
  gsize                bytes = src->format->bytes_per_pixel;
  gsize                first = (gsize) x * bytes / 4 * 4;
  gsize                end = ((gsize) (x + width) * bytes + 3) / 4 * 4;

  copy_bytes (staged->source.buffer, (gsize) y * stride + first,
              native->buffer, (gsize) tex_y * stride + first,
              (gsize) (height - 1) * stride + end - first);
  convert_rows (native, SOURCE, src, gl->textures.textures[0], x, tex_x, width, tex_y, height);
  glMemoryBarrier (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

/* Encoded, then down: whole rows in one copy, a tile's columns a row at
 * a time, which must leave the other tiles' bytes alone. */
void
cblur_gl_download_native (CblurGl             *gl,
                          const CblurGlStaged *staged,
                          GLuint               result,
                          const CblurImage    *dst,
                          gint                 x,
                          gint                 y,
                          gint                 width,
                          gint                 height,
                          gint                 tex_y)
{
  const CblurGlNative *native = &gl->textures.native[OUTPUT];
  gsize                stride = row_bytes (dst);
  gsize                bytes = dst->format->bytes_per_pixel;
  gint                 row;

  convert_rows (native, OUTPUT, dst, result, x, 0, width, tex_y, height);
  /* for the copy, and for whatever writes the result's texture next */
  glMemoryBarrier (GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
  if (width == dst->width)
    copy_bytes (native->buffer, (gsize) tex_y * stride,
                staged->output.buffer, (gsize) y * stride, (gsize) height * stride);
  else
    for (row = 0; row < height; row++)
      copy_bytes (native->buffer, (gsize) (tex_y + row) * stride + x * bytes,
                  staged->output.buffer, (gsize) (y + row) * stride + x * bytes, width * bytes);
}
