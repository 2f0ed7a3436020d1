/* A tile's copies between the band's pinned memory and its textures, and
 * the GPU time of those and of the passes. */
#include "cblur-gl-internal.h"

/* byte offset of pixel x, y of an RGBA float image in its pinned memory */
static gsize
pinned_offset (const CblurImage *image,
               gint              x,
               gint              y)
{
  return ((gsize) y * image->stride + (gsize) x * CBLUR_CHANNELS) * sizeof (gfloat);
}

void
cblur_gl_upload (CblurGl             *gl,
                 const CblurGlJob    *job,
                 const GeglRectangle *part,
                 gint                 tex_y)
{
  const CblurImage      *src = job->src;
  const CblurGpuTexture *input = &gl->textures->textures[CBLUR_GL_INPUT];
  gsize                  offset = pinned_offset (src, part->x, part->y);

  if (src->format != NULL)
    cblur_gl_transfer_native (gl, job, TRUE, input, part, tex_y);
  else
    cblur_gpu_upload (input, tex_y, part->width, part->height, job->memory->source->buffer,
                      offset, src->stride / CBLUR_CHANNELS);
}

void
cblur_gl_download (CblurGl               *gl,
                   const CblurGlJob      *job,
                   const CblurGpuTexture *result,
                   const GeglRectangle   *part,
                   gint                   tex_y)
{
  const CblurImage     *dst = job->dst;
  const CblurGpuPinned *output = job->memory->output;
  gsize                 offset = pinned_offset (dst, part->x, part->y);

  if (dst->format != NULL)
    cblur_gl_transfer_native (gl, job, FALSE, result, part, tex_y);
  else
    cblur_gpu_download (gl->gpu, result, tex_y, part->width, part->height, output->buffer,
                        output->size, offset, dst->stride / CBLUR_CHANNELS);
}

void
cblur_gl_download_barrier (void)
{
  cblur_gpu_barrier (CBLUR_GPU_BARRIER_TEXTURE_UPDATE | CBLUR_GPU_BARRIER_FRAMEBUFFER);
}

void
cblur_gl_stamps_init (CblurGlStamps *stamps)
{
  gint span;

  for (span = 0; span < CBLUR_GL_N_SPANS; span++)
    stamps->timers[span] = cblur_gpu_timer_new ();
}

void
cblur_gl_stamp (CblurGlStamps *stamps,
                CblurGlSpan    span)
{
  cblur_gpu_timer_mark (stamps->timers[span]);
}

void
cblur_gl_stamps_clear (CblurGlStamps *stamps,
                       CblurGlReport *report)
{
  gdouble ms[CBLUR_GL_N_SPANS];
  gint    span;

  for (span = 0; span < CBLUR_GL_N_SPANS; span++)
    ms[span] = cblur_gpu_timer_free (g_steal_pointer (&stamps->timers[span]), report != NULL);
  if (report != NULL)
    {
      report->upload_ms += ms[CBLUR_GL_SPAN_UPLOAD];
      report->compute_ms += ms[CBLUR_GL_SPAN_COMPUTE];
      report->download_ms += ms[CBLUR_GL_SPAN_DOWNLOAD];
    }
}
