/* How a region is cut into GL tiles, and the pixel buffers that carry a
 * tile to the GPU and back. */
#include "cblur-gl-private.h"

/* Below this edge a tile's halo would cost more than it saves in texture
 * memory, so the budget gives way instead. */
#define MIN_SPLIT_EDGE 256

/* the fewest tiles of at most max_tile along length, all but the last equal */
static gint
split (gint  length,
       gint  max_tile,
       gint *count)
{
  gint tile;

  *count = (length + max_tile - 1) / max_tile;
  tile = (length + *count - 1) / *count;
  *count = (length + tile - 1) / tile;
  return tile;
}

/* max_edge: output pixels a tile may have along either axis;
 * max_texels: input pixels (tile and halo) a tile may have */
void
cblur_gl_plan_tiles (gint         width,
                     gint         height,
                     gint         reach,
                     gint         max_edge,
                     gsize        max_texels,
                     CblurGlPlan *plan)
{
  plan->width = split (width, max_edge, &plan->n_x);
  plan->height = split (height, max_edge, &plan->n_y);

  /* split the longer side, which gains the most per halo added */
  while ((gsize) (plan->width + 2 * reach) * (plan->height + 2 * reach) > max_texels)
    {
      gboolean wide = plan->width >= plan->height;
      gint     length = wide ? width : height;
      gint    *edge = wide ? &plan->width : &plan->height;
      gint    *count = wide ? &plan->n_x : &plan->n_y;

      if (*edge <= MAX (MIN_SPLIT_EDGE, 2 * reach))
        break;
      *edge = split (length, MIN (*edge - 1, (length + *count) / (*count + 1)), count);
    }
}

/* Persistent mapping saves a map and unmap per tile; GL 4.3 without
 * ARB_buffer_storage maps per use.  A buffer the CPU reads must live in
 * (cached) system memory: NVIDIA puts one without CLIENT_STORAGE in video
 * memory, which the CPU reads at a few MB/s. */
void
cblur_gl_staging_init (CblurGl        *gl,
                       CblurGlStaging *staging,
                       GLenum          target,
                       gsize           size)
{
  GLbitfield access = target == GL_PIXEL_UNPACK_BUFFER ? GL_MAP_WRITE_BIT
                                                       : GL_MAP_READ_BIT;

  staging->target = target;
  staging->size = size;
  glGenBuffers (1, &staging->buffer);
  glBindBuffer (target, staging->buffer);
  if (gl->has_buffer_storage)
    {
      access |= GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
      glBufferStorage (target, size, NULL,
                       access | (target == GL_PIXEL_PACK_BUFFER ? GL_CLIENT_STORAGE_BIT : 0));
      staging->persistent = glMapBufferRange (target, 0, size, access);
    }
  else
    glBufferData (target, size, NULL,
                  target == GL_PIXEL_UNPACK_BUFFER ? GL_STREAM_DRAW : GL_STREAM_READ);
  glBindBuffer (target, 0);
}

/* NULL on failure, with the reason in glGetError */
gpointer
cblur_gl_staging_map (CblurGlStaging *staging)
{
  gpointer data;

  if (staging->persistent != NULL)
    return staging->persistent;

  glBindBuffer (staging->target, staging->buffer);
  data = glMapBufferRange (staging->target, 0, staging->size,
                           staging->target == GL_PIXEL_UNPACK_BUFFER
                             ? GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT
                             : GL_MAP_READ_BIT);
  glBindBuffer (staging->target, 0);
  return data;
}

void
cblur_gl_staging_unmap (CblurGlStaging *staging)
{
  if (staging->persistent != NULL)
    return;

  glBindBuffer (staging->target, staging->buffer);
  glUnmapBuffer (staging->target);
  glBindBuffer (staging->target, 0);
}

/* deleting a buffer unmaps it */
void
cblur_gl_staging_clear (CblurGlStaging *staging)
{
  if (staging->buffer != 0)
    glDeleteBuffers (1, &staging->buffer);
  staging->buffer = 0;
  staging->persistent = NULL;
}
