/* cblur:unsharp-mask — GEGL's Sharpen (Unsharp Mask) with its blur on the
 * GPU (OpenGL compute shaders) or the CPU, the arithmetic joined to the
 * blur in each band: the same properties as gegl:unsharp-mask, so that a
 * script or a saved filter switches by the operation's name alone.
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 3 of the License, or (at your
 * option) any later version.
 */

#include "config.h"
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#ifdef GEGL_PROPERTIES

property_double (std_dev, _("Radius"), 3.0)
  description (_("The blur's standard deviation in pixels"))
  value_range (0.0, 1500.0)
  ui_range    (0.0, 40.0)
  ui_gamma    (3.0)
  ui_meta     ("unit", "pixel-distance")

property_double (scale, _("Amount"), 0.5)
  description (_("How much of the difference from the blur is added: the "
                 "strength of the sharpening"))
  value_range (0.0, 300.0)
  ui_range    (0.0, 10.0)
  ui_gamma    (3.0)

property_double (threshold, _("Threshold"), 0.0)
  description (_("The least difference from the blur that is sharpened, as "
                 "luminance; 0 sharpens every pixel"))
  value_range (0.0, 1.0)
  ui_range    (0.0, 1.0)
  ui_gamma    (1.0)

#else

#define GEGL_OP_AREA_FILTER
#define GEGL_OP_BUNDLE
#define GEGL_OP_NAME     cblur_unsharp_mask
#define GEGL_OP_C_SOURCE cblur-unsharp-mask.c

#include "gegl-op.h"

#include <string.h>

#include "cblur-combine-op.h"

/* GEGL's meta-op applies its threshold mask from this threshold on */
#define THRESHOLD_FROM 0.0001

static void
combine_of (GeglOperation *operation,
            CblurCombine  *combine)
{
  GeglProperties *o = GEGL_PROPERTIES (operation);

  combine->kind = CBLUR_COMBINE_UNSHARP;
  combine->radii[0] = cblur_combine_radius (o->std_dev);
  combine->amount = o->scale;
  combine->thresholded = o->threshold > THRESHOLD_FROM;
  if (combine->thresholded)
    cblur_combine_threshold_in (gegl_operation_get_source_space (operation, "input"),
                                o->threshold, &combine->threshold);
}

CBLUR_COMBINE_OP_WIRING ("cblur:unsharp-mask", "unsharp-mask")

static void
gegl_op_class_init (GeglOpClass *klass)
{
  gboolean gpu = set_wiring (klass);

  gegl_operation_class_set_keys (GEGL_OPERATION_CLASS (klass),
    "name",        "cblur:unsharp-mask",
    "title",       gpu ? _("Sharpen (Unsharp Mask) (GPU)") : _("Sharpen (Unsharp Mask) (CPU)"),
    "categories",  "enhance:sharpen",
    "gimp:menu-path",  "<Image>/Filters/Enhance",
    "gimp:menu-label", gpu ? _("Sharpen (Unsharp Mask) (GPU)...")
                           : _("Sharpen (Unsharp Mask) (CPU)..."),
    "description", _("Sharpens by adding the difference from a Gaussian blur, "
                     "as GEGL's Sharpen (Unsharp Mask)"),
    NULL);
}

#endif
