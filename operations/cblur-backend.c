#include "config.h"
#include "cblur-backend.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-cpu.h"
#include "cblur-gl.h"
#include "cblur-memory.h"
#include "cblur-settings.h"

struct _CblurBand
{
  CblurGlStaged *staged;
  CblurImage     heap[2];   /* src and dst where not staged */
};

/* CBLUR_BACKEND=gl in a build without GL: said once, and the CPU blurs */
static void
warn_no_gl (void)
{
  static gsize warned = 0;

  if (g_once_init_enter (&warned))
    {
      g_warning (_("cblur:gaussian-blur: CBLUR_BACKEND=gl, but this build has "
                   "no GL (meson -Dgl=disabled); blurring on the CPU"));
      g_once_init_leave (&warned, 1);
    }
}

CblurBackendKind
cblur_backend_preferred (void)
{
  CblurBackendChoice choice = cblur_settings ()->backend;
  gboolean           is_software = FALSE;

  if (choice == CBLUR_BACKEND_CHOICE_CPU)
    return CBLUR_BACKEND_CPU;
  if (choice == CBLUR_BACKEND_CHOICE_GL && CBLUR_HAVE_GL)
    return CBLUR_BACKEND_GL;
  if (choice == CBLUR_BACKEND_CHOICE_GL)
    {
      warn_no_gl ();
      return CBLUR_BACKEND_CPU;
    }

  /* A software rasterizer is slower than the CPU path it would replace. */
  if (cblur_gl_available (&is_software, NULL) && !is_software)
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

void
cblur_backend_blur (CblurBackendKind   backend,
                    const CblurKernel *kernel,
                    const CblurImage  *src,
                    const CblurImage  *dst,
                    CblurStream       *stream,
                    CblurRunReport    *report)
{
  CblurImage halo;
  CblurImage inside;
  gboolean   makes_abyss = cblur_stream_band (stream, kernel->reach, src, dst, &halo, &inside);

  memset (report, 0, sizeof *report);

  if (backend == CBLUR_BACKEND_GL)
    {
      g_autoptr (GError) error = NULL;
      CblurGlReport      gl = { 0 };

      if (cblur_gl_blur (kernel, src, dst, stream, &gl, &error))
        {
          report->ran_on = CBLUR_BACKEND_GL;
          g_snprintf (report->detail, sizeof report->detail,
                      "renderer=\"%s\" tiles=%d upload=%.2fms compute=%.2fms download=%.2fms",
                      gl.renderer, gl.tiles, gl.upload_ms, gl.compute_ms,
                      gl.download_ms);
          return;
        }
      /* which read src, or at least its inside */
      if (!g_error_matches (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_EXITING))
        report->gl_failure = g_strdup (error->message);
    }
  else if (src->data != NULL)
    cblur_stream_read_all (stream, makes_abyss ? &inside : src);

  report->ran_on = CBLUR_BACKEND_CPU;
  cblur_cpu_blur_stream (kernel, &halo, makes_abyss ? &inside : NULL,
                         makes_abyss ? stream->abyss : GEGL_ABYSS_NONE,
                         cblur_stream_is_straight (stream), dst, stream);
  if (dst->data != NULL)
    cblur_stream_write_all (stream, dst);
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

  return !cblur_kernel_is_identity (kernel) && dst->width > 0 && dst->height > 0 &&
         cblur_stream_inside_rect (stream, &all, inside);
}

CblurBand *
cblur_band_new (CblurBackendKind   backend,
                const CblurKernel *kernel,
                const CblurStream *stream,
                CblurImage        *src,
                CblurImage        *dst)
{
  g_autoptr (CblurBand) band = g_new0 (CblurBand, 1);
  GeglRectangle         inside;
  gboolean              makes_abyss = reads_inside (kernel, stream, src, dst, &inside);

  /* where staging fails, so will the blur, which reports why */
  if (backend == CBLUR_BACKEND_GL)
    band->staged = cblur_gl_staged_new (kernel, makes_abyss ? stream : NULL, src, dst, NULL);
  else if (makes_abyss)
    cblur_stream_shrink (src, &inside);
  if (band->staged == NULL &&
      !(heap_image (src, &band->heap[0]) && heap_image (dst, &band->heap[1])))
    return NULL;
  return g_steal_pointer (&band);
}

void
cblur_band_free (CblurBand *band)
{
  g_clear_pointer (&band->staged, cblur_gl_staged_free);
  cblur_pixels_free (band->heap[0].data);
  cblur_pixels_free (band->heap[1].data);
  g_free (band);
}
