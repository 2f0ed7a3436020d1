/* Textures, storage buffers, and the copies between them and pixel
 * buffers: what a compute pass reads and writes, and how it gets there. */
#include "cblur-gpu-context.h"

#define TEXEL_BYTES (4 * sizeof (GLfloat))

void
cblur_gpu_texture_reserve (CblurGpuTexture *texture,
                           gint             width,
                           gint             height)
{
  if (texture->id != 0 && texture->width == width && texture->height == height)
    return;
  cblur_gpu_texture_clear (texture);
  glGenTextures (1, &texture->id);
  glBindTexture (GL_TEXTURE_2D, texture->id);
  glTexStorage2D (GL_TEXTURE_2D, 1, GL_RGBA32F, width, height);
  glBindTexture (GL_TEXTURE_2D, 0);
  texture->width = width;
  texture->height = height;
}

void
cblur_gpu_texture_clear (CblurGpuTexture *texture)
{
  if (texture->id != 0)
    glDeleteTextures (1, &texture->id);
  texture->id = 0;
  texture->width = texture->height = 0;
}

guint
cblur_gpu_buffer_new (gsize         size,
                      gconstpointer data)
{
  GLuint buffer;

  glGenBuffers (1, &buffer);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, buffer);
  /* GL refuses empty storage */
  glBufferStorage (GL_SHADER_STORAGE_BUFFER, MAX (size, 1), data, 0);
  glBindBuffer (GL_SHADER_STORAGE_BUFFER, 0);
  return buffer;
}

void
cblur_gpu_buffer_free (guint *buffer)
{
  if (*buffer != 0)
    glDeleteBuffers (1, buffer);
  *buffer = 0;
}

void
cblur_gpu_upload (const CblurGpuTexture *texture,
                  gint                   y,
                  gint                   width,
                  gint                   height,
                  guint                  buffer,
                  gsize                  offset,
                  gsize                  row_texels)
{
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, buffer);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, row_texels);
  glBindTexture (GL_TEXTURE_2D, texture->id);
  glTexSubImage2D (GL_TEXTURE_2D, 0, 0, y, width, height, GL_RGBA, GL_FLOAT,
                   GSIZE_TO_POINTER (offset));
  glBindTexture (GL_TEXTURE_2D, 0);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, 0);
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, 0);
}

/* NVIDIA reads a float framebuffer back at a few MB/s, a texture at PCIe
 * speed: the framebuffer only where GL cannot read a texture's part. */
void
cblur_gpu_download (CblurGpu              *gpu,
                    const CblurGpuTexture *texture,
                    gint                   y,
                    gint                   width,
                    gint                   height,
                    guint                  buffer,
                    gsize                  buffer_size,
                    gsize                  offset,
                    gsize                  row_texels)
{
  glBindBuffer (GL_PIXEL_PACK_BUFFER, buffer);
  glPixelStorei (GL_PACK_ROW_LENGTH, row_texels);
  if (gpu->has_texture_sub_image)
    glGetTextureSubImage (texture->id, 0, 0, y, 0, width, height, 1, GL_RGBA, GL_FLOAT,
                          buffer_size - offset, GSIZE_TO_POINTER (offset));
  else
    {
      if (gpu->framebuffer == 0)
        glGenFramebuffers (1, &gpu->framebuffer);
      glBindFramebuffer (GL_READ_FRAMEBUFFER, gpu->framebuffer);
      glFramebufferTexture2D (GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                              texture->id, 0);
      glReadBuffer (GL_COLOR_ATTACHMENT0);
      glReadPixels (0, y, width, height, GL_RGBA, GL_FLOAT, GSIZE_TO_POINTER (offset));
      glBindFramebuffer (GL_READ_FRAMEBUFFER, 0);
    }
  glPixelStorei (GL_PACK_ROW_LENGTH, 0);
  glBindBuffer (GL_PIXEL_PACK_BUFFER, 0);
}

void
cblur_gpu_copy (guint  from,
                gsize  from_offset,
                guint  to,
                gsize  to_offset,
                gsize  size)
{
  glBindBuffer (GL_COPY_READ_BUFFER, from);
  glBindBuffer (GL_COPY_WRITE_BUFFER, to);
  glCopyBufferSubData (GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, from_offset, to_offset, size);
  glBindBuffer (GL_COPY_READ_BUFFER, 0);
  glBindBuffer (GL_COPY_WRITE_BUFFER, 0);
}
