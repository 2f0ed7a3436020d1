/* Pinned host buffers, which a user fills and reads in place while the
 * GPU copies from and into them, and a few that stay for the next user:
 * pinning memory is slow. */
#include "cblur-gpu-context.h"

#include <glib/gi18n-lib.h>

/* enough for a band's source, its output and a third buffer beside them
 * (the variable blur's boxes) */
#define MAX_IDLE 3

/* A buffer is made this fraction larger than asked: a live preview's
 * band grows by a few rows and columns of halo from one frame to the
 * next as the radius grows, and pinning the next frame's buffer anew
 * would cost more than its blur. */
#define HEADROOM (1.0 / 16.0)

static guint reserved;   /* cblur_gpu_pinned_reserved */

/* The buffer stays mapped for its lifetime, readable and writable: the
 * user writes and reads it in place, and its CPU fallback reads and
 * writes it too.  CLIENT_STORAGE puts it in cached system memory, which
 * the GPU reaches by DMA; without it NVIDIA puts it in video memory,
 * which the CPU reads at a few MB/s. */
static void
reserve (CblurGpuPinned *pinned,
         gsize           size)
{
  const GLbitfield access = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT |
                            GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;

  if (pinned->buffer != 0 && pinned->size >= size)
    return;
  if (pinned->buffer != 0)
    glDeleteBuffers (1, &pinned->buffer);

  /* GL refuses empty storage */
  g_atomic_int_inc (&reserved);
  pinned->size = MAX (size + (gsize) (size * HEADROOM), 1);
  glGenBuffers (1, &pinned->buffer);
  glBindBuffer (GL_COPY_WRITE_BUFFER, pinned->buffer);
  glBufferStorage (GL_COPY_WRITE_BUFFER, pinned->size, NULL, access | GL_CLIENT_STORAGE_BIT);
  pinned->data = glMapBufferRange (GL_COPY_WRITE_BUFFER, 0, pinned->size, access);
  glBindBuffer (GL_COPY_WRITE_BUFFER, 0);
}

/* deleting a buffer unmaps it */
static void
delete (CblurGpuPinned *pinned)
{
  if (pinned->buffer != 0)
    glDeleteBuffers (1, &pinned->buffer);
  g_free (pinned);
}

/* the smallest idle buffer that holds size, else the largest */
static CblurGpuPinned *
take_idle (CblurGpu *gpu,
           gsize     size)
{
  CblurGpuPinned *best = NULL;
  guint           best_index = 0;
  guint           i;

  for (i = 0; gpu->pinned_idle != NULL && i < gpu->pinned_idle->len; i++)
    {
      CblurGpuPinned *pinned = g_ptr_array_index (gpu->pinned_idle, i);
      gboolean        fits = pinned->size >= size;

      if (best == NULL ||
          (fits && (best->size < size || pinned->size < best->size)) ||
          (!fits && best->size < size && pinned->size > best->size))
        {
          best = pinned;
          best_index = i;
        }
    }
  if (best == NULL)
    return g_new0 (CblurGpuPinned, 1);
  return g_ptr_array_steal_index_fast (gpu->pinned_idle, best_index);
}

CblurGpuPinned *
cblur_gpu_pinned_new (CblurGpu  *gpu,
                      gsize      size,
                      GError   **error)
{
  CblurGpuPinned *pinned = take_idle (gpu, size);

  reserve (pinned, size);
  if (!cblur_gpu_check (gpu, "alloc pinned buffer", error))
    {
      delete (pinned);
      return NULL;
    }
  /* the user is about to write where the mapping points */
  if (pinned->data == NULL)
    {
      cblur_gpu_fail (gpu);
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_OUT_OF_MEMORY,
                           _("a pixel buffer could not be mapped"));
      delete (pinned);
      return NULL;
    }
  gpu->pinned_out++;
  return pinned;
}

void
cblur_gpu_pinned_give_back (CblurGpu       *gpu,
                            CblurGpuPinned *pinned)
{
  gpu->pinned_out--;
  if (gpu->pinned_idle == NULL)
    gpu->pinned_idle = g_ptr_array_new_with_free_func (g_free);
  if (gpu->pinned_idle->len < MAX_IDLE)
    g_ptr_array_add (gpu->pinned_idle, pinned);
  else
    delete (pinned);
}

guint
cblur_gpu_pinned_reserved (void)
{
  return g_atomic_int_get (&reserved);
}

void
cblur_gpu_pinned_forget (CblurGpu *gpu)
{
  if (gpu->pinned_idle != NULL)
    g_ptr_array_set_size (gpu->pinned_idle, 0);
}

void
cblur_gpu_pinned_trim (CblurGpu *gpu)
{
  while (gpu->pinned_idle != NULL && gpu->pinned_idle->len > 0)
    delete (g_ptr_array_steal_index_fast (gpu->pinned_idle, gpu->pinned_idle->len - 1));
}
