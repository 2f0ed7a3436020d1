/* Pixels in GEGL's formats on the GPU.  decode.comp makes the passes'
 * texels of a source stored in a cblur-format, reading it as it is stored
 * (a quarter of float's bytes in 8 bits) straight from the band's
 * pinned memory; encode.comp makes the output's format of their result, which
 * comes down as it is, so that GEGL's threads only copy.  Both take
 * cblur-format's tables and follow its rules: the GPU converts as the CPU
 * does.
 *
 * The output's native buffer, in video memory, holds a tile's rows as the
 * pinned memory holds the band's, the same bytes from a row's start, its first
 * row the tile's first. */
#include "cblur-gl-internal.h"

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
 * of the buffer: GL may let a shader see as little as 128 MB of one (its minimum
 * GL_MAX_SHADER_STORAGE_BLOCK_SIZE). */
#define DISPATCH_ROWS 256

static gsize
row_bytes (const CblurImage *image)
{
  return image->stride * sizeof (gfloat);
}

/* cblur-format's tables for a side, as the shaders index them: each
 * component's decode table (a value per code), or its thresholds (one
 * more); one unused value for half and float.  NULL where the side's
 * buffer holds them already. */
static gfloat *
table_values (const CblurGlNative *native,
              const CblurFormat   *format,
              gint                 side,
              gsize               *size)
{
  gfloat *values;
  gsize   per = 1;
  gint    n = format->n_components;
  gint    c;

  if (native->tables != 0 && native->format == format)
    return NULL;
  if (format->type <= CBLUR_SAMPLE_U16)
    per = format->curves[0]->max + 1 + (side == OUTPUT);
  values = g_new0 (gfloat, per * n);
  for (c = 0; c < n && format->type <= CBLUR_SAMPLE_U16; c++)
    memcpy (values + c * per,
            side == OUTPUT ? format->curves[c]->thresholds : format->curves[c]->decode,
            per * sizeof (gfloat));
  *size = per * n * sizeof (gfloat);
  return values;
}

/* a side's buffer, its program and tables, where its image has a format */
static gboolean
prepare_side (CblurGl           *gl,
              gint               side,
              const CblurImage  *image,
              gint               rows,
              GError           **error)
{
  CblurGlNative     *native = &gl->textures->native[side];
  gsize              size = row_bytes (image) * rows;
  gsize              tables_size = 0;
  g_autofree gfloat *tables = NULL;

  if (image->format == NULL)
    return TRUE;

  tables = table_values (native, image->format, side, &tables_size);
  native->program = cblur_gl_program (gl, side == SOURCE ? CBLUR_GL_SHADER_DECODE
                                                         : CBLUR_GL_SHADER_ENCODE,
                                      0, 0, error);
  if (native->program == NULL)
    return FALSE;
  if (native->size < size)
    {
      cblur_gpu_buffer_free (&native->buffer);
      native->buffer = cblur_gpu_buffer_new (size, NULL);
      native->size = size;
    }
  if (tables != NULL)
    {
      cblur_gpu_buffer_free (&native->tables);
      native->tables = cblur_gpu_buffer_new (tables_size, tables);
      native->format = image->format;
    }
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
         cblur_gpu_check (gl->gpu, "alloc conversion buffers", error);
}

static void
set_format (const CblurGpuProgram *program,
            const CblurFormat     *format)
{
  gboolean tables = format->type <= CBLUR_SAMPLE_U16;

  cblur_gpu_set_int (program, "n_components", format->n_components);
  cblur_gpu_set_int (program, "sample_bytes", format->bytes_per_pixel / format->n_components);
  cblur_gpu_set_int (program, "tables", tables);
  cblur_gpu_set_int (program, "grey", format->grey);
  cblur_gpu_set_int (program, "has_alpha", format->has_alpha);
  cblur_gpu_set_int (program, "codes", tables ? format->curves[0]->max + 1 : 0);
  cblur_gpu_set_int (program, "srgb", format->srgb);
}

/* The side's program over texture rows [tex_y, tex_y + rect->height),
 * texels from the first, which `buffer` stores from column rect->x of its
 * rows buffer_y on, in dispatches of at most DISPATCH_ROWS rows, each
 * seeing only its rows' bytes. */
static void
convert_rows (const CblurGl         *gl,
              gint                   side,
              const CblurImage      *image,
              const CblurGpuTexture *texture,
              const GeglRectangle   *rect,
              gint                   tex_y,
              guint                 buffer,
              gint                   buffer_y)
{
  const CblurGlNative   *native = &gl->textures->native[side];
  const CblurGpuProgram *program = native->program;
  gsize                  alignment = gl->limits->storage_alignment;
  gsize                  stride = row_bytes (image);
  gsize                  pixel_bytes = image->format->bytes_per_pixel;
  gsize                  first = rect->x * pixel_bytes / 4 * 4;
  gsize                  end = ((rect->x + rect->width) * pixel_bytes + 3) / 4 * 4;
  gint64                 room = gl->limits->max_storage_range - (gint64) alignment - end;
  gint                   most = CLAMP (room / (gint64) stride + 1, 1, DISPATCH_ROWS);
  gint                   done;

  set_format (program, image->format);
  cblur_gpu_set_int (program, "column", rect->x);
  cblur_gpu_set_uint (program, "stride", stride);
  cblur_gpu_use (program);
  cblur_gpu_bind_image (IMAGE_UNIT, texture, side == SOURCE ? CBLUR_GPU_WRITE : CBLUR_GPU_READ);
  cblur_gpu_bind_buffer (TABLES_BINDING, native->tables, 0, 0);

  for (done = 0; done < rect->height; done += most)
    {
      gint  rows = MIN (most, rect->height - done);
      gsize start = (gsize) (buffer_y + done) * stride;
      gsize bound = start / alignment * alignment;

      cblur_gpu_bind_buffer (NATIVE_BINDING, buffer, bound,
                             start - bound + (rows - 1) * stride + end);
      cblur_gpu_set_uint (program, "base", start - bound);
      cblur_gpu_set_ivec2 (program, "origin", 0, tex_y + done);
      cblur_gpu_set_ivec2 (program, "size", rect->width, rows);
      /* work groups of 16 × 16 texels, or of 64 words × 4 rows */
      if (side == SOURCE)
        cblur_gpu_dispatch (cblur_gpu_groups (rect->width, 16), cblur_gpu_groups (rows, 16), 0);
      else
        cblur_gpu_dispatch (cblur_gpu_groups ((end - first) / 4, 64), cblur_gpu_groups (rows, 4),
                            0);
    }
}

/* A source's part is decoded straight from the pinned memory, and an
 * output's part of whole rows encoded straight into it, each read or
 * write crossing the bus as the shader makes it: one pass over the pixels
 * instead of a shader's and a copy's.  A tile's columns are encoded into
 * the native buffer, then go down a row at a time, since encode.comp's
 * whole words would overwrite the other tiles' bytes beside them. */
void
cblur_gl_transfer_native (CblurGl               *gl,
                          const CblurGlJob      *job,
                          gboolean               up,
                          const CblurGpuTexture *texture,
                          const GeglRectangle   *part,
                          gint                   tex_y)
{
  const CblurGlNative *native = &gl->textures->native[OUTPUT];
  const CblurImage    *image = up ? job->src : job->dst;
  gboolean             whole_rows = up || part->width == image->width;
  gsize                stride = row_bytes (image);
  gsize                pixel_bytes = image->format->bytes_per_pixel;
  gsize                device = tex_y * stride + part->x * pixel_bytes;
  gsize                pinned = part->y * stride + part->x * pixel_bytes;
  guint                buffer = up ? job->memory->source->buffer : job->memory->output->buffer;
  CblurGpuBarrier      barrier = up ? 0 : CBLUR_GPU_BARRIER_MAPPED;
  gint                 row;

  /* a tile's columns go to the native buffer first; its barrier is for
   * the copy, and for whatever writes the result's texture next */
  if (!whole_rows)
    {
      buffer = native->buffer;
      barrier = CBLUR_GPU_BARRIER_BUFFER_UPDATE;
    }
  convert_rows (gl, up ? SOURCE : OUTPUT, image, texture, part, tex_y, buffer,
                whole_rows ? part->y : tex_y);
  cblur_gpu_barrier (barrier | CBLUR_GPU_BARRIER_IMAGES);
  for (row = 0; !whole_rows && row < part->height; row++)
    cblur_gpu_copy (native->buffer, device + row * stride, job->memory->output->buffer,
                    pinned + row * stride, part->width * pixel_bytes);
}
