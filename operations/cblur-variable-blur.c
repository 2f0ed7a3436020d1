/* cblur:variable-blur — blurs each pixel by its own Gaussian, its standard
 * deviation read from a mask, through box passes of a width per pixel.
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 3 of the License, or (at your
 * option) any later version.
 */

#include "config.h"
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-kernel.h"
#include "cblur-variable.h"

#ifdef GEGL_PROPERTIES

property_double (radius, _("Radius"), 10.0)
  description (_("Standard deviation (σ) of the blur where the mask is white, "
                 "that share of it where grey: radius 10 blurs as GIMP's "
                 "Variable Blur at radius 10 and Gaussian Blur (GPU or CPU) "
                 "at radius 30, whose radius is 3σ"))
  value_range (0.0, CBLUR_VARIABLE_RADIUS_MAX)
  ui_range    (0.0, 100.0)
  ui_gamma    (2.0)
  ui_digits   (1)
  ui_meta     ("unit", "pixel-distance")

property_boolean (linear_mask, _("Linear mask"), FALSE)
  description (_("Read the mask as linear grey rather than perceptual grey"))

property_int (iterations, _("Box passes"), 4)
  description (_("Box filter passes per axis: more passes come closer to a "
                 "true Gaussian"))
  value_range (CBLUR_ITERATIONS_MIN, CBLUR_ITERATIONS_MAX)

property_enum (abyss_policy, _("Abyss policy"), GeglAbyssPolicy,
               gegl_abyss_policy, GEGL_ABYSS_CLAMP)
  description (_("How image edges are handled"))

#else

#define GEGL_OP_COMPOSER
#define GEGL_OP_BUNDLE
#define GEGL_OP_NAME     cblur_variable_blur
#define GEGL_OP_C_SOURCE cblur-variable-blur.c

#include "gegl-op.h"

#include "cblur-backend-variable.h"
#include "cblur-choice.h"
#include "cblur-format.h"
#include "cblur-log.h"
#include "cblur-memory.h"
#include "cblur-op.h"
#include "cblur-parallel.h"
#include "cblur-pixel.h"
#include "cblur-settings.h"

typedef struct
{
  gsize whole_image_pixels;  /* cblur_backend_whole_image_pixels */
} State;

static gint
reach_at_level (GeglProperties *o,
                gint            level)
{
  return cblur_variable_reach (o->radius / (1 << level), o->iterations);
}

/* a region's blur at level, as the backend choice weighs it: its pixels
 * with their halo, in the op's format */
static CblurWork
work_of (GeglProperties      *o,
         const Babl          *format,
         const GeglRectangle *region,
         gint                 level)
{
  return cblur_work_of_region ("variable-blur", "variable", babl_get_name (format), 0,
                               reach_at_level (o, level), region->width, region->height);
}

static void
prepare (GeglOperation *operation)
{
  GeglProperties *o = GEGL_PROPERTIES (operation);
  const Babl     *format =
    cblur_format_for_source (gegl_operation_get_source_format (operation, "input"),
                             gegl_operation_get_source_space (operation, "input"));
  State          *state = o->user_data;
  CblurWork       work;
  CblurPrediction prediction;
  gdouble         width, height;

  if (state == NULL)
    o->user_data = state = g_new0 (State, 1);
  /* the GPU starts as soon as the graph says it will pay */
  cblur_input_size (operation, &width, &height);
  work = work_of (o, format, GEGL_RECTANGLE (0, 0, width, height), 0);
  cblur_choice_make (&work, &prediction);
  /* the whole image for any region as far as the CPU's memory allows:
   * the boxes of a region's halo cost what its own pixels do */
  state->whole_image_pixels = cblur_backend_whole_image_pixels (CBLUR_BACKEND_CPU);

  gegl_operation_set_format (operation, "input", format);
  gegl_operation_set_format (operation, "output", format);
  gegl_operation_set_format (operation, "aux",
                             babl_format_with_space (o->linear_mask ? "Y float" : "Y' float",
                                                     gegl_operation_get_source_space (operation,
                                                                                      "aux")));
}

static void
finalize (GObject *object)
{
  GeglProperties *o = GEGL_PROPERTIES (object);

  g_clear_pointer (&o->user_data, g_free);
  G_OBJECT_CLASS (gegl_op_parent_class)->finalize (object);
}

static GeglRectangle
get_bounding_box (GeglOperation *operation)
{
  const GeglRectangle *in_rect = gegl_operation_source_get_bounding_box (operation, "input");

  return in_rect != NULL ? *in_rect : *GEGL_RECTANGLE (0, 0, 0, 0);
}

/* both pads, for the boxes of the passes before the last */
static GeglRectangle
grown_by_reach (GeglOperation       *operation,
                const GeglRectangle *roi)
{
  gint          reach = reach_at_level (GEGL_PROPERTIES (operation), 0);
  GeglRectangle grown = *roi;

  if (gegl_rectangle_is_infinite_plane (&grown))
    return grown;
  grown.x -= reach;
  grown.y -= reach;
  grown.width += 2 * reach;
  grown.height += 2 * reach;
  return grown;
}

static GeglRectangle
get_required_for_output (GeglOperation       *operation,
                         const gchar         *input_pad,
                         const GeglRectangle *roi)
{
  return grown_by_reach (operation, roi);
}

static GeglRectangle
get_invalidated_by_change (GeglOperation       *operation,
                           const gchar         *input_pad,
                           const GeglRectangle *input_region)
{
  return grown_by_reach (operation, input_region);
}

/* A region's halo inside the input costs as much as its own pixels, and
 * GEGL renders in chunks, each with its own: the whole image at once,
 * which reads only itself, where it fits the CPU's memory, pays it once,
 * and GEGL's cache serves the other chunks. */
static GeglRectangle
get_cached_region (GeglOperation       *operation,
                   const GeglRectangle *roi)
{
  State         *state = GEGL_PROPERTIES (operation)->user_data;
  GeglRectangle  whole = get_bounding_box (operation);

  if (state == NULL || gegl_rectangle_is_infinite_plane (&whole) ||
      (gdouble) whole.width * whole.height > (gdouble) state->whole_image_pixels)
    return *roi;
  if (!gegl_rectangle_equal (roi, &whole))
    cblur_cache_on_node (operation);
  return whole;
}

/* Radius 0, or no mask, hands the input on untouched, not even
 * converted: every pixel's mask is 0 there.  No input gives nothing. */
static gboolean
operation_process (GeglOperation        *operation,
                   GeglOperationContext *context,
                   const gchar          *output_prop,
                   const GeglRectangle  *result,
                   gint                  level)
{
  GeglOperationClass *parent = GEGL_OPERATION_CLASS (gegl_op_parent_class);

  if (reach_at_level (GEGL_PROPERTIES (operation), 0) == 0 ||
      gegl_operation_context_get_object (context, "aux") == NULL ||
      gegl_operation_context_get_object (context, "input") == NULL)
    {
      gegl_operation_context_set_object (context, "output",
                                         gegl_operation_context_get_object (context, "input"));
      return TRUE;
    }

  return parent->process (operation, context, output_prop, result, level);
}

/* GEGL's side of a region: its rows come in and go out on GEGL's threads,
 * rows of the source with their boxes, made from the mask's rows as they
 * come.  Where native formats are set, rows go in and out as GEGL stores
 * them, and these threads convert them (as the Gaussian blur's do). */
typedef struct
{
  /* both bounded by the input's extent: what is read lies inside it, but
   * for loop's abyss on a part of the input, which GEGL makes beyond it
   * (the mask's by its edge pixels) */
  GeglBuffer          *input;
  GeglBuffer          *aux;
  GeglBuffer          *output;
  const Babl          *premultiplied;
  const CblurFormat   *read_native;
  const CblurFormat   *write_native;
  const Babl          *mask_format;
  gint                 level;
  GeglAbyssPolicy      abyss;
  const CblurVariable *variable;
  const CblurImage    *image;   /* src on the way in, dst on the way out */
  gint                 top;     /* the image's rows [top, bottom) go in or out */
  gint                 bottom;
  /* the band's; its table, where the mask is stored a byte a pixel, the
   * box of each byte */
  CblurVariableBoxes   boxes;
} Io;

#define IO_ROWS 32

static GeglRectangle
io_rows (const Io *io,
         gsize     group)
{
  const CblurImage *image = io->image;
  gint              y = io->top + group * IO_ROWS;

  return (GeglRectangle) { image->x, image->y + y, image->width,
                           MIN (IO_ROWS, io->bottom - y) };
}

/* rows' pixels as the band holds them: as stored, or in premultiplied
 * float where the op does not read the stored format */
static void
read_pixels (const Io            *io,
             const GeglRectangle *rows)
{
  const CblurImage *image = io->image;

  gegl_buffer_get (io->input, rows, 1.0 / (1 << io->level),
                   image->format != NULL ? image->format->babl : io->premultiplied,
                   cblur_image_row (image, rows->y - image->y), image->stride * sizeof (gfloat),
                   io->abyss);
}

/* the boxes of the rows' pixels from the mask there, or the mask's bytes
 * where the band has their table; mask: room for their values in float */
static void
read_widths (const Io            *io,
             const GeglRectangle *rows,
             gfloat              *mask)
{
  const CblurVariableBoxes *boxes = &io->boxes;
  gsize                     first = (gsize) (rows->y - io->image->y) * io->image->width;
  gsize                     n = (gsize) rows->width * rows->height;

  if (boxes->table == NULL)
    {
      gegl_buffer_get (io->aux, rows, 1.0 / (1 << io->level), io->mask_format, mask,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_CLAMP);
      cblur_variable_widths (io->variable, mask, boxes->widths + first, n);
      return;
    }
  gegl_buffer_get (io->aux, rows, 1.0, gegl_buffer_get_format (io->aux),
                   boxes->codes + first, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_CLAMP);
}

static void
read_rows (gsize    first,
           gsize    count,
           gpointer user_data)
{
  const Io *io = user_data;
  gfloat   *mask = g_new (gfloat, (gsize) io->image->width * IO_ROWS);
  gsize     group;

  for (group = first; group < first + count; group++)
    {
      GeglRectangle rows = io_rows (io, group);

      read_pixels (io, &rows);
      read_widths (io, &rows, mask);
    }
  g_free (mask);
}

static void
write_rows (gsize    first,
            gsize    count,
            gpointer user_data)
{
  const Io         *io = user_data;
  const CblurImage *image = io->image;
  gsize             group;

  for (group = first; group < first + count; group++)
    {
      GeglRectangle rows = io_rows (io, group);

      gegl_buffer_set (io->output, &rows, io->level,
                       image->format != NULL ? image->format->babl : io->premultiplied,
                       cblur_image_row (image, rows.y - image->y),
                       image->stride * sizeof (gfloat));
    }
}

/* rows [top, bottom) of image go in or out */
static gsize
io_groups (Io               *io,
           const CblurImage *image,
           gint              top,
           gint              bottom)
{
  io->image = image;
  io->top = top;
  io->bottom = bottom;
  return (bottom - top + IO_ROWS - 1) / IO_ROWS;
}

/* A band of the region with its halo holds at most this many pixels:
 * source, boxes, the pass between and the result take about 56 bytes a
 * pixel, and a 4K image at radius 100 is one band.  While the CPU serves
 * until the GPU is ready, bands of a few hundred rows of a 4K image, so
 * that the GPU takes the rest soon after. */
#define BAND_PIXELS           (16 * 1024 * 1024)
#define HANDING_OVER_PIXELS   (2 * 1024 * 1024)

/* rows of a band of the region, whose halo is at most two thirds of it */
static gint
band_rows (const CblurVariable   *variable,
           const GeglRectangle   *roi,
           const CblurPrediction *prediction)
{
  gint   reach = variable->reach;
  gint64 budget = cblur_setting_or (cblur_settings ()->band_pixels,
                                    prediction->hands_over ? HANDING_OVER_PIXELS
                                                           : BAND_PIXELS);
  gint64 rows = budget / ((gint64) roi->width + 2 * reach) - 2 * reach;

  return (gint) CLAMP (rows, MIN (roi->height, MAX (64, 2 * reach)), roi->height);
}

/* What of the band's source, grown by the reach, is read: its rows
 * inside the input, the rest the backend makes under the abyss, so that a
 * tiny image at a huge radius costs its own pixels.  The columns beyond
 * the input are read too, GEGL making their abyss, where they are not most
 * of a row: a row then goes through the passes where it lies, not copied
 * into a line with its abyss.  Loop's abyss repeats the far side of the
 * input, which must be there: where the part is not the whole input, the
 * grown source is read whole.  inside: the input's extent at the band's
 * level. */
static GeglRectangle
read_part (GeglAbyssPolicy      abyss,
           const GeglRectangle *grown,
           const GeglRectangle *inside)
{
  GeglRectangle part;

  if (!gegl_rectangle_intersect (&part, grown, inside) ||
      (abyss == GEGL_ABYSS_LOOP && !gegl_rectangle_equal (&part, inside)))
    return *grown;
  if (grown->width <= 2 * part.width)
    {
      part.x = grown->x;
      part.width = grown->width;
    }
  return part;
}

/* A mask stored a byte a pixel holds at most 256 values, each one box,
 * the same as from the value converted to the mask's format; where it is
 * read at full size, a pixel's box is looked up by its byte in `table`,
 * which takes a fraction of the time of making it from the value (the
 * larger part of reading a band).  FALSE where the table does not apply. */
static gboolean
byte_widths (const CblurVariable *variable,
             GeglBuffer          *aux,
             const Babl          *mask_format,
             gint                 level,
             CblurBoxWidth        table[256])
{
  const Babl *stored = gegl_buffer_get_format (aux);
  guint8      codes[256];
  gfloat      grey[256];
  gint        i;

  if (level != 0 || babl_format_get_bytes_per_pixel (stored) != 1)
    return FALSE;
  /* A byte of the mask's own model and space is its code over 255, as
   * babl has it; babl is asked only for another, whose conversion it may
   * first have to search for (a third of a second where its cache of
   * conversions is empty). */
  if (babl_format_get_type (stored, 0) == babl_type ("u8") &&
      babl_format_get_space (stored) == babl_format_get_space (mask_format) &&
      g_str_equal (babl_get_name (babl_format_get_model (stored)),
                   babl_get_name (babl_format_get_model (mask_format))))
    for (i = 0; i < 256; i++)
      grey[i] = (gfloat) (i / 255.0);
  else
    {
      for (i = 0; i < 256; i++)
        codes[i] = i;
      babl_process (babl_fish (stored, mask_format), codes, grey, 256);
    }
  cblur_variable_widths (variable, grey, table, 256);
  return TRUE;
}

/* the band's source read, with the boxes of its pixels, blurred through
 * the backend, and its rows out; what it took learned as work's */
static void
blur_band (CblurBackendKind       backend,
           const CblurPrediction *prediction,
           const CblurWork       *work,
           Io                    *io,
           const GeglRectangle   *band,
           const GeglRectangle   *inside)
{
  gint           reach = io->variable->reach;
  GeglRectangle  grown = { band->x - reach, band->y - reach,
                           band->width + 2 * reach, band->height + 2 * reach };
  GeglRectangle  part = read_part (io->abyss, &grown, inside);
  CblurImage     src = { NULL, part.x, part.y, part.width, part.height, 0, io->read_native };
  CblurImage     dst = { NULL, band->x, band->y, band->width, band->height, 0,
                         io->write_native };
  CblurRunReport report = { 0 };
  gint64         started = g_get_monotonic_time ();
  gint64         read, blurred;
  g_autoptr (CblurVariableBand) pixels = cblur_variable_band_new (backend, &src, &dst,
                                                                  &io->boxes);

  cblur_parallel_distribute_range (io_groups (io, &src, 0, part.height), 1.0, read_rows, io);
  read = g_get_monotonic_time ();

  cblur_backend_variable_blur (pixels, io->variable, &src, io->abyss, &dst, &report);
  if (report.gl_failure != NULL)
    {
      static gsize warned = 0;

      cblur_warn_gpu_failed (&warned, "cblur:variable-blur", report.gl_failure);
    }
  blurred = g_get_monotonic_time ();

  cblur_parallel_distribute_range (io_groups (io, &dst, 0, dst.height), 1.0, write_rows, io);
  g_clear_pointer (&pixels, cblur_variable_band_free);

  /* the fields of the Gaussian blur's line, which the benchmark sums */
  report.mode_name = "variable";
  report.radii[CBLUR_AXIS_X] = report.radii[CBLUR_AXIS_Y] = io->variable->radius;
  report.read_ms = (read - started) / 1000.0;
  report.write_ms = (g_get_monotonic_time () - blurred) / 1000.0;
  report.total_ms = (g_get_monotonic_time () - started) / 1000.0;
  cblur_choice_learn (work, report.ran_on, report.total_ms);
  cblur_choice_report (prediction, &report);
  cblur_log_band (&report, band, io->level);
  cblur_run_report_clear (&report);
}

static gboolean
process (GeglOperation       *operation,
         GeglBuffer          *input,
         GeglBuffer          *aux,
         GeglBuffer          *output,
         const GeglRectangle *result,
         gint                 level)
{
  GeglProperties        *o = GEGL_PROPERTIES (operation);
  const GeglRectangle   *in_rect = gegl_operation_source_get_bounding_box (operation, "input");
  g_autoptr (GeglBuffer) bounded = gegl_buffer_create_sub_buffer (input, in_rect);
  /* Beyond the input's edges the halo's pixels take the boxes of the
   * edge's: the mask goes on smoothly, so that the passes there blur as
   * the edge pixels ask, and a constant mask stays constant. */
  g_autoptr (GeglBuffer) mask = gegl_buffer_create_sub_buffer (aux, in_rect);
  GeglRectangle          roi = cblur_rectangle_at_level (result, level);
  CblurVariable          variable;
  const Babl            *format = gegl_operation_get_format (operation, "output");
  /* as the Gaussian blur: stored pixels at level 0, where GIMP's previews
   * are not */
  Io                     io = { bounded, mask, output,
                                babl_format_with_space ("RaGaBaA float",
                                                        babl_format_get_space (format)),
                                level == 0 ? cblur_format_get (gegl_buffer_get_format (input))
                                           : NULL,
                                cblur_format_get (format),
                                gegl_operation_get_format (operation, "aux"), level,
                                o->abyss_policy, &variable, NULL, 0, 0, { NULL } };
  GeglRectangle          inside = cblur_rectangle_at_level (in_rect, level);
  CblurBoxWidth          table[256];
  CblurWork              work = work_of (o, format, &roi, level);
  CblurPrediction        prediction;
  CblurBackendKind       backend;
  gint                   rows, y;

  if (roi.width <= 0 || roi.height <= 0)
    return TRUE;

  cblur_variable_init (&variable, o->radius / (1 << level), o->iterations);
  if (byte_widths (&variable, mask, io.mask_format, level, table))
    io.boxes.table = table;
  backend = cblur_choice_make (&work, &prediction);
  rows = band_rows (&variable, &roi, &prediction);
  for (y = roi.y; y < roi.y + roi.height; y += rows)
    {
      GeglRectangle band;
      CblurWork     band_work;

      /* the CPU hands the rest to the GPU once that is ready and
       * predicted to finish it first */
      if (y > roi.y && backend == CBLUR_BACKEND_CPU)
        {
          GeglRectangle rest = { roi.x, y, roi.width, roi.y + roi.height - y };
          CblurWork     rest_work = work_of (o, format, &rest, level);

          backend = cblur_choice_make (&rest_work, &prediction);
          if (backend == CBLUR_BACKEND_GL)
            rows = band_rows (&variable, &rest, &prediction);
        }
      band = (GeglRectangle) { roi.x, y, roi.width, MIN (rows, roi.y + roi.height - y) };
      band_work = work_of (o, format, &band, level);
      blur_band (backend, &prediction, &band_work, &io, &band, &inside);
      if (roi.height > rows)
        gegl_operation_progress (operation, (gdouble) (y + band.height - roi.y) / roi.height,
                                 (gchar *) _("Blurring"));
    }
  cblur_choice_region_done (&work);
  return TRUE;
}

static void
gegl_op_class_init (GeglOpClass *klass)
{
  GObjectClass               *object_class = G_OBJECT_CLASS (klass);
  GeglOperationClass         *operation_class = GEGL_OPERATION_CLASS (klass);
  GeglOperationComposerClass *composer_class = GEGL_OPERATION_COMPOSER_CLASS (klass);
  gboolean                    gpu = cblur_backend_likely () == CBLUR_BACKEND_GL;

  object_class->finalize = finalize;
  operation_class->prepare = prepare;
  operation_class->process = operation_process;
  operation_class->get_bounding_box = get_bounding_box;
  operation_class->get_required_for_output = get_required_for_output;
  operation_class->get_invalidated_by_change = get_invalidated_by_change;
  operation_class->get_cached_region = get_cached_region;
  /* the backend threads the work itself */
  operation_class->threaded = FALSE;
  /* cblur_cache_on_node gives a node its cache where it pays */
  operation_class->cache_policy = GEGL_CACHE_POLICY_NEVER;
  composer_class->process = process;
  /* GIMP shows the aux pad's label beside the drawable it takes */
  composer_class->aux_label = _("Mask");
  composer_class->aux_description = _("The layer or channel whose grey sets each "
                                      "pixel's blur: white the full radius, black "
                                      "none (the Input of GIMP's Variable Blur)");

  /* the title and the menu say where the blur runs, as far as is known
   * without opening GL, as the Gaussian blur's do */
  gegl_operation_class_set_keys (operation_class,
    "name",            "cblur:variable-blur",
    "title",           gpu ? _("Variable Blur (GPU)") : _("Variable Blur (CPU)"),
    "categories",      "blur",
    "gimp:menu-path",  "<Image>/Filters/Blur",
    "gimp:menu-label", gpu ? _("Variable Blur (GPU)...") : _("Variable Blur (CPU)..."),
    /* a diagonal ramp of blur over GEGL's checkerboard, as gegl-tester
     * renders it: the mask feeds the aux pad from inside the node.  The
     * CPU's hash, and Mesa's GL's (hashB), whose float sums round a few
     * pixels to the next 8-bit code. */
    "reference-hash", "bf3306ff0efa0448713dd6808928a5a7",
    "reference-hashB", "3ee1ad220d078a110a9dd369c2bea4a8",
    "reference-composition",
      "<?xml version='1.0' encoding='UTF-8'?>"
      "<gegl>"
      "<node operation='cblur:variable-blur'>"
      "  <params><param name='radius'>8</param></params>"
      "  <node operation='gegl:linear-gradient'>"
      "    <params><param name='start-x'>0</param><param name='start-y'>0</param>"
      "    <param name='end-x'>200</param><param name='end-y'>150</param>"
      "    <param name='start-color'>black</param>"
      "    <param name='end-color'>white</param></params>"
      "  </node>"
      "</node>"
      "<node operation='gegl:crop' width='200' height='200'/>"
      "<node operation='gegl:checkerboard'>"
      "  <params><param name='x'>23</param><param name='y'>23</param>"
      "  <param name='color1'>rgb(0.05, 0.2, 0.6)</param>"
      "  <param name='color2'>rgb(1.0, 0.85, 0.3)</param></params>"
      "</node>"
      "</gegl>",
    /* the menu's tooltip: one line */
    "description", _("Blurs each pixel by its own amount, read from a mask"),
    NULL);
}

#endif
