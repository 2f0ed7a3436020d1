/* The textures a tile is blurred in, the copies between them and the
 * staging buffers, and GPU timestamps around those and the passes. */
#include "cblur-gl-private.h"

#include <string.h>

gsize
cblur_gl_texture_budget (const CblurGl *gl)
{
  /* CBLUR_GL_TEXTURE_BUDGET=BYTES: a smaller budget than the GPU's, for tests */
  gint64 bytes = cblur_setting_or (cblur_settings ()->gl_texture_budget, gl->texture_budget);

  return MIN ((gsize) bytes, gl->texture_budget);
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
  CblurGlTextures *res = &gl->textures;
  CblurGlSize      grown[CBLUR_GL_N_TEXTURES];
  gboolean         short_of = res->n_textures < n_textures;
  gsize            bytes = 0;
  gint             i;

  for (i = 0; i < MAX (n_textures, res->n_textures); i++)
    {
      grown[i] = i < res->n_textures ? res->sizes[i] : sizes[i];
      if (i < n_textures)
        {
          short_of |= grown[i].width < sizes[i].width || grown[i].height < sizes[i].height;
          grown[i].width = MAX (grown[i].width, sizes[i].width);
          grown[i].height = MAX (grown[i].height, sizes[i].height);
        }
      bytes += texture_bytes (&grown[i]);
    }

  if (short_of)
    {
      /* a wide tile after a tall one must not make huge squares */
      if (bytes > cblur_gl_texture_budget (gl))
        {
          glDeleteTextures (res->n_textures, res->textures);
          memset (res->textures, 0, sizeof res->textures);
          memcpy (grown, sizes, n_textures * sizeof *sizes);
          res->n_textures = n_textures;
        }
      for (i = 0; i < n_textures; i++)
        if (res->textures[i] == 0 || res->sizes[i].width != grown[i].width ||
            res->sizes[i].height != grown[i].height)
          {
            if (res->textures[i] != 0)
              glDeleteTextures (1, &res->textures[i]);
            glGenTextures (1, &res->textures[i]);
            glBindTexture (GL_TEXTURE_2D, res->textures[i]);
            glTexStorage2D (GL_TEXTURE_2D, 1, GL_RGBA32F, grown[i].width, grown[i].height);
            res->sizes[i] = grown[i];
          }
      glBindTexture (GL_TEXTURE_2D, 0);
      res->n_textures = MAX (res->n_textures, n_textures);
    }

  if (res->framebuffer == 0 && !gl->has_texture_sub_image)
    glGenFramebuffers (1, &res->framebuffer);
  return cblur_gl_check (gl, CBLUR_GL_STAGE_ALLOC, error);
}

/* byte offset of pixel x, y of an image in its staging buffer */
static gsize
staged_offset (const CblurImage *image,
               gint              x,
               gint              y)
{
  return ((gsize) y * image->stride + (gsize) x * CBLUR_CHANNELS) * sizeof (gfloat);
}

void
cblur_gl_upload (CblurGl             *gl,
                 const CblurGlJob    *job,
                 const GeglRectangle *piece,
                 gint                 tex_y)
{
  const CblurImage *src = job->src;

  if (src->format != NULL)
    {
      cblur_gl_transfer_native (gl, job, TRUE, gl->textures.textures[CBLUR_GL_INPUT], piece,
                                tex_y);
      return;
    }
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, job->staged->source.buffer);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, src->stride / CBLUR_CHANNELS);
  glBindTexture (GL_TEXTURE_2D, gl->textures.textures[CBLUR_GL_INPUT]);
  glTexSubImage2D (GL_TEXTURE_2D, 0, 0, tex_y, piece->width, piece->height, GL_RGBA, GL_FLOAT,
                   GSIZE_TO_POINTER (staged_offset (src, piece->x, piece->y)));
  glBindTexture (GL_TEXTURE_2D, 0);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, 0);
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, 0);
}

void
cblur_gl_download (CblurGl             *gl,
                   const CblurGlJob    *job,
                   GLuint               result,
                   const GeglRectangle *piece,
                   gint                 tex_y)
{
  const CblurImage     *dst = job->dst;
  const CblurGlStaging *output = &job->staged->output;
  gsize                 offset = staged_offset (dst, piece->x, piece->y);

  if (dst->format != NULL)
    {
      cblur_gl_transfer_native (gl, job, FALSE, result, piece, tex_y);
      return;
    }
  glBindBuffer (GL_PIXEL_PACK_BUFFER, output->buffer);
  glPixelStorei (GL_PACK_ROW_LENGTH, dst->stride / CBLUR_CHANNELS);
  /* NVIDIA reads a float framebuffer back at a few MB/s, a texture at
   * PCIe speed */
  if (gl->has_texture_sub_image)
    glGetTextureSubImage (result, 0, 0, tex_y, 0, piece->width, piece->height, 1, GL_RGBA,
                          GL_FLOAT, output->size - offset, GSIZE_TO_POINTER (offset));
  else
    {
      glBindFramebuffer (GL_READ_FRAMEBUFFER, gl->textures.framebuffer);
      glFramebufferTexture2D (GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_TEXTURE_2D, result, 0);
      glReadBuffer (GL_COLOR_ATTACHMENT0);
      glReadPixels (0, tex_y, piece->width, piece->height, GL_RGBA, GL_FLOAT,
                    GSIZE_TO_POINTER (offset));
      glBindFramebuffer (GL_READ_FRAMEBUFFER, 0);
    }
  glPixelStorei (GL_PACK_ROW_LENGTH, 0);
  glBindBuffer (GL_PIXEL_PACK_BUFFER, 0);
}

void
cblur_gl_download_barrier (void)
{
  glMemoryBarrier (GL_TEXTURE_UPDATE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
}

void
cblur_gl_stamps_init (CblurGlStamps *stamps)
{
  gint span;

  for (span = 0; span < CBLUR_GL_N_SPANS; span++)
    stamps->queries[span] = g_array_new (FALSE, FALSE, sizeof (GLuint));
}

void
cblur_gl_stamp (CblurGlStamps *stamps,
                CblurGlSpan    span)
{
  GLuint query;

  glGenQueries (1, &query);
  glQueryCounter (query, GL_TIMESTAMP);
  g_array_append_val (stamps->queries[span], query);
}

void
cblur_gl_stamps_clear (CblurGlStamps *stamps,
                       CblurGlReport *report)
{
  gdouble ms[CBLUR_GL_N_SPANS] = { 0 };
  gint    span;
  guint   i;

  for (span = 0; span < CBLUR_GL_N_SPANS; span++)
    {
      GArray *queries = stamps->queries[span];

      for (i = 0; report != NULL && i + 1 < queries->len; i += 2)
        {
          GLuint64 begin = 0, end = 0;

          glGetQueryObjectui64v (g_array_index (queries, GLuint, i), GL_QUERY_RESULT, &begin);
          glGetQueryObjectui64v (g_array_index (queries, GLuint, i + 1), GL_QUERY_RESULT, &end);
          ms[span] += (end - begin) / 1e6;
        }
      glDeleteQueries (queries->len, (GLuint *) queries->data);
      g_array_unref (queries);
    }

  if (report != NULL)
    {
      report->upload_ms += ms[CBLUR_GL_SPAN_UPLOAD];
      report->compute_ms += ms[CBLUR_GL_SPAN_COMPUTE];
      report->download_ms += ms[CBLUR_GL_SPAN_DOWNLOAD];
    }
}
