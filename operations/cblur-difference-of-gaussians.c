/* cblur:difference-of-gaussians — GEGL's Difference of Gaussians with
 * both blurs of one source on the GPU (OpenGL compute shaders) or the
 * CPU, the difference taken in each band: the same properties as
 * gegl:difference-of-gaussians, so that a script or a saved filter
 * switches by the operation's name alone.
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

property_double (radius1, _("Radius 1"), 1.0)
  description (_("The first blur's standard deviation in pixels"))
  value_range (0.0, 1000.0)
  ui_range    (0.0, 10.0)
  ui_gamma    (1.5)

property_double (radius2, _("Radius 2"), 2.0)
  description (_("The standard deviation in pixels of the blur subtracted "
                 "from the first"))
  value_range (0.0, 1000.0)
  ui_range    (0.0, 20.0)
  ui_gamma    (1.5)

#else

#define GEGL_OP_AREA_FILTER
#define GEGL_OP_BUNDLE
#define GEGL_OP_NAME     cblur_difference_of_gaussians
#define GEGL_OP_C_SOURCE cblur-difference-of-gaussians.c

#include "gegl-op.h"

#include <string.h>

#include "cblur-combine-op.h"

static void
combine_of (GeglOperation *operation,
            CblurCombine  *combine)
{
  GeglProperties *o = GEGL_PROPERTIES (operation);

  combine->kind = CBLUR_COMBINE_DIFFERENCE;
  combine->radii[0] = cblur_combine_radius (o->radius1);
  combine->radii[1] = cblur_combine_radius (o->radius2);
}

CBLUR_COMBINE_OP_WIRING ("cblur:difference-of-gaussians", "difference-of-gaussians")

static void
gegl_op_class_init (GeglOpClass *klass)
{
  gboolean gpu = set_wiring (klass);

  gegl_operation_class_set_keys (GEGL_OPERATION_CLASS (klass),
    "name",        "cblur:difference-of-gaussians",
    "title",       gpu ? _("Difference of Gaussians (GPU)")
                       : _("Difference of Gaussians (CPU)"),
    "categories",  "edge-detect",
    "gimp:menu-path",  "<Image>/Filters/Edge-Detect",
    "gimp:menu-label", gpu ? _("Difference of Gaussians (GPU)...")
                           : _("Difference of Gaussians (CPU)..."),
    "description", _("Finds edges as the difference of two Gaussian blurs, as "
                     "GEGL's Difference of Gaussians"),
    NULL);
}

#endif
