/* GEGL's side of the joined blurs.  A band's source is read, with its
 * halo under GEGL's clamp (what GEGL's own blur inside these ops reads
 * beyond the image), as premultiplied float on GEGL's threads, and its
 * result written back the same way, babl converting to the image's own
 * format there rather than on one thread after the op. */

#include "config.h"
#include <glib/gi18n-lib.h>

#include "cblur-choice.h"
#include "cblur-combine-op.h"
#include "cblur-format.h"
#include "cblur-log.h"
#include "cblur-memory.h"
#include "cblur-op.h"
#include "cblur-parallel.h"
#include "cblur-settings.h"

/* band memory: the GPU's bands take a 4K image with a long halo whole;
 * the CPU's hold a few of GEGL's tile rows of a photo at a time */
#define GPU_BAND_PIXELS (24 * 1024 * 1024)
#define CPU_BAND_PIXELS (4 * 1024 * 1024)
#define LEAST_BAND_ROWS 64

/* a thread's start, in rows of GEGL's reads and writes */
#define IO_ROW_COST 0.02

struct _CblurCombineOp
{
  gchar           *op;
  CblurBackendKind backend;
  gsize            whole_image_pixels;
  gint             keeps_gpu;   /* has blurred on GL: the context stays */
  gsize            warned;
};

CblurCombineOp *
cblur_combine_op_new (const gchar *op)
{
  CblurCombineOp *state = g_new0 (CblurCombineOp, 1);

  state->op = g_strdup (op);
  return state;
}

void
cblur_combine_op_free (CblurCombineOp *state)
{
  if (g_atomic_int_get (&state->keeps_gpu))
    cblur_backend_keep_gpu (FALSE);
  g_free (state->op);
  g_free (state);
}

static CblurWork
work_of (const CblurCombineOp *state,
         const CblurCombine   *combine,
         const Babl           *format,
         gint                  level,
         gdouble               width,
         gdouble               height)
{
  gdouble   radius = combine->radii[0] / (1 << level);
  CblurMode mode = cblur_kernel_resolve_mode (radius, CBLUR_MODE_AUTO);
  gint      reach = cblur_kernel_reach (radius, CBLUR_MODE_AUTO, 4);

  return cblur_work_of_region (state->op, cblur_mode_name (mode), babl_get_name (format),
                               mode == CBLUR_MODE_DIRECT ? reach : 0, reach, width, height);
}

static const Babl *
own_format (GeglOperation *operation)
{
  return cblur_format_for_source (gegl_operation_get_source_format (operation, "input"),
                                  gegl_operation_get_source_space (operation, "input"));
}

void
cblur_combine_op_prepare (CblurCombineOp     *state,
                          GeglOperation      *operation,
                          const CblurCombine *combine)
{
  GeglOperationAreaFilter *area = GEGL_OPERATION_AREA_FILTER (operation);
  const Babl              *format = own_format (operation);
  CblurPrediction          prediction;
  CblurWork                work;
  gdouble                  width, height;

  cblur_input_size (operation, &width, &height);
  work = work_of (state, combine, format, 0, width, height);
  state->backend = cblur_choice_make (&work, &prediction);
  state->whole_image_pixels = cblur_backend_whole_image_pixels (state->backend);
  area->left = area->right = area->top = area->bottom =
    cblur_combine_reach (combine, CBLUR_MODE_AUTO);
  gegl_operation_set_format (operation, "input", format);
  gegl_operation_set_format (operation, "output", format);
}

GeglRectangle
cblur_combine_op_region (CblurCombineOp      *state,
                         GeglOperation       *operation,
                         const GeglRectangle *roi)
{
  const GeglRectangle *whole = gegl_operation_source_get_bounding_box (operation, "input");
  GeglRectangle        region;

  if (whole == NULL || gegl_rectangle_is_infinite_plane (whole) ||
      !gegl_rectangle_intersect (&region, roi, whole) ||
      gegl_rectangle_equal (&region, whole) ||
      (gdouble) whole->width * whole->height > (gdouble) state->whole_image_pixels)
    return *roi;
  cblur_cache_on_node (operation);
  return *whole;
}

/* rows of a band's image read from GEGL, or written to it */
typedef struct
{
  GeglBuffer       *buffer;
  const CblurImage *image;
  const Babl       *format;
  gint              level;
  gboolean          write;
} Io;

static void
io_rows (gsize    offset,
         gsize    size,
         gpointer user_data)
{
  const Io         *io = user_data;
  const CblurImage *image = io->image;
  GeglRectangle     rows = { image->x, image->y + (gint) offset, image->width, (gint) size };
  gfloat           *data = cblur_image_row (image, offset);

  if (io->write)
    gegl_buffer_set (io->buffer, &rows, io->level, io->format, data,
                     image->stride * sizeof (gfloat));
  else
    gegl_buffer_get (io->buffer, &rows, 1.0 / (1 << io->level), io->format, data,
                     image->stride * sizeof (gfloat), GEGL_ABYSS_CLAMP);
}

static void
run_io (GeglBuffer       *buffer,
        const CblurImage *image,
        const Babl       *format,
        gint              level,
        gboolean          write)
{
  Io io = { buffer, image, format, level, write };

  cblur_parallel_distribute_range (image->height, IO_ROW_COST * image->width, io_rows, &io);
}

static gboolean
heap_image (CblurImage *image)
{
  image->stride = cblur_image_packed_stride (image);
  image->data = cblur_pixels_alloc (image->stride * image->height * sizeof (gfloat));
  return image->data != NULL;
}

/* one band: read, joined with its blurs, written */
static gboolean
combine_band (CblurCombineOp      *state,
              const CblurCombine  *combine,
              CblurBackendKind     backend,
              GeglBuffer          *input,
              GeglBuffer          *output,
              const Babl          *premultiplied,
              const GeglRectangle *band,
              const GeglRectangle *image,
              gint                 level,
              CblurRunReport      *report)
{
  gint       reach = cblur_combine_reach (combine, CBLUR_MODE_AUTO);
  CblurImage src = { NULL, band->x - reach, band->y - reach, band->width + 2 * reach,
                     band->height + 2 * reach, 0, NULL };
  CblurImage dst = { NULL, band->x, band->y, band->width, band->height, 0, NULL };
  gboolean   ok = heap_image (&src) && heap_image (&dst);

  if (ok)
    run_io (input, &src, premultiplied, level, FALSE);
  ok = ok && cblur_combine_band (combine, CBLUR_MODE_AUTO, backend, &src, &dst, image, report);
  if (ok)
    run_io (output, &dst, premultiplied, level, TRUE);
  cblur_pixels_free (src.data);
  cblur_pixels_free (dst.data);
  if (report->gl_failure != NULL)
    cblur_warn_gpu_failed (&state->warned, state->op, report->gl_failure);
  return ok;
}

static gint
band_rows (CblurBackendKind backend,
           gint             reach,
           gint             width,
           gint             height)
{
  gint64 budget = cblur_setting_or (cblur_settings ()->band_pixels,
                                    backend == CBLUR_BACKEND_GL ? GPU_BAND_PIXELS
                                                                : CPU_BAND_PIXELS);
  gint64 rows = budget / ((gint64) width + 2 * reach) - 2 * reach;
  gint64 bands;

  rows = CLAMP (rows, MIN (height, MAX (LEAST_BAND_ROWS, 2 * reach)), height);
  bands = (height + rows - 1) / rows;
  return (gint) ((height + bands - 1) / bands);
}

gboolean
cblur_combine_op_process (CblurCombineOp      *state,
                          GeglOperation       *operation,
                          const CblurCombine  *combine,
                          GeglBuffer          *input,
                          GeglBuffer          *output,
                          const GeglRectangle *result,
                          gint                 level)
{
  GeglRectangle   roi = cblur_rectangle_at_level (result, level);
  const Babl     *format = gegl_operation_get_format (operation, "output");
  const Babl     *premultiplied =
    babl_format_with_space ("RaGaBaA float", babl_format_get_space (format));
  CblurCombine    scaled = *combine;
  CblurWork       work;
  CblurPrediction prediction;
  CblurBackendKind backend;
  GeglRectangle   image;
  gint            rows, y;

  if (roi.width <= 0 || roi.height <= 0)
    return TRUE;
  image = *gegl_buffer_get_abyss (input);
  if (!gegl_rectangle_is_infinite_plane (&image))
    image = cblur_rectangle_at_level (&image, level);
  scaled.radii[0] /= 1 << level;
  scaled.radii[1] /= 1 << level;
  work = work_of (state, combine, format, level, roi.width, roi.height);
  backend = cblur_choice_make (&work, &prediction);
  rows = band_rows (backend, cblur_combine_reach (&scaled, CBLUR_MODE_AUTO), roi.width,
                    roi.height);
  for (y = roi.y; y < roi.y + roi.height; y += rows)
    {
      GeglRectangle  band = { roi.x, y, roi.width, MIN (rows, roi.y + roi.height - y) };
      CblurRunReport report = { 0 };
      CblurWork      done = work_of (state, combine, format, level, band.width, band.height);

      if (!combine_band (state, &scaled, backend, input, output, premultiplied, &band, &image,
                         level, &report))
        {
          g_warning (_("cblur:%s: out of memory for a %d×%d region"), state->op,
                     band.width, band.height);
          return FALSE;
        }
      if (report.ran_on == CBLUR_BACKEND_GL &&
          g_atomic_int_compare_and_exchange (&state->keeps_gpu, FALSE, TRUE))
        cblur_backend_keep_gpu (TRUE);
      cblur_choice_learn (&done, report.ran_on, report.total_ms);
      cblur_choice_report (&prediction, &report);
      cblur_log_band (&report, &band, level);
      cblur_run_report_clear (&report);
    }
  cblur_choice_region_done (&work);
  return TRUE;
}

void
cblur_combine_op_threshold (const Babl     *space,
                            gdouble         threshold,
                            CblurThreshold *out)
{
  gdouble red, green, blue;
  gfloat  curved = threshold;

  if (space == NULL)
    space = babl_space ("sRGB");
  babl_space_get_rgb_luminance (space, &red, &green, &blue);
  out->luminance[0] = red;
  out->luminance[1] = green;
  out->luminance[2] = blue;
  babl_process (babl_fish (babl_format_with_space ("Y' float", space),
                           babl_format_with_space ("Y float", space)),
                &curved, &out->threshold, 1);
}
