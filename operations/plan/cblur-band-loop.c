#include "config.h"
#include "cblur-band-loop.h"

#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-backend.h"
#include "cblur-log.h"
#include "cblur-op.h"
#include "cblur-plan-private.h"

/* The one warning an op gives where the GPU fails, at its first failure:
 * the later ones fall back to the CPU as quietly, the log saying why.
 * Any thread. */
static void
warn_gpu_failed (const gchar *op,
                 const gchar *why)
{
  static GMutex      lock;
  static GHashTable *warned;   /* the ops' names */
  gboolean           first;

  g_mutex_lock (&lock);
  if (warned == NULL)
    warned = g_hash_table_new (g_str_hash, g_str_equal);
  first = g_hash_table_add (warned, (gpointer) op);
  g_mutex_unlock (&lock);
  if (first)
    g_warning (_("%s: the GPU failed (%s); this and later failures are blurred "
                 "on the CPU"), op, why);
}

/* The band blurred by the op's blur_band, and its report filled: where
 * it ran, why not on GL and the GPU's figures by the blur, the rest
 * here.  FALSE where
 * its memory could not be had. */
static gboolean
blur_band (const CblurOpBlur   *op_blur,
           const CblurBlur     *blur,
           CblurBackendKind     backend,
           const GeglRectangle *band,
           CblurRegionIo       *io,
           CblurRunReport      *report)
{
  gint64  started = g_get_monotonic_time ();
  gdouble read_before = io->band_io.read_ms;
  gdouble write_before = io->band_io.write_ms;

  io->band_io.read_kept = FALSE;
  if (!op_blur->blur_band (blur, backend, band, io, report))
    return FALSE;
  report->total_ms = (g_get_monotonic_time () - started) / 1000.0;
  report->read_ms = io->band_io.read_ms - read_before;
  report->write_ms = io->band_io.write_ms - write_before;
  report->read_kept = io->band_io.read_kept;
  report->modes[CBLUR_AXIS_X] = blur->modes[CBLUR_AXIS_X];
  report->modes[CBLUR_AXIS_Y] = blur->modes[CBLUR_AXIS_Y];
  report->mode_name = blur->mode_name;
  report->radii[CBLUR_AXIS_X] = blur->radii[CBLUR_AXIS_X];
  report->radii[CBLUR_AXIS_Y] = blur->radii[CBLUR_AXIS_Y];
  report->box_as_direct = blur->box_as_direct;
  if (report->gl_failure != NULL)
    warn_gpu_failed (op_blur->name, report->gl_failure);
  return TRUE;
}

/* what the band took on the backend that ran it, learned, and its line */
static void
report_band (const CblurOpBlur     *op_blur,
             const CblurBlur       *blur,
             const Babl            *format,
             const GeglRectangle   *band,
             gint                   level,
             const CblurPrediction *prediction,
             CblurRunReport        *report)
{
  CblurWork work = cblur_plan_work (op_blur, blur, format, band->width, band->height);

  cblur_choice_learn (&work, report->ran_on, report->total_ms);
  cblur_choice_report (prediction, report);
  /* one line a band, each with only its own figures, so that the
   * benchmark's sums over the lines are a region's */
  cblur_log_band (report, band, level);
  cblur_run_report_clear (report);
}

/* A region's bands and where each runs, as the loop goes. */
typedef struct
{
  const CblurOpBlur *op_blur;
  const CblurBlur   *blur;
  const Babl        *format;
  GeglRectangle      roi;        /* the region at its level */
  gint               level;
  CblurBackendKind   backend;
  CblurPrediction    prediction;
  gint               rows;       /* of each band */
} Bands;

/* The CPU hands the region's rows from y on to the GPU between bands
 * once that is ready and predicted to finish them first. */
static void
choose_rest (Bands *bands,
             gint   y)
{
  gint      left = bands->roi.y + bands->roi.height - y;
  CblurWork rest = cblur_plan_work (bands->op_blur, bands->blur, bands->format,
                                    bands->roi.width, left);

  if (cblur_choice_make (&rest, &bands->prediction) != CBLUR_BACKEND_GL)
    return;
  bands->backend = CBLUR_BACKEND_GL;
  bands->rows = bands->op_blur->band_rows (bands->blur, bands->backend, &bands->prediction,
                                           bands->level, bands->roi.width, left);
}

static gboolean
blur_bands (CblurPlan     *plan,
            Bands         *bands,
            CblurRegionIo *io,
            GeglOperation *operation)
{
  const GeglRectangle *roi = &bands->roi;
  CblurRunReport       report = { 0 };
  gint                 y;

  for (y = roi->y; y < roi->y + roi->height; y += bands->rows)
    {
      GeglRectangle band;

      if (y > roi->y && bands->backend == CBLUR_BACKEND_CPU)
        choose_rest (bands, y);
      band = (GeglRectangle) { roi->x, y, roi->width,
                               MIN (bands->rows, roi->y + roi->height - y) };
      if (!blur_band (bands->op_blur, bands->blur, bands->backend, &band, io, &report))
        {
          g_warning (_("%s: out of memory for a %d×%d region"), bands->op_blur->name,
                     band.width, band.height);
          return FALSE;
        }
      if (report.ran_on == CBLUR_BACKEND_GL)
        cblur_plan_ran_on_gpu (plan);
      report_band (bands->op_blur, bands->blur, bands->format, &band, bands->level,
                   &bands->prediction, &report);
      if (roi->height > bands->rows)
        gegl_operation_progress (operation, (gdouble) (y + band.height - roi->y) / roi->height,
                                 (gchar *) _("Blurring"));
    }
  return TRUE;
}

gboolean
cblur_plan_blur_region (const CblurBlur     *blur,
                        GeglOperation       *operation,
                        GeglBuffer          *input,
                        GeglBuffer          *aux,
                        GeglBuffer          *output,
                        const GeglRectangle *result,
                        gint                 level)
{
  CblurPlan    *plan = cblur_plan_of (operation);
  Bands         bands = { plan->op_blur, blur, gegl_operation_get_format (operation, "output"),
                          cblur_rectangle_at_level (result, level), level };
  CblurRegionIo io;
  CblurWork     work;
  gboolean      ok;

  if (bands.roi.width <= 0 || bands.roi.height <= 0)
    return TRUE;
  cblur_plan_region_begins (plan, blur, level);
  cblur_region_io_init (&io, operation, input, aux, output, level, blur->abyss, plan->kept);
  cblur_kept_source (plan->kept, input, level);
  work = cblur_plan_work (plan->op_blur, blur, bands.format, bands.roi.width, bands.roi.height);
  bands.backend = cblur_choice_make (&work, &bands.prediction);
  bands.rows = plan->op_blur->band_rows (blur, bands.backend, &bands.prediction, level,
                                   bands.roi.width, bands.roi.height);
  ok = blur_bands (plan, &bands, &io, operation);
  cblur_region_io_clear (&io);
  if (ok)
    cblur_choice_region_done (&work);
  return ok;
}
