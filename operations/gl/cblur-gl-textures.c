/* The call's view of the context, and the textures a tile is blurred in,
 * by role, which stay with the context: each grows to the largest of its
 * role that a tile has needed, within the GPU's budget. */
#include "cblur-gl-internal.h"

#include <string.h>

/* with the context current, when it lets go of its memory or goes */
static void
textures_free (gpointer data)
{
  CblurGlTextures *res = data;
  gint             i;

  for (i = 0; i < CBLUR_GL_N_TEXTURES; i++)
    cblur_gpu_texture_clear (&res->textures[i]);
  for (i = 0; i < (gint) G_N_ELEMENTS (res->native); i++)
    {
      cblur_gpu_buffer_free (&res->native[i].buffer);
      cblur_gpu_buffer_free (&res->native[i].tables);
    }
  g_free (res);
}

void
cblur_gl_view (CblurGpu      *gpu,
               CblurGl       *gl,
               CblurGlReport *report)
{
  static const gchar   key[] = "cblur-gl-textures";
  const CblurSettings *settings = cblur_settings ();

  gl->gpu = gpu;
  gl->limits = cblur_gpu_limits (gpu);
  gl->no_wait = FALSE;
  gl->two_shader = FALSE;
  gl->settled = FALSE;
  gl->max_tile = (gint) MIN (cblur_setting_or (settings->gl_max_tile, G_MAXINT), G_MAXINT);
  gl->texture_budget = MIN ((gsize) cblur_setting_or (settings->gl_texture_budget,
                                                       gl->limits->memory_budget),
                            gl->limits->memory_budget);
  gl->shared_memory = (gint) MIN (cblur_setting_or (settings->gl_shared_memory,
                                                    gl->limits->max_shared_memory),
                                  gl->limits->max_shared_memory);
  gl->textures = cblur_gpu_get_data (gpu, key);
  if (gl->textures == NULL)
    {
      gl->textures = g_new0 (CblurGlTextures, 1);
      cblur_gpu_set_data (gpu, key, gl->textures, textures_free);
    }
  if (report != NULL)
    {
      g_strlcpy (report->renderer, gl->limits->renderer, sizeof report->renderer);
      report->max_texture_size = gl->limits->max_texture_size;
    }
}

static gsize
texture_bytes (const CblurGlSize *size)
{
  return (gsize) size->width * size->height * CBLUR_GL_TEXEL_BYTES;
}

/* The check also catches errors left by the GL calls before it. */
gboolean
cblur_gl_textures_reserve (CblurGl            *gl,
                           gint                n_textures,
                           const CblurGlSize  *sizes,
                           GError            **error)
{
  CblurGlTextures *res = gl->textures;
  CblurGlSize      grown[CBLUR_GL_N_TEXTURES];
  gboolean         short_of = res->n_textures < n_textures;
  gsize            bytes = 0;
  gint             i;

  for (i = 0; i < MAX (n_textures, res->n_textures); i++)
    {
      const CblurGpuTexture *texture = &res->textures[i];

      grown[i] = i < res->n_textures ? (CblurGlSize) { texture->width, texture->height }
                                     : sizes[i];
      if (i < n_textures)
        {
          short_of |= grown[i].width < sizes[i].width || grown[i].height < sizes[i].height;
          grown[i].width = MAX (grown[i].width, sizes[i].width);
          grown[i].height = MAX (grown[i].height, sizes[i].height);
        }
      bytes += texture_bytes (&grown[i]);
    }

  /* a wide tile after a tall one must not make huge squares */
  if (short_of && bytes > gl->texture_budget)
    {
      for (i = 0; i < res->n_textures; i++)
        cblur_gpu_texture_clear (&res->textures[i]);
      memcpy (grown, sizes, n_textures * sizeof *sizes);
      res->n_textures = 0;
    }
  for (i = 0; short_of && i < n_textures; i++)
    cblur_gpu_texture_reserve (&res->textures[i], grown[i].width, grown[i].height);
  res->n_textures = MAX (res->n_textures, n_textures);
  return cblur_gpu_check (gl->gpu, "alloc textures", error);
}

/* Under none, black and white the map points beyond the inside to a made
 * column and row of the colour; under clamp and loop, and where the tile
 * is all inside, it never points there. */
gint
cblur_gl_made_lines (const CblurGlTile *tile)
{
  gboolean has_colour = tile->abyss != GEGL_ABYSS_CLAMP && tile->abyss != GEGL_ABYSS_LOOP;

  return has_colour && (tile->inside.width < tile->in_width ||
                        tile->inside.height < tile->in_height) ? 1 : 0;
}

gint
cblur_gl_input_rows (const CblurGlTile *tile)
{
  return tile->inside.height + cblur_gl_made_lines (tile);
}

/* Texture rows a multiple of 4 KiB apart put a column's texels in one
 * cache set where the texture lies in plain memory, as under a software
 * rasterizer; an odd width spreads them over every set. */
static CblurGlSize
spread (gint width,
        gint height)
{
  CblurGlSize size = { width | 1, height };

  return size;
}

/* Each role's texture for the tile: the input, the texture between and the
 * row scratch hold only the rows inside the image (and the made row), and
 * the input only their pixels inside (and the made column); the map reads
 * the abyss from them. */
static void
texture_sizes (const CblurKernel *kernel,
               const CblurGlTile *tile,
               CblurGlSize        sizes[CBLUR_GL_N_TEXTURES])
{
  gint out_width = tile->in_width - 2 * kernel->reach;
  gint rows = cblur_gl_input_rows (tile);
  gint i;

  sizes[CBLUR_GL_INPUT] = spread (tile->inside.width + cblur_gl_made_lines (tile), rows);
  sizes[CBLUR_GL_BETWEEN] = spread (out_width, rows);
  sizes[CBLUR_GL_OUTPUT] = spread (out_width, tile->in_height - 2 * kernel->reach);
  for (i = 0; i < 4; i++)
    {
      sizes[CBLUR_GL_ROW_SCRATCH + i] = spread (tile->in_width, rows);
      sizes[CBLUR_GL_COLUMN_SCRATCH + i] = spread (out_width, tile->in_height);
    }
}

gboolean
cblur_gl_textures_fit (const CblurKernel *kernel,
                       const GArray      *tiles,
                       CblurGlSize        sizes[CBLUR_GL_N_TEXTURES])
{
  gboolean made = FALSE;
  guint    i;
  gint     j;

  memset (sizes, 0, CBLUR_GL_N_TEXTURES * sizeof *sizes);
  for (i = 0; i < tiles->len; i++)
    {
      const CblurGlTile *tile = &g_array_index (tiles, CblurGlTile, i);
      CblurGlSize        tile_sizes[CBLUR_GL_N_TEXTURES];

      texture_sizes (kernel, tile, tile_sizes);
      for (j = 0; j < CBLUR_GL_N_TEXTURES; j++)
        {
          sizes[j].width = MAX (sizes[j].width, tile_sizes[j].width);
          sizes[j].height = MAX (sizes[j].height, tile_sizes[j].height);
        }
      made |= cblur_gl_made_lines (tile) > 0;
    }
  return made;
}
