/* Pinned pixel buffers that carry a band to the GPU and back, leased to
 * GEGL's bands so that GEGL reads into and writes from them in place. */
#include "cblur-gl-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* Both buffers stay mapped for their lifetime, readable and writable: GEGL
 * writes the source and reads the output in place, and the CPU fallback
 * reads and writes both.  CLIENT_STORAGE keeps them in cached system
 * memory, which the GPU reaches by DMA; without it NVIDIA puts them in
 * video memory, which the CPU reads at a few MB/s. */
static void
staging_reserve (CblurGlStaging *staging,
                 gsize           size)
{
  const GLbitfield access = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT |
                            GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;

  if (staging->buffer != 0 && staging->size >= size)
    return;
  if (staging->buffer != 0)
    glDeleteBuffers (1, &staging->buffer);

  /* GL refuses empty storage */
  staging->size = MAX (size, 1);
  glGenBuffers (1, &staging->buffer);
  glBindBuffer (GL_COPY_WRITE_BUFFER, staging->buffer);
  glBufferStorage (GL_COPY_WRITE_BUFFER, staging->size, NULL,
                   access | GL_CLIENT_STORAGE_BIT);
  staging->mapping = glMapBufferRange (GL_COPY_WRITE_BUFFER, 0, staging->size, access);
  glBindBuffer (GL_COPY_WRITE_BUFFER, 0);
}

/* deleting a buffer unmaps it */
static void
staged_delete (CblurGlStaged *staged)
{
  if (staged->source.buffer != 0)
    glDeleteBuffers (1, &staged->source.buffer);
  if (staged->output.buffer != 0)
    glDeleteBuffers (1, &staged->output.buffer);
  g_free (staged);
}

/* rows of as many words as the image's format needs, float or native */
static void
point_at (CblurImage *image,
          gpointer    mapping)
{
  image->data = mapping;
  image->stride = cblur_image_packed_stride (image);
}

static gsize
staged_size (const CblurImage *image)
{
  return cblur_image_packed_stride (image) * image->height * sizeof (gfloat);
}

/* Staging for source and output's rectangles, which are pointed at it. */
CblurGlStaged *
cblur_gl_pool_lease (CblurGl     *gl,
                     CblurImage  *source,
                     CblurImage  *output,
                     GError     **error)
{
  CblurGlPool   *pool = &gl->pool;
  CblurGlStaged *staged = g_steal_pointer (&pool->idle);

  if (staged == NULL)
    staged = g_new0 (CblurGlStaged, 1);
  staging_reserve (&staged->source, staged_size (source));
  staging_reserve (&staged->output, staged_size (output));
  if (!cblur_gl_check (gl, CBLUR_GL_STAGE_ALLOC, error))
    {
      staged_delete (staged);
      return NULL;
    }
  /* GEGL is about to write where the mapping points */
  if (staged->source.mapping == NULL || staged->output.mapping == NULL)
    {
      gl->failed = TRUE;
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_OUT_OF_MEMORY,
                           _("a pixel buffer could not be mapped"));
      staged_delete (staged);
      return NULL;
    }

  point_at (source, staged->source.mapping);
  point_at (output, staged->output.mapping);
  if (pool->leased == NULL)
    pool->leased = g_ptr_array_new ();
  g_ptr_array_add (pool->leased, staged);
  return staged;
}

void
cblur_gl_pool_give_back (CblurGlPool   *pool,
                         CblurGlStaged *staged,
                         gboolean       current)
{
  g_ptr_array_remove_fast (pool->leased, staged);
  if (!current)
    g_free (staged);
  else if (pool->idle == NULL)
    pool->idle = staged;
  else
    staged_delete (staged);
}

CblurGlStaged *
cblur_gl_pool_find (const CblurGlPool *pool,
                    const CblurImage  *source,
                    const CblurImage  *output)
{
  guint i;

  for (i = 0; pool->leased != NULL && i < pool->leased->len; i++)
    {
      CblurGlStaged *staged = g_ptr_array_index (pool->leased, i);

      if (staged->source.mapping == source->data && staged->output.mapping == output->data)
        return staged;
    }
  return NULL;
}

gboolean
cblur_gl_pool_is_empty (const CblurGlPool *pool)
{
  return pool->leased == NULL || pool->leased->len == 0;
}

void
cblur_gl_pool_forget_idle (CblurGlPool *pool)
{
  g_clear_pointer (&pool->idle, g_free);
}
