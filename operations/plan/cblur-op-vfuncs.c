#include "config.h"
#include "cblur-op-vfuncs.h"

#include "cblur-plan-private.h"

/* the class the op's own class derives from (GEGL's area filter,
 * composer) */
static GeglOperationClass *
parent_class (GeglOperation *operation)
{
  return GEGL_OPERATION_CLASS (g_type_class_peek_parent (G_OBJECT_GET_CLASS (operation)));
}

static gboolean
reaches_nowhere (GeglOperation        *operation,
                 GeglOperationContext *context)
{
  CblurPlan         *plan = cblur_plan_of (operation);
  g_auto (CblurBlur) blur = { 0 };

  if (gegl_operation_context_get_object (context, "input") == NULL ||
      (gegl_node_has_pad (operation->node, "aux") &&
       gegl_operation_context_get_object (context, "aux") == NULL))
    return TRUE;
  if (plan == NULL)
    return FALSE;
  plan->op_blur->describe (operation, 0, &blur);
  return blur.reach == 0;
}

gboolean
cblur_op_process (GeglOperation        *operation,
                  GeglOperationContext *context,
                  const gchar          *output_prop,
                  const GeglRectangle  *result,
                  gint                  level)
{
  if (reaches_nowhere (operation, context))
    {
      gegl_operation_context_set_object (context, "output",
                                         gegl_operation_context_get_object (context, "input"));
      return TRUE;
    }
  return parent_class (operation)->process (operation, context, output_prop, result, level);
}

GeglRectangle
cblur_op_get_invalidated_by_change (GeglOperation       *operation,
                                    const gchar         *input_pad,
                                    const GeglRectangle *input_region)
{
  GeglRectangle changed =
    parent_class (operation)->get_invalidated_by_change (operation, input_pad, input_region);

  cblur_plan_invalidated (operation, &changed);
  return changed;
}
