#include "config.h"
#include "cblur-backend.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-cpu.h"
#include "cblur-gl.h"
#include "cblur-machine.h"
#include "cblur-memory.h"
#include "cblur-settings.h"

struct _CblurBand
{
  CblurGlBandMemory *memory;
  CblurImage         heap[2];   /* src and dst where not in the GPU's memory */
  gdouble            made_ms;   /* time it took to make */
};

gboolean
cblur_backend_does_nothing (const CblurKernel *kernel,
                            const CblurImage  *dst)
{
  return cblur_kernel_is_identity (kernel) || dst->width <= 0 || dst->height <= 0;
}

void
cblur_backend_keep_gpu (gboolean keep)
{
  if (keep)
    cblur_gpu_hold ();
  else
    cblur_gpu_unhold ();
}

CblurBackendKind
cblur_backend_likely (void)
{
  CblurBackendChoice choice = cblur_settings ()->backend;

  if (choice == CBLUR_BACKEND_CHOICE_CPU || !CBLUR_HAVE_GL)
    return CBLUR_BACKEND_CPU;
  if (choice == CBLUR_BACKEND_CHOICE_GL || cblur_machine_has_gpu ())
    return CBLUR_BACKEND_GL;
  return CBLUR_BACKEND_CPU;
}

gsize
cblur_backend_region_overhead (CblurBackendKind backend)
{
  return backend == CBLUR_BACKEND_GL ? 1024 * 1024 : 0;
}

/* the GL backend's band for whole images; on the CPU a 4K image or a
 * 12 MP photo with a long halo */
#define GPU_WHOLE_IMAGE_PIXELS (24 * 1024 * 1024)
#define CPU_WHOLE_IMAGE_PIXELS (16 * 1024 * 1024)

gsize
cblur_backend_whole_image_pixels (CblurBackendKind backend)
{
  gboolean is_software = TRUE;
  gsize    pixels;

  if (backend == CBLUR_BACKEND_CPU)
    pixels = CPU_WHOLE_IMAGE_PIXELS;
  else if (cblur_gl_available (&is_software, NULL) && !is_software)
    pixels = GPU_WHOLE_IMAGE_PIXELS;
  else
    return 0;
  return cblur_setting_or (cblur_settings ()->whole_image_pixels, pixels);
}

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
             const CblurStream *stream,
             gint               reach,
             const CblurImage  *src,
             const CblurImage  *dst)
{
  source->makes_abyss = cblur_stream_band (stream, reach, src, dst, &source->halo,
                                           &source->inside);
  source->straight = cblur_stream_is_straight (stream);
  source->read = source->makes_abyss ? &source->inside : src;
  source->abyss = source->makes_abyss ? stream->abyss : GEGL_ABYSS_NONE;
}

/* Under auto a GL blur never waits for a compile: the CPU serves that
 * band.  On a software rasterizer, which auto leaves for the CPU, only
 * where asked (CBLUR_GL_NO_WAIT): there GL blurs are the tests'. */
static gboolean
no_wait (void)
{
  gboolean is_software = TRUE;

  return cblur_settings ()->backend == CBLUR_BACKEND_CHOICE_AUTO &&
         cblur_gpu_state (FALSE, &is_software, NULL) == CBLUR_GPU_READY &&
         (!is_software || cblur_settings ()->gl_no_wait);
}

/* TRUE where the GPU blurred src into dst and GEGL has its rows; else src
 * is read, dst's released rows handed on, and report says why.  A band of
 * one tile streams, its rows going up as GEGL reads them; any other is
 * read whole first. */
static gboolean
blur_on_gl (const CblurBand   *band,
            const CblurKernel *kernel,
            const CblurImage  *src,
            const CblurImage  *dst,
            CblurStream       *stream,
            const Source      *from,
            CblurRunReport    *report)
{
  g_autoptr (GError) error = NULL;
  CblurGlReport      gl = { 0 };
  CblurGlSource      source = { stream != NULL ? stream->abyss : GEGL_ABYSS_NONE,
                                from->straight, NULL, from->read, no_wait () };
  gboolean           streams = band != NULL && band->memory != NULL && stream != NULL &&
                               cblur_gl_band_memory_streams (band->memory);
  gboolean           ok;

  if (streams)
    source.run = cblur_stream_start (stream, from->read, dst);
  else
    cblur_stream_read_all (stream, src);
  ok = cblur_gl_blur (band != NULL ? band->memory : NULL, kernel, src, dst,
                      stream != NULL ? &source : NULL, &gl, &error);
  if (streams)
    cblur_stream_finish (source.run);
  else if (ok)
    cblur_stream_write_all (stream, dst);

  if (ok)
    {
      g_strlcpy (report->renderer, gl.renderer, sizeof report->renderer);
      report->tiles = gl.tiles;
      report->upload_ms = gl.upload_ms;
      report->compute_ms = gl.compute_ms;
      report->download_ms = gl.download_ms;
    }
  else if (!g_error_matches (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_EXITING) &&
           !g_error_matches (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_NOT_READY))
    report->gl_failure = g_strdup (error->message);
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
  return backend == CBLUR_BACKEND_GL ? _("the GPU's programs for this blur are being "
                                         "compiled; the CPU blurs meanwhile")
                                     : NULL;
}

/* A blur that changes nothing is a copy, on the CPU's threads, converted
 * as the CPU converts, whichever backend was chosen. */
static void
blur (CblurBand         *band,
      CblurBackendKind   backend,
      const CblurKernel *kernel,
      const CblurImage  *src,
      const CblurImage  *dst,
      CblurStream       *stream,
      CblurRunReport    *report)
{
  gboolean copies = cblur_backend_does_nothing (kernel, dst);
  Source   from;

  source_init (&from, stream, kernel->reach, src, dst);
  report->ran_on = backend;
  if (backend == CBLUR_BACKEND_GL && !copies &&
      blur_on_gl (band, kernel, src, dst, stream, &from, report))
    return;

  /* the GPU, where it failed, has read src, or at least its inside */
  if (copies)
    cblur_stream_read_all (stream, src);
  else if (backend == CBLUR_BACKEND_CPU && src->data != NULL)
    cblur_stream_read_all (stream, from.read);
  if (!copies)
    report->ran_on = CBLUR_BACKEND_CPU;
  cblur_cpu_blur_stream (kernel, copies ? src : &from.halo,
                         copies || !from.makes_abyss ? NULL : &from.inside,
                         copies ? GEGL_ABYSS_NONE : from.abyss, from.straight, dst, stream);
  if (dst->data != NULL)
    cblur_stream_write_all (stream, dst);
}

void
cblur_backend_blur (CblurBand         *band,
                    CblurBackendKind   backend,
                    const CblurKernel *kernel,
                    const CblurImage  *src,
                    const CblurImage  *dst,
                    CblurStream       *stream,
                    CblurRunReport    *report)
{
  gint64  started = g_get_monotonic_time ();
  gdouble read_before = stream != NULL ? stream->read_ms : 0;
  gdouble write_before = stream != NULL ? stream->write_ms : 0;

  memset (report, 0, sizeof *report);
  report->modes[CBLUR_AXIS_X] = kernel->axes[CBLUR_AXIS_X].mode;
  report->modes[CBLUR_AXIS_Y] = kernel->axes[CBLUR_AXIS_Y].mode;
  report->radii[CBLUR_AXIS_X] = kernel->axes[CBLUR_AXIS_X].radius;
  report->radii[CBLUR_AXIS_Y] = kernel->axes[CBLUR_AXIS_Y].radius;
  report->box_as_direct = kernel->box_as_direct;
  if (stream != NULL)
    stream->read_kept = FALSE;
  blur (band, backend, kernel, src, dst, stream, report);
  report->read_kept = stream != NULL && stream->read_kept;
  if (report->ran_on == CBLUR_BACKEND_CPU)
    report->why_cpu = cblur_backend_why_cpu (backend, report);
  report->read_ms = stream != NULL ? stream->read_ms - read_before : 0;
  report->write_ms = stream != NULL ? stream->write_ms - write_before : 0;
  report->total_ms = (band != NULL ? band->made_ms : 0) +
                     (g_get_monotonic_time () - started) / 1000.0;
}

void
cblur_run_report_clear (CblurRunReport *report)
{
  g_clear_pointer (&report->gl_failure, g_free);
}

static gsize
image_bytes (const CblurImage *image)
{
  return image->stride * image->height * sizeof (gfloat);
}

/* image gets its pixels, which *kept remembers for freeing */
static gboolean
heap_image (CblurImage *image,
            CblurImage *kept)
{
  image->stride = cblur_image_packed_stride (image);
  image->data = cblur_pixels_alloc (image_bytes (image));
  *kept = *image;
  return image->data != NULL;
}

/* Where the backend makes the abyss beyond the input, GEGL reads only the
 * part of src inside; not where there is no halo to make. */
static gboolean
reads_inside (const CblurKernel *kernel,
              const CblurStream *stream,
              const CblurImage  *src,
              const CblurImage  *dst,
              GeglRectangle     *inside)
{
  GeglRectangle all = { src->x, src->y, src->width, src->height };

  return !cblur_backend_does_nothing (kernel, dst) &&
         cblur_stream_inside_rect (stream, &all, inside);
}

/* Under auto, where the GPU would blur the CPU's band's input whole, its
 * first uses rehearse that blur (cblur_gl_expect). */
static void
expect_on_gl (const CblurKernel *kernel,
              const CblurStream *stream,
              const CblurImage  *src,
              const CblurImage  *dst)
{
  const GeglRectangle *inside;
  gint64               whole;

  if (!CBLUR_HAVE_GL || stream == NULL ||
      cblur_settings ()->backend != CBLUR_BACKEND_CHOICE_AUTO)
    return;
  inside = &stream->inside;
  whole = cblur_setting_or (cblur_settings ()->whole_image_pixels, GPU_WHOLE_IMAGE_PIXELS);
  if (((gdouble) inside->width + 2.0 * kernel->reach) *
      ((gdouble) inside->height + 2.0 * kernel->reach) <= (gdouble) whole)
    cblur_gl_expect (kernel, stream, src, dst);
}

CblurBand *
cblur_band_new (CblurBackendKind   backend,
                const CblurKernel *kernel,
                const CblurStream *stream,
                CblurImage        *src,
                CblurImage        *dst)
{
  gint64                started = g_get_monotonic_time ();
  g_autoptr (CblurBand) band = g_new0 (CblurBand, 1);
  GeglRectangle         inside;
  gboolean              makes_abyss = reads_inside (kernel, stream, src, dst, &inside);

  /* the CPU reads rows and writes columns as its passes go */
  if (backend == CBLUR_BACKEND_CPU && !cblur_backend_does_nothing (kernel, dst))
    {
      expect_on_gl (kernel, stream, src, dst);
      return g_steal_pointer (&band);
    }

  /* where staging fails, so will the blur, which reports why */
  if (backend == CBLUR_BACKEND_GL)
    band->memory = cblur_gl_band_memory_new (kernel, makes_abyss ? stream : NULL, src, dst,
                                             NULL);
  else if (makes_abyss)
    cblur_stream_shrink (src, &inside);
  if (band->memory == NULL &&
      !(heap_image (src, &band->heap[0]) && heap_image (dst, &band->heap[1])))
    return NULL;
  band->made_ms = (g_get_monotonic_time () - started) / 1000.0;
  return g_steal_pointer (&band);
}

void
cblur_band_free (CblurBand *band)
{
  g_clear_pointer (&band->memory, cblur_gl_band_memory_free);
  cblur_pixels_free (band->heap[0].data);
  cblur_pixels_free (band->heap[1].data);
  g_free (band);
}
