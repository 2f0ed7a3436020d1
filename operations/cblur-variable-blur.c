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

#include "cblur-backend-offer.h"
#include "cblur-band-loop.h"
#include "cblur-band-variable.h"
#include "cblur-bands.h"
#include "cblur-op.h"
#include "cblur-op-vfuncs.h"

static gint
reach_at_level (GeglProperties *o,
                gint            level)
{
  return cblur_variable_reach (o->radius / (1 << level), o->iterations);
}

/* The blur at level as the plan sees it: a σ a pixel, no kernel mode. */
static void
describe (GeglOperation *operation,
          gint           level,
          CblurBlur     *blur)
{
  GeglProperties *o = GEGL_PROPERTIES (operation);

  blur->reach = reach_at_level (o, level);
  blur->mode = CBLUR_MODE_BOX;
  blur->work_mode = blur->mode_name = "variable";
  blur->abyss = o->abyss_policy;
}

static const CblurOpBlur variable_blur =
{
  "cblur:variable-blur", "variable-blur", CBLUR_REGIONS_WHOLE_IF_FITS,
  cblur_band_rows_variable, cblur_blur_band_variable, describe
};

static void
prepare (GeglOperation *operation)
{
  GeglProperties *o = GEGL_PROPERTIES (operation);
  const Babl     *format = cblur_op_format (operation);

  gegl_operation_set_format (operation, "input", format);
  gegl_operation_set_format (operation, "output", cblur_format_for_result (format));
  gegl_operation_set_format (operation, "aux",
                             babl_format_with_space (o->linear_mask ? "Y float" : "Y' float",
                                                     gegl_operation_get_source_space (operation,
                                                                                      "aux")));
  cblur_plan_prepare (&variable_blur, operation);
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

static gboolean
process (GeglOperation       *operation,
         GeglBuffer          *input,
         GeglBuffer          *aux,
         GeglBuffer          *output,
         const GeglRectangle *result,
         gint                 level)
{
  GeglProperties     *o = GEGL_PROPERTIES (operation);
  g_auto (CblurBlur)  blur = { 0 };
  CblurVariableBlur   variable;

  describe (operation, level, &blur);
  cblur_variable_blur_init (&variable, o->radius / (1 << level), o->iterations, operation,
                            aux, result, level);
  blur.data = &variable;
  blur.radii[CBLUR_AXIS_X] = blur.radii[CBLUR_AXIS_Y] = variable.variable.radius;
  return cblur_plan_blur_region (&blur, operation, input, aux, output, result, level);
}

static void
gegl_op_class_init (GeglOpClass *klass)
{
  GeglOperationClass         *operation_class = GEGL_OPERATION_CLASS (klass);
  GeglOperationComposerClass *composer_class = GEGL_OPERATION_COMPOSER_CLASS (klass);
  gboolean                    gpu = cblur_backend_likely () == CBLUR_BACKEND_GL;

  operation_class->prepare = prepare;
  operation_class->process = cblur_op_process;
  operation_class->get_bounding_box = get_bounding_box;
  operation_class->get_required_for_output = get_required_for_output;
  operation_class->get_invalidated_by_change = get_invalidated_by_change;
  operation_class->get_cached_region = cblur_plan_get_cached_region;
  /* the backend threads the work itself */
  operation_class->threaded = FALSE;
  /* cblur_cache_on_node gives a node its cache where it pays */
  operation_class->cache_policy = GEGL_CACHE_POLICY_NEVER;
  composer_class->process = process;
  /* the label of GIMP 3's drawable chooser, as on GIMP's own Variable Blur */
  composer_class->aux_label = _("Input");
  composer_class->aux_description = _("The mask: a layer or channel whose grey sets "
                                      "each pixel's blur, white the full radius, "
                                      "black none");

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
    "reference-hash", "7144c9b4312264f66e36465a4d993cf9",
    "reference-hashB", "0f88a9453fff70750cacd71d4f21af94",
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
