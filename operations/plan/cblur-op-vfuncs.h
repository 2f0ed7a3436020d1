/* GEGL vfuncs that every op on the plan shares as they are, set in its
 * class_init.  GEGL calls them from its threads; they find the node's
 * plan that the op's prepare made (cblur-plan.h). */
#ifndef CBLUR_OP_VFUNCS_H
#define CBLUR_OP_VFUNCS_H

#include <gegl-plugin.h>

G_BEGIN_DECLS

/* GeglOperationClass.process: hands the input on untouched, not even
 * converted, where the blur reaches nowhere at level 0 (radius 0) or a
 * pad it reads has no buffer; else the op's own class's parent's
 * process, which calls the op's. */
gboolean      cblur_op_process                   (GeglOperation        *operation,
                                                  GeglOperationContext *context,
                                                  const gchar          *output_prop,
                                                  const GeglRectangle  *result,
                                                  gint                  level);

/* GeglOperationClass.get_invalidated_by_change of an op whose output
 * a change of the input invalidates as its parent class says, noted
 * for the plan (a brush's dabs under the blur). */
GeglRectangle cblur_op_get_invalidated_by_change (GeglOperation        *operation,
                                                  const gchar          *input_pad,
                                                  const GeglRectangle  *input_region);

G_END_DECLS

#endif
