#include "config.h"
#include "cblur-backend.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-cpu.h"
#include "cblur-gl.h"
#include "cblur-settings.h"

/* What GEGL gives for a band, found once: src as the blur sees it (dst
 * grown by the reach), the part GEGL reads, and how. */
typedef struct
{
  CblurImage      halo;
  CblurImage      inside;
  gboolean        makes_abyss;   /* the backend makes what lies beyond `inside` */
  const CblurImage *read;        /* what GEGL reads: inside, or all of src */
  GeglAbyssPolicy abyss;
  gboolean        straight;
} Source;

static void
source_init (Source            *source,
             const CblurBandIo *band_io,
             gint               reach,
             const CblurImage  *src,
             const CblurImage  *dst)
{
  source->makes_abyss = cblur_band_io_band (band_io, reach, src, dst, &source->halo,
                                           &source->inside);
  source->straight = cblur_band_io_is_straight (band_io);
  source->read = source->makes_abyss ? &source->inside : src;
  source->abyss = source->makes_abyss ? band_io->abyss : GEGL_ABYSS_NONE;
}

/* Under auto a GL blur never waits for a compile: the CPU serves that
 * band.  On a software rasterizer, which auto leaves for the CPU, only
 * where asked (CBLUR_GL_NO_WAIT): there GL blurs are the tests'. */
gboolean
cblur_backend_gl_no_wait (void)
{
  gboolean is_software = TRUE;

  return cblur_settings ()->backend == CBLUR_BACKEND_CHOICE_AUTO &&
         cblur_gpu_state (FALSE, &is_software, NULL) == CBLUR_GPU_READY &&
         (!is_software || cblur_settings ()->gl_no_wait);
}

void
cblur_backend_gl_error (CblurRunReport *report,
                        const GError   *error)
{
  if (g_error_matches (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_NOT_READY))
    cblur_gl_start (CBLUR_GL_BLURS_ALL, 0);
  cblur_run_report_gl_error (report, error);
}

/* TRUE where the GPU blurred src into dst and GEGL has its rows; else src
 * is read, dst's released rows handed on, and report says why.  A band of
 * one tile streams, its rows going up as GEGL reads them; any other is
 * read whole first. */
static gboolean
blur_on_gl (const CblurBandMemory *band,
            const CblurKernel     *kernel,
            const CblurImage      *src,
            const CblurImage      *dst,
            CblurBandIo           *band_io,
            const Source          *from,
            CblurRunReport        *report)
{
  g_autoptr (GError) error = NULL;
  CblurGlReport      gl = { 0 };
  CblurGlSource      source = { band_io != NULL ? band_io->abyss : GEGL_ABYSS_NONE,
                                from->straight, NULL, from->read,
                                cblur_backend_gl_no_wait () };
  CblurGlBandMemory *memory = cblur_band_memory_gl (band);
  gboolean           streams = memory != NULL && band_io != NULL &&
                               cblur_gl_band_memory_streams (memory);
  gboolean           ok;

  if (streams)
    source.run = cblur_stream_start (band_io, from->read, dst);
  else
    cblur_band_io_read_all (band_io, src);
  ok = cblur_gl_blur (memory, kernel, src, dst,
                      band_io != NULL ? &source : NULL, &gl, &error);
  if (streams)
    cblur_stream_finish (source.run);
  else if (ok)
    cblur_band_io_write_all (band_io, dst);

  if (ok)
    cblur_run_report_gl (report, &gl);
  else
    cblur_backend_gl_error (report, error);
  return ok;
}

const gchar *
cblur_backend_why_cpu (CblurBackendKind      backend,
                       const CblurRunReport *report)
{
  if (report->gl_failure != NULL)
    return report->gl_failure;
  if (cblur_settings ()->backend == CBLUR_BACKEND_CHOICE_CPU)
    return "CBLUR_BACKEND=cpu";
  return backend == CBLUR_BACKEND_GL ? report->why_cpu : NULL;
}

/* A blur that changes nothing is a copy, on the CPU's threads, converted
 * as the CPU converts, whichever backend was chosen. */
static void
blur (CblurBandMemory   *band,
      CblurBackendKind   backend,
      const CblurKernel *kernel,
      const CblurImage  *src,
      const CblurImage  *dst,
      CblurBandIo       *band_io,
      CblurRunReport    *report)
{
  gboolean copies = cblur_backend_does_nothing (kernel, dst);
  Source   from;

  source_init (&from, band_io, kernel->reach, src, dst);
  report->ran_on = backend;
  if (backend == CBLUR_BACKEND_GL && !copies &&
      blur_on_gl (band, kernel, src, dst, band_io, &from, report))
    return;

  /* the GPU, where it failed, has read src, or at least its inside */
  if (copies)
    cblur_band_io_read_all (band_io, src);
  else if (backend == CBLUR_BACKEND_CPU && src->data != NULL)
    cblur_band_io_read_all (band_io, from.read);
  if (!copies)
    report->ran_on = CBLUR_BACKEND_CPU;
  cblur_cpu_blur_stream (kernel, copies ? src : &from.halo,
                         copies || !from.makes_abyss ? NULL : &from.inside,
                         copies ? GEGL_ABYSS_NONE : from.abyss, from.straight, dst, band_io);
  if (dst->data != NULL)
    cblur_band_io_write_all (band_io, dst);
}

void
cblur_backend_blur (CblurBandMemory   *band,
                    CblurBackendKind   backend,
                    const CblurKernel *kernel,
                    const CblurImage  *src,
                    const CblurImage  *dst,
                    CblurBandIo       *band_io,
                    CblurRunReport    *report)
{
  memset (report, 0, sizeof *report);
  blur (band, backend, kernel, src, dst, band_io, report);
  if (report->ran_on == CBLUR_BACKEND_CPU)
    report->why_cpu = cblur_backend_why_cpu (backend, report);
}
