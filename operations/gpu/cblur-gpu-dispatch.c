/* Compute dispatches, what they are bound to, and GPU timestamps around
 * them. */
#include "cblur-gpu-context.h"

void
cblur_gpu_bind_image (guint                  unit,
                      const CblurGpuTexture *texture,
                      GLenum                 access)
{
  glBindImageTexture (unit, texture->id, 0, GL_FALSE, 0, access, GL_RGBA32F);
}

void
cblur_gpu_bind_buffer (guint  binding,
                       GLuint buffer,
                       gsize  offset,
                       gsize  size)
{
  if (size == 0)
    glBindBufferBase (GL_SHADER_STORAGE_BUFFER, binding, buffer);
  else
    glBindBufferRange (GL_SHADER_STORAGE_BUFFER, binding, buffer, offset, size);
}

void
cblur_gpu_dispatch (gint       x,
                    gint       y,
                    GLbitfield barrier)
{
  glDispatchCompute (x, y, 1);
  if (barrier != 0)
    glMemoryBarrier (barrier);
}

void
cblur_gpu_barrier (GLbitfield barrier)
{
  glMemoryBarrier (barrier);
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
