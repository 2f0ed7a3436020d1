#include "config.h"
#include "cblur-backend-variable.h"

#include <string.h>
#include <gegl.h>
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-backend.h"
#include "cblur-backend-offer.h"
#include "cblur-cpu-variable.h"
#include "cblur-gl-variable.h"
#include "cblur-memory.h"
#include "cblur-pixel.h"
#include "cblur-settings.h"

struct _CblurVariableBandMemory
{
  CblurBackendKind       backend;  /* the one chosen */
  CblurGlVariableMemory *memory;   /* GL's, or NULL */
  gpointer               heap[3];  /* src, dst and boxes where not in GL's */
  CblurVariableBoxes     boxes;
  gchar                 *no_memory;   /* why GL could not stage the band */
};

/* the rows of the image's rectangle, as its format stores them or in
 * premultiplied float: the CPU's lines convert them as they go */
static gpointer
heap_image (CblurImage *image)
{
  image->stride = image->format != NULL ? cblur_image_packed_stride (image)
                                        : (gsize) image->width * CBLUR_CHANNELS;
  image->data = cblur_pixels_take (image->stride * image->height * sizeof (gfloat));
  return image->data;
}

CblurVariableBandMemory *
cblur_variable_band_memory_new (CblurBackendKind    backend,
                                CblurImage         *src,
                                CblurImage         *dst,
                                CblurVariableBoxes *boxes)
{
  CblurVariableBandMemory *band = g_new0 (CblurVariableBandMemory, 1);

  band->backend = backend;
  /* where staging fails, the band goes on the heap, and the blur on the
   * CPU, which reports why */
  if (backend == CBLUR_BACKEND_GL)
    {
      g_autoptr (GError) error = NULL;

      band->memory = cblur_gl_variable_memory_new (src, dst, boxes, &error);
      if (band->memory == NULL)
        band->no_memory = g_strdup (error->message);
    }
  if (band->memory == NULL)
    {
      band->heap[0] = heap_image (src);
      band->heap[1] = heap_image (dst);
      /* an 8-bit mask's bytes where it has a table, a box a pixel else */
      if (boxes->table != NULL)
        band->heap[2] = boxes->codes = cblur_pixels_take ((gsize) src->width * src->height);
      else
        band->heap[2] = boxes->widths =
          cblur_pixels_take ((gsize) src->width * src->height * sizeof (CblurBoxWidth));
    }
  band->boxes = *boxes;
  return band;
}

void
cblur_backend_variable_expect (const CblurImage *src,
                               const CblurImage *dst,
                               gboolean          codes)
{
  if (cblur_settings ()->backend == CBLUR_BACKEND_CHOICE_AUTO &&
      (gdouble) src->width * src->height <= (gdouble) cblur_backend_gpu_whole_image_pixels ())
    cblur_gl_variable_expect (src, dst, codes);
}

void
cblur_variable_band_memory_free (CblurVariableBandMemory *band)
{
  gint i;

  g_clear_pointer (&band->memory, cblur_gl_variable_memory_free);
  for (i = 0; i < 3; i++)
    cblur_pixels_free (band->heap[i]);
  g_free (band->no_memory);
  g_free (band);
}

/* TRUE where the GPU blurred src into dst and GEGL has its rows; else src
 * is read, dst's released rows handed on, and error says why. */
static gboolean
blur_on_gl (CblurVariableBandMemory  *band,
            const CblurVariable      *variable,
            const CblurImage         *src,
            const CblurVariableMasks *masks,
            GeglAbyssPolicy           abyss,
            CblurBandIo              *band_io,
            const CblurImage         *dst,
            CblurRunReport           *report,
            GError                  **error)
{
  CblurGlReport gl = { 0 };
  CblurGlSource source = { abyss, FALSE, NULL, src, cblur_backend_gl_no_wait () };
  gboolean      streams = band_io != NULL && abyss != GEGL_ABYSS_LOOP;
  gboolean      ok;

  if (streams)
    source.run = cblur_stream_start (band_io, src, dst);
  else if (band_io != NULL)
    cblur_band_io_read_all (band_io, src);
  ok = cblur_gl_variable_blur (band->memory, variable, src, masks, &source, dst, &gl, error);
  if (streams)
    cblur_stream_finish (source.run);
  else if (ok && band_io != NULL)
    cblur_band_io_write_all (band_io, dst);
  if (ok)
    cblur_run_report_gl (report, &gl);
  return ok;
}

void
cblur_backend_variable_blur (CblurVariableBandMemory  *band,
                             const CblurVariable      *variable,
                             const CblurImage         *src,
                             const CblurVariableMasks *masks,
                             GeglAbyssPolicy           abyss,
                             CblurBandIo              *band_io,
                             const CblurImage         *dst,
                             CblurRunReport           *report)
{
  g_autoptr (GError) error = NULL;

  memset (report, 0, sizeof *report);
  report->ran_on = CBLUR_BACKEND_GL;
  if (band->memory != NULL &&
      blur_on_gl (band, variable, src, masks, abyss, band_io, dst, report, &error))
    return;
  if (band->memory == NULL && band_io != NULL)
    cblur_band_io_read_all (band_io, src);
  if (band->no_memory != NULL)
    report->gl_failure = g_strdup (band->no_memory);
  else if (band->memory != NULL)
    cblur_backend_gl_error (report, error);
  report->ran_on = CBLUR_BACKEND_CPU;
  report->why_cpu = cblur_backend_why_cpu (band->backend, report);
  cblur_cpu_variable_blur (variable, src, &band->boxes, masks, abyss, dst);
  if (band_io != NULL)
    cblur_band_io_write_all (band_io, dst);
}
