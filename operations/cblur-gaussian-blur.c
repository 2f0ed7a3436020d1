/* cblur:gaussian-blur — a Gaussian blur that runs on the GPU through OpenGL
 * compute shaders and on the CPU where no GL 4.3 context can be had.
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

#ifdef GEGL_PROPERTIES

#define RADIUS_DEFAULT 10.0

enum_start (cblur_op_mode)
  enum_value (CBLUR_OP_MODE_AUTO,   "auto",   N_("Auto (direct up to radius 25, box above)"))
  enum_value (CBLUR_OP_MODE_DIRECT, "direct", N_("Direct (exact)"))
  enum_value (CBLUR_OP_MODE_BOX,    "box",    N_("Box (constant time)"))
enum_end (CblurOpMode)

/* An axis at the default blurs at radius: graphs, scripts and saved
 * layer effects that give radius alone blur at it along both axes.
 * GIMP sets every property of a filter in the order declared, and
 * puts those its settings do not give back to their defaults, so the
 * axes follow radius in any order, rather than radius setting them.
 * Reading an axis gives the radius it blurs at.  GIMP shows the axes,
 * chained while they are equal, and not radius. */
property_double (radius, _("Radius"), RADIUS_DEFAULT)
  description (_("Half-width of the blur in pixels along each axis whose "
                 "own radius is at its default, 10: three standard deviations "
                 "(3σ), so radius 30 blurs as GIMP's Gaussian Blur at Size 10 "
                 "and Variable Blur (GPU or CPU) at radius 10"))
  value_range (0.0, CBLUR_RADIUS_MAX)
  ui_range    (0.0, 300.0)
  ui_gamma    (2.0)
  ui_digits   (1)
  ui_steps    (0.5, 5.0)
  ui_meta     ("unit", "pixel-distance")
  ui_meta     ("visible", "0")

property_double (radius_x, _("Radius X (3 × Size X)"), RADIUS_DEFAULT)
  description (_("Half-width of the blur along x in pixels: three standard "
                 "deviations (3σ), so radius 30 blurs as GIMP's Gaussian Blur "
                 "at Size 10 and Variable Blur (GPU or CPU) at radius 10; 0 "
                 "blurs along y only"))
  value_range (0.0, CBLUR_RADIUS_MAX)
  ui_range    (0.0, 300.0)
  ui_gamma    (2.0)
  ui_digits   (1)
  ui_steps    (0.5, 5.0)
  ui_meta     ("unit", "pixel-distance")
  ui_meta     ("axis", "x")

property_double (radius_y, _("Radius Y (3 × Size Y)"), RADIUS_DEFAULT)
  description (_("Half-width of the blur along y in pixels: three standard "
                 "deviations (3σ), so radius 30 blurs as GIMP's Gaussian Blur "
                 "at Size 10 and Variable Blur (GPU or CPU) at radius 10; 0 "
                 "blurs along x only"))
  value_range (0.0, CBLUR_RADIUS_MAX)
  ui_range    (0.0, 300.0)
  ui_gamma    (2.0)
  ui_digits   (1)
  ui_steps    (0.5, 5.0)
  ui_meta     ("unit", "pixel-distance")
  ui_meta     ("axis", "y")

property_enum (mode, _("Mode"), CblurOpMode, cblur_op_mode, CBLUR_OP_MODE_AUTO)
  description (_("Direct convolution is exact; repeated box filters cost the "
                 "same at any radius; auto picks, for each axis, direct up to "
                 "radius 25 and box above"))

/* GIMP's dialog cannot tell which mode auto picks for a radius: there
 * its label says where the passes count */
property_int (iterations, _("Box passes"), 4)
  description (_("Box filter passes per axis in box mode: more passes come "
                 "closer to a true Gaussian"))
  value_range (CBLUR_ITERATIONS_MIN, CBLUR_ITERATIONS_MAX)
  ui_meta     ("sensitive", "mode {auto, box}")
  ui_meta     ("label", "[mode {auto} : auto-label, mode {direct, box} : box-label]")
  ui_meta     ("auto-label", _("Box passes above radius 25"))
  ui_meta     ("box-label", _("Box passes"))

property_enum (abyss_policy, _("Abyss policy"), GeglAbyssPolicy,
               gegl_abyss_policy, GEGL_ABYSS_CLAMP)
  description (_("How image edges are handled"))

property_boolean (clip_extent, _("Clip to the input extent"), TRUE)
  description (_("Should the output extent be clipped to the input extent"))

#else

#define GEGL_OP_AREA_FILTER
#define GEGL_OP_BUNDLE
#define GEGL_OP_NAME     cblur_gaussian_blur
#define GEGL_OP_C_SOURCE cblur-gaussian-blur.c

#include "gegl-op.h"

#include "cblur-backend-offer.h"
#include "cblur-band-kernel.h"
#include "cblur-band-loop.h"
#include "cblur-bands.h"
#include "cblur-op.h"
#include "cblur-op-vfuncs.h"

G_STATIC_ASSERT ((gint) CBLUR_OP_MODE_AUTO == (gint) CBLUR_MODE_AUTO);
G_STATIC_ASSERT ((gint) CBLUR_OP_MODE_DIRECT == (gint) CBLUR_MODE_DIRECT);
G_STATIC_ASSERT ((gint) CBLUR_OP_MODE_BOX == (gint) CBLUR_MODE_BOX);

/* the properties a blur's pixels depend on */
typedef struct
{
  gdouble  radius_x;
  gdouble  radius_y;
  gint     mode;
  gint     iterations;
  gint     abyss;
  gboolean clip_extent;
} Values;

/* an axis at the default blurs at radius (see the properties) */
static gdouble
axis_radius (GeglProperties *o,
             gdouble         radius)
{
  return radius == RADIUS_DEFAULT ? o->radius : radius;
}

/* the blur at level as the plan sees it */
static void
describe (GeglOperation *operation,
          gint           level,
          CblurBlur     *blur)
{
  GeglProperties *o = GEGL_PROPERTIES (operation);
  Values          values = { axis_radius (o, o->radius_x), axis_radius (o, o->radius_y),
                             o->mode, o->iterations, o->abyss_policy, o->clip_extent };

  cblur_blur_describe_kernel (blur, values.radius_x, values.radius_y, (CblurMode) o->mode,
                              o->iterations, level);
  blur->abyss = o->abyss_policy;
  blur->values = g_bytes_new (&values, sizeof values);
}

static const CblurOpBlur gaussian_blur =
{
  "cblur:gaussian-blur", "gaussian-blur", CBLUR_REGIONS_PLANNED, cblur_band_rows_kernel,
  cblur_blur_band_kernel, describe
};

static void
prepare (GeglOperation *operation)
{
  GeglOperationAreaFilter *area = GEGL_OPERATION_AREA_FILTER (operation);
  const Babl              *format = cblur_op_format (operation);
  g_auto (CblurBlur)       blur = { 0 };

  describe (operation, 0, &blur);
  area->left = area->right = area->top = area->bottom = blur.reach;
  gegl_operation_set_format (operation, "input", format);
  gegl_operation_set_format (operation, "output", cblur_format_for_result (format));
  cblur_plan_prepare (&gaussian_blur, operation);
}

static GeglAbyssPolicy
get_abyss_policy (GeglOperation *operation,
                  const gchar   *input_pad)
{
  return GEGL_PROPERTIES (operation)->abyss_policy;
}

static GeglRectangle
get_bounding_box (GeglOperation *operation)
{
  GeglOperationAreaFilter *area = GEGL_OPERATION_AREA_FILTER (operation);
  GeglProperties          *o = GEGL_PROPERTIES (operation);
  const GeglRectangle     *in_rect =
    gegl_operation_source_get_bounding_box (operation, "input");
  GeglRectangle            box;

  if (in_rect == NULL)
    return *GEGL_RECTANGLE (0, 0, 0, 0);

  box = *in_rect;
  if (o->clip_extent || gegl_rectangle_is_infinite_plane (&box))
    return box;

  box.x -= area->left;
  box.y -= area->top;
  box.width += area->left + area->right;
  box.height += area->top + area->bottom;
  return box;
}

static gboolean
process (GeglOperation       *operation,
         GeglBuffer          *input,
         GeglBuffer          *output,
         const GeglRectangle *result,
         gint                 level)
{
  GeglProperties         *o = GEGL_PROPERTIES (operation);
  g_auto (CblurBlur)      blur = { 0 };
  g_autoptr (CblurKernel) kernel = NULL;

  describe (operation, level, &blur);
  kernel = cblur_kernel_new_xy (axis_radius (o, o->radius_x) / (1 << level),
                                axis_radius (o, o->radius_y) / (1 << level),
                                (CblurMode) o->mode, o->iterations);
  cblur_blur_set_kernel (&blur, kernel);
  return cblur_plan_blur_region (&blur, operation, input, NULL, output, result, level);
}

static void (*chant_get_property) (GObject    *object,
                                   guint       property_id,
                                   GValue     *value,
                                   GParamSpec *pspec);

/* an axis reads as the radius it blurs at */
static void
get_property_axes (GObject    *object,
                   guint       property_id,
                   GValue     *value,
                   GParamSpec *pspec)
{
  GeglProperties *o = GEGL_PROPERTIES (object);

  if (property_id == PROP_radius_x)
    g_value_set_double (value, axis_radius (o, o->radius_x));
  else if (property_id == PROP_radius_y)
    g_value_set_double (value, axis_radius (o, o->radius_y));
  else
    chant_get_property (object, property_id, value, pspec);
}

static void
gegl_op_class_init (GeglOpClass *klass)
{
  GObjectClass                 *object_class = G_OBJECT_CLASS (klass);
  GeglOperationClass           *operation_class = GEGL_OPERATION_CLASS (klass);
  GeglOperationFilterClass     *filter_class = GEGL_OPERATION_FILTER_CLASS (klass);
  GeglOperationAreaFilterClass *area_class = GEGL_OPERATION_AREA_FILTER_CLASS (klass);
  /* the title and the menu say where the blur runs, as far as is known
   * without opening GL, which every GEGL process would pay for at start */
  gboolean                      gpu = cblur_backend_likely () == CBLUR_BACKEND_GL;

  chant_get_property = object_class->get_property;
  object_class->get_property = get_property_axes;
  operation_class->prepare = prepare;
  operation_class->process = cblur_op_process;
  operation_class->get_bounding_box = get_bounding_box;
  operation_class->get_cached_region = cblur_plan_get_cached_region;
  operation_class->get_invalidated_by_change = cblur_op_get_invalidated_by_change;
  /* the backends thread (CPU) or serialize (GL) the work themselves */
  operation_class->threaded = FALSE;
  operation_class->cache_policy = GEGL_CACHE_POLICY_NEVER;
  filter_class->process = process;
  area_class->get_abyss_policy = get_abyss_policy;

  gegl_operation_class_set_keys (operation_class,
    "name",        "cblur:gaussian-blur",
    "title",       gpu ? _("Gaussian Blur (GPU)") : _("Gaussian Blur (CPU)"),
    "categories",  "blur",
    "gimp:menu-path",  "<Image>/Filters/Blur",
    "gimp:menu-label", gpu ? _("Gaussian Blur (GPU)...") : _("Gaussian Blur (CPU)..."),
    "reference-hash", "512fbc0d9cddf7ea7ec857cc5851b303",
    "reference-composition",
      "<?xml version='1.0' encoding='UTF-8'?>"
      "<gegl>"
      "<node operation='gegl:crop' width='200' height='200'/>"
      "<node operation='cblur:gaussian-blur'>"
      "  <params><param name='radius'>15</param><param name='mode'>box</param></params>"
      "</node>"
      "<node operation='gegl:checkerboard'>"
      "  <params><param name='x'>23</param><param name='y'>23</param>"
      "  <param name='color1'>rgb(0.05, 0.2, 0.6)</param>"
      "  <param name='color2'>rgb(1.0, 0.85, 0.3)</param></params>"
      "</node>"
      "</gegl>",
    /* the menu's tooltip: one line */
    "description", _("Gaussian blur: radius 30 blurs as Size 10 in GIMP's own"),
    NULL);
}

#endif
