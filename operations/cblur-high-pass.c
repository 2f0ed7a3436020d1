/* cblur:high-pass — GEGL's High Pass Filter with its blur on the GPU
 * (OpenGL compute shaders) or the CPU, the arithmetic joined to the blur
 * in each band: the same properties as gegl:high-pass, so that a script
 * or a saved filter switches by the operation's name alone.
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

property_double (std_dev, _("Standard deviation"), 4.0)
  description (_("The blur's standard deviation in pixels: details finer "
                 "than it pass"))
  value_range (0.0, 10000.0)
  ui_range    (0.0, 1000.0)
  ui_gamma    (1.5)

property_double (contrast, _("Contrast"), 1.0)
  description (_("How far the details spread from mid-grey"))
  value_range (0.0, 5.0)
  ui_range    (0.0, 5.0)

#else

#define GEGL_OP_AREA_FILTER
#define GEGL_OP_BUNDLE
#define GEGL_OP_NAME     cblur_high_pass
#define GEGL_OP_C_SOURCE cblur-high-pass.c

#include "gegl-op.h"

#include <string.h>

#include "cblur-combine-op.h"

static void
combine_of (GeglOperation *operation,
            CblurCombine  *combine)
{
  GeglProperties *o = GEGL_PROPERTIES (operation);

  combine->kind = CBLUR_COMBINE_HIGH_PASS;
  combine->radii[0] = cblur_combine_radius (o->std_dev);
  combine->contrast = o->contrast;
}

CBLUR_COMBINE_OP_WIRING ("cblur:high-pass", "high-pass")

static void
gegl_op_class_init (GeglOpClass *klass)
{
  gboolean gpu = set_wiring (klass);

  gegl_operation_class_set_keys (GEGL_OPERATION_CLASS (klass),
    "name",        "cblur:high-pass",
    "title",       gpu ? _("High Pass (GPU)") : _("High Pass (CPU)"),
    "categories",  "frequency",
    "gimp:menu-path",  "<Image>/Filters/Enhance",
    "gimp:menu-label", gpu ? _("High Pass (GPU)...") : _("High Pass (CPU)..."),
    "description", _("Keeps the details finer than a Gaussian blur about "
                     "mid-grey, as GEGL's High Pass Filter"),
    NULL);
}

#endif
