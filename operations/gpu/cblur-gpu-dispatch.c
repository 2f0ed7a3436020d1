/* Compute dispatches, what they are bound to, and GPU timestamps around
 * them. */
#include "cblur-gpu-context.h"

void
cblur_gpu_bind_image (guint                  unit,
                      const CblurGpuTexture *texture,
                      CblurGpuAccess         access)
{
  static const GLenum modes[] = {
    [CBLUR_GPU_READ]       = GL_READ_ONLY,
    [CBLUR_GPU_WRITE]      = GL_WRITE_ONLY,
    [CBLUR_GPU_READ_WRITE] = GL_READ_WRITE,
  };

  glBindImageTexture (unit, texture->id, 0, GL_FALSE, 0, modes[access], GL_RGBA32F);
}

void
cblur_gpu_bind_buffer (guint  binding,
                       guint  buffer,
                       gsize  offset,
                       gsize  size)
{
  if (size == 0)
    glBindBufferBase (GL_SHADER_STORAGE_BUFFER, binding, buffer);
  else
    glBindBufferRange (GL_SHADER_STORAGE_BUFFER, binding, buffer, offset, size);
}

static GLbitfield
barrier_bits (CblurGpuBarrier barrier)
{
  return (barrier & CBLUR_GPU_BARRIER_IMAGES ? GL_SHADER_IMAGE_ACCESS_BARRIER_BIT : 0) |
         (barrier & CBLUR_GPU_BARRIER_TEXTURE_UPDATE ? GL_TEXTURE_UPDATE_BARRIER_BIT : 0) |
         (barrier & CBLUR_GPU_BARRIER_FRAMEBUFFER ? GL_FRAMEBUFFER_BARRIER_BIT : 0) |
         (barrier & CBLUR_GPU_BARRIER_BUFFER_UPDATE ? GL_BUFFER_UPDATE_BARRIER_BIT : 0) |
         (barrier & CBLUR_GPU_BARRIER_MAPPED ? GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT : 0);
}

void
cblur_gpu_dispatch (gint            x,
                    gint            y,
                    CblurGpuBarrier barrier)
{
  glDispatchCompute (x, y, 1);
  if (barrier != 0)
    glMemoryBarrier (barrier_bits (barrier));
}

void
cblur_gpu_barrier (CblurGpuBarrier barrier)
{
  glMemoryBarrier (barrier_bits (barrier));
}

void
cblur_gpu_flush (void)
{
  glFlush ();
}

struct _CblurGpuTimer
{
  GArray *queries;
};

CblurGpuTimer *
cblur_gpu_timer_new (void)
{
  CblurGpuTimer *timer = g_new0 (CblurGpuTimer, 1);

  timer->queries = g_array_new (FALSE, FALSE, sizeof (GLuint));
  return timer;
}

void
cblur_gpu_timer_mark (CblurGpuTimer *timer)
{
  GLuint query;

  glGenQueries (1, &query);
  glQueryCounter (query, GL_TIMESTAMP);
  g_array_append_val (timer->queries, query);
}

gdouble
cblur_gpu_timer_free (CblurGpuTimer *timer,
                      gboolean       read)
{
  GArray *queries = timer->queries;
  gdouble ms = 0;
  guint   i;

  for (i = 0; read && i + 1 < queries->len; i += 2)
    {
      GLuint64 begin = 0, end = 0;

      glGetQueryObjectui64v (g_array_index (queries, GLuint, i), GL_QUERY_RESULT, &begin);
      glGetQueryObjectui64v (g_array_index (queries, GLuint, i + 1), GL_QUERY_RESULT, &end);
      ms += (end - begin) / 1e6;
    }
  glDeleteQueries (queries->len, (GLuint *) queries->data);
  g_array_unref (queries);
  g_free (timer);
  return ms;
}
