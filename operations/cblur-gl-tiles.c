/* How a band is cut into GL tiles, and the pixel buffers that carry a
 * band to the GPU and back. */
#include "cblur-gl-private.h"

#include <string.h>

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

/* Both buffers stay mapped for their lifetime, readable and writable: GEGL
 * writes the source and reads the output in place, and the CPU fallback
 * reads and writes both.  CLIENT_STORAGE keeps them in cached system
 * memory, which the GPU reaches by DMA; without it NVIDIA puts them in
 * video memory, which the CPU reads at a few MB/s. */
void
cblur_gl_staging_reserve (CblurGlStaging *staging,
                          gsize           size)
{
  const GLbitfield access = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT |
                            GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;

  if (staging->buffer != 0 && staging->size >= size)
    return;
  cblur_gl_staging_clear (staging);

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
void
cblur_gl_staging_clear (CblurGlStaging *staging)
{
  if (staging->buffer != 0)
    glDeleteBuffers (1, &staging->buffer);
  memset (staging, 0, sizeof *staging);
}
